"""The symbolic engine: position sets as BDDs, δ as a partitioned BDD relation.

``SymbolicSets`` implements :class:`symbolic.api.SetEngine` and
``SymbolicGame`` implements :class:`symbolic.api.GameEngine` over one
:class:`~symbolic.bdd.backend.Manager` each (never a global one).

Notation: x are the current bits, x' the next bits, D(x) the domain (every
slot in range and the invariant), δ(x, x') = ⋁_i δ_i(x, x') the transition
relation split into parts (one per move, or one in all).

- pre∃(J, τ) = T_J(x) ∧ ⋁_i ∃x'. (δ_i ∧ τ[x := x'])          (relational product)
- pre∀(J, τ) = D ∧ ¬T_J ∧ ¬⋁_i ∃x'. (δ_i ∧ ¬τ[x := x'])   (its dual), and with
  ``DeadEnds.STRICT`` also ∧ ∃x'. δ.

The game is assembled from three parts: :mod:`symbolic.bdd.sets` (position sets),
:mod:`symbolic.bdd.probe` (the measured variable layout) and
:mod:`symbolic.bdd.forward` (post-images, moves between sets, out-degrees). This
module builds δ and computes the pre-images and fixpoints; it re-exports the names
of the other three, which callers import from here.
"""
from __future__ import annotations

import itertools
import time
from typing import Any, Iterable

from .. import api
from ..api import DeadEnds, Fixpoint, GameEngine, PositionSet, check_dead_ends
from ..errors import QueryError
from ..ir import Game, conj, conjuncts
from ..limits import Limits
from ..validate import check_game
from .forward import BddRelation, ForwardOps
from .probe import (PROBE_MARGIN, PROBE_MAX_BITS, PROBE_MAX_NODES, PROBE_MIN_BITS,
                    PROBE_SLICED_RAGGED, PROBE_STEPS, LayoutProbe)
from .sets import BddSet, SymbolicSets

__all__ = ["PARTITIONS", "BddRelation", "BddSet", "SymbolicGame", "SymbolicSets",
           "PROBE_MARGIN", "PROBE_MAX_BITS", "PROBE_MAX_NODES", "PROBE_MIN_BITS",
           "PROBE_SLICED_RAGGED", "PROBE_STEPS"]

PARTITIONS = ("moves", "monolithic")

# autoref never frees dead nodes by itself; a collection every few fixpoint
# steps keeps its node table from growing with every iteration.
_AUTOREF_GC_EVERY = 16
# Renamed targets kept per game (a few nodes: bounded memory).
_RENAME_CACHE = 8
# A relational product is one backend call, which holds the GIL: neither Ctrl-C nor the
# alarm of --timeout acts before it returns. Once the product of a part of δ has taken
# longer than this, that part is split by the first slot its moves change
# (:meth:`SymbolicGame._split_part`), and later products run piece by piece: on Nim
# (cudd) a piece by changed heap takes a fraction of the whole product. Measured in CPU
# seconds (wall time triggered it on any loaded machine), and into at most _PIECES
# pieces: each piece's product reads all of τ', so many pieces cost more than one
# product (Connect Four's backward pass, one piece per cell; figures in bench/journal,
# issue 33).
_SPLIT_AFTER = 1.0
#: layers cut to a source factor remembered (:meth:`SymbolicGame._cut`): enough for
#: the layers of the boards solved here (Connect Four 7 × 6: 43 layers)
_CUTS = 64
_PIECES = 4


class SymbolicGame(LayoutProbe, ForwardOps, SymbolicSets, GameEngine):
    """A :class:`symbolic.ir.Game` as BDDs: turn sets, δ in parts, pre∃/pre∀, until, release.

    ``partition="moves"`` keeps one part of δ per move; ``"monolithic"`` one
    part in all (often faster with a good bit order, see notes-dd.md).
    """

    def __init__(self, game: Game, backend: str = "auto", partition: str = "moves", *,
                 order: str = "auto", max_memory: int | None = None,
                 limits: Limits | None = None):
        if partition not in PARTITIONS:
            raise QueryError(f"unknown partition {partition!r}: the choices are {list(PARTITIONS)}")
        check_game(game)
        super().__init__(game.space, backend, game.invariant, order=order,
                         max_memory=max_memory, limits=limits)
        self.game = game
        self.partition = partition
        m, enc, limits = self.manager, self.encoder, self.limits
        with limits.stage("building the turn sets"):
            turn = enc.integer(game.turn, care=self._domain)
            self._turn_of = {p: m.and_(enc.int_equals(turn, p), self._domain)
                             for p in game.players}
            self._coalition_cache: dict[frozenset, tuple] = {}
            self.check_turns()
        with limits.stage("building δ"), enc.closed_terms_kept():
            moves, self._sources = [], {}
            for mv in game.moves:
                built = self._move_relation(mv)
                source, rel = built if isinstance(built, tuple) else (m.true, built)
                if not m.is_true(source):
                    self._sources[mv.name] = source
                moves.append((mv.name, rel))
            limits.check(f"{len(moves)} moves built")
            self._full_parts: dict = {}
            self._parts = moves
            if partition == "monolithic":
                self._parts = [("delta", m.disj(r for _, r in self.delta_parts()))]
                self._sources = {}
            self._delta = None
            self._has_succ = m.disj(m.and_(s, m.exist(m.disj(rs), enc.next_set))
                                    for s, rs in self._grouped(self._parts))
        self._renamed: dict = {}
        self._pieces: dict = {}  # part of δ -> its pieces (_split_part), once it proved slow
        self._cuts: dict = {}  # (set, source factor) -> their conjunction (_cut)
        self._steps = 0
        self._chain: list | None = None  # _chain_order
        self.order_probe: dict[str, int] = {}
        # measured lazily, before the first predecessor computation: a caller that
        # only asks for successors or counts (the ENS sheet's δ(c) on a 27-bit game,
        # where probing would cost more than the answer) never pays for it
        self._layout_pending = (order == "auto" and m.backend in ("cudd", "oxidd")
                                and len(enc.current_bits) > PROBE_MIN_BITS)

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
            self.limits.check(f"move {move.name}, valuation {k} of {total}",
                              lambda: {"BDD nodes": m.size(rel)})
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
            eff = enc.boolean(move.effect, env, primed=True,
                              care=lambda: m.and_(care, s))
            rel = m.or_(rel, m.and_(eff, care if s is source else m.and_(care, s)))
        return source, rel

    # ------------------------------------------------------------------ relation access

    def delta(self):
        """δ(x, x'): the whole transition relation as one BDD over current and next bits."""
        if self._delta is None:
            self._delta = self.manager.disj(r for _, r in self.delta_parts())
        return self._delta

    def delta_parts(self) -> list[tuple[str, Any]]:
        """The parts (name, BDD) whose disjunction is δ (each S ∧ R of
        :meth:`_move_relation`, conjoined on first use)."""
        out = []
        for name, r in self._parts:
            s = self._sources.get(name)
            if s is None:
                out.append((name, r))
                continue
            hit = self._full_parts.get(name)
            if hit is None or hit[0] != r:
                hit = self._full_parts[name] = (r, self.manager.and_(s, r))
            out.append((name, hit[1]))
        return out

    def _grouped(self, parts) -> list[tuple[Any, list]]:
        """[(S, [R, …])]: the relation parts ``parts`` (name, R) grouped by their
        source factor S (``true`` when none), so that δ = ⋁ S ∧ ⋁ R."""
        groups: dict = {}
        for name, r in parts:
            groups.setdefault(self._sources.get(name, self.manager.true), []).append(r)
        return list(groups.items())

    def bdd_sizes(self) -> dict[str, Any]:
        """Node counts: the domain, each part of δ, δ as a whole, and all parts shared."""
        m = self.manager
        return {
            "backend": m.backend,
            "partition": self.partition,
            "variables": len(self.encoder.order),
            "domain": m.size(self._domain),
            "parts": {name: m.size(r) for name, r in self._parts},
            "parts_shared": m.shared_size([r for _, r in self._parts]),
            "source factors": {name: m.size(s) for name, s in self._sources.items()},
            "delta": m.size(self.delta()),
        }

    def _coalition(self, coalition: Iterable[int]) -> tuple:
        """(T_J, D ∧ ¬T_J, parts ∧ T_J, parts ∧ ¬T_J) for a validated coalition J, cached:
        restricting δ to the mover once makes each relational product smaller. The
        parts are grouped by source factor (:meth:`_grouped`). Every pre∃, pre∀, pre
        and fixpoint starts here, so the layout is settled here."""
        J = self.game.coalition(coalition)
        self.settle_layout()
        hit = self._coalition_cache.get(J)
        if hit is None:
            m = self.manager

            def restricted(t):
                out = []
                for s, rs in self._grouped(self._parts):
                    rs = [u for u in (m.and_(r, t) for r in rs) if not m.is_false(u)]
                    if rs:
                        out.append((s, rs))
                return out
            tj = self._turn_node(J)
            tn = m.diff(self._domain, tj)
            hit = (tj, tn, restricted(tj), restricted(tn))
            self._coalition_cache[J] = hit
        return hit

    # ------------------------------------------------------------------ GameEngine

    def _turn_node(self, J: frozenset):
        """T_J = ⋁_{p ∈ J} [t = p] ∧ D."""
        return self.manager.disj(self._turn_of[p] for p in sorted(J))

    def turn_set(self, coalition: Iterable[int]) -> BddSet:
        """tour_J = {c ∈ D | t(c) ∈ J}."""
        J = self.game.coalition(coalition)
        hit = self._coalition_cache.get(J)
        return BddSet._make(self, hit[0] if hit is not None else self._turn_node(J))

    def _exists_node(self, groups, target_next):
        """⋁_(S, Rs) S ∧ ⋁_{R ∈ Rs} ∃x'. (R ∧ τ')."""
        m = self.manager
        return m.disj(m.and_(s, m.disj(self._product(r, target_next) for r in rs))
                      for s, rs in groups)

    def _product(self, r, target_next):
        """∃x'. (r ∧ τ'): one backend call, or one per piece of ``r`` once a call on ``r``
        has taken more than :data:`_SPLIT_AFTER` seconds (so that Ctrl-C and the
        time limit act between pieces)."""
        m = self.manager
        return self._by_pieces(r, target_next, m.and_exists, m.disj)

    def _product_all(self, r, target_next):
        """∀x'. (r → τ'), piece by piece once r was split (:meth:`_product`)."""
        m = self.manager
        return self._by_pieces(r, target_next, m.implies_forall, m.conj)

    def _by_pieces(self, r, target_next, product, combine):
        """product(r, τ', x') whole, or combined over the pieces of r once a call on r
        proved slow; oxidd's products are interrupted where they run (a worker
        thread), so they are never split."""
        m, q = self.manager, self.encoder.next_set
        pieces = self._pieces.get(r)
        if pieces is not None:
            return combine(product(p, target_next, q) for p in pieces)
        t0 = time.process_time()
        u = product(r, target_next, q)
        if time.process_time() - t0 > _SPLIT_AFTER and not m.interruptible_products:
            self._pieces[r] = self._split_part(r)
        return u

    def _split_part(self, r) -> list:
        """Pieces of the relation r whose disjunction is r, disjoint, one per slot s that
        some move of r changes first: r ∧ x'_s ≠ x_s ∧ ⋀_{t before s} x'_t = x_t, slots
        changed by every move of r (a turn variable) skipped; and r ∧ ⋀_s x'_s = x_s;
        then consecutive pieces merged into at most :data:`_PIECES`."""
        m, enc = self.manager, self.encoder
        pieces, rest = [], r
        for i in range(len(self.space.slots)):
            kept = m.and_(rest, enc.frame([i]))
            if m.is_false(kept) or kept == rest:  # every move changes it, or none does
                continue
            pieces.append(m.diff(rest, kept))
            rest = kept
        if not m.is_false(rest):
            pieces.append(rest)
        size = -(-len(pieces) // _PIECES)  # consecutive pieces merged: at most _PIECES
        return [m.disj(pieces[i:i + size]) for i in range(0, len(pieces), size)]

    def layer_pre(self, J, reach, k, ours, won, above, *, dead_ends: DeadEnds) -> BddSet:
        """pre(J, U_{k+1}) ∩ F_k (:meth:`symbolic.api.GameEngine.layer_pre`):
        :meth:`_pre_within` the layer (``above`` is empty above the last layer)."""
        key = self._coalition(J)
        self._tick()
        return BddSet._make(self, self._pre_within(key, reach.layers[k].node, ours, won,
                                                   self.manager.is_false(above.node),
                                                   dead_ends))

    def until_layer_step(self, J, reach, k, ours, won, stay, target, *,
                         dead_ends: DeadEnds) -> BddSet:
        """U_k of :meth:`symbolic.api.GameEngine.until_layer_step` = (F_k ∩ τ) ∪
        :meth:`_pre_within` L, with σ cut to F_k once, L = F_k ∩ σ (remembered by
        :meth:`_cut`: both players' passes of a ply-by-ply table read it)."""
        self.check_layer_step(J, reach, k, ours, won, stay, target, dead_ends)
        if ours is None or reach.result.engine is not self:
            return super().until_layer_step(J, reach, k, ours, won, stay, target,
                                            dead_ends=dead_ends)
        key = self._coalition(J)
        self._tick()
        m = self.manager
        layer = reach.layers[k].node
        live = self._cut(layer, self._node_of(stay))
        step = self._pre_within(key, live, ours, won, k + 1 == len(reach.layers), dead_ends)
        return BddSet._make(self, m.or_(m.and_(layer, self._node_of(target)), step))

    def _pre_within(self, key, within, ours, won, last: bool, dead_ends: DeadEnds):
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
            w = won.node
            if not m.is_false(mine) and not m.is_false(w):
                out = self._exists_within(key[2], mine, self._next(w))
            if not m.is_false(theirs):
                escape = m.not_(self._next(w))
                theirs = m.diff(theirs, self._exists_within(key[3], theirs, escape))
        if dead_ends is DeadEnds.STRICT:
            theirs = m.and_(theirs, self._has_succ)
        return m.or_(out, theirs)

    def _exists_within(self, groups, within, target_next):
        """within ∧ ⋁_(S, Rs) S ∧ ⋁_{R ∈ Rs} ∃x'. (R ∧ τ'): the source factors S
        (Connect Four's `not over`, a BDD over every position) are cut to ``within``
        before they meet the products."""
        m = self.manager
        return m.disj(m.and_(self._cut(within, s), m.disj(self._product(r, target_next) for r in rs))
                      for s, rs in groups)

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

    def _pre_exists_node(self, key, tnext):
        return self._exists_node(key[2], tnext)

    def _pre_forall_node(self, key, tnext, dead_ends: DeadEnds):
        """T_¬J ∧ ∀x'. (δ_¬J → τ') = T_¬J ∧ ¬∃x'. (δ_¬J ∧ ¬τ') [∧ ∃x'. δ for STRICT]:
        with δ_¬J = ⋁ S ∧ R, the conjunction ⋀_(S, Rs) (S → ⋀_R ∀x'. (R → τ')), each
        a fused dual product (:meth:`Manager.implies_forall`: on oxidd, which has no
        complement edges, ¬τ' would be a copy of τ' at every step)."""
        m = self.manager
        u = m.and_(key[1], m.conj(m.implies(s, m.conj(self._product_all(r, tnext) for r in rs))
                                  for s, rs in key[3]))
        if dead_ends is DeadEnds.STRICT:
            u = m.and_(u, self._has_succ)
        return u

    def _next(self, node):
        """τ[x := x'], remembering the last few renamings: ATL evaluation and the
        public pre∃ / pre∀ often rename the same target twice in a row."""
        cache = self._renamed
        hit = cache.get(node)
        if hit is None:
            hit = self.manager.rename(node, self.encoder.to_next)
            if len(cache) >= _RENAME_CACHE:
                cache.pop(next(iter(cache)))  # oldest first: dicts keep insertion order
            cache[node] = hit
        return hit

    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> BddSet:
        """pre∃(J, τ) = {c | t(c) ∈ J ∧ ∃c' ∈ δ(c). c' ∈ τ}."""
        key = self._coalition(coalition)
        t = self._node_of(target)
        return BddSet._make(self, self._pre_exists_node(key, self._next(t)))

    def pre_forall(self, coalition: Iterable[int], target: PositionSet, *,
                   dead_ends: DeadEnds) -> BddSet:
        """pre∀(J, τ) = {c | t(c) ∉ J ∧ ∀c' ∈ δ(c). c' ∈ τ} (STRICT: and δ(c) ≠ ∅)."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        t = self._node_of(target)
        return BddSet._make(self, self._pre_forall_node(key, self._next(t), dead_ends))

    def pre(self, coalition: Iterable[int], target: PositionSet, *,
            dead_ends: DeadEnds) -> BddSet:
        """pre(J, τ) = pre∃(J, τ) ∪ pre∀(J, τ), renaming τ once."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        return BddSet._make(self, self._pre_node(key, self._node_of(target), dead_ends))

    def _pre_node(self, key, t, dead_ends: DeadEnds):
        tn = self._next(t)
        return self.manager.or_(self._pre_exists_node(key, tn),
                                self._pre_forall_node(key, tn, dead_ends))

    def _tick(self) -> None:
        """One fixpoint step or layer: a garbage collection every few steps (autoref), or
        an offer of one at each step (oxidd: its manager collects only once the store
        has doubled since the last collection, which bounds a layered solve's memory)."""
        self._steps += 1
        if self._steps % _AUTOREF_GC_EVERY == 0 or self.manager.backend == "oxidd":
            self.manager.collect_garbage()

    def until(self, coalition: Iterable[int], stay: PositionSet, target: PositionSet, *,
              dead_ends: DeadEnds, keep_layers: bool = False) -> Fixpoint:
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

        return api.least_fixpoint(step, BddSet._make(self, tau), keep_layers=keep_layers,
                                  limits=self.limits, name="computing until (least fixpoint)",
                                  sizes=self._sizes)

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
                new = (self._pre_exists_node(key, tn) if ours
                       else self._pre_forall_node(key, tn, dead_ends))
                node = m.or_(node, m.and_(new, sigma))
            return BddSet._make(self, node)

        return api.least_fixpoint(step, BddSet._make(self, tau), limits=self.limits,
                                  name="computing until (least fixpoint)",
                                  sizes=self._sizes)

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
                order.append(next((q for q in rest
                                   if not self.pre_exists({q}, last).is_empty()), rest[0]))
            self._chain = order
        return self._chain

    def release(self, coalition: Iterable[int], left: PositionSet, right: PositionSet, *,
                dead_ends: DeadEnds) -> Fixpoint:
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
                    self, m.and_(g, m.or_(f, self._pre_node(key, z.node, dead_ends))))

        return api.greatest_fixpoint(step, BddSet._make(self, g), limits=self.limits,
                                     name="computing release (greatest fixpoint)",
                                     sizes=self._sizes)

    def _sizes(self, s: BddSet) -> dict:
        """Sizes of a fixpoint approximation, for progress and limit messages."""
        return {"positions": s.count(), "BDD nodes": self.manager.size(s.node)}
