"""Joint strategies of a coalition on concurrent games (symbolic.analysis.joint_strategy).

On the shipped concurrent models and on random concurrent games: the strategy read off
either engine's fixpoint wins from every position of the fixpoint, checked by the
explicit verifier against every joint response; a table with a disabled action is
refused; a strategy does not win outside its fixpoint.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.analysis.joint_strategy import (
    JointStrategy,
    reach_joint_strategy,
    safety_joint_strategy,
    verify_joint,
)
from symbolic.engines import make_engine
from symbolic.errors import QueryError, SymbolicError
from symbolic.model import load_model

from .strategies import bool_exprs, concurrent_games
from .conftest import MODELS


@pytest.mark.parametrize("kind", ["explicit", "symbolic"])
def test_train_gate_controller_keeps_the_train_out(kind):
    m = load_model(MODELS / "train_gate.game")
    E = make_engine(m.game, kind)
    keep = atl.Evaluator(E, m.definitions)(m.formula("out_of_gate"))
    s = safety_joint_strategy(E, {2}, keep)
    assert sorted(s.table) == [(0,), (1,)]
    assert verify_joint(m.game, s, [(0,), (1,)])
    # the train alone cannot get in from OUT: its strategy wins only from GRANTED and IN
    s1 = reach_joint_strategy(E, {1}, E.positions(), E.from_tuples([(3,)]))
    assert sorted(s1.table) == [(2,)] and s1.labels[(2,)] == ("enter",)
    assert verify_joint(m.game, s1, [(2,), (3,)]) and not verify_joint(m.game, s1, [(0,)])


@pytest.mark.parametrize("kind", ["explicit", "symbolic"])
def test_race_winner_plays_the_largest_take(kind):
    m = load_model(MODELS / "race.game", {"N": 5, "M": 2})
    E = make_engine(m.game, kind)
    won1 = atl.Evaluator(E, m.definitions)(m.formula("won1"))
    s = reach_joint_strategy(E, {1}, E.positions(), won1)
    assert verify_joint(m.game, s, s.table)
    assert s.labels[(3, 5)] in {("take(1)",), ("take(2)",)}


def test_a_disabled_action_is_refused():
    m = load_model(MODELS / "pennies.game")
    bad = JointStrategy(m.game, (1,), "safety", {(0, 0): (2,)}, frozenset({(0, 0)}))
    with pytest.raises(QueryError, match="not enabled"):
        verify_joint(m.game, bad, [(0, 0)])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), kind=st.sampled_from(["explicit", "symbolic"]))
def test_strategies_win_on_random_games(data, kind):
    game = data.draw(concurrent_games())
    try:
        E = make_engine(game, kind)
        target = E.from_expr(data.draw(bool_exprs(game.space, (), 1)))
    except SymbolicError:
        return  # an ill-typed random game: refused by both engines (tests/test_concurrent.py)
    J = data.draw(st.lists(st.sampled_from(game.players), unique=True))
    reach = reach_joint_strategy(E, J, E.positions(), target)
    assert verify_joint(game, reach, reach.table)
    safe = safety_joint_strategy(E, J, target)
    assert verify_joint(game, safe, safe.table)


def test_the_strategy_command_on_a_concurrent_game(capsys):
    from symbolic.cli import main

    path = str(MODELS / "train_gate.game")
    assert (
        main(
            [
                "strategy",
                path,
                "--query",
                "<<2>> [] out_of_gate",
                "--at",
                "s=0",
                "--verify",
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["verified"] and doc["start_won"] == 1
    assert [r["actions"] for r in doc["table"]] == [["idle"], ["delay"]]
    # a start that is not won: nothing to verify, a negative answer (exit 1)
    assert (
        main(["strategy", path, "--query", "<<1>> <> s == IN", "--at", "s=0", "--verify", "--json"])
        == 1
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["start_won"] == 0 and not doc["verified"], doc
