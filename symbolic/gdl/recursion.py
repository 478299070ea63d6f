"""Recursion through the state: ground atoms that read themselves, unrolled.

A state-dependent relation may be recursive: ``(<= (hasliberty ?x ?y ?c) (true (cell ?x
?y ?c)) (adjacent ?x ?y ?u ?v) (hasliberty ?u ?v ?c))`` (atariGoVariant) holds where a
chain of stones reaches a liberty. Its ground atoms then form cycles, and the engines,
which build each ground atom from the atoms it reads, need an acyclic ground program.
Definition: in each strongly connected component S of the ground atoms (its cycles go
without negation: :func:`~.strata.ground_negation` refuses the others), the least
fixpoint of S's rules, the atoms outside S fixed, is reached in at most |S| rounds (each
round adds an atom of S or changes nothing). So S is unrolled: copies ``a @i`` of each
atom for rounds i = 1 .. |S| - 1, round i reading round i - 1 (round 0: false), and the
atom itself is round |S|. The copies' names hold a space, which no KIF symbol does.

>>> rules = {("r", ("1",)): {(("pos", ("true", ("s",))),), (("pos", ("r", ("2",))),)},
...          ("r", ("2",)): {(("pos", ("r", ("1",))),)}}
>>> out = unroll(rules)
>>> sorted(out[("r", ("2",))]), sorted(out[("r @1", ("1",))])
([(('pos', ('r @1', ('1',))),)], [(('pos', ('true', ('s',))),)])
"""

from __future__ import annotations

from ..errors import ModelError
from .strata import components

__all__ = ["unroll", "MAX_UNROLLED_BODIES"]

#: how many rule bodies unrolling may write at most (|S| copies of each body of S)
MAX_UNROLLED_BODIES = 1_000_000


def unroll(ground_rules: dict) -> dict:
    """``ground_rules`` ({ground atom: {body}}) with every recursive component unrolled
    (the module docstring); unchanged when there is none. A ModelError past
    :data:`MAX_UNROLLED_BODIES`."""
    edges = {
        atom: [lit[1] for body in bodies for lit in body] for atom, bodies in ground_rules.items()
    }
    comp = components({a: [(b, False) for b in out] for a, out in edges.items()})
    members: dict = {}
    for atom in ground_rules:
        members.setdefault(comp[atom], []).append(atom)
    recursive = [
        group for group in members.values() if len(group) > 1 or group[0] in edges[group[0]]
    ]
    if not recursive:
        return ground_rules
    out = dict(ground_rules)
    written = 0
    for group in recursive:
        inside = set(group)
        n = len(group)
        written += n * sum(len(ground_rules[a]) for a in group)
        if written > MAX_UNROLLED_BODIES:
            name, args = group[0]
            raise ModelError(
                f"recursion through the state: ({name} ...) depends on itself through "
                f"{n} ground atoms; unrolling it would write more than "
                f"{MAX_UNROLLED_BODIES} rule bodies (too large)"
            )

        def at(atom, i: int):
            return atom if i == n else (f"{atom[0]} @{i}", atom[1])

        for i in range(1, n + 1):
            for atom in group:
                bodies = set()
                for body in ground_rules[atom]:
                    if i == 1 and any(lit[1] in inside for lit in body):
                        continue  # reads round 0: false
                    bodies.add(tuple((k, at(a, i - 1) if a in inside else a) for k, a in body))
                if bodies:
                    out[at(atom, i)] = bodies
                else:
                    out.pop(at(atom, i), None)
    return out
