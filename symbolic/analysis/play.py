"""Plays: what winning means in a model, the solver's choice of a move, and
games between players (a person, the solver, a random player).

**Who wins** (:class:`~symbolic.analysis.outcome.Referee`). A play ends at a
dead end (a position without successor); the outcome the game declares says who
has won there (normal play, misère play, the model's ``win(p)`` sets, GDL goals:
:mod:`symbolic.analysis.outcome`). The objective of a coalition C follows:
target(C), the dead ends where C has won (in normal play: where a player outside
C is stuck, the ENS 2005 coalition rule).

**The solver's move** (:func:`choose_move`). With W_C = until(C, all, target(C))
under the strict dead-end convention (the attractor of the reachability-games
TD: a dead end of the opponent counts only when it is a target), kept in layers
L_0 ⊆ L_1 ⊆ …, the rank of c is min{i | c ∈ L_i}. At a position of W_C where
C moves, the solver plays a successor of smallest rank (it exists and is one
less: fewest moves to the goal). Elsewhere it avoids W_O, the region of the
other players O = players ∖ C: it plays a successor outside W_O (the first
one, or a seeded random one), and when every successor is in W_O, one of
largest rank in W_O (the longest defence). Ties go to the first successor in
the engines' order (positions sorted as tuples), so both engines choose alike.

>>> from symbolic.seeds.games import subtraction
>>> from symbolic.engines import make_engine
>>> eng = make_engine(subtraction(6), "explicit")
>>> planner = Planner(eng, Referee(eng))
>>> planner.rank(frozenset({1}), (1, 6))   # take 2, any reply, take the rest
3
>>> choose_move(planner, (1, 6), frozenset({1}))
(2, 4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from .. import atl
from ..api import DeadEnds, Fixpoint, GameEngine, PositionSet, check_engine, check_set
from ..arguments import need, need_int, need_mapping
from ..display import Drawing
from ..errors import ArgumentTypeError, QueryError
from ..explicit.display import Renderer
from ..ir import Space
from .outcome import Outcome, Referee

__all__ = [
    "Outcome",
    "Referee",
    "Planner",
    "choose_move",
    "solver_player",
    "random_player",
    "PLAYER_KINDS",
    "Play",
    "run_play",
    "start_positions",
    "drawer",
]

Coalition = frozenset
#: ranks a planner remembers before it forgets them all
_RANKS_KEPT = 1 << 20


class Planner:
    """The regions W_C and ranks of coalitions under the game's outcome (a
    :class:`~symbolic.analysis.outcome.Referee`; computed once per coalition, with
    the layers of the until fixpoint)."""

    def __init__(
        self,
        engine: GameEngine,
        rules: Referee,
        targets: Mapping[Coalition, PositionSet] | None = None,
    ):
        self.engine = check_engine(engine)
        self.rules = need(rules, Referee, "the rules (a Referee)")
        if rules.engine is not engine:
            raise QueryError("the rules were made for another engine")
        self.targets = dict(need_mapping(targets, "targets") if targets is not None else {})
        for c, s in self.targets.items():
            check_set(engine, s, f"the target of {c!r:.30}")
        self._regions: dict[Coalition, Fixpoint] = {}
        # ranks asked for again and again by plays (each a scan of the layers)
        self._ranks: dict[tuple[Coalition, tuple], int | None] = {}

    def region(self, coalition: Coalition) -> Fixpoint:
        """until(C, all positions, target(C)) with the strict dead-end convention, in layers."""
        c = self.engine.game.coalition(coalition)  # a frozenset, checked
        if c not in self._regions:
            target = self.targets.get(c)
            if target is None:
                target = self.rules.target(c)
            self._regions[c] = self.engine.until(
                c, self.engine.positions(), target, dead_ends=DeadEnds.STRICT, keep_layers=True
            )
        return self._regions[c]

    def rank(self, coalition: Coalition, pos: tuple) -> int | None:
        """min{i | pos ∈ L_i}: within how many moves C forces its target (None: it cannot)."""
        if not isinstance(pos, tuple):  # checked, and refused, by the sets
            return self._rank(coalition, pos)
        key = (coalition, pos)
        if key in self._ranks:
            return self._ranks[key]
        if len(self._ranks) >= _RANKS_KEPT:
            self._ranks.clear()
        self._ranks[key] = r = self._rank(coalition, pos)
        return r

    def _rank(self, coalition: Coalition, pos: tuple) -> int | None:
        fp = self.region(coalition)
        if pos not in fp.result:
            return None
        for i, layer in enumerate(fp.approximations()):
            if pos in layer:
                return i
        raise AssertionError(pos)

    def opponents(self, coalition: Coalition) -> Coalition:
        return Coalition(set(self.rules.players) - set(coalition))


def choose_move(
    planner: Planner, pos: tuple, coalition: Coalition, rng: random.Random | None = None
) -> tuple:
    """The solver's move for ``coalition`` at ``pos`` (module docstring): the
    fastest way into its target inside W_C, else a move outside the others'
    region W_O (seeded random when ``rng`` is given, else the first), else the
    longest defence. ``pos`` must have a successor."""
    need(planner, Planner, "the planner")
    need(rng, random.Random, "rng", none=True)
    succ = planner.engine.successors(pos).tuples()
    if not succ:
        raise QueryError(f"no move at {planner.engine.space.as_dict(pos)}: the play is over")
    if planner.rank(coalition, pos):  # in W_C and not yet in the target
        ranks = [planner.rank(coalition, s) for s in succ]
        best = min(r for r in ranks if r is not None)
        return succ[ranks.index(best)]
    others = planner.opponents(coalition)
    threat = [planner.rank(others, s) for s in succ]
    safe = [s for s, r in zip(succ, threat) if r is None]
    if safe:
        return rng.choice(safe) if rng is not None else safe[0]
    longest = max(r for r in threat if r is not None)  # every one: none is safe
    return succ[threat.index(longest)]


# --------------------------------------------------------------------------- players and games

#: a player: (position, its successors) -> the chosen successor
Player = Callable[[tuple, list], tuple]


def solver_player(
    planner: Planner, coalition: Iterable[int], rng: random.Random | None = None
) -> Player:
    """A player that moves with :func:`choose_move` for ``coalition``."""
    need(planner, Planner, "the planner")
    need(rng, random.Random, "rng", none=True)
    c = Coalition(planner.engine.game.coalition(coalition))
    return lambda pos, succ: choose_move(planner, pos, c, rng)


def random_player(rng: random.Random) -> Player:
    """A player that picks a successor uniformly at random (seeded)."""
    need(rng, random.Random, "rng")
    return lambda pos, succ: rng.choice(succ)


#: the player kinds of ``symbolic simulate --players``
PLAYER_KINDS = ("optimal", "random")


@dataclass(frozen=True)
class Play:
    """A finished (or cut) play: its positions, movers, and outcome (None when
    the move cap stopped it)."""

    positions: tuple[tuple, ...]
    movers: tuple[int, ...]
    outcome: Outcome | None


def run_play(
    engine: GameEngine, rules: Referee, players: Mapping[int, Player], start: tuple, max_moves: int
) -> Play:
    """Play from ``start`` until a dead end, or stop after ``max_moves`` moves."""
    pos = check_engine(engine).space.check_position(start)
    need(rules, Referee, "the rules (a Referee)")
    need_mapping(players, "the players (player id -> Player)")
    missing = [p for p in engine.game.players if not callable(players.get(p))]
    if missing:
        raise ArgumentTypeError(f"players: no callable Player for player(s) {missing}")
    need_int(max_moves, "max_moves", low=0)
    positions, movers = [pos], []
    for _ in range(max_moves):
        succ = engine.successors(pos).tuples()
        if not succ:
            break
        mover = rules.mover(pos)
        nxt = players[mover](pos, succ)
        if nxt not in succ:
            raise AssertionError((pos, nxt))
        movers.append(mover)
        positions.append(nxt)
        pos = nxt
    else:
        if engine.successors(pos):
            return Play(tuple(positions), tuple(movers), None)
    return Play(tuple(positions), tuple(movers), rules.result(pos, movers[-1] if movers else None))


def start_positions(
    engine: GameEngine,
    definitions: Mapping[str, atl.Definition],
    start_set: PositionSet | None = None,
) -> PositionSet:
    """Where plays start: ``start_set``, else the model's set ``initial``, else
    every position; dead ends left out (a play there has no move)."""
    check_engine(engine)
    need_mapping(definitions, "definitions")
    if start_set is None:
        start_set = (
            atl.Evaluator(engine, definitions)(atl.Ref("initial"))
            if "initial" in definitions
            else engine.positions()
        )
    check_set(engine, start_set, "the start set")
    return start_set - engine.deadlocks()


def drawer(
    display: Drawing | None, space: Space, fallback: Callable[[tuple], str]
) -> Callable[[tuple], str]:
    """position -> its text: the model's ``display`` drawing, else ``fallback``."""
    need(display, Drawing, "display", none=True)
    need(space, Space, "the space")
    if not callable(fallback):
        raise ArgumentTypeError(f"fallback must be callable, got {fallback!r:.60}")
    return fallback if display is None else Renderer(display, space)
