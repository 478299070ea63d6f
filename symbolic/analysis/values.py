"""Ranks and two-player values, from the layers of attractor fixpoints.

**Rank.** For a coalition J and a goal τ, the attractor
Attr_J(τ) = ⋃ₖ Xₖ (X₀ = τ, Xₖ₊₁ = Xₖ ∪ pre(J, Xₖ), the TD's STRICT dead-end
convention) is computed with its layers; the rank of a position c of the
attractor is the index of the first layer holding it:

    rank_J(c) = min {k | c ∈ Xₖ}.

It is the number of moves within which J forces τ from c, whatever the others
do: a J position enters at k + 1 when one of its successors has rank ≤ k, an
opponent position when all of its successors (at least one) have rank ≤ k.

**Value** (the chocolate-bar exercise), for the outcome the game declares
(:mod:`symbolic.analysis.outcome`). Write Gₚ for the dead ends where p has won
(normal play, the chocolate bar's rule: {c | δ(c) = ∅ and t(c) ≠ p}, p's opponent
is stuck; a model's win(p) sets: the finished boards in win(p); misère play, GDL
goals likewise) and Aₚ = Attr_{p}(Gₚ). Then

    value(c) = + rank_p(c)   if c ∈ Aₚ with p = t(c)   (the mover wins within k moves)
    value(c) = − rank_q(c)   if c ∈ A_q with q ≠ t(c)  (the mover loses, holds out k moves)
    value(c) = None          otherwise: a draw (neither player can force a win: the
                             play may end in no player's Gₚ, or never end)

A dead end where a player has won has value 0 (layer 0 of the winner's
attractor): in normal play its mover has lost (``result`` says which). The two
attractors are disjoint (two winning strategies for both players would make one
play end in two different ways). When the players alternate under normal play,
this is exactly the recurrence read from the text:

    value(c) = 0                          if δ(c) = ∅
             = 1 − max {v(c') ≤ 0}        if some successor has v(c') ≤ 0
             = −(1 + max {v(c')})         otherwise,

e.g. successors valued +2, +6, +11 give −12, and −11, +3, −8, +17 give +9;
the rank form also covers games where a player may move twice in a row.

Each value is one layer: the positions of value +k (−k) are the new positions
of layer k of Aₚ whose mover is p (is not p), for both p, so the whole table
comes from the two layered symbolic fixpoints, never from a recursion over
positions. :mod:`symbolic.explicit.values` recomputes it independently.

>>> from symbolic.seeds.games import subtraction
>>> from symbolic.engines import make_engine
>>> V = two_player_values(make_engine(subtraction(6), "explicit"))
>>> [V.value((1, k)) for k in range(7)]
[0, 1, 1, 1, -2, 3, 3]
>>> V.counts()
{-2: 2, 0: 2, 1: 6, 3: 4}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..api import GameEngine, PositionSet, attractor, check_engine, check_set
from ..errors import QueryError
from .outcome import Referee

__all__ = [
    "Ranks",
    "Values",
    "ranks",
    "two_player_values",
    "values_from_ranks",
    "check_two_players",
    "game_players",
    "recurrence_value",
]


@dataclass(frozen=True)
class Ranks:
    """The attractor of a coalition to a goal, split by rank.

    ``layers[k]`` holds the positions of rank exactly k (the k-th until layer
    minus the previous one); ``attractor`` is their union.
    """

    coalition: frozenset
    layers: tuple[PositionSet, ...]
    attractor: PositionSet

    def rank(self, pos) -> int | None:
        """The rank of ``pos``, or None outside the attractor."""
        if pos not in self.attractor:
            return None
        for k, layer in enumerate(self.layers):
            if pos in layer:
                return k
        raise AssertionError(pos)  # the layers partition the attractor

    @property
    def max_rank(self) -> int:
        """The largest rank (−1 for an empty attractor)."""
        return len(self.layers) - 1 if self.layers and self.layers[0] else -1


def ranks(engine: GameEngine, coalition: Iterable[int], goal: PositionSet) -> Ranks:
    """rank_J over Attr_J(goal) (STRICT dead ends), from the attractor's until layers.

    >>> from symbolic.seeds.games import subtraction
    >>> from symbolic.engines import make_engine
    >>> G = make_engine(subtraction(5), "explicit")
    >>> R = ranks(G, {1}, G.deadlocks() & G.turn_set({2}))
    >>> R.rank((1, 3)), R.rank((2, 4)), R.rank((1, 4))
    (1, 2, None)
    """
    J = check_engine(engine).game.coalition(coalition)
    fp = attractor(engine, J, check_set(engine, goal, "the goal"), keep_layers=True)
    cumulative = fp.approximations()
    layers = [cumulative[0]] + [b - a for a, b in zip(cumulative, cumulative[1:])]
    return Ranks(J, tuple(layers), fp.result)


@dataclass(frozen=True)
class Values:
    """The value of every position of a two-player game, one set per value.

    ``by_value[v]`` holds the positions of value v (absent values are absent
    keys); ``draws`` the positions with no value (infinite play possible);
    ``ranks[p]`` the rank layers of player p's attractor to the other's
    dead ends, from which the values were read.
    """

    engine: GameEngine
    by_value: dict[int, PositionSet]
    draws: PositionSet
    ranks: dict[int, Ranks]

    def value(self, pos) -> int | None:
        """value(pos), or None for a draw."""
        p = _turn_of(self.engine, pos)
        q = _other(self.engine, p)
        k = self.ranks[p].rank(pos)
        if k is not None:
            return k
        k = self.ranks[q].rank(pos)
        return None if k is None else -k

    def result(self, pos) -> str:
        """ "win", "loss" or "draw": the player to move's result at ``pos`` with
        perfect play (a value 0 is a win of the mover in misère play, a loss in
        normal play)."""
        p = _turn_of(self.engine, pos)
        if self.ranks[p].rank(pos) is not None:
            return "win"
        return "draw" if self.ranks[_other(self.engine, p)].rank(pos) is None else "loss"

    def positions_of_result(self, result: str) -> PositionSet:
        """The positions whose player to move wins (``"win"``: ⋃ₚ Aₚ ∩ Tₚ), loses
        (``"loss"``: ⋃ₚ Aₚ ∖ Tₚ) or draws (``"draw"``) with perfect play."""
        if result == "draw":
            return self.draws
        if result not in ("win", "loss"):
            raise QueryError(f"unknown result {result!r}: expected win, loss or draw")
        out = self.engine.empty()
        for p, R in self.ranks.items():
            mine = self.engine.turn_set({p})
            out = out | (R.attractor & mine if result == "win" else R.attractor - mine)
        return out

    def counts(self) -> dict[int, int]:
        """{value: number of positions}, values in increasing order (draws not included)."""
        return {v: self.by_value[v].count() for v in sorted(self.by_value)}

    def _repr_html_(self) -> str:
        """Jupyter: the number of positions of each value, and the draws."""
        from ..html import counts_html

        counts = {(f"+{v}" if v > 0 else str(v)): n for v, n in self.counts().items()}
        n = sum(counts.values()) + self.draws.count()
        return counts_html(
            "value",
            counts,
            f"values of {n} positions (+k: the player to "
            f"move wins within k moves; -k: loses, holds out k moves)",
            [("draw", self.draws.count())] if self.draws else [],
        )

    def positions_of(self, value: int) -> PositionSet:
        """The positions of the given value (empty when none has it)."""
        return self.by_value.get(value, self.engine.empty())


def _turn_of(engine: GameEngine, pos) -> int:
    for p in engine.game.players:
        if pos in engine.turn_set({p}):
            return p
    raise AssertionError(pos)  # check_turns: every position has a player to move


def _other(engine: GameEngine, p: int) -> int:
    (q,) = [x for x in engine.game.players if x != p]
    return q


def check_two_players(engine: GameEngine) -> tuple[int, int]:
    """The two players, or QueryError: values are defined for two-player games."""
    return game_players(check_engine(engine).game)


def game_players(game) -> tuple[int, int]:
    """The two players of ``game`` (an IR game), or QueryError: asked before an engine
    is built, so that a GDL game of three roles is refused without exploring it."""
    players = tuple(game.players)
    if len(players) != 2:
        raise QueryError(
            f"values are defined for two-player games; {game.name!r} "
            f"has {len(players)} player(s): {list(players)}"
        )
    return players


def two_player_values(engine: GameEngine) -> Values:
    """Every position's value (see the module docstring), from two layered attractors.

    For each player p: Aₚ = Attr_{p}(Gₚ) with its rank layers (Gₚ: the dead ends
    where p has won by the game's outcome, :meth:`Referee.won`);
    value +k = ⋃ₚ layerₖ(Aₚ) ∩ tour_p, value −k = ⋃ₚ layerₖ(Aₚ) ∖ tour_p.
    """
    check_two_players(engine)  # checks the engine too
    return values_from_ranks(engine, lambda J, goal: ranks(engine, J, goal), engine.positions())


def values_from_ranks(engine: GameEngine, rank_of, within: PositionSet) -> Values:
    """The :class:`Values` of the positions of ``within`` from each player's ranks,
    ``rank_of(J, goal)`` a :class:`Ranks` of Attr_J(goal) (:func:`ranks`, or a
    layered one): value ±k from layer k of each player's attractor (+ where that
    player moves), draws = within ∖ both attractors (module docstring)."""
    players = check_two_players(engine)
    referee = Referee(engine)
    rk: dict[int, Ranks] = {}
    by_value: dict[int, PositionSet] = {}
    for p in players:
        R = rank_of({p}, referee.won(p))
        rk[p] = R
        mine = engine.turn_set({p})
        for k, layer in enumerate(R.layers):
            for v, part in ((k, layer & mine), (-k, layer - mine)):
                if part:
                    by_value[v] = by_value[v] | part if v in by_value else part
    a, b = (rk[p].attractor for p in players)
    if a & b:
        raise AssertionError((a & b).first())
    return Values(engine, by_value, within - a - b, rk)


def recurrence_value(successor_values: Iterable[int]) -> int:
    """The value of a position from its successors' values (alternating play),
    as the chocolate-bar text computes it; no successor: 0.

    >>> recurrence_value([2, 6, 11]), recurrence_value([-11, 3, -8, 17]), recurrence_value([])
    (-12, 9, 0)
    """
    vs = list(successor_values)
    if not vs:
        return 0
    losing = [v for v in vs if v <= 0]
    return 1 - max(losing) if losing else -(1 + max(vs))
