"""The engines of a GDL game: the symbolic one restricted to the reachable
states, and the explicit GDL engine (:mod:`symbolic.gdl.explicit`).

Symbolic: the IR game of the translation is compiled to BDDs as any model
(δ from the ground rules, no state enumerated); then the reachable states are
the least fixpoint R = μX. I ∪ post(X), post(X) = ∃x. (δ(x, x') ∧ X(x))[x' := x],
and the engine's domain becomes R (δ, turn sets and the successor test are
restricted to it; R is closed under δ). Before that, the turn reading is
checked: the first breadth-first layer holding a non-terminal state where the
``wellformed`` expression fails gives a ModelError naming one such state.
"""
from __future__ import annotations

from ..api import least_fixpoint
from ..bdd.engine import BddSet, SymbolicGame
from ..errors import ModelError
from .explicit import GdlEvaluator, GdlExplicitGame, describe_state
from .game import GdlGame

__all__ = ["GdlSymbolicGame", "GdlExplicitGame", "gdl_engine"]


class GdlSymbolicGame(SymbolicGame):
    """:class:`~symbolic.bdd.SymbolicGame` of a :class:`GdlGame`, whose positions are
    the reachable states; ``reach`` is the fixpoint (iterations = depth)."""

    def __init__(self, game: GdlGame, backend: str = "cudd", partition: str = "moves", *,
                 order: str = "auto", max_memory: int | None = None):
        super().__init__(game, backend, partition, order=order, max_memory=max_memory)
        m, enc = self.manager, self.encoder
        init = self.from_expr(game_initial(game))
        ok = self.from_expr(game.wellformed)

        def step(x: BddSet) -> BddSet:
            bad = x - ok
            if not bad.is_empty():
                self._not_turn_based(bad.first())
            nxt = m.disj(m.and_exists(r, x.node, enc.current_set) for _, r in self._parts)
            return x | BddSet._make(self, m.rename(nxt, enc.to_current))

        self.reach = least_fixpoint(step, init)
        self._restrict(self.reach.result.node)

    def _not_turn_based(self, pos: tuple):
        prog = self.game.program
        state = frozenset(f for f, v in zip(prog.fluents, pos) if v)
        ev = GdlEvaluator(prog)
        ev.mover(state, ev.legal(state))  # raises the detailed error
        raise ModelError("not a turn-based game at "                  # pragma: no cover
                         + describe_state(prog, state, ev.legal(state)))

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


def game_initial(game: GdlGame):
    """The IR expression of the initial state (the conjunction of fluent literals)."""
    from ..ir import Var, conj
    prog, tr = game.program, game.translation
    return conj(Var(tr.var_of[f]) if f in prog.init else ~Var(tr.var_of[f])
                for f in prog.fluents)


def gdl_engine(game: GdlGame, engine: str, backend: str, order: str, partition: str):
    """The engine of kind ``engine`` for a GDL game (``None`` for an unknown kind)."""
    if engine == "symbolic":
        return GdlSymbolicGame(game, backend=backend, partition=partition, order=order)
    if engine == "explicit":
        return GdlExplicitGame(game)
    return None
