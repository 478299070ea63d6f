"""Controllable inputs the error forces, substituted away before any BDD is built.

If the safe condition is a conjunction ¬err = (c ↔ g) ∧ R where c is a controllable input
and g a function of the latches and the other inputs (c not among them), the controller
has one safe choice for c, c := g, and

    ∃c. ¬err ∧ Z(next) = (R ∧ Z(next))[c := g],

so the circuit with c replaced by g everywhere has the same winning region and the same
answer, whatever Z. The multipliers of the toy examples are of this form (the controller
must output a product that the error compares with its own product): substituted, their
error folds to the constant 0 on the and-inverter graph, while a BDD of a product's middle
bits grows exponentially with the width (Bryant, IEEE Trans. Computers 1991).

The conjuncts are read from the graph: the error's negation is flattened through AND
gates; an equivalence x ↔ y is either one conjunct ¬(¬(x ∧ y) ∧ ¬(¬x ∧ ¬y)) or the two
conjuncts ¬(x ∧ ¬y) and ¬(¬x ∧ y); a conjunct that is a controllable input's literal
forces it to a constant. Rebuilding the graph hashes each gate and folds constants, so
a comparison of g with itself disappears (x ∧ ¬x = 0, x ∧ x = x).

>>> from .reader import parse_aiger
>>> # err = u XOR c: the controller copies u
>>> c = parse_aiger("aag 5 2 0 1 3\\n2\\n4\\n11\\n6 2 5\\n8 3 4\\n10 7 9\\n"
...                 "i0 u\\ni1 controllable_c\\n")
>>> r = forced_inputs(c)
>>> r.circuit.error, r.forced
(0, {1: 2})
"""

from __future__ import annotations

from dataclasses import dataclass

from .circuit import Circuit
from .rewrite import substituted

__all__ = ["Forced", "forced_inputs"]


@dataclass(frozen=True)
class Forced:
    """A circuit with forced controllable inputs substituted: ``circuit`` (the same
    inputs, latches and names; the substituted inputs used nowhere) and ``forced``,
    input index → the literal of ``circuit`` the controller must give it."""

    circuit: Circuit
    forced: dict[int, int]


def _conjuncts(gate: dict[int, tuple[int, int]], lit: int) -> list[int]:
    """The literals whose conjunction is ``lit``, flattened through un-negated gates."""
    out, stack, seen = [], [lit], set()
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if not x & 1 and x >> 1 in gate:
            stack.extend(gate[x >> 1])
        else:
            out.append(x)
    return out


def _equivalences(gate: dict[int, tuple[int, int]], conjuncts: list[int]) -> list[tuple[int, int]]:
    """Pairs (x, y) of literals with x ↔ y implied by the conjuncts (module docstring);
    a conjunct x alone gives (x, 1)."""
    pairs: list[tuple[int, int]] = []
    clauses = set()  # ¬(x ∧ y), stored as (x, y) sorted
    for lit in conjuncts:
        if not lit & 1 or lit >> 1 not in gate:
            pairs.append((lit, 1))
            continue
        a, b = gate[lit >> 1]
        clauses.add((min(a, b), max(a, b)))
        if a & 1 and b & 1 and a >> 1 in gate and b >> 1 in gate:
            # ¬(¬(x1 ∧ y1) ∧ ¬(x2 ∧ y2)) = (x1 ∧ y1) ∨ (x2 ∧ y2)
            (x1, y1), (x2, y2) = gate[a >> 1], gate[b >> 1]
            if {x2, y2} == {x1 ^ 1, y1 ^ 1}:
                pairs.append((x1, y1))
    for x, y in clauses:
        # ¬(x ∧ y) ∧ ¬(¬x ∧ ¬y): x ↔ ¬y
        if (min(x ^ 1, y ^ 1), max(x ^ 1, y ^ 1)) in clauses:
            pairs.append((x, y ^ 1))
    return pairs


def _choose(c: Circuit, gate, pairs: list[tuple[int, int]]) -> dict[int, int]:
    """Controllable input variable → the literal it equals, for the pairs whose other
    side does not depend on it, once the substitutions already chosen are applied."""
    ctrl = {x >> 1 for x, k in zip(c.inputs, c.controllable) if k}
    bit = {v: 1 << n for n, v in enumerate(sorted(ctrl))}
    mask: dict[int, int] = {v: bit.get(v, 0) for v in (x >> 1 for x in c.inputs)}
    mask[0] = 0
    for lhs, a, b in zip(c.and_lhs, c.and_rhs0, c.and_rhs1):
        mask[lhs >> 1] = mask.get(a >> 1, 0) | mask.get(b >> 1, 0)
    chosen: dict[int, int] = {}
    closure: dict[int, int] = {}  # substituted variable → its literal's inputs, expanded

    def expand(m: int) -> int:
        for v, cl in closure.items():
            if m & bit[v]:
                m = (m & ~bit[v]) | cl
        return m

    for x, y in pairs:
        for lit, other in ((x, y), (y, x)):
            v = lit >> 1
            if v not in ctrl or v in chosen:
                continue
            m = expand(mask.get(other >> 1, 0))
            if m & bit[v]:
                continue
            chosen[v] = other ^ (lit & 1)
            # inputs already substituted inside others' closures are replaced too
            for w in closure:
                if closure[w] & bit[v]:
                    closure[w] = (closure[w] & ~bit[v]) | m
            closure[v] = m
            break
    return chosen


def forced_inputs(circuit: Circuit, rounds: int = 4) -> Forced:
    """``circuit`` with the controllable inputs its error forces substituted (module
    docstring), up to ``rounds`` times (a substitution can expose another); with
    ``forced`` empty when there are none, the circuit then rebuilt only: gates hashed,
    constants folded, the gates outside the error's and the next states' cones left out."""
    index = {x >> 1: k for k, x in enumerate(circuit.inputs)}
    c, forced = circuit, dict[int, int]()
    for done in range(rounds):
        gate = {lhs >> 1: (a, b) for lhs, a, b in zip(c.and_lhs, c.and_rhs0, c.and_rhs1)}
        pairs = _equivalences(gate, _conjuncts(gate, c.error ^ 1))
        chosen = _choose(c, gate, pairs)
        if done and not chosen:
            break
        # rebuilt at least once: hashing folds a controller's copy of a forced
        # function against the circuit's own (:mod:`.controller`)
        c, now, forced = substituted(c, gate, chosen, forced)
        forced.update((index[v], lit) for v, lit in now.items())
        if not chosen:
            break
    return Forced(c, forced)
