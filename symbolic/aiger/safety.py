"""The dedicated safety solver of a SYNTCOMP circuit, on a BDD manager of its own.

W = νZ. {x | ∀u ∃c : ¬err(x,u,c) ∧ next(x,u,c) ∈ Z} over the latch valuations x: each
iterate substitutes the next-state functions into Z (``compose``), quantifies the
controllable inputs c together with the conjunction (``and_exists``), then the
environment's inputs u universally, and the fixpoint stops as soon as an initial
valuation leaves Z. It needs a manager and the circuit only (no game, no model), so
that ``symbolic aiger`` answers without loading the engines; the symbolic engine
(:mod:`.symbolic`) calls it too and turns W into the game's winning positions.

>>> from .reader import parse_aiger
>>> c = parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 controllable_c\\n")
>>> r = solve_safety(c, *default_names(c), backend="autoref")
>>> r.realizable, r.winning_size, r.iterations
(True, 1, 1)
"""

from __future__ import annotations

import contextlib
import functools
import time
from dataclasses import dataclass
from typing import Callable, NamedTuple, Sequence

from ..bdd.managers import make_manager
from ..limits import Limits
from ..limits import current as current_limits
from .circuit import Circuit
from .correspondence import merged_latches
from .first_guess import literal_invariant
from .forced import Forced, forced_inputs
from .houdini import controllable_step, initial_invariant, keeping_choices

__all__ = [
    "METHODS",
    "WAYS",
    "DEFAULT_POLICY",
    "POLICIES",
    "Adapt",
    "SafetyAnswer",
    "SafetyRun",
    "circuit_bdds",
    "default_names",
    "dfs_order",
    "solve_safety",
]

#: the iteration at which :func:`solve_safety` guesses an invariant when asked: the
#: circuits it answers need thousands of cheap iterations, and a guess costs a
#: controllable predecessor per latch
GUESS_AT = 64

#: CPU seconds of the try without reordering (:func:`solve_safety`): small circuits
#: answer in it with their winning region, the others lose it (the stay files, whose
#: product's gates sifting blows up, are answered by the invariant's try after it)
STATIC_FIRST = 0.5

#: how far sifting lets the BDDs grow while moving one variable (CUDD's ``max_growth``;
#: its default 1.2): the fixpoint's reorderings of the hard files take most of their
#: time (bench/README.md, AIGER section, round 10)
SIFT_GROWTH = 1.1

#: the initial orders :func:`.portfolio.first_answer` runs at once, the first one
#: :func:`solve_safety`'s default: the latches and inputs as the file declares them, then
#: as a depth-first walk of the gates meets them (:func:`dfs_order`); each is the faster
#: on some files (bench/README.md, AIGER section)
WAYS = ("file", "dfs")

#: the methods of ``symbolic aiger`` (:func:`symbolic.aiger.solve.realizability`), the
#: default first: this module's solver, or the game's fixpoint through the engine API
METHODS = ("safety", "game")


class Adapt:
    """When the safety fixpoint reorders its manager (the answer never depends on it,
    only the time): the backend's dynamic reordering, on while the gates are built,
    is on from the fixpoint's start with a negative ``after`` (``"always"``, and
    :data:`DEFAULT_POLICY` until a storm);
    otherwise it is off there, where it would sift again and again inside each
    iteration, until an iteration takes more than ``after`` CPU seconds or, with
    ``grow``, the manager's nodes after an iteration pass ``grow`` times the gates' (a
    fixpoint about to blow up inside its next composition): then it is on for the rest
    of the fixpoint. With ``storm``, it goes off again for good once its reorderings
    in the fixpoint have taken more than ``storm`` seconds and more than
    :data:`STORM_RATIO` times the fixpoint's other work (a storm: sifting again and
    again inside each composition, on an order it no longer improves much). The
    policies and their measurements: bench/README.md, AIGER section.

    >>> from symbolic.bdd.managers import make_manager
    >>> m = make_manager("autoref")
    >>> adapt = Adapt(m)
    >>> with contextlib.ExitStack() as stack:
    ...     adapt(0.01, 10, stack)
    ...     adapt.dynamic, adapt(1.0, 10, stack), adapt.dynamic
    (False, None, True)
    """

    def __init__(
        self,
        manager,
        *,
        after: float = 0.3,
        grow: float | None = None,
        sift: bool = False,
        gates: int = 0,
        storm: float | None = None,
    ):
        self.manager = manager
        #: sift once when switching dynamic reordering on (it acts only past a node count)
        self.sift = sift
        self.after = after
        #: the node count past which dynamic reordering goes on (None: never by size)
        self.limit = None if grow is None else grow * max(gates, 1)
        #: seconds of reordering in the fixpoint past which it goes off (None: never)
        self.storm = storm
        #: the dynamic reordering is on
        self.dynamic = False
        #: it went off for good (a storm)
        self.stopped = False
        # the reordering seconds when it went on, and the fixpoint's seconds since
        self._sifted_at = 0.0
        self._spent = 0.0

    @property
    def watching(self) -> bool:
        """Whether the next iteration can change the reordering (the fixpoint calls
        this object after it only then)."""
        return not self.stopped and (not self.dynamic or self.storm is not None)

    def __call__(self, seconds: float, nodes: int, stack: contextlib.ExitStack) -> None:
        """After an iteration of ``seconds`` leaving ``nodes`` in the manager; ``stack``
        holds the dynamic reordering."""
        if self.stopped:
            return
        if self.dynamic:
            if self.storm is None:
                return
            self._spent += seconds
            sifted = self.manager.reordering_seconds() - self._sifted_at
            if sifted > self.storm and sifted > STORM_RATIO * (self._spent - sifted):
                stack.close()
                self.dynamic, self.stopped = False, True
            return
        if seconds > self.after or (self.limit is not None and nodes > self.limit):
            if self.sift:
                self.manager.sift()
            stack.enter_context(self.manager.reordering())
            self.dynamic = True
            self._sifted_at, self._spent = self.manager.reordering_seconds(), 0.0


#: a storm (:class:`Adapt`'s ``storm``): the fixpoint's reorderings took this many times
#: the rest of its work
STORM_RATIO = 4.0

#: the reordering policies of :func:`solve_safety`: Adapt's settings by name
POLICIES: dict[str, dict] = {
    "adapt": {"after": 0.3},
    "grow": {"after": 0.3, "grow": 4.0},
    "grow-sift": {"after": 0.3, "grow": 4.0, "sift": True},
    "always": {"after": -1.0},
    "storm": {"after": -1.0, "storm": 4.0},
}

#: the policy of ``symbolic aiger`` and of the engine's safety fixpoint (measured against
#: the others on the corpus: bench/README.md, AIGER section)
DEFAULT_POLICY = "storm"


@dataclass
class SafetyAnswer:
    """The safety solver's answer: ``realizable``, the ``iterations`` (steps of the
    circuit), and when the fixpoint ran to the end (realizable) W as ``winning`` (a
    BDD of ``manager`` over the latches' variables), ``good`` (∃c. ¬err ∧ W(next), over
    the latches' and the environment's inputs' variables) and ``winning_size`` (|W|);
    these three are None when it stopped early; ``proof``: how the answer was reached
    (:class:`_Fixpoint`'s ``outcome``). When a controlled invariant proved it (``proof``
    ``"invariant"``), ``invariant`` is that set I (over the latches' variables) and
    ``good`` is ∃c. ¬err ∧ I(next): the controller keeps I by choosing inside it.
    ``merged``: the latches merged into others before solving (:mod:`.correspondence`);
    when there are any, the answer is the circuit's but ``winning``, ``good``,
    ``winning_size`` and ``invariant`` are None (W of the merged circuit is over the
    representatives' valuations only)."""

    realizable: bool
    iterations: int
    manager: object
    winning: object = None
    good: object = None
    winning_size: int | None = None
    proof: str = "fixpoint"
    invariant: object = None
    merged: int = 0


class SafetyRun(NamedTuple):
    """An AIGER engine's safety fixpoint (``safety_fixpoint``): ``realizable``;
    ``region``, a function giving ⟨⟨controller⟩⟩□¬error (None when W was not computed),
    and ``winning_size`` (|W| or None); ``iterations``; ``proof`` (``"fixpoint"``,
    ``"initial"`` or ``"invariant"``: :class:`SafetyAnswer`); ``keep``, a function giving
    positions the controller can keep forever, the initial ones among them: the winning
    region, or a controlled invariant's positions (None when unrealizable)."""

    realizable: bool
    region: Callable | None
    winning_size: int | None
    iterations: int
    proof: str
    keep: Callable | None


def default_names(circuit: Circuit) -> tuple[list[str], list[str]]:
    """(latch variables, input variables) of the solver's manager when no engine names
    them: ``xK`` for latch K, ``cK`` or ``uK`` for input K (controllable or not)."""
    latches = [f"x{k}" for k in range(len(circuit.latches))]
    inputs = [f"{'c' if c else 'u'}{k}" for k, c in enumerate(circuit.controllable)]
    return latches, inputs


def dfs_order(circuit: Circuit) -> list[int]:
    """The latches and inputs (k < L: latch k; L + k: input k) in the order a
    depth-first walk of the gates first meets them, from the error's cone, then each
    latch followed by its next-state function's cone; those never met come last, as
    declared. A variable thus sits near the variables it is combined with (the
    fan-in order heuristic of Malik et al., ICCAD 1988), a start that dynamic
    reordering improves faster than the file's order.

    >>> from .reader import parse_aiger
    >>> c = parse_aiger("aag 4 2 1 1 1\\n2\\n4\\n6 8\\n8\\n8 4 6\\n")  # err = i1 ∧ l0
    >>> dfs_order(c)
    [2, 0, 1]
    """
    c = circuit
    nlatch = len(c.latches)
    position = {x >> 1: k for k, x in enumerate(c.latches)}
    position.update((x >> 1, nlatch + k) for k, x in enumerate(c.inputs))
    gate = {lhs >> 1: k for k, lhs in enumerate(c.and_lhs)}
    seen: set[int] = set()
    order: list[int] = []
    roots = [c.outputs[0]]
    for x, n in zip(c.latches, c.next_state):
        roots += [x, n]
    for root in roots:
        stack = [root >> 1]
        while stack:
            v = stack.pop()
            if v in seen or v == 0:
                continue
            seen.add(v)
            if v in position:
                order.append(position[v])
            else:
                k = gate[v]
                stack += [c.and_rhs1[k] >> 1, c.and_rhs0[k] >> 1]
    met = set(order)
    return order + [k for k in range(nlatch + len(c.inputs)) if k not in met]


def _cone(c: Circuit) -> list[bool]:
    """Per variable: is it read by the error or a next-state function (a gate outside
    that cone, such as a forced input's definition, :mod:`.forced`, is never built)?"""
    used = [False] * (c.maxvar + 1)
    for x in (*c.outputs, *c.next_state):
        used[x >> 1] = True
    for lhs, a, b in zip(reversed(c.and_lhs), reversed(c.and_rhs0), reversed(c.and_rhs1)):
        if used[lhs >> 1]:
            used[a >> 1] = used[b >> 1] = True
    return used


def circuit_bdds(
    m, circuit: Circuit, latch_vars: Sequence[str], input_vars: Sequence[str], limits: Limits
):
    """(err, {latch variable: next-state function}) of ``circuit`` in manager ``m``, one
    BDD per AND gate in the circuit's (topological) order; ``latch_vars[k]`` and
    ``input_vars[k]`` name the BDD variables of latch k and input k. The gates' BDDs are
    dropped once read."""
    c = circuit
    node: list = [None] * (c.maxvar + 1)
    node[0] = m.false
    for v, x in zip(latch_vars, c.latches):
        node[x >> 1] = m.var(v)
    for v, x in zip(input_vars, c.inputs):
        node[x >> 1] = m.var(v)

    def lit(x: int):
        u = node[x >> 1]
        return m.not_(u) if x & 1 else u

    used = _cone(c)
    for k, (lhs, a, b) in enumerate(zip(c.and_lhs, c.and_rhs0, c.and_rhs1)):
        if not k & 63:
            limits.check(f"AND gate {k} of {len(c.and_lhs)}")
        if used[lhs >> 1]:
            node[lhs >> 1] = m.and_(lit(a), lit(b))
    nexts = {v: lit(n) for v, n in zip(latch_vars, c.next_state)}
    return lit(c.outputs[0]), nexts


def solve_safety(
    circuit: Circuit,
    latch_vars: Sequence[str],
    input_vars: Sequence[str],
    *,
    limits: Limits | None = None,
    forced: bool = True,
    merge: bool = False,
    **settings,
) -> SafetyAnswer:
    """The safety solver's answer on ``circuit`` (module docstring), in a new manager
    of ``backend`` holding the latches' variables (``latch_vars``, first) and the
    inputs' (``input_vars``, in the file's order) only. ``forced``: the controllable
    inputs the error forces are substituted first (:func:`.forced.forced_inputs`; the
    same W and ``good``). ``merge``: then the latches equal to others, or constant, in
    every reachable state are merged (:func:`.correspondence.merged_latches`): the same
    answer, and when any was merged no winning region (:class:`SafetyAnswer`). The
    other ``settings`` (:func:`_answer`'s):

    ``backend`` (``"cudd"``) and ``max_memory``. ``sifting`` (True): the gates are
    built under the backend's dynamic reordering, the fixpoint reorders as
    :class:`Adapt` (``policy``, a key of :data:`POLICIES`) says; else the order stays
    as declared: the file's (``order="file"``) or :func:`dfs_order`'s (``"dfs"``).
    ``trace`` (bench/aiger_probe.py) is called with ``("gates", figures)`` once they
    are built, then ``("iteration", figures)`` after each iteration: CPU seconds, the
    manager's live nodes, Z's nodes. ``invariant``: before the fixpoint with
    reordering (after the try without it, when there is one), an invariant of the
    initial state's literals is tried on the gates it needs only
    (:func:`.first_guess.literal_invariant`, unless ``first_guess`` is False; when it
    holds, ``iterations`` is 0), and at that iteration (:data:`GUESS_AT` for the
    command line) one inside Z (:func:`.houdini.initial_invariant`); when either holds
    the answer is realizable without W (``proof`` ``"invariant"``, ``winning`` None).
    ``static_first`` (CPU seconds, :data:`STATIC_FIRST` for the command line): with
    ``sifting`` on CUDD, a first try without any reordering, abandoned past that time.
    ``growth`` (:data:`SIFT_GROWTH`): sifting's bound (:meth:`~symbolic.bdd.base.BaseManager.sift_growth`)."""
    limits = current_limits() if limits is None else limits
    with limits.stage("substituting the forced inputs"):
        reduced = forced_inputs(circuit) if forced else Forced(circuit, {})
    if merge:
        with limits.stage("merging the corresponding latches"):
            merged = merged_latches(reduced.circuit, limits=limits)
        if merged.classes:
            kept = [v for k, v in enumerate(latch_vars) if k not in merged.classes]
            sub = _answer(merged.circuit, kept, input_vars, limits, **settings)
            n = len(merged.classes)
            return SafetyAnswer(
                sub.realizable, sub.iterations, sub.manager, proof=sub.proof, merged=n
            )
    return _answer(reduced.circuit, latch_vars, input_vars, limits, **settings)


def _answer(
    circuit: Circuit,
    latch_vars: Sequence[str],
    input_vars: Sequence[str],
    limits: Limits,
    *,
    backend: str = "cudd",
    max_memory: int | None = None,
    sifting: bool = True,
    policy: str = DEFAULT_POLICY,
    order: str = "file",
    trace: Callable[[str, dict], None] | None = None,
    invariant: int | None = None,
    static_first: float | None = None,
    first_guess: bool = True,
    growth: float = SIFT_GROWTH,
) -> SafetyAnswer:
    """:func:`solve_safety` on ``circuit``, its forced inputs substituted (and its
    latches merged when asked): the try without reordering, the invariant's try, then
    the run with reordering (the settings: :func:`solve_safety`)."""
    run = functools.partial(
        _solve,
        circuit,
        latch_vars,
        input_vars,
        backend=backend,
        max_memory=max_memory,
        limits=limits,
        policy=policy,
        order=order,
        trace=trace,
        invariant=invariant,
        growth=growth,
    )
    answer = None
    if static_first is not None and sifting and backend == "cudd":
        with contextlib.suppress(_OverBudget), limits.budget(static_first, _OverBudget):
            answer = run(sifting=False, budget=static_first)
        if answer is not None:  # its manager lives on: the deadline's limit only
            answer.manager.cpu_limit(None)  # type: ignore[attr-defined]
    if answer is None and invariant is not None and first_guess:
        with limits.stage("trying an invariant of the initial literals"):
            proved = literal_invariant(
                circuit,
                latch_vars,
                input_vars,
                backend=backend,
                limits=limits,
                max_memory=max_memory,
            )
        if proved is not None:
            m, inv, good = proved
            answer = SafetyAnswer(True, 0, m, good=good, proof="invariant", invariant=inv)
    return run(sifting=sifting) if answer is None else answer


class _OverBudget(Exception):
    """The try without reordering of :func:`solve_safety` took its whole budget."""


def _solve(
    circuit: Circuit,
    latch_vars: Sequence[str],
    input_vars: Sequence[str],
    *,
    backend: str,
    max_memory: int | None,
    limits: Limits,
    sifting: bool,
    policy: str,
    order: str,
    trace: Callable[[str, dict], None] | None,
    invariant: int | None,
    growth: float,
    budget: float | None = None,
) -> SafetyAnswer:
    """:func:`solve_safety` on ``circuit``, its forced inputs already substituted; the
    backend's own operations stop ``budget`` CPU seconds after its manager is made."""
    m = make_manager(
        backend,
        max_memory=limits.max_memory_bytes if max_memory is None else max_memory,
        limits=limits,
    )
    if budget is not None:
        m.cpu_limit(budget)
    if sifting:
        m.sift_growth(growth)
    names = list(latch_vars) + list(input_vars)
    if order == "dfs":
        names = [names[k] for k in dfs_order(circuit)]
    m.declare(names, "the safety fixpoint")
    ctrl = [v for v, c in zip(input_vars, circuit.controllable) if c]
    env = [v for v, c in zip(input_vars, circuit.controllable) if not c]
    # a latch without a reset value is free initially
    init = m.cube({v: bool(r) for v, r in zip(latch_vars, circuit.reset) if r in (0, 1)})
    with contextlib.ExitStack() as dynamic:
        if sifting:  # the gates: the backend's dynamic reordering
            dynamic.enter_context(m.reordering())
        with limits.stage("building the circuit's BDDs"):
            err, nexts = circuit_bdds(m, circuit, latch_vars, input_vars, limits)
        safe = m.not_(err)
        del err
        gates = m.node_count()
        if trace is not None:
            trace("gates", {"cpu_s": time.process_time(), "live_nodes": gates})
        if sifting:  # the fixpoint: the order reordered only as Adapt says
            dynamic.close()
        adapt = Adapt(m, gates=gates, **POLICIES[policy]) if sifting else None
        if adapt is not None:
            adapt(0.0, 0, dynamic)
        fix = _Fixpoint(m, safe, nexts, ctrl, env, init, limits, trace)
        fix.guess_at = invariant
        if invariant is not None:
            fix.guess = lambda z: initial_invariant(
                m, safe, nexts, latch_vars, circuit.reset, ctrl, env, z, limits
            )[0]
        with limits.stage("the safety fixpoint"):
            while fix.step():
                if adapt is not None and adapt.watching:
                    nodes = 0 if adapt.limit is None else m.node_count()
                    adapt(fix.seconds, nodes, dynamic)
    if fix.outcome == "invariant":
        inv = fix.invariant
        good = keeping_choices(m, inv, nexts, safe, ctrl, env)
        return SafetyAnswer(True, fix.steps, m, good=good, proof="invariant", invariant=inv)
    if fix.outcome != "fixpoint":
        return SafetyAnswer(False, fix.steps, m, proof=fix.outcome)
    size = m.exact_count(fix.z, len(latch_vars))
    return SafetyAnswer(True, fix.steps, m, fix.z, fix.good, size)


class _Fixpoint:
    """The iterates of W = νZ. ∀u ∃c. ¬err ∧ Z(next), one :meth:`step` at a time:
    ``outcome`` is ``"fixpoint"`` (Z = W), ``"initial"`` (an initial valuation left Z:
    unrealizable) or, when ``guess`` (a function of Z giving a controlled invariant
    containing the initial state, or None) is set and answers at iteration
    ``guess_at``, ``"invariant"`` (realizable, W not computed)."""

    def __init__(self, m, safe, nexts, ctrl, env, init, limits, trace) -> None:
        self.m, self.safe, self.nexts, self.ctrl, self.env = m, safe, nexts, ctrl, env
        self.init, self.limits, self.trace = init, limits, trace
        self.z, self.good, self.steps, self.seconds = m.true, m.true, 0, 0.0
        self.outcome = ""
        self.guess: Callable | None = None
        self.guess_at: int | None = None
        #: the controlled invariant the guess gave (outcome ``"invariant"``)
        self.invariant = None

    def step(self) -> bool:
        """One iteration; False once the outcome is known."""
        m = self.m
        self.steps += 1
        self.limits.check(f"iteration {self.steps}")
        started = time.process_time()
        moved = m.compose(self.z, self.nexts)  # next(x, u, c) ∈ Z
        good, new = controllable_step(m, moved, self.safe, self.ctrl, self.env)
        del moved
        self.good, self.seconds = good, time.process_time() - started
        if self.trace is not None:
            figures = {"step": self.steps, "cpu_s": self.seconds}
            figures.update(live_nodes=m.node_count(), z_nodes=m.size(new))
            self.trace("iteration", figures)
        if not m.is_false(m.diff(self.init, new)):
            self.outcome = "initial"
        elif new == self.z:
            self.outcome = "fixpoint"
        elif self.steps == self.guess_at and self.guess is not None:
            self.invariant = self.guess(new)
            if self.invariant is not None:
                self.outcome = "invariant"
        self.z = new
        return not self.outcome
