"""Syntax errors in human terms: a lark exception becomes a
:class:`~symbolic.errors.ParseError` with a span and a message such as
"expected ':' after the quantifier domain", never lark's terminal names.

:func:`translate` reads the token sets from :mod:`.vocabulary` and, where it
helps, the parser's stack (which construct was open: a quantifier, a ``var``, a
``move``...).

>>> from lark.exceptions import UnexpectedInput
>>> from symbolic.lang.grammar import _parser
>>> text = "forall i in 1..3 i > 0"
>>> try:
...     _parser().parse(text, start="formula_start")
... except UnexpectedInput as err:
...     print(translate(err, Source(text, "f")).message)
unexpected name 'i': expected ':' after the quantifier domain
"""

from __future__ import annotations

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import ParseError, Span
from .grammar import _parser
from .source import Source
from .vocabulary import (
    BRACKETS,
    DECLARATIONS,
    EXPRESSION_START,
    INFIX_OPERATORS,
    KEYWORDS,
    RESERVED,
    SLIPS,
    TEMPORAL_INFIX,
    TEMPORAL_PREFIX,
)

__all__ = ["translate"]

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
    if (
        ".." in expected_texts
        and "INT" not in expected_texts
        and after("var", "array", "param") > after("=", "of", "..")
    ):
        return "expected '..' in the range lo..hi"
    if "then" in expected_texts:
        if after("if") > after("then"):
            return "expected 'then' in if ... then ... else"
        if after("move") >= 0 and after("move") > after("then"):
            return (
                "expected 'then' and the move's effect (a move is written "
                "move NAME when GUARD then EFFECT)"
            )
    if "else" in expected_texts and after("if") > after("else") and after("then") > after("if"):
        return "expected 'else' in if ... then ... else"
    infix = [op for op in TEMPORAL_INFIX if op in expected_texts]
    if infix and "INT" not in expected_texts:
        return (
            f"expected {' or '.join(repr(op) for op in infix)} (write <<J>> f U g, and "
            f"put parentheses around a compound left formula: <<J>> (a and b) U g)"
        )
    if (
        "=" in expected_texts
        and "INT" not in expected_texts
        and after("const", "param", "set", "formula") >= 0
    ):
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
        parts.append(
            f"a temporal operator after the coalition ({prefix} or a formula then {infix})"
        )
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
        if 0 <= start and src.text.startswith("/*", start) and "*/" not in src.text[start + 2 :]:
            line = src.text.count("\n", 0, start) + 1
            column = start - (src.text.rfind("\n", 0, start) + 1) + 1
            return ParseError(
                "unterminated comment: this '/*' has no closing '*/'",
                Span(src.filename, line, column, src.line(line), 2),
            )
    return None


#: how each slip of :data:`~.vocabulary.SLIPS` is written here, in an example
_SLIP_EXAMPLES = {
    ":=": "c' = c + d (a move's effect is an equation over the next position)",
    "&&": "x > 0 and y > 0",
    "||": "x = 0 or y = 0",
    "->": "p implies q",
}


def _slip(tok: Token, src: Source) -> ParseError | None:
    """The error to give when the unexpected token is part of a spelling of another
    language (:data:`~.vocabulary.SLIPS`: ``:=``, ``&&``...), with the one to write.

    The slip may start at the token (``c' := 1``: ':' is unexpected) or just
    before it (``a && b``: the first '&' is an operator, the second is not).
    """
    pos = tok.start_pos
    if pos is None:
        return None
    assert tok.line is not None and tok.column is not None  # the lexer's tokens have both
    for start in (pos - 1, pos):
        two = src.text[start : start + 2] if start >= 0 else ""
        if two in SLIPS:
            column = tok.column - (pos - start)
            return ParseError(
                f"unexpected '{two}': this language writes '{SLIPS[two]}', "
                f"as in {_SLIP_EXAMPLES[two]}",
                src.span(tok.line, column, tok.line, column + 2),
            )
    return None


def translate(err: UnexpectedInput, src: Source) -> ParseError:
    """A lark exception as a :class:`ParseError` with a span and a human message."""
    comment = _unterminated_comment(err, src)
    if comment is not None:
        return comment
    if isinstance(err, UnexpectedCharacters):
        assert err.pos_in_stream is not None  # lark sets it for a character error
        ch = src.text[err.pos_in_stream] if err.pos_in_stream < len(src.text) else "?"
        hint = ""
        if ch == "'":
            hint = " (only state variables can be primed: x' or k'[i])"
        elif ch == '"':
            hint = " (unterminated string?)"
        return ParseError(f"unexpected character {ch!r}{hint}", src.span(err.line, err.column))
    if isinstance(err, UnexpectedToken):
        tok = err.token
        stack = err.interactive_parser.parser_state.value_stack if err.interactive_parser else []
        expected = _describe_expected(_acceptable(err), stack)
        if tok.type == "$END":
            return ParseError(f"unexpected end of input: {expected}", src.end())
        slip = _slip(tok, src)
        if slip is not None:
            return slip
        span = src.of_token(tok)
        msg = f"unexpected {_describe_token(tok)}: {expected}"
        if str(tok) in RESERVED and "NAME" in {str(e) for e in err.expected}:
            msg += f" ('{tok}' is a reserved word)"
        return ParseError(msg, span)
    if isinstance(err, UnexpectedEOF):
        return ParseError("unexpected end of input", src.end())
    raise AssertionError(err)
