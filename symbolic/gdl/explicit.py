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

import bisect
import itertools
from array import array
from functools import partial

from ..api import Fixpoint, PositionSet
from ..errors import EngineMismatch
from ..explicit.counting import CountingGame
from ..explicit.engine import ExplicitRelation
from ..explicit.graph import IndexedGraph, TurnTable
from ..explicit.sets import (
    DEFAULT_MAX_POSITIONS,
    TupleSets,
    checked_position,
    checked_positions,
    position_limit,
    predicate,
)
from ..limits import NO_LIMITS, Limits
from .explicit_graph import StateGraph, bits_of, explore, indices
from .explicit_rules import CompiledRules
from .engine import GdlEngine, check_stop_at_best
from .game import GdlGame
from .ground import GroundProgram
from .turns import mover, turn_error

__all__ = ["GdlEvaluator", "GdlExplicitGame", "GdlPositions", "GdlSet"]


class GdlEvaluator:
    """The ground rules of ``prog`` evaluated on explicit states, through their
    bit-mask form (:class:`~.explicit_rules.CompiledRules`): states are ints inside,
    frozensets of fluents at this class's interface."""

    def __init__(self, prog: GroundProgram, concurrent: bool = False):
        self.prog = prog
        self.rules = CompiledRules(prog)
        #: read every state as concurrent (no turn rule): :meth:`graph` then follows every
        #: joint move and records them (:class:`~.explicit_graph.JointMoves`)
        self.concurrent = concurrent

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
        return [v for v in self.prog.goals[role] if self.rules.holds(("goal", (role, str(v))), s)]

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
            try:
                raise err
            finally:
                del err  # the traceback holds this frame: no cycle error → frame → error
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
        if not self.concurrent and sum(len(legal[r]) >= 2 for r in roles) >= 2:
            self.mover(c.fluents_of(s), legal)  # raises: not turn-based
        who = None if self.concurrent else mover(roles, legal)
        return who, {
            c.next_state(v, tuple(zip(roles, combo)))
            for combo in itertools.product(*(legal[r] for r in roles))
        }

    def graph(
        self,
        limit: int | None = None,
        limits: Limits = NO_LIMITS,
        depth: int | None = None,
        stop_at_best: bool = False,
    ) -> StateGraph:
        """The compact graph of the states reachable from init in at most ``depth`` moves
        (:func:`~.explicit_graph.explore`: states as ints, edges in arrays; with
        ``stop_at_best``, up to the first layer of the best goal)."""

        def refuse(state, legal):
            self.mover(state, legal)  # raises: not turn-based

        return explore(self.rules, refuse, limit, limits, depth, self.concurrent, stop_at_best)

    def reachable(
        self, limit: int | None = None, limits: Limits = NO_LIMITS, depth: int | None = None
    ) -> tuple[dict, list[int], set]:
        """({state: (mover, successors)}, the number of states first reached at each
        depth, the frontier) for the states reachable from init in at most ``depth``
        moves (all when None), breadth-first, layer by layer, states as frozensets of
        fluents (:meth:`graph` is the compact form). When states lie beyond depth
        ``depth``, the states of that last layer are the frontier: kept with their mover
        but no successor. TooManyPositions beyond ``limit`` states, LimitExceeded when
        ``limits`` says time is up (checked every 64 states)."""
        g = self.graph(limit, limits, depth)
        fs = [self.rules.fluents_of(s) for s in g.states]
        roles = self.prog.roles
        return (
            {fs[i]: (roles[g.movers[i]], {fs[j] for j in g.succ[i]}) for i in range(len(fs))},
            g.layers,
            {fs[i] for i in indices(g.frontier)},
        )


class GdlSet(PositionSet):
    """A set of positions of a :class:`GdlPositions`: an int whose bit i stands for
    the engine's position i (N/8 bytes however many it holds; tuples at the interface)."""

    __slots__ = ("engine", "bits")
    engine: GdlPositions

    def __init__(self, engine: "GdlPositions", bits: int):
        self.engine, self.bits = engine, bits

    def count(self) -> int:
        return self.bits.bit_count()

    def _contains(self, pos: tuple) -> bool:
        i = self.engine._find(pos)
        return i is not None and bool(self.bits >> i & 1)

    def tuples(self) -> list[tuple]:
        return [self.engine.position_at(i) for i in indices(self.bits)]

    def _take(self, n: int):
        return iter([self.engine.position_at(i) for i in indices(self.bits)[:n]])

    @property
    def items(self) -> frozenset:
        """The positions as a frozenset of tuples (as :class:`ExplicitSet` has them)."""
        return frozenset(self.tuples())

    def _union(self, other):
        return GdlSet(self.engine, self.bits | other.bits)

    def _inter(self, other):
        return GdlSet(self.engine, self.bits & other.bits)

    def _diff(self, other):
        return GdlSet(self.engine, self.bits & ~other.bits)

    def _same(self, other) -> bool:
        return self.bits == other.bits


class GdlPositions(TupleSets):
    """The positions of a GDL game as the explicit engines explore them, and their sets:
    the part :class:`GdlExplicitGame` and :class:`~.explicit_concurrent.GdlExplicitConcurrentGame`
    share (:mod:`symbolic.explicit.sets` is the model's).

    The graph is kept compact (:mod:`~.explicit_graph`): position i is the i-th
    reachable state (an int, in the order of position tuples), δ and its inverse
    are arrays of indices, and sets are :class:`GdlSet` (bits over the indices);
    :meth:`_build_graph` gives δ as the :class:`~symbolic.explicit.graph.IndexedGraph`
    the counting algorithms read. Named sets are evaluated from their IR expressions
    on the positions."""

    kind = "explicit"

    def __init__(
        self,
        game: GdlGame,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        limits: Limits | None = None,
        depth: int | None = None,
        concurrent: bool = False,
        stop_at_best: bool = False,
    ):
        if not isinstance(game, GdlGame):
            raise AssertionError(game)
        check_stop_at_best(stop_at_best, game.program)
        self.stop_at_best = stop_at_best
        self.space, self.invariant, self.game = game.space, game.invariant, game
        self.max_positions, self.limits = position_limit(max_positions, limits)
        self.evaluator = GdlEvaluator(game.program, concurrent)
        self.depth = depth
        self._rules = self.evaluator.rules
        self._fluents = game.program.fluents
        self._g: StateGraph | None = None

    def __repr__(self) -> str:
        n = "?" if self._g is None else len(self._g.states)
        return f"<{type(self).__name__} {self.game.name!r}: {n} positions>"

    def _state(self, pos: tuple) -> frozenset:
        return frozenset(f for f, v in zip(self._fluents, pos) if v)

    def _explore(self) -> StateGraph:
        if self._g is None:
            self._g = self.evaluator.graph(
                self.max_positions, self.limits, self.depth, self.stop_at_best
            )
        return self._g

    @property
    def layers(self) -> list[int]:
        """The number of states first reached at each depth."""
        return self._explore().layers

    @property
    def complete(self) -> bool:
        """Whether every reachable state is a position (no frontier)."""
        return not self._explore().frontier

    @property
    def frontier(self) -> GdlSet:
        """The positions not expanded (∅ unless ``depth`` cut the exploration short)."""
        return GdlSet(self, self._explore().frontier)

    def atom_set(self, atom, within: PositionSet | None = None) -> GdlSet:
        """The positions (of ``within``, when given) where the ground atom (not
        depending on ``does``) holds."""
        held = self._from_indices(self._rules.holding(atom, self._explore().states))
        return held if within is None else held & within

    def check_size(self) -> None:
        """TooManyPositions when more states are reachable than ``max_positions``."""
        self._explore()

    # ------------------------------------------------------------ positions and sets

    def _domain(self) -> list[int]:
        """The positions' states (ints), in position order."""
        return self._explore().states

    def _find(self, pos: tuple) -> int | None:
        """The index of an in-range position tuple, None when it is not reachable."""
        states = self._domain()
        s = self._rules.state_of_position(pos)
        i = bisect.bisect_left(states, s)
        return i if i < len(states) and states[i] == s else None

    def _is_position(self, pos: tuple) -> bool:
        return self._find(pos) is not None

    def _position(self, pos) -> tuple:
        """``pos`` normalised; RangeError out of range or when it is not reachable."""
        return checked_position(self.space, pos, self._is_position)

    def position_at(self, i: int) -> tuple:
        """The position of index ``i``."""
        return self._rules.position_of(self._domain()[i])

    def index(self, pos) -> int:
        i = self._find(self._position(pos))
        assert i is not None  # a position (checked) is reachable
        return i

    def _own(self, s) -> GdlSet:
        if not isinstance(s, GdlSet) or s.engine is not self:
            raise EngineMismatch(f"{s!r} is not a set of {self!r}: convert it first")
        return s

    def _indices(self, s: GdlSet) -> list[int]:
        return indices(s.bits)

    def _from_indices(self, idx) -> GdlSet:
        return GdlSet(self, bits_of(idx, len(self._domain())))

    def _set_of(self, positions: frozenset) -> GdlSet:
        """The set of the given positions (tuples already checked)."""
        return self._from_indices([self._find(t) for t in positions])

    def empty(self) -> GdlSet:
        return GdlSet(self, 0)

    def positions(self) -> GdlSet:
        return GdlSet(self, (1 << len(self._domain())) - 1)

    def from_tuples(self, tuples) -> GdlSet:
        return self._set_of(checked_positions(self.space, tuples, self._is_position))

    def _from_expr(self, expr, env: dict) -> GdlSet:
        """{c ∈ positions | expr(c)} for a bool expression over current variables."""
        f, at = predicate(expr, self.space, env), self.position_at
        if isinstance(f, bool):
            return self.positions() if f else self.empty()
        return self._from_indices(i for i in range(len(self._domain())) if f(at(i), None))

    def _fixpoint(self, layers: list[list[int]], keep_layers: bool) -> Fixpoint:
        n, acc, cumulative = len(self._domain()), 0, []
        for layer in layers:
            acc |= bits_of(layer, n)
            if keep_layers:
                cumulative.append(GdlSet(self, acc))
        return Fixpoint(
            GdlSet(self, acc), len(layers) - 1, tuple(cumulative) if keep_layers else None
        )

    # ------------------------------------------------------------ the explored graph

    def _build_graph(self) -> IndexedGraph:
        """δ of the explored states, its inverse derived (the predecessor lists)."""
        g = self._explore()
        with self.limits.stage("building the predecessor lists (explicit)"):
            pred = g.succ.transposed()
        return IndexedGraph(g.succ, pred, g.succ.degrees())

    def successors(self, pos) -> GdlSet:
        i = self.index(pos)
        return self._from_indices(self._explore().succ[i])

    def moves_between(self, source, target) -> ExplicitRelation:
        """{(c, c') | c ∈ S, c' ∈ T ∩ δ(c)} from the successor rows."""
        s = self._indices(self._own(source))
        t = self._own(target).bits
        succ = self._explore().succ
        at = self.position_at
        return ExplicitRelation(
            self, frozenset((at(i), at(j)) for i in s for j in succ[i] if t >> j & 1)
        )


class GdlExplicitGame(GdlPositions, CountingGame, GdlEngine):
    """A turn-based GDL game by explicit exploration: its positions, turns and
    successors come from :class:`GdlEvaluator` (the IR moves are not read), kept as
    :class:`GdlPositions`; the queries are :class:`~symbolic.explicit.counting.CountingGame`'s
    on the explored graph, the turn being the mover of :mod:`~.turns`."""

    game: GdlGame

    def __init__(
        self,
        game: GdlGame,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        limits: Limits | None = None,
        depth: int | None = None,
        stop_at_best: bool = False,
    ):
        GdlPositions.__init__(
            self,
            game,
            max_positions=max_positions,
            limits=limits,
            depth=depth,
            stop_at_best=stop_at_best,
        )
        CountingGame.__init__(self)

    def _build_graph(self) -> IndexedGraph:
        """The explored graph; the turn table is built and checked before it is kept."""
        graph = GdlPositions._build_graph(self)
        self.turn_table()
        return graph

    def _build_turns(self) -> TurnTable:
        """The mover of every explored state, as its role's player number."""
        ids = [self.game.names.role_id[r] for r in self.game.program.roles]
        turns = array("i", [ids[k] for k in self._explore().movers])
        return TurnTable(turns, self.game.players, row=partial(array, "i"))

    def transitions(self, pos) -> list[tuple[str, dict, tuple]]:
        """δ(c) labelled by the mover's move (its IR move name), in move order."""
        i = self.index(pos)
        c = self.position_at(i)
        state = self._state(c)
        ev = self.evaluator
        if ev.terminal(state) or self._explore().frontier >> i & 1:
            return []
        legal = ev.legal(state)
        mover = ev.mover(state, legal)
        out: list[tuple[str, dict, tuple]] = []
        for m in legal[mover]:
            # the other roles play their single (forced) legal move
            joint = {r: (m if r == mover else legal[r][0]) for r in self.evaluator.prog.roles}
            out.append(
                (
                    self.game.names.move_of[(mover, m)],
                    {},
                    tuple(int(f in ev.next_state(state, joint)) for f in self._fluents),
                )
            )
        return out
