"""Game IR: typed, immutable descriptions of position spaces, expressions and games.

This is the layer below text: the model-language front end and the Python
builder both produce these objects, and both engines consume them (the
symbolic engine compiles them to BDDs, the explicit engine interprets them).

Values are Python ``int``, ``bool`` and ``tuple`` (of values); constant sets
are tuples of distinct values in canonical (sorted) order.

Semantics (both engines implement exactly this):

- Types are int, bool and tuple. A bool variable reads as a bool; positions
  store it as 0/1. Arithmetic takes ints only (``Sum`` counts a true bool as 1).
  ``==``/``!=`` compare two ints, two bools or two constant tuples; ``< <= > >=``
  compare ints. Connectives and ``not`` take bools; ``Ite`` needs a bool
  condition and two branches of the same type.
- Arithmetic is exact over the integers (never modular). ``//`` and ``%``
  follow Python's floor semantics and need a right operand that is a positive
  constant once bound names are substituted; anything else is a ModelError.
- ``Elem(a, i)``: ``i`` is an int expression; a value of ``i`` outside the
  declared index range is a RangeError. ``Item(t, i)`` indexes a constant tuple
  from 0 to len − 1 (no negative indices).
- Value errors (an index out of range, a divisor that is not positive) count
  only where evaluation reaches them: ``and``, ``or``, ``implies``, ``if``,
  ``forall`` and ``exists`` stop early from left to right, so
  ``i >= 1 and a[i - 1] == 0`` is legal at i = 0. Type errors count everywhere.
- ``Quant`` and ``Sum`` range over a finite tuple of constants bound to a
  ``Name``; they are expanded, not encoded as state.
- Primed variables (``Var(.., primed=True)``, ``Elem(.., primed=True)``) may
  appear only in a move's ``effect``; a primed array element needs an index
  that is constant once quantifiers and parameters are substituted.
- Move semantics: for every valuation of the parameters (the product of their
  domains) at which ``guard`` holds in c, every position c' (in the domain:
  values in range and ``invariant`` true) with ``effect(c, c')`` true and
  c'[s] = c[s] for every slot s that is not primed anywhere in that
  valuation's ``effect`` is a successor. δ(c) is the union over moves.

>>> x = Var("x"); y = Var("y")
>>> e = (x * x + y * y).eq(Const(25))
>>> e.op
'=='
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Union

from .errors import (ArgumentTypeError, ModelError, QueryError, RangeError, Span, UnknownName,
                     WrongType)
from . import nodes

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

    def _wrap(self, other) -> "Expr":
        return other if isinstance(other, Expr) else Const(other)

    def __add__(self, o): return Binary("+", self, self._wrap(o))
    def __radd__(self, o): return Binary("+", self._wrap(o), self)
    def __sub__(self, o): return Binary("-", self, self._wrap(o))
    def __rsub__(self, o): return Binary("-", self._wrap(o), self)
    def __mul__(self, o): return Binary("*", self, self._wrap(o))
    def __rmul__(self, o): return Binary("*", self._wrap(o), self)
    def __floordiv__(self, o): return Binary("//", self, self._wrap(o))
    def __mod__(self, o): return Binary("%", self, self._wrap(o))
    def __neg__(self): return Unary("-", self)
    def __lt__(self, o): return Binary("<", self, self._wrap(o))
    def __le__(self, o): return Binary("<=", self, self._wrap(o))
    def __gt__(self, o): return Binary(">", self, self._wrap(o))
    def __ge__(self, o): return Binary(">=", self, self._wrap(o))
    def __and__(self, o): return Binary("and", self, self._wrap(o))
    def __or__(self, o): return Binary("or", self, self._wrap(o))
    def __invert__(self): return Unary("not", self)
    def eq(self, o) -> "Expr": return Binary("==", self, self._wrap(o))
    def ne(self, o) -> "Expr": return Binary("!=", self, self._wrap(o))
    def implies(self, o) -> "Expr": return Binary("implies", self, self._wrap(o))
    def iff(self, o) -> "Expr": return Binary("iff", self, self._wrap(o))
    def __getitem__(self, index): return Item(self, self._wrap(index))


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
        level = [Binary(op, level[i], level[i + 1]) if i + 1 < len(level) else level[i]
                 for i in range(0, len(level), 2)]
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


# --------------------------------------------------------------------------- traversal
#
# One traversal idiom (symbolic.nodes): an expression's children are its dataclass fields that
# hold an Expr (found once per class), so a new node kind is traversed, mapped
# and substituted without touching the functions below. Binders (Quant, Sum)
# bind ``var`` in their ``body``.

def expr_classes() -> tuple[type, ...]:
    """Every concrete expression node class (the keys a pass's dispatch table needs).

    >>> [c.__name__ for c in expr_classes()][:3]
    ['Const', 'Name', 'Var']
    """
    return nodes.concrete_classes(Expr)


def children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``e``: its fields holding an :class:`Expr`.

    >>> children(ite(Var("b"), 1, Var("x")))
    (Var(name='b', primed=False), Const(value=1), Var(name='x', primed=False))
    """
    return nodes.children(e, Expr)


def map_children(e: Expr, f: Callable[[Expr], Expr]) -> Expr:
    """``e`` with ``f`` applied to each direct sub-expression: a node of the same
    class with the same other fields (span included); ``e`` itself when nothing changed.

    >>> map_children(Var("x") + 1, lambda c: Const(2) if c == Const(1) else c)
    Binary(op='+', left=Var(name='x', primed=False), right=Const(value=2))
    """
    return nodes.map_children(e, f, Expr)


def bound_var(e: Expr) -> str | None:
    """The name a binder (:class:`Quant`, :class:`Sum`) binds in its body, else None."""
    return e.var if isinstance(e, (Quant, Sum)) else None


def walk(e: Expr) -> Iterator[Expr]:
    """Every node of ``e``, parents before children.

    >>> [type(n).__name__ for n in walk(Var("x") + 1)]
    ['Binary', 'Var', 'Const']
    """
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def has_primes(e: Expr) -> bool:
    """True when ``e`` mentions a primed (next-state) variable."""
    return any(isinstance(n, (Var, Elem)) and n.primed for n in walk(e))


def reads_state(e: Expr) -> bool:
    """True when ``e`` mentions a state variable (current or primed).

    >>> reads_state(Name("i") + 1), reads_state(Elem("a", Name("i")))
    (False, True)
    """
    return any(isinstance(n, (Var, Elem)) for n in walk(e))


def free_names(e: Expr) -> set[str]:
    """The names of the :class:`Name` nodes of ``e`` not bound by an enclosing binder.

    >>> sorted(free_names(forall("i", (1, 2), lambda i: i < Name("n")) & Name("i").eq(0)))
    ['i', 'n']
    """
    if isinstance(e, Name):
        return {e.name}
    out: set[str] = set()
    for c in children(e):
        out |= free_names(c)
    v = bound_var(e)
    if v is not None:
        out.discard(v)
    return out


# --------------------------------------------------------------------------- spaces

@dataclass(frozen=True)
class IntType:
    """Integers ``lo..hi`` inclusive."""
    lo: int
    hi: int

    def __post_init__(self):
        if self.lo > self.hi:
            raise RangeError(f"empty range {self.lo}..{self.hi}")

    def values(self) -> range:
        return range(self.lo, self.hi + 1)


@dataclass(frozen=True)
class BoolType:
    """Booleans, stored in positions as 0 (false) and 1 (true)."""
    lo: int = 0
    hi: int = 1

    def values(self) -> range:
        return range(0, 2)


Type = Union[IntType, BoolType]


@dataclass(frozen=True)
class VarDecl:
    """A state variable: a scalar (``index is None``) or an array indexed ``index.lo..index.hi``."""
    name: str
    type: Type
    index: IntType | None = None
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def is_array(self) -> bool:
        return self.index is not None


@dataclass(frozen=True)
class Slot:
    """One scalar cell of the position vector: a scalar variable or one array element."""
    var: str
    index: int | None
    type: Type

    @property
    def label(self) -> str:
        return self.var if self.index is None else f"{self.var}[{self.index}]"


@dataclass(frozen=True)
class Space:
    """The position space: declared variables, flattened into slots in declaration order.

    A position is a tuple with one int per slot (booleans as 0/1).

    >>> s = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, 3), IntType(1, 2))))
    >>> [sl.label for sl in s.slots]
    ['j', 'k[1]', 'k[2]']
    >>> s.size
    32
    """
    vars: tuple[VarDecl, ...]
    slots: tuple[Slot, ...] = field(init=False, compare=False, repr=False)
    _slot_of: dict = field(init=False, compare=False, repr=False)
    _decl: dict = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        slots, slot_of, decl = [], {}, {}
        for v in self.vars:
            if v.name in decl:
                raise ModelError(f"variable {v.name!r} declared twice", v.span)
            decl[v.name] = v
            if v.index is None:
                slot_of[(v.name, None)] = len(slots)
                slots.append(Slot(v.name, None, v.type))
            else:
                for i in v.index.values():
                    slot_of[(v.name, i)] = len(slots)
                    slots.append(Slot(v.name, i, v.type))
        object.__setattr__(self, "slots", tuple(slots))
        object.__setattr__(self, "_slot_of", slot_of)
        object.__setattr__(self, "_decl", decl)

    def decl(self, name: str) -> VarDecl:
        """The declaration of variable ``name``."""
        try:
            return self._decl[name]
        except KeyError:
            raise UnknownName(f"unknown variable {name!r}") from None

    def has_var(self, name: str) -> bool:
        return name in self._decl

    def slot_index(self, name: str, index: int | None = None) -> int:
        """Position of ``name`` (or ``name[index]``) in a position tuple."""
        d = self.decl(name)
        if (index is None) != (d.index is None):
            kind = "an array" if d.is_array else "a scalar"
            raise WrongType(f"variable {name!r} is {kind}")
        try:
            return self._slot_of[(name, index)]
        except KeyError:
            raise RangeError(
                f"index {index} outside {name}[{d.index.lo}..{d.index.hi}]") from None

    @property
    def size(self) -> int:
        """Number of value vectors (before any invariant)."""
        n = 1
        for s in self.slots:
            n *= s.type.hi - s.type.lo + 1
        return n

    def check_position(self, pos) -> tuple:
        """Normalise ``pos`` (tuple, list or dict by label) to a tuple, or raise RangeError."""
        if isinstance(pos, dict):
            missing = [s.label for s in self.slots if s.label not in pos]
            extra = set(pos) - {s.label for s in self.slots}
            if missing or extra:
                raise RangeError(f"position {pos!r}: missing {missing}, unknown {sorted(extra)}")
            pos = tuple(pos[s.label] for s in self.slots)
        if isinstance(pos, (str, bytes)) or not isinstance(pos, Iterable):
            raise ArgumentTypeError(f"a position is a tuple, list or dict of ints, got {pos!r}")
        pos = tuple(pos)
        bad = [v for v in pos if not isinstance(v, int)]  # bool is an int: True = 1
        if bad:
            raise ArgumentTypeError(f"position {pos!r}: {bad[0]!r} is not an int (values are "
                                    f"never converted)")
        if len(pos) != len(self.slots):
            raise RangeError(
                f"position {pos} has {len(pos)} values, expected {len(self.slots)} "
                f"({', '.join(s.label for s in self.slots)})")
        for v, s in zip(pos, self.slots):
            if not s.type.lo <= v <= s.type.hi:
                raise RangeError(f"position {pos}: {s.label} = {v} outside {s.type.lo}..{s.type.hi}")
        return pos

    def as_dict(self, pos: tuple) -> dict:
        """``{label: value}`` for a position tuple."""
        return {s.label: v for s, v in zip(self.slots, pos)}


# --------------------------------------------------------------------------- games

@dataclass(frozen=True)
class Param:
    """A move parameter ranging over a finite tuple of constant values."""
    name: str
    domain: tuple


@dataclass(frozen=True)
class Move:
    """A move: for each parameter valuation where ``guard`` holds at the current
    position, the successors are the positions satisfying ``effect`` (over current
    and primed variables). Slots whose variable is never primed in ``effect``
    keep their value (for arrays: per element, after expanding quantifiers; a
    primed array element needs a constant index)."""
    name: str
    params: tuple[Param, ...] = ()
    guard: Expr = TRUE
    effect: Expr = TRUE
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Game:
    """A turn-based game ``(players, positions, turn, delta)``.

    ``positions`` are the vectors of ``space`` satisfying ``invariant``;
    ``turn`` is an int expression giving the player to move; δ(c) is the union
    over moves and parameter valuations of the successors each move allows
    (always inside the positions).
    """
    name: str
    space: Space
    players: tuple[int, ...]
    turn: Expr
    moves: tuple[Move, ...]
    invariant: Expr = TRUE
    description: str = ""

    def __post_init__(self):
        if not self.players:
            raise ModelError(f"game {self.name!r} has no players")
        if len(set(self.players)) != len(self.players):
            raise ModelError(f"game {self.name!r}: duplicate player ids {self.players}")
        names = [m.name for m in self.moves]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ModelError(f"game {self.name!r}: moves declared twice: {sorted(dup)}")

    def coalition(self, players: Iterable[int]) -> frozenset[int]:
        """Validate a set of player ids against the game's players."""
        if isinstance(players, int) and not isinstance(players, bool):
            players = (players,)
        if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
            raise ArgumentTypeError(f"a coalition is a player id or a collection of player "
                                    f"ids, got {players!r}")
        players = tuple(players)
        bad = [p for p in players if not isinstance(p, int) or isinstance(p, bool)]
        if bad:
            raise ArgumentTypeError(f"coalition {players!r}: {bad[0]!r} is not a player id "
                                    f"(an int)")
        J = frozenset(players)
        unknown = sorted(J - set(self.players))
        if unknown:
            raise QueryError(
                f"unknown player(s) {unknown}: the players are {list(self.players)}")
        return J


# --------------------------------------------------------------------------- utilities

def substitute(e: Expr, env: Mapping[str, Value]) -> Expr:
    """``e`` with every free ``Name`` bound in ``env`` replaced by its constant.

    >>> substitute(Name("d") + Name("i"), {"i": 2})
    Binary(op='+', left=Name(name='d'), right=Const(value=2))
    """
    if not env:
        return e
    if isinstance(e, Name):
        return Const(env[e.name], e.span) if e.name in env else e
    v = bound_var(e)
    if v is not None and v in env:
        env = {k: x for k, x in env.items() if k != v}  # the binder shadows
    return map_children(e, lambda c: substitute(c, env))


def substitute_exprs(e: Expr, env: Mapping[str, Expr]) -> Expr:
    """``e`` with free ``Name`` nodes replaced by expressions, renaming binders
    that would capture a free name of a replacement.

    >>> substitute_exprs(Name("j") + 1, {"j": Var("x")})
    Binary(op='+', left=Var(name='x', primed=False), right=Const(value=1))
    >>> substitute_exprs(exists("i", (1, 2), lambda i: i < Name("j")), {"j": Name("i")}).body
    Binary(op='<', left=Name(name='i_1'), right=Name(name='i'))
    """
    if not env:
        return e
    if isinstance(e, Name):
        return env.get(e.name, e)
    v = bound_var(e)
    if v is None:
        return map_children(e, lambda c: substitute_exprs(c, env))
    inner = {k: x for k, x in env.items() if k != v}  # the binder shadows
    if not inner:
        return e
    body = e.body
    captured = set().union(*(free_names(x) for x in inner.values()))
    if v in captured:
        # a fresh name: not free in a replacement, in the body, nor about to be substituted
        taken = captured | free_names(body) | set(inner)
        fresh = next(f"{v}_{i}" for i in itertools.count(1) if f"{v}_{i}" not in taken)
        body = substitute_exprs(body, {v: Name(fresh)})
        v = fresh
    return dataclasses.replace(e, var=v, body=substitute_exprs(body, inner))


def const_value(e: Expr) -> Value:
    """The value of a constant node (``Const`` or ``-Const``), else WrongType."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Unary) and e.op == "-" and isinstance(e.arg, Const) \
            and isinstance(e.arg.value, int) and not isinstance(e.arg.value, bool):
        return -e.arg.value
    raise WrongType("expected a constant", getattr(e, "span", None))
