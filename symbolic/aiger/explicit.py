"""The explicit engine of a SYNTCOMP safety circuit: the game of :mod:`.build` by
enumeration, each move computed by simulating the circuit (:func:`~.circuit.simulate`),
sharing no code with the symbolic engine.

Positions are the value vectors of the model's space where the invariant holds (in
lexicographic order, :class:`~symbolic.explicit.sets.ExplicitSets`); an environment's
position (``env_moved`` 0) has one successor per valuation u of the environment's
inputs, a controller's position one per valuation c of the controllable inputs (the
circuit simulated on the latches, u and c). The queries are those of
:class:`~symbolic.explicit.counting.CountingGame`. For small circuits only: the
controller's positions alone number 2^(latches + environment's inputs).

>>> from .build import aiger_model
>>> from .reader import parse_aiger
>>> G = AigerExplicitGame(aiger_model(parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 u\\n")).game)
>>> G.successors((0, 0, 0)).tuples()
[(1, 0, 0), (1, 0, 1)]
>>> G.successors((1, 0, 1)).tuples()
[(0, 1, 0)]
"""

from __future__ import annotations

import itertools

from ..explicit.counting import CountingGame
from ..explicit.engine import ExplicitRelation
from ..explicit.graph import IndexedGraph, TurnTable
from ..explicit.sets import DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets
from ..limits import Limits
from .build import CONTROLLER, ENVIRONMENT, AigerGame, AigerNames
from .circuit import Circuit, literal_value, simulate
from .safety import SafetyRun

__all__ = ["AigerExplicitGame", "closed_circuit_safe"]


class AigerExplicitGame(ExplicitSets, CountingGame):
    """An :class:`AigerGame` by enumeration (module docstring)."""

    def __init__(
        self,
        game: AigerGame,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        limits: Limits | None = None,
    ):
        if not isinstance(game, AigerGame) or game.circuit is None or game.names is None:
            raise AssertionError(game)
        ExplicitSets.__init__(
            self, game.space, game.invariant, max_positions=max_positions, limits=limits
        )
        CountingGame.__init__(self)
        self.game = game
        #: the circuit and its names, as the game holds them
        self.circuit: Circuit = game.circuit
        self.aiger_names: AigerNames = game.names
        c, names = self.circuit, self.aiger_names
        self._latch_lits = c.latches
        self._env_lits = tuple(c.inputs[k] for k in names.env_index)
        self._ctrl_lits = tuple(c.inputs[k] for k in names.ctrl_index)

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<AigerExplicitGame {self.game.name!r}: {n} positions>"

    def _moves(self, pos: tuple) -> list[tuple]:
        """δ(c) as position tuples (layout: env_moved, error, latches, env inputs)."""
        nl = len(self._latch_lits)
        x = pos[2 : 2 + nl]
        if not pos[0]:  # the environment picks its inputs
            return [(1, 0, *x, *u) for u in itertools.product((0, 1), repeat=len(self._env_lits))]
        c, state = self.circuit, dict(zip(self._latch_lits, x))
        env = dict(zip(self._env_lits, pos[2 + nl :]))
        out = set()
        zeros = (0,) * len(self._env_lits)
        for k in itertools.product((0, 1), repeat=len(self._ctrl_lits)):
            value = simulate(c, state, {**env, **dict(zip(self._ctrl_lits, k))})
            nxt = tuple(literal_value(value, n) for n in c.next_state)
            out.add((0, literal_value(value, c.outputs[0]), *nxt, *zeros))
        return sorted(out)

    def _build_graph(self) -> IndexedGraph:
        """δ over indices, by simulation (once); the turn table built and checked first."""
        with self.limits.stage("building δ (explicit, simulating the circuit)"):
            dom = self._domain()
            index, check, total = self._index or {}, self.limits.check, len(dom)
            succ = []
            for i, pos in enumerate(dom):
                if not i & 1023:
                    check(f"position {i} of {total}")
                succ.append(tuple(sorted(index[t] for t in self._moves(pos))))
        graph = IndexedGraph.of(succ)
        self.turn_table()
        return graph

    def _build_turns(self) -> TurnTable:
        """The controller at its positions (``env_moved`` 1), the environment elsewhere."""
        return TurnTable(
            [CONTROLLER if pos[0] else ENVIRONMENT for pos in self._domain()], self.game.players
        )

    def successors(self, pos) -> ExplicitSet:
        """δ(c), by simulation."""
        return ExplicitSet(self, frozenset(self._moves(self._position(pos))))

    def moves_between(self, source, target):
        """{(c, c') | c ∈ S, c' ∈ T ∩ δ(c)}."""
        s, t = self._own(source).items, self._own(target).items
        pairs = frozenset((c, d) for c in s for d in self._moves(c) if d in t)
        return ExplicitRelation(self, pairs)

    def safety_fixpoint(self, guess: bool = False) -> SafetyRun:
        """(realizable, winning, winning_size, iterations, proof, keep) by the safety fixpoint over
        latch valuations, the same iterates as the symbolic engine's
        (:meth:`~symbolic.aiger.symbolic.AigerSymbolicGame.safety_fixpoint`) computed
        by simulation: Z_0 = every valuation, Z_{k+1} = {x ∈ Z_k | ∀u ∃c. ¬err ∧
        next ∈ Z_k}, stopped as soon as an initial valuation leaves Z (``winning`` and
        ``winning_size`` None) or Z is stable (``winning``: a function that gives the
        game's positions where ⟨⟨controller⟩⟩□¬error holds, as the symbolic engine's;
        ``keep`` is the same function). ``guess`` is accepted and ignored: enumeration
        tries no invariant, its circuits are small.

        >>> from .build import aiger_model
        >>> from .reader import parse_aiger
        >>> g = aiger_model(parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 u\\n")).game
        >>> tuple(AigerExplicitGame(g).safety_fixpoint())
        (False, None, None, 1, 'initial', None)
        """
        c, check = self.circuit, self.limits.check
        bits = (0, 1)
        states = list(itertools.product(bits, repeat=len(self._latch_lits)))
        envs = list(itertools.product(bits, repeat=len(self._env_lits)))
        ctrls = list(itertools.product(bits, repeat=len(self._ctrl_lits)))
        options: dict[tuple, frozenset] = {}  # (x, u) -> the next states without error
        with self.limits.stage("the safety fixpoint (explicit, simulating the circuit)"):
            for i, x in enumerate(states):
                if not i & 255:
                    check(f"latch valuation {i} of {len(states)}")
                latches = dict(zip(self._latch_lits, x))
                for u in envs:
                    env = dict(zip(self._env_lits, u))
                    nxt = set()
                    for k in ctrls:
                        value = simulate(c, latches, {**env, **dict(zip(self._ctrl_lits, k))})
                        if not literal_value(value, c.outputs[0]):
                            nxt.add(tuple(literal_value(value, n) for n in c.next_state))
                    options[x, u] = frozenset(nxt)
            init = [x for x in states if all(r not in (0, 1) or v == r for v, r in zip(x, c.reset))]
            z, steps = set(states), 0
            while True:
                steps += 1
                check(f"iteration {steps}")
                new = {x for x in z if all(not options[x, u].isdisjoint(z) for u in envs)}
                if any(x not in new for x in init):
                    return SafetyRun(False, None, None, steps, "initial", None)
                if new == z:
                    break
                z = new
        zeros = (0,) * len(self._env_lits)
        won = {(0, 0, *x, *zeros) for x in z}
        won |= {(1, 0, *x, *u) for (x, u), nxt in options.items() if not nxt.isdisjoint(z)}
        region = ExplicitSet(self, frozenset(won))
        return SafetyRun(True, lambda: region, len(z), steps, "fixpoint", lambda: region)

    def winning_size(self, won) -> int:
        """The latch valuations whose environment's position (``error`` 0) is in ``won``."""
        return sum(1 for pos in self._own(won).items if not pos[0] and not pos[1])


def closed_circuit_safe(circuit: Circuit, limits: Limits) -> bool:
    """Does ``circuit``, which has no controllable input (a controller closed into it),
    keep its error at 0 from its initial latch values whatever its inputs? Every
    reachable latch valuation is simulated under every input valuation, breadth first:
    the work is the reachable states, not the fixpoint's iterations (a counter the
    controller resets needs 2ⁿ⁻¹ of those). A latch without a reset value starts at
    both values.

    >>> from .reader import parse_aiger
    >>> closed_circuit_safe(parse_aiger("aag 2 1 1 1 0\\n2\\n4 2\\n4\\n"), Limits())
    False
    >>> closed_circuit_safe(parse_aiger("aag 2 1 1 1 0\\n2\\n4 0\\n4\\n"), Limits())
    True
    """
    c = circuit
    if any(c.controllable):
        raise AssertionError(c.input_names)
    free = [k for k, r in enumerate(c.reset) if r not in (0, 1)]
    seen: set[tuple[int, ...]] = set()
    for bits in itertools.product((0, 1), repeat=len(free)):
        start = [r if r in (0, 1) else 0 for r in c.reset]
        for k, b in zip(free, bits):
            start[k] = b
        seen.add(tuple(start))
    todo = list(seen)
    inputs = list(itertools.product((0, 1), repeat=len(c.inputs)))
    with limits.stage("simulating the closed circuit's reachable states"):
        while todo:
            x = todo.pop()
            if not len(seen) & 1023:
                limits.check(f"{len(seen)} reachable states")
            latches = dict(zip(c.latches, x))
            for u in inputs:
                value = simulate(c, latches, dict(zip(c.inputs, u)))
                if literal_value(value, c.outputs[0]):
                    return False
                nxt = tuple(literal_value(value, n) for n in c.next_state)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return True
