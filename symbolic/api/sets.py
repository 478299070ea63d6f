"""The contract of position sets: :class:`PositionSet`, the sets of one engine;
:class:`SetEngine`, what builds them over a :class:`~symbolic.ir.Space`;
:class:`MoveRelation`, sets of moves. Both engines implement them, so a differential
test is one equality after :meth:`SetEngine.convert`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Iterable, Iterator, Mapping

from ..arguments import need, need_mapping
from ..errors import ArgumentTypeError, EngineMismatch, QueryError
from ..ir import Expr, Space, Value
from ..limits import NO_LIMITS, Limits
from ..validate import check_expr

__all__ = [
    "PositionSet",
    "SetEngine",
    "MoveRelation",
    "check_set",
    "difference_witness",
    "same_sets",
]


def check_set(engine: "SetEngine", s, what: str = "the set") -> "PositionSet":
    """``s`` itself when it is a set of positions of ``engine``: ArgumentTypeError for
    anything else, EngineMismatch for a set of another engine."""
    need(s, PositionSet, what, hint=" (a PositionSet of the engine)")
    if s.engine is not engine:
        raise EngineMismatch(
            f"{what} is a set of {s.engine!r}, not of {engine!r}: convert it first (engine.convert)"
        )
    return s


class PositionSet(ABC):
    """A set of positions of one engine's space, always inside its domain.

    Supports ``len``, ``in`` (tuple or dict), iteration in lexicographic order of
    position tuples, ``| & -``, ``~`` (complement within the positions), ``==``,
    ``<=`` (subset). Mixing sets of two engines raises :class:`EngineMismatch`:
    use :meth:`SetEngine.convert` first.
    """

    __slots__ = ()
    engine: "SetEngine"

    @abstractmethod
    def count(self) -> int:
        """The exact number of positions (a Python int, however large)."""

    def __len__(self) -> int:
        # len() is limited to sys.maxsize: count() is the exact, unbounded size
        return self.count()

    @abstractmethod
    def _contains(self, pos: tuple) -> bool: ...

    @abstractmethod
    def tuples(self) -> list[tuple]:
        """All positions as tuples, sorted lexicographically."""

    @abstractmethod
    def _union(self, other): ...

    @abstractmethod
    def _inter(self, other): ...

    @abstractmethod
    def _diff(self, other): ...

    @abstractmethod
    def _same(self, other) -> bool: ...

    def __contains__(self, pos) -> bool:
        return self._contains(self.engine.space.check_position(pos))

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.tuples())

    def _check(self, other) -> "PositionSet":
        if not isinstance(other, PositionSet) or other.engine is not self.engine:
            raise EngineMismatch(
                f"cannot combine a set of {self.engine!r} with {other!r}: convert it first"
            )
        return other

    def __or__(self, other):
        return self._union(self._check(other))

    def __and__(self, other):
        return self._inter(self._check(other))

    def __sub__(self, other):
        return self._diff(self._check(other))

    def __invert__(self):
        return self.engine.positions() - self

    def __eq__(self, other) -> bool:
        if not isinstance(other, PositionSet):
            return NotImplemented
        return self._same(self._check(other))

    def __ne__(self, other) -> bool:
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    # mutable-looking value semantics; not hashable on purpose (typeshed's idiom for an
    # unhashable class: object declares __hash__ a method)
    __hash__ = None  # type: ignore[assignment]

    def __le__(self, other) -> bool:
        return (self - other).is_empty()

    def is_empty(self) -> bool:
        return self.count() == 0

    def __bool__(self) -> bool:
        return not self.is_empty()

    def dicts(self) -> list[dict]:
        """All positions as ``{label: value}`` dicts, in lexicographic order."""
        return [self.engine.space.as_dict(t) for t in self.tuples()]

    def first(self) -> tuple | None:
        """The lexicographically smallest position, or None when empty."""
        t = self.tuples()
        return t[0] if t else None

    def take(self, n: int) -> Iterator[tuple]:
        """The ``n`` lexicographically smallest positions (fewer if the set is
        smaller), in order, lazily: each engine finds them without listing the
        whole set, so a set of 2**100 positions gives its first 10 at once.

        >>> from symbolic.ir import IntType, Space, VarDecl
        >>> from symbolic.engines import make_sets
        >>> S = make_sets(Space((VarDecl("x", IntType(0, 9)),)), "explicit")
        >>> list(S.positions().take(3))
        [(0,), (1,), (2,)]
        """
        if isinstance(n, bool) or not isinstance(n, int):
            raise QueryError(f"take(n) needs an int, got {type(n).__name__} {n!r}")
        if n < 0:
            raise QueryError(f"take(n) needs n >= 0, got {n}")
        return self._take(n)

    def _take(self, n: int) -> Iterator[tuple]:
        """:meth:`take` after validation; engines override it with a lazy version."""
        return iter(self.tuples()[:n])

    def _repr_html_(self) -> str:
        from ..html import positions_html  # Jupyter: a count and at most 20 rows

        return positions_html(self)

    def __repr__(self) -> str:
        n = self.count()
        shown = self.tuples()[:5] if n <= 10_000 else []
        more = ", ..." if n > len(shown) else ""
        return f"<{self.engine.kind} PositionSet of {n}: {', '.join(map(str, shown))}{more}>"


class SetEngine(ABC):
    """Sets of positions over a :class:`Space` (ENS 2005, Q2–Q4)."""

    kind: str  # "symbolic" or "explicit"
    space: Space
    #: the time, memory and stage limits its computations obey (the engines take theirs
    #: when built; none for an engine that declares no limits)
    limits: Limits = NO_LIMITS

    @abstractmethod
    def empty(self) -> PositionSet: ...

    @abstractmethod
    def positions(self) -> PositionSet:
        """Every position of the domain (values in range and the invariant holds)."""

    @abstractmethod
    def from_tuples(self, tuples: Iterable) -> PositionSet:
        """The set of the given positions (tuples or dicts); out-of-range values raise."""

    def from_expr(self, expr: Expr, env: Mapping[str, Value] | None = None) -> PositionSet:
        """The positions where the boolean state expression ``expr`` holds; ``env``
        binds the names (constants) it uses. It is validated first
        (:func:`symbolic.validate.check_expr`: no primed variable, ...), so each
        engine's :meth:`_from_expr` only evaluates."""
        if not isinstance(expr, Expr):
            hint = (
                ": parse text first with parse_state_expr(text, model)"
                if isinstance(expr, str)
                else ""
            )
            raise ArgumentTypeError(f"from_expr needs an IR expression, got {expr!r}{hint}")
        env = dict(need_mapping(env, "env (name -> constant)") if env is not None else {})
        for k, v in env.items():
            need(k, str, "a name of env")
            need(v, (int, bool, tuple), f"env[{k!r}]")
        check_expr(expr, self.space, env)
        return self._from_expr(expr, env)

    @abstractmethod
    def _from_expr(self, expr: Expr, env: dict) -> PositionSet:
        """:meth:`from_expr` of an expression that passed validation."""

    def singleton(self, pos) -> PositionSet:
        return self.from_tuples([pos])

    def convert(self, other: PositionSet) -> PositionSet:
        """The same set of positions as a set of this engine (spaces must match)."""
        if other.engine is self:
            return other
        if other.engine.space != self.space:
            raise EngineMismatch("cannot convert between different position spaces")
        return self.from_tuples(other.tuples())


class MoveRelation(ABC):
    """A set of moves (c, c') of one engine's game, c' ∈ δ(c): a strategy's
    relation, or δ restricted to sources and targets (:meth:`~symbolic.api.GameEngine.moves_between`).

    The symbolic engine holds it as one BDD over current and next bits, the
    explicit engine as a frozenset of pairs of position tuples.
    """

    engine: "SetEngine"  # the game engine (symbolic.api.engine.GameEngine) of the moves

    @abstractmethod
    def count(self) -> int:
        """The exact number of pairs."""

    @abstractmethod
    def pairs(self) -> list[tuple[tuple, tuple]]:
        """Every pair (c, c'), sorted lexicographically."""

    @abstractmethod
    def sources(self) -> PositionSet:
        """{c | ∃c'. (c, c') ∈ R}."""

    @abstractmethod
    def image(self, source: PositionSet) -> PositionSet:
        """R(S) = {c' | ∃c ∈ S. (c, c') ∈ R}."""

    @abstractmethod
    def restrict(self, source: PositionSet) -> "MoveRelation":
        """{(c, c') ∈ R | c ∈ S}."""

    @abstractmethod
    def pick(self) -> "MoveRelation":
        """A function inside R: for each source c, only its lexicographically
        smallest c' (the same choice on both engines)."""

    @abstractmethod
    def _union(self, other) -> "MoveRelation": ...

    @abstractmethod
    def _same(self, other) -> bool: ...

    def _check(self, other) -> "MoveRelation":
        if not isinstance(other, MoveRelation) or other.engine is not self.engine:
            raise EngineMismatch(f"cannot combine a relation of {self.engine!r} with {other!r}")
        return other

    def __or__(self, other):
        return self._union(self._check(other))

    def __eq__(self, other) -> bool:
        if not isinstance(other, MoveRelation):
            return NotImplemented
        return self._same(self._check(other))

    __hash__ = None  # type: ignore[assignment]  # not hashable, as PositionSet

    def __len__(self) -> int:
        return self.count()

    def is_empty(self) -> bool:
        return self.count() == 0

    def table(self) -> dict[tuple, tuple]:
        """{c: smallest c'} over the sources: the relation as a position → move table."""
        return dict(self.pick().pairs())

    def __repr__(self) -> str:
        return f"<{self.engine.kind} MoveRelation of {self.count()} pairs>"


def difference_witness(a: PositionSet, b: PositionSet) -> tuple | None:
    """The smallest position in exactly one of ``a`` and ``b`` (any engines), or None.

    >>> # difference_witness(symbolic_set, explicit_set) is None  when they agree
    """
    b = a.engine.convert(b)
    d = (a - b) | (b - a)
    return d.first()


def same_sets(a: PositionSet, b: PositionSet) -> bool:
    """True when ``a`` and ``b`` hold the same positions, across engines."""
    return a == a.engine.convert(b)
