"""The explicit GDL engine: the ground rules evaluated on states (sets of true
fluents), independently of the IR moves and of the symbolic engine.

A state is a ``frozenset`` of ground fluents. An atom holds in a state under
a joint move when some ground body deriving it has all its literals true
(``true(f)``: f is in the state; ``does(r, m)``: r plays m; a negation: the
atom does not hold) — evaluated top-down with a memo (the ground program is
acyclic, :func:`~.ground.ground` checks it). The game graph is GDL's: every
joint move (one legal move per role) of a non-terminal state leads to the
state of the fluents whose ``next`` holds. Positions are the states reachable
from ``init`` (breadth-first). The mover of a state follows the rule of
:mod:`~.turns` (the role with a choice of move; the others have a single,
forced, legal move); a reachable non-terminal state where two roles have a
choice, or a role has no legal move, is a ModelError naming the state and the
roles' legal moves. The exploration obeys the limits (time, and the position
cap, which ``--max-memory`` sets).

>>> from ..model import Model
>>> from .load import gdl_model
>>> m = Model.of(gdl_model("(role a) (init (s 0)) (<= (legal a go) (true (s 0))) "
...              "(<= (next (s 1)) (does a go)) (<= terminal (true (s 1))) "
...              "(<= (goal a 100) (true (s 1)))"), "")
>>> G = GdlExplicitGame(m.game)
>>> len(G.positions()), G.successors((1, 0)).tuples()
(2, [(0, 1)])
"""
from __future__ import annotations

import itertools

from ..errors import TooManyPositions
from ..explicit.engine import ExplicitGame
from ..explicit.sets import BYTES_PER_POSITION, DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets
from ..limits import NO_LIMITS, Limits
from .explicit_rules import CompiledRules
from .game import GdlGame
from .ground import GroundProgram
from .turns import mover, turn_error

__all__ = ["GdlEvaluator", "GdlExplicitGame"]


class GdlEvaluator:
    """The ground rules of ``prog`` evaluated on explicit states, through their
    bit-mask form (:class:`~.explicit_rules.CompiledRules`): states are ints inside,
    frozensets of fluents at this class's interface."""

    def __init__(self, prog: GroundProgram, concurrent: bool = False):
        self.prog = prog
        self.rules = CompiledRules(prog)
        #: read every state as concurrent (no turn rule): then ``joint[s]`` holds, for each
        #: expanded non-terminal state s, (A_r(s) as move indices per role, {a: δ(s, a)})
        self.concurrent = concurrent
        self.joint: dict = {}
        self._index = {r: {mv: k for k, mv in enumerate(prog.moves[r])} for r in prog.roles}

    def _int(self, state: frozenset) -> int:
        return self.rules.state_of(state)

    def holds(self, atom, state: frozenset, does: dict, memo: dict | None = None) -> bool:
        """Whether the ground atom (not true/does) holds in ``state`` under ``does``."""
        return self.rules.holds(atom, self._int(state), tuple(does.items()))

    def legal(self, state: frozenset) -> dict:
        c = self.rules
        return c.legal(c.state_vector(self._int(state)))

    def terminal(self, state: frozenset) -> bool:
        c = self.rules
        return c.terminal(c.state_vector(self._int(state)))

    def goals(self, state: frozenset, role) -> list[int]:
        s = self._int(state)
        return [v for v in self.prog.goals[role]
                if self.rules.holds(("goal", (role, str(v))), s)]

    def next_state(self, state: frozenset, joint: dict) -> frozenset:
        c = self.rules
        v = c.state_vector(self._int(state))
        return c.fluents_of(c.next_state(v, tuple(joint.items())))

    def nominal_mover(self, legal: dict):
        """The mover by the rule of :mod:`~.turns` (also the nominal turn of a terminal state)."""
        return mover(self.prog.roles, legal)

    def mover(self, state: frozenset, legal: dict):
        """The role to move; ModelError when the state is not turn-based."""
        err = turn_error(self.prog.roles, state, legal, self.prog.fluents)
        if err is not None:
            raise err
        return mover(self.prog.roles, legal)

    def successors(self, state: frozenset) -> tuple:
        """(mover, {successor states}) of a state (no successor when terminal)."""
        who, succ = self._successors(self._int(state))
        return who, {self.rules.fluents_of(t) for t in succ}

    def _successors(self, s: int) -> tuple:
        """(mover, {successor states}) of the state ``s`` (an int, see :mod:`~.explicit_rules`)."""
        c = self.rules
        v = c.state_vector(s)
        legal = c.legal(v)
        if c.terminal(v):
            return self.nominal_mover(legal), set()
        roles = self.prog.roles
        if self.concurrent:
            return None, set(self._joint(s, v, legal).values())
        if sum(len(legal[r]) >= 2 for r in roles) >= 2:
            self.mover(c.fluents_of(s), legal)  # raises: not turn-based
        who = mover(roles, legal)
        return who, {c.next_state(v, tuple(zip(roles, combo)))
                     for combo in itertools.product(*(legal[r] for r in roles))}

    def _joint(self, s: int, v: int, legal: dict) -> dict:
        """{a: δ(s, a)} over the joint moves a (move indices in role order) of the
        non-terminal state ``s``, recorded in ``joint`` with the enabled indices."""
        roles, c = self.prog.roles, self.rules
        en = tuple(tuple(self._index[r][mv] for mv in legal[r]) for r in roles)
        moves = {tuple(self._index[r][mv] for r, mv in zip(roles, combo)):
                 c.next_state(v, tuple(zip(roles, combo)))
                 for combo in itertools.product(*(legal[r] for r in roles))}
        self.joint[s] = (en, moves)
        return moves

    def reachable(self, limit: int | None = None, limits: Limits = NO_LIMITS,
                  depth: int | None = None) -> tuple[dict, list[int], set]:
        """({state: (mover, successors)}, the number of states first reached at each
        depth, the frontier) for the states reachable from init in at most ``depth``
        moves (all when None), breadth-first, layer by layer. When states lie beyond
        depth ``depth``, the states of that last layer are the frontier: kept with
        their mover but no successor. TooManyPositions beyond ``limit`` states,
        LimitExceeded when ``limits`` says time is up (checked every 64 states)."""
        graph, layers, frontier = self._reachable(limit, limits, depth)
        fs = {s: self.rules.fluents_of(s) for s in graph}
        return ({fs[s]: (who, {fs[t] for t in succ}) for s, (who, succ) in graph.items()},
                layers, {fs[s] for s in frontier})

    def _reachable(self, limit, limits: Limits, depth) -> tuple[dict, list[int], set]:
        """:meth:`reachable` over int states."""
        start = self.rules.state_of(self.prog.init)
        graph: dict = {}
        seen = {start}
        layer, layers = [start], [1]
        done = 0
        with limits.stage("exploring the reachable states (explicit)"):
            while layer:
                nxt = []
                for s in layer:
                    done += 1
                    if done % 64 == 0:
                        limits.check(f"{done} states expanded", lambda: {"positions": len(seen)})
                    graph[s] = self._successors(s)
                    for t in graph[s][1]:
                        if t not in seen:
                            if limit is not None and len(seen) >= limit:
                                raise TooManyPositions(
                                    f"position limit reached: more than {limit} reachable "
                                    f"states, the explicit engine's limit (--max-memory raises "
                                    f"or lowers it, at {BYTES_PER_POSITION} bytes a state): "
                                    f"use the symbolic engine", stage=limits.where())
                            seen.add(t)
                            nxt.append(t)
                if nxt and depth is not None and len(layers) > depth:
                    frontier = set(layer)  # more states lie beyond: cut here
                    for s in frontier:
                        graph[s] = (graph[s][0], set())
                    return graph, layers, frontier
                if nxt:
                    layers.append(len(nxt))
                layer = nxt
        return graph, layers, set()


class GdlExplicitGame(ExplicitGame):
    """:class:`~symbolic.explicit.ExplicitGame` whose positions, turns and
    successors come from :class:`GdlEvaluator` (the IR moves are not read);
    named sets are still evaluated from their IR expressions on the positions."""

    def __init__(self, game: GdlGame, *, max_positions: int = DEFAULT_MAX_POSITIONS,
                 limits: Limits | None = None, depth: int | None = None):
        if not isinstance(game, GdlGame) or game.program is None:
            raise AssertionError(game)
        ExplicitSets.__init__(self, game.space, game.invariant, max_positions=max_positions,
                              limits=limits)
        self.game = game
        self.evaluator = GdlEvaluator(game.program)
        self._fluents = game.program.fluents
        self._graph_of: dict | None = None
        self.depth = depth
        self._layers: list[int] = []
        self._frontier_states: set = set()
        self._succ = self._pred = self._outdeg = self._dead = None
        self._turns = self._by_player = None
        self._masks = {}
        self._int_states: list[int] | None = None
        self._turn_fn = lambda c, _: self._role_id(self._explore()[self._state(c)][0])

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<GdlExplicitGame {self.game.name!r}: {n} positions>"

    def _role_id(self, role) -> int:
        return self.game.names.role_id[role]

    def _tuple(self, state: frozenset) -> tuple:
        return tuple(int(f in state) for f in self._fluents)

    def _state(self, pos: tuple) -> frozenset:
        return frozenset(f for f, v in zip(self._fluents, pos) if v)

    def _explore(self) -> dict:
        if self._graph_of is None:
            self._graph_of, self._layers, self._frontier_states = self.evaluator.reachable(
                self.max_positions, self.limits, self.depth)
        return self._graph_of

    @property
    def layers(self) -> list[int]:
        """The number of states first reached at each depth."""
        self._explore()
        return self._layers

    @property
    def complete(self) -> bool:
        """Whether every reachable state is a position (no frontier)."""
        self._explore()
        return not self._frontier_states

    @property
    def frontier(self) -> ExplicitSet:
        """The positions not expanded (∅ unless ``depth`` cut the exploration short)."""
        self._explore()
        return ExplicitSet(self, frozenset(self._tuple(s) for s in self._frontier_states))

    def atom_set(self, atom) -> ExplicitSet:
        """The positions where the ground atom (not depending on ``does``) holds."""
        rules = self.evaluator.rules
        return ExplicitSet(self, frozenset(c for c, s in zip(self._domain(), self._ints())
                                           if rules.holds(atom, s)))

    def _ints(self) -> list[int]:
        """The positions as the compiled rules' int states, in domain order (cached)."""
        if self._int_states is None:
            rules = self.evaluator.rules
            self._int_states = [rules.state_of(self._state(c)) for c in self._domain()]
        return self._int_states

    def check_size(self) -> None:
        """TooManyPositions when more states are reachable than ``max_positions``."""
        self._explore()

    def _domain(self) -> list[tuple]:
        if self._dom is None:
            dom = sorted(self._tuple(s) for s in self._explore())
            self._dom = dom
            self._index = dict(zip(dom, range(len(dom))))
        return self._dom

    def _is_position(self, pos: tuple) -> bool:
        self._domain()
        return pos in self._index

    def _graph(self):
        if self._succ is not None:
            return
        dom = self._domain()
        graph, index = self._explore(), self._index
        succ = [tuple(sorted(index[self._tuple(t)] for t in graph[self._state(c)][1]))
                for c in dom]
        self._set_graph(succ)

    def successors(self, pos) -> ExplicitSet:
        c = self._position(pos)
        return ExplicitSet(self, frozenset(self._tuple(t)
                                           for t in self._explore()[self._state(c)][1]))

    def transitions(self, pos) -> list[tuple[str, dict, tuple]]:
        """δ(c) labelled by the mover's move (its IR move name), in move order."""
        c = self._position(pos)
        state = self._state(c)
        ev = self.evaluator
        if ev.terminal(state) or state in self._frontier_states:
            return []
        legal = ev.legal(state)
        mover = ev.mover(state, legal)
        out = []
        for m in legal[mover]:
            # the other roles play their single (forced) legal move
            joint = {r: (m if r == mover else legal[r][0]) for r in self.evaluator.prog.roles}
            out.append((self.game.names.move_of[(mover, m)], {},
                        self._tuple(ev.next_state(state, joint))))
        return out
