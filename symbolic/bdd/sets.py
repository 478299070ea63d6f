"""Sets of positions as BDDs: :class:`SymbolicSets` (the :class:`symbolic.api.SetEngine`
of the symbolic engine) and its :class:`BddSet` values.

A set S of positions is one BDD S(x) over the current bits x, always inside the
domain D(x) (every slot in range, and the invariant); complement is D ∧ ¬S, and
counts and enumerations range over D only.

>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> S = SymbolicSets(Space((VarDecl("x", IntType(0, 9)),)), backend="autoref")
>>> (~S.from_expr(Var("x") > 2)).tuples()
[(0,), (1,), (2,)]
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..api import PositionSet, SetEngine
from ..arguments import need, need_int, need_iterable
from ..errors import EngineMismatch, QueryError, RangeError
from ..ir import TRUE, Expr, Space
from ..limits import Limits
from ..validate import check_expr
from .managers import make_manager, resolve_backend
from .encode import Encoder

__all__ = ["BddSet", "SymbolicSets"]


class BddSet(PositionSet):
    """A set of positions of one :class:`SymbolicSets` engine, held as a BDD over the
    current bits, always inside the engine's domain.

    ``BddSet(engine, node)`` checks that ``node`` belongs to the engine's manager
    and mentions only current bits, and intersects it with the domain.
    ``node`` is the BDD, for advanced use.
    """

    __slots__ = ("engine", "node")
    engine: "SymbolicSets"

    def __init__(self, engine: "SymbolicSets", node):
        if not isinstance(engine, SymbolicSets):
            raise EngineMismatch(f"not a symbolic engine: {engine!r}")
        m = engine.manager
        m.check(node)
        extra = m.support(node) - engine.encoder.current_set
        if extra:
            raise QueryError(
                f"a position set may only mention current bits, not {sorted(extra)[:5]}"
            )
        self.engine = engine
        self.node = m.and_(node, engine._domain)

    @classmethod
    def _make(cls, engine: "SymbolicSets", node) -> "BddSet":
        """Wrap ``node`` (already inside the domain) without checks: the hot path."""
        s = object.__new__(cls)
        s.engine = engine
        s.node = node
        return s

    def count(self) -> int:
        """|S| as an exact Python int (``len`` cannot exceed sys.maxsize)."""
        e = self.engine
        return e.manager.exact_count(self.node, len(e.encoder.current_bits))

    def is_empty(self) -> bool:
        """S = ∅, by node comparison (no counting)."""
        return self.engine.manager.is_false(self.node)

    def _contains(self, pos: tuple) -> bool:
        e = self.engine
        return e.manager.is_true(e.manager.restrict(self.node, e.encoder.assignment(pos)))

    def tuples(self) -> list[tuple]:
        """All positions as tuples, sorted lexicographically (enumerates the set)."""
        e = self.engine
        dec = e.encoder.decode
        return sorted(dec(a) for a in e.manager.assignments(self.node, e.encoder.current_bits))

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.tuples())

    def first(self) -> tuple | None:
        """The lexicographically smallest position, found without enumerating the set."""
        return self.engine.encoder.first_position(self.node)

    def _take(self, n: int) -> Iterator[tuple]:
        """The n smallest positions, in order: the smallest, then the smallest of
        the rest without it, ... (a few BDD operations per position, none per
        position left out)."""
        e = self.engine
        m, enc = e.manager, e.encoder
        rest = self.node
        for _ in range(n):
            pos = enc.first_position(rest)
            if pos is None:
                return
            yield pos
            rest = m.diff(rest, enc.position_cube(pos))

    def _union(self, other: "BddSet") -> "BddSet":
        return BddSet._make(self.engine, self.engine.manager.or_(self.node, other.node))

    def _inter(self, other: "BddSet") -> "BddSet":
        return BddSet._make(self.engine, self.engine.manager.and_(self.node, other.node))

    def _diff(self, other: "BddSet") -> "BddSet":
        return BddSet._make(self.engine, self.engine.manager.diff(self.node, other.node))

    def __invert__(self) -> "BddSet":
        e = self.engine
        return BddSet._make(e, e.manager.diff(e._domain, self.node))

    def _same(self, other: "BddSet") -> bool:
        return self.node == other.node  # canonical BDDs: same function, same node

    def __repr__(self) -> str:
        n = self.count()
        shown = self.tuples()[:5] if n <= 10_000 else [self.first()]
        more = ", ..." if n > len(shown) else ""
        return f"<{self.engine.kind} PositionSet of {n}: {', '.join(map(str, shown))}{more}>"


class SymbolicSets(SetEngine):
    """Sets of positions of ``space`` as BDDs (ENS 2005, Q2–Q4).

    The domain D = {c | every slot in range} ∩ {c | invariant(c)}; every set,
    complement, count and enumeration lives inside D. ``order`` is the bit order
    (``"auto"``, ``"sliced"`` or ``"slots"``, see :mod:`symbolic.bdd.encode`).
    ``limits`` (:class:`symbolic.limits.Limits`) bounds time and memory;
    ``max_memory`` (bytes) overrides its memory cap.
    """

    kind = "symbolic"

    def __init__(
        self,
        space: Space,
        backend: str = "auto",
        invariant: Expr = TRUE,
        *,
        order: str = "auto",
        max_memory: int | None = None,
        limits: Limits | None = None,
    ):
        self.space = need(space, Space, "the space (model.game.space)")
        need(invariant, Expr, "the invariant (a symbolic.ir expression)")
        self.limits = limits = need(limits, Limits, "limits", none=True) or Limits()
        # bytes, as CUDD counts them (a size_t)
        need_int(max_memory, "max_memory (bytes)", low=1, high=2**64 - 1, none=True)
        if max_memory is None:
            max_memory = limits.max_memory_bytes
        # a stage of its own: oxidd's apply cache of 2^26 entries takes seconds to allocate
        with limits.stage("making the BDD manager"):
            self.manager = make_manager(
                resolve_backend(backend, space),
                max_memory=max_memory,
                limits=limits,
                space_bits=space.size.bit_length() - 1,
            )
        self.encoder = Encoder(space, self.manager, order)
        self.invariant = invariant
        enc = self.encoder
        with limits.stage("building the domain"):
            self._domain = self.manager.and_(
                enc.domain(), enc.boolean(check_expr(invariant, space))
            )
        self._domain_next = None

    def __repr__(self) -> str:
        return (
            f"<SymbolicSets {self.manager.backend}: "
            f"{len(self.space.slots)} slots, {len(self.encoder.order)} BDD variables>"
        )

    @property
    def backend(self) -> str:
        """The BDD backend name, ``"cudd"``, ``"oxidd"`` or ``"autoref"`` (what ``auto`` chose)."""
        return self.manager.backend

    def _set_domain(self, node) -> None:
        """Make ``node`` (over the current bits, inside the domain) the domain D: the GDL
        engines narrow theirs to the states they reached (D(x') is then recomputed)."""
        self._domain = node
        self._domain_next = None

    def domain_next(self):
        """D(x'): the domain over the next bits (cached)."""
        if self._domain_next is None:
            self._domain_next = self.manager.rename(self._domain, self.encoder.to_next)
        return self._domain_next

    # ------------------------------------------------------------------ SetEngine

    def wrap(self, node) -> BddSet:
        """The position set of a BDD over current bits (intersected with the domain)."""
        return BddSet(self, node)

    def _node_of(self, s: PositionSet):
        """The BDD of a set of this engine (EngineMismatch for anything else)."""
        if not isinstance(s, BddSet) or s.engine is not self:
            raise EngineMismatch(f"{s!r} is not a set of this engine {self!r}: convert it first")
        return self.manager.check(s.node)

    def empty(self) -> BddSet:
        """∅."""
        return BddSet._make(self, self.manager.false)

    def positions(self) -> BddSet:
        """D: every position of the domain."""
        return BddSet._make(self, self._domain)

    def from_tuples(self, tuples: Iterable) -> BddSet:
        """The set of the listed positions; out-of-range values raise RangeError, and so
        do in-range vectors that violate the invariant (they are not positions)."""
        enc = self.encoder
        m = self.manager
        tuples = need_iterable(tuples, "from_tuples: the positions")
        cubes = [enc.position_cube(self.space.check_position(t)) for t in tuples]
        u = m.disj(cubes)
        self._require_inside(u)
        return BddSet._make(self, u)

    def _require_inside(self, u) -> None:
        outside = self.manager.diff(u, self._domain)
        if not self.manager.is_false(outside):
            bad = BddSet._make(self, outside).first()
            raise RangeError(f"{bad} is not a position: the invariant is false there")

    def _from_expr(self, expr: Expr, env: dict) -> BddSet:
        """{c ∈ D | expr(c)} for a bool expression over current variables; ``env``
        binds names (constants) used in ``expr``."""
        u = self.encoder.boolean(expr, env, care=self._domain)
        return BddSet._make(self, self.manager.and_(u, self._domain))

    def convert(self, other: PositionSet) -> BddSet:
        """The same positions as a set of this engine. Sets of another symbolic engine
        over the same space are copied node by node (no enumeration)."""
        if isinstance(other, BddSet) and other.engine is self:
            return other
        if other.engine.space != self.space:
            raise EngineMismatch("cannot convert between different position spaces")
        if isinstance(other, BddSet):
            u = self.manager.copy_from(other.node)
            self._require_inside(u)
            return BddSet._make(self, u)
        return self.from_tuples(other.tuples())

    def count(self, s: PositionSet) -> int:
        """|s| exactly (also for sets beyond sys.maxsize)."""
        return BddSet._make(self, self._node_of(s)).count()
