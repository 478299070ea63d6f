"""The symbolic engine: position sets as BDDs, δ as a partitioned BDD relation.

``SymbolicSets`` implements :class:`symbolic.api.SetEngine` and
``SymbolicGame`` implements :class:`symbolic.api.GameEngine` over one
:class:`~symbolic.bdd.contract.Manager` each (never a global one).

Notation: x are the current bits, x' the next bits, D(x) the domain (every
slot in range and the invariant), δ(x, x') = ⋁_i δ_i(x, x') the transition
relation split into parts (one per move, or one in all).

- pre∃(J, τ) = T_J(x) ∧ ⋁_i ∃x'. (δ_i ∧ τ[x := x'])          (relational product)
- pre∀(J, τ) = D ∧ ¬T_J ∧ ¬⋁_i ∃x'. (δ_i ∧ ¬τ[x := x'])   (its dual), and with
  ``DeadEnds.STRICT`` also ∧ ∃x'. δ.

The game is assembled from named parts: :mod:`symbolic.bdd.sets` (position sets, the
base :class:`SymbolicSets`), :mod:`symbolic.bdd.turnbased` (the base
:class:`~symbolic.bdd.turnbased.TurnBasedGame`: turn sets, pre-images and fixpoints over
declared hooks, shared with the GDL engine), :mod:`symbolic.bdd.relation` (δ in parts and
the relational products, held as components), :mod:`symbolic.bdd.probe` (the measured
variable layout) and :mod:`symbolic.bdd.forward` (post-images, moves between sets,
out-degrees). This module builds δ from the IR moves and fills in the hooks with
relational products; it re-exports the names callers import from here.
"""

from __future__ import annotations

import itertools
from typing import Iterable

from ..api import DeadEnds, PositionSet
from ..ir import Game, conj, conjuncts
from ..limits import Limits
from ..validate import check_game
from .forward import BddRelation
from .probe import (
    PROBE_MARGIN,
    PROBE_MAX_BITS,
    PROBE_MAX_NODES,
    PROBE_MIN_BITS,
    PROBE_SLICED_RAGGED,
    PROBE_STEPS,
    LayoutProbe,
)
from .relation import Coalition, DeltaParts, Products
from .sets import BddSet, SymbolicSets
from .turnbased import PARTITIONS, TurnBasedGame, check_partition

__all__ = [
    "PARTITIONS",
    "BddRelation",
    "BddSet",
    "Coalition",
    "SymbolicGame",
    "SymbolicSets",
    "PROBE_MARGIN",
    "PROBE_MAX_BITS",
    "PROBE_MAX_NODES",
    "PROBE_MIN_BITS",
    "PROBE_SLICED_RAGGED",
    "PROBE_STEPS",
]

# Renamed targets kept per game (a few nodes: bounded memory).
_RENAME_CACHE = 8
#: layers cut to a source factor remembered (:meth:`SymbolicGame._cut`): a few, the
#: cuts of one layer, which both players' steps of that layer read (each cut is about the
#: size of its layer: keeping every layer's doubled what a table holds)
_CUTS = 8


class SymbolicGame(LayoutProbe, TurnBasedGame):
    """A :class:`symbolic.ir.Game` as BDDs: turn sets, δ in parts, pre∃/pre∀, until, release.

    ``partition="moves"`` keeps one part of δ per move; ``"monolithic"`` one
    part in all (often faster with a good bit order, see notes-dd.md). The pre-images
    and fixpoints are those of :class:`~symbolic.bdd.turnbased.TurnBasedGame`, over
    relational products (:class:`~symbolic.bdd.relation.Products`) on δ's parts.
    """

    def __init__(
        self,
        game: Game,
        backend: str = "auto",
        partition: str = "moves",
        *,
        order: str = "auto",
        max_memory: int | None = None,
        limits: Limits | None = None,
    ):
        check_partition(partition)
        check_game(game)
        super().__init__(
            game, backend, partition, order=order, max_memory=max_memory, limits=limits
        )
        m, enc, limits = self.manager, self.encoder, self.limits
        with limits.stage("building the turn sets"):
            turn = enc.integer(game.turn, care=self._domain)
            self._turn_of = {p: m.and_(enc.int_equals(turn, p), self._domain) for p in game.players}
            self.check_turns()
        with limits.stage("building δ"), enc.closed_terms_kept():
            moves, sources = [], {}
            for mv in game.moves:
                built = self._move_relation(mv)
                source, rel = built if isinstance(built, tuple) else (m.true, built)
                if not m.is_true(source):
                    sources[mv.name] = source
                moves.append((mv.name, rel))
            limits.check(f"{len(moves)} moves built")
            delta = DeltaParts(m, moves, sources, enc.next_set)
            if partition == "monolithic":
                delta = DeltaParts(
                    m, [("delta", m.disj(r for _, r in delta.full()))], {}, enc.next_set
                )
            self._transitions = delta
            delta.has_successor()
        self.products = Products(m, enc, len(self.space.slots))
        self._renamed: dict = {}
        self._cuts: dict = {}  # (set, source factor) -> their conjunction (_cut)
        self._cut_layer = None  # the layer whose cuts _cuts holds (until_layer_step)
        self.order_probe: dict[str, int] = {}
        # measured lazily, before the first predecessor computation: a caller that
        # only asks for successors or counts (the ENS sheet's δ(c) on a 27-bit game,
        # where probing would cost more than the answer) never pays for it
        self._layout_pending = (
            order == "auto"
            and m.backend in ("cudd", "oxidd")
            and len(enc.current_bits) > PROBE_MIN_BITS
        )

    # ------------------------------------------------------------------ construction

    def _move_relation(self, move) -> tuple:
        """(S, R) with δ_move = S ∧ R: S(x) = the conjunction of the guard's top-level
        conjuncts that depend on no parameter (compiled once), and
        R = D ∧ D' ∧ ⋁_{v ∈ params} rest_v ∧ effect_v ∧ frame_v, where rest_v is the
        conjunction of the other conjuncts and frame_v keeps every slot not primed in
        effect_v. S is kept out of the relational products (early quantification:
        it mentions no next bit): Connect Four's `not over` has 1.2·10⁶ nodes on
        6 × 5, and conjoining it into each of the 30 drops made δ too large to build.
        (A subclass may return one BDD δ_move instead of a pair.)

        The split changes the order of evaluation, so it is made only when neither
        part can meet a value error anywhere (:meth:`Encoder.try_boolean`);
        otherwise the whole guard is compiled with its short-circuit semantics."""
        m, enc = self.manager, self.encoder
        names = [p.name for p in move.params]  # distinct, with tuple domains (validated)
        all_slots = range(len(self.space.slots))
        both = m.and_(self._domain, self.domain_next())
        parts = conjuncts(move.guard)
        closed = [c for c in parts if enc.is_closed(c)]
        rest = conj(c for c in parts if not enc.is_closed(c))
        source = enc.try_boolean(conj(closed)) if closed else m.true
        if source is None:
            source, rest = m.true, move.guard
        rel = m.false
        total = 1
        for p in move.params:
            total *= len(p.domain)
        for k, values in enumerate(itertools.product(*(p.domain for p in move.params)), 1):
            self.limits.check(
                f"move {move.name}, valuation {k} of {total}", lambda: {"BDD nodes": m.size(rel)}
            )
            env = dict(zip(names, values))
            # The guard is evaluated at every position; the effect only at pairs
            # (c, c') of positions where the guard holds and the frame keeps the
            # unprimed slots: its value errors count there only. Both are
            # compiled at every valuation so that type errors always show.
            g = enc.try_boolean(rest, env)
            s = source
            if g is None:  # value errors: the whole guard, evaluated left to right
                g, s = enc.boolean(move.guard, env, care=self._domain), m.true
            primed = enc.primed_slots(move.effect, env)
            frame = enc.frame(i for i in all_slots if i not in primed)
            care = m.and_(m.and_(g, frame), both)
            eff = enc.boolean(move.effect, env, primed=True, care=lambda: m.and_(care, s))
            rel = m.or_(rel, m.and_(eff, care if s is source else m.and_(care, s)))
        return source, rel

    # ------------------------------------------------------------------ relation access

    def transitions(self) -> DeltaParts:
        """δ in parts: one per move (S ∧ R of :meth:`_move_relation`), or one in all."""
        return self._transitions

    @property
    def _has_succ(self):
        """∃x'. δ (built with δ)."""
        return self._transitions.has_successor()

    def _coalition(self, coalition: Iterable[int]) -> Coalition:
        """The :class:`Coalition` (T_J, D ∧ ¬T_J, parts ∧ T_J, parts ∧ ¬T_J) of a validated
        coalition J, cached: restricting δ to the mover once makes each relational product
        smaller. The parts are grouped by source factor (:meth:`DeltaParts.restricted`).
        Every pre∃, pre∀, pre and fixpoint starts here, so the layout is settled here."""
        J = self.game.coalition(coalition)
        self.settle_layout()
        hit = self._coalition_cache.get(J)
        if hit is None:
            delta = self._transitions
            tj = self._turn_node(J)
            tn = self.manager.diff(self._domain, tj)
            hit = Coalition(tj, tn, delta.restricted(tj), delta.restricted(tn))
            self._coalition_cache[J] = hit
        return hit

    # ------------------------------------------------------------------ pre-images

    def _exists_node(self, groups, target_next):
        """⋁_(S, Rs) S ∧ ⋁_{R ∈ Rs} ∃x'. (R ∧ τ')."""
        m, exists = self.manager, self.products.exists
        return m.disj(m.and_(s, m.disj(exists(r, target_next) for r in rs)) for s, rs in groups)

    def layer_pre(self, J, reach, k, ours, won, above, *, dead_ends: DeadEnds) -> BddSet:
        """pre(J, U_{k+1}) ∩ F_k (:meth:`symbolic.api.GameEngine.layer_pre`):
        :meth:`_pre_within` the layer (``above`` is empty above the last layer); on the
        workers of ``reach.remote`` when the layers were split on a cluster."""
        if reach.remote is not None and reach.result.engine is self:
            return self.layer_pres(J, reach, k, ours, [won], above, dead_ends=dead_ends)[0]
        key = self._coalition(J)
        self._tick()
        return BddSet._make(
            self,
            self._pre_within(
                key, reach.layers[k].node, ours, won, self.manager.is_false(above.node), dead_ends
            ),
        )

    def layer_pres(self, J, reach, k, ours, wons, above, *, dead_ends: DeadEnds) -> tuple:
        """:meth:`layer_pre` of each of ``wons``; when the layers were split on a cluster
        (``reach.remote``), in one round of its workers."""
        if reach.remote is None or reach.result.engine is not self:
            return super().layer_pres(J, reach, k, ours, wons, above, dead_ends=dead_ends)
        layer = reach.layers[k].node
        asks = [(self.game.coalition(J), layer, w.node, dead_ends) for w in wons]
        return tuple(BddSet._make(self, u) for u in reach.remote.pre_within(k, asks))

    def until_layer_step(
        self, J, reach, k, ours, won, stay, target, *, dead_ends: DeadEnds
    ) -> PositionSet:
        """U_k of :meth:`symbolic.api.GameEngine.until_layer_step` = (F_k ∩ τ) ∪
        :meth:`_pre_within` L, with σ cut to F_k once, L = F_k ∩ σ (remembered by
        :meth:`_cut`: both players' passes of a ply-by-ply table read it)."""
        self.check_layer_step(J, reach, k, ours, won, stay, target, dead_ends)
        if ours is None or reach.result.engine is not self:
            return super().until_layer_step(
                J, reach, k, ours, won, stay, target, dead_ends=dead_ends
            )
        self._tick()
        m = self.manager
        layer = reach.layers[k].node
        if self._cut_layer is not layer:  # the cuts of another layer: no step reads them
            self._cuts.clear()
            self._cut_layer = layer
        live = self._cut(layer, self._node_of(stay))
        if reach.remote is not None:  # split on a cluster: the workers' pre-images
            [step] = reach.remote.pre_within(k, [(J, live, won.node, dead_ends)])
        else:
            key = self._coalition(J)
            step = self._pre_within(key, live, ours, won, k + 1 == len(reach.layers), dead_ends)
        return BddSet._make(self, m.or_(m.and_(layer, self._node_of(target)), step))

    def _pre_within(self, key: Coalition, within, ours, won, last: bool, dead_ends: DeadEnds):
        """pre(J, U_{k+1}) ∩ W for W ⊆ F_k of graded layers (``key`` = :meth:`_coalition`
        of J, ``last``: F_k is the last layer), the products' sources restricted to W
        and the ∀ part through ¬U'_{k+1} (free with complement edges), not through a
        complement over every position:

            (W ∩ T_J ∩ ⋁ S ∧ ∃x'. (R_J ∧ U'_{k+1})) ∪ ((W ∖ T_J) ∖ ⋁ S ∧ ∃x'. (R_¬J ∧ ¬U'_{k+1}))

        [the second part ∧ has a successor, for STRICT]. Exact on F_k: every successor
        of a position of F_k lies in F_{k+1} (graded), and the last layer has none."""
        m = self.manager
        mine = m.and_(within, ours.node)
        theirs = m.diff(within, mine)  # one mover per layer (Connect Four): a terminal case
        out = m.false
        if not last:
            # U'_{k+1} renamed once and not remembered (_next): no later step reads it,
            # and the cache would hold it and U_{k+1}, the largest sets of a table
            w, wn = won.node, None
            if not m.is_false(mine) and not m.is_false(w):
                wn = self._next(w, keep=False)
                out = self._exists_within(key.ours, mine, wn)
            if not m.is_false(theirs):
                escape = m.not_(wn if wn is not None else self._next(w, keep=False))
                theirs = m.diff(theirs, self._exists_within(key.theirs, theirs, escape))
        if dead_ends is DeadEnds.STRICT:
            theirs = m.and_(theirs, self._has_succ)
        return m.or_(out, theirs)

    def _exists_within(self, groups, within, target_next):
        """within ∧ ⋁_(S, Rs) S ∧ ⋁_{R ∈ Rs} ∃x'. (R ∧ τ'): the source factors S
        (Connect Four's `not over`, a BDD over every position) are cut to ``within``
        before they meet the products."""
        m, exists = self.manager, self.products.exists
        return m.disj(
            m.and_(self._cut(within, s), m.disj(exists(r, target_next) for r in rs))
            for s, rs in groups
        )

    def _cut(self, within, factor):
        """within ∧ factor, remembered for the last :data:`_CUTS` pairs: a layered solve
        cuts each layer to σ and to the same source factor (Connect Four's `not over`, a
        BDD over every position) in each player's backward pass (:meth:`until_layer_step`).
        The forward search does not keep its cuts: the backward passes cut F_k ∩ σ, not
        F_k (keeping them was slower on Connect Four 5 × 5, for the same peak memory)."""
        key = (within, factor)
        hit = self._cuts.get(key)
        if hit is None:
            hit = self.manager.and_(within, factor)
            if len(self._cuts) >= _CUTS:
                self._cuts.pop(next(iter(self._cuts)))  # oldest first
            self._cuts[key] = hit
        return hit

    def _pre_exists_node(self, key: Coalition, tnext):
        """T_J ∧ ⋁_(S, Rs) S ∧ ⋁_R ∃x'. (R_J ∧ τ') (the parts already cut to T_J)."""
        return self._exists_node(key.ours, tnext)

    def _pre_forall_node(self, key: Coalition, tnext, dead_ends: DeadEnds):
        """T_¬J ∧ ∀x'. (δ_¬J → τ') = T_¬J ∧ ¬∃x'. (δ_¬J ∧ ¬τ') [∧ ∃x'. δ for STRICT]:
        with δ_¬J = ⋁ S ∧ R, the conjunction ⋀_(S, Rs) (S → ⋀_R ∀x'. (R → τ')), each
        a fused dual product (:meth:`Manager.implies_forall`: on oxidd, which has no
        complement edges, ¬τ' would be a copy of τ' at every step)."""
        m, forall = self.manager, self.products.forall
        u = m.and_(
            key.others,
            m.conj(m.implies(s, m.conj(forall(r, tnext) for r in rs)) for s, rs in key.theirs),
        )
        if dead_ends is DeadEnds.STRICT:
            u = m.and_(u, self._has_succ)
        return u

    def _next(self, node, keep: bool = True):
        """τ[x := x'], remembering the last few renamings (``keep``): ATL evaluation and
        the public pre∃ / pre∀ often rename the same target twice in a row."""
        cache = self._renamed
        hit = cache.get(node)
        if hit is None:
            hit = self.manager.rename(node, self.encoder.to_next)
            if not keep:
                return hit
            if len(cache) >= _RENAME_CACHE:
                cache.pop(next(iter(cache)))  # oldest first: dicts keep insertion order
            cache[node] = hit
        return hit
