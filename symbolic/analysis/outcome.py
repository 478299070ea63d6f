"""The game's declared outcome on an engine: who has won, as sets of positions.

The rule is the game's own (``engine.game.outcome``, :mod:`symbolic.ir.outcome`),
read once by the front end; every analysis and command asks it here. With D the
dead ends (δ(c) = ∅) and T_p the positions where p is to move:

    normal play:  G_p = D ∖ T_p           target(C) = D ∩ T_{players ∖ C}
    misère play:  G_p = D ∩ T_p           target(C) = D ∩ T_C
    win sets:     G_p = D ∩ win(p) ∖ ⋃_{q ≠ p} win(q)    target(C) = ⋃_{p ∈ C} G_p
    GDL goals:    G_p = D ∩ terminal ∩ {goal(p) > goal(q) for every q ≠ p}
                  (one role: goal(p) = 100)  target(C) = ⋃_{p ∈ C} G_p

G_p is where the play is over and p has won; target(C) where it is over and the
coalition C has won (the ENS 2005 coalition rule in normal play: a player outside C
is stuck). A dead end in no G_p (win sets, goals) is a draw.

>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> m = load_model("models/tictactoe.game")
>>> ref = Referee(make_engine(m.game, "explicit"))
>>> ref.kind, ref.won(1).count(), ref.drawn().count()
('win(p) sets', 942, 172)
>>> ref.result((1, 2, 1, 1, 2, 2, 2, 1, 1), last_mover=1)
Outcome(winners=(), losers=(), reason='the play is over in no win(p) set: a draw', goals=())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .. import ir
from ..api import GameEngine, PositionSet, check_engine, union_all
from ..arguments import need_int
from ..errors import QueryError

__all__ = ["Outcome", "Referee", "outcome_rule", "players_text", "rule_text"]


def outcome_rule(engine: GameEngine) -> ir.OutcomeRule:
    """The outcome rule of ``engine``'s game (:mod:`symbolic.ir.outcome`); QueryError
    for a concurrent game, which declares none."""
    game = check_engine(engine).game
    if not isinstance(game, ir.Game):
        raise QueryError(
            f"the game {game.name!r} is concurrent: it has no outcome rule (who wins where "
            "a play ends)"
        )
    return game.outcome


def rule_text(rule: ir.OutcomeRule) -> str:
    """The outcome rule in words, for the output of every command.

    >>> rule_text(ir.NormalPlay())
    'normal play (the player left without a move loses)'
    """
    if isinstance(rule, ir.NormalPlay):
        return "normal play (the player left without a move loses)"
    if isinstance(rule, ir.MiserePlay):
        return "misère play (the player left without a move wins)"
    if isinstance(rule, ir.WinSets):
        return "the model's win(p) sets (a finished play in no player's win(p) is a draw)"
    if isinstance(rule, ir.GoalValues):
        return (
            "GDL goal values (a role wins with a goal above every other role's; "
            "equal goals: a draw)"
        )
    raise AssertionError(rule)


@dataclass(frozen=True)
class Outcome:
    """How a play ended: the winners, the losers (both empty for a draw), why, and
    the goal values of a GDL game (``((player, goal), ...)``, else empty)."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    reason: str
    goals: tuple[tuple[int, int], ...] = ()

    @property
    def draw(self) -> bool:
        return not self.winners

    def side_wins(self, side: Iterable[int]) -> bool:
        """Whether the side (a set of players) has won: one of its players has
        won and none has lost (the coalition rule)."""
        s = set(side)
        return bool(s & set(self.winners)) and not s & set(self.losers)


def players_text(c: Iterable[int]) -> str:
    """``{1, 2}``."""
    return "{" + ", ".join(map(str, sorted(c))) + "}"


class Referee:
    """The outcome rule of ``engine``'s game as position sets (module docstring)."""

    def __init__(self, engine: GameEngine):
        self.engine = check_engine(engine)
        self.rule = outcome_rule(engine)
        if not isinstance(self.rule, ir.OUTCOME_CLASSES):
            raise AssertionError(self.rule)
        self.players = tuple(engine.game.players)
        self._dead = engine.deadlocks()
        self._turn = {p: engine.turn_set({p}) for p in self.players}
        self._won: dict[int, PositionSet] = {}

    @property
    def kind(self) -> str:
        """The rule's name: normal play, misère play, win(p) sets, GDL goal values."""
        return self.rule.kind

    def dead_ends(self) -> PositionSet:
        """D: the positions where a play is over."""
        return self._dead

    def won(self, player: int) -> PositionSet:
        """G_p: the dead ends where ``player`` has won."""
        p = need_int(player, "player")
        if p not in self.players:
            raise QueryError(f"unknown player {p}: the players are {list(self.players)}")
        if p not in self._won:
            self._won[p] = self._dead & self._won_set(p)
        return self._won[p]

    def _won_set(self, p: int) -> PositionSet:
        r, e = self.rule, self.engine
        if isinstance(r, ir.NormalPlay):
            return e.positions() - self._turn[p]
        if isinstance(r, ir.MiserePlay):
            return self._turn[p]
        if isinstance(r, ir.WinSets):  # p's alone: a board in two win sets is a draw
            return e.from_expr(r.expr, {r.param: p}) - union_all(
                e, [e.from_expr(r.expr, {r.param: q}) for q in self.players if q != p]
            )
        if isinstance(r, ir.GoalValues):
            return self._goal_won(r, p)
        raise AssertionError(r)

    def goal_set(self, player: int, value: int) -> PositionSet:
        """GDL: the terminal dead ends where ``player`` gets the goal ``value``."""
        r = self.rule
        if not isinstance(r, ir.GoalValues):
            raise QueryError(f"the game's outcome is {r.kind}, not GDL goal values")
        return (
            self._dead
            & self.engine.from_expr(r.terminal)
            & self.engine.from_expr(r.goal, {r.role: player, r.value: value})
        )

    def _goal_won(self, r: ir.GoalValues, p: int) -> PositionSet:
        others = [q for q in self.players if q != p]
        if not others:
            return self.goal_set(p, 100) if 100 in r.values_of(p) else self.engine.empty()
        parts = []
        for v in r.values_of(p):
            s = self.goal_set(p, v)
            for q in others:
                s = s & union_all(
                    self.engine, [self.goal_set(q, w) for w in r.values_of(q) if w < v]
                )
            parts.append(s)
        return union_all(self.engine, parts)

    def target(self, coalition: Iterable[int]) -> PositionSet:
        """target(C): the dead ends where the coalition C has won."""
        C = self.engine.game.coalition(coalition)
        others = set(self.players) - C
        if isinstance(self.rule, ir.NormalPlay):
            return self._dead & self.engine.turn_set(others) if others else self.engine.empty()
        if isinstance(self.rule, ir.MiserePlay):
            return self._dead & self.engine.turn_set(C)
        return union_all(self.engine, [self.won(p) for p in sorted(C)])

    def drawn(self) -> PositionSet:
        """The dead ends where nobody has won (empty in normal and misère play)."""
        return self._dead - union_all(self.engine, [self.won(p) for p in self.players])

    def describe(self, coalition: Iterable[int]) -> str:
        """target(C) in words."""
        C = self.engine.game.coalition(coalition)
        who = players_text(C)
        if isinstance(self.rule, ir.NormalPlay):
            return f"leave a player outside {who} to move with no move left"
        if isinstance(self.rule, ir.MiserePlay):
            return f"be, or leave a player of {who}, to move with no move left (misère play)"
        if isinstance(self.rule, ir.WinSets):
            return f"end the play in win(p) for a player p of {who}"
        return f"end the play with the highest goal value for a role of {who}"

    def mover(self, pos: tuple) -> int:
        """t(c): the player to move at ``pos``."""
        for p, s in self._turn.items():
            if pos in s:  # ``in`` checks the position
                return p
        raise QueryError(f"{pos} is not a position of the game (the invariant is false there)")

    def result(self, pos: tuple, last_mover: int | None = None) -> Outcome:
        """The outcome of a play over at the dead end ``pos`` (``last_mover``, who
        moved into it, only checked: the rule decides, not the last move)."""
        pos = self.engine.space.check_position(pos)
        if last_mover is not None and need_int(last_mover, "last_mover") not in self.players:
            raise QueryError(
                f"last_mover {last_mover} is not a player: the players are {list(self.players)}"
            )
        if pos not in self._dead:
            raise QueryError(f"{self.engine.space.as_dict(pos)} has a move: the play is not over")
        winners = tuple(p for p in self.players if pos in self.won(p))
        losers = tuple(p for p in self.players if p not in winners) if winners else ()
        r = self.rule
        if isinstance(r, (ir.NormalPlay, ir.MiserePlay)):
            stuck = self.mover(pos)
            return Outcome(
                winners,
                losers,
                f"player {stuck} cannot move"
                + (" (misère play: the stuck player wins)" if isinstance(r, ir.MiserePlay) else ""),
            )
        if isinstance(r, ir.WinSets):
            return Outcome(
                winners,
                losers,
                "win(" + ", ".join(map(str, winners)) + ")"
                if winners
                else "the play is over in no win(p) set: a draw",
            )
        goals = tuple(
            (p, v) for p in self.players for v in r.values_of(p) if pos in self.goal_set(p, v)
        )
        text = ", ".join(f"player {p} gets {v}" for p, v in goals)
        return Outcome(
            winners,
            losers,
            f"goals: {text}"
            if goals
            else "the play is over in a state that is not terminal: no goal values",
            goals,
        )
