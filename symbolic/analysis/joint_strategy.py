"""Strategies of a coalition in a concurrent game: one joint action of J per position.

For ⟨⟨J⟩⟩ σ U τ (:func:`reach_joint_strategy`) the until fixpoint's layers
X_0 = τ ⊆ X_1 ⊆ … give, at each position c of X_k ∖ X_{k−1} (k ≥ 1), the smallest
joint action a_J of J (action indices in player order) such that for every
enabled response a_{−J} of the others ∅ ≠ δ(c, a_J, a_{−J}) ⊆ X_{k−1}: the play
gets one layer closer to τ whatever the others do. For ⟨⟨J⟩⟩□ Z
(:func:`safety_joint_strategy`) the greatest fixpoint Z* gives, at each c ∈ Z*,
the smallest a_J keeping every successor in Z*. Memoryless, read off the
engine's own fixpoint (either engine); the joint moves of a position come from
the engine's ``joint_moves``.

:func:`verify_joint` checks a table independently on the explicit engine: every
action it names must be enabled, and the positions from which every play
following the table (against every joint response of the others) reaches τ
through σ (or stays in Z forever) must include ``start``; it recomputes those
positions by its own fixpoint over the explicit joint moves.

>>> from symbolic import atl
>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> m = load_model("models/train_gate.game")
>>> E = make_engine(m.game, "symbolic")
>>> s = safety_joint_strategy(E, {2}, atl.Evaluator(E, m.definitions)(m.formula("out_of_gate")))
>>> s.labels[(0,)], s.labels[(1,)]
(('idle',), ('delay',))
>>> verify_joint(m.game, s, [(0,)])
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable

from ..api import DeadEnds, GameEngine, PositionSet, always, check_engine, check_set
from ..arguments import need, need_iterable
from ..concurrent import ConcurrentEngine
from ..errors import QueryError
from ..explicit.concurrent import ExplicitConcurrentGame
from ..ir import ConcurrentGame

__all__ = ["JointStrategy", "reach_joint_strategy", "safety_joint_strategy", "verify_joint"]


@dataclass(frozen=True)
class JointStrategy:
    """A memoryless strategy of ``coalition`` (players in game order): ``table`` maps a
    position to the action indices of those players; ``labels`` the same as labels.
    ``kind`` is ``"reach"`` (with ``stay`` and ``target``) or ``"safety"`` (``target``
    is the set kept)."""

    game: ConcurrentGame
    coalition: tuple[int, ...]
    kind: str
    table: dict
    target: frozenset
    stay: frozenset | None = None

    @property
    def labels(self) -> dict:
        names = [self.game.action_labels(p) for p in self.coalition]
        return {c: tuple(names[i][k] for i, k in enumerate(a)) for c, a in self.table.items()}


def _concurrent(engine) -> ConcurrentGame:
    """The game of ``engine`` when it is concurrent, else QueryError (a turn-based game's
    strategies: :mod:`symbolic.analysis.strategy`)."""
    game = check_engine(engine).game
    if not isinstance(game, ConcurrentGame):
        raise QueryError(
            "joint strategies are for concurrent games; a turn-based game's "
            "strategy: symbolic.analysis.strategy.strategy_for"
        )
    return game


def _split(game: ConcurrentGame, J: frozenset) -> tuple[list[int], list[int]]:
    mine = [i for i, p in enumerate(game.players) if p in J]
    return mine, [i for i, p in enumerate(game.players) if p not in J]


def _choice(moves: dict, mine: list[int], ok) -> tuple | None:
    """The smallest a_J such that ok(δ(c, a)) for every a with that part, or None.
    ``moves`` maps every enabled joint action to its successors."""
    options: dict[tuple, bool] = {}
    for a in sorted(moves):
        key = tuple(a[i] for i in mine)
        options[key] = options.get(key, True) and bool(moves[a]) and ok(moves[a])
    return next((k for k in sorted(options) if options[k]), None)


def _vacuous_choice(engine, c, mine: list[int]) -> tuple | None:
    """At a dead end where only an opponent is blocked: J's smallest enabled actions."""
    en = engine.game  # the enabled sets are read through the guards
    per = [
        [k for k, a in enumerate(en.actions_of(en.players[i])) if c in engine.from_expr(a.guard)]
        for i in mine
    ]
    return tuple(p[0] for p in per) if all(per) else None


def reach_joint_strategy(
    engine: GameEngine, coalition: Iterable[int], stay: PositionSet, target: PositionSet
) -> JointStrategy:
    """J's strategy for ⟨⟨J⟩⟩ σ U τ (module docstring), on any concurrent engine."""
    game = _concurrent(engine)
    assert isinstance(engine, ConcurrentEngine)  # the engine of a concurrent game
    check_set(engine, stay, "stay")
    check_set(engine, target, "the target")
    J = game.coalition(coalition)
    mine, _ = _split(game, J)
    fp = engine.until(J, stay, target, dead_ends=DeadEnds.VACUOUS, keep_layers=True)
    layers = fp.approximations()
    table = {}
    for k in range(1, len(layers)):
        below = set(layers[k - 1].tuples())
        for c in (layers[k] - layers[k - 1]).tuples():
            moves = engine.joint_moves(c)
            a = (
                _choice(moves, mine, lambda s: s <= below)
                if moves
                else _vacuous_choice(engine, c, mine)
            )
            if a is None:
                raise AssertionError((c, k))
            table[c] = a
    return JointStrategy(
        game,
        tuple(game.players[i] for i in mine),
        "reach",
        table,
        frozenset(target.tuples()),
        frozenset(stay.tuples()),
    )


def safety_joint_strategy(
    engine: GameEngine, coalition: Iterable[int], keep: PositionSet
) -> JointStrategy:
    """J's strategy for ⟨⟨J⟩⟩□ Z (module docstring), on any concurrent engine."""
    game = _concurrent(engine)
    assert isinstance(engine, ConcurrentEngine)  # the engine of a concurrent game
    check_set(engine, keep, "the set kept")
    J = game.coalition(coalition)
    mine, _ = _split(game, J)
    win = always(engine, J, keep, dead_ends=DeadEnds.VACUOUS).result
    inside = set(win.tuples())
    table = {}
    for c in sorted(inside):
        moves = engine.joint_moves(c)
        a = (
            _choice(moves, mine, lambda s: s <= inside)
            if moves
            else _vacuous_choice(engine, c, mine)
        )
        if a is None:
            raise AssertionError(c)
        table[c] = a
    return JointStrategy(
        game, tuple(game.players[i] for i in mine), "safety", table, frozenset(keep.tuples())
    )


def _forced(E: ExplicitConcurrentGame, s: JointStrategy, c: tuple, into: set) -> bool:
    """Every response to s's action at c has ∅ ≠ δ ⊆ ``into`` (vacuous when an
    opponent is blocked); QueryError when the action is not enabled."""
    mine, theirs = _split(s.game, frozenset(s.coalition))
    en = E.enabled(c)
    a_J = s.table[c]
    if any(a_J[j] not in en[i] for j, i in enumerate(mine)):
        raise QueryError(f"the strategy plays {s.labels[c]} at {c}, not enabled there")
    for resp in itertools.product(*(en[i] for i in theirs)):
        a = [0] * len(s.game.players)
        for j, i in enumerate(mine):
            a[i] = a_J[j]
        for j, i in enumerate(theirs):
            a[i] = resp[j]
        succ = E.joint_successors(c, tuple(a))
        if not succ or not succ <= into:
            return False
    return True


def verify_joint(game: ConcurrentGame, s: JointStrategy, start: Iterable) -> bool:
    """True when s wins from every position of ``start``, by an explicit search of its
    plays against every joint response (module docstring)."""
    need(game, ConcurrentGame, "the game", hint=" (a concurrent model's game)")
    need(s, JointStrategy, "the strategy")
    if s.game is not game and s.game != game:
        raise QueryError("the strategy is one of another game")
    start = list(start) if isinstance(start, dict) else need_iterable(start, "the start")
    E = ExplicitConcurrentGame(game)
    start = [E.space.check_position(c) for c in start]
    if s.kind == "reach":
        assert s.stay is not None  # a reach strategy keeps its σ
        won = set(s.target)
        while True:
            more = {c for c in s.table if c not in won and c in s.stay and _forced(E, s, c, won)}
            if not more:
                break
            won |= more
    else:
        won = set(s.table) & set(s.target)
        while True:
            keep = {c for c in won if _forced(E, s, c, won)}
            if keep == won:
                break
            won = keep
    return all(c in won for c in start)
