"""Abstract syntax of the model language: immutable dataclass nodes with spans.

The parser (:mod:`symbolic.lang.parser`) builds these nodes from the lark parse
tree; the checker (:mod:`symbolic.lang.check`) turns them into IR. Operators
are stored in a canonical spelling (``=`` is ``"=="``, ``&&``-like symbols are
``"&"``, ``∧``/``/\\`` are ``"and"``...), keeping apart the symbols ``|`` and
``&`` (which also mean set union and intersection) from the words ``or`` and
``and`` (booleans only).

>>> from symbolic.errors import Span
>>> s = Span("m", 1, 1)
>>> Binary("+", IntLit(1, s), Name("x", False, s), s).op
'+'
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Union

from ..errors import Span

__all__ = [
    "Node",
    "Expr",
    "IntLit",
    "BoolLit",
    "StrLit",
    "Name",
    "Index",
    "Unary",
    "Binary",
    "Range",
    "IfThenElse",
    "Ident",
    "Binder",
    "Quantifier",
    "ForClause",
    "IfClause",
    "Clause",
    "Generator",
    "Call",
    "TupleLit",
    "SetLit",
    "SetComp",
    "Players",
    "TurnOf",
    "Strategic",
    "add_children",
    "Decl",
    "GameDecl",
    "DescriptionDecl",
    "TypeSpec",
    "BoolSpec",
    "RangeSpec",
    "ArraySpec",
    "ParamDecl",
    "ConstDecl",
    "PlayersDecl",
    "VarDecl",
    "TurnDecl",
    "InvariantDecl",
    "MoveDecl",
    "ConcurrentDecl",
    "ActionDecl",
    "UpdateDecl",
    "Formal",
    "SetDecl",
    "FormulaDecl",
    "QueryDecl",
    "OutcomeDecl",
    "DisplayDecl",
    "ModelAst",
    "expr_children",
    "walk",
]


def _span():
    return field(compare=False, repr=False)


class Node:
    """Base of every AST node; each has a ``span``."""

    __slots__ = ()
    span: Span
    # declared, not assigned: every node class is a frozen dataclass
    __dataclass_fields__: ClassVar[dict[str, Any]]


# --------------------------------------------------------------------------- expressions


class Expr(Node):
    """Base of expression nodes (state expressions, constants and ATL formulas)."""

    __slots__ = ()


@dataclass(frozen=True)
class IntLit(Expr):
    """An integer literal ``42``."""

    value: int
    span: Span = _span()


@dataclass(frozen=True)
class BoolLit(Expr):
    """``true`` or ``false``."""

    value: bool
    span: Span = _span()


@dataclass(frozen=True)
class StrLit(Expr):
    """A string literal (only builtins such as ``dyck`` take strings)."""

    value: str
    span: Span = _span()


@dataclass(frozen=True)
class Name(Expr):
    """A name, maybe primed: ``x``, ``x'``."""

    name: str
    primed: bool
    span: Span = _span()


@dataclass(frozen=True)
class Index(Expr):
    """Indexing ``base[index]`` (arrays by their declared range, tuples from 0)."""

    base: Expr
    index: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Unary(Expr):
    """``-e`` (op ``"-"``) or ``not e`` (op ``"not"``)."""

    op: str
    arg: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Binary(Expr):
    """A binary operator. ``op`` is one of ``+ - * // % \\ / == != < <= > >= in
    notin and or & | implies iff``."""

    op: str
    left: Expr
    right: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Range(Expr):
    """``lo..hi``: the set of integers from lo to hi inclusive."""

    lo: Expr
    hi: Expr
    span: Span = _span()


@dataclass(frozen=True)
class IfThenElse(Expr):
    """``if cond then a else b``."""

    cond: Expr
    then: Expr
    other: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Ident(Node):
    """A declared or bound name with its own span."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Binder(Node):
    """``x, y in D``: names bound to the values of a constant domain."""

    names: tuple[Ident, ...]
    domain: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Quantifier(Expr):
    """``forall x in D, y in E: body`` (kind ``"forall"``) or ``exists ...``."""

    kind: str
    binders: tuple[Binder, ...]
    body: Expr
    span: Span = _span()


@dataclass(frozen=True)
class ForClause(Node):
    """``for x in D`` inside a comprehension."""

    var: Ident
    domain: Expr
    span: Span = _span()


@dataclass(frozen=True)
class IfClause(Node):
    """``if cond`` inside a comprehension."""

    cond: Expr
    span: Span = _span()


Clause = Union[ForClause, IfClause]


@dataclass(frozen=True)
class Generator(Expr):
    """``elem for x in D if c ...``: the sole argument of ``sum(...)``, ``tuple(...)``..."""

    elem: Expr
    clauses: tuple[Clause, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Call(Expr):
    """``f(a, b)``: a builtin, or a parameterised set or formula."""

    name: str
    args: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class TupleLit(Expr):
    """``(a, b, c)``, ``(a,)`` or ``()``."""

    items: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class SetLit(Expr):
    """``{a, b, c}`` or ``{}``."""

    items: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class SetComp(Expr):
    """``{ elem for x in D if c }``."""

    elem: Expr
    clauses: tuple[Clause, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Players(Expr):
    """``players``: the set of all players (a coalition in formulas)."""

    span: Span = _span()


@dataclass(frozen=True)
class TurnOf(Expr):
    """``turn(J)``: it is the turn of a player of the coalition J (ATL tour_J)."""

    coalition: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Strategic(Expr):
    """``<<J>> X f`` (op ``"X"``), ``<<J>> f U g`` (``"U"``), ``<<J>> <> f``
    (``"<>"``) or ``<<J>> [] f`` (``"[]"``). ``coalition`` holds the
    comma-separated members between the brackets (their union)."""

    op: str
    coalition: tuple[Expr, ...]
    args: tuple[Expr, ...]
    span: Span = _span()


# --------------------------------------------------------------------------- declarations


class Decl(Node):
    """Base of top-level declarations."""

    __slots__ = ()


@dataclass(frozen=True)
class GameDecl(Decl):
    """``game "name" ["description"]``."""

    name: str
    description: str | None
    span: Span = _span()


@dataclass(frozen=True)
class DescriptionDecl(Decl):
    """``description "text"``."""

    text: str
    span: Span = _span()


class TypeSpec(Node):
    """Base of variable and parameter types."""

    __slots__ = ()


@dataclass(frozen=True)
class BoolSpec(TypeSpec):
    """``bool``."""

    span: Span = _span()


@dataclass(frozen=True)
class RangeSpec(TypeSpec):
    """``lo..hi`` (bounds are constant expressions)."""

    lo: Expr
    hi: Expr
    span: Span = _span()


@dataclass(frozen=True)
class ArraySpec(TypeSpec):
    """``array[lo..hi] of T``."""

    lo: Expr
    hi: Expr
    elem: TypeSpec
    span: Span = _span()


@dataclass(frozen=True)
class ParamDecl(Decl):
    """``param N = 3`` or ``param N : 1..9 = 3`` (one per name)."""

    name: Ident
    type: TypeSpec | None
    default: Expr
    span: Span = _span()


@dataclass(frozen=True)
class ConstDecl(Decl):
    """``const NAME = expr`` (one per name)."""

    name: Ident
    expr: Expr
    span: Span = _span()


@dataclass(frozen=True)
class PlayersDecl(Decl):
    """``players 1..N`` or ``players 1, 2, 3``."""

    items: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class VarDecl(Decl):
    """``var x, y : T``."""

    names: tuple[Ident, ...]
    type: TypeSpec
    span: Span = _span()


@dataclass(frozen=True)
class TurnDecl(Decl):
    """``turn expr``: the player to move."""

    expr: Expr
    span: Span = _span()


@dataclass(frozen=True)
class InvariantDecl(Decl):
    """``invariant expr``: restricts the positions."""

    expr: Expr
    span: Span = _span()


@dataclass(frozen=True)
class MoveDecl(Decl):
    """``move NAME(p in D, ...) when guard then e1; e2``."""

    name: Ident
    params: tuple[Binder, ...]
    guard: Expr | None
    effects: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class ConcurrentDecl(Decl):
    """``concurrent``: every player chooses an action at once (instead of ``turn``)."""

    span: Span = _span()


@dataclass(frozen=True)
class ActionDecl(Decl):
    """``action PLAYERS NAME(p in D, ...) when guard``: an action of each player of
    PLAYERS (a player id or a set of them), one instance per parameter valuation."""

    players: Expr
    name: Ident
    params: tuple[Binder, ...]
    guard: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class UpdateDecl(Decl):
    """``update when cond then e1; e2``: the effect of the joint action where cond
    holds (cond and the effects may use ``does(p, action)``)."""

    guard: Expr | None
    effects: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Formal(Node):
    """A parameter of a set or formula, with an optional kind annotation
    (``int``, ``player`` or ``coalition``)."""

    name: Ident
    kind: Ident | None
    span: Span = _span()


@dataclass(frozen=True)
class SetDecl(Decl):
    """``set NAME(j) = state expression``."""

    name: Ident
    params: tuple[Formal, ...]
    body: Expr
    span: Span = _span()


@dataclass(frozen=True)
class FormulaDecl(Decl):
    """``formula NAME(J) = ATL formula``."""

    name: Ident
    params: tuple[Formal, ...]
    body: Expr
    span: Span = _span()


@dataclass(frozen=True)
class QueryDecl(Decl):
    """``query formula`` with the formula's source text."""

    formula: Expr
    text: str
    span: Span = _span()


@dataclass(frozen=True)
class OutcomeDecl(Decl):
    """``outcome normal | misere | win``: who has won when a play is over
    (:mod:`symbolic.ir.outcome`)."""

    rule: Ident
    span: Span = _span()


@dataclass(frozen=True)
class DisplayDecl(Decl):
    """``display text``: how a position is drawn (see :mod:`symbolic.lang.display`)."""

    expr: Expr
    span: Span = _span()


@dataclass(frozen=True)
class ModelAst(Node):
    """A whole model file: its declarations in source order."""

    decls: tuple[Decl, ...]
    span: Span = _span()


# --------------------------------------------------------------------------- traversal


def expr_children(e: Expr) -> tuple[Expr, ...]:
    """The sub-expressions of ``e`` in field order, binder domains and clause
    parts included.

    A child is a field whose value is an :class:`Expr`, or a tuple of them, or a
    :class:`Binder`, :class:`ForClause` or :class:`IfClause` (whose fields are
    followed the same way); names (:class:`Ident`), operators and spans are not.

    >>> from symbolic.errors import Span
    >>> s = Span("m", 1, 1)
    >>> len(expr_children(Binary("+", IntLit(1, s), IntLit(2, s), s)))
    2
    >>> q = Quantifier("forall", (Binder((Ident("i", s),), Name("D", False, s), s),),
    ...                BoolLit(True, s), s)
    >>> [type(c).__name__ for c in expr_children(q)]
    ['Name', 'BoolLit']
    """
    if not isinstance(e, Expr):
        raise AssertionError(e)
    out: list[Expr] = []
    _collect_children(e, out)
    return tuple(out)


#: the nodes that are not expressions but hold some: their fields are followed
_HOLDERS = (Binder, ForClause, IfClause)


#: per node class, the names of its fields that may hold expressions: all but the span
#: and those of a plain type (found once per class)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_PLAIN = ("span", "str", "bool", "int", "Span")


def _collect_children(node: Node, out: list) -> None:
    names = _FIELD_NAMES.get(type(node))
    if names is None:
        names = _FIELD_NAMES[type(node)] = tuple(
            f.name for f in fields(node) if f.name != "span" and f.type not in _PLAIN
        )
    for name in names:
        _collect_value(getattr(node, name), out)


def _collect_value(value, out: list) -> None:
    if isinstance(value, Expr):
        out.append(value)
    elif isinstance(value, tuple):
        for item in value:
            _collect_value(item, out)
    elif isinstance(value, _HOLDERS):
        _collect_children(value, out)


def add_children(e: Expr, out: list) -> None:
    """Append the sub-expressions of ``e`` (as :func:`expr_children` finds them) to
    ``out``: a walk's stack, without a tuple per node."""
    if not isinstance(e, Expr):
        raise AssertionError(e)
    _collect_children(e, out)


def walk(e: Expr):
    """Every expression node of ``e``, parents first."""
    stack = [e]
    pop, extend = stack.pop, stack.extend
    while stack:
        n = pop()
        yield n
        if _FIELD_NAMES.get(n.__class__) != ():  # not a leaf
            extend(reversed(expr_children(n)))
