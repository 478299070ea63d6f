"""The turn reading of a GDL state, shared by both GDL engines (pure functions on
the legal moves of each role; each engine computes those its own way, and the
symbolic one writes the same rule as BDDs: :class:`symbolic.gdl.symbolic.RuleBdds`).

A role has a *choice* in a state when it has two legal moves or more, and a
*forced move* when it has exactly one (whatever its name: ``noop``, ``pass``,
``wait``...). A non-terminal state is *turn-based* when at most one role has a
choice. Its *mover* is

- the role with a choice, if there is one;
- else (every role has a forced move, so the state has exactly one successor)
  the first role, in file order, whose forced move is not named ``noop``;
- else the first role.

The second and third cases only label the state (``turn(...)``, ``control``):
a state with a single successor gives the same answer to every strategic
operator whoever is said to move (∃ and ∀ over one successor agree).
In a terminal state the same rule names a nominal mover (it has no moves).

A non-terminal state where some role has no legal move has no joint move (the
product of the roles' legal moves is empty), hence no successor: it is a dead
end. GDL asks descriptions never to reach one; ``3pttc.kif`` does (a role
whose pieces cannot move), so it is read literally, not refused, and
``symbolic gdl`` counts such states.

>>> mover(("a", "b"), {"a": ["noop"], "b": ["noop", "go"]})
'b'
>>> mover(("a", "b"), {"a": ["wait"], "b": [("take", "1")]})
'a'
>>> mover(("a", "b"), {"a": ["noop"], "b": [("take", "1")]})
'b'
>>> turn_error(("a", "b"), frozenset(), {"a": ["x", "y"], "b": ["z", "w"]}) is not None
True
>>> turn_error(("a", "b"), frozenset(), {"a": ["x", "y"], "b": ["wait"]}) is None
True
>>> turn_error(("a", "b"), frozenset(), {"a": ["x", "y"], "b": []}) is None
True
"""

from __future__ import annotations

from ..errors import ModelError
from .ground import term_text

__all__ = ["NOOP", "NotTurnBased", "describe_state", "mover", "turn_error"]

#: the name GDL descriptions usually give a forced move; it matters only to name the
#: mover of a state where every role has a forced move (see the module docstring)
NOOP = "noop"


class NotTurnBased(ModelError):
    """A reachable non-terminal state where several roles have a choice: the turn-based
    engines refuse it; :func:`symbolic.engines.make_engine` then reads the game as a
    concurrent one (:mod:`~.concurrent`)."""


def describe_state(roles, state: frozenset, legal: dict, fluents=None) -> str:
    """A state and its legal moves, for messages."""
    order = fluents if fluents is not None else sorted(state, key=repr)
    fl = " ".join(term_text(f) for f in order if f in state) or "(no fluent)"
    moves = "; ".join(
        f"{r}: {', '.join(term_text(m) for m in legal[r]) or 'no legal move'}" for r in roles
    )
    return f"state {{{fl}}}, legal moves {moves}"


def mover(roles, legal: dict):
    """The mover of a state by the rule of the module docstring."""
    chooser = next((r for r in roles if len(legal[r]) >= 2), None)
    if chooser is not None:
        return chooser
    return next((r for r in roles if len(legal[r]) == 1 and legal[r][0] != NOOP), roles[0])


def turn_error(roles, state: frozenset, legal: dict, fluents=None) -> NotTurnBased | None:
    """None when the (non-terminal) state is turn-based, else the error to raise."""
    choosers = [r for r in roles if len(legal[r]) >= 2]
    if len(choosers) > 1:
        where = describe_state(roles, state, legal, fluents)
        return NotTurnBased(
            "not a turn-based game: several roles have a choice of move in a "
            f"reachable state ({', '.join(choosers)}); {where}"
        )
    return None
