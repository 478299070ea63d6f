"""The outcome a game declares: who has won when a play is over.

A play is over at a dead end (a position without successor: δ(c) = ∅). The game's
outcome rule says who has won there; every command and analysis reads it from the
game (``game.outcome``), never from the text again.

- :class:`NormalPlay` (the default): the player to move at the dead end is stuck
  and loses; every other player wins. A coalition C wins a play when it ends with
  a player outside C stuck: the coalition rule of the ENS 2005 exam, and for two
  players "the player who cannot move loses".
- :class:`MiserePlay`: the stuck player wins, every other player loses (a
  coalition wins when the stuck player is one of its members).
- :class:`WinSets`: player p wins at the dead ends where the state expression
  ``expr`` holds with ``param`` bound to p (a model's ``set win(p) = ...``) and
  no other player's win set holds; any other dead end is a draw.
- :class:`GoalValues` (GDL): at a terminal dead end each role r gets the goal
  value v for which ``goal`` holds with ``role`` bound to r and ``value`` to v.
  Role r wins there when its goal exceeds every other role's (for a one-role
  game: when its goal is 100); equal goals are a draw.

>>> NormalPlay().kind, MiserePlay().kind
('normal play', 'misère play')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .exprs import Expr

__all__ = ["NormalPlay", "MiserePlay", "WinSets", "GoalValues", "OutcomeRule", "OUTCOME_CLASSES"]


@dataclass(frozen=True)
class NormalPlay:
    """The player left without a move loses; the others win."""

    @property
    def kind(self) -> str:
        return "normal play"


@dataclass(frozen=True)
class MiserePlay:
    """The player left without a move wins; the others lose."""

    @property
    def kind(self) -> str:
        return "misère play"


@dataclass(frozen=True)
class WinSets:
    """Player p wins at a dead end where ``expr``[``param`` := p] holds; none: a draw."""

    param: str
    expr: Expr

    @property
    def kind(self) -> str:
        return "win(p) sets"


@dataclass(frozen=True)
class GoalValues:
    """GDL goals: at a terminal dead end (``terminal``), role r gets v where
    ``goal``[``role`` := r, ``value`` := v] holds, v among ``values[r]``."""

    terminal: Expr
    goal: Expr
    role: str
    value: str
    values: tuple[tuple[int, tuple[int, ...]], ...]  # (player id, its goal values)

    @property
    def kind(self) -> str:
        return "GDL goal values"

    def values_of(self, player: int) -> tuple[int, ...]:
        return dict(self.values).get(player, ())


#: a game's outcome rule
OutcomeRule = Union[NormalPlay, MiserePlay, WinSets, GoalValues]

#: every outcome class (the keys of a pass's dispatch table)
OUTCOME_CLASSES = (NormalPlay, MiserePlay, WinSets, GoalValues)
