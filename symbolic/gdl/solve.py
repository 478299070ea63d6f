"""Who wins a GDL game: the best goal value each coalition can force.

For a coalition C (a non-empty set of roles) and a role r with goal values
V_1 < ... < V_k, the value C forces for r is

    forced(C, r) = max { V_i | initial ⊨ ⟨⟨C⟩⟩ (¬terminal) U (terminal ∧ ⋁_{j ≥ i} goal(r, V_j)) }

(None when no V_i qualifies, e.g. when C cannot force the game to end). The
until keeps ``not terminal`` on its left so that a terminal state — a dead
end, where no one moves — counts only through its goal, whatever the
dead-end convention: C forces a terminal state where r gets at least V.
"""
from __future__ import annotations

import itertools

from .. import atl
from ..api import GameEngine
from ..model import Model, parse_formula

__all__ = ["coalitions", "forced_values"]


def coalitions(roles) -> list[tuple]:
    """The non-empty coalitions of ``roles``, by size then in role order.

    >>> coalitions(("a", "b"))
    [('a',), ('b',), ('a', 'b')]
    """
    return [c for k in range(1, len(roles) + 1) for c in itertools.combinations(roles, k)]


def forced_values(model: Model, engine: GameEngine) -> list[dict]:
    """``[{"coalition": [...], "role": r, "value": V}]`` for every coalition and role
    (see the module docstring), computed by ``engine``."""
    game = model.game
    prog, tr = game.program, game.names
    ev = atl.Evaluator(engine, model.definitions)
    initial = ev(parse_formula("initial", model)).tuples()
    if len(initial) != 1:
        raise AssertionError(initial)
    start = initial[0]
    out = []
    for coalition in coalitions(prog.roles):
        names = ", ".join(tr.role_name[r] for r in coalition)
        for r in prog.roles:
            best = None
            values = prog.goals[r]
            for i in range(len(values) - 1, -1, -1):
                goal = " or ".join(f"goal({tr.role_name[r]}, {v})" for v in values[i:])
                f = parse_formula(f"<<{names}>> (not terminal) U (terminal and ({goal}))", model)
                if start in ev(f):
                    best = values[i]
                    break
            out.append({"coalition": list(coalition), "role": r, "value": best})
    return out
