"""The symbolic engine of a GDL game, restricted to the reachable states (the
explicit one is :mod:`symbolic.gdl.explicit`; they share no code but the turn
rule of :mod:`symbolic.gdl.turns`).

Symbolic: δ is built as BDDs directly from the ground rules (one BDD per
ground atom, memoized; no state enumerated; :class:`RuleBdds`): for the move
m of role r,

    δ_{r,m}(x, x') = mover_r(x) ∧ legal(r, m)(x) ∧ ¬terminal(x) ∧ ⋀_f (f' ↔ next(f)[does := r plays m, the others noop])(x)

with the mover rule of :mod:`symbolic.gdl.translate`; the turn and the named
sets are the IR's (the translation). Then the reachable states are
the least fixpoint R = μX. I ∪ post(X), post(X) = ∃x. (δ(x, x') ∧ X(x))[x' := x],
and the engine's domain becomes R (δ, turn sets and the successor test are
restricted to it; R is closed under δ). Before that, the turn reading is
checked: the first breadth-first layer holding a non-terminal state where the
``wellformed`` expression fails gives a ModelError naming one such state.
"""
from __future__ import annotations

import dataclasses

from ..api import least_fixpoint
from ..bdd.engine import BddSet, SymbolicGame
from ..ir import Const, Var, conj
from .game import GdlGame
from .turns import NOOP, turn_error

__all__ = ["GdlSymbolicGame", "RuleBdds", "image", "reachable_layers"]


class GdlSymbolicGame(SymbolicGame):
    """:class:`~symbolic.bdd.SymbolicGame` of a :class:`GdlGame`, whose positions are
    the reachable states; ``reach`` is the fixpoint (iterations = depth)."""

    def __init__(self, game: GdlGame, backend: str = "cudd", partition: str = "moves", *,
                 order: str = "auto", max_memory: int | None = None, explore: bool = True):
        # the turn sets come from the rule BDDs too (compiling the translation's turn
        # expression would rebuild every legal set from the IR): the base class gets a
        # constant turn, replaced below before anything reads it
        super().__init__(dataclasses.replace(game, turn=Const(game.players[0])), backend,
                         partition, order=order, max_memory=max_memory)
        self.game = game
        rules, m = self._rule_bdds(), self.manager
        ids = game.translation.role_id
        self._turn_of = {ids[r]: m.and_(rules.mover(r), self._domain) for r in game.program.roles}
        self._coalition_cache = {}
        self.check_turns()
        self.reach = None
        if not explore:  # δ only, over every value vector (for reachable_layers)
            return
        init = self.from_expr(game_initial(game))
        ok = BddSet._make(self, self.manager.and_(self._rule_bdds().wellformed(), self._domain))

        def step(x: BddSet) -> BddSet:
            bad = x - ok
            if not bad.is_empty():
                self._not_turn_based(bad.first())
            return x | image(self, x)

        self.reach = least_fixpoint(step, init)
        self._restrict(self.reach.result.node)

    def _rule_bdds(self) -> "RuleBdds":
        if getattr(self, "_rules", None) is None:
            self._rules = RuleBdds(self.manager, self.encoder, self.game)
        return self._rules

    def _move_relation(self, move):
        """δ of one IR move, built from the ground rules (see the module docstring)."""
        role, gdl_move = self.game.translation.move_named[move.name]
        m = self.manager
        rel = self._rule_bdds().move(role, gdl_move)
        return m.and_(rel, m.and_(self._domain, self.domain_next()))

    def _not_turn_based(self, pos: tuple):
        """Raise the error of :func:`~.turns.turn_error` for position ``pos``."""
        prog, rules, m = self.game.program, self._rule_bdds(), self.manager
        state = frozenset(f for f, v in zip(prog.fluents, pos) if v)
        cube = self.encoder.assignment(pos)
        legal = {r: [mv for mv in prog.moves[r]
                     if m.is_true(m.restrict(rules.legal(r, mv), cube))] for r in prog.roles}
        err = turn_error(prog.roles, state, legal, prog.fluents)
        if err is None:
            raise AssertionError(pos)
        raise err

    def _restrict(self, node) -> None:
        """Make ``node`` (closed under δ) the domain: every cached relation follows."""
        m = self.manager
        self._domain = node
        self._domain_next = None
        self._turn_of = {p: m.and_(t, node) for p, t in self._turn_of.items()}
        self._parts = [(name, m.and_(r, node)) for name, r in self._parts]
        self._has_succ = m.and_(self._has_succ, node)
        self._coalition_cache = {}
        self._delta = None
        self._renamed = {}


class RuleBdds:
    """BDDs of the ground atoms of a GDL game over an engine's bits, memoized per
    atom (and per move for the atoms that depend on ``does``)."""

    def __init__(self, manager, encoder, game: GdlGame):
        self.m = manager
        self.prog = game.program
        tr = game.translation
        self.cur = {f: encoder.boolean(Var(tr.var_of[f])) for f in self.prog.fluents}
        self.nxt = {f: encoder.boolean(Var(tr.var_of[f], primed=True), primed=True)
                    for f in self.prog.fluents}
        self.memo: dict = {}
        self.does_dep: dict = {}

    def _depends(self, atom) -> bool:
        if atom[0] == "does":
            return True
        hit = self.does_dep.get(atom)
        if hit is None:
            hit = any(self._depends(a) for body in self.prog.rules.get(atom, ()) for _, a in body)
            self.does_dep[atom] = hit
        return hit

    def atom(self, atom, ctx=None):
        """The BDD of a ground atom; ``ctx`` = (mover, move) fixes ``does``."""
        name, args = atom
        m = self.m
        if name == "true":
            return self.cur[args[0]]
        if name == "does":
            mover, move = ctx
            return m.const(args[1] == move if args[0] == mover else args[1] == NOOP)
        key = (atom, ctx if self._depends(atom) else None)
        hit = self.memo.get(key)
        if hit is None:
            hit = m.disj(m.conj(self.atom(a, ctx) if kind == "pos" else m.not_(self.atom(a, ctx))
                                for kind, a in body)
                         for body in self.prog.rules.get(atom, ()))
            self.memo[key] = hit
        return hit

    def legal(self, role, move):
        return self.atom(("legal", (role, move)))

    def active(self, role):
        key = ("active", role)
        if key not in self.memo:
            self.memo[key] = self.m.disj(
                self.legal(role, mv) for mv in self.prog.moves[role] if mv != NOOP)
        return self.memo[key]

    def mover(self, role):
        """The first active role, else the first role (as the translation's turn)."""
        key = ("mover", role)
        if key in self.memo:
            return self.memo[key]
        m, roles = self.m, self.prog.roles
        i = roles.index(role)
        earlier = m.conj(m.not_(self.active(q)) for q in roles[:i])
        if i == 0:
            u = m.or_(self.active(role), m.conj(m.not_(self.active(q)) for q in roles))
        else:
            u = m.and_(earlier, self.active(role))
        self.memo[key] = u
        return u

    def move(self, role, move):
        m = self.m
        ctx = (role, move)
        guard = m.conj([self.mover(role), self.legal(role, move),
                        m.not_(self.atom(("terminal", ())))])
        effect = m.conj(m.iff(self.nxt[f], self.atom(("next", (f,)), ctx))
                        for f in self.prog.fluents)
        return m.and_(guard, effect)

    def wellformed(self):
        """Terminal, or: at most one active role, every other role has exactly the move
        noop, and the mover has a legal move."""
        m, roles = self.m, self.prog.roles
        two = m.disj(m.and_(self.active(p), self.active(q))
                     for i, p in enumerate(roles) for q in roles[i + 1:])
        noop_only = m.conj(m.or_(self.mover(r), m.and_(m.not_(self.active(r)),
                                                         self.legal(r, NOOP)))
                           for r in roles)
        can_move = m.conj(m.or_(m.not_(self.mover(r)),
                                m.disj(self.legal(r, mv) for mv in self.prog.moves[r]))
                          for r in roles)
        ok = m.conj([m.not_(two), noop_only, can_move])
        return m.or_(self.atom(("terminal", ())), ok)


def image(engine: SymbolicGame, x: BddSet) -> BddSet:
    """post(X) = {c' | ∃c ∈ X. δ(c, c')} (the forward image)."""
    m, enc = engine.manager, engine.encoder
    nxt = m.disj(m.and_exists(r, x.node, enc.current_set) for _, r in engine.delta_parts())
    return BddSet._make(engine, m.rename(nxt, enc.to_current))


def reachable_layers(game: GdlGame, max_depth: int, backend: str = "cudd", *,
                     order: str = "auto", partition: str = "moves",
                     on_layer=None) -> tuple[list[int], bool]:
    """(|R_0|, ..., |R_k|), R_0 = {init}, R_{i+1} = R_i ∪ post(R_i), for k ≤ ``max_depth``,
    and whether the fixpoint was reached: a bounded look at games too large to solve
    (the turn reading is not checked here; δ is built from the ground rules).
    ``on_layer(depth, count)`` is called as each count is known."""
    eng = GdlSymbolicGame(game, backend=backend, partition=partition, order=order, explore=False)
    x = eng.from_expr(game_initial(game))
    sizes = [x.count()]
    if on_layer is not None:
        on_layer(0, sizes[0])
    for _ in range(max_depth):
        y = x | image(eng, x)
        if y == x:
            return sizes, True
        x = y
        sizes.append(x.count())
        if on_layer is not None:
            on_layer(len(sizes) - 1, sizes[-1])
    return sizes, False


def game_initial(game: GdlGame):
    """The IR expression of the initial state (the conjunction of fluent literals)."""
    prog, tr = game.program, game.translation
    return conj(Var(tr.var_of[f]) if f in prog.init else ~Var(tr.var_of[f])
                for f in prog.fluents)
