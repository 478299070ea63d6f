"""Forward operators of the symbolic game: successors, post-images, the moves
between two sets and out-degrees, and :class:`BddRelation`, a set of moves as one BDD.

With δ(x, x') = ⋁_(S, Rs) S(x) ∧ ⋁_{R ∈ Rs} R(x, x') (the parts of δ grouped by
source factor, :meth:`symbolic.bdd.relation.DeltaParts.grouped`):

- post(S) = (∃x. S ∧ δ)[x' := x], one relational product per part;
- moves(S, T) = δ ∧ S(x) ∧ T(x');
- the out-degree of c is |δ(c)|, counted by peeling one successor per round.

:class:`ForwardOps` is a part of :class:`~symbolic.bdd.turnbased.TurnBasedGame` (a base
of it, over :class:`~symbolic.bdd.sets.SymbolicSets`): it reads the hooks that class
declares (``transitions()``, ``_has_succ``, ``_next``, ``_tick``), declared here too, and
the sets' ``manager``, ``encoder`` and ``_domain``. :func:`out_degrees` is written over
any engine's ``moves_between`` (the concurrent engines use it too).
"""

from __future__ import annotations

from abc import abstractmethod

from ..api import GameEngine, MoveRelation, PositionSet
from ..errors import RangeError
from .contract import Node
from .relation import DeltaParts
from .sets import BddSet, SymbolicSets

__all__ = ["BddRelation", "ForwardOps", "SymbolicMoves", "out_degrees"]


class BddRelation(MoveRelation):
    """A set of moves of a :class:`SymbolicGame` as one BDD R(x, x') ⊆ δ."""

    __slots__ = ("engine", "node")
    #: a symbolic game engine: its sets and its moves
    engine: "SymbolicMoves"

    def __init__(self, engine: "SymbolicMoves", node: Node):
        self.engine = engine
        self.node = node

    def count(self) -> int:
        """|R| exactly: R is a set of assignments to current and next bits."""
        e = self.engine
        return e.manager.exact_count(self.node, 2 * len(e.encoder.current_bits))

    def is_empty(self) -> bool:
        return self.engine.manager.is_false(self.node)

    def pairs(self) -> list[tuple[tuple, tuple]]:
        e = self.engine
        enc = e.encoder
        out: list[tuple[tuple, tuple]] = []
        for a in e.manager.assignments(self.node, enc.order):
            cur = enc.decode({b: v for b, v in a.items() if b in enc.current_set})
            nxt = enc.decode({enc.to_current[b]: v for b, v in a.items() if b in enc.next_set})
            out.append((cur, nxt))
        return sorted(out)

    def sources(self) -> BddSet:
        """∃x'. R."""
        e = self.engine
        return BddSet._make(e, e.manager.exist(self.node, e.encoder.next_set))

    def image(self, source: PositionSet) -> BddSet:
        """(∃x. R ∧ S)[x' := x]."""
        e = self.engine
        m, enc = e.manager, e.encoder
        u = m.and_exists(self.node, e._node_of(source), enc.current_set)
        return BddSet._make(e, m.rename(u, enc.to_current))

    def restrict(self, source: PositionSet) -> "BddRelation":
        e = self.engine
        return BddRelation(e, e.manager.and_(self.node, e._node_of(source)))

    def pick(self) -> "BddRelation":
        """The smallest successor of each source, bit by bit: the next bits in slot
        order, most significant first (values are stored as v − lo, so this is the
        lexicographic order of position tuples). At bit b, with B the bits from b on:
        R := R ∧ ¬(b ∧ ∃B. (R ∧ ¬b)) — keep b = 1 only where no choice has b = 0."""
        e = self.engine
        m, enc = e.manager, e.encoder
        bits = [enc.nxt[i][k] for i, w in enumerate(enc.widths) for k in reversed(range(w))]
        r = self.node
        for n, b in enumerate(bits):
            v = m.var(b)
            zero = m.exist(m.diff(r, v), bits[n:])
            r = m.diff(r, m.and_(v, zero))
        return BddRelation(e, r)

    def _union(self, other: "BddRelation") -> "BddRelation":
        return BddRelation(self.engine, self.engine.manager.or_(self.node, other.node))

    def _same(self, other: "BddRelation") -> bool:
        return self.node == other.node


class SymbolicMoves(SymbolicSets, GameEngine):
    """A symbolic game engine as :class:`BddRelation` and :func:`out_degrees` read it:
    BDD sets (:class:`SymbolicSets`) and the queries of a game."""

    @abstractmethod
    def moves_between(self, source: PositionSet, target: PositionSet) -> "BddRelation":
        """δ ∧ S(x) ∧ T(x'), one BDD."""


class ForwardOps(SymbolicMoves):
    """The forward operators of :class:`~symbolic.bdd.turnbased.TurnBasedGame`, over the
    hooks it declares (repeated here, abstract)."""

    @abstractmethod
    def transitions(self) -> DeltaParts:
        """δ in parts."""

    @property
    @abstractmethod
    def _has_succ(self) -> Node:
        """∃x'. δ: the positions with a successor."""

    @abstractmethod
    def _next(self, node: Node) -> Node:
        """The target ``node`` as the pre-images read it."""

    @abstractmethod
    def _tick(self) -> None:
        """One step of a fixpoint or a forward search (garbage collection)."""

    def successors(self, pos) -> BddSet:
        """δ(c) = {c' | δ(c, c')}: ∃x. (δ ∧ [x = c]), renamed back to current bits."""
        m, enc = self.manager, self.encoder
        c = self.space.check_position(pos)
        cube = enc.position_cube(c)
        if m.is_false(m.and_(cube, self._domain)):
            raise RangeError(f"{c} is not a position: the invariant is false there")
        nxt = m.disj(
            m.and_exists(r, m.and_(cube, s), enc.current_set)
            for s, rs in self.transitions().grouped()
            for r in rs
        )
        return BddSet._make(self, m.rename(nxt, enc.to_current))

    def post(self, source: PositionSet) -> BddSet:
        """post(S) = (∃x. S ∧ δ)[x' := x], part by part."""
        m, enc = self.manager, self.encoder
        s = self._node_of(source)
        self._tick()  # a layer of a forward search: garbage collection (TurnBasedGame._tick)
        u = m.disj(
            m.and_exists(r, src, enc.current_set)
            for src, rs in ((m.and_(f, s), rs) for f, rs in self.transitions().grouped())
            for r in rs
        )
        return BddSet._make(self, m.rename(u, enc.to_current))

    def moves_between(self, source: PositionSet, target: PositionSet) -> BddRelation:
        """δ ∧ S(x) ∧ T(x'). The target is renamed to the next bits here, not through
        :meth:`_next`: that hook gives the target as the pre-images read it, which for an
        engine whose pre-images compose (GDL) is still over the current bits."""
        m, enc = self.manager, self.encoder
        s, t = self._node_of(source), m.rename(self._node_of(target), enc.to_next)
        return BddRelation(
            self,
            m.disj(
                m.and_(r, m.and_(m.and_(f, s), t))
                for f, rs in self.transitions().grouped()
                for r in rs
            ),
        )

    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        """{k: |{c ∈ S | |δ(c)| = k}|} (:func:`out_degrees`)."""
        return out_degrees(self, source)

    def deadlocks(self) -> BddSet:
        """Positions with no successor: D ∧ ¬∃x'. δ."""
        return BddSet._make(self, self.manager.diff(self._domain, self._has_succ))


def out_degrees(engine: SymbolicMoves, source: PositionSet) -> dict[int, int]:
    """{k: the positions of S with k successors} on a symbolic engine with
    ``moves_between``. Peels δ ∧ S one successor at a time (:meth:`BddRelation.pick`):
    after k peelings, the sources left are the positions with more than k successors.
    As many rounds as the largest out-degree; no enumeration of positions."""
    s = engine._node_of(source)
    rel = engine.moves_between(BddSet._make(engine, s), engine.positions())
    out: dict[int, int] = {}
    left = BddSet._make(engine, s)
    k = 0
    while True:
        more = rel.sources()
        n = (left - more).count()
        if n:
            out[k] = n
        if more.is_empty():
            return out
        left = more
        rel = BddRelation(engine, engine.manager.diff(rel.node, rel.pick().node))
        k += 1
