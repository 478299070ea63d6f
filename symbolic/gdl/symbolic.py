"""The symbolic engine of a GDL game, restricted to the reachable states (the
explicit one is :mod:`symbolic.gdl.explicit`; they share no code but the turn
rule of :mod:`symbolic.gdl.turns`).

Everything is built as BDDs directly from the ground rules (one BDD per ground
atom, memoized; no state enumerated; :class:`RuleBdds`), never from the IR
moves. For the move m of role r, with C_{r,m} the fluents whose ``next`` is
not simply ``true(f)`` once ``does`` is fixed (r plays m, every other role q
its legal move: ``does(q, x) = legal(q, x)``),

    guard_{r,m}(x) = mover_r(x) ∧ legal(r, m)(x) ∧ ¬terminal(x)
    rel_{r,m}(x, x'_C) = ⋀_{f ∈ C_{r,m}} (f' ↔ next(f)[does])(x)

and every other fluent keeps its value. The reachable states are found
breadth-first, R = μX. I ∪ post(X), feeding only the newest layer L to the
image (the states found before it have had their successors already):

    post_{r,m}(L) = (∃x_C. (L ∧ guard_{r,m})(x) ∧ rel_{r,m}(x, x'_C))[x'_C := x_C]

so each image quantifies only the few fluents the move changes (no frame over
the others). ``terminal`` is subtracted from a layer body by body (``line red``,
``line black``, ... one at a time), so its whole BDD is never needed to explore.
Each layer is checked against the turn rule (:meth:`RuleBdds.wellformed`): the
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
from .build import one_two
from .game import GdlGame
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
        self._renamed: dict = {}
        self._steps = 0
        self._coalition_cache: dict = {}
        self._delta = None
        self._built_parts = None
        self._has_succ_node = None
        m = self.manager
        with self.limits.stage("building the rule BDDs"):
            self.rules = rules = RuleBdds(m, self.encoder, game)
            ids = game.names.role_id
            self._turn_of = {ids[r]: m.and_(rules.mover(r), self._domain)
                             for r in game.program.roles}
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
        bad = m.diff(live, rules.wellformed())
        if not m.is_false(bad):
            self._not_turn_based(BddSet._make(self, bad).first())
        out = m.false
        for r in self.game.program.roles:
            lr = m.and_(live, rules.mover(r))
            if m.is_false(lr):
                continue
            for mv in self.game.program.moves[r]:
                self.limits.check(f"image of the move {r} {mv}",
                                  lambda: {"BDD nodes": m.size(out)})
                u = m.and_(lr, rules.legal(r, mv))
                if m.is_false(u):
                    continue
                rel, quantified, back = rules.step(r, mv)
                img = m.and_exists(u, rel, quantified)
                out = m.or_(out, m.rename(img, back) if back else img)
        return BddSet._make(self, m.and_(out, self._domain))

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
        m = self.manager
        self._domain = node
        self._domain_next = None
        self._turn_of = {p: m.and_(t, node) for p, t in self._turn_of.items()}
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
            with self.limits.stage("building δ"):
                for move in self.game.moves:
                    r, mv = self.game.names.move_named[move.name]
                    self.limits.check(f"move {move.name}")
                    u = m.conj([live, rules.mover(r), rules.legal(r, mv)])
                    if m.is_false(u):
                        continue
                    rel = rules.step(r, mv)[0]
                    ch = rules.changed(r, mv)
                    keep = enc.frame(i for i, f in enumerate(self.game.program.fluents)
                                     if f not in ch)
                    parts.append((move.name, m.conj([u, rel, keep, dom_next])))
            if self.partition == "monolithic":
                parts = [("delta", m.disj(p for _, p in parts))]
            self._built_parts = parts
        return self._built_parts

    @property
    def _has_succ(self):
        """The states with a successor: the non-terminal ones (a turn-based state's mover
        has a legal move)."""
        if self._has_succ_node is None:
            self._has_succ_node = self.rules.minus_terminal(self._domain)
        return self._has_succ_node


class RuleBdds:
    """BDDs of the ground atoms of a GDL game over an engine's bits, memoized per
    atom (and per move for the atoms that depend on ``does``)."""

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
        self.memo: dict = {}
        self.does_dep: dict = {}
        self._steps: dict = {}

    def _depends(self, atom) -> bool:
        if atom[0] == "does":
            return True
        hit = self.does_dep.get(atom)
        if hit is None:
            hit = any(self._depends(a) for body in self.prog.rules.get(atom, ()) for _, a in body)
            self.does_dep[atom] = hit
        return hit

    def atom(self, atom, ctx=None):
        """The BDD of a ground atom; ``ctx`` = (mover, move) fixes ``does``: the mover
        plays its move, every other role its legal (forced) move."""
        name, args = atom
        m = self.m
        if name == "true":
            return self.cur[args[0]]
        if name == "does":
            mover, move = ctx
            return m.const(args[1] == move) if args[0] == mover else self.legal(*args)
        key = (atom, ctx if self._depends(atom) else None)
        hit = self.memo.get(key)
        if hit is None:
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
        hit = self.memo.get((("terminal", ()), None))
        if hit is not None:
            return m.diff(u, hit)
        for b in self.prog.rules.get(("terminal", ()), ()):
            if m.is_false(u):
                break
            u = m.diff(u, self.body(b))
        return u

    def _counts(self, role):
        key = ("counts", role)
        if key not in self.memo:
            m = self.m
            self.memo[key] = one_two((self.legal(role, mv) for mv in self.prog.moves[role]),
                                     m.or_, m.and_, m.false)
        return self.memo[key]

    def choice(self, role):
        """The role has two legal moves or more."""
        return self._counts(role)[1]

    def busy(self, role):
        """The role has exactly one legal move, not named ``noop``."""
        key = ("busy", role)
        if key not in self.memo:
            m = self.m
            one, two = self._counts(role)
            u = m.diff(one, two)
            if NOOP in self.prog.moves[role]:
                u = m.diff(u, self.legal(role, NOOP))
            self.memo[key] = u
        return self.memo[key]

    def mover(self, role):
        """The mover by the rule of :mod:`~.turns`."""
        key = ("mover", role)
        if key in self.memo:
            return self.memo[key]
        m, roles = self.m, self.prog.roles
        i = roles.index(role)
        nobody_chooses = m.conj(m.not_(self.choice(q)) for q in roles)
        cases = [m.conj([self.choice(role)] + [m.not_(self.choice(q)) for q in roles[:i]]),
                 m.conj([nobody_chooses, self.busy(role)]
                        + [m.not_(self.busy(q)) for q in roles[:i]])]
        if i == 0:
            cases.append(m.and_(nobody_chooses, m.conj(m.not_(self.busy(q)) for q in roles)))
        u = m.disj(cases)
        self.memo[key] = u
        return u

    def wellformed(self):
        """The turn rule outside terminal states: at most one role has a choice and
        every role has a legal move."""
        key = ("wellformed",)
        if key not in self.memo:
            m = self.m
            _, two_choose = one_two([self.choice(r) for r in self.prog.roles],
                                    m.or_, m.and_, m.false)
            every = m.conj(self._counts(r)[0] for r in self.prog.roles)
            self.memo[key] = m.diff(every, two_choose)
        return self.memo[key]

    def changed(self, role, move) -> dict:
        """{fluent: BDD of next(f) with r playing m} for the fluents it does not keep."""
        key = ("changed", role, move)
        if key not in self.memo:
            ctx = (role, move)
            out = {}
            for f in self.prog.fluents:
                e = self.atom(("next", (f,)), ctx)
                if e != self.cur[f]:
                    out[f] = e
            self.memo[key] = out
        return self.memo[key]

    def step(self, role, move):
        """(rel, quantified current bits, renaming x'_C → x_C) of the move (module docstring)."""
        key = (role, move)
        hit = self._steps.get(key)
        if hit is None:
            m = self.m
            ch = self.changed(role, move)
            rel = m.conj(m.iff(self.nxt[f], e) for f, e in ch.items())
            hit = (rel, frozenset(self.bit[f] for f in ch),
                   {self.bit_next[f]: self.bit[f] for f in ch})
            self._steps[key] = hit
        return hit


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
