"""Two-player values on the explicit graph: the reference for :mod:`symbolic.analysis.values`.

Two computations, neither using position sets or fixpoint layers:

- :func:`retrograde_values`: for each player p, a breadth-first retrograde
  sweep from the dead ends where p has won by the game's declared outcome
  (:func:`won_dead_ends`; normal play: where p's opponent is stuck): a position of p gets
  rank k + 1 when a first successor gets rank k, an opponent's position when
  the last of its successors gets a rank (a counter per position). The mover's
  value is +rank in its own sweep, −rank in the other's; positions reached by
  neither sweep are draws (None). Works with cycles. O(positions + edges).
- :func:`recurrence_values`: the text's recurrence, value(c) = 0 without a
  move, 1 − max{v ≤ 0} over the successors' values when one is ≤ 0, else
  −(1 + max v), by a memoized depth-first recursion (an explicit stack, so
  long games do not hit Python's recursion limit). Defined for alternating
  games without cycles; QueryError otherwise.

>>> from symbolic.seeds.games import subtraction
>>> from symbolic.explicit import ExplicitGame
>>> G = ExplicitGame(subtraction(6))
>>> [retrograde_values(G)[(2, k)] for k in range(7)]
[0, 1, 1, 1, -2, 3, 3]
>>> retrograde_values(G) == recurrence_values(G)
True
"""

from __future__ import annotations

from typing import Protocol

from .. import ir
from ..errors import QueryError
from ..ir import Game

__all__ = [
    "IndexedGame",
    "retrograde_values",
    "recurrence_values",
    "won_dead_ends",
    "check_two_players",
    "recurrence_value",
]


class IndexedGame(Protocol):
    """What the sweeps read of a game: its positions by index, with the turn and
    the successor and predecessor indices of each (an
    :class:`~symbolic.explicit.ExplicitGame`; named here, not imported, since
    ``ExplicitGame.retrograde_values`` calls this module)."""

    game: Game

    def positions(self): ...
    def position_at(self, i: int) -> tuple: ...
    def turn(self, pos) -> int: ...
    def successor_indices(self, i: int) -> tuple[int, ...]: ...
    def predecessor_indices(self, i: int) -> list[int]: ...
    def from_expr(self, expr, env=None): ...


def check_two_players(g: IndexedGame) -> tuple[int, int]:
    """The two players of ``g``, or QueryError."""
    players = tuple(g.game.players)
    if len(players) != 2:
        raise QueryError(
            f"values are defined for two-player games; {g.game.name!r} "
            f"has {len(players)} player(s): {list(players)}"
        )
    return players


def recurrence_value(successor_values: list[int]) -> int:
    """0 without successors; 1 − max{v ≤ 0} when some v ≤ 0; else −(1 + max v).

    Written here again, not imported: the engines import nothing above the API,
    and the reference stays independent of :mod:`symbolic.analysis.values`.

    >>> recurrence_value([2, 6, 11]), recurrence_value([-11, 3, -8, 17])
    (-12, 9)
    """
    if not successor_values:
        return 0
    worst_for_them = max((v for v in successor_values if v <= 0), default=None)
    if worst_for_them is not None:
        return 1 - worst_for_them
    return -(1 + max(successor_values))


def _graph(g: IndexedGame):
    n = g.positions().count()
    dom = [g.position_at(i) for i in range(n)]
    turns = [g.turn(c) for c in dom]
    succ = [g.successor_indices(i) for i in range(n)]
    return n, dom, turns, succ


def won_dead_ends(g: IndexedGame, dom: list, turns: list, succ: list) -> dict[int, list[int]]:
    """{p: the indices of the dead ends where p has won}, by the game's outcome rule
    (:mod:`symbolic.ir.outcome`), read here again with the explicit engine's own
    evaluation: the stuck player loses (normal) or wins (misère); win(p) holds;
    p's GDL goal exceeds every other role's (one role: it is 100)."""
    rule, players = g.game.outcome, tuple(g.game.players)
    dead = [i for i in range(len(dom)) if not succ[i]]
    if isinstance(rule, ir.NormalPlay):
        return {p: [i for i in dead if turns[i] != p] for p in players}
    if isinstance(rule, ir.MiserePlay):
        return {p: [i for i in dead if turns[i] == p] for p in players}
    if isinstance(rule, ir.WinSets):  # in p's win set and nobody else's
        wins = {p: g.from_expr(rule.expr, {rule.param: p}) for p in players}
        return {
            p: [i for i in dead if [q for q in players if dom[i] in wins[q]] == [p]]
            for p in players
        }
    if isinstance(rule, ir.GoalValues):
        terminal = g.from_expr(rule.terminal)
        goal = {
            p: {v: g.from_expr(rule.goal, {rule.role: p, rule.value: v}) for v in rule.values_of(p)}
            for p in players
        }
        got = {
            i: {
                p: max((v for v, s in goal[p].items() if dom[i] in s), default=None)
                for p in players
            }
            for i in dead
            if dom[i] in terminal
        }
        if len(players) == 1:
            return {p: [i for i, gv in got.items() if gv[p] == 100] for p in players}
        return {p: [i for i, gv in got.items() if _above_all(gv, p, players)] for p in players}
    raise AssertionError(rule)


def _above_all(goals: dict[int, int | None], p: int, players: tuple[int, ...]) -> bool:
    """Whether p has a goal value and every other player a smaller one.

    >>> _above_all({1: 50, 2: 0}, 1, (1, 2)), _above_all({1: 50, 2: None}, 2, (1, 2))
    (True, False)
    """
    mine = goals[p]
    if mine is None:
        return False
    return all((v := goals[q]) is not None and v < mine for q in players if q != p)


def retrograde_values(g: IndexedGame) -> dict[tuple, int | None]:
    """{position: value or None (draw)} by one retrograde sweep per player."""
    players = check_two_players(g)
    n, dom, turns, succ = _graph(g)
    pred = [g.predecessor_indices(i) for i in range(n)]
    won = won_dead_ends(g, dom, turns, succ)
    value: list[int | None] = [None] * n
    for p in players:
        rank: list[int | None] = [None] * n
        remaining = [len(s) for s in succ]
        frontier = list(won[p])
        for i in frontier:
            rank[i] = 0
        k = 0
        while frontier:
            nxt = []
            for c in frontier:
                for b in pred[c]:
                    if rank[b] is not None:
                        continue
                    if turns[b] != p:
                        remaining[b] -= 1
                        if remaining[b]:
                            continue
                    rank[b] = k + 1
                    nxt.append(b)
            frontier = nxt
            k += 1
        for i, r in enumerate(rank):
            if r is not None:
                if value[i] is not None:
                    raise AssertionError(dom[i])  # both players cannot force a win
                value[i] = r if turns[i] == p else -r
    return dict(zip(dom, value))


def recurrence_values(g: IndexedGame) -> dict[tuple, int]:
    """{position: value} by the text's recurrence, memoized; QueryError when a move
    keeps the same player to move or the game has a cycle, or when the game's outcome
    is not normal play (the recurrence's 0 is a loss of the stuck mover)."""
    check_two_players(g)
    if not isinstance(g.game.outcome, ir.NormalPlay):
        raise QueryError(
            f"the recurrence is the value of normal play; this game's outcome "
            f"is {g.game.outcome.kind}"
        )
    n, dom, turns, succ = _graph(g)
    for i in range(n):
        for j in succ[i]:
            if turns[j] == turns[i]:
                raise QueryError(
                    f"the recurrence needs alternating players: "
                    f"{dom[i]} -> {dom[j]} keeps player {turns[i]} to move"
                )
    value: list[int | None] = [None] * n
    on_stack = bytearray(n)
    for root in range(n):
        if value[root] is not None:
            continue
        stack = [root]
        on_stack[root] = 1
        while stack:
            c = stack[-1]
            todo = [j for j in succ[c] if value[j] is None]
            if todo:
                for j in todo:
                    if on_stack[j]:
                        raise QueryError(
                            f"the recurrence needs a game without cycles: "
                            f"{dom[j]} can be reached again"
                        )
                j = todo[0]
                on_stack[j] = 1
                stack.append(j)
                continue
            value[c] = recurrence_value([value[j] for j in succ[c]])
            on_stack[c] = 0
            stack.pop()
    return dict(zip(dom, value))
