"""The queries every explicit engine answers from its index arrays, written once.

An explicit engine is assembled from named parts: a position index with its sets
(:class:`~.sets.ExplicitSets` for a model, ``GdlPositions`` for GDL, each a
:class:`~symbolic.api.SetEngine` that numbers its positions), the game over those
numbers (:class:`~.graph.IndexedGraph`, :class:`~.graph.TurnTable`) and the
counting algorithms of :mod:`~.attractor`. The two classes here hold what reads
them, over a declared protocol — the hooks marked abstract, which the position
index (``_own``, ``_indices``, ``_from_indices``, ``_fixpoint``, ``position_at``,
``index``) and the engine (``_build_graph``, ``_build_turns``) provide:

- :class:`IndexedEngine`: the graph, built once, and the queries read off it
  (post, out-degrees, the successor and predecessor indices, the edge count);
- :class:`CountingGame`: a turn-based game on it — its turn table, built once and
  checked, tour_J, pre∃, pre∀, until and release by counting, the dead ends, the
  reference two-player values.

Each has an ``__init__`` that sets its own fields, called by every engine built on
it, so a field added here reaches every engine.

>>> from symbolic.seeds.games import subtraction
>>> from symbolic.explicit import ExplicitGame
>>> G = ExplicitGame(subtraction(K=3))
>>> isinstance(G, CountingGame), G.index_graph().edge_count, G.turn_table().turns[:4]
(True, 12, [1, 1, 1, 1])
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Generic, Iterable, TypeVar

from ..api import DeadEnds, Fixpoint, GameEngine, PositionSet, check_dead_ends
from ..errors import ModelError
from ..ir import Game
from .attractor import pre_exists, pre_forall, release_layers, until_layers
from .graph import IndexedGraph, TurnTable
from .values import retrograde_values as _retrograde_values

__all__ = ["IndexedEngine", "CountingGame"]

#: the sets of one position index (``ExplicitSet``, ``GdlSet``), which its hooks take
S = TypeVar("S", bound=PositionSet)


class IndexedEngine(GameEngine, Generic[S]):
    """The queries of an explicit engine read off its :class:`~.graph.IndexedGraph`
    (built once by :meth:`_build_graph`), positions as indices of its position index."""

    def __init__(self) -> None:
        super().__init__()
        self._index_graph: IndexedGraph | None = None

    # ------------------------------------------------------------ the protocol

    @abstractmethod
    def _build_graph(self) -> IndexedGraph:
        """δ over the position indices (called once, by :meth:`index_graph`)."""

    @abstractmethod
    def _own(self, s) -> S:
        """``s`` when it is a set of this engine, else EngineMismatch."""

    @abstractmethod
    def _indices(self, s: S) -> list[int]:
        """The indices of the positions of a set of this engine."""

    @abstractmethod
    def _from_indices(self, idx: Iterable[int]) -> PositionSet:
        """The set of the positions of the given indices."""

    @abstractmethod
    def position_at(self, i: int) -> tuple:
        """The position of index ``i``."""

    @abstractmethod
    def index(self, pos) -> int:
        """The index of position ``pos``."""

    # ------------------------------------------------------------ the graph

    @property
    def graph_built(self) -> bool:
        """Whether :meth:`index_graph` has been built (a query of one position may then
        read it instead of computing)."""
        return self._index_graph is not None

    def index_graph(self) -> IndexedGraph:
        """δ over the position indices (built on first use)."""
        if self._index_graph is None:
            self._index_graph = self._build_graph()
        return self._index_graph

    def post(self, source: PositionSet) -> PositionSet:
        """post(S): the successor lists of the positions of S. O(|S| + their edges)."""
        s = self._indices(self._own(source))
        succ = self.index_graph().succ
        return self._from_indices({j for i in s for j in succ[i]})

    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        """Counts the lengths of the successor lists."""
        s = self._indices(self._own(source))
        outdeg = self.index_graph().outdeg
        out: dict[int, int] = {}
        for i in s:
            d = outdeg[i]
            out[d] = out.get(d, 0) + 1
        return out

    def successor_indices(self, i: int) -> tuple[int, ...]:
        """δ of the position of index ``i``, as sorted indices (builds the graph)."""
        return tuple(self.index_graph().succ[i])

    def predecessor_indices(self, i: int) -> list[int]:
        """The positions with the position of index ``i`` in their δ, as indices."""
        return list(self.index_graph().pred[i])

    @property
    def edge_count(self) -> int:
        """Σ_c |δ(c)| (builds the graph)."""
        return self.index_graph().edge_count


class CountingGame(IndexedEngine[S]):
    """A turn-based explicit game: the queries of :class:`~symbolic.api.GameEngine` by
    counting over the :class:`~.graph.IndexedGraph` and the :class:`~.graph.TurnTable`
    (built once by :meth:`_build_turns`, then checked: the turn is a player everywhere)."""

    game: Game

    def __init__(self) -> None:
        super().__init__()
        self._turn_table: TurnTable | None = None

    @abstractmethod
    def _build_turns(self) -> TurnTable:
        """t(c) over the position indices (called by :meth:`turn_table` until it checks)."""

    @abstractmethod
    def _fixpoint(self, layers: list[list[int]], keep_layers: bool) -> Fixpoint:
        """The :class:`~symbolic.api.Fixpoint` of the index layers of an attractor."""

    def turn_table(self) -> TurnTable:
        """t(c) for every position, and the positions of each player (once); the
        ModelError of :meth:`~symbolic.api.GameEngine.check_turns` on every call while
        the turn is not a player somewhere."""
        if self._turn_table is None:
            self._turn_table = self._build_turns()
            try:
                self.check_turns()  # on the table just built
            except ModelError:
                self._turn_table = None  # every later query raises again
                raise
        return self._turn_table

    def turn_set(self, coalition: Iterable[int]) -> PositionSet:
        """tour_J = {c | t(c) ∈ J}; QueryError for an unknown player."""
        J = self.game.coalition(coalition)
        by_player = self.turn_table().by_player
        return self._from_indices(i for p in J for i in by_player[p])

    def turn(self, pos) -> int:
        """t(c), the player to move at ``pos``."""
        turns = self.turn_table().turns
        return turns[self.index(pos)]

    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> PositionSet:
        """pre∃(J, τ) = {c | t(c) ∈ J and ∃c' ∈ δ(c). c' ∈ τ}.

        Walks the predecessors of τ (:func:`~.attractor.pre_exists`):
        O(|τ| + edges into τ).
        """
        J = self.game.coalition(coalition)
        tau = self._indices(self._own(target))
        graph = self.index_graph()
        return self._from_indices(pre_exists(graph, self.turn_table().mask(J), tau))

    def pre_forall(
        self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds
    ) -> PositionSet:
        """pre∀(J, τ) = {c | t(c) ∉ J and ∀c' ∈ δ(c). c' ∈ τ} (with STRICT: and δ(c) ≠ ∅).

        Counts, for each opponent predecessor of τ, its successors in τ
        (:func:`~.attractor.pre_forall`); VACUOUS adds the opponent positions
        without successors. O(|τ| + edges into τ + dead ends).
        """
        check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        tau = self._indices(self._own(target))
        graph = self.index_graph()
        return self._from_indices(
            pre_forall(graph, self.turn_table().mask(J), tau, vacuous=dead_ends is DeadEnds.VACUOUS)
        )

    def until(
        self,
        coalition: Iterable[int],
        stay: PositionSet,
        target: PositionSet,
        *,
        dead_ends: DeadEnds,
        keep_layers: bool = False,
    ) -> Fixpoint:
        """until(J, σ, τ) = ⋃ₙ untilₙ, until₀ = τ, untilₙ₊₁ = untilₙ ∪ (pre(J, untilₙ) ∩ σ).

        The linear-time attractor (:func:`~.attractor.until_layers`): each opponent
        position keeps a counter of its successors not yet in the set, and the set
        grows layer by layer, so layer n is exactly untilₙ ∖ untilₙ₋₁ and
        ``iterations`` is the number of non-empty layers added. With VACUOUS the
        opponent positions of σ ∖ τ without successors join in layer 1; with STRICT
        they never join. O(positions + edges).
        """
        check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        sigma = self._own(stay)
        tau = self._indices(self._own(target))
        graph = self.index_graph()
        mine = self.turn_table().mask(J)
        inside = None if len(sigma) == len(graph) else self._indices(sigma)
        with self.limits.stage("computing until (attractor)"):
            layers = until_layers(
                graph,
                mine,
                inside,
                tau,
                vacuous=dead_ends is DeadEnds.VACUOUS,
                check=self.limits.check,
            )
        return self._fixpoint(layers, keep_layers)

    def release(
        self,
        coalition: Iterable[int],
        left: PositionSet,
        right: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> Fixpoint:
        """⟨⟨J⟩⟩ f R g = νZ. g ∩ (f ∪ pre(J, Z)), by duality with an attractor of the
        other players (:func:`~.attractor.release_layers`).

        Write J̄ = players ∖ J (t(c) ∉ J ⟺ t(c) ∈ J̄, turns being players).
        The complement Y = ¬Z is μY. ¬g ∪ (¬f ∩ ¬pre(J, ¬Y)), and

            c ∈ ¬pre(J, ¬Y) ⟺ t(c) ∈ J and ∀c' ∈ δ(c). c' ∈ Y      (∄ move out of Y)
                            or t(c) ∈ J̄ and ∃c' ∈ δ(c). c' ∈ Y      (not all moves in ¬Y)
                            or [STRICT] t(c) ∈ J̄ and δ(c) = ∅        (the strict ∀ fails)

        so Y is until(J̄, ¬f, ¬g) — J̄ attracts towards ¬g through ¬f only: a
        position of f ∩ g never joins, whatever its successors — in which the
        positions of J ∖ f without successors join at step 1 in both
        conventions (the first ∀ is J's ∃ negated, not a pre∀: it holds
        vacuously, as J cannot stay anywhere from a dead end), plus, with
        STRICT, the positions of J̄ ∖ f without successors (an opponent's dead
        end is not a forced move then). Hence a dead end c is in Z iff c ∈ g
        and (c ∈ f or, with VACUOUS only, t(c) ∈ J̄).

        ``iterations`` is the number of layers after the first of that dual
        attractor, which is also the number of strict decreases of Z₀ = g,
        Zₖ₊₁ = g ∩ (f ∪ pre(J, Zₖ)): with Yₖ = ¬Zₖ, Y₀ = ¬g is layer 0 and
        Yₖ₊₁ = ¬g ∪ (¬f ∩ ¬pre(J, ¬Yₖ)); the step is monotone and Z₁ ⊆ g = Z₀,
        so Yₖ grows, and layer k + 1 holds exactly Yₖ₊₁ ∖ Yₖ (a J̄ position
        with a successor in Yₖ, a J position whose counter of successors not
        yet in Y reached 0 while layer k was processed, or at k = 0 a dead end
        above). O(positions + edges).
        """
        check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        f = self._own(left)
        g = self._own(right)
        graph = self.index_graph()
        n = len(graph)
        mine = self.turn_table().mask(J)
        with self.limits.stage("computing release (dual attractor)"):
            layers = release_layers(
                graph,
                mine,
                self._indices(f),
                self._indices(g),
                vacuous=dead_ends is DeadEnds.VACUOUS,
                check=self.limits.check,
            )
        lost = bytearray(n)
        for layer in layers:
            for i in layer:
                lost[i] = 1
        return Fixpoint(self._from_indices(i for i in range(n) if not lost[i]), len(layers) - 1)

    def deadlocks(self) -> PositionSet:
        """Positions with no successor."""
        return self._from_indices(self.index_graph().dead)

    def retrograde_values(self) -> dict[tuple, int | None]:
        """{position: value or None (a draw)} of a two-player game, by the retrograde
        sweep of :func:`symbolic.explicit.values.retrograde_values` (the reference for
        :func:`symbolic.analysis.values.two_player_values`)."""
        return _retrograde_values(self)
