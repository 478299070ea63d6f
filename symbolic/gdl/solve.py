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

from .. import atl, ir
from ..api import GameEngine, PositionSet
from ..model import Model

__all__ = ["coalitions", "dead_ends", "forced_formula", "forced_values"]


def coalitions(roles) -> list[tuple]:
    """The non-empty coalitions of ``roles``, by size then in role order.

    >>> coalitions(("a", "b"))
    [('a',), ('b',), ('a', 'b')]
    """
    return [c for k in range(1, len(roles) + 1) for c in itertools.combinations(roles, k)]


def _ref(model: Model, name: str, *args: int) -> atl.Ref:
    return atl.Ref(name, tuple(ir.Const(a) for a in args), None, model.definitions[name])


def forced_formula(model: Model, coalition, role, values) -> atl.Formula:
    """⟨⟨C⟩⟩ (¬terminal) U (terminal ∧ ⋁_{V ∈ values} goal(r, V)), built as objects."""
    ids = model.game.names.role_id
    terminal = _ref(model, "terminal")
    goals = [_ref(model, "goal", ids[role], v) for v in values]
    reached = goals[0]
    for g in goals[1:]:
        reached = atl.BoolOp("or", reached, g)
    return atl.Until(atl.CoalitionLit(tuple(ids[r] for r in coalition)), atl.Not(terminal),
                     atl.BoolOp("and", terminal, reached))


def forced_values(model: Model, engine: GameEngine) -> list[dict]:
    """``[{"coalition": [...], "role": r, "value": V}]`` for every coalition and role
    (see the module docstring), computed by ``engine``."""
    prog = model.game.program
    ev = atl.Evaluator(engine, model.definitions)
    initial = ev(_ref(model, "initial")).tuples()
    if len(initial) != 1:
        raise AssertionError(initial)
    start = initial[0]
    out = []
    for coalition in coalitions(prog.roles):
        for r in prog.roles:
            best = None
            values = prog.goals[r]
            for i in range(len(values) - 1, -1, -1):
                if start in ev(forced_formula(model, coalition, r, values[i:])):
                    best = values[i]
                    break
            out.append({"coalition": list(coalition), "role": r, "value": best})
    return out


def dead_ends(model: Model, engine: GameEngine) -> PositionSet:
    """The reachable non-terminal states without a successor: a role has no legal
    move there (see :mod:`symbolic.gdl.turns`)."""
    return engine.deadlocks() - atl.Evaluator(engine, model.definitions)(_ref(model, "terminal"))
