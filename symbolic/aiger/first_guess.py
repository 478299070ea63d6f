"""An invariant of the initial state's literals, tried before any gate is built in full.

Some realizable circuits keep a few latches at their reset values forever (the flag
``bad`` of the stayN files stays 0), while the next-state functions of other latches hold
a product that no variable order keeps small (stayN: the low n bits of an n × n product).
Checking a conjunction of literals I = l₁ ∧ … ∧ l_k, I ⊆ ∀u ∃c. ¬err ∧ I(next), reads
err and the next-state functions of I's latches only. So this try builds the gates on
demand (:class:`LazyGates`) in the file's order, without reordering: err, then each latch's
next-state function, leaving out a latch whose cone holds a gate of more than
:data:`GATE_NODES` nodes; then Houdini (:func:`.houdini.initial_invariant`) runs on the
literals it could build, with Z = true. Leaving a literal out keeps the answer sound: the
candidate is checked as a whole in the end.

>>> from .reader import parse_aiger
>>> from .safety import default_names
>>> from symbolic.limits import Limits
>>> # latch x (reset 0) takes u ∧ ¬c, err = x: the controller answers u with c
>>> c = parse_aiger("aag 4 2 1 1 1\\n2\\n4\\n6 8\\n6\\n8 2 5\\ni0 u\\ni1 controllable_c\\n")
>>> m, inv, good = literal_invariant(c, *default_names(c), backend="autoref", limits=Limits())
>>> inv == m.not_(m.var("x0"))
True
"""

from __future__ import annotations

import contextlib
from typing import Sequence

from ..bdd.managers import make_manager
from ..limits import Limits
from .circuit import Circuit
from .houdini import initial_invariant, keeping_choices

__all__ = ["FIRST_SECONDS", "GATE_NODES", "GateTooLarge", "LazyGates", "literal_invariant"]

#: CPU seconds of the try (:func:`literal_invariant`): it costs that much on a circuit
#: where it fails
FIRST_SECONDS = 1.0

#: the nodes of one gate's BDD past which the latches whose cones hold it are left out
GATE_NODES = 20_000


class GateTooLarge(Exception):
    """A gate's BDD passed the bound of :class:`LazyGates` (``args[0]``: the variable)."""


class _OverBudget(Exception):
    """The try of :func:`literal_invariant` took its whole budget."""


class LazyGates:
    """The BDDs of a circuit's literals in manager ``m``, each AND gate built on first
    need, in the circuit's (topological) order; a gate whose BDD has more than ``bound``
    nodes raises :class:`GateTooLarge`, now and whenever a literal reading it is asked.

    >>> from .reader import parse_aiger
    >>> from symbolic.bdd.managers import make_manager
    >>> c = parse_aiger("aag 3 2 0 1 1\\n2\\n4\\n6\\n6 2 4\\n")
    >>> m = make_manager("autoref")
    >>> m.declare(["u0", "u1"], "doc")
    >>> g = LazyGates(m, c, [], ["u0", "u1"], 10)
    >>> g.literal(7) == m.not_(m.and_(m.var("u0"), m.var("u1")))
    True
    """

    def __init__(
        self,
        m,
        circuit: Circuit,
        latch_vars: Sequence[str],
        input_vars: Sequence[str],
        bound: int,
        limits: Limits | None = None,
    ):
        self.m, self.c, self.bound, self.limits = m, circuit, bound, limits
        self.node: dict[int, object] = {0: m.false}
        for v, x in zip(latch_vars, circuit.latches):
            self.node[x >> 1] = m.var(v)
        for v, x in zip(input_vars, circuit.inputs):
            self.node[x >> 1] = m.var(v)
        self.gate = {lhs >> 1: k for k, lhs in enumerate(circuit.and_lhs)}
        #: the gates found too large
        self.too_large: set[int] = set()

    def literal(self, x: int):
        """The BDD of literal ``x``, its cone's gates built first."""
        v = x >> 1
        if v not in self.node:
            self._build(v)
        u = self.node[v]
        return self.m.not_(u) if x & 1 else u

    def _build(self, root: int) -> None:
        """Build the gates of ``root``'s cone not built yet, operands first."""
        c, m = self.c, self.m
        todo: set[int] = set()
        stack = [root]
        while stack:
            v = stack.pop()
            if v in self.too_large:
                raise GateTooLarge(v)
            if v in self.node or v in todo:
                continue
            todo.add(v)
            k = self.gate[v]
            stack += [c.and_rhs0[k] >> 1, c.and_rhs1[k] >> 1]
        for n, v in enumerate(sorted(todo, key=self.gate.__getitem__)):
            if self.limits is not None and not n & 63:
                self.limits.check()
            k = self.gate[v]
            u = m.and_(self.literal(c.and_rhs0[k]), self.literal(c.and_rhs1[k]))
            if m.size(u) > self.bound:
                self.too_large.add(v)
                raise GateTooLarge(v)
            self.node[v] = u


def literal_invariant(
    circuit: Circuit,
    latch_vars: Sequence[str],
    input_vars: Sequence[str],
    *,
    backend: str,
    limits: Limits,
    max_memory: int | None = None,
    seconds: float = FIRST_SECONDS,
    bound: int = GATE_NODES,
):
    """(manager, I, ∃c. ¬err ∧ I(next)): a controlled invariant I containing the
    initial state, proving that ``circuit`` is realizable (the module docstring), with
    the controller's choices that keep it; None when the try fails or takes more than
    ``seconds`` of CPU;
    ``latch_vars`` and ``input_vars`` name the variables as for
    :func:`.safety.solve_safety`."""
    c = circuit
    m = make_manager(
        backend,
        max_memory=limits.max_memory_bytes if max_memory is None else max_memory,
        limits=limits,
    )
    m.cpu_limit(seconds)
    m.declare(list(latch_vars) + list(input_vars), "the invariant's try")
    ctrl = [v for v, k in zip(input_vars, c.controllable) if k]
    env = [v for v, k in zip(input_vars, c.controllable) if not k]
    proved = None
    with contextlib.suppress(_OverBudget, GateTooLarge), limits.budget(seconds, _OverBudget):
        gates = LazyGates(m, c, latch_vars, input_vars, bound, limits)
        safe = m.not_(gates.literal(c.outputs[0]))
        nexts = {}
        for v, x, r in zip(latch_vars, c.next_state, c.reset):
            if r in (0, 1):
                with contextlib.suppress(GateTooLarge):
                    nexts[v] = gates.literal(x)
        inv, _ = initial_invariant(m, safe, nexts, latch_vars, c.reset, ctrl, env, m.true, limits)
        if inv is not None:
            proved = (m, inv, keeping_choices(m, inv, nexts, safe, ctrl, env))
    m.cpu_limit(None)
    return proved
