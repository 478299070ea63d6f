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
import time
from dataclasses import dataclass
from typing import Callable, Sequence

from ..bdd.managers import make_manager
from ..limits import Limits
from ..limits import current as current_limits
from .circuit import Circuit

__all__ = ["METHODS", "Adapt", "SafetyAnswer", "circuit_bdds", "default_names", "solve_safety"]

#: the methods of ``symbolic aiger`` (:func:`symbolic.aiger.solve.realizability`), the
#: default first: this module's solver, or the game's fixpoint through the engine API
METHODS = ("safety", "game")


class Adapt:
    """When the safety fixpoint reorders its manager (the answer never depends on it,
    only the time): the backend's dynamic reordering, on while the gates are built,
    is off in the fixpoint, where it would sift again and again inside each iteration,
    until an iteration takes more than :attr:`DYNAMIC_AFTER` CPU seconds: then it is
    on for the rest of the fixpoint (some circuits need it inside the compositions).
    The policy and its measurements: bench/README.md, AIGER section.

    >>> from symbolic.bdd.managers import make_manager
    >>> m = make_manager("autoref")
    >>> adapt = Adapt(m)
    >>> with contextlib.ExitStack() as stack:
    ...     adapt(0.01, stack)
    ...     adapt.dynamic, adapt(1.0, stack), adapt.dynamic
    (False, None, True)
    """

    #: CPU seconds of an iteration past which dynamic reordering goes on
    DYNAMIC_AFTER = 0.3

    def __init__(self, manager):
        self.manager = manager
        #: the dynamic reordering is on
        self.dynamic = False

    def __call__(self, seconds: float, stack: contextlib.ExitStack) -> None:
        """After an iteration of ``seconds``; ``stack`` holds the dynamic reordering."""
        if not self.dynamic and seconds > self.DYNAMIC_AFTER:
            stack.enter_context(self.manager.reordering())
            self.dynamic = True


@dataclass
class SafetyAnswer:
    """The safety solver's answer: ``realizable``, the ``iterations`` (steps of the
    circuit), and when the fixpoint ran to the end (realizable) W as ``winning`` (a
    BDD of ``manager`` over the latches' variables), ``good`` (∃c. ¬err ∧ W(next), over
    the latches' and the environment's inputs' variables) and ``winning_size`` (|W|);
    these three are None when it stopped early."""

    realizable: bool
    iterations: int
    manager: object
    winning: object = None
    good: object = None
    winning_size: int | None = None


def default_names(circuit: Circuit) -> tuple[list[str], list[str]]:
    """(latch variables, input variables) of the solver's manager when no engine names
    them: ``xK`` for latch K, ``cK`` or ``uK`` for input K (controllable or not)."""
    latches = [f"x{k}" for k in range(len(circuit.latches))]
    inputs = [f"{'c' if c else 'u'}{k}" for k, c in enumerate(circuit.controllable)]
    return latches, inputs


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

    for k, (lhs, a, b) in enumerate(zip(c.and_lhs, c.and_rhs0, c.and_rhs1)):
        if not k & 63:
            limits.check(f"AND gate {k} of {len(c.and_lhs)}")
        node[lhs >> 1] = m.and_(lit(a), lit(b))
    nexts = {v: lit(n) for v, n in zip(latch_vars, c.next_state)}
    return lit(c.outputs[0]), nexts


def solve_safety(
    circuit: Circuit,
    latch_vars: Sequence[str],
    input_vars: Sequence[str],
    *,
    backend: str = "cudd",
    max_memory: int | None = None,
    limits: Limits | None = None,
    sifting: bool = True,
    trace: Callable[[str, dict], None] | None = None,
) -> SafetyAnswer:
    """The safety solver's answer on ``circuit`` (module docstring), in a new manager
    of ``backend`` holding the latches' variables (``latch_vars``, first) and the
    inputs' (``input_vars``, in the file's order) only. ``sifting``: the gates are built
    under the backend's dynamic reordering, the fixpoint reorders as :class:`Adapt`
    says; else the order stays as declared. ``trace`` (bench/aiger_probe.py) is called
    with ``("gates", figures)`` once they are built, then ``("iteration", figures)``
    after each iteration: CPU seconds, the manager's live nodes, Z's nodes."""
    limits = current_limits() if limits is None else limits
    m = make_manager(
        backend,
        max_memory=limits.max_memory_bytes if max_memory is None else max_memory,
        limits=limits,
    )
    m.declare(list(latch_vars) + list(input_vars), "the safety fixpoint")
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
        if trace is not None:
            trace("gates", {"cpu_s": time.process_time(), "live_nodes": m.node_count()})
        if sifting:  # the fixpoint: the order reordered only as Adapt says
            dynamic.close()
        adapt = Adapt(m) if sifting else None
        z, good, steps = m.true, m.true, 0
        with limits.stage("the safety fixpoint"):
            while True:
                steps += 1
                limits.check(f"iteration {steps}")
                started = time.process_time()
                moved = m.compose(z, nexts)  # next(x, u, c) ∈ Z
                good = m.and_exists(moved, safe, ctrl) if ctrl else m.and_(moved, safe)
                new = m.forall(good, env) if env else good
                if trace is not None:
                    figures = {"step": steps, "cpu_s": time.process_time() - started}
                    figures.update(live_nodes=m.node_count(), z_nodes=m.size(new))
                    trace("iteration", figures)
                if not m.is_false(m.diff(init, new)):
                    return SafetyAnswer(False, steps, m)
                if new == z:
                    break
                z = new
                del moved
                if adapt is not None:
                    adapt(time.process_time() - started, dynamic)
    size = m.exact_count(z, len(latch_vars))
    return SafetyAnswer(True, steps, m, z, good, size)
