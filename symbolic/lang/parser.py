"""Text to AST: the lark parser of the model language and its error messages.

:func:`parse_model_text` reads a whole model file, :func:`parse_formula_text`
one formula (or state expression). Syntax errors become
:class:`~symbolic.errors.ParseError` with a span and a message in human terms
("expected ':' after the quantifier domain"), never lark's terminal names.
The spellings and the keyword policy (soft ``X`` and ``U``, every other
keyword reserved) come from :mod:`.vocabulary`.

>>> m = parse_model_text('game "g"\\nplayers 1, 2', "g.game")
>>> [type(d).__name__ for d in m.decls]
['GameDecl', 'PlayersDecl']
>>> parse_formula_text("<<1>> X x > 0").op
'X'
>>> parse_formula_text("X and U").op  # names where no operator may stand
'and'
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

import lark

from lark import Lark, Token, Tree, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)
from lark.lark import PostLex
from lark.lexer import TerminalDef
from lark.visitors import Transformer_NonRecursive

from ..errors import ParseError, Span, SymbolicError
from ..limits import MAX_INT_DIGITS, MAX_NESTING
from . import ast
from .vocabulary import (BRACKETS, DECLARATIONS, EXPRESSION_START, INFIX_OPERATORS, KEYWORDS,
                         OPERATORS, RESERVED, SOFT_KEYWORDS, TEMPORAL, TEMPORAL_INFIX,
                         TEMPORAL_PREFIX)


class _SoftKeywords(PostLex):
    """The keyword policy of the lexer: every terminal is lexed in every parser
    state, except the soft keywords (:data:`~.vocabulary.SOFT_KEYWORDS`).

    lark's contextual lexer lexes, in each state, the terminals the parser can
    take there plus the postlexer's ``always_accept``: here every terminal but
    the soft keywords. So reserved words and operators lex as with a basic
    lexer (``in`` is never a name, ``<<`` is never ``<`` ``<``), and a soft
    keyword is an operator where the parser can take it, a NAME elsewhere.
    The stream itself passes unchanged.
    """

    def __init__(self):
        self.always_accept: list[str] = []

    def record(self, terminal: TerminalDef) -> None:
        """lark's ``edit_terminals`` hook (called before the lexer is built):
        notes every terminal but the soft keywords."""
        if not (terminal.pattern.type == "str" and terminal.pattern.value in SOFT_KEYWORDS):
            self.always_accept.append(terminal.name)

    def process(self, stream):
        return stream


#: bump when the parser's construction changes in a way the cache key does not see
_CACHE_FORMAT = 1


def _grammar_text() -> str:
    return resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


def build_parser(grammar: str | None = None) -> Lark:
    """The model language's lark parser, built from the grammar (LALR analysis: about
    0.25 s, the largest part of a command's start-up; :func:`_parser` caches it)."""
    policy = _SoftKeywords()
    return Lark(_grammar_text() if grammar is None else grammar, parser="lalr",
                lexer="contextual", start=["start", "formula_start"],
                propagate_positions=True, maybe_placeholders=True,
                postlex=policy, edit_terminals=policy.record)


def cache_dir() -> Path | None:
    """Where the built parser is kept between runs: ``$SYMBOLIC_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/symbolic``, else ``~/.cache/symbolic``; ``SYMBOLIC_CACHE_DIR=""``
    turns the cache off (``None``)."""
    explicit = os.environ.get("SYMBOLIC_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "symbolic"


def cache_file(grammar: str, directory: Path) -> Path:
    """The cache file of ``grammar``'s parser: named by a hash of everything the
    built parser depends on (grammar, keyword policy, lark and Python versions)."""
    key = "\0".join([grammar, " ".join(sorted(SOFT_KEYWORDS)), lark.__version__,
                     sys.version, str(_CACHE_FORMAT)])
    return directory / f"model-parser-{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"


def load_parser(directory: Path | None) -> Lark:
    """The parser, read from its cache file in ``directory`` when one is there and
    readable, else built and (best effort) written there for the next run.

    The cache only saves time: a missing, unreadable, stale or corrupt file, or a
    directory that cannot be written, means the parser is built as without one.
    lark's own ``cache=`` option cannot be used: it does not replay the
    ``edit_terminals`` hook, so the soft-keyword policy would be lost; ``Lark.save``
    keeps the postlexer, and with it the policy's terminal list.
    """
    grammar = _grammar_text()
    if directory is None:
        return build_parser(grammar)
    path = cache_file(grammar, directory)
    try:
        with open(path, "rb") as f:
            cached = Lark.load(f)
        policy = cached.options.postlex
        if isinstance(policy, _SoftKeywords) and policy.always_accept:
            return cached
    except Exception:  # noqa: BLE001 - any unreadable cache is rebuilt, never trusted
        pass
    built = build_parser(grammar)
    tmp_name = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".tmp-", delete=False) as tmp:
            tmp_name = tmp.name
            built.save(tmp)
        os.replace(tmp_name, path)  # atomic: a concurrent reader sees all or nothing
    except OSError:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    return built


@functools.cache
def _parser() -> Lark:
    return load_parser(cache_dir())


# --------------------------------------------------------------------------- spans

class Source:
    """A text being parsed, able to make spans.

    >>> Source("a\\nbcd", "f").span(2, 2, 2, 4)
    Span(file='f', line=2, column=2, text='bcd', length=2)
    """

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.lines = text.split("\n")

    def line(self, n: int) -> str:
        return self.lines[n - 1].rstrip("\r") if 1 <= n <= len(self.lines) else ""

    def span(self, line: int, column: int, end_line: int | None = None,
             end_column: int | None = None) -> Span:
        text = self.line(line)
        if end_line == line and end_column is not None:
            length = max(1, end_column - column)
        elif end_line is not None and end_line > line:
            length = max(1, len(text) - column + 1)
        else:
            length = 1
        return Span(self.filename, line, column, text, length)

    def of_meta(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.span(1, 1)
        return self.span(meta.line, meta.column, meta.end_line, meta.end_column)

    def of_token(self, tok: Token) -> Span:
        return self.span(tok.line, tok.column, tok.end_line, tok.end_column)

    def end(self) -> Span:
        """The position just after the last non-blank character."""
        stripped = self.text.rstrip()
        line = stripped.count("\n") + 1
        column = len(stripped) - (stripped.rfind("\n") + 1) + 1
        return self.span(line, column)


# --------------------------------------------------------------------------- tree -> AST

def _decode_string(raw: str) -> str:
    """The value of a string literal (``"..."`` or ``\"\"\"...\"\"\"``), escapes resolved."""
    if raw.startswith('"""'):
        body, long = raw[3:-3], True
    else:
        body, long = raw[1:-1], False
    out, i = [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    text = "".join(out)
    return inspect.cleandoc(text) if long else text


def _present(children) -> list:
    """Children without lark's ``None`` placeholders for absent optional parts."""
    return [c for c in children if c is not None]


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    """Builds :mod:`symbolic.lang.ast` nodes from the lark tree (one method per rule)."""

    def __init__(self, source: Source):
        super().__init__()
        self.src = source

    def _span(self, meta) -> Span:
        return self.src.of_meta(meta)

    # --- tokens and small rules
    def ident(self, meta, children):
        tok = children[0]
        return ast.Ident(str(tok), self.src.of_token(tok))

    def string(self, meta, children):
        return _decode_string(str(children[0]))

    def _op(self, meta, children):
        return " ".join(str(c) for c in children)

    iff_op = implies_op = or_op = and_op = not_op = comp_op = add_op = mul_op = _op
    quant_op = prefix_temporal_op = infix_temporal_op = _op

    # --- declarations
    def start(self, meta, children):
        decls = []
        for c in children:
            decls.extend(c if isinstance(c, list) else [c])
        return ast.ModelAst(tuple(decls), self._span(meta))

    def formula_start(self, meta, children):
        return children[0]

    def game_decl(self, meta, children):
        name, description = children
        return ast.GameDecl(name, description, self._span(meta))

    def description_decl(self, meta, children):
        return ast.DescriptionDecl(children[0], self._span(meta))

    def param_decl(self, meta, children):
        return list(children)

    def param_item(self, meta, children):
        name, typ, default = children
        return ast.ParamDecl(name, typ, default, self._span(meta))

    def const_decl(self, meta, children):
        return list(children)

    def const_item(self, meta, children):
        name, expr = children
        return ast.ConstDecl(name, expr, self._span(meta))

    def players_decl(self, meta, children):
        return ast.PlayersDecl(tuple(children), self._span(meta))

    def var_decl(self, meta, children):
        *names, typ = children
        return ast.VarDecl(tuple(names), typ, self._span(meta))

    def bool_type(self, meta, children):
        return ast.BoolSpec(self._span(meta))

    def range_type(self, meta, children):
        lo, hi = children
        return ast.RangeSpec(lo, hi, self._span(meta))

    def array_type(self, meta, children):
        lo, hi, elem = children
        return ast.ArraySpec(lo, hi, elem, self._span(meta))

    def turn_decl(self, meta, children):
        return ast.TurnDecl(children[0], self._span(meta))

    def invariant_decl(self, meta, children):
        return ast.InvariantDecl(children[0], self._span(meta))

    def move_decl(self, meta, children):
        name, params, guard, effects = children
        return ast.MoveDecl(name, tuple(params or ()), guard, tuple(effects), self._span(meta))

    def move_params(self, meta, children):
        return _present(children)

    def effect(self, meta, children):
        return _present(children)

    def set_decl(self, meta, children):
        name, formals, body = children
        return ast.SetDecl(name, tuple(formals or ()), body, self._span(meta))

    def formula_decl(self, meta, children):
        name, formals, body = children
        return ast.FormulaDecl(name, tuple(formals or ()), body, self._span(meta))

    def formals(self, meta, children):
        return _present(children)

    def formal(self, meta, children):
        name, kind = children
        return ast.Formal(name, kind, self._span(meta))

    def query_decl(self, meta, children):
        return list(children)

    def query_item(self, meta, children):
        text = self.src.text[meta.start_pos:meta.end_pos]
        return ast.QueryDecl(children[0], text, self._span(meta))

    def display_decl(self, meta, children):
        return ast.DisplayDecl(children[0], self._span(meta))

    # --- expressions
    def binary(self, meta, children):
        left, op, right = children
        return ast.Binary(OPERATORS[op], left, right, self._span(meta))

    def unary(self, meta, children):
        op, arg = children
        return ast.Unary(OPERATORS[op], arg, self._span(meta))

    def neg(self, meta, children):
        return ast.Unary("-", children[0], self._span(meta))

    def compare(self, meta, children):
        """``a < b <= c`` is ``a < b and b <= c`` (Python's chained comparisons)."""
        operands, ops = children[0::2], children[1::2]
        parts = []
        for left, op, right in zip(operands, ops, operands[1:]):
            span = _join(left.span, right.span)
            parts.append(ast.Binary(OPERATORS[op], left, right, span))
        out = parts[0]
        for p in parts[1:]:
            out = ast.Binary("and", out, p, self._span(meta))
        return out

    def range(self, meta, children):
        lo, hi = children
        return ast.Range(lo, hi, self._span(meta))

    def index(self, meta, children):
        base, idx = children
        return ast.Index(base, idx, self._span(meta))

    def int_lit(self, meta, children):
        digits = str(children[0])
        if len(digits) > MAX_INT_DIGITS:
            raise ParseError(f"integer literal of {len(digits)} digits: at most "
                             f"{MAX_INT_DIGITS} are allowed", self._span(meta))
        return ast.IntLit(int(digits), self._span(meta))

    def true_lit(self, meta, children):
        return ast.BoolLit(True, self._span(meta))

    def false_lit(self, meta, children):
        return ast.BoolLit(False, self._span(meta))

    def string_lit(self, meta, children):
        return ast.StrLit(children[0], self._span(meta))

    def name(self, meta, children):
        tok, prime = children
        return ast.Name(str(tok), prime is not None, self._span(meta))

    def call(self, meta, children):
        tok, args = children
        if args is None:
            args = ()
        elif isinstance(args, ast.Generator):
            args = (args,)
        return ast.Call(str(tok), tuple(args), self._span(meta))

    def args(self, meta, children):
        return list(children)

    def generator(self, meta, children):
        elem, clauses = children
        return ast.Generator(elem, tuple(clauses), self._span(meta))

    def first_and_generator(self, meta, children):
        """``f(a, e for x in D)``: an argument, then a generator (``join`` of a display)."""
        first, elem, clauses = children
        return [first, ast.Generator(elem, tuple(clauses), _join(elem.span, clauses[-1].span))]

    def comp_clauses(self, meta, children):
        return list(children)

    def comp_for(self, meta, children):
        var, domain = children
        return ast.ForClause(var, domain, self._span(meta))

    def comp_if(self, meta, children):
        return ast.IfClause(children[0], self._span(meta))

    def tuple_lit(self, meta, children):
        return ast.TupleLit(tuple(_present(children)), self._span(meta))

    def set_lit(self, meta, children):
        return ast.SetLit(tuple(_present(children)), self._span(meta))

    def set_comp(self, meta, children):
        elem, clauses = children
        return ast.SetComp(elem, tuple(clauses), self._span(meta))

    def players(self, meta, children):
        return ast.Players(self._span(meta))

    def turn_of(self, meta, children):
        return ast.TurnOf(tuple(_present(children)), self._span(meta))

    def quantifier(self, meta, children):
        kind, *binders, body = children
        return ast.Quantifier(OPERATORS[kind], tuple(binders), body, self._span(meta))

    def binder(self, meta, children):
        *names, domain = children
        return ast.Binder(tuple(names), domain, self._span(meta))

    def ite(self, meta, children):
        cond, then, other = children
        return ast.IfThenElse(cond, then, other, self._span(meta))

    # --- ATL
    def coalition(self, meta, children):
        return tuple(_present(children))

    def strategic_prefix(self, meta, children):
        coalition, op, arg = children
        return ast.Strategic(TEMPORAL[op], coalition, (arg,), self._span(meta))

    def strategic_infix(self, meta, children):
        coalition, left, op, right = children
        return ast.Strategic(TEMPORAL[op], coalition, (left, right), self._span(meta))


def _join(a: Span, b: Span) -> Span:
    """The span from the start of ``a`` to the end of ``b`` (same line) or to the line's end."""
    if a.line == b.line:
        return Span(a.file, a.line, a.column, a.text, max(1, b.column + b.length - a.column))
    return Span(a.file, a.line, a.column, a.text, max(1, len(a.text) - a.column + 1))


# --------------------------------------------------------------------------- errors

# token sets of the error messages, from the vocabulary (terminal names in capitals)
_EXPR_START = EXPRESSION_START | {"INT", "NAME", "STRING", "LONG_STRING"}
_TEMPORAL = frozenset(TEMPORAL_PREFIX)
_OPERATORS = INFIX_OPERATORS | {"..", "["}  # a range or an index may follow an operand too
_DECLARATIONS = tuple(DECLARATIONS)
_CLOSERS = {closer: opener for opener, closer in BRACKETS.items()}


def _terminal_texts() -> dict[str, str]:
    """Terminal name -> its literal text (for string terminals)."""
    out = {}
    for t in _parser().terminals:
        if t.pattern.type == "str":
            out[t.name] = t.pattern.value
    return out


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "end of input"
    if tok.type == "NAME":
        return f"name '{tok}'"
    if tok.type == "INT":
        return f"number {tok}"
    if tok.type in ("STRING", "LONG_STRING"):
        return "a string"
    if tok.type == "PRIME":
        return "prime (only a variable's name can be primed: x', k'[i])"
    text = str(tok)
    if text in KEYWORDS:
        return f"keyword '{text}'"
    return f"'{text}'"


def _open_brackets(stack) -> list[Token]:
    """Opening brackets still waiting for their closer, innermost last."""
    out = []
    for item in stack:
        if isinstance(item, Token):
            if item in _CLOSERS.values():
                out.append(item)
            elif item in _CLOSERS and out:
                out.pop()
    return out


def _stack_tokens(stack) -> list:
    """The tokens and rule names on a parser value stack (rules as ``Tree.data``)."""
    out = []
    for item in stack:
        if isinstance(item, Token):
            out.append(str(item))
        elif isinstance(item, Tree):
            out.append(f"<{item.data}>")
        else:
            out.append(type(item).__name__)
    return out


def _context(expected_texts: set[str], stack) -> str | None:
    """A sentence for what was expected, using the parser's stack when it helps."""
    words = _stack_tokens(stack)
    last = {w: i for i, w in enumerate(words)}

    def after(*names):
        return max((last.get(n, -1) for n in names), default=-1)

    if ":" in expected_texts:
        if after("<quant_op>") > after(":"):
            return "expected ':' after the quantifier domain"
        if after("var") > after(":") and "var" in last:
            return "expected ':' and a type after the variable name"
    if "in" in expected_texts and expected_texts <= {"in", ","}:
        return "expected 'in' after the bound name"
    if ".." in expected_texts and "INT" not in expected_texts \
            and after("var", "array", "param") > after("=", "of", ".."):
        return "expected '..' in the range lo..hi"
    if "then" in expected_texts:
        if after("if") > after("then"):
            return "expected 'then' in if ... then ... else"
        if after("move") >= 0 and after("move") > after("then"):
            return "expected 'then' and the move's effect"
    if "else" in expected_texts and after("if") > after("else") and after("then") > after("if"):
        return "expected 'else' in if ... then ... else"
    infix = [op for op in TEMPORAL_INFIX if op in expected_texts]
    if infix and "INT" not in expected_texts:
        return (f"expected {' or '.join(repr(op) for op in infix)} (write <<J>> f U g, and "
                f"put parentheses around a compound left formula: <<J>> (a and b) U g)")
    if "=" in expected_texts and "INT" not in expected_texts \
            and after("const", "param", "set", "formula") >= 0:
        return "expected '=' after the name"
    if "of" in expected_texts and after("array") >= 0:
        return "expected 'of' after the array's index range"
    return None


def _describe_expected(expected: set[str], stack) -> str:
    texts = _terminal_texts()
    items = {texts.get(e, e) for e in expected}
    sentence = _context(items, stack)
    if sentence:
        return sentence
    parts = []
    if items & _TEMPORAL:
        prefix = ", ".join(dict.fromkeys(TEMPORAL_PREFIX.values()))
        infix = " or ".join(dict.fromkeys(TEMPORAL_INFIX.values()))
        parts.append(f"a temporal operator after the coalition ({prefix} or a formula "
                     f"then {infix})")
        items -= _TEMPORAL | _EXPR_START
    if "INT" in items:
        parts.append("an expression")
    if items & {"STRING", "LONG_STRING"} and "an expression" not in parts:
        parts.append("a string in double quotes")
    if "NAME" in items and "an expression" not in parts:
        parts.append("a name")
    if any(d in items for d in _DECLARATIONS) and "an expression" not in parts:
        parts.append("a declaration (" + ", ".join(_DECLARATIONS) + ")")
    open_ = _open_brackets(stack)
    listed = items - _EXPR_START - _OPERATORS - set(_DECLARATIONS) - {"NAME", "$END", "'"}
    for text in sorted(t for t in listed if t.isascii()):
        if text in _CLOSERS and open_ and open_[-1] == _CLOSERS[text]:
            tok = open_[-1]
            parts.insert(0, f"'{text}' to close the '{tok}' at {tok.line}:{tok.column}")
        elif text in _CLOSERS or len(text) <= 3 or text in KEYWORDS:
            parts.append(f"'{text}'")
    if items & _OPERATORS and "INT" not in items:
        parts.append("an operator")
    if "$END" in items and not parts:
        parts.append("the end of the input")
    if not parts:
        return "unexpected input"
    if len(parts) == 1:
        return "expected " + parts[0]
    return "expected " + ", ".join(parts[:-1]) + " or " + parts[-1]


def _acceptable(err: UnexpectedToken) -> set[str]:
    """The terminals the parser would really accept at the error (LALR's
    ``expected`` merges the lookaheads of several states)."""
    if err.interactive_parser is not None:
        try:
            return set(err.interactive_parser.accepts())
        except Exception:  # pragma: no cover - fall back on lark's approximation
            pass
    return set(err.expected)


def _unterminated_comment(err: UnexpectedInput, src: Source) -> ParseError | None:
    """The error to give when the input fails at a ``/*`` that is never closed
    (the lexer then sees a '/' and a '*', not a comment)."""
    pos = getattr(err, "pos_in_stream", None)
    tok = getattr(err, "token", None)
    if tok is not None and getattr(tok, "start_pos", None) is not None:
        pos = tok.start_pos
    if pos is None:
        return None
    for start in (pos, pos - 1):
        if 0 <= start and src.text.startswith("/*", start) and "*/" not in src.text[start + 2:]:
            line = src.text.count("\n", 0, start) + 1
            column = start - (src.text.rfind("\n", 0, start) + 1) + 1
            return ParseError("unterminated comment: this '/*' has no closing '*/'",
                              Span(src.filename, line, column, src.line(line), 2))
    return None


def _translate(err: UnexpectedInput, src: Source) -> ParseError:
    """A lark exception as a :class:`ParseError` with a span and a human message."""
    comment = _unterminated_comment(err, src)
    if comment is not None:
        return comment
    if isinstance(err, UnexpectedCharacters):
        ch = src.text[err.pos_in_stream] if err.pos_in_stream < len(src.text) else "?"
        hint = ""
        if ch == "'":
            hint = " (only state variables can be primed: x' or k'[i])"
        elif ch == '"':
            hint = " (unterminated string?)"
        return ParseError(f"unexpected character {ch!r}{hint}",
                          src.span(err.line, err.column))
    if isinstance(err, UnexpectedToken):
        tok = err.token
        stack = err.interactive_parser.parser_state.value_stack if err.interactive_parser else []
        expected = _describe_expected(_acceptable(err), stack)
        if tok.type == "$END":
            return ParseError(f"unexpected end of input: {expected}", src.end())
        span = src.of_token(tok)
        msg = f"unexpected {_describe_token(tok)}: {expected}"
        if str(tok) in RESERVED and "NAME" in {str(e) for e in err.expected}:
            msg += f" ('{tok}' is a reserved word)"
        return ParseError(msg, span)
    if isinstance(err, UnexpectedEOF):
        return ParseError("unexpected end of input", src.end())
    raise AssertionError(err)


# --------------------------------------------------------------------------- entry points

#: parse-tree levels above the expressions (declaration, clause, ...)
_DECL_LEVELS = 10


def _check_nesting(tree: Tree, src: Source) -> None:
    """ParseError at the first construct nested more than :data:`MAX_NESTING`
    levels deep (operators, calls, brackets and ``X`` count; parentheses alone
    do not): every later pass is recursive. The walk itself is iterative."""
    limit = MAX_NESTING + _DECL_LEVELS
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise ParseError(f"expression nested more than {MAX_NESTING} levels deep: "
                             f"split it with named sets or formulas", src.of_meta(node.meta))
        # reversed: the first construct too deep in source order is the one reported
        stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))


@functools.lru_cache(maxsize=32)
def _parse(text: str, filename: str, start: str):
    # memoized: the AST is immutable, and a program that loads one model with several
    # parameter valuations (the ENS answer sheet: 15 loads) parses it once
    src = Source(text, filename)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise _translate(err, src) from None
    _check_nesting(tree, src)
    try:
        return _ToAst(src).transform(tree)
    except VisitError as err:  # lark wraps what the rule methods raise
        if isinstance(err.orig_exc, SymbolicError):
            raise err.orig_exc from None
        raise


def parse_model_text(text: str, filename: str = "<string>") -> ast.ModelAst:
    """The AST of a whole model file, or a :class:`ParseError`."""
    return _parse(text, filename, "start")


def parse_formula_text(text: str, filename: str = "<formula>") -> ast.Expr:
    """The AST of one formula or state expression, or a :class:`ParseError`."""
    if not text.strip():
        raise ParseError("empty formula: expected an expression", Source(text, filename).span(1, 1))
    return _parse(text, filename, "formula_start")
