"""Sprague–Grundy values (nimbers) of every position of an impartial game.

For a finite game where every play ends, the nimber of a position c is

    g(c) = mex { g(c') | c' ∈ δ(c) }      (mex S = the least n ≥ 0 not in S),

so g(c) = 0 exactly when the player to move loses under normal play, and the
nimber of a disjoint sum of games is the xor of the parts' nimbers
(Sprague–Grundy). Two independent computations:

* :func:`layered_nimbers` works on sets of positions only (any
  :class:`~symbolic.api.GameEngine`; symbolic with BDDs), one value at a time.
  With G_h = {c | g(c) = h}:

      A_g = ⋂_{h<g} pre∃(G_h)        (g(c) ≥ g  iff  every h < g appears below c)
      G_g = μL. A_g ∩ ∀succ(¬A_g ∪ pre∃(L))

  Inside A_g a successor outside A_g has a nimber < g, so it never equals g;
  a successor inside A_g has nimber ≥ g, and it has nimber exactly g or more
  according to whether it can move into G_g. So G_g is the set of losing
  positions (the kernel) of the game restricted to A_g, and the least
  fixpoint above builds it from its dead ends up, as retrograde analysis does.
  It stops at the first empty A_g.

* :func:`mex_nimbers` works on the explicit engine's successor lists: a
  position gets its mex as soon as all its successors have theirs (a
  topological order found by counting successors, from the dead ends up).

>>> from symbolic.seeds.games import subtraction
>>> from symbolic.explicit import ExplicitGame
>>> E = ExplicitGame(subtraction(6))          # one heap, take 1 to 3
>>> N = layered_nimbers(E)
>>> [N.of((1, k)) for k in range(7)]
[0, 1, 2, 3, 0, 1, 2]
>>> N.counts()
{0: 4, 1: 4, 2: 4, 3: 2}
>>> N.optimal_moves((1, 6)).tuples()           # take 2: to a nimber-0 position
[(2, 4)]
>>> mex_nimbers(E) == N.table()
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..api import DeadEnds, GameEngine, PositionSet, check_engine, least_fixpoint
from ..arguments import need, need_int, need_iterable, need_mapping
from ..errors import QueryError
from ..explicit.counting import CountingGame
from .. import ir
from .outcome import Referee, outcome_rule


__all__ = [
    "Nimbers",
    "check_impartial",
    "check_normal_play",
    "check_players",
    "layered_nimbers",
    "mex_nimbers",
    "mex",
    "first_difference",
]


def mex(values) -> int:
    """The least integer n ≥ 0 not in ``values``.

    >>> mex([0, 1, 3]), mex([]), mex({1, 2})
    (2, 0, 0)
    """
    seen = set(need_iterable(values, "mex: the values"))
    n = 0
    while n in seen:
        n += 1
    return n


@dataclass(frozen=True)
class Nimbers:
    """The nimbers of all positions of a game, as the sets G_0, G_1, ... of one engine.

    ``layers[g]`` = G_g = {c | g(c) = g}; ``iterations`` counts the fixpoint
    steps that added positions, over all values."""

    engine: GameEngine
    layers: tuple[PositionSet, ...]
    iterations: int

    def of(self, pos) -> int:
        """g(pos); RangeError if ``pos`` is not a position."""
        c = self.engine.space.check_position(pos)
        for g, layer in enumerate(self.layers):
            if c in layer:
                return g
        raise QueryError(f"{self.engine.space.as_dict(c)} is not a position of the game")

    def with_value(self, g: int) -> PositionSet:
        """G_g (empty beyond the largest nimber)."""
        need_int(g, "the nimber")
        return self.layers[g] if 0 <= g < len(self.layers) else self.engine.empty()

    def counts(self) -> dict[int, int]:
        """{g: |G_g|} for g = 0 .. the largest nimber."""
        return {g: layer.count() for g, layer in enumerate(self.layers)}

    def optimal_moves(self, pos) -> PositionSet:
        """The successors of ``pos`` with nimber 0: the winning moves (empty when
        g(pos) = 0, where every move leads to a nimber ≠ 0)."""
        return self.engine.successors(pos) & self.with_value(0)

    def _repr_html_(self) -> str:
        """Jupyter: the number of positions of each nimber."""
        from ..html import counts_html

        counts = self.counts()
        return counts_html(
            "nimber",
            counts,
            f"nimbers of {sum(counts.values())} positions (0: the player to move loses)",
        )

    def table(self) -> dict[tuple, int]:
        """{position: nimber} for every position (enumerates: small games only)."""
        return {t: g for g, layer in enumerate(self.layers) for t in layer.tuples()}


def check_impartial(engine: GameEngine) -> None:
    """QueryError unless the game has two players who alternate and every play ends.

    These make g(c) = 0 mean "the player to move loses" (normal play). That both
    players have the same moves (impartiality) is the model's business: the
    nimbers are those of the move graph either way.
    """
    game = check_engine(engine).game
    check_players(game)
    players = game.players
    # a position without moves has only a nominal player to move (a GDL end state names
    # the first role): alternation is about the positions where someone moves
    moving = engine.positions() - engine.deadlocks()
    for p in players:
        mine = engine.turn_set([p]) & moving
        again = mine & engine.pre_exists(players, mine)
        if again:
            raise QueryError(
                f"nimbers need the players to alternate, but at "
                f"{engine.space.as_dict(again.first())} player {p} moves to a position "
                f"where player {p} moves again"
            )
    ends = engine.until(
        (), engine.positions(), engine.deadlocks(), dead_ends=DeadEnds.VACUOUS
    ).result
    endless = engine.positions() - ends
    if endless:
        raise QueryError(
            f"nimbers need every play to end, but {endless.count()} position(s) start a "
            f"play that can last forever, e.g. {engine.space.as_dict(endless.first())}"
        )


def check_normal_play(engine: GameEngine) -> None:
    """QueryError unless the game's declared outcome is normal play.

    Nimbers are Sprague–Grundy values: they describe a game under normal play,
    where a play ends at a dead end and the player to move there loses (and
    sums of games add as the xor of nimbers only then). A game that declares
    another outcome (:mod:`symbolic.analysis.outcome`: misère play, GDL goals,
    ``win(p)`` sets) asks another question; win(p) sets and goals are accepted only
    when they give exactly normal play's winner, the last mover, at every dead end a
    move reaches (GDL Nim's goals do). Tic-tac-toe's
    draws (a full board, no line: a dead end in nobody's win set) are not, so its
    nimbers would answer a question about a different game: it is refused, with
    a position where the two goals part.
    """
    rule = outcome_rule(engine)
    advice = "Use 'symbolic values' or 'symbolic check' for this game's own outcome"
    if isinstance(rule, ir.NormalPlay):
        return
    if isinstance(rule, ir.MiserePlay):
        raise QueryError(
            f"nimbers are Sprague-Grundy values of normal play (the player who "
            f"cannot move loses), but this game's outcome is {rule.kind}. "
            f"{advice}"
        )
    referee = Referee(engine)
    dead = engine.deadlocks()
    by = "win(p)" if isinstance(rule, ir.WinSets) else "its goal values"
    # normal play: the player who moves into a dead end (the last mover) has won there;
    # read on the moves, not on the turn at the dead end (a GDL terminal state's mover
    # is nominal)
    for p in engine.game.players:
        bad = engine.moves_between(engine.turn_set([p]) - dead, dead - referee.won(p))
        if not bad.is_empty():
            before, after = bad.pairs()[0]
            raise QueryError(
                f"nimbers are Sprague-Grundy values of normal play (the player who cannot "
                f"move loses), but this game declares its own outcome ({rule.kind}), and "
                f"the two differ at {engine.space.as_dict(after)}: player {p} moved there "
                f"last (from {engine.space.as_dict(before)}), so player {p} wins under "
                f"normal play, but player {p} has not won there by {by}. {advice}"
            )


def check_players(game) -> None:
    """QueryError unless ``game`` (an IR game) has two players: asked before an engine
    is built, so that a GDL game of three roles is refused without exploring it."""
    if len(game.players) != 2:
        raise QueryError(
            f"nimbers need a two-player game; this one has players {list(game.players)}"
        )


def layered_nimbers(engine: GameEngine, *, check: bool = True) -> Nimbers:
    """The nimber of every position, one value at a time, on sets of positions.

    G_g = μL. A_g ∩ ∀succ(¬A_g ∪ pre∃(L)) with A_0 = all positions and
    A_{g+1} = A_g ∩ pre∃(G_g) (see the module docstring). ``check`` first runs
    :func:`check_impartial`.
    """
    check_engine(engine)
    need(check, bool, "check")
    if check:
        check_impartial(engine)
    players = engine.game.players

    def exists_move_into(target: PositionSet) -> PositionSet:
        return engine.pre_exists(players, target)

    def all_moves_into(target: PositionSet) -> PositionSet:
        # the empty coalition: every position is "the others' turn"; VACUOUS:
        # a dead end has all its (no) successors in any target
        return engine.pre_forall((), target, dead_ends=DeadEnds.VACUOUS)

    layers: list[PositionSet] = []
    steps = 0
    at_least = engine.positions()  # A_g
    while at_least:
        below = engine.positions() - at_least

        def step(kernel: PositionSet, a=at_least, below=below) -> PositionSet:
            return kernel | (a & all_moves_into(below | exists_move_into(kernel)))

        start = at_least & all_moves_into(below)
        fp = least_fixpoint(step, start)
        layers.append(fp.result)
        steps += fp.iterations + 1
        at_least = at_least & exists_move_into(fp.result)
    return Nimbers(engine, tuple(layers), steps)


def mex_nimbers(engine: CountingGame, *, check: bool = True) -> dict[tuple, int]:
    """{position: nimber} by the mex rule on the explicit engine's successor lists.

    A position is finished once all its successors are; finishing it lets its
    predecessors count down (a topological order from the dead ends up).
    ``check`` first runs :func:`check_impartial`.
    """
    need(
        engine,
        CountingGame,
        "the engine",
        hint=' (the explicit engine: make_engine(game, "explicit"))',
    )
    need(check, bool, "check")
    if check:
        check_impartial(engine)
    n = engine.positions().count()
    pending = [len(engine.successor_indices(i)) for i in range(n)]
    value: list[int | None] = [None] * n
    ready = [i for i in range(n) if pending[i] == 0]
    while ready:
        i = ready.pop()
        value[i] = mex(value[s] for s in engine.successor_indices(i))
        for p in engine.predecessor_indices(i):
            pending[p] -= 1
            if pending[p] == 0:
                ready.append(p)
    missing = [i for i in range(n) if value[i] is None]
    if missing:
        raise QueryError(
            f"nimbers need every play to end, but {len(missing)} position(s) "
            f"start a play that can last forever, e.g. "
            f"{engine.space.as_dict(engine.position_at(missing[0]))}"
        )
    # every value is known here (no position is missing)
    return {engine.position_at(i): v for i, v in enumerate(value) if v is not None}


def first_difference(a: dict[tuple, int], b: dict[tuple, int]) -> tuple | None:
    """The smallest position where two nimber tables differ (or that only one
    has), or None when they are equal.

    >>> first_difference({(0,): 0, (1,): 1}, {(0,): 0, (1,): 2})
    (1,)
    """
    need_mapping(a, "the first table")
    need_mapping(b, "the second table")
    diff = sorted(t for t in a.keys() | b.keys() if a.get(t) != b.get(t))
    return diff[0] if diff else None
