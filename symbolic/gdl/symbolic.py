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
the others). ``terminal`` is subtracted from a layer body by body (``line red``,
``line black``, ... one at a time), so its whole BDD is never needed to explore.
Each layer is checked against the turn rule (:meth:`RuleBdds.turns`): the
first layer holding a non-terminal state that breaks it gives a ModelError naming
one such state. Then the engine's domain becomes R; δ in parts (one per move,
δ_{r,m} = R ∧ guard ∧ rel ∧ frame) is built only when a strategic operator
needs it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..api import least_fixpoint
from ..bdd.engine import PARTITIONS, BddSet, SymbolicGame, SymbolicSets
from ..errors import QueryError
from ..ir import Var
from ..limits import Limits
from ..limits import current as current_limits
from .build import DoesReads, one_two
from .game import GdlGame
from .ground import term_text
from .turns import NOOP, turn_error

__all__ = ["GdlSymbolicGame", "RuleBdds", "Frontier", "reachable_layers"]


@dataclass(frozen=True)
class Frontier:
    """The states reached so far and the newest layer among them; two frontiers are
    equal when they have reached the same states (the fixpoint test)."""
    reached: BddSet
    layer: BddSet = field(compare=False)


class GdlSymbolicGame(SymbolicGame):
    """:class:`~symbolic.bdd.SymbolicGame` of a :class:`GdlGame`, whose positions are
    the reachable states; ``reach`` is the fixpoint (iterations = depth), ``layers``
    the number of states first reached at each depth."""

    def __init__(self, game: GdlGame, backend: str = "cudd", partition: str = "moves", *,
                 order: str = "auto", max_memory: int | None = None,
                 limits: Limits | None = None, explore: bool = True):
        if partition not in PARTITIONS:
            raise QueryError(f"unknown partition {partition!r}: the choices are "
                             f"{list(PARTITIONS)}")
        # fluents are bools: every order is the slot order; no layout probe (it measures δ,
        # which this engine builds only on demand)
        SymbolicSets.__init__(self, game.space, backend, game.invariant,
                              order="slots" if order == "auto" else order,
                              max_memory=max_memory, limits=limits)
        self.game = game
        self.partition = partition
        self.order_probe: dict = {}
        self._layout_pending = False  # see the comment above: never measured
        self._sources: dict = {}  # no guard factored out of the parts (SymbolicGame)
        self._full_parts: dict = {}
        self._renamed: dict = {}
        self._steps = 0
        self._coalition_cache: dict = {}
        self._delta = None
        self._built_parts = None
        self._has_succ_node = None
        m = self.manager
        self.rules = RuleBdds(m, self.encoder, game)
        self._turn_of: dict = {}
        self.reach = None
        self.layers: list[int] = []
        if not explore:  # the rule BDDs only (reachable_layers explores by itself)
            return
        start = self.initial()
        self.layers = [start.count()]

        def step(x: Frontier) -> Frontier:
            new = self.image(x.layer) - x.reached
            self.layers.append(new.count())
            return Frontier(x.reached | new, new)

        self.reach = least_fixpoint(step, Frontier(start, start), limits=self.limits,
                                    name="exploring the reachable states",
                                    sizes=lambda x: {"positions": x.reached.count(),
                                                     "BDD nodes": m.size(x.reached.node)})
        self.layers.pop()  # the last layer found nothing
        self._restrict(self.reach.result.reached.node)

    # ------------------------------------------------------------------ exploration

    def initial(self) -> BddSet:
        """The initial state."""
        prog, enc = self.game.program, self.encoder
        return BddSet._make(self, enc.position_cube(tuple(int(f in prog.init)
                                                          for f in prog.fluents)))

    def image(self, layer: BddSet) -> BddSet:
        """post(L): the successors of the states of ``layer`` (see the module docstring);
        a ModelError when ``layer`` holds a non-terminal state that is not turn-based."""
        m, rules = self.manager, self.rules
        live = rules.minus_terminal(layer.node)
        movers, bad, _ = rules.turns(live)
        if not m.is_false(bad):
            self._not_turn_based(BddSet._make(self, bad).first())
        images = []
        for r, lr in movers.items():
            for forced, lf in rules.by_forced_moves(lr, r):
                for mv in self.game.program.moves[r]:
                    self.limits.check(f"image of the move {r} {term_text(mv)}")
                    guarded, quantified, back = rules.step(r, mv, forced)
                    img = m.and_exists(lf, guarded, quantified)
                    if not m.is_false(img):
                        images.append(m.rename(img, back) if back else img)
        return BddSet._make(self, m.and_(m.disj(images), self._domain))

    def _not_turn_based(self, pos: tuple):
        """Raise the error of :func:`~.turns.turn_error` for position ``pos``."""
        prog, rules, m = self.game.program, self.rules, self.manager
        state = frozenset(f for f, v in zip(prog.fluents, pos) if v)
        cube = self.encoder.assignment(pos)
        legal = {r: [mv for mv in prog.moves[r]
                     if m.is_true(m.restrict(rules.legal(r, mv), cube))] for r in prog.roles}
        err = turn_error(prog.roles, state, legal, prog.fluents)
        if err is None:
            raise AssertionError(pos)
        raise err

    def _restrict(self, node) -> None:
        """Make ``node`` (closed under δ) the domain."""
        self._domain = node
        self._domain_next = None
        movers, _, _ = self.rules.turns(node)  # terminal states too: a nominal mover
        ids = self.game.names.role_id
        self._turn_of = {ids[r]: u for r, u in movers.items()}
        self._coalition_cache = {}
        self._delta = None
        self._built_parts = None
        self._has_succ_node = None
        self._renamed = {}
        self.check_turns()

    # ------------------------------------------------------------------ δ, on demand

    @property
    def _parts(self) -> list:
        """δ in parts over the domain: one per move, or one in all (``monolithic``)."""
        if self._built_parts is None:
            m, rules, enc = self.manager, self.rules, self.encoder
            dom = self._domain
            live = rules.minus_terminal(dom)
            dom_next = self.domain_next()
            parts = []
            fluents = self.game.program.fluents
            movers, _, _ = rules.turns(live)
            with self.limits.stage("building δ"):
                for move in self.game.moves:
                    r, mv = self.game.names.move_named[move.name]
                    self.limits.check(f"move {move.name}")
                    rel = m.false
                    for forced, lf in rules.by_forced_moves(m.and_(movers[r],
                                                                   rules.legal(r, mv)), r):
                        ch = rules.changed(r, mv, forced)
                        keep = enc.frame(i for i, f in enumerate(fluents) if f not in ch)
                        rel = m.or_(rel, m.conj([lf, rules.step(r, mv, forced)[0], keep]))
                    if not m.is_false(rel):
                        parts.append((move.name, m.and_(rel, dom_next)))
            if self.partition == "monolithic":
                parts = [("delta", m.disj(p for _, p in parts))]
            self._built_parts = parts
        return self._built_parts

    @property
    def _has_succ(self):
        """The states with a successor: the non-terminal ones where every role has a
        legal move (:mod:`~.turns`)."""
        if self._has_succ_node is None:
            live = self.rules.minus_terminal(self._domain)
            self._has_succ_node = self.manager.diff(live, self.rules.turns(live)[2])
        return self._has_succ_node


class RuleBdds:
    """BDDs of the ground atoms of a GDL game over an engine's bits, memoized per
    atom (and per joint move for the atoms that depend on ``does``).

    A joint move is ``ctx = (r, m, forced)``: the mover r plays m and every other
    role q plays ``forced[q]``. In a turn-based state each role other than the
    mover has exactly one legal move (:mod:`~.turns`), so a set of states splits
    into disjoint parts by the others' forced moves (:meth:`by_forced_moves`) and
    ``does`` is a constant in each part: the BDDs stay those of fixed moves."""

    def __init__(self, manager, encoder, game: GdlGame):
        self.m = manager
        self.prog = game.program
        names = game.names
        self.cur = {f: encoder.boolean(Var(names.var_of[f])) for f in self.prog.fluents}
        self.nxt = {f: encoder.boolean(Var(names.var_of[f], primed=True), primed=True)
                    for f in self.prog.fluents}
        self.bit = {f: encoder.slot_bits(i)[0] for i, f in enumerate(self.prog.fluents)}
        self.bit_next = {f: encoder.slot_bits(i, True)[0]
                         for i, f in enumerate(self.prog.fluents)}
        # moves named noop first: usually every waiting role's forced move
        self.waiting_order = {r: sorted(self.prog.moves[r], key=lambda x: x != NOOP)
                              for r in self.prog.roles}
        self.memo: dict = {}
        self.does = DoesReads(self.prog)
        self._steps: dict = {}

    def atom(self, atom, ctx=None):
        """The BDD of a ground atom; ``ctx`` = (mover, move, forced) fixes ``does``
        (memoized per role when the atom does not read the mover's move:
        :class:`~.build.DoesReads`)."""
        name, args = atom
        m = self.m
        if name == "true":
            return self.cur[args[0]]
        if name == "does":
            mover, move, forced = ctx
            return m.const(args[1] == (move if args[0] == mover else forced[args[0]]))
        key = (atom, self.does.ctx_key(atom, ctx))
        hit = self.memo.get(key)
        if hit is None:
            ctx = key[1]
            hit = m.disj(self.body(b, ctx) for b in self.prog.rules.get(atom, ()))
            self.memo[key] = hit
        return hit

    def body(self, body, ctx=None):
        m = self.m
        return m.conj(self.atom(a, ctx) if kind == "pos" else m.not_(self.atom(a, ctx))
                      for kind, a in body)

    def legal(self, role, move):
        return self.atom(("legal", (role, move)))

    def minus_terminal(self, u):
        """u ∧ ¬terminal, subtracting the bodies of ``terminal`` one by one (cheaper
        than building the whole terminal BDD when u is small)."""
        m = self.m
        for b in self.prog.rules.get(("terminal", ()), ()):
            if m.is_false(u):
                break
            u = m.diff(u, self.body(b))
        return u

    def counts(self, role) -> tuple:
        """(≥ 1 legal move, ≥ 2 legal moves, exactly one legal move not named ``noop``)
        for ``role``, over all states (memoized: built once, then intersected with
        each layer, cheaper than intersecting each legal move with the layer)."""
        key = ("counts", role)
        if key not in self.memo:
            m = self.m
            one, two = one_two([self.legal(role, mv) for mv in self.prog.moves[role]],
                               m.or_, m.and_, m.false)
            busy = m.diff(one, two)
            if NOOP in self.prog.moves[role]:
                busy = m.diff(busy, self.legal(role, NOOP))
            self.memo[key] = (one, two, busy)
        return self.memo[key]

    def turns(self, u) -> tuple[dict, object, object]:
        """({role: the states of u where it is the mover}, the states of u where several
        roles have a choice, the states of u where some role has no legal move), by the
        rule of :mod:`~.turns`."""
        m, roles = self.m, self.prog.roles
        one, choice, busy = {}, {}, {}
        for r in roles:
            o, t, b = self.counts(r)
            one[r], choice[r], busy[r] = m.and_(u, o), m.and_(u, t), m.and_(u, b)
        _, two_choose = one_two([choice[r] for r in roles], m.or_, m.and_, m.false)
        stuck = m.diff(u, m.conj(one[r] for r in roles))
        nobody = m.diff(u, m.disj(choice[r] for r in roles))
        movers, chose, busied = {}, m.false, m.false
        for r in roles:
            cases = [m.diff(choice[r], chose), m.diff(m.and_(nobody, busy[r]), busied)]
            chose, busied = m.or_(chose, choice[r]), m.or_(busied, busy[r])
            movers[r] = m.disj(cases)
        first = roles[0]
        movers[first] = m.or_(movers[first], m.diff(nobody, busied))
        return movers, two_choose, stuck

    def by_forced_moves(self, u, mover):
        """[(forced, u_forced)]: u split by the legal move of each role other than
        ``mover`` (``forced`` = {role: move}); exact on turn-based states, where those
        roles have one legal move each (a state where one has several appears in each
        of its parts; :meth:`turns` reports such states first)."""
        m = self.m
        parts = [({}, u)]
        for q in self.prog.roles:
            if q == mover:
                continue
            nxt = []
            for forced, v in parts:
                rest = v
                for x in self.waiting_order[q]:
                    if m.is_false(rest):
                        break
                    w = m.and_(v, self.legal(q, x))
                    if not m.is_false(w):
                        nxt.append(({**forced, q: x}, w))
                        rest = m.diff(rest, w)
            parts = nxt
        return parts

    def changed(self, role, move, forced) -> dict:
        """{fluent: BDD of next(f) under the joint move} for the fluents it does not keep."""
        ctx = (role, move, _Forced(forced))
        key = ("changed", ctx)
        if key not in self.memo:
            out = {}
            for f in self.prog.fluents:
                e = self.atom(("next", (f,)), ctx)
                if e != self.cur[f]:
                    out[f] = e
            self.memo[key] = out
        return self.memo[key]

    def step(self, role, move, forced):
        """(legal(r, m) ∧ rel, quantified current bits, renaming x'_C → x_C) of the
        joint move (see the module docstring)."""
        key = (role, move, _Forced(forced))
        hit = self._steps.get(key)
        if hit is None:
            m = self.m
            ch = self.changed(role, move, forced)
            rel = m.conj([self.legal(role, move)]
                         + [m.iff(self.nxt[f], e) for f, e in ch.items()])
            hit = (rel, frozenset(self.bit[f] for f in ch),
                   {self.bit_next[f]: self.bit[f] for f in ch})
            self._steps[key] = hit
        return hit


class _Forced(dict):
    """The forced moves of a joint move, hashable (a memo key) and readable by role."""

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=repr)))


def reachable_layers(game: GdlGame, max_depth: int, backend: str = "cudd", *,
                     order: str = "auto", limits: Limits | None = None,
                     on_layer=None) -> tuple[list[int], bool]:
    """(|R_0|, ..., |R_k|), R_0 = {init}, R_{i+1} = R_i ∪ post(R_i), for k ≤ ``max_depth``,
    and whether the fixpoint was reached: a bounded look at games too large to solve
    (the turn reading is checked on each layer). ``on_layer(depth, count, nodes)`` is
    called as each count is known (nodes: the BDD size of the reached set)."""
    eng = GdlSymbolicGame(game, backend=backend, order=order,
                          limits=limits if limits is not None else current_limits(),
                          explore=False)
    m = eng.manager
    reached = layer = eng.initial()
    sizes = [reached.count()]
    if on_layer is not None:
        on_layer(0, sizes[0], m.size(reached.node))
    with eng.limits.stage("exploring the reachable states"):
        for depth in range(1, max_depth + 1):
            eng.limits.check(f"depth {depth}")
            layer = eng.image(layer) - reached
            if layer.is_empty():
                return sizes, True
            reached = reached | layer
            sizes.append(reached.count())
            if on_layer is not None:
                on_layer(depth, sizes[-1], m.size(reached.node))
    return sizes, False
