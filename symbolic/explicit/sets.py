"""The explicit engine's sets: position tuples of a space, enumerated.

:class:`ExplicitSets` enumerates the domain of a :class:`~symbolic.ir.Space`
(the product of the slot ranges, filtered by an invariant) and represents sets
as frozensets of position tuples (:class:`ExplicitSet`). The domain is
enumerated on first use, and refused beyond a position limit.

>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> E = ExplicitSets(Space((VarDecl("x", IntType(0, 3)), VarDecl("y", IntType(0, 3)))),
...                  invariant=Var("x") <= Var("y"))
>>> len(E.positions()), E.from_expr(Var("x").eq(Var("y"))).tuples()
(10, [(0, 0), (1, 1), (2, 2), (3, 3)])
>>> len(~E.from_expr(Var("x").eq(Var("y"))))
6
"""

from __future__ import annotations

import heapq
import itertools
from abc import abstractmethod
from typing import Iterable, Protocol

from ..api import Fixpoint, PositionSet, SetEngine
from ..arguments import need, need_int, need_iterable
from ..errors import EngineMismatch, Hint, RangeError, TooManyPositions, WrongType
from ..ir import TRUE, Expr, Space
from ..limits import Limits, size_text
from ..validate import check_expr
from .interp import BOOL, compile_expr, type_name
from .domain import positions as domain_positions

__all__ = [
    "ExplicitSet",
    "ExplicitSets",
    "TupleItems",
    "TupleSets",
    "DEFAULT_MAX_POSITIONS",
    "BYTES_PER_POSITION",
    "position_limit",
    "checked_position",
    "checked_positions",
    "predicate",
]

#: Spaces larger than this (before the invariant) are refused rather than
#: enumerated: a tuple costs about 100 bytes, so this is already gigabytes.
DEFAULT_MAX_POSITIONS = 5_000_000
#: Games whose number of edges may exceed this are refused before enumeration:
#: an edge costs about 20 bytes (successor and predecessor lists), so this is
#: bytes a position costs the explicit engine, about (its tuple, index entry,
#: successor and predecessor lists): with a memory cap (``--max-memory``) the
#: position limit is the cap divided by this, instead of DEFAULT_MAX_POSITIONS
BYTES_PER_POSITION = 500


def position_limit(max_positions: int, limits: Limits | None) -> tuple[int, Limits]:
    """(the position limit, the limits) of an explicit engine: ``max_positions``, or
    with a memory cap the cap divided by :data:`BYTES_PER_POSITION`.

    >>> position_limit(10, None)[0], position_limit(10, Limits(max_memory=1))[0]   # 1 MB
    (10, 2097)
    """
    need_int(max_positions, "max_positions", low=1)
    limits = need(limits, Limits, "limits", none=True) or Limits()
    if limits.max_memory_bytes is not None:
        max_positions = limits.max_memory_bytes // BYTES_PER_POSITION
    return max_positions, limits


def checked_position(space: Space, pos, is_position) -> tuple:
    """``pos`` normalised by ``space``; RangeError out of range or where
    ``is_position`` (the invariant, or reachability) fails."""
    t = space.check_position(pos)
    if not is_position(t):
        raise RangeError(f"{t} is not a position: the invariant is false there")
    return t


def checked_positions(space: Space, tuples: Iterable, is_position) -> frozenset:
    """The given positions (tuples, lists or dicts by slot label), each
    :func:`checked_position`."""
    tuples = need_iterable(tuples, "from_tuples: the positions")
    return frozenset(checked_position(space, t, is_position) for t in tuples)


def predicate(expr: Expr, space: Space, env: dict):
    """The compiled bool expression: its value when it folds to a constant, else its
    function (position, next position) -> bool; WrongType for a non-bool one."""
    c = compile_expr(expr, space, env)
    if c.type != BOOL:
        raise WrongType(
            f"a set is defined by a bool expression, got {type_name(c.type)}",
            getattr(expr, "span", None),
        )
    return bool(c.value) if c.folded else c.fn


class ExplicitSet(PositionSet):
    """A set of positions of an :class:`ExplicitSets` engine: a frozenset of tuples.

    Iteration and :meth:`tuples` are in lexicographic order; ``len``, ``in``,
    ``| & - ~``, ``==`` and ``<=`` follow :class:`~symbolic.api.PositionSet`.

    >>> from symbolic.ir import Space, VarDecl, IntType
    >>> E = ExplicitSets(Space((VarDecl("x", IntType(0, 2)),)))
    >>> a = E.from_tuples([(2,), (0,)])
    >>> a.tuples(), (1,) in a, len(~a), a <= E.positions()
    ([(0,), (2,)], False, 1, True)
    """

    __slots__ = ("engine", "items", "_sorted", "_idx")

    def __init__(self, engine: "ExplicitSets", items: frozenset):
        self.engine = engine
        #: the positions, as a frozenset of tuples (read-only by convention)
        self.items = items
        self._sorted: list[tuple] | None = None  # cached sorted list
        self._idx: list[int] | None = None  # cached engine indices (ExplicitSets._indices)

    def count(self) -> int:
        return len(self.items)

    def _contains(self, pos: tuple) -> bool:
        return pos in self.items

    def tuples(self) -> list[tuple]:
        if self._sorted is None:
            self._sorted = sorted(self.items)
        return list(self._sorted)

    def _take(self, n: int):
        """The n smallest positions, in order, without sorting the whole set."""
        if self._sorted is not None or n >= len(self.items):
            return iter(self.tuples()[:n])
        return iter(heapq.nsmallest(n, self.items))

    def _union(self, other):
        return ExplicitSet(self.engine, self.items | other.items)

    def _inter(self, other):
        return ExplicitSet(self.engine, self.items & other.items)

    def _diff(self, other):
        return ExplicitSet(self.engine, self.items - other.items)

    def _same(self, other) -> bool:
        return self.items == other.items


class TupleItems(Protocol):
    """A set of positions that gives them as a frozenset of tuples, ``items``."""

    @property
    def items(self) -> frozenset: ...


class TupleSets(SetEngine):
    """A set engine whose sets give their positions as tuples (:class:`TupleItems`): what
    :class:`~.engine.ExplicitRelation` reads of its engine (:class:`ExplicitSets`, and
    the explored positions of the GDL engines, ``symbolic.gdl.explicit.GdlPositions``)."""

    @abstractmethod
    def _own(self, s) -> TupleItems:
        """``s`` when it is a set of this engine, else EngineMismatch."""

    @abstractmethod
    def _set_of(self, positions: frozenset) -> PositionSet:
        """The set of the given positions (tuples already checked)."""


class ExplicitSets(TupleSets):
    """Sets of positions of ``space`` by enumeration (ENS 2005, Q2–Q4).

    The domain is {c ∈ ∏ slot ranges | invariant(c)}, in lexicographic order
    (the order of :func:`itertools.product` over ascending ranges); position i
    of that order has index i.

    >>> from symbolic.ir import Space, VarDecl, IntType, Var
    >>> x, y, z = Var("x"), Var("y"), Var("z")
    >>> E = ExplicitSets(Space(tuple(VarDecl(v, IntType(0, 10)) for v in "xyz")))
    >>> A = E.from_expr((x * x + y * y).eq(z * z))
    >>> len(A), [t for t in A if 0 < t[0] < t[1]]
    (25, [(3, 4, 5), (6, 8, 10)])
    """

    kind = "explicit"

    def __init__(
        self,
        space: Space,
        invariant: Expr = TRUE,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        limits: Limits | None = None,
    ):
        self.space = need(space, Space, "the space (model.game.space)")
        self.invariant = need(invariant, Expr, "the invariant (a symbolic.ir expression)")
        self.max_positions, self.limits = position_limit(max_positions, limits)
        inv = compile_expr(check_expr(invariant, space), space)
        if inv.type != BOOL:
            raise WrongType(
                f"the invariant must be bool, got {type_name(inv.type)}",
                getattr(invariant, "span", None),
            )
        # None means "always true": most games have no invariant, skip the calls.
        self._inv = None if inv.folded and inv.value is True else inv.fn
        self._dom: list[tuple] | None = None
        self._index: dict[tuple, int] | None = None
        self._all: ExplicitSet | None = None

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<{type(self).__name__} over {[s.label for s in self.space.slots]}: {n} positions>"

    # ---------------------------------------------------------------- domain

    def check_size(self) -> None:
        """:class:`~symbolic.errors.TooManyPositions` (a QueryError and a
        LimitExceeded) when the space is too large to enumerate (before any work)."""
        size = self.space.size
        if size > self.max_positions:
            raise TooManyPositions(
                (
                    f"position limit reached: the space has {size_text(size)} value vectors, "
                    f"more than the explicit engine's limit of {self.max_positions} (",
                    Hint("raise", "max_memory"),
                    f" raises or lowers it, at {BYTES_PER_POSITION} "
                    f"bytes a position): use the symbolic engine",
                ),
                stage="enumerating the positions",
            )

    def _domain(self) -> list[tuple]:
        """The positions in lexicographic order (enumerated once)."""
        if self._dom is None:
            self.check_size()
            if self._inv is None:
                dom = list(itertools.product(*(s.type.values() for s in self.space.slots)))
            else:  # conjunct by conjunct, slot by slot (symbolic.explicit.domain)
                dom = domain_positions(self.space, self.invariant, self._inv)
            self._dom = dom
            self._index = dict(zip(dom, range(len(dom))))
        return self._dom

    def _is_position(self, pos: tuple) -> bool:
        """Invariant test for an in-range tuple, without enumerating the domain."""
        if self._index is not None:
            return pos in self._index
        return self._inv is None or bool(self._inv(pos, None))

    def _position(self, pos) -> tuple:
        """``pos`` normalised; RangeError out of range or where the invariant fails."""
        return checked_position(self.space, pos, self._is_position)

    def _own(self, s) -> ExplicitSet:
        if not isinstance(s, ExplicitSet) or s.engine is not self:
            raise EngineMismatch(f"{s!r} is not a set of {self!r}: convert it first")
        return s

    def _position_index(self) -> dict[tuple, int]:
        """{position: its index} (the domain enumerated once, with it)."""
        self._domain()
        if self._index is None:  # set by _domain
            raise AssertionError("the domain has no index")
        return self._index

    def _indices(self, s: ExplicitSet) -> list[int]:
        """The indices of the positions of ``s`` (cached on the set)."""
        if s._idx is None:
            index = self._position_index()
            s._idx = [index[t] for t in s.items]
        return s._idx

    def _from_indices(self, idx: Iterable[int]) -> ExplicitSet:
        dom = self._domain()
        return ExplicitSet(self, frozenset(map(dom.__getitem__, idx)))

    def _set_of(self, positions: frozenset) -> ExplicitSet:
        """The set of the given positions (tuples already checked)."""
        return ExplicitSet(self, positions)

    def _fixpoint(self, layers: list[list[int]], keep_layers: bool) -> Fixpoint:
        """The fixpoint whose layers, as indices, are ``layers`` (each the new positions)."""
        dom = self._domain()
        acc: set = set()
        cumulative = []
        for layer in layers:
            acc.update(map(dom.__getitem__, layer))
            if keep_layers:
                cumulative.append(ExplicitSet(self, frozenset(acc)))
        result = cumulative[-1] if keep_layers else ExplicitSet(self, frozenset(acc))
        return Fixpoint(result, len(layers) - 1, tuple(cumulative) if keep_layers else None)

    def position_at(self, i: int) -> tuple:
        """The position of index ``i``."""
        return self._domain()[i]

    # ---------------------------------------------------------------- SetEngine

    def empty(self) -> ExplicitSet:
        return ExplicitSet(self, frozenset())

    def positions(self) -> ExplicitSet:
        if self._all is None:
            self._all = ExplicitSet(self, frozenset(self._domain()))
        return self._all

    def from_tuples(self, tuples: Iterable) -> ExplicitSet:
        """The given positions (tuples, lists or dicts by slot label).

        RangeError for a value out of its slot's range, a wrong length, or a
        tuple where the invariant is false (it is not a position).
        """
        return ExplicitSet(self, checked_positions(self.space, tuples, self._is_position))

    def _from_expr(self, expr: Expr, env: dict) -> ExplicitSet:
        """{c ∈ domain | expr(c)} for a bool expression over current variables."""
        f = self._predicate(expr, env)
        if isinstance(f, bool):
            return self.positions() if f else self.empty()
        return ExplicitSet(self, frozenset(t for t in self._domain() if f(t, None)))

    def _predicate(self, expr: Expr, env: dict):
        """The compiled bool expression (:func:`predicate`)."""
        return predicate(expr, self.space, env)

    def index(self, pos) -> int:
        """The index of position ``pos`` in the lexicographic domain order."""
        t = self._position(pos)
        return self._position_index()[t]
