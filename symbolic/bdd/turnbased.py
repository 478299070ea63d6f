"""The base of the turn-based symbolic engines: :class:`TurnBasedGame`, the pre-images and
fixpoints written once over a few declared hooks.

Two engines derive from it and differ only in how a pre-image is taken:
:class:`~symbolic.bdd.engine.SymbolicGame` (a model file's game: relational products over
δ in parts, :mod:`symbolic.bdd.relation`) and :class:`~symbolic.gdl.symbolic.GdlSymbolicGame`
(a GDL game: the moves' substitutions composed into the target). Each initialises this
base through ``super().__init__`` and fills in:

- ``_coalition(J)``: the :class:`~symbolic.bdd.relation.Coalition` of J (cached in
  ``_coalition_cache``), what every pre-image of J reads;
- ``_next(τ)``: the target as the two pre-image hooks read it (over the next bits, or
  unchanged when the pre-images compose);
- ``_pre_exists_node(key, τ')`` = T_J ∧ pre∃ and ``_pre_forall_node(key, τ', dead_ends)``
  = T_¬J ∧ pre∀, as BDDs;
- ``transitions()``: δ in parts (:class:`~symbolic.bdd.relation.DeltaParts`), and
  ``_has_succ``: ∃x'. δ, the positions with a successor;
- ``_turn_of``: {player: T_p}.

With these, pre(J, τ) = pre∃ ∪ pre∀ (τ renamed once), until by rounds chained mover by
mover, and release are the same for both engines (:mod:`symbolic.bdd.engine` for their
definitions); the forward operators come from :class:`~symbolic.bdd.forward.ForwardOps`.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Iterable

from .. import api
from ..api import DeadEnds, Fixpoint, GameEngine, PositionSet, check_dead_ends
from ..errors import QueryError
from ..ir import Game
from ..limits import Limits
from .forward import ForwardOps
from .relation import Coalition, DeltaParts
from .sets import BddSet, SymbolicSets

__all__ = ["PARTITIONS", "TurnBasedGame", "check_partition"]

PARTITIONS = ("moves", "monolithic")

# autoref never frees dead nodes by itself; a collection every few fixpoint
# steps keeps its node table from growing with every iteration.
_AUTOREF_GC_EVERY = 16


def check_partition(partition: str) -> str:
    """``partition`` when it is one of :data:`PARTITIONS`, else a QueryError.

    >>> check_partition("random")
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: unknown partition 'random': the choices are ['moves', 'monolithic']
    """
    if partition not in PARTITIONS:
        raise QueryError(f"unknown partition {partition!r}: the choices are {list(PARTITIONS)}")
    return partition


class TurnBasedGame(ForwardOps, SymbolicSets, GameEngine):
    """A turn-based :class:`symbolic.ir.Game` as BDDs: its position sets (the base
    :class:`SymbolicSets`, over ``game.space`` and ``game.invariant``), the turn sets,
    pre∃/pre∀/pre, until and release, over the hooks of the module docstring.

    ``partition`` is kept for the subclasses (one part of δ per move, or one in all);
    they check it (:func:`check_partition`) and the game before building anything."""

    game: Game

    def __init__(
        self,
        game: Game,
        backend: str,
        partition: str,
        *,
        order: str,
        max_memory: int | None,
        limits: Limits | None,
    ):
        super().__init__(
            game.space, backend, game.invariant, order=order, max_memory=max_memory, limits=limits
        )
        self.game = game
        self.partition = partition
        self._steps = 0  # fixpoint steps, for the garbage collections of _tick
        self._turn_of: dict = {}  # player -> T_p, filled by the subclass
        self._coalition_cache: dict[frozenset, Coalition] = {}
        self._chain: list | None = None  # _chain_order

    def _reset_turns(self) -> None:
        """Forget what was derived from the turn sets and δ (the domain changed)."""
        self._coalition_cache = {}
        self._chain = None

    # ------------------------------------------------------------------ the hooks

    @abstractmethod
    def transitions(self) -> DeltaParts:
        """δ in parts."""

    @property
    @abstractmethod
    def _has_succ(self):
        """∃x'. δ: the positions with a successor."""

    @abstractmethod
    def _coalition(self, coalition: Iterable[int]) -> Coalition:
        """The :class:`Coalition` of a coalition, validated, cached."""

    @abstractmethod
    def _next(self, node):
        """The target ``node`` as :meth:`_pre_exists_node` and :meth:`_pre_forall_node`
        read it."""

    @abstractmethod
    def _pre_exists_node(self, key: Coalition, tnext):
        """T_J ∧ pre∃(J, τ) for the :meth:`_next` of τ."""

    @abstractmethod
    def _pre_forall_node(self, key: Coalition, tnext, dead_ends: DeadEnds):
        """T_¬J ∧ pre∀(J, τ) for the :meth:`_next` of τ [∧ has a successor, STRICT]."""

    # ------------------------------------------------------------------ relation access

    def delta(self):
        """δ(x, x'): the whole transition relation as one BDD over current and next bits."""
        return self.transitions().whole()

    def delta_parts(self) -> list[tuple[str, Any]]:
        """The parts (name, BDD) whose disjunction is δ (each source factor conjoined)."""
        return self.transitions().full()

    def bdd_sizes(self) -> dict[str, Any]:
        """Node counts: the domain, each part of δ, δ as a whole, and all parts shared."""
        m, delta = self.manager, self.transitions()
        return {
            "backend": m.backend,
            "partition": self.partition,
            "variables": len(self.encoder.order),
            "domain": m.size(self._domain),
            "parts": {name: m.size(r) for name, r in delta.parts},
            "parts_shared": m.shared_size([r for _, r in delta.parts]),
            "source factors": {name: m.size(s) for name, s in delta.sources.items()},
            "delta": m.size(delta.whole()),
        }

    # ------------------------------------------------------------------ GameEngine

    def _turn_node(self, J: frozenset):
        """T_J = ⋁_{p ∈ J} [t = p] ∧ D."""
        return self.manager.disj(self._turn_of[p] for p in sorted(J))

    def turn_set(self, coalition: Iterable[int]) -> BddSet:
        """tour_J = {c ∈ D | t(c) ∈ J}."""
        J = self.game.coalition(coalition)
        hit = self._coalition_cache.get(J)
        return BddSet._make(self, hit.turn if hit is not None else self._turn_node(J))

    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> BddSet:
        """pre∃(J, τ) = {c | t(c) ∈ J ∧ ∃c' ∈ δ(c). c' ∈ τ}."""
        key = self._coalition(coalition)
        t = self._node_of(target)
        return BddSet._make(self, self._pre_exists_node(key, self._next(t)))

    def pre_forall(
        self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds
    ) -> BddSet:
        """pre∀(J, τ) = {c | t(c) ∉ J ∧ ∀c' ∈ δ(c). c' ∈ τ} (STRICT: and δ(c) ≠ ∅)."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        t = self._node_of(target)
        return BddSet._make(self, self._pre_forall_node(key, self._next(t), dead_ends))

    def pre(self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds) -> BddSet:
        """pre(J, τ) = pre∃(J, τ) ∪ pre∀(J, τ), renaming τ once."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        return BddSet._make(self, self._pre_node(key, self._node_of(target), dead_ends))

    def _pre_node(self, key: Coalition, t, dead_ends: DeadEnds):
        tn = self._next(t)
        return self.manager.or_(
            self._pre_exists_node(key, tn), self._pre_forall_node(key, tn, dead_ends)
        )

    def _tick(self) -> None:
        """One fixpoint step or layer: a garbage collection every few steps (autoref), or
        an offer of one at each step (oxidd: its manager collects only once the store
        has doubled since the last collection, which bounds a layered solve's memory)."""
        self._steps += 1
        if self._steps % _AUTOREF_GC_EVERY == 0 or self.manager.backend == "oxidd":
            self.manager.collect_garbage()

    def until(
        self,
        coalition: Iterable[int],
        stay: PositionSet,
        target: PositionSet,
        *,
        dead_ends: DeadEnds,
        keep_layers: bool = False,
    ) -> Fixpoint:
        """until(J, σ, τ) = μX. τ ∪ (σ ∩ pre(J, X)): until_0 = τ,
        until_{n+1} = until_n ∪ (pre(J, until_n) ∩ σ) (ENS 2005, Q10).

        With ``keep_layers`` the iterates are these until_n. Without, the same least
        fixpoint is reached by rounds chained mover by mover (:meth:`_chained_until`),
        and ``iterations`` counts rounds."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        m = self.manager
        sigma = self._node_of(stay)
        tau = self._node_of(target)
        if not keep_layers and len(self.game.players) > 1:
            return self._chained_until(self.game.coalition(coalition), sigma, tau, dead_ends)

        def step(x: BddSet) -> BddSet:
            """X ↦ X ∪ (pre(J, X) ∩ σ)."""
            self._tick()
            new = m.and_(self._pre_node(key, x.node, dead_ends), sigma)
            return BddSet._make(self, m.or_(x.node, new))

        return api.least_fixpoint(
            step,
            BddSet._make(self, tau),
            keep_layers=keep_layers,
            limits=self.limits,
            name="computing until (least fixpoint)",
            sizes=self._sizes,
        )

    def _chained_until(self, J: frozenset, sigma, tau, dead_ends: DeadEnds) -> Fixpoint:
        """μX. τ ∪ (σ ∩ pre(J, X)) by rounds: for each mover p in :meth:`_chain_order`,
        X := X ∪ (σ ∩ T_p ∩ pre(J, X)), the next mover reading the X just grown
        (Gauss–Seidel over the turn sets T_p, which partition the positions).

        The same least fixpoint: every update adds only positions of pre(J, X) ∩ σ with
        X below the fixpoint, and a round that adds nothing leaves X = τ ∪ (σ ∩
        pre(J, X)), since pre(J, X) = ⋃_p T_p ∩ pre(J, X). A mover's pre-image reads X
        only at the turns that follow it, so with the movers taken against the turn
        order one round goes as far as one step per mover (ENS Nim(3, 5, 255, 6),
        three players: 46 rounds against 136 steps, bench/README.md)."""
        m = self.manager
        others = frozenset(self.game.players)
        updates = []
        for p in self._chain_order():
            if p in J:  # T_p ∧ pre∃: the coalition {p}'s parts of δ
                updates.append((self._coalition({p}), True))
            else:  # T_p ∧ pre∀: the coalition of all but p, whose complement is T_p
                updates.append((self._coalition(others - {p}), False))

        def step(x: BddSet) -> BddSet:
            """One round: X ∪= σ ∩ T_p ∩ pre(J, X), mover p after mover p."""
            self._tick()
            node = x.node
            for key, ours in updates:
                tn = self._next(node)
                new = (
                    self._pre_exists_node(key, tn)
                    if ours
                    else self._pre_forall_node(key, tn, dead_ends)
                )
                node = m.or_(node, m.and_(new, sigma))
            return BddSet._make(self, node)

        return api.least_fixpoint(
            step,
            BddSet._make(self, tau),
            limits=self.limits,
            name="computing until (least fixpoint)",
            sizes=self._sizes,
        )

    def _chain_order(self) -> list:
        """The players, each one followed when possible by one that can move into its
        turn: p_1 = the first player, p_{i+1} an unlisted player q with a move from
        T_q into T_{p_i} (pre∃({q}, T_{p_i}) ≠ ∅), else the first unlisted one.
        ENS Nim with the turn j ↦ j mod 3 + 1: [1, 3, 2]. Cached."""
        if self._chain is None:
            players = list(self.game.players)
            order = [players[0]]
            while len(order) < len(players):
                last = self.turn_set({order[-1]})
                rest = [q for q in players if q not in order]
                order.append(
                    next((q for q in rest if not self.pre_exists({q}, last).is_empty()), rest[0])
                )
            self._chain = order
        return self._chain

    def release(
        self,
        coalition: Iterable[int],
        left: PositionSet,
        right: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> Fixpoint:
        """⟨⟨J⟩⟩ f R g = νZ. g ∩ (f ∪ pre(J, Z)), iterated from Z_0 = g (each step stays
        below g, so this reaches the same greatest fixpoint as starting from all positions)."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        m = self.manager
        f = self._node_of(left)
        g = self._node_of(right)

        if m.is_false(f):  # ⟨⟨J⟩⟩□g: one conjunction per step

            def step(z: BddSet) -> BddSet:
                """Z ↦ g ∩ pre(J, Z)."""
                self._tick()
                return BddSet._make(self, m.and_(g, self._pre_node(key, z.node, dead_ends)))
        else:

            def step(z: BddSet) -> BddSet:
                """Z ↦ g ∩ (f ∪ pre(J, Z))."""
                self._tick()
                return BddSet._make(
                    self, m.and_(g, m.or_(f, self._pre_node(key, z.node, dead_ends)))
                )

        return api.greatest_fixpoint(
            step,
            BddSet._make(self, g),
            limits=self.limits,
            name="computing release (greatest fixpoint)",
            sizes=self._sizes,
        )

    def _sizes(self, s: BddSet) -> dict:
        """Sizes of a fixpoint approximation, for progress and limit messages."""
        return {"positions": s.count(), "BDD nodes": self.manager.size(s.node)}
