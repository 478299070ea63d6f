"""KIF S-expressions (the syntax of GDL game descriptions), with source spans.

A file is a sequence of forms; a form is a symbol (``cell``, ``1``, ``<=``),
a variable (``?x``) or a parenthesised list of forms. ``;`` starts a comment.
Symbols are case-insensitive in GDL: they are read in lower case.

>>> [str(f) for f in parse_kif("(role x) ; a comment\\n(<= (p ?X) (q ?X))")]
['(role x)', '(<= (p ?x) (q ?x))']
>>> parse_kif("(role x", "t.kif")
Traceback (most recent call last):
...
symbolic.errors.ParseError: t.kif:1:1: error: unclosed '(': no matching ')' before the end of the file
    (role x
    ^
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ParseError, Span
from ..limits import MAX_NESTING

__all__ = ["Sym", "Variable", "SList", "Form", "parse_kif"]


@dataclass(frozen=True)
class Sym:
    """A constant symbol (a relation or function name, or an object constant)."""

    name: str
    span: Span | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Variable:
    """A variable ``?name``."""

    name: str
    span: Span | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class SList:
    """A parenthesised list of forms."""

    items: tuple
    span: Span | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "(" + " ".join(map(str, self.items)) + ")"


Form = Sym | Variable | SList


class _Lines:
    def __init__(self, text: str, filename: str):
        self.filename = filename
        self.lines = text.split("\n")

    def span(self, line: int, column: int, length: int = 1) -> Span:
        text = self.lines[line - 1].rstrip("\r") if 1 <= line <= len(self.lines) else ""
        return Span(self.filename, line, column, text, max(1, length))


def _balance(text: str, src: _Lines) -> None:
    """A located ParseError for the first unmatched ')' or the innermost unclosed '('
    (the usual mistakes in S-expressions, said where they are),
    or for the first '(' nested deeper than MAX_NESTING (the readers below recurse)."""
    stack: list[tuple[int, int]] = []
    line, col = 1, 0
    in_comment = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment = line + 1, 0, False
            continue
        if in_comment:
            continue
        if ch == ";":
            in_comment = True
        elif ch == "(":
            stack.append((line, col))
            if len(stack) > MAX_NESTING:
                raise ParseError(
                    f"the forms nest too deeply here: at most {MAX_NESTING} "
                    "levels of parentheses are supported",
                    src.span(line, col),
                )
        elif ch == ")":
            if not stack:
                raise ParseError("unmatched ')': no '(' is open here", src.span(line, col))
            stack.pop()
    if stack:
        ln, cl = stack[-1]
        raise ParseError(
            "unclosed '(': no matching ')' before the end of the file", src.span(ln, cl)
        )


#: one token: blanks or a comment (group 1), '(' (2), ')' (3), a ?variable (4), a symbol (5);
#: the blanks are those of lark's common.WS, as when the reader was a lark grammar
_TOKEN = re.compile(r'([ \t\f\r\n]+|;[^\n]*)|(\()|(\))|(\?[^\s()?;"]+)|([^\s()?;"]+)')


def _forms(text: str, src: _Lines) -> list[Form]:
    """The forms of ``text`` by one scan with :data:`_TOKEN` (a list per open '(' on a
    stack); any unbalanced or too deep parenthesis is left to :func:`_balance`, which
    reports the first one, before a character that starts no token."""
    top: list = []
    stack: list[tuple[list, int, int]] = []  # (items, line, column) of each open '('
    items = top
    line, line_start, pos, end = 1, 0, 0, len(text)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None:
            _balance(text, src)
            raise ParseError(
                f"unexpected character {text[pos]!r}: expected a symbol, a ?variable, '(' or ')'",
                src.span(line, pos - line_start + 1),
            )
        kind, tok = m.lastindex, m.group()
        col = pos - line_start + 1
        if kind == 1:
            n = tok.count("\n")
            if n:
                line += n
                line_start = pos + tok.rfind("\n") + 1
        elif kind == 2:
            stack.append((items, line, col))
            items = []
            if len(stack) > MAX_NESTING:
                _balance(text, src)
        elif kind == 3:
            if not stack:
                _balance(text, src)
                raise ParseError("unmatched ')': no '(' is open here", src.span(line, col))
            outer, ln, cl = stack.pop()
            length = col + 1 - cl if ln == line else 1
            outer.append(SList(tuple(items), src.span(ln, cl, length)))
            items = outer
        elif kind == 4:
            items.append(Variable(tok.lower(), src.span(line, col, len(tok))))
        else:
            items.append(Sym(tok.lower(), src.span(line, col, len(tok))))
        pos = m.end()
    if stack:
        _balance(text, src)
    return top


def parse_kif(text: str, filename: str = "<string>") -> list[Form]:
    """The top-level forms of KIF ``text``; a :class:`ParseError` located
    ``FILE:LINE:COL`` when the text is not a sequence of balanced S-expressions."""
    return _forms(text, _Lines(text, filename))
