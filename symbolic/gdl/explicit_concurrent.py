"""The explicit engine of a simultaneous-move GDL game: joint moves enumerated.

The positions are the states reachable from ``init`` (explored breadth-first
by :class:`~.explicit.GdlEvaluator`, as for a turn-based game, but with no
turn rule: every joint move of a non-terminal state is followed). For an
expanded non-terminal state c, A_r(c) is the set of legal moves of role r and
δ(c, a) the state of the fluents whose ``next`` holds under the joint move a;
a terminal state and a state of the frontier (``depth``) have no action (so
no successor). The concurrent pre-image

    pre(J, Z) = { c | ∃ a_J ∈ A_J(c) ∀ a_{−J} ∈ A_{−J}(c) : δ(c, a_J, a_{−J}) ∈ Z }

is :class:`symbolic.explicit.concurrent.ExplicitConcurrentGame`'s, run on the
table of joint moves built here; every ATL operator follows from it
(:class:`symbolic.concurrent.ConcurrentEngine`).

>>> from ..model import Model
>>> from .load import gdl_model
>>> m = Model.of(gdl_model("(role a) (role b) (init s) (side x) (side y) "
...     "(<= (legal ?r ?m) (role ?r) (side ?m) (true s)) "
...     "(<= (next same) (does a ?m) (does b ?m)) "
...     "(<= (next other) (does a ?m) (not (does b ?m))) (<= terminal (not (true s))) "
...     "(<= (goal a 100) (true same)) (<= (goal a 0) (not (true same))) "
...     "(goal b 50)"), "pennies.kif")
>>> G = GdlExplicitConcurrentGame(m.game)
>>> same = G.atom_set(("goal", ("a", "100")))
>>> from symbolic.api import DeadEnds
>>> [len(G.pre(J, same, dead_ends=DeadEnds.VACUOUS)) for J in ({1}, {2}, {1, 2})]
[0, 0, 1]
"""
from __future__ import annotations

from ..concurrent import ConcurrentEngine
from ..explicit.concurrent import ExplicitConcurrentGame
from ..explicit.sets import DEFAULT_MAX_POSITIONS
from ..limits import Limits
from .explicit import GdlExplicitGame
from .game import GdlGame
from .ground import term_text

__all__ = ["GdlExplicitConcurrentGame"]


class GdlExplicitConcurrentGame(ConcurrentEngine, GdlExplicitGame):
    """:class:`~.explicit.GdlExplicitGame` read as a concurrent game (module docstring):
    its positions, layers, frontier and atom sets, the concurrent pre-image."""

    def __init__(self, game: GdlGame, *, max_positions: int = DEFAULT_MAX_POSITIONS,
                 limits: Limits | None = None, depth: int | None = None):
        GdlExplicitGame.__init__(self, game, max_positions=max_positions, limits=limits,
                                 depth=depth)
        self.evaluator.concurrent = True
        self._turn_fn = lambda c, _: 0  # no turn (turn_set raises before reading it)
        self._table: list | None = None

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<GdlExplicitConcurrentGame {self.game.name!r}: {n} positions>"

    def _build(self) -> list:
        """Per position (domain order): (A_r(c) per role as move indices, {a: δ(c, a) as
        a set of one position index}): the table ExplicitConcurrentGame._pre reads."""
        if self._table is None:
            dom = self._domain()
            ev = self.evaluator
            rules = ev.rules
            none = tuple(() for _ in self.game.players)
            table = []
            with self.limits.stage("building the joint moves (explicit, concurrent GDL)"):
                at = {s: i for i, s in enumerate(self._ints())}
                frontier = {rules.state_of(s) for s in self._frontier_states}
                for i, s in enumerate(self._ints()):
                    if not i & 1023:
                        self.limits.check(f"position {i} of {len(dom)}")
                    hit = ev.joint.get(s)
                    if hit is None or s in frontier:
                        table.append((none, {}))  # terminal, or not expanded
                        continue
                    en, moves = hit
                    table.append((en, {a: frozenset((at[t],)) for a, t in moves.items()}))
            self._table = table
        return self._table

    _pre = ExplicitConcurrentGame._pre
    _forces = staticmethod(ExplicitConcurrentGame._forces)

    def deadlocks(self):
        """The positions without an enabled joint move (terminal, frontier, a role stuck)."""
        return ConcurrentEngine.deadlocks(self)

    def transitions(self, pos) -> list[tuple[tuple[str, ...], tuple]]:
        """δ(c) labelled by joint move: (each role's move in GDL text, successor)."""
        c = self._position(pos)
        en, moves = self._build()[self._index[c]]
        prog, dom = self.game.program, self._dom
        return [(tuple(term_text(prog.moves[r][k]) for r, k in zip(prog.roles, a)),
                 dom[next(iter(t))]) for a, t in sorted(moves.items())]

