"""The checker's types and typed results: what an expression of the model
language is (``int``, ``bool``, ``string``, tuples, sets) and what checking it
gives (a value known now, or an IR expression).

Every expression is checked into either a :class:`Known` value, computed at
load time (constant sub-expressions fold), or a :class:`Sym` IR expression (it
depends on the position, a move parameter or a bound name); both carry a
:class:`Type`. Sets exist only at load time: in IR they appear as quantifier
and move-parameter domains (sorted tuples) or are expanded (``x in S``).

>>> str(type_of((1, frozenset({True}))))
'(int, set of bool)'
>>> compatible(SetT(None), SetT(INT)), compatible(INT, BOOL)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .. import ir
from ..errors import Span, WrongType
from .builtins import canonical_key

__all__ = [
    "Type",
    "IntT",
    "BoolT",
    "StrT",
    "TupleT",
    "SetT",
    "type_of",
    "compatible",
    "common_type",
    "uniform",
    "var_type",
    "article",
    "make_set",
    "exported_value",
    "ir_value",
    "LoadValue",
    "Known",
    "Sym",
    "Typed",
    "known",
    "mentions_state",
]


class Type:
    """Base of the checker's types."""

    __slots__ = ()


@dataclass(frozen=True)
class IntT(Type):
    """Integers."""

    def __str__(self):
        return "int"


@dataclass(frozen=True)
class BoolT(Type):
    """Booleans."""

    def __str__(self):
        return "bool"


@dataclass(frozen=True)
class StrT(Type):
    """Strings (load time only: arguments of builtins such as ``dyck``)."""

    def __str__(self):
        return "string"


@dataclass(frozen=True)
class TupleT(Type):
    """A tuple with the given item types (None: any type, see :class:`Sym`)."""

    items: tuple[Type | None, ...]

    def __str__(self):
        if len(self.items) > 4:
            return f"{len(self.items)}-tuple"
        return "(" + ", ".join(map(str, self.items)) + ("," if len(self.items) == 1 else "") + ")"


@dataclass(frozen=True)
class SetT(Type):
    """A finite set; ``elem`` is None for the empty set."""

    elem: Type | None

    def __str__(self):
        return "set" if self.elem is None else f"set of {self.elem}"


INT, BOOL, STR = IntT(), BoolT(), StrT()


def type_of(v) -> Type:
    """The type of a load-time value.

    >>> str(type_of((1, True))), str(type_of(frozenset({2, 3})))
    ('(int, bool)', 'set of int')
    """
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return STR
    if isinstance(v, tuple):
        return TupleT(tuple(type_of(x) for x in v))
    if isinstance(v, frozenset):
        return SetT(common_type((type_of(x) for x in v), None))
    raise AssertionError(v)


def compatible(a: Type | None, b: Type | None) -> bool:
    """Same type, where the element type of an empty set matches anything."""
    if a is None or b is None or a == b:
        return True
    if isinstance(a, SetT) and isinstance(b, SetT):
        return compatible(a.elem, b.elem)
    if isinstance(a, TupleT) and isinstance(b, TupleT):
        return len(a.items) == len(b.items) and all(map(compatible, a.items, b.items))
    return False


def common_type(types, span: Span | None) -> Type | None:
    """The one type of a set's elements (None for no element), or a :class:`WrongType`."""
    out = None
    for t in types:
        if out is None:
            out = t
        elif not compatible(out, t):
            raise WrongType(
                f"a set's elements must all have the same type: found {out} and {t}", span
            )
        elif isinstance(out, SetT) and out.elem is None:
            out = t
    return out


def uniform(t: TupleT) -> Type | None:
    """The type shared by all items of a tuple type (None if empty or mixed).

    >>> str(uniform(TupleT((INT, INT)))), uniform(TupleT((INT, BOOL)))
    ('int', None)
    """
    if not t.items:
        return None
    first = t.items[0]
    if any(not compatible(first, x) for x in t.items):
        return None
    return first


def var_type(d: ir.VarDecl) -> Type:
    """The type of a state variable (of an element, for an array)."""
    return BOOL if isinstance(d.type, ir.BoolType) else INT


def article(t: Type | None) -> str:
    """A type with its article, for messages: ``an int``, ``a tuple (int, bool)``.

    >>> article(INT), article(TupleT((INT, BOOL)))
    ('an int', 'a tuple (int, bool)')
    """
    s = str(t)
    if isinstance(t, TupleT) and not s[0].isdigit():
        return f"a tuple {s}"
    return ("an " if s[0] in "aeiou" else "a ") + s


# --------------------------------------------------------------------------- load-time values


def make_set(values, span: Span | None) -> frozenset:
    """A set value, checking that its elements share one type."""
    out = frozenset(values)
    common_type((type_of(v) for v in out), span)
    return out


def exported_value(v):
    """A load-time value for ``Model.consts``: like :func:`ir_value`, strings allowed."""
    if isinstance(v, str):
        return v
    if isinstance(v, tuple):
        return tuple(exported_value(x) for x in v)
    if isinstance(v, frozenset):
        return tuple(exported_value(x) for x in sorted(v, key=canonical_key))
    return ir_value(v, None)


def ir_value(v, span: Span | None):
    """A load-time value as an IR constant value (sets become sorted tuples).

    >>> ir_value(frozenset({3, 1}), None)
    (1, 3)
    """
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, tuple):
        return tuple(ir_value(x, span) for x in v)
    if isinstance(v, frozenset):
        return tuple(ir_value(x, span) for x in sorted(v, key=canonical_key))
    if isinstance(v, str):
        raise WrongType("a string cannot be used in a state expression", span)
    raise AssertionError(v)


# --------------------------------------------------------------------------- checked expressions


#: a value computed at load time: an int, a bool (an int to Python), a string, a tuple
#: of values or a set of values (a frozenset); the :class:`Type` beside it says which
LoadValue = Union[int, str, tuple, frozenset]


@dataclass(frozen=True)
class Known:
    """A value computed at load time."""

    value: LoadValue
    type: Type


@dataclass(frozen=True)
class Sym:
    """An IR expression (depends on the position, a move parameter or a bound name)."""

    expr: ir.Expr
    #: None for a name bound over a domain of mixed types (``(1, true)``): it matches any type
    type: Type | None


Typed = Union[Known, Sym]


def known(v) -> Known:
    """A load-time value with its type."""
    return Known(v, type_of(v))


def mentions_state(e: ir.Expr) -> str | None:
    """The first state variable ``e`` reads, if any (to name it in an error)."""
    for n in ir.walk(e):
        if isinstance(n, ir.Var):
            return n.name
        if isinstance(n, ir.Elem):
            return n.array
    return None
