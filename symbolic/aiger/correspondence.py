"""Latches equal (or opposite, or constant) in every reachable state, merged before any
BDD is built (latch correspondence).

A partition of the latches into classes, each latch k with a representative r(k) and a
phase p(k) (a constant latch: r(k) = ⊥, its value p(k)), is *inductive* when

    reset(k) = reset(r(k)) ⊕ p(k)   and   next_k[σ] = next_{r(k)}[σ] ⊕ p(k)

for every latch, where σ replaces each latch by its representative's literal: then by
induction on the steps every state reachable from the initial one, whatever either player
does, satisfies k = r(k) ⊕ p(k) (van Eijk, "Sequential equivalence checking based on
structural similarities", IEEE TCAD 2000). The winning region of the circuit restricted to
those states is the merged circuit's (the latches k ≠ r(k) replaced by σ), so its
realizability is the same.

Candidates come from simulating the circuit from its initial state under random inputs
(a latch that ever differs from a candidate class is never in it); the refinement then
splits classes until the equalities above hold *structurally*: the next-state literals are
compared in the rebuilt graph (gates hashed, constants folded), a sound test (equal
literals are equal functions) that may split classes a BDD would keep together. A latch
without a reset value is alone in its class. Circuits of more than :data:`MAX_GATES`
gates are left as they are (the simulation and each refinement walk every gate).

>>> from .reader import parse_aiger
>>> # two latches both set by input u: always equal; a third stuck at 0
>>> c = parse_aiger("aag 5 1 3 1 0\\n2\\n4 2\\n6 2\\n8 8\\n4\\ni0 u\\n")
>>> m = merged_latches(c)
>>> len(m.circuit.latches), sorted(m.classes.items())
(1, [(1, (0, 0)), (2, (-1, 0))])
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..limits import Limits
from ..limits import current as current_limits
from .circuit import Circuit
from .rewrite import substituted

__all__ = ["Merged", "merged_latches"]

#: bits simulated side by side (one Python integer per signal) and steps simulated
WIDTH, STEPS = 256, 64

#: the largest circuit whose latches are merged (gates)
MAX_GATES = 200_000


@dataclass(frozen=True)
class Merged:
    """A circuit with its corresponding latches merged: ``circuit`` keeps the
    representatives only (same inputs and names); ``classes``: latch index (in the
    original) → (index of its representative, phase), the representative -1 for a
    constant latch (its value the phase); ``rounds``: refinements run."""

    circuit: Circuit
    classes: dict[int, tuple[int, int]]
    rounds: int


def _candidates(c: Circuit, seed: int, steps: int, limits: Limits) -> list[list[int]]:
    """Classes of latch indices (the first one the representative, the constant class
    first, possibly empty), latches that agreed, up to phase, in every step of
    :data:`WIDTH` random runs of ``steps`` steps from the initial state."""
    rnd = random.Random(seed)
    mask = (1 << WIDTH) - 1
    free = [r not in (0, 1) for r in c.reset]
    state = [rnd.getrandbits(WIDTH) if f else mask * r for f, r in zip(free, c.reset)]
    seen = [[0] * steps for _ in c.latches]
    for t in range(steps):
        limits.check(f"simulating step {t} of {steps}")
        value = {0: 0}
        for x, v in zip(c.latches, state):
            value[x >> 1] = v
        for x in c.inputs:
            value[x >> 1] = rnd.getrandbits(WIDTH)
        for lhs, a, b in zip(c.and_lhs, c.and_rhs0, c.and_rhs1):
            value[lhs >> 1] = (value[a >> 1] ^ -(a & 1)) & (value[b >> 1] ^ -(b & 1)) & mask
        for k, v in enumerate(state):
            # up to phase: as seen from the reset value
            seen[k][t] = v ^ (mask * c.reset[k]) if not free[k] else v
        state = [(value[n >> 1] ^ -(n & 1)) & mask for n in c.next_state]
    constant: list[int] = []
    groups: dict[tuple[int, ...], list[int]] = {}
    out: list[list[int]] = [constant]
    for k, trace in enumerate(seen):
        if free[k]:
            out.append([k])
        elif not any(trace):
            constant.append(k)
        else:
            groups.setdefault(tuple(trace), []).append(k)
    return out + list(groups.values())


def _substitution(c: Circuit, classes: list[list[int]]) -> dict[int, int]:
    """Latch variable → the literal that replaces it (σ), for the non-representatives."""
    sub: dict[int, int] = {}
    for n, members in enumerate(classes):
        if n == 0:
            sub.update((c.latches[k] >> 1, c.reset[k]) for k in members)
            continue
        r = members[0]
        for k in members[1:]:
            sub[c.latches[k] >> 1] = c.latches[r] ^ c.reset[k] ^ c.reset[r]
    return sub


def merged_latches(
    circuit: Circuit, *, seed: int = 0, steps: int = STEPS, limits: Limits | None = None
) -> Merged:
    """``circuit`` with its corresponding latches merged (module docstring): the
    candidates of a simulation of ``steps`` steps seeded with ``seed``, refined until
    inductive (with one step, every latch is a candidate constant: the refinement alone
    finds the classes)."""
    c = circuit
    if len(c.and_lhs) > MAX_GATES or not c.latches:
        return Merged(c, {}, 0)
    limits = current_limits() if limits is None else limits
    gate = {lhs >> 1: (a, b) for lhs, a, b in zip(c.and_lhs, c.and_rhs0, c.and_rhs1)}
    classes = _candidates(c, seed, max(1, steps), limits)
    rounds = 0
    while True:
        rounds += 1
        limits.check(f"merging latches, refinement {rounds}")
        rebuilt, _, _ = substituted(c, gate, _substitution(c, classes), {})
        key = [n ^ r for n, r in zip(rebuilt.next_state, c.reset)]
        split: list[list[int]] = [[k for k in classes[0] if key[k] == 0]]
        rest = [k for k in classes[0] if key[k] != 0]
        for members in [rest, *classes[1:]]:
            by: dict[int, list[int]] = {}
            for k in members:
                by.setdefault(key[k], []).append(k)
            split.extend(by.values())
        if not rest and len(split) == len(classes):
            break
        classes = split
    # the last rebuilt circuit is the merged one: keep the representatives
    keep = sorted(members[0] for members in classes[1:] if members)
    merged = Circuit(
        maxvar=rebuilt.maxvar,
        inputs=rebuilt.inputs,
        latches=tuple(rebuilt.latches[k] for k in keep),
        next_state=tuple(rebuilt.next_state[k] for k in keep),
        reset=tuple(rebuilt.reset[k] for k in keep),
        outputs=rebuilt.outputs,
        and_lhs=rebuilt.and_lhs,
        and_rhs0=rebuilt.and_rhs0,
        and_rhs1=rebuilt.and_rhs1,
        input_names=rebuilt.input_names,
        latch_names=tuple(rebuilt.latch_names[k] for k in keep),
        output_names=rebuilt.output_names,
        comments=rebuilt.comments,
    )
    info = {k: (-1, c.reset[k]) for k in classes[0]}
    for members in classes[1:]:
        for k in members[1:]:
            info[k] = (members[0], c.reset[k] ^ c.reset[members[0]])
    return Merged(merged, info, rounds)
