"""The fast way from text to AST: lark's own LALR tables and lexers, run by a lean
loop that builds the AST directly (no parse tree, no second pass).

:func:`fast_parse` gives exactly what ``ToAst(src).transform(lark parse tree)``
gives (the same grammar, tables, lexers, rule methods of :mod:`.builder`, and node
positions computed as lark's ``propagate_positions`` computes them), or raises
:class:`Fallback` when anything is not plain (a syntax error, an expression
nested too deep, a rule method that refuses its input): the caller then reads
the text the slow way, whose errors and messages are the ones pinned in tests.
One error is raised here: a construct with more than ``MAX_NESTING`` levels below
it (and the declaration levels) is refused at once, located at that construct, since
lark would take seconds to build a tree ten thousand levels deep only to refuse it.

Why: lark calls a chain of Python wrappers per reduction (child filter, single
child expansion, position propagation) and an operand goes through one unit
reduction per precedence level of ``grammar.lark``; here a unit reduction is one
table step, and a chain of them, which depends only on the two states on top of
the stack and the lookahead, is looked up once and remembered.

>>> from .grammar import _parser
>>> fast_parse(_parser(), "x + (1)", "f", "formula_start").span.length
7
"""

from __future__ import annotations

import dis
import itertools
import re

from lark import Token
from lark.lexer import UnlessCallback
from lark.parsers.lalr_analysis import Shift

from ..errors import ParseError, Span, SymbolicError
from ..limits import MAX_NESTING
from .builder import ToAst
from .source import Source

__all__ = ["DECL_LEVELS", "TOO_DEEP", "Fallback", "fast_parse"]

#: parse-tree levels above the expressions (declaration, clause, ...)
DECL_LEVELS = 10
#: a construct with more levels below it is nested too deep whatever is above it
_TOO_HIGH = MAX_NESTING + DECL_LEVELS
#: the message of an expression nested too deep, read either way
TOO_DEEP = (
    f"expression nested more than {MAX_NESTING} levels deep: split it with named sets or formulas"
)


class Fallback(Exception):
    """The text is not read here: read it the slow way (its errors are reported there)."""


class _TooDeep(Exception):
    """A construct holds more than :data:`MAX_NESTING` levels below it (``meta``: where):
    the text is refused here, before lark would build the whole deep tree again."""

    def __init__(self, meta):
        super().__init__()
        self.meta = meta


class _Meta:
    """A node's position, as lark's ``propagate_positions`` sets it (what
    :meth:`.source.Source.of_meta` and :mod:`.builder` read): from its first and last
    tokens (None: empty), read only when asked for."""

    __slots__ = ("first", "last")

    def __init__(self, first, last):
        self.first, self.last = first, last

    empty = property(lambda self: self.first is None)
    line = property(lambda self: self.first.line)
    column = property(lambda self: self.first.column)
    start_pos = property(lambda self: self.first.start_pos)
    end_line = property(lambda self: self.last.end_line)
    end_column = property(lambda self: self.last.end_column)
    end_pos = property(lambda self: self.last.end_pos)


class _ToAst(ToAst):
    """:class:`~.builder.ToAst` reading a :class:`_Meta`'s tokens directly."""

    def _span(self, meta) -> Span:
        first = meta.first
        if first is None:
            return self.src.span(1, 1)
        last = meta.last
        return self.src.span(first.line, first.column, last.end_line, last.end_column)


# the kinds of rules
_UNIT, _INLINE, _BUILD = 0, 1, 2


def _plans(lark) -> dict:
    """For each rule of the parser: how a reduction by it builds its value.

    ``(_UNIT, origin)``: a ``?rule`` of one kept child, the value passes unchanged;
    ``(_INLINE, origin, size, include)``: a ``_rule``, its kept children are spliced
    into its parent's; ``(_BUILD, origin, size, include, trailing, expand1, method)``:
    the rule method of :class:`~.builder.ToAst` (``expand1``: a ``?rule`` that may
    reduce to its single kept child). ``include`` lists, per kept child, its index
    among the popped ones, whether it is spliced, and the ``None`` placeholders
    (``maybe_placeholders``) before it.
    """
    # rule -> its plan: a tuple whose first item says which kind (its length varies by kind)
    plans: dict[object, tuple] = {}
    for rule in lark.rules:
        expansion = rule.expansion
        empties = rule.options.empty_indices
        if empties:
            ones = "".join(str(int(b)) for b in empties).split("0")
            nones = [len(x) for x in ones]
        else:
            nones = [0] * (len(expansion) + 1)
        include, pending = [], 0
        for i, sym in enumerate(expansion):
            pending += nones[i]
            if rule.options.keep_all_tokens or not (sym.is_term and sym.filter_out):
                include.append((i, not sym.is_term and sym.name.startswith("_"), pending))
                pending = 0
        trailing = pending + nones[len(expansion)]
        origin = rule.origin.name
        expand1 = bool(rule.options.expand1 and not rule.alias)
        if (
            expand1
            and len(expansion) == 1
            and len(include) == 1
            and not include[0][1]
            and not trailing
            and not include[0][2]
        ):
            plans[rule] = (_UNIT, origin)
        elif origin.startswith("_"):
            plans[rule] = (
                _INLINE,
                origin,
                len(expansion),
                tuple(include),
                trailing,
                False,
                None,
                len(expansion) > 0
                and not trailing
                and include == [(i, False, 0) for i in range(len(expansion))],
            )
        else:
            name = rule.alias or rule.options.template_source or origin
            method = getattr(ToAst, name, None)  # None: only ever a single child stands
            simple = (
                len(expansion) > 0
                and not trailing
                and include == [(i, False, 0) for i in range(len(expansion))]
            )
            plans[rule] = (
                _BUILD,
                origin,
                len(expansion),
                tuple(include),
                trailing,
                expand1,
                getattr(method, "base_func", method) if method else _no_method,
                simple,
                _reads_meta(getattr(method, "base_func", method)) if method else True,
            )
    return plans


def _reads_meta(method) -> bool:
    """Whether a rule method reads its ``meta`` argument (else it is given None)."""
    return any(
        i.opname.startswith("LOAD") and i.argval == "meta" for i in dis.get_instructions(method)
    )


def _no_method(toast, meta, children):
    raise Fallback("a rule without a method of ToAst")


def _children(popped, include, trailing):
    """The kept children of a reduction (spliced, with placeholders) and their height
    (the deepest parse-tree node among them)."""
    out, height = None, 0
    for i, splice, nones in include:
        value, h = popped[i][0], popped[i][1]
        if h > height:
            height = h
        if out is None:
            if splice and not nones:
                # a list spliced first is extended in place, as lark's LALR child filter
                # does: it belongs to no one else (else a long list of declarations is
                # copied once per declaration)
                out = value
                continue
            out = []
        if nones:
            out.extend([None] * nones)
        if splice:
            out.extend(value)
        else:
            out.append(value)
    if out is None:
        out = []
    if trailing:
        out.extend([None] * trailing)
    return out, height


class _Lexers(dict):
    """Per parser state, what its contextual lexer matches with (see :func:`_lexers`),
    made when the state is first met (as lark builds its scanners)."""

    def __init__(self, lexers: dict):
        super().__init__()
        self.lexers = lexers
        self.seen: dict = {}

    def __missing__(self, state):
        lexer = self.lexers[state]
        got = self.seen.get(id(lexer))
        if got is None:
            got = self.seen[id(lexer)] = (
                tuple(lexer.scanner._mres),
                lexer.ignore_types,
                lexer.newline_types,
                _keywords(lexer.callback),
            )
        self[state] = got
        return got


def _keywords(callbacks: dict) -> dict:
    """lark's lexer callbacks, each a keyword table where it can be one: a name that
    spells a keyword is that keyword's terminal (lark's ``UnlessCallback`` finds it
    with a regular expression of the plain keyword strings)."""
    out = {}
    for type_, f in callbacks.items():
        terms = getattr(getattr(f, "scanner", None), "terminals", None)
        if (
            type(f) is UnlessCallback
            and terms
            and all(t.pattern.type == "str" and not t.pattern.flags for t in terms)
        ):
            out[type_] = {t.pattern.value: t.name for t in terms}
        else:
            out[type_] = f
    return out


def _lexers(lark) -> dict:
    """Per parser state, what its contextual lexer matches with: (its compiled
    regular expressions, its ignored terminals, the terminals that may hold a line
    break, its callbacks: lark's keyword-or-name resolution)."""
    return _Lexers(lark.parser.lexer.lexer.lexers)


#: the blanks lark's ``common.WS`` matches (an ignored terminal of the grammar)
_BLANKS = "[ \t\f\r\n]*"


def _root(lark) -> tuple:
    """(one regular expression: blanks then any terminal of the grammar, in the order of
    lark's lexers; the keyword table of its names) from lark's root lexer (the one
    over all terminals)."""
    root = lark.parser.lexer.lexer.root_lexer
    scanner = root.scanner
    alternatives = "|".join(
        f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in scanner.terminals if t.name != "WS"
    )
    keywords = _keywords(root.callback)
    if set(keywords) != {"NAME"} or not isinstance(keywords["NAME"], dict):
        raise AssertionError(keywords)  # only names are resolved to keywords
    return re.compile(f"{_BLANKS}(?:{alternatives})", root.g_regex_flags), keywords["NAME"]


def _tokens(lexers: dict, root: tuple, rows: dict, text: str, stack: list):
    """lark's contextual lexer over ``text`` (the lexer of the parser state on top of
    ``stack``), ignored terminals skipped; Fallback where no terminal matches.

    Each token is first matched by one regular expression over all terminals (blanks
    skipped in the same match); where the parser state accepts the terminal found, it
    is the one the state's own lexer finds (both try the terminals in lark's one
    order, the state's a subset of them, and a name spells a keyword the state
    accepts in both), else the state's lexer matches at that position."""
    make = str.__new__
    match, keywords = root[0].match, root[1]
    pos, line, line_start, end = 0, 1, 0, len(text)
    newlines = ("LONG_STRING", "BLOCK_COMMENT")  # the only tokens that may span lines
    comments = ("LINE_COMMENT", "BLOCK_COMMENT")
    while pos < end:
        m = match(text, pos)
        if m is None:
            if not text[pos:].strip(" \t\f\r\n"):
                return
            type_ = None
        else:
            type_ = m.lastgroup
            start = m.start(type_)
            if start != pos:  # blanks first
                n = text.count("\n", pos, start)
                if n:
                    line += n
                    line_start = text.rindex("\n", pos, start) + 1
                pos = start
            if type_ == "NAME":
                value = m.group(type_)
                type_ = keywords.get(value, "NAME")
            elif type_ in comments:
                value = m.group(type_)
                if type_ == "BLOCK_COMMENT" and "\n" in value:
                    line += value.count("\n")
                    line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                continue
            else:
                value = m.group(type_)
            if type_ not in rows[stack[-1]]:
                type_ = None
        if type_ is None:  # the state's own lexer
            tok, pos, line, line_start = _state_token(lexers, text, stack, pos, line, line_start)
            if tok is not None:
                yield tok
            continue
        n = len(value)
        tok_line, tok_col = line, pos - line_start + 1
        if type_ in newlines and "\n" in value:
            line += value.count("\n")
            line_start = pos + value.rindex("\n") + 1
            end_col = pos + n - line_start + 1
        else:
            end_col = tok_col + n
        # lark's Token, its slots set here: Token._future_new (a call with keyword
        # defaults) took a fifth of the lexing time
        tok = make(Token, value)
        tok.type = type_
        tok.start_pos = pos
        tok.value = value
        tok.line = tok_line
        tok.column = tok_col
        tok.end_line = line
        tok.end_column = end_col
        pos += n
        tok.end_pos = pos
        yield tok


def _state_token(lexers: dict, text: str, stack: list, pos: int, line: int, line_start: int):
    """(the token of the lexer of the parser state on top of ``stack`` at ``pos``, None
    for an ignored one; the position, line and line start after it)."""
    mres, ignore, newlines, callback = lexers[stack[-1]]
    for mre in mres:
        m = mre.match(text, pos)
        if m:
            break
    else:
        raise Fallback("no terminal matches")
    value, type_ = m.group(0), m.lastgroup
    n = len(value)
    tok_line, tok_col = line, pos - line_start + 1
    if type_ in newlines and "\n" in value:
        line += value.count("\n")
        line_start = pos + value.rindex("\n") + 1
        end_col = pos + n - line_start + 1
    else:
        end_col = tok_col + n
    tok = None
    if type_ not in ignore:
        new = Token._future_new
        f = callback.get(type_)
        if f is None:
            tok = new(type_, value, pos, tok_line, tok_col, line, end_col, pos + n)
        elif f.__class__ is dict:
            tok = new(f.get(value, type_), value, pos, tok_line, tok_col, line, end_col, pos + n)
        else:
            tok = f(new(type_, value, pos, tok_line, tok_col, line, end_col, pos + n))
    return tok, pos + n, line, line_start


def fast_parse(lark, text: str, filename: str, start: str):
    """The AST of ``text`` from the rule ``start``, as the slow way builds it, or
    :class:`Fallback` (see the module docstring)."""
    rows, lexers, root = _tables(lark)
    table = lark.parser.parser.parser.parse_table
    stack = [table.start_states[start]]
    values: list = []
    src = Source(text, filename)
    toast = _ToAst(src)
    try:
        _run(
            _tokens(lexers(), root, rows, text, stack),
            rows,
            stack,
            values,
            toast,
            table.end_states[start],
        )
    except (
        AssertionError,
        AttributeError,
        IndexError,
        KeyError,
        TypeError,
        ValueError,
        SymbolicError,
    ) as err:
        raise Fallback(repr(err)) from None
    except _TooDeep as deep:
        raise ParseError(TOO_DEEP, src.of_meta(deep.meta)) from None
    value, height = values[-1][0], values[-1][1]
    if height > MAX_NESTING + DECL_LEVELS:
        raise Fallback("nested too deep")
    return value


def _tables(lark):
    """(rows, lexers) of ``lark``'s parser, made once: ``rows[state][symbol]`` is the
    next state (a shift or a goto) or the plan of a reduction (see :func:`_plans`)."""
    got = _TABLES.get(id(lark))
    if got is None or got[0] is not lark:
        plans = _plans(lark)
        rows = {}
        for state, row in lark.parser.parser.parser.parse_table.states.items():
            rows[state] = {
                sym: (arg if action is Shift else plans[arg]) for sym, (action, arg) in row.items()
            }
        lexers = lark.parser.lexer.lexer.lexers
        got = _TABLES[id(lark)] = (lark, rows, lambda: _Lexers(lexers), _root(lark))
    return got[1], got[2], got[3]


_TABLES: dict = {}


def _run(tokens, rows, stack, values, toast, end_state):
    """The LALR automaton over ``tokens``, then the end: every shift, and every
    reduction (a chain of unit reductions, which depends only on the two states on
    top of the stack and the lookahead, is followed once and remembered).

    A stack entry is (value, height, first token, last token): the value's parse
    tree height and the tokens its extent starts and ends with (None: empty)."""
    chains: dict = {}
    end = Token._future_new("$END", "")
    for tok in itertools.chain(tokens, (end,)):
        type_ = tok.type
        while True:
            top = stack[-1]
            act = rows[top].get(type_)
            if act.__class__ is int:
                if tok is end:
                    raise Fallback("shift at the end")
                stack.append(act)
                values.append((tok, 0, tok, tok))
                break
            if act is None:
                raise Fallback("syntax error")
            kind = act[0]
            if kind == _UNIT:
                key = (stack[-2], top, type_)
                state = chains.get(key)
                if state is None:
                    state = top
                    while act is not None and act.__class__ is not int and act[0] == _UNIT:
                        state = rows[stack[-2]][act[1]]
                        act = rows[state].get(type_)
                    chains[key] = state
                stack[-1] = state
                continue
            # a reduction by an inlined or a built rule
            size = act[2]
            if size == 1 and act[7]:  # one popped value, kept (a token, mostly)
                del stack[-1]
                entry = values.pop()
                children, height, first, last = [entry[0]], entry[1], entry[2], entry[3]
            else:
                if size:
                    popped = values[-size:]
                    del stack[-size:]
                    del values[-size:]
                else:
                    popped = []
                if act[7]:  # every popped value kept, in order
                    children = [e[0] for e in popped]
                    height = max([e[1] for e in popped])
                else:
                    children, height = _children(popped, act[3], act[4])
                first = last = None  # the extent: the first and last popped with one
                for entry in popped:
                    first = entry[2]
                    if first is not None:
                        break
                for entry in reversed(popped):
                    last = entry[3]
                    if last is not None:
                        break
            if kind == _INLINE:
                value = children
            elif act[5] and len(children) == 1:
                # a ?rule whose one kept child stands for it (parentheses): its own
                # span stays, its extent grows to the popped one
                value = children[0]
            else:
                value = act[6](toast, _Meta(first, last) if act[8] else None, children)
                height += 1
                if height > _TOO_HIGH:  # a deep chain: refused at its first construct so high
                    raise _TooDeep(_Meta(first, last))
            stack.append(rows[stack[-1]][act[1]])
            values.append((value, height, first, last))
            if tok is end and stack[-1] == end_state:
                return
