"""The relations of a GDL description: which depend on the state, and their strata.

:func:`relation_graph` maps each head relation to the (relation, negated) pairs its
rules read; :func:`dynamic_relations` closes ``true``, ``does`` and the relations
the game reads (:data:`GAME`) under "depends on"; :func:`strata` gives each
relation its stratum (negation as failure needs a stratified program).

>>> from .kif import parse_kif
>>> from .rules import read_rules
>>> rules = read_rules(parse_kif("(<= (p ?x) (q ?x) (not (r ?x))) (q 1) (r 2)"))
>>> deps = relation_graph(rules)
>>> sorted(deps["p"])
[('q', False), ('r', True)]
>>> strata(deps, ["p", "q", "r"], rules)
{'p': 1, 'q': 0, 'r': 0}
"""

from __future__ import annotations

from collections import defaultdict

from ..errors import ModelError
from .rules import Rule

__all__ = ["GAME", "STATE", "dynamic_relations", "relation_graph", "strata"]

#: the relations that read the state: the fluents true now and the moves done
STATE = ("true", "does")


def relation_graph(rules: list[Rule]):
    """{head relation: {(relation, negated)}}: what the rules of each relation read."""
    deps: dict[str, set] = defaultdict(set)  # head relation -> (relation, negated)
    for r in rules:
        deps[r.head[0]]
        for lit in r.body:
            if lit[0] in ("pos", "neg"):
                deps[r.head[0]].add((lit[1][0], lit[0] == "neg"))
    return deps


#: the relations the game reads in every state: dynamic even when their rules are facts or
#: read only static relations (``(goal a 100)``, ``(legal b noop)``), so that they are ground
#: into rules (an empty body: always true) instead of being left in the static database
GAME = ("legal", "goal", "terminal", "next")


def dynamic_relations(deps) -> set:
    """The relations that depend on the state: ``true``, ``does``, those of :data:`GAME`,
    and every relation that depends on one of them."""
    dyn = set(STATE) | set(GAME)
    changed = True
    while changed:
        changed = False
        for h, ds in deps.items():
            if h not in dyn and any(d in dyn for d, _ in ds):
                dyn.add(h)
                changed = True
    return dyn


def strata(deps, names, rules) -> dict:
    """stratum(p) ≥ stratum(q) for p :- q, > for p :- not q; a ModelError when
    negation goes through a cycle (the program is not stratified)."""
    level = {n: 0 for n in names}
    for _ in range(len(names) + 1):
        changed = False
        for h in names:
            for d, neg in deps.get(h, ()):
                if d in level:
                    need = level[d] + (1 if neg else 0)
                    if need > level[h]:
                        level[h] = need
                        changed = True
        if not changed:
            return level
    bad = max(names, key=lambda n: level[n])
    span = next((r.span for r in rules if r.head[0] == bad), None)
    raise ModelError(
        f"relation '{bad}' depends on its own negation: the rules are not stratified", span
    )
