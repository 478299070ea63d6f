"""The explicit engine of a simultaneous-move GDL game: joint moves enumerated.

The positions are the states reachable from ``init`` (explored breadth-first
by :func:`~.explicit_graph.explore`, as for a turn-based game, but with no
turn rule: every joint move of a non-terminal state is followed). For an
expanded non-terminal state c, A_r(c) is the set of legal moves of role r and
δ(c, a) the state of the fluents whose ``next`` holds under the joint move a;
a terminal state and a state of the frontier (``depth``) have no action (so
no successor). The exploration records the joint moves compactly
(:class:`~.explicit_graph.JointMoves`: per position its A(c), shared, and
δ(c, a) for each a as one int in an array), and the concurrent pre-image

    pre(J, Z) = { c | ∃ a_J ∈ A_J(c) ∀ a_{−J} ∈ A_{−J}(c) : δ(c, a_J, a_{−J}) ∈ Z }

is computed on it with Z as bits (:class:`~.explicit.GdlSet`): for each A(c),
once, the joint moves grouped by a_J; c is in pre(J, Z) when every δ of some
group is in Z. Dead ends (some role without a legal move, terminal and
frontier states) follow :mod:`symbolic.concurrent`: with ``DeadEnds.VACUOUS``
a dead end is in pre(J, Z) iff every role of J has a move there, with
``DeadEnds.STRICT`` never. Every ATL operator follows from pre
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

import itertools

from ..api import PositionSet
from ..concurrent import ConcurrentEngine
from ..explicit.counting import IndexedEngine
from ..explicit.sets import DEFAULT_MAX_POSITIONS
from ..limits import Limits
from .explicit import GdlPositions, GdlSet
from .explicit_graph import JointMoves
from .engine import GdlEngine
from .game import GdlGame
from .ground import term_text

__all__ = ["GdlExplicitConcurrentGame"]


class GdlExplicitConcurrentGame(GdlPositions, IndexedEngine, ConcurrentEngine[GdlSet], GdlEngine):
    """A GDL game read as a concurrent game (module docstring): the explored positions of
    :class:`~.explicit.GdlPositions` (layers, frontier, successors, atom sets), the
    queries read off their graph (:class:`~symbolic.explicit.counting.IndexedEngine`),
    and the concurrent pre-image, every ATL operator following from it
    (:class:`~symbolic.concurrent.ConcurrentEngine`)."""

    game: GdlGame

    def __init__(
        self,
        game: GdlGame,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        limits: Limits | None = None,
        depth: int | None = None,
    ):
        GdlPositions.__init__(
            self, game, max_positions=max_positions, limits=limits, depth=depth, concurrent=True
        )
        IndexedEngine.__init__(self)
        self._plans: dict = {}  # _plan: how pre(J, ·) reads each A(c)

    def _joint(self) -> JointMoves:
        """The joint moves of the explored positions (recorded: explored as concurrent)."""
        jm = self._explore().joint
        assert jm is not None  # GdlPositions.__init__(concurrent=True) records them
        return jm

    def _plan(self, k: int, mine: tuple, strict: bool):
        """How pre(J, ·) reads a position whose A(c) is ``kinds[k]`` (J: the role indices
        ``mine``): True (a dead end in it), () (a dead end out of it), or the flat
        indices of its joint moves grouped by a_J (cached)."""
        key = (k, mine, strict)
        plan = self._plans.get(key)
        if plan is None:
            en = self._joint().kinds[k]
            if any(not e for e in en):
                plan = not strict and all(en[r] for r in mine) or ()
            else:
                groups: dict = {}
                for f, a in enumerate(itertools.product(*(range(len(e)) for e in en))):
                    groups.setdefault(tuple(a[r] for r in mine), []).append(f)
                plan = tuple(tuple(g) for g in groups.values())
            self._plans[key] = plan
        return plan

    def _pre(self, J: frozenset, target: PositionSet, strict: bool) -> GdlSet:
        jm = self._joint()
        z = bytearray(len(jm.kind))
        for j in self._indices(self._own(target)):
            z[j] = 1
        mine = tuple(k for k, p in enumerate(self.game.players) if p in J)
        plans = [self._plan(k, mine, strict) for k in range(len(jm.kinds))]
        start, flat, out = jm.moves.start, jm.moves.flat, []
        for i, k in enumerate(jm.kind):
            if not i & 4095:
                self.limits.check(f"position {i} of {len(z)}")
            plan = plans[k]
            if plan is True:
                out.append(i)
            elif plan:
                row = [z[j] for j in flat[start[i] : start[i + 1]]]
                if any(all(row[f] for f in g) for g in plan):
                    out.append(i)
        return self._from_indices(out)

    def joint_moves(self, pos) -> dict[tuple[int, ...], frozenset]:
        """{a: δ(c, a)} over the enabled joint moves a (move indices in role order)."""
        i = self.index(pos)
        jm = self._joint()
        row = jm.moves[i]
        return {
            a: frozenset((self.position_at(row[f]),))
            for f, a in enumerate(itertools.product(*jm.kinds[jm.kind[i]]))
        }

    def transitions(self, pos) -> list[tuple[tuple[str, ...], tuple]]:
        """δ(c) labelled by joint move: (each role's move in GDL text, successor)."""
        prog = self.game.program
        return [
            (tuple(term_text(prog.moves[r][k]) for r, k in zip(prog.roles, a)), next(iter(t)))
            for a, t in sorted(self.joint_moves(pos).items())
        ]
