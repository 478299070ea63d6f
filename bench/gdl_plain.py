"""A plain GDL interpreter: the reference the explicit GDL engine is measured against.

It reads the same ground program as the engines (``symbolic.gdl.ground``: loading is
not what is measured) and nothing else of the project. Written the straightforward
way, as a first interpreter would be:

- a state is a frozenset of ground fluents; an atom is evaluated top-down from its
  ground bodies, with a memo per state (and per joint move for the atoms after
  ``does``);
- the reachable states are explored breadth-first, each joint move of each
  non-terminal state giving the state of the fluents whose ``next`` holds; the graph
  is a dict {state: [successors]};
- the forced table (the definition of ``symbolic.gdl.solve``: max V such that C forces
  (¬terminal ∧ ¬dead_end) U (terminal ∧ goal(r) ≥ V)) by the textbook counter-based
  attractor over the predecessor lists, one run per (coalition, role, value).

``python bench/gdl_plain.py FILE.kif`` prints the reachable states, the dead ends and
the table.
"""

from __future__ import annotations

import itertools
import sys


class Plain:
    """The game of a ground program, interpreted on frozensets of fluents."""

    def __init__(self, prog):
        self.prog = prog
        self.goal_atoms = {}  # (role, value) -> the ground goal atoms (goal r 050) is 50
        for a in prog.rules:
            if a[0] == "goal":
                self.goal_atoms.setdefault((a[1][0], int(a[1][1])), []).append(a)

    def holds(self, atom, state, does, memo) -> bool:
        kind, args = atom
        if kind == "true":
            return args[0] in state
        if kind == "does":
            return does.get(args[0]) == args[1]
        v = memo.get(atom)
        if v is None:
            v = any(
                all(self.holds(a, state, does, memo) == (k == "pos") for k, a in body)
                for body in self.prog.rules.get(atom, ())
            )
            memo[atom] = v
        return v

    def expand(self, state):
        """(terminal?, chooser or None, [successor states], {role: goal values})."""
        prog, memo = self.prog, {}
        terminal = self.holds(("terminal", ()), state, {}, memo)
        goals = (
            {
                r: [
                    v
                    for v in prog.goals[r]
                    if any(self.holds(a, state, {}, memo) for a in self.goal_atoms.get((r, v), ()))
                ]
                for r in prog.roles
            }
            if terminal
            else {}
        )
        legal = {
            r: [m for m in prog.moves[r] if self.holds(("legal", (r, m)), state, {}, memo)]
            for r in prog.roles
        }
        chooser = next((r for r in prog.roles if len(legal[r]) >= 2), None)
        succ = []
        if not terminal:
            for combo in itertools.product(*(legal[r] for r in prog.roles)):
                does = dict(zip(prog.roles, combo))
                m2 = dict(memo)
                t = frozenset(
                    f for f in prog.fluents if self.holds(("next", (f,)), state, does, m2)
                )
                if t not in succ:
                    succ.append(t)
        return terminal, chooser, succ, goals

    def explore(self) -> tuple:
        """(the initial state, {state: expand(state)}) over the reachable states."""
        start = frozenset(self.prog.init)
        graph = {start: None}
        layer = [start]
        while layer:
            nxt = []
            for s in layer:
                graph[s] = self.expand(s)
                for t in graph[s][2]:
                    if t not in graph:
                        graph[t] = None
                        nxt.append(t)
            layer = nxt
        return start, graph

    def forced(self, start, graph) -> list[dict]:
        """[{coalition, role, value}] for every coalition (by size) and role."""
        roles = self.prog.roles
        pred = {s: [] for s in graph}
        for s, (_, _, succ, _) in graph.items():
            for t in succ:
                pred[t].append(s)
        stay = {s for s, (term, _, succ, _) in graph.items() if not term and succ}
        out = []
        for k in range(1, len(roles) + 1):
            for coalition in itertools.combinations(roles, k):
                for r in roles:
                    value = None
                    for v in sorted(self.prog.goals[r], reverse=True):
                        target = [
                            s
                            for s, (term, _, _, g) in graph.items()
                            if term and any(x >= v for x in g[r])
                        ]
                        if start in attract(graph, pred, stay, target, coalition):
                            value = v
                            break
                    out.append({"coalition": list(coalition), "role": r, "value": value})
        return out


def attract(graph, pred, stay, target, coalition) -> set:
    """The states of ``stay`` from which ``coalition`` forces reaching ``target``."""
    won = set(target)
    left = {}  # successors not yet won, for the states where the coalition does not choose
    todo = list(target)
    while todo:
        t = todo.pop()
        for s in pred[t]:
            if s in won or s not in stay:
                continue
            chooser, succ = graph[s][1], graph[s][2]
            if chooser in coalition:
                won.add(s)
                todo.append(s)
            else:
                n = left.get(s, len(succ)) - 1
                left[s] = n
                if n == 0:
                    won.add(s)
                    todo.append(s)
    return won


def solve(prog) -> tuple[int, int, list[dict]]:
    """(reachable states, dead ends, forced table) of a ground program."""
    p = Plain(prog)
    start, graph = p.explore()
    dead = sum(1 for term, _, succ, _ in graph.values() if not term and not succ)
    return len(graph), dead, p.forced(start, graph)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    from symbolic.model import load_model

    n, dead, table = solve(load_model(sys.argv[1]).game.program)
    print(f"reachable states: {n}; dead ends: {dead}")
    for f in table:
        print(f"  {{{', '.join(f['coalition'])}}}  {f['role']}  {f['value']}")
