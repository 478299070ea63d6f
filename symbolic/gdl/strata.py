"""The relations of a GDL description: which depend on the state, and their strata.

:func:`relation_graph` maps each head relation to the (relation, negated) pairs its
rules read; :func:`dynamic_relations` closes ``true``, ``does`` and the relations
the game reads (:data:`GAME`) under "depends on"; :func:`strata` gives each
relation its stratum (negation as failure needs a stratified program: the static
relations, evaluated stratum by stratum); :func:`ground_negation` checks the ground
state-dependent atoms, which need only be stratified atom by atom.

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

__all__ = [
    "GAME",
    "STATE",
    "components",
    "dynamic_relations",
    "ground_negation",
    "negative_cycle",
    "relation_graph",
    "strata",
]

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
    inside = set(names)
    edges = {h: [(d, neg) for d, neg in deps.get(h, ()) if d in inside] for h in names}
    cycle = negative_cycle(edges)
    if cycle is None:  # the levels grew without a cycle through negation: impossible
        raise AssertionError(names)
    raise ModelError(
        f"relation '{cycle[0]}' depends on its own negation: "
        f"{_cycle_text(cycle, repr)}: the rules are not stratified (GDL allows no "
        "cycle through (not ...) between relations)",
        _negation_span(rules, lambda head: head[0] == cycle[0], cycle[2]),
    )


def ground_negation(ground_rules: dict, rules, show=str) -> None:
    """A located ModelError when a ground atom depends on its own negation (``show``
    writes an atom). The state-dependent relations need no strata: a relation may read
    its own negation, ``(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))``, as long as no
    ground atom does (the engines build each ground atom from the atoms it reads; a
    cycle without negation is refused elsewhere, as recursion through the state)."""
    edges = {
        atom: list({(lit[1], lit[0] == "neg") for body in bodies for lit in body})
        for atom, bodies in ground_rules.items()
    }
    cycle = negative_cycle(edges)
    if cycle is not None:
        raise ModelError(
            f"{show(cycle[0])} depends on its own negation: {_cycle_text(cycle, show)}: "
            "the rules are not stratified (GDL allows no cycle through (not ...))",
            _negation_span(rules, lambda head: head[0] == cycle[0][0], cycle[2][0]),
        )


def negative_cycle(edges: dict) -> list | None:
    """A cycle through a negated edge of the graph ``edges`` ({node: [(node, negated)]}),
    as ``[n0, negated, n1, negated, ..., n0]`` starting with the negated edge, or None.

    >>> negative_cycle({"p": [("q", False)], "q": [("p", True), ("r", True)], "r": []})
    ['q', True, 'p', False, 'q']
    >>> negative_cycle({"p": [("q", True)], "q": []}) is None
    True
    """
    comp = components(edges)
    for u, out in edges.items():
        for v, neg in out:
            if neg and v in comp and comp[v] == comp.get(u):
                path = _path(edges, v, u, comp)
                cycle = [u, True]
                for node, negated in path:
                    cycle += [node, negated] if node != u else [node]
                return cycle
    return None


def components(edges: dict) -> dict:
    """{node: its strongly connected component's id} (iterative Tarjan), for the graph
    ``edges`` ({node: [(node, negated)]}).

    >>> c = components({"p": [("q", False)], "q": [("p", True)], "r": [("p", False)]})
    >>> c["p"] == c["q"] != c["r"]
    True
    """
    index: dict = {}
    low: dict = {}
    comp: dict = {}
    stack: list = []
    on: set = set()
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                w = nxt[0]
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges.get(w, ()))))
                elif w in on:
                    low[node] = min(low[node], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp[w] = index[node]
                    if w == node:
                        break
    return comp


def _path(edges: dict, start, goal, comp: dict) -> list:
    """[(node, negated edge into it)] from ``start`` to ``goal`` inside their component,
    ``start`` first (with the edge that leads to the next node), breadth-first."""
    inside = comp[start]
    came: dict = {start: None}
    todo = [start]
    while todo and goal not in came:
        nxt = []
        for u in todo:
            for v, neg in edges.get(u, ()):
                if v not in came and comp.get(v) == inside:
                    came[v] = (u, neg)
                    nxt.append(v)
        todo = nxt
    steps, node = [], goal
    while came[node] is not None:
        u, neg = came[node]
        steps.append((u, neg))
        node = u
    steps.reverse()
    return steps + [(goal, False)]


def _cycle_text(cycle: list, show) -> str:
    """``p → not q → p``: each node after the edge leading to it."""
    out = [show(cycle[0])]
    for i in range(1, len(cycle), 2):
        out.append(("not " if cycle[i] else "") + show(cycle[i + 1]))
    return " → ".join(out)


def _negation_span(rules, head_is, negated: str):
    """The span of the first rule whose head ``head_is`` and whose body negates
    relation ``negated``; else of the first rule whose head ``head_is``."""
    heads = [r for r in rules if head_is(r.head)]
    for r in heads:
        if any(lit[0] == "neg" and lit[1][0] == negated for lit in r.body):
            return r.span
    return heads[0].span if heads else None
