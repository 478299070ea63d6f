"""The symbolic engine of a GDL game, restricted to the reachable states (the
explicit one is :mod:`symbolic.gdl.explicit`; they share no code but the turn
rule of :mod:`symbolic.gdl.turns`).

Everything is built as BDDs directly from the ground rules (one BDD per ground
atom, memoized; no state enumerated; :class:`RuleBdds`), never from the IR
moves. For the move m of role r, with C_{r,m} the fluents whose ``next`` is
not simply ``true(f)`` once ``does`` is fixed (r plays m, every other role q
its forced move: in a turn-based state q has exactly one legal move, so a set
of states splits by the others' forced moves and ``does`` is a constant in each
part, :meth:`RuleBdds.by_forced_moves`),

    guard_{r,m}(x) = mover_r(x) ∧ legal(r, m)(x) ∧ ¬terminal(x)
    rel_{r,m}(x, x'_C) = ⋀_{f ∈ C_{r,m}} (f' ↔ next(f)[does])(x)

and every other fluent keeps its value. The reachable states are found
breadth-first, R = μX. I ∪ post(X), feeding only the newest layer L to the
image (the states found before it have had their successors already):

    post_{r,m}(L) = (∃x_C. (L ∧ guard_{r,m})(x) ∧ rel_{r,m}(x, x'_C))[x'_C := x_C]

so each image quantifies only the few fluents the move changes (no frame over
the others). Every atom an image reads (``terminal``, the legal moves, the turn
counts, ``next``) is read within the layer (:class:`~.symbolic_rules.Within`: its
bodies and-ed into L literal by literal), and built over every state only while
that stays small (:meth:`RuleBdds.whole`): over all 2^n states ``terminal`` or
the count of legal moves of a board game can grow past any layer.
Each layer is checked against the turn rule (:meth:`RuleBdds.turns`): the
first layer holding a non-terminal state that breaks it gives a ModelError naming
one such state. Then the engine's domain becomes R (or, with a depth N, the
states within N moves, the last layer unexpanded: :attr:`GdlSymbolicGame.frontier`).

Pre-images (every ATL operator) compose instead: a joint move is a function,
pre_{r,m}(X) = (R ∧ guard_{r,m})(x) ∧ X(σ_{r,m}(x)) with σ_f = next(f)[does]
(:meth:`GdlSymbolicGame._composed`), no primed variable and no frame. δ in parts
(one per move, δ_{r,m} = R ∧ guard ∧ rel ∧ frame) is built only for the
operations that list moves (successors, strategies).

With ``domain="invariant"`` nothing is explored: the domain is an inductive
invariant D ⊇ R (:mod:`~.invariant`), layered by its step counter when it has
one; every fixpoint then has its reachable value at ``init`` (what
:func:`~.solve.refine_by_invariant` reads), but D is not R: ``layers`` stays empty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..api import DeadEnds, PositionSet, ReachLayers
from ..bdd.relation import Coalition, DeltaParts
from ..bdd.sets import BddSet
from ..bdd.turnbased import TurnBasedGame, check_partition
from ..errors import QueryError
from ..limits import Limits
from .engine import GdlEngine, check_stop_at_best
from .game import GdlGame
from .ground import term_text
from .symbolic_rules import RuleBdds
from .order_probe import fluent_bit_order
from .within import Within
from .turns import turn_error

if TYPE_CHECKING:
    from .invariant import Invariant

__all__ = ["DOMAINS", "FLUENT_ORDERS", "GdlSymbolicGame", "RuleBdds"]

#: the domains of :class:`GdlSymbolicGame`: the states reachable from ``init``, or an
#: inductive invariant holding them (:mod:`~.invariant`), found without exploring
DOMAINS = ("reachable", "invariant")

#: the orders of the fluent bits in the manager: as grounded (sorted by name), or sorted
#: on the reversed arguments (:mod:`~.order_probe`, which chooses between them)
FLUENT_ORDERS = ("grounded", "reversed")


class GdlSymbolicGame(TurnBasedGame, GdlEngine):
    """:class:`~symbolic.bdd.turnbased.TurnBasedGame` of a :class:`GdlGame`, whose positions are
    the states reachable from ``init`` — in at most ``depth`` moves when ``depth`` is
    given (see :attr:`frontier`).

    After exploring: ``layers`` (the number of states first reached at each depth),
    ``reach`` (a :class:`~symbolic.fixpoint.ReachLayers` of those layers, for
    :func:`~symbolic.api.layers.until_layered`), ``complete`` (no state lies
    beyond the last layer) and ``frontier``: ∅ when complete, else the last layer,
    whose states are kept as positions but not expanded (no successor here: a
    formula that must not read them as dead ends excludes them, as
    :mod:`~.solve` does). With ``domain="invariant"``, ``inductive`` is the
    :class:`~.invariant.Invariant` made the domain (None otherwise).

    Pre-images compose (module docstring): pre_{r,m}(X) = S_{r,m}(x) ∧ X(σ_{r,m}(x)),
    the substitution shared by every move (a step counter, the control rotation)
    applied once per pre-image, what is left of each move's mostly constants.
    """

    game: GdlGame

    def __init__(
        self,
        game: GdlGame,
        backend: str = "auto",
        partition: str = "moves",
        *,
        order: str = "auto",
        max_memory: int | None = None,
        limits: Limits | None = None,
        explore: bool = True,
        depth: int | None = None,
        on_layer=None,
        domain: str = "reachable",
        fluent_order: str = "grounded",
        stop_at_best: bool = False,
    ):
        check_partition(partition)
        check_stop_at_best(stop_at_best, game.program)
        if depth is not None and depth < 0:
            raise QueryError(f"the depth must be 0 or more, got {depth}")
        if domain not in DOMAINS:
            raise QueryError(f"unknown domain {domain!r}: the choices are {list(DOMAINS)}")
        if fluent_order not in FLUENT_ORDERS:
            raise QueryError(
                f"unknown fluent order {fluent_order!r}: the choices are {list(FLUENT_ORDERS)}"
            )
        if domain == "invariant" and depth is not None:
            raise QueryError(
                "a depth bounds the reachable states: it does not apply to the invariant domain"
            )
        # fluents are bools: every order is the slot order; no layout probe (it measures δ,
        # which this engine builds only on demand)
        super().__init__(
            game,
            backend,
            partition,
            order="slots" if order == "auto" else order,
            max_memory=max_memory,
            limits=limits,
        )
        if fluent_order == "reversed":  # before any BDD is built: a cheap reorder
            enc, fluents = self.encoder, game.program.fluents
            bits = {
                f: (enc.slot_bits(i)[0], enc.slot_bits(i, True)[0]) for i, f in enumerate(fluents)
            }
            self.manager.reorder(fluent_bit_order(self.manager.names, fluents, bits))
        self._transitions: DeltaParts | None = None  # transitions(), on demand
        self._has_succ_node = None
        self._moves_of: dict | None = None
        self._raw_all: dict | None = None
        self._layer_moves_of: dict = {}
        self._live = None
        self._common: dict = {}
        m = self.manager
        self.rules = RuleBdds(m, self.encoder, game)
        self._inside: Within | None = None  # the atoms within the domain
        self._inside_of: Within | None = None  # within the last set atom_set was given
        self._frontier = m.false
        # the layers' BDDs (R, (F_0, F_1, ...), graded), not BddSets: an engine holding
        # its sets (which hold it) is a cycle only the collector frees, memory behind it
        self._reach: tuple | None = None
        self._layers: list[int] = []
        self._complete = True
        self.domain = domain
        self.inductive: Invariant | None = None
        if not explore:  # the rule BDDs only
            return
        if domain == "invariant":
            self._settle_invariant()
        else:
            self._explore(depth, on_layer, stop_at_best)

    def _settle_invariant(self) -> None:
        """Make an inductive invariant D the domain (:mod:`~.invariant`); when it has a
        counter (D then lies within its values reached from ``init``), ``reach`` holds
        its layers D ∧ g_k, graded; ``layers`` stays empty: D is not the set of
        reachable states and its states are not counted as such."""
        from .invariant import infer_invariant  # only this domain needs it

        m = self.manager
        inv = infer_invariant(self)
        node = inv.node
        self.inductive = inv
        self._restrict(node)
        if inv.counter is not None:
            layers = tuple(m.and_(node, self.rules.cur[g]) for g in inv.counter)
            self._reach = (node, layers, True)

    def atom_set(self, atom, within: PositionSet | None = None) -> BddSet:
        """The positions (of ``within``, when given) where the ground atom (not
        depending on ``does``) holds, its rule bodies evaluated inside the domain (or
        ``within``) one literal at a time (:class:`Within`): ``terminal`` and the goals
        of a large game are never built over all states, the goals over the terminal
        states only (queens' goals over its 10⁷ positions take minutes)."""
        if within is None:
            return BddSet._make(self, self._within_domain().atom(atom))
        node = self._node_of(within)
        inside = self._inside_of
        if inside is None or inside.u != node:
            inside = self._inside_of = Within(self.rules, node)
        return BddSet._make(self, inside.atom(atom))

    def _within_domain(self) -> Within:
        """The atoms within the domain (:class:`~.symbolic_rules.Within`, kept until the
        domain changes)."""
        inside = self._inside
        if inside is None or inside.u != self._domain:
            inside = self._inside = Within(self.rules, self._domain)
        return inside

    def _expanded(self):
        """The expanded non-terminal positions, D ∖ F ∖ terminal (cached): the sources of
        δ, of the pre-images and of the dead-end test."""
        if self._live is None:
            m = self.manager
            terminal = self._within_domain().atom(("terminal", ()))
            self._live = m.diff(m.diff(self._domain, self._frontier), terminal)
        return self._live

    @property
    def layers(self) -> list[int]:
        """The number of states first reached at each depth (none over an invariant)."""
        return self._layers

    @property
    def complete(self) -> bool:
        """Whether every reachable state is a position (no frontier)."""
        return self._complete

    @property
    def frontier(self) -> BddSet:
        """The positions not expanded: ∅ when every reachable state is a position,
        else the states first reached after ``depth`` moves."""
        return BddSet._make(self, self._frontier)

    def _explore(self, depth: int | None, on_layer, stop_at_best: bool = False) -> None:
        """Breadth-first from ``init`` (one image per layer, of that layer only):
        F_0 = {init}, F_{n+1} = post(F_n) ∖ (F_0 ∪ … ∪ F_n), up to the first empty
        layer, F_depth, or with ``stop_at_best`` the first layer of the best goal
        (:func:`~.engine.check_stop_at_best`); ``on_layer(n, |F_0 ∪ … ∪ F_n|, nodes)``."""
        m = self.manager
        reached = layer = self.initial()
        layers, graded = [layer], True
        if on_layer is not None:
            on_layer(0, reached.count(), m.size(reached.node))
        with self.limits.stage("exploring the reachable states"):
            while True:
                self.limits.check(
                    f"depth {len(layers)}",
                    lambda: {"positions": reached.count(), "BDD nodes": m.size(reached.node)},
                )
                image = self.image(layer)
                new = image - reached
                if depth is not None and len(layers) > depth and not new.is_empty():
                    self._complete = False  # F_depth is a frontier: not expanded
                    break
                if new != image:
                    graded = False  # a move goes back to a layer already found
                if new.is_empty():
                    break
                layers.append(new)
                reached = reached | new
                layer = new
                if on_layer is not None:
                    on_layer(len(layers) - 1, reached.count(), m.size(reached.node))
                if stop_at_best and self._holds_best(new.node):
                    break
        self._layers = [x.count() for x in layers]
        self._frontier = m.false if self._complete else layer.node
        self._restrict(reached.node)
        self._reach = (reached.node, tuple(x.node for x in layers), graded)

    def _holds_best(self, layer) -> bool:
        """Whether ``layer`` holds a terminal state of the best goal (``complete`` then)."""
        m, prog, inside = self.manager, self.game.program, Within(self.rules, layer)
        terminal = inside.atom(("terminal", ()))
        best = m.disj(inside.atom(a) for a in prog.best_goal_atoms(prog.roles[0]))
        found = not m.is_false(m.and_(terminal, best))
        self._complete = m.is_false(m.diff(layer, terminal)) if found else self._complete
        return found

    @property
    def reach(self) -> ReachLayers[BddSet] | None:
        """The layers found (a new :class:`~symbolic.fixpoint.ReachLayers` each time,
        of the same sets), None when there are none."""
        if self._reach is None:
            return None
        whole, layers, graded = self._reach
        sets = tuple(BddSet._make(self, x) for x in layers)
        return ReachLayers(BddSet._make(self, whole), sets, graded)

    def _own_layer(self, reach: ReachLayers, k: int) -> bool:
        """Whether layer k of ``reach`` is this engine's own layer k (graded), whose
        moves :meth:`_layer_moves` memoizes: the same BDD node, not the same object."""
        own = self._reach
        return (
            own is not None
            and own[2]
            and reach.result.engine is self
            and k < len(own[1])
            and reach.layers[k].node == own[1][k]
        )

    # ------------------------------------------------------------------ exploration

    def initial(self) -> BddSet:
        """The initial state."""
        prog, enc = self.game.program, self.encoder
        return BddSet._make(
            self, enc.position_cube(tuple(int(f in prog.init) for f in prog.fluents))
        )

    def image(self, layer: BddSet) -> BddSet:
        """post(L): the successors of the states of ``layer`` (see the module docstring);
        a ModelError when ``layer`` holds a non-terminal state that is not turn-based."""
        m, rules = self.manager, self.rules
        inside = Within(rules, layer.node)  # every atom read within the layer
        live = inside.not_terminal()
        movers, bad, _ = rules.turns(live, inside)
        if not m.is_false(bad):
            pos = BddSet._make(self, bad).first()
            assert pos is not None  # bad is not empty
            self._not_turn_based(pos)
        images = []
        for r, lr in movers.items():
            for forced, lf in rules.by_forced_moves(lr, r, inside):
                for mv in self.game.program.moves[r]:
                    self.limits.check(f"image of the move {r} {term_text(mv)}")
                    src = m.and_(lf, inside.legal(r, mv))
                    if m.is_false(src):
                        continue
                    img = self._move_image(r, mv, forced, src, inside)
                    if not m.is_false(img):
                        images.append(img)
        return BddSet._make(self, m.and_(m.disj(images), self._domain))

    def _move_image(self, r, mv, forced, src, inside: Within):
        """The successors of the states of ``src`` under the joint move: a renaming
        where the move is one (:meth:`~.symbolic_rules.RuleBdds.shift`), else ∃ over
        src ∧ its relation."""
        m, rules = self.manager, self.rules
        shift = rules.shift(r, mv, forced)
        if shift is not None:
            lost, moved, fixed, back = shift
            img = m.and_(m.rename(m.exist(src, lost), moved), fixed)
            return m.rename(img, back) if back else img
        cases = rules.cases(r, mv, forced, src, scope=inside)
        if cases is not None:
            return m.disj(rules.case_image(part, simple) for part, simple in cases)
        rel, quantified, back = rules.image_parts(r, mv, forced, src, inside)
        img = m.and_exists(src, rel, quantified)
        return m.rename(img, back) if back else img

    def _not_turn_based(self, pos: tuple):
        """Raise the error of :func:`~.turns.turn_error` for position ``pos``."""
        prog, rules, m = self.game.program, self.rules, self.manager
        state = frozenset(f for f, v in zip(prog.fluents, pos) if v)
        inside = Within(rules, self.encoder.position_cube(pos))
        legal = {
            r: [mv for mv in prog.moves[r] if not m.is_false(inside.legal(r, mv))]
            for r in prog.roles
        }
        err = turn_error(prog.roles, state, legal, prog.fluents)
        if err is None:
            raise AssertionError(pos)
        try:
            raise err
        finally:
            del err  # the traceback holds this frame: no cycle error → frame → error

    def _restrict(self, node) -> None:
        """Make ``node`` (closed under δ) the domain."""
        self._set_domain(node)
        self._reset_turns()
        self._moves_of = None
        self._raw_all = None
        self._layer_moves_of = {}
        self._live = None
        # terminal states too: a nominal mover
        movers, _, _ = self.rules.turns(node, self._within_domain())
        ids = self.game.names.role_id
        self._turn_of = {ids[r]: u for r, u in movers.items()}
        self._transitions = None
        self._has_succ_node = None
        self.check_turns()

    # ------------------------------------------------------------------ δ, on demand

    def transitions(self) -> DeltaParts:
        """δ in parts over the domain: one per move, or one in all (``monolithic``), with
        no source factor."""
        if self._transitions is None:
            m, rules, enc = self.manager, self.rules, self.encoder
            live = self._expanded()
            dom_next = self.domain_next()
            parts = []
            fluents = self.game.program.fluents
            inside = self._within_domain()
            movers, _, _ = rules.turns(live, inside)
            with self.limits.stage("building δ"):
                for move in self.game.moves:
                    r, mv = self.game.names.move_named[move.name]
                    self.limits.check(f"move {move.name}")
                    rel = m.false
                    for forced, lf in rules.by_forced_moves(
                        m.and_(movers[r], inside.legal(r, mv)), r, inside
                    ):
                        step, ch = rules.step(r, mv, forced, lf, inside)
                        keep = enc.frame(i for i, f in enumerate(fluents) if f not in ch)
                        rel = m.or_(rel, m.conj([lf, step, keep]))
                    if not m.is_false(rel):
                        parts.append((move.name, m.and_(rel, dom_next)))
            if self.partition == "monolithic":
                parts = [("delta", m.disj(p for _, p in parts))]
            self._transitions = DeltaParts(m, parts, {}, enc.next_set)
        return self._transitions

    @property
    def _has_succ(self):
        """The states with a successor: the expanded non-terminal ones where every role
        has a legal move (:mod:`~.turns`)."""
        if self._has_succ_node is None:
            live = self._expanded()
            stuck = self.rules.turns(live, self._within_domain())[2]
            self._has_succ_node = self.manager.diff(live, stuck)
        return self._has_succ_node

    # ------------------------------------------------------------------ pre-images, composed

    def _moves(self) -> dict:
        """{role: (⋁_m S_{r,m}, the variables its moves' own substitutions set,
        [(S_{r,m}, constants of σ_{r,m}, the rest of σ_{r,m})])} over the expanded states
        (memoized), split around :meth:`_shared`."""
        if self._moves_of is None:
            self._moves_of = self._groups(self._shared()[1])
        return self._moves_of

    def _shared(self) -> tuple:
        """(``self._common``: the part of σ shared by every move, applied first, sound as
        no move substitutes a variable it reads; the raw moves of the expanded states),
        memoized. A layered solution needs no more (:meth:`_groups` is costly)."""
        if self._raw_all is None:
            m = self.manager
            with self.limits.stage("building the moves' substitutions"):
                raw = self._raw_moves(self._expanded())
            subs = [sub for moves in raw.values() for _, sub in moves]
            common = dict(subs[0]) if subs else {}
            for sub in subs[1:]:
                common = {b: e for b, e in common.items() if b in sub and sub[b] == e}
            while True:
                own = {b for sub in subs for b in sub if b not in common}
                clash = [b for b, e in common.items() if m.support(e) & own]
                if not clash:
                    break
                for b in clash:
                    del common[b]
            self._common = common
            self._raw_all = raw
        return self._common, self._raw_all

    def _raw_moves(self, live) -> dict:
        """{role: [(S_{r,m}, σ_{r,m} as {bit: BDD})]} for the moves with a source in
        ``live`` (expanded states), S_{r,m} = live ∧ mover_r ∧ forced ∧ legal(r, m)."""
        m, rules, prog = self.manager, self.rules, self.game.program
        inside = Within(rules, live)
        movers, _, _ = rules.turns(live, inside)
        raw: dict = {}
        for r, lr in movers.items():
            raw[r] = []
            for forced, lf in rules.by_forced_moves(lr, r, inside):
                for mv in prog.moves[r]:
                    self.limits.check(f"move {r} {term_text(mv)}")
                    src = m.and_(lf, inside.legal(r, mv))
                    if not m.is_false(src):
                        changed = rules.changes(r, mv, forced, src, inside)
                        raw[r].append((src, {rules.bit[f]: e for f, e in changed.items()}))
        return raw

    def _groups(self, raw: dict) -> dict:
        """The moves in :meth:`_moves`' form from those of :meth:`_raw_moves`, their
        substitutions split around ``self._common``."""
        m, out = self.manager, {}
        for r, moves in raw.items():
            split = [self._split(src, sub) for src, sub in moves]
            changed = set().union(*(set(c) | set(x) for _, c, x in split))
            out[r] = (m.disj(src for src, _, _ in split), changed, split)
        return out

    def _layer_moves(self, k: int) -> dict:
        """:meth:`_moves` with sources in layer k of :attr:`reach` only (memoized): the
        conjunctions S_m ∧ target(σ_m) of a layered solution stay as small as the layer
        instead of spanning every layer. ``self._common`` (shared by every move of the
        domain) is shared by these."""
        hit = self._layer_moves_of.get(k)
        if hit is None:
            self._shared()  # sets self._common
            m = self.manager
            assert self._reach is not None  # only a layered solution over our layers calls this
            live = m.and_(self._reach[1][k], self._expanded())
            with self.limits.stage(f"building the moves' substitutions of layer {k}"):
                hit = self._groups(self._raw_moves(live))
            self._layer_moves_of[k] = hit
        return hit

    def layer_pre(self, J, reach: ReachLayers, k, ours, won, above, *, dead_ends: DeadEnds):
        """pre(J, U_{k+1}) ∩ F_k (:meth:`~symbolic.api.GameEngine.layer_pre`) with the
        moves' sources restricted to F_k (:meth:`_layer_moves`):

            ⋁_{m of J} S^k_m ∧ U_{k+1}(σ_m)  ∪  (F_k ∖ T_J) ∖ ⋁_{m of ¬J} S^k_m ∧ (F_{k+1} ∖ U_{k+1})(σ_m)

        [the second part ∧ has a successor, for STRICT]."""
        if not self._own_layer(reach, k):  # the generic step, over every layer
            return super().layer_pre(J, reach, k, ours, won, above, dead_ends=dead_ends)
        m, ids = self.manager, self.game.names.role_id
        groups = self._layer_moves(k)
        mine = [g for r, g in groups.items() if ids[r] in J]
        theirs = [g for r, g in groups.items() if ids[r] not in J]
        out = self._composed(mine, won.node) if mine else m.false
        others = m.diff(reach.layers[k].node, ours.node)
        if not m.is_false(others):
            escape = m.diff(above.node, won.node)
            if theirs and not m.is_false(escape):
                others = m.diff(others, self._composed(theirs, escape))
            if dead_ends is DeadEnds.STRICT:
                others = m.and_(others, self._has_succ)
            out = m.or_(out, others)
        return BddSet._make(self, out)

    def _split(self, src, sub: dict) -> tuple:
        """(S, constants, the rest) of a move's own substitution, simplified on S (the
        bits S fixes fixed in it): most become constants or the bit itself (dropped)."""
        m = self.manager
        own = {b: e for b, e in sub.items() if b not in self._common}
        read = set().union(*(m.support(e) for e in own.values()))
        seen = m.exist(src, m.support(src) - read)  # src's values of those bits: smaller
        fixed = {}
        for v in read:
            x = m.var(v)
            if m.is_false(m.diff(seen, x)):
                fixed[v] = True
            elif m.is_false(m.and_(seen, x)):
                fixed[v] = False
        consts, rest = {}, {}
        for b, e in own.items():
            e = m.restrict(e, fixed)
            if m.is_true(e) or m.is_false(e):
                consts[b] = m.is_true(e)
            elif e != m.var(b):
                rest[b] = e
        return src, consts, rest

    def _coalition(self, coalition: Iterable[int]) -> Coalition:
        """(T_J, D ∧ ¬T_J, the moves of J's roles, the moves of the others), cached."""
        J = self.game.coalition(coalition)
        hit = self._coalition_cache.get(J)
        if hit is None:
            m, ids = self.manager, self.game.names.role_id
            tj = self._turn_node(J)
            ours: list = []
            theirs: list = []
            for r, group in self._moves().items():
                (ours if ids[r] in J else theirs).append(group)
            hit = Coalition(tj, m.diff(self._domain, tj), ours, theirs)
            self._coalition_cache[J] = hit
        return hit

    def _next(self, node):
        """``node`` itself: the pre-images compose, targets stay over the current bits."""
        return node

    def _composed(self, groups: list, target):
        """⋁_m S_m ∧ target(σ_m(x)), a role's moves skipped at once when none of its
        sources meets ∃V. target(σ_common(x)) (V: the variables its moves set), which
        contains every target(σ_m(x)) (a role whose moves set no variable is kept:
        target(σ_common) is then each of them): in a layer where one role moves, the
        others' moves cost one quantification."""
        m = self.manager
        t = m.compose(target, self._common) if self._common else target
        out = []
        for sources, changed, moves in groups:
            if changed and m.is_false(m.and_(sources, m.exist(t, changed))):
                continue
            for src, consts, rest in moves:
                self.limits.check()
                u = m.restrict(t, consts)
                if rest:
                    u = m.compose(u, rest)
                out.append(m.and_(src, u))
        return m.disj(out, check=self.limits.check)  # the time limit between two ors

    def _pre_exists_node(self, key: Coalition, target):
        """⋁_{m of J} S_m ∧ target(σ_m)."""
        return self._composed(key.ours, target)

    def _pre_forall_node(self, key: Coalition, target, dead_ends: DeadEnds):
        """T_¬J ∧ ¬⋁_m (S_m ∧ (D ∖ target)(σ_m)) [∧ has a successor, for STRICT]:
        successors stay in D, so the complement is taken in D (small when the target
        holds most of D, as in :func:`~symbolic.api.layers.until_layered`)."""
        m = self.manager
        u = m.diff(key.others, self._composed(key.theirs, m.diff(self._domain, target)))
        if dead_ends is DeadEnds.STRICT:
            u = m.and_(u, self._has_succ)
        return u
