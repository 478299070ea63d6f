"""IR expressions: the node classes, the operator vocabulary and the builders.

An expression is a tree of frozen dataclasses below :class:`Expr`: constants
(``Const``), bound names (``Name``), state variables (``Var``, array elements
``Elem``), tuple indexing (``Item``), operators (``Unary``, ``Binary``), ``Ite``
and the finite binders ``Quant`` and ``Sum``. Python operators on an ``Expr``
build nodes (``x + 1`` is ``Binary("+", x, Const(1))``); equality as an
expression is :meth:`Expr.eq`, since ``==`` stays structural. Their meaning is
stated once, in :mod:`symbolic.ir`.

>>> x = Var("x"); y = Var("y")
>>> (x * x + y * y).eq(Const(25)).op
'=='
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Union

from ..errors import Span, WrongType

__all__ = [
    "Value",
    "ARITH_OPS",
    "COMPARE_OPS",
    "BOOL_OPS",
    "UNARY_OPS",
    "QUANTIFIERS",
    "op_text",
    "Expr",
    "Const",
    "Name",
    "Var",
    "Elem",
    "Item",
    "Unary",
    "Binary",
    "Ite",
    "Quant",
    "Sum",
    "TRUE",
    "FALSE",
    "conj",
    "conjuncts",
    "disj",
    "forall",
    "exists",
    "ite",
    "const_value",
]

Value = Union[int, bool, tuple]

ARITH_OPS = ("+", "-", "*", "//", "%")
COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=")
BOOL_OPS = ("and", "or", "implies", "iff")
UNARY_OPS = ("-", "not")
QUANTIFIERS = ("forall", "exists")


def op_text(op: str) -> str:
    """An IR operator as messages show it: quoted, spelled as in the model language
    (floor division is ``div`` there, since ``//`` starts a comment).

    >>> op_text("//"), op_text("+")
    ("'div'", "'+'")
    """
    return repr({"//": "div"}.get(op, op))


# --------------------------------------------------------------------------- expressions


class Expr:
    """Base of expression nodes. Operators build nodes (``==`` stays structural:
    use :meth:`eq` / :meth:`ne` for the equality *expression*)."""

    __slots__ = ()
    # declared, not assigned: every node class is a frozen dataclass
    __dataclass_fields__: ClassVar[dict[str, Any]]
    #: where the expression was read (every node class declares it as a field)
    span: Span | None

    def _wrap(self, other) -> "Expr":
        return other if isinstance(other, Expr) else Const(other)

    def __add__(self, o):
        return Binary("+", self, self._wrap(o))

    def __radd__(self, o):
        return Binary("+", self._wrap(o), self)

    def __sub__(self, o):
        return Binary("-", self, self._wrap(o))

    def __rsub__(self, o):
        return Binary("-", self._wrap(o), self)

    def __mul__(self, o):
        return Binary("*", self, self._wrap(o))

    def __rmul__(self, o):
        return Binary("*", self._wrap(o), self)

    def __floordiv__(self, o):
        return Binary("//", self, self._wrap(o))

    def __mod__(self, o):
        return Binary("%", self, self._wrap(o))

    def __neg__(self):
        return Unary("-", self)

    def __lt__(self, o):
        return Binary("<", self, self._wrap(o))

    def __le__(self, o):
        return Binary("<=", self, self._wrap(o))

    def __gt__(self, o):
        return Binary(">", self, self._wrap(o))

    def __ge__(self, o):
        return Binary(">=", self, self._wrap(o))

    def __and__(self, o):
        return Binary("and", self, self._wrap(o))

    def __or__(self, o):
        return Binary("or", self, self._wrap(o))

    def __invert__(self):
        return Unary("not", self)

    def eq(self, o) -> "Expr":
        return Binary("==", self, self._wrap(o))

    def ne(self, o) -> "Expr":
        return Binary("!=", self, self._wrap(o))

    def implies(self, o) -> "Expr":
        return Binary("implies", self, self._wrap(o))

    def iff(self, o) -> "Expr":
        return Binary("iff", self, self._wrap(o))

    def __getitem__(self, index):
        return Item(self, self._wrap(index))


def _span():
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True, eq=True)
class Const(Expr):
    """A constant value: int, bool or tuple."""

    value: Value
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Name(Expr):
    """A bound constant: a quantifier variable or a move parameter."""

    name: str
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Var(Expr):
    """A scalar state variable; ``primed`` means its value after the move."""

    name: str
    primed: bool = False
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Elem(Expr):
    """An element ``a[i]`` of an array state variable (``a'[i]`` when primed)."""

    array: str
    index: Expr
    primed: bool = False
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Item(Expr):
    """Indexing into a tuple value: ``d[i]`` with ``d`` a bound tuple, 0-based."""

    base: Expr
    index: Expr
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Unary(Expr):
    """``-e`` or ``not e``."""

    op: str
    arg: Expr
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Binary(Expr):
    """Arithmetic (+ - * // %), comparison, or boolean connective."""

    op: str
    left: Expr
    right: Expr
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Ite(Expr):
    """``if cond then a else b`` (both branches int, or both bool)."""

    cond: Expr
    then: Expr
    other: Expr
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Quant(Expr):
    """A finite quantifier ``forall/exists var in domain: body``.

    ``domain`` is a tuple of constant values; ``var`` is bound as a :class:`Name`.
    """

    kind: str  # one of QUANTIFIERS
    var: str
    domain: tuple
    body: Expr
    span: Span | None = _span()


@dataclass(frozen=True, eq=True)
class Sum(Expr):
    """A finite sum ``sum(body for var in domain)`` of int expressions
    (booleans count 1 when true)."""

    var: str
    domain: tuple
    body: Expr
    span: Span | None = _span()


TRUE = Const(True)
FALSE = Const(False)


def _balanced(op: str, items: list[Expr]) -> Expr:
    """``items[0] op items[1] op ...`` as a balanced tree, left to right.

    Balanced, so that a membership test over thousands of values is a tree of
    depth log2(n), not a chain that exhausts the stack of every recursive pass;
    the order of the operands (and of any short-circuit) is unchanged.
    """
    level = items
    while len(level) > 1:
        level = [
            Binary(op, level[i], level[i + 1]) if i + 1 < len(level) else level[i]
            for i in range(0, len(level), 2)
        ]
    return level[0]


def conj(items: Iterable[Expr]) -> Expr:
    """The conjunction of ``items`` (``true`` when empty), as a balanced tree.

    >>> conj([Var("a"), Var("b"), Var("c")]) == Binary("and", Binary("and", Var("a"), Var("b")), Var("c"))
    True
    """
    items = list(items)
    return _balanced("and", items) if items else TRUE


def conjuncts(e: Expr) -> list[Expr]:
    """The operands of the top-level ``and`` tree of ``e``, left to right (``[e]``
    when ``e`` is not a conjunction).

    >>> conjuncts(conj([Var("a"), Var("b") | Var("c"), Var("d")]))  # doctest: +NORMALIZE_WHITESPACE
    [Var(name='a', primed=False), Binary(op='or', left=Var(name='b', primed=False),
    right=Var(name='c', primed=False)), Var(name='d', primed=False)]
    """
    if isinstance(e, Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def disj(items: Iterable[Expr]) -> Expr:
    """The disjunction of ``items`` (``false`` when empty), as a balanced tree."""
    items = list(items)
    return _balanced("or", items) if items else FALSE


def forall(var: str, domain: Iterable[Value], body) -> Quant:
    """``forall var in domain: body`` where ``body`` is an Expr or a function of Name."""
    b = body(Name(var)) if callable(body) else body
    return Quant("forall", var, tuple(domain), b)


def exists(var: str, domain: Iterable[Value], body) -> Quant:
    """``exists var in domain: body`` where ``body`` is an Expr or a function of Name."""
    b = body(Name(var)) if callable(body) else body
    return Quant("exists", var, tuple(domain), b)


def ite(cond: Expr, then, other) -> Ite:
    """``if cond then then else other``."""
    w = cond._wrap
    return Ite(cond, w(then), w(other))


def const_value(e: Expr) -> Value:
    """The value of a constant node (``Const`` or ``-Const``), else WrongType."""
    if isinstance(e, Const):
        return e.value
    if (
        isinstance(e, Unary)
        and e.op == "-"
        and isinstance(e.arg, Const)
        and isinstance(e.arg.value, int)
        and not isinstance(e.arg.value, bool)
    ):
        return -e.arg.value
    raise WrongType("expected a constant", getattr(e, "span", None))
