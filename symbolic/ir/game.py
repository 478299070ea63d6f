"""Games of the IR: moves (parameters, guard, effect) and the game over a space.

>>> from symbolic.ir.spaces import IntType, Space, VarDecl
>>> from symbolic.ir.exprs import Var
>>> g = Game("count", Space((VarDecl("k", IntType(0, 3)),)), (1,), TRUE,
...          (Move("down", guard=Var("k") > 0, effect=Var("k", primed=True).eq(Var("k") - 1)),))
>>> g.coalition(1)
frozenset({1})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol

from ..errors import ArgumentTypeError, ModelError, QueryError, Span
from .exprs import TRUE, Expr
from .outcome import NormalPlay, OutcomeRule
from .spaces import Space

__all__ = ["check_players", "HasPlayers", "Param", "Move", "Game"]


def check_players(name: str, players: tuple) -> None:
    """ModelError unless ``players`` (of the game ``name``) is a non-empty tuple of distinct
    ids: the check every kind of game makes (turn-based and concurrent)."""
    if not players:
        raise ModelError(f"game {name!r} has no players")
    if len(set(players)) != len(players):
        raise ModelError(f"game {name!r}: duplicate player ids {players}")


class HasPlayers(Protocol):
    """A game with player ids: :meth:`Game.coalition` reads only them (the concurrent
    game shares that method)."""

    @property
    def players(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Param:
    """A move parameter ranging over a finite tuple of constant values."""

    name: str
    domain: tuple


@dataclass(frozen=True)
class Move:
    """A move: for each parameter valuation where ``guard`` holds at the current
    position, the successors are the positions satisfying ``effect`` (over current
    and primed variables). Slots whose variable is never primed in ``effect``
    keep their value (for arrays: per element, after expanding quantifiers; a
    primed array element needs a constant index)."""

    name: str
    params: tuple[Param, ...] = ()
    guard: Expr = TRUE
    effect: Expr = TRUE
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Game:
    """A turn-based game ``(players, positions, turn, delta)``.

    ``positions`` are the vectors of ``space`` satisfying ``invariant``;
    ``turn`` is an int expression giving the player to move; δ(c) is the union
    over moves and parameter valuations of the successors each move allows
    (always inside the positions). ``outcome`` says who has won when a play is
    over (:mod:`symbolic.ir.outcome`; normal play unless the model declares another).
    """

    name: str
    space: Space
    players: tuple[int, ...]
    turn: Expr
    moves: tuple[Move, ...]
    invariant: Expr = TRUE
    description: str = ""
    outcome: OutcomeRule = NormalPlay()

    def __post_init__(self):
        check_players(self.name, self.players)
        names = [m.name for m in self.moves]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ModelError(f"game {self.name!r}: moves declared twice: {sorted(dup)}")

    def coalition(self: HasPlayers, players: Iterable[int]) -> frozenset[int]:
        """Validate a set of player ids against the game's players."""
        if isinstance(players, int) and not isinstance(players, bool):
            players = (players,)
        if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
            raise ArgumentTypeError(
                f"a coalition is a player id or a collection of player ids, got {players!r}"
            )
        players = tuple(players)
        bad = [p for p in players if not isinstance(p, int) or isinstance(p, bool)]
        if bad:
            raise ArgumentTypeError(
                f"coalition {players!r}: {bad[0]!r} is not a player id (an int)"
            )
        J = frozenset(players)
        unknown = sorted(J - set(self.players))
        if unknown:
            raise QueryError(f"unknown player(s) {unknown}: the players are {list(self.players)}")
        return J
