"""The command line on concurrent games: ``successors`` by joint action, and the
commands that need a player to move refuse in their own words (never a message about
``turn(J)``, which the user did not write)."""

from __future__ import annotations

import itertools

import json

import pytest


from symbolic.model import load_model

from .conftest import ROOT, run

GDL_PENNIES = str(ROOT / "tests" / "gdl" / "pennies.kif")

#: the shipped concurrent models, each with a position and a pair of its variables
CONCURRENT = {
    "pennies": ("done=false, same=false", "done", "same"),
    "rps": ("round=0, score=0", "round", "score"),
    "race": ("a=5, b=5", "a", "b"),
    "train_gate": ("s=0", "s", "s"),
}

#: each command that refuses a concurrent game, and its arguments
REFUSED = {
    "play": [],
    "simulate": ["--players", "optimal,random"],
    "values": [],
    "values --by-layer": ["--by-layer"],
    "nimbers": [],
    "draw --values": ["--values", "--x", "X", "--y", "Y"],
    "draw --nimbers": ["--nimbers", "--x", "X", "--y", "Y"],
    "draw --board": ["--board"],
    "draw --strategy": ["--strategy", "<<1>> <> true"],
}


@pytest.mark.parametrize("model", [*CONCURRENT, GDL_PENNIES])
@pytest.mark.parametrize("what", REFUSED)
def test_commands_that_need_a_turn_refuse_concurrent_games(capsys, model, what, tmp_path):
    command, *rest = what.split()
    _, x, y = CONCURRENT.get(model, ("", "match", "s_0"))
    args = [{"X": x, "Y": y}.get(a, a) for a in REFUSED[what]]
    status, out, err = (
        run(capsys, command, model, *args, "-o", str(tmp_path / "x.svg"))
        if command == "draw"
        else run(capsys, command, model, *args)
    )
    assert status == 2 and out == "", (status, out, err)
    assert f"{what.split(' --by')[0]} is not supported for concurrent games" in err, err
    assert "turn(J)" not in err, err


@pytest.mark.parametrize("engine", ["symbolic", "explicit"])
def test_successors_by_joint_action(capsys, engine):
    status, out, err = run(
        capsys, "successors", "pennies", "--at", "done=false, same=false", "--engine", engine
    )
    assert status == 0, err
    assert out.splitlines() == [
        "done=0, same=0  (concurrent: every player chooses an action)",
        "4 joint action(s), 2 successor(s):",
        "    1) 1: show(0), 2: show(0)  ->  done=1, same=1",
        "    2) 1: show(0), 2: show(1)  ->  done=1, same=0",
        "    4) 1: show(1), 2: show(0)  ->  done=1, same=0",
        "    5) 1: show(1), 2: show(1)  ->  done=1, same=1",
    ], out  # numbers: places among every joint action, rest included (3 x 3)
    status, out, _ = run(
        capsys, "successors", "train_gate", "--at", "s=1", "--engine", engine, "--json"
    )
    doc = json.loads(out)
    assert doc["turn"] is None and doc["successors"] == [{"s": 0}, {"s": 1}, {"s": 2}], doc
    assert [(j["actions"], j["successors"]) for j in doc["joint_actions"]] == [
        ({"1": "idle", "2": "grant"}, [{"s": 2}]),
        ({"1": "idle", "2": "delay"}, [{"s": 1}]),
        ({"1": "idle", "2": "reject"}, [{"s": 0}]),
    ], doc
    game = load_model("train_gate").game
    every = list(itertools.product(*(game.action_labels(p) for p in game.players)))
    assert [j["number"] for j in doc["joint_actions"]] == [
        every.index(tuple(j["actions"].values())) + 1 for j in doc["joint_actions"]
    ]


@pytest.mark.parametrize("engine", ["symbolic", "explicit"])
def test_successors_of_a_gdl_game_read_as_concurrent(capsys, engine):
    status, out, err = run(
        capsys,
        "successors",
        GDL_PENNIES,
        "--at",
        "match=false, s_0=true, s_1=false",
        "--engine",
        engine,
    )
    assert status == 0, err
    lines = out.splitlines()
    assert lines[1] == "4 joint action(s), 2 successor(s):", out
    assert lines[0] == "(s 0)  (concurrent: every player chooses an action)", out
    assert "    2) a: heads, b: tails  ->  (s 1)" in lines, out  # roles and fluents by name


STUCK = """\
game "stuck"
players 1, 2
var x : 0..2
concurrent
action 1 go when x < 2
action 2 go when x < 2
action 2 stay when x < 2
update when does(2, go) then x' = x + 1
update when x == 1 and does(2, stay) then x' = 0
update when x == 1 and does(2, stay) then x' = 2
"""


def test_successors_of_a_dead_end_and_of_contradictory_updates(capsys, tmp_path):
    model = tmp_path / "stuck.game"
    model.write_text(STUCK)
    status, out, _ = run(capsys, "successors", str(model), "--at", "x=2")
    assert status == 0
    assert out.splitlines()[1] == (
        "0 joint action(s), 0 successor(s) (a dead end: a player has no enabled action)"
    ), out
    status, out, _ = run(capsys, "successors", str(model), "--at", "x=1", "--engine", "explicit")
    assert out.splitlines()[1:] == [
        "2 joint action(s), 1 successor(s):",
        "    1) 1: go, 2: go  ->  x=2",
        "    2) 1: go, 2: stay  ->  no successor (its updates contradict each other)",
    ], out
