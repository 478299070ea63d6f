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

import functools
from dataclasses import dataclass, field
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

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


@functools.cache
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("kif.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True)


class _Lines:
    def __init__(self, text: str, filename: str):
        self.filename = filename
        self.lines = text.split("\n")

    def span(self, line: int, column: int, length: int = 1) -> Span:
        text = self.lines[line - 1].rstrip("\r") if 1 <= line <= len(self.lines) else ""
        return Span(self.filename, line, column, text, max(1, length))


def _balance(text: str, src: _Lines) -> None:
    """A located ParseError for the first unmatched ')' or the innermost unclosed '('
    (the usual mistakes in S-expressions, better said than lark's 'unexpected token'),
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
                raise ParseError(f"the forms nest too deeply here: at most {MAX_NESTING} "
                                 "levels of parentheses are supported", src.span(line, col))
        elif ch == ")":
            if not stack:
                raise ParseError("unmatched ')': no '(' is open here", src.span(line, col))
            stack.pop()
    if stack:
        ln, cl = stack[-1]
        raise ParseError("unclosed '(': no matching ')' before the end of the file",
                         src.span(ln, cl))


def _convert(node, src: _Lines) -> Form:
    if isinstance(node, Token):
        span = src.span(node.line, node.column, len(node))
        if node.type == "VARIABLE":
            return Variable(str(node).lower(), span)
        return Sym(str(node).lower(), span)
    if isinstance(node, Tree) and node.data == "list":
        m = node.meta
        length = m.end_column - m.column if m.end_line == m.line else 1
        return SList(tuple(_convert(c, src) for c in node.children), src.span(m.line, m.column, length))
    raise AssertionError(node)


def parse_kif(text: str, filename: str = "<string>") -> list[Form]:
    """The top-level forms of KIF ``text``; a :class:`ParseError` located
    ``FILE:LINE:COL`` when the text is not a sequence of balanced S-expressions."""
    src = _Lines(text, filename)
    _balance(text, src)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        line, col = getattr(err, "line", 1), getattr(err, "column", 1)
        if line is None or line < 1:
            line, col = 1, 1
        tok = getattr(err, "token", None)
        what = f"unexpected {str(tok)!r}" if tok is not None else \
            f"unexpected character {text[err.pos_in_stream]!r}" \
            if getattr(err, "pos_in_stream", None) is not None and err.pos_in_stream < len(text) \
            else "unexpected input"
        raise ParseError(f"{what}: expected a symbol, a ?variable, '(' or ')'",
                         src.span(line, col)) from None
    return [_convert(c, src) for c in tree.children]
