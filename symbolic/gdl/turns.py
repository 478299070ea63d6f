"""The turn reading of a GDL state, shared by both GDL engines (pure functions on
the legal moves of each role; each engine computes those its own way).

A role is *active* when it has a legal move other than ``noop``. The state is
turn-based when at most one role is active, every other role has exactly the
legal move ``noop``, and the mover — the active role, else the first role —
has a legal move.

>>> nominal_mover(("a", "b"), {"a": ["noop"], "b": ["noop", "go"]})
'b'
>>> turn_error(("a", "b"), frozenset(), {"a": ["x", "y"], "b": ["z"]}) is not None
True
"""
from __future__ import annotations

from ..errors import ModelError
from .ground import term_text

__all__ = ["NOOP", "describe_state", "nominal_mover", "turn_error"]

#: the forced move of a role that is not to move
NOOP = "noop"


def describe_state(roles, state: frozenset, legal: dict, fluents=None) -> str:
    """A state and its legal moves, for messages."""
    order = fluents if fluents is not None else sorted(state, key=repr)
    fl = " ".join(term_text(f) for f in order if f in state) or "(no fluent)"
    moves = "; ".join(f"{r}: {', '.join(term_text(m) for m in legal[r]) or 'no legal move'}"
                      for r in roles)
    return f"state {{{fl}}}, legal moves {moves}"


def nominal_mover(roles, legal: dict):
    """The first role with a legal move other than ``noop``, else the first role."""
    return next((r for r in roles if any(m != NOOP for m in legal[r])), roles[0])


def turn_error(roles, state: frozenset, legal: dict, fluents=None) -> ModelError | None:
    """None when the (non-terminal) state is turn-based, else the error to raise."""
    active = [r for r in roles if any(m != NOOP for m in legal[r])]
    where = describe_state(roles, state, legal, fluents)
    if len(active) > 1:
        return ModelError("not a turn-based game: several roles have a choice of move in a "
                          f"reachable state ({', '.join(active)}); {where}")
    mover = nominal_mover(roles, legal)
    waiting = [r for r in roles if r != mover and legal[r] != [NOOP]]
    if waiting:
        return ModelError(f"not a turn-based game: role {waiting[0]} has no single forced "
                          f"move '{NOOP}' while {mover} is to move; {where}")
    if not legal[mover]:
        return ModelError(f"role {mover} has no legal move in a reachable non-terminal "
                          f"state; {where}")
    return None
