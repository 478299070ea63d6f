"""The winning controller of a SYNTCOMP safety circuit (issue 35): each controllable input
turned into an and-inverter graph of the latches and the environment's inputs, built from
the strategy's BDDs (:meth:`~.symbolic.AigerSymbolicGame.controller_functions`), and the
closed circuit it makes, which must never raise the error.

A BDD node f with root variable v becomes ITE(v, f_high, f_low) = ¬(¬(v ∧ g_high) ∧
¬(¬v ∧ g_low)), three AND gates, shared between the functions (one gate set per node,
constants and single-variable nodes folded), so the controller has at most three AND gates
per BDD node of the functions.

>>> from .reader import parse_aiger
>>> c = parse_aiger("aag 3 2 1 1 0\\n2\\n4\\n6 2\\n6\\ni0 u\\ni1 controllable_c\\n")
>>> closed = with_controller(c, {1: 1})  # c := 1
>>> closed.counts, closed.input_names
((3, 1, 1, 1, 1), ('u',))
"""

from __future__ import annotations

from .circuit import Circuit
from .forced import Forced

__all__ = ["controller_circuit", "with_controller"]


def controller_circuit(
    engine, won, forced: Forced | None = None, original: Circuit | None = None
) -> tuple[Circuit, int]:
    """(the input circuit with its controllable inputs defined by the controller's
    gates, the number of AND gates the controller adds: its own and one per controllable
    input, which becomes a gate) for the winning set ``won`` of
    the symbolic engine ``engine``. With ``forced`` (:func:`.forced.forced_inputs` of
    ``original``), ``engine`` solves ``forced.circuit``: the forced inputs take the
    functions the error forces (their gates copied from that circuit), the others the
    engine's strategy, and the input circuit is ``original``."""
    m = engine.manager
    given = forced.forced if forced is not None else {}
    funcs = {k: f for k, f in engine.controller_functions(won).items() if k not in given}
    lit_of = engine.input_literals()
    c = original if original is not None else engine.game.circuit
    gates: list[tuple[int, int, int]] = []
    next_var = [c.maxvar + 1]
    memo: dict = {}

    def and_(a: int, b: int) -> int:
        if a == 0 or b == 0 or a == b ^ 1:
            return 0
        if a == 1 or a == b:
            return b
        if b == 1:
            return a
        lhs = 2 * next_var[0]
        next_var[0] += 1
        gates.append((lhs, max(a, b), min(a, b)))
        return lhs

    def literal(f) -> int:
        """The literal computing f (an explicit stack: BDDs can be deep)."""
        stack = [f]
        while stack:
            u = stack[-1]
            if u in memo:
                stack.pop()
                continue
            b = m.branch(u)
            if b is None:
                memo[u] = 1 if m.is_true(u) else 0
                stack.pop()
                continue
            v, low, high = b
            todo = [w for w in (low, high) if w not in memo]
            if todo:
                stack.extend(todo)
                continue
            x = lit_of[v]
            memo[u] = and_(and_(x, memo[high]) ^ 1, and_(x ^ 1, memo[low]) ^ 1) ^ 1
            stack.pop()
        return memo[f]

    engine.limits.check("building the controller's gates")
    defs = {k: literal(f) for k, f in funcs.items()}
    then: list[tuple[int, int, int]] = []
    if forced is not None:
        then = _copied(forced, c, next_var)
    closed = with_controller(c, defs, gates, next_var[0] - 1, then)
    return closed, len(closed.and_lhs) - len(c.and_lhs)


def _copied(forced: Forced, c: Circuit, next_var: list[int]) -> list[tuple[int, int, int]]:
    """The gates of ``forced.circuit`` that compute the forced inputs' functions,
    renumbered from ``next_var[0]`` on, then a gate ``input := function ∧ true`` per
    forced input of ``c`` (which keeps ``forced.circuit``'s inputs and latches)."""
    r = forced.circuit
    gate = {lhs >> 1: (a, b) for lhs, a, b in zip(r.and_lhs, r.and_rhs0, r.and_rhs1)}
    used: set[int] = set()
    stack = [x >> 1 for x in forced.forced.values()]
    while stack:
        v = stack.pop()
        if v in gate and v not in used:
            used.add(v)
            stack.extend(x >> 1 for x in gate[v])
    var: dict[int, int] = {}
    out: list[tuple[int, int, int]] = []

    def lit(x: int) -> int:
        return 2 * var.get(x >> 1, x >> 1) + (x & 1)

    for lhs, a, b in zip(r.and_lhs, r.and_rhs0, r.and_rhs1):
        if lhs >> 1 in used:  # stored in a topological order: operands come first
            var[lhs >> 1] = next_var[0]
            next_var[0] += 1
            out.append((2 * var[lhs >> 1], lit(a), lit(b)))

    out += [(c.inputs[k], lit(x), 1) for k, x in sorted(forced.forced.items())]
    return out


def with_controller(
    c: Circuit,
    defs: dict[int, int],
    gates: list | None = None,
    maxvar: int | None = None,
    then: list | None = None,
) -> Circuit:
    """``c`` with each controllable input k (a key of ``defs``) made an AND gate equal to
    literal ``defs[k]`` (``gates``: the gates computing those literals, over variables
    up to ``maxvar``), then the gates ``then`` (which may read those and define other
    inputs): the SYNTCOMP synthesis output, with no controllable input left."""
    gates = list(gates or ())
    for k, lit in defs.items():
        gates.append((c.inputs[k], lit, 1))  # input := lit ∧ true
    gates += then or ()
    defined = {g[0] for g in gates}
    keep = [k for k in range(len(c.inputs)) if c.inputs[k] not in defined]
    lhs, r0, r1 = zip(*gates) if gates else ((), (), ())
    return Circuit(
        maxvar=max(c.maxvar, maxvar or 0),
        inputs=tuple(c.inputs[k] for k in keep),
        latches=c.latches,
        next_state=c.next_state,
        reset=c.reset,
        outputs=c.outputs,
        and_lhs=tuple(lhs) + c.and_lhs,
        and_rhs0=tuple(r0) + c.and_rhs0,
        and_rhs1=tuple(r1) + c.and_rhs1,
        input_names=tuple(c.input_names[k] for k in keep),
        latch_names=c.latch_names,
        output_names=c.output_names,
        comments=c.comments,
    )
