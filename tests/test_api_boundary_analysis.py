"""The analyses' public functions check their arguments at the boundary (issue 23,
item 6): wrong types and values end in a SymbolicError (ArgumentTypeError,
ArgumentValueError, QueryError, EngineMismatch), never in a plain TypeError,
AttributeError or KeyError. One table per module: strategy, values, grundy, play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from symbolic.analysis import grundy, play, strategy, values
from symbolic.analysis.outcome import Referee
from symbolic.api import DeadEnds
from symbolic.engines import make_engine
from symbolic.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    EngineMismatch,
    QueryError,
    RangeError,
    SymbolicError,
)
from symbolic.explicit import ExplicitGame
from symbolic.explicit.values import retrograde_values
from symbolic.model import load_model

MODELS = Path(__file__).parent.parent / "models"
V = DeadEnds.VACUOUS


@pytest.fixture(scope="module")
def sub():
    return load_model(MODELS / "subtraction.game", {"K": 5})


@pytest.fixture(scope="module", params=["explicit", "symbolic"])
def eng(request, sub):
    return make_engine(sub.game, request.param)


@pytest.fixture(scope="module")
def other(sub):
    """A set of another engine of the same game: EngineMismatch where a set is wanted."""
    return make_engine(sub.game, "explicit").positions()


def _refused(call, error, words=""):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, SymbolicError), type(info.value).__mro__
    assert words in str(info.value), str(info.value)


def _won(e):
    return e.deadlocks() & e.turn_set({2})


STRATEGY_CASES = [
    (
        lambda m, e, o: strategy.reach_strategy(m, {1}, e.positions(), _won(e), V),
        ArgumentTypeError,
        "the engine must be a GameEngine",
    ),
    (lambda m, e, o: strategy.reach_strategy(e, {1}, None, _won(e), V), ArgumentTypeError, "stay"),
    (lambda m, e, o: strategy.reach_strategy(e, {1}, e.positions(), o, V), EngineMismatch, ""),
    (
        lambda m, e, o: strategy.reach_strategy(e, {1}, e.positions(), _won(e), "vacuous"),
        QueryError,
        "dead_ends",
    ),
    (
        lambda m, e, o: strategy.release_strategy(e, {1}, [], e.positions(), V),
        ArgumentTypeError,
        "left",
    ),
    (
        lambda m, e, o: strategy.strategy_for(e, "<<1>> <> true", m.definitions),
        ArgumentTypeError,
        "model.formula",
    ),
    (
        lambda m, e, o: strategy.verify(e, _objective(e), None, e.positions()),
        ArgumentTypeError,
        "the strategy table",
    ),
    (
        lambda m, e, o: strategy.verify(e, "reach", {}, e.positions()),
        ArgumentTypeError,
        "objective",
    ),
    (lambda m, e, o: strategy.verify(e, _objective(e), {}, o), EngineMismatch, "the start"),
    (
        lambda m, e, o: strategy.verify(e, _objective(e), {(1, 5): 3}, e.positions()),
        ArgumentTypeError,
        "a position is a tuple",
    ),
    (
        lambda m, e, o: strategy.Objective("win", frozenset({1}), e.positions(), e.empty(), V),
        ArgumentValueError,
        "kind",
    ),
    (lambda m, e, o: strategy.count_strategies(e, "1"), ArgumentTypeError, "the player"),
    (lambda m, e, o: strategy.execute(e, (1, 5), None, e.empty()), ArgumentTypeError, "tables"),
    (
        lambda m, e, o: strategy.execute(e, (1, 5), {1: {(1, 5): 7}}, e.empty()),
        ArgumentTypeError,
        "a position is a tuple",
    ),
    (
        lambda m, e, o: strategy.execute(e, (1, 5), {}, e.empty(), max_moves=-1),
        ArgumentValueError,
        "max_moves",
    ),
    (lambda m, e, o: strategy.execute(e, (1, 5), {}, None), ArgumentTypeError, "the stop set"),
    (lambda m, e, o: strategy.to_json(None, e.positions()), ArgumentTypeError, "the strategy"),
    (lambda m, e, o: strategy.to_dot(_strategy(e), None), ArgumentTypeError, "the start"),
    (lambda m, e, o: _strategy(e).table(over=5), ArgumentTypeError, "over"),
    (lambda m, e, o: _strategy(e).rank(("a", 1)), ArgumentTypeError, "is not an int"),
]


def _objective(e):
    return strategy.Objective("reach", frozenset({1}), e.positions(), _won(e), V)


def _strategy(e):
    return strategy.reach_strategy(e, {1}, e.positions(), _won(e), V)


@pytest.mark.parametrize("case", range(len(STRATEGY_CASES)))
def test_strategy_boundary(sub, eng, other, case):
    call, error, words = STRATEGY_CASES[case]
    _refused(lambda: call(sub, eng, other), error, words)


VALUES_CASES = [
    (lambda m, e, o: values.two_player_values(m), ArgumentTypeError, "make_engine(model.game)"),
    (lambda m, e, o: values.two_player_values(None), ArgumentTypeError, "GameEngine"),
    (lambda m, e, o: values.check_two_players(m.game), ArgumentTypeError, "GameEngine"),
    (lambda m, e, o: values.ranks(e, {1}, None), ArgumentTypeError, "the goal"),
    (lambda m, e, o: values.ranks(e, {1}, o), EngineMismatch, "the goal"),
    (lambda m, e, o: values.ranks(e, "1", e.empty()), ArgumentTypeError, "coalition"),
    (lambda m, e, o: values.ranks(e, {7}, e.empty()), QueryError, "unknown player"),
    (lambda m, e, o: values.two_player_values(e).value((1, 99)), RangeError, "outside"),
    (lambda m, e, o: values.two_player_values(e).value(None), ArgumentTypeError, "position"),
]


@pytest.mark.parametrize("case", range(len(VALUES_CASES)))
def test_values_boundary(sub, eng, other, case):
    call, error, words = VALUES_CASES[case]
    _refused(lambda: call(sub, eng, other), error, words)


GRUNDY_CASES = [
    (lambda m, e, o: grundy.mex(5), ArgumentTypeError, "mex: the values"),
    (lambda m, e, o: grundy.layered_nimbers(m), ArgumentTypeError, "GameEngine"),
    (lambda m, e, o: grundy.layered_nimbers(e, check="no"), ArgumentTypeError, "check"),
    (lambda m, e, o: grundy.check_impartial(None), ArgumentTypeError, "GameEngine"),
    (lambda m, e, o: grundy.mex_nimbers(m.game), ArgumentTypeError, "explicit engine"),
    (lambda m, e, o: grundy.first_difference({}, [1]), ArgumentTypeError, "second table"),
    (
        lambda m, e, o: grundy.layered_nimbers(e, check=False).with_value("0"),
        ArgumentTypeError,
        "nimber",
    ),
    (lambda m, e, o: grundy.layered_nimbers(e, check=False).of((1, 2, 3)), RangeError, ""),
]


@pytest.mark.parametrize("case", range(len(GRUNDY_CASES)))
def test_grundy_boundary(sub, eng, other, case):
    call, error, words = GRUNDY_CASES[case]
    _refused(lambda: call(sub, eng, other), error, words)


def _rules(m, e):
    return Referee(e)


PLAY_CASES = [
    (lambda m, e, o: Referee(m), ArgumentTypeError, "GameEngine"),
    (lambda m, e, o: play.Planner(e, Referee(o.engine)), QueryError, "another engine"),
    (lambda m, e, o: play.Planner(e, None), ArgumentTypeError, "the rules"),
    (
        lambda m, e, o: play.Planner(e, _rules(m, e), {frozenset({1}): None}),
        ArgumentTypeError,
        "the target",
    ),
    (
        lambda m, e, o: play.Planner(e, _rules(m, e)).rank("1", (1, 5)),
        ArgumentTypeError,
        "coalition",
    ),
    (lambda m, e, o: _rules(m, e).target(5.0), ArgumentTypeError, "coalition"),
    (lambda m, e, o: _rules(m, e).mover([1, "5"]), ArgumentTypeError, "is not an int"),
    (lambda m, e, o: _rules(m, e).result((1, 0), "2"), ArgumentTypeError, "last_mover"),
    (lambda m, e, o: _rules(m, e).result((1, 0), 9), QueryError, "not a player"),
    (
        lambda m, e, o: play.choose_move(None, (1, 5), frozenset({1})),
        ArgumentTypeError,
        "the planner",
    ),
    (
        lambda m, e, o: play.choose_move(play.Planner(e, _rules(m, e)), (1, 5), {1}, rng=3),
        ArgumentTypeError,
        "rng",
    ),
    (
        lambda m, e, o: play.solver_player(play.Planner(e, _rules(m, e)), {5}),
        QueryError,
        "unknown player",
    ),
    (lambda m, e, o: play.random_player(None), ArgumentTypeError, "rng"),
    (
        lambda m, e, o: play.run_play(e, _rules(m, e), {}, (1, 5), 10),
        ArgumentTypeError,
        "no callable Player",
    ),
    (
        lambda m, e, o: play.run_play(e, _rules(m, e), {1: min, 2: min}, (1, 5), -1),
        ArgumentValueError,
        "max_moves",
    ),
    (
        lambda m, e, o: play.run_play(e, None, {1: min, 2: min}, (1, 5), 3),
        ArgumentTypeError,
        "the rules",
    ),
    (lambda m, e, o: play.start_positions(e, None), ArgumentTypeError, "definitions"),
    (lambda m, e, o: play.start_positions(e, m.definitions, o), EngineMismatch, "start set"),
    (lambda m, e, o: play.drawer("x", m.game.space, str), ArgumentTypeError, "display"),
    (lambda m, e, o: play.drawer(None, m.game.space, None), ArgumentTypeError, "fallback"),
]


@pytest.mark.parametrize("case", range(len(PLAY_CASES)))
def test_play_boundary(sub, eng, other, case):
    call, error, words = PLAY_CASES[case]
    _refused(lambda: call(sub, eng, other), error, words)


def test_the_checked_calls_still_answer(sub, eng):
    """The checks refuse junk only: the same functions on good arguments answer."""
    rules = _rules(sub, eng)
    planner = play.Planner(eng, rules)
    p = play.run_play(eng, rules, {q: play.solver_player(planner, {q}) for q in (1, 2)}, (1, 5), 10)
    assert p.outcome is not None and p.positions[0] == (1, 5)
    assert play.random_player(random.Random(0))((1, 5), [(2, 4)]) == (2, 4)
    s = _strategy(eng)
    assert strategy.verify(eng, s.objective, s.table(), eng.positions() & s.region).ok
    reference = retrograde_values(ExplicitGame(sub.game))
    assert all(values.two_player_values(eng).value(c) == v for c, v in reference.items())
