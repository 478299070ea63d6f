"""Strategy files of ``symbolic execute``: JSON read as hostile input, every
error located (``FILE:LINE:COL``).

A strategy file is the JSON of ``symbolic strategy --json`` (its ``moves``, a
list of ``{"from": POSITION, "to": POSITION}``) or an object
``{POSITION: POSITION}``. A position is an object by slot label
(``{"j": 1, "k[1]": 3}``), a position text as the command line prints it
(``"j=1, k[1]=3"``), or, for a one-variable model (an arena), the bare state
(``3`` or ``"3"``: the TD's ``{"0": 1, "2": 3}``).

The JSON is read by a small parser of its own (:func:`parse_json`) rather than
:func:`json.loads`, which knows no positions of values, recurses without bound
(a file of ``[[[[...`` ends in RecursionError) and refuses integers past 4 300
digits with a bare ValueError. Here every value keeps its line and column,
nesting is bounded by :data:`MAX_DEPTH`, integers by
:data:`~symbolic.limits.MAX_INT_DIGITS` digits, and JSON ``true`` is a
boolean, never the state 1.

>>> doc = parse_json('{"0": 1,\\n "2": [true]}', "s.json")
>>> [(k.value, v.line, v.column) for k, v in doc.items]
[('0', 1, 7), ('2', 2, 7)]
>>> parse_json('{"0": 1,}', "s.json")
Traceback (most recent call last):
...
symbolic.errors.QueryError: s.json:1:9: error: invalid JSON: expected a string (a key) ...
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import QueryError, Span, SymbolicError
from ..ir import BoolType
from ..limits import MAX_INT_DIGITS, is_int_text, parse_int, short_text
from .common import parse_position

__all__ = ["MAX_DEPTH", "Node", "parse_json", "read_text", "position_of", "load_table", "table_of"]

#: the deepest nesting of arrays and objects read (a strategy needs 3 levels)
MAX_DEPTH = 64

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_BLANK = re.compile(r"[ \t\n\r]*")
_WORDS = {"true": True, "false": False, "null": None}


@dataclass
class Node:
    """A JSON value with where it starts: ``value`` is a str, int, float, bool or
    None for a leaf, a list of nodes for an array (``kind`` "array"), and for an
    object ``items``, its (key node, value node) pairs in order."""

    value: object
    span: Span
    kind: str = "leaf"
    items: list = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column


class _Reader:
    """One pass over a JSON text; ``i`` is the offset of the next character."""

    def __init__(self, text: str, file: str):
        self.text, self.file, self.i = text, file, 0

    def span(self, offset: int) -> Span:
        line = self.text.count("\n", 0, offset) + 1
        start = self.text.rfind("\n", 0, offset) + 1
        end = self.text.find("\n", offset)
        return Span(
            self.file,
            line,
            offset - start + 1,
            self.text[start : end if end >= 0 else len(self.text)],
        )

    def fail(self, message: str, offset: int | None = None) -> QueryError:
        return QueryError(message, self.span(self.i if offset is None else offset))

    def blank(self) -> None:
        self.i = _BLANK.match(self.text, self.i).end()

    def node(self, offset: int, value, kind: str = "leaf") -> Node:
        return Node(value, self.span(offset), kind)

    def value(self, depth: int) -> Node:
        self.blank()
        start, ch = self.i, self.text[self.i : self.i + 1]
        if ch in ("{", "["):
            if depth >= MAX_DEPTH:
                raise self.fail(
                    f"the JSON nests deeper than {MAX_DEPTH} levels (a strategy needs 3)"
                )
            return self.container(depth + 1)
        if ch == '"':
            return self.node(start, self.string())
        m = _NUMBER.match(self.text, self.i)
        if m and m.end() > start:
            return self.node(start, self.number(m))
        for word, v in _WORDS.items():
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return self.node(start, v)
        got = "the end of the file" if not ch else f"{ch!r}"
        raise self.fail(f"invalid JSON: expected a value, got {got}")

    def string(self) -> str:
        try:
            s, self.i = json.decoder.scanstring(self.text, self.i + 1)
        except json.JSONDecodeError as err:
            raise self.fail(f"invalid JSON: {err.msg}", err.pos) from None
        return s

    def number(self, m: re.Match) -> int | float:
        self.i = m.end()
        digits = len(m.group(0).lstrip("-"))
        if digits > MAX_INT_DIGITS:
            raise self.fail(
                f"a number of {digits} digits, at most {MAX_INT_DIGITS} are allowed", m.start()
            )
        if m.group(1) or m.group(2):
            return float(m.group(0))
        return int(m.group(0))

    def container(self, depth: int) -> Node:
        start, close = self.i, "}" if self.text[self.i] == "{" else "]"
        out = self.node(start, None, "object" if close == "}" else "array")
        self.i += 1
        self.blank()
        if self.text.startswith(close, self.i):
            self.i += 1
            out.value = [] if close == "]" else None
            return out
        elements = []
        while True:
            if close == "}":
                self.blank()
                if not self.text.startswith('"', self.i):
                    raise self.fail("invalid JSON: expected a string (a key) after '{' or ','")
                key = self.node(self.i, self.string())
                self.blank()
                if not self.text.startswith(":", self.i):
                    raise self.fail("invalid JSON: expected ':' after the key")
                self.i += 1
                out.items.append((key, self.value(depth)))
            else:
                elements.append(self.value(depth))
            self.blank()
            ch = self.text[self.i : self.i + 1]
            self.i += 1
            if ch == close:
                break
            if ch != ",":
                got = "the end of the file" if not ch else f"{ch!r}"
                raise self.fail(f"invalid JSON: expected ',' or '{close}', got {got}", self.i - 1)
        out.value = elements if close == "]" else None
        return out


def parse_json(text: str, file: str) -> Node:
    """The located tree of the JSON document ``text`` (errors: QueryError at
    ``file:line:column``)."""
    r = _Reader(text[1:] if text.startswith("\ufeff") else text, file)
    doc = r.value(0)
    r.blank()
    if r.i < len(r.text):
        raise r.fail("invalid JSON: extra text after the document")
    return doc


def read_text(path: str) -> str:
    """The UTF-8 text of the file ``path`` (QueryError naming the file otherwise)."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise QueryError(f"{path}: cannot read the strategy file: {err.strerror or err}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise QueryError(
            f"not UTF-8 text (byte {data[err.start]:#04x})", Span(path, line, column)
        ) from None


# --------------------------------------------------------------------------- positions


def _located(node: Node, message: str) -> QueryError:
    return QueryError(message, node.span)


def _slot_value(slot, node: Node) -> int:
    """One slot's value: an int, or JSON true/false for a boolean slot."""
    v = node.value
    if isinstance(v, bool) and isinstance(slot.type, BoolType):
        return int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        want = "true, false, 0 or 1" if isinstance(slot.type, BoolType) else "an integer"
        raise _located(node, f"{slot.label}: expected {want}, got {_shown(node)}")
    return v


def _shown(node: Node) -> str:
    """A JSON value in a message: short, as JSON writes it."""
    if node.kind != "leaf":
        return f"an {node.kind}"
    if node.value is None or isinstance(node.value, bool):
        return json.dumps(node.value)
    if isinstance(node.value, str):
        return short_text(node.value)
    return short_text(node.value, 30).strip("'")


def position_of(space, node: Node) -> tuple:
    """The position written at ``node`` (module docstring), checked against ``space``."""
    v = node.value
    try:
        if node.kind == "object":
            return _labelled(space, node)
        if len(space.slots) == 1 and node.kind == "leaf" and isinstance(v, (bool, int)):
            return space.check_position((_slot_value(space.slots[0], node),))
        if len(space.slots) == 1 and isinstance(v, str) and is_int_text(v.strip()):
            return space.check_position((parse_int(v, space.slots[0].label),))
        if isinstance(v, str):
            return parse_position(space, v)
    except SymbolicError as err:
        if err.span is not None:
            raise
        raise _located(node, err.message) from None
    raise _located(
        node,
        "expected a position (an object by slot label, a text such "
        "as 'j=1, k[1]=3'"
        + (", or a state number" if len(space.slots) == 1 else "")
        + f"), got {_shown(node)}",
    )


def _labelled(space, node: Node) -> tuple:
    """A position written as an object by slot label."""
    slots = {s.label: s for s in space.slots}
    given = {}
    for key, val in node.items:
        if key.value not in slots:
            raise _located(
                key,
                f"unknown slot {short_text(key.value)} (the slots are "
                f"{', '.join(list(slots)[:12])})",
            )
        if key.value in given:
            raise _located(key, f"{key.value} is given twice")
        given[key.value] = _slot_value(slots[key.value], val)
    missing = [l for l in slots if l not in given]
    if missing:
        raise _located(node, f"no value for {', '.join(missing[:12])}")
    return space.check_position(tuple(given[l] for l in slots))


def load_table(path: str, space) -> dict[tuple, tuple]:
    """The table {position: next position} of the strategy file ``path``."""
    return table_of(read_text(path), path, space)


def table_of(text: str, path: str, space) -> dict[tuple, tuple]:
    """The table {position: next position} of a strategy file's ``text``.

    >>> from symbolic.ir import IntType, Space, VarDecl
    >>> table_of('{"0": 1, "1": "2"}', "s.json", Space((VarDecl("s", IntType(0, 2)),)))
    {(0,): (1,), (1,): (2,)}
    """
    doc = parse_json(text, path)
    if doc.kind != "object":
        raise _located(doc, f"expected a JSON object (a strategy), got {_shown(doc)}")
    moves = [v for k, v in doc.items if k.value == "moves"]
    if moves and moves[-1].kind == "array":
        pairs = []
        for m in moves[-1].value:
            ends = {k.value: v for k, v in m.items} if m.kind == "object" else {}
            if "from" not in ends or "to" not in ends:
                raise _located(
                    m, f'expected a move {{"from": POSITION, "to": POSITION}}, got {_shown(m)}'
                )
            pairs.append((ends["from"], ends["to"]))
    else:
        pairs = list(doc.items)
    table: dict[tuple, tuple] = {}
    where: dict[tuple, Node] = {}
    for a, b in pairs:
        pos = position_of(space, a)
        if pos in table:
            first = where[pos]
            raise _located(
                a, f"this position already has a move (line {first.line}, column {first.column})"
            )
        table[pos], where[pos] = position_of(space, b), a
    return table
