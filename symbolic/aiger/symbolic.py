"""The symbolic engine of a SYNTCOMP safety circuit: the game of :mod:`.build` as BDDs,
built from the and-inverter graph (one BDD per AND gate, in the file's order), never from
the IR moves.

A move is a function of the position and of the mover's inputs, so pre-images compose
(as the GDL engine's do) instead of taking relational products over next bits: with
σ_c = {latch := next(x, u, c), error := err(x, u, c), env_moved := 0, u := 0} (the
controller's move, c its inputs, declared as extra BDD variables after the position bits)
and σ_u = {env_moved := 1, error := 0} (the environment's, u free),

    pre∃(controller, X) = T_controller ∧ ∃c. X(σ_c)      pre∀ over it: ∀c. X(σ_c)
    pre∃(environment, X) = T_environment ∧ ∃u. X(σ_u)    pre∀ over it: ∀u. X(σ_u)

Every position has a successor (a player with no input has one move). δ in parts (one
per player) is built only for the operations that list moves (successors, strategies).

>>> from .build import aiger_model
>>> from .reader import parse_aiger
>>> from ..api import DeadEnds
>>> g = aiger_model(parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 controllable_c\\n")).game
>>> G = AigerSymbolicGame(g, "autoref")
>>> from ..ir import Unary, Var
>>> safe = G.from_expr(Unary("not", Var("error")))
>>> G.release({1}, G.empty(), safe, dead_ends=DeadEnds.VACUOUS).result.count()
2
"""

from __future__ import annotations

import contextlib
from typing import Callable, Iterable

from ..api import DeadEnds
from ..bdd.forward import BddRelation
from ..bdd.relation import Coalition, DeltaParts
from ..bdd.sets import BddSet
from ..bdd.turnbased import TurnBasedGame, check_partition
from ..limits import Limits
from .build import CONTROLLER, ENVIRONMENT, AigerGame, AigerNames
from .circuit import Circuit
from .safety import GUESS_AT, STATIC_FIRST, SafetyRun, circuit_bdds, solve_safety

__all__ = ["AigerSymbolicGame"]


class AigerSymbolicGame(TurnBasedGame):
    """:class:`~symbolic.bdd.turnbased.TurnBasedGame` of an :class:`AigerGame` (the
    module docstring says how its pre-images compose). ``gates`` is the number of AND
    gates built, ``ctrl_vars`` the BDD variables of the controllable inputs."""

    def __init__(
        self,
        game: AigerGame,
        backend: str = "auto",
        partition: str = "moves",
        *,
        order: str = "auto",
        max_memory: int | None = None,
        limits: Limits | None = None,
    ):
        check_partition(partition)
        if not isinstance(game, AigerGame) or game.circuit is None or game.names is None:
            raise AssertionError(game)
        super().__init__(
            game,
            backend,
            partition,
            order="slots" if order == "auto" else order,
            max_memory=max_memory,
            limits=limits,
        )
        #: the circuit and its names, as the game holds them
        self.circuit: Circuit = game.circuit
        self.aiger_names: AigerNames = game.names
        m, enc = self.manager, self.encoder
        bit = {s.var: enc.slot_bits(i)[0] for i, s in enumerate(self.space.slots)}
        self._bit = bit
        names = self.aiger_names
        self.ctrl_vars = tuple(f"_c{k}" for k in names.ctrl_index)
        m.declare(self.ctrl_vars, "the controllable inputs")
        self._interleave_inputs()
        self._u_vars = tuple(bit[u] for u in names.env_inputs)
        #: the circuit's operations run with dynamic reordering (order "auto")
        self.sifting = order == "auto"
        self._max_memory = self.limits.max_memory_bytes if max_memory is None else max_memory
        #: the number of AND gates built (0 until an operation needs the circuit's BDDs)
        self.gates = 0
        # the circuit's BDDs in this manager, built on first use (_circuit)
        self._err = None
        self._next_of: dict = {}
        self._sigma_c: dict | None = None
        moved = m.var(bit["env_moved"])
        self._sigma_u = {bit["env_moved"]: m.true, bit["error"]: m.false}
        self._turn_of = {
            CONTROLLER: m.and_(self._domain, moved),
            ENVIRONMENT: m.diff(self._domain, moved),
        }
        self._transitions: DeltaParts | None = None

    def _interleave_inputs(self) -> None:
        """The variable order: env_moved, error, the latches (each current bit followed by
        its next bit), then the inputs in the file's order, the controllable ones among
        the environment's (an adder's operand bits side by side)."""
        enc, names = self.encoder, self.aiger_names
        slot = {s.var: i for i, s in enumerate(self.space.slots)}

        def pair(var: str) -> list[str]:
            i = slot[var]
            return [enc.slot_bits(i)[0], enc.slot_bits(i, True)[0]]

        order = pair("env_moved") + pair("error")
        env = dict(zip(names.env_index, names.env_inputs))
        ctrl = dict(zip(names.ctrl_index, self.ctrl_vars))
        for k in range(len(self.circuit.inputs)):
            order += pair(env[k]) if k in env else [ctrl[k]]
        for v in names.latches:
            order += pair(v)
        self.manager.reorder(order)

    def _reordering(self):
        """The manager's dynamic reordering (:meth:`~symbolic.bdd.contract.Manager.reordering`)
        around the circuit's work, unless a static order was asked for."""
        return self.manager.reordering() if self.sifting else contextlib.nullcontext()

    def _circuit_bdds(self, m, var_of: dict[str, str]):
        """(err, {latch variable: next-state function}) of the circuit in manager ``m``
        (:func:`.safety.circuit_bdds`); ``var_of`` names the BDD variable of each latch
        and input (by the names of :class:`AigerNames`, and ``_cK`` for controllable
        input K)."""
        latch_vars, input_vars = self._variables(var_of)
        err, nexts = circuit_bdds(m, self.circuit, latch_vars, input_vars, self.limits)
        self.gates = len(self.circuit.and_lhs)
        return err, nexts

    def _variables(self, var_of: dict[str, str]) -> tuple[list[str], list[str]]:
        """(the latches' BDD variables, the inputs' in the file's order) by ``var_of``."""
        names = self.aiger_names
        by_input = dict(zip(names.env_index, names.env_inputs))
        by_input.update(zip(names.ctrl_index, self.ctrl_vars))
        latch_vars = [var_of[v] for v in names.latches]
        return latch_vars, [var_of[by_input[k]] for k in range(len(self.circuit.inputs))]

    def _circuit(self) -> dict:
        """σ_c (the module docstring), with the circuit's BDDs in the engine's manager
        (the error, the next states), built on first use."""
        if self._sigma_c is not None:
            return self._sigma_c
        m, bit = self.manager, self._bit
        var_of = dict(bit)
        var_of.update({v: v for v in self.ctrl_vars})
        with self.limits.stage("building the circuit's BDDs"), self._reordering():
            self._err, self._next_of = self._circuit_bdds(m, var_of)
        sigma = dict(self._next_of)
        sigma.update({bit["error"]: self._err, bit["env_moved"]: m.false})
        sigma.update({u: m.false for u in self._u_vars})
        self._sigma_c = sigma
        return sigma

    # ------------------------------------------------------------------ the hooks

    def _coalition(self, coalition: Iterable[int]) -> Coalition:
        """(T_J, D ∧ ¬T_J, the players of J, the others), cached."""
        J = self.game.coalition(coalition)
        hit = self._coalition_cache.get(J)
        if hit is None:
            tj = self._turn_node(J)
            ours = [p for p in self.game.players if p in J]
            theirs = [p for p in self.game.players if p not in J]
            hit = Coalition(tj, self.manager.diff(self._domain, tj), ours, theirs)
            self._coalition_cache[J] = hit
        return hit

    def _next(self, node):
        """``node`` itself: the pre-images compose, targets stay over the current bits."""
        return node

    def _step(self, player: int, target, exists: bool):
        """T_p ∧ ∃ (or ∀) the inputs of p. target(σ_p)."""
        m = self.manager
        if player == CONTROLLER:
            sigma, inputs = self._circuit(), self.ctrl_vars
        else:
            sigma, inputs = self._sigma_u, self._u_vars
        self.limits.check()
        with self._reordering():
            u = m.compose(target, sigma)
            if inputs:
                u = m.exist(u, inputs) if exists else m.forall(u, inputs)
        return m.and_(self._turn_of[player], u)

    def _pre_exists_node(self, key: Coalition, target):
        """⋁_{p ∈ J} T_p ∧ ∃ inputs of p. target(σ_p)."""
        return self.manager.disj(self._step(p, target, True) for p in key.ours)

    def _pre_forall_node(self, key: Coalition, target, dead_ends: DeadEnds):
        """⋁_{p ∉ J} T_p ∧ ∀ inputs of p. target(σ_p) (every position has a successor:
        the same for both conventions)."""
        return self.manager.disj(self._step(p, target, False) for p in key.theirs)

    @property
    def _has_succ(self):
        """Every position has a successor."""
        return self._domain

    def transitions(self) -> DeltaParts:
        """δ in two parts, the environment's and the controller's (one in all with
        ``monolithic``): built on first use, for the operations that list moves."""
        if self._transitions is None:
            with self.limits.stage("building δ"):
                parts = [("environment_inputs", self._env_relation())]
                parts.append(("controller_inputs", self._ctrl_relation()))
            m = self.manager
            if self.partition == "monolithic":
                parts = [("delta", m.disj(r for _, r in parts))]
            self._transitions = DeltaParts(m, parts, {}, self.encoder.next_set)
        return self._transitions

    def _primed(self, var: str):
        enc = self.encoder
        return self.manager.var(enc.to_next_name(self._bit[var]))

    def _env_relation(self):
        """T_environment ∧ env_moved' ∧ ¬error' ∧ the latches keep their values ∧ D(x')."""
        m, enc = self.manager, self.encoder
        latch_slots = [
            i for i, s in enumerate(self.space.slots) if s.var in self.aiger_names.latches
        ]
        return m.conj(
            [
                self._turn_of[ENVIRONMENT],
                self._primed("env_moved"),
                m.not_(self._primed("error")),
                enc.frame(latch_slots),
                self.domain_next(),
            ]
        )

    def _ctrl_relation(self):
        """T_controller ∧ ∃c. (error' ↔ err ∧ ⋀ latch' ↔ next) ∧ ¬env_moved' ∧ D(x')
        (D(x') sets the inputs' next bits to 0)."""
        m, enc = self.manager, self.encoder
        self._circuit()
        eqs = [m.iff(self._primed("error"), self._err)]
        eqs += [m.iff(m.var(enc.to_next_name(b)), f) for b, f in self._next_of.items()]
        step = m.conj(eqs)
        if self.ctrl_vars:
            step = m.exist(step, self.ctrl_vars)
        return m.conj(
            [
                self._turn_of[CONTROLLER],
                step,
                m.not_(self._primed("env_moved")),
                self.domain_next(),
            ]
        )

    def moves_between(self, source, target) -> BddRelation:
        """δ ∧ S(x) ∧ T(x') (the target renamed to the next bits: :meth:`_next` leaves it)."""
        m, enc = self.manager, self.encoder
        s = self._node_of(source)
        t = m.rename(self._node_of(target), enc.to_next)
        return BddRelation(self, m.and_(m.and_(self.transitions().whole(), s), t))

    def controller_functions(self, won: BddSet) -> dict[int, object]:
        """{controllable input index: its function of the latches and the environment's
        inputs (a BDD over their current bits)}, a memoryless winning strategy of the
        controller for ``won`` (⟨⟨controller⟩⟩□¬error): with S(x, u, c) = won(σ_c) (the
        successor is won), each c_i in turn is 1 exactly where some choice of the later
        ones keeps S with c_i = 1 (S having the earlier ones' functions substituted).
        Outside won's controller's positions the functions are whatever this gives."""
        m = self.manager
        sigma = self._circuit()
        with self._reordering():
            s = m.compose(self._node_of(won), sigma)
            out = {}
            rest = list(self.ctrl_vars)
            for k, c in zip(self.aiger_names.ctrl_index, self.ctrl_vars):
                rest.remove(c)
                self.limits.check(f"the function of controllable input {k}")
                f = m.exist(m.restrict(s, {c: True}), rest) if rest else m.restrict(s, {c: True})
                s = m.compose(s, {c: f})
                out[k] = f
        return out

    def input_literals(self) -> dict[str, int]:
        """{BDD variable of a latch or an environment's input: its literal in the circuit}."""
        c, names, bit = self.circuit, self.aiger_names, self._bit
        out = {bit[v]: lit for v, lit in zip(names.latches, c.latches)}
        out.update({bit[v]: c.inputs[k] for v, k in zip(names.env_inputs, names.env_index)})
        return out

    def safety_fixpoint(self, guess: bool = False) -> SafetyRun:
        """(realizable, winning, winning_size, iterations, proof, keep) by the dedicated safety
        solver: W = νZ. ∀u ∃c. ¬err(x,u,c) ∧ Z(next(x,u,c)), a set of latch valuations,
        each iterate computed by substituting the next-state functions into Z
        (``compose``), then ∃c fused with the conjunction (``and_exists``), then ∀u,
        in a manager of its own (the latches' and inputs' variables only). It stops as
        soon as an initial valuation leaves Z (unrealizable: ``winning`` and
        ``winning_size`` None, the iterations so far); else ``winning_size`` is |W| and
        ``winning`` a function that gives the game's ⟨⟨controller⟩⟩□¬error, the set
        :meth:`release` gives (its environment's positions: ¬error ∧ W; its
        controller's: ∃c. ¬err ∧ W(next)), copied into this engine's manager when
        called (a run that only answers never pays the copy). The iterations are
        the circuit's steps, as the plain peer counts them. With ``guess``, controlled
        invariants are tried too (``solve_safety``'s ``invariant``): when one proves the
        circuit realizable, W is not computed (``winning`` and ``winning_size`` None,
        ``proof`` ``"invariant"``) and ``keep`` gives the invariant's positions, from which
        a controller can be built as from W.

        >>> from .build import aiger_model
        >>> from .reader import parse_aiger
        >>> g = aiger_model(parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 controllable_c\\n")).game
        >>> run = AigerSymbolicGame(g, "autoref").safety_fixpoint()
        >>> run.realizable, run.winning_size, run.iterations, run.region().count(), run.proof
        (True, 1, 1, 2, 'fixpoint')
        """
        names = self.aiger_names
        var_of = {v: self._bit[v] for v in names.latches + names.env_inputs}
        var_of.update({v: v for v in self.ctrl_vars})
        latch_vars, input_vars = self._variables(var_of)
        # a manager of its own: the engine's next bits and flags would be sifted
        # through at every reordering (bench/README.md, AIGER section)
        r = solve_safety(
            self.circuit,
            latch_vars,
            input_vars,
            backend=self.manager.backend,
            max_memory=self._max_memory,
            limits=self.limits,
            sifting=self.sifting,
            static_first=STATIC_FIRST,
            invariant=GUESS_AT if guess else None,
        )
        self.gates = len(self.circuit.and_lhs)
        if not r.realizable:
            return SafetyRun(False, None, None, r.iterations, r.proof, None)
        if r.proof == "invariant":
            keep = self._region_of(r.invariant, r.good)
            return SafetyRun(True, None, None, r.iterations, r.proof, keep)
        region = self._region_of(r.winning, r.good)
        return SafetyRun(True, region, r.winning_size, r.iterations, r.proof, region)

    def _region_of(self, z, good) -> Callable[[], BddSet]:
        """The function that gives the game's winning positions from the safety solver's
        W (``z``) and ∃c. ¬err ∧ W(next) (``good``), copied into this engine's manager
        on the first call (or the positions of a controlled invariant I, from I and
        ∃c. ¬err ∧ I(next))."""
        copied: list[BddSet] = []

        def region() -> BddSet:
            if not copied:
                m = self.manager
                with self.limits.stage("copying the winning region"), self._reordering():
                    w, g = m.copy_from(z), m.copy_from(good)
                error = m.var(self._bit["error"])
                env_part = m.and_(m.diff(self._turn_of[ENVIRONMENT], error), w)
                ctrl_part = m.and_(self._turn_of[CONTROLLER], g)
                copied.append(BddSet._make(self, m.or_(env_part, ctrl_part)))
            return copied[0]

        return region

    def winning_size(self, won: BddSet) -> int:
        """The latch valuations x whose environment's position (``error`` 0) is in
        ``won``: the size of the winning region as the competition counts it."""
        m = self.manager
        pos = m.and_(self._turn_of[ENVIRONMENT], m.not_(m.var(self._bit["error"])))
        return BddSet._make(self, m.and_(self._node_of(won), pos)).count()
