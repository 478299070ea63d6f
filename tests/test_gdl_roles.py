"""Rules whose role argument is a variable or a non-role (symbolic.gdl.roles, issue 36):
``(goal b 100)`` or ``(legal hole m)`` derived by the rules are no role's goal or move,
``(does hole m)`` never holds; each file of tests/gdl checked by both engines against the
plain interpreter (:mod:`tests.gdl_interp`, no code shared), with its known answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symbolic.cli import main
from symbolic.gdl.load import gdl_program
from tests.gdl_interp import explore, read_kif

HERE = Path(__file__).resolve().parent / "gdl"

FILES = ["var_role_goal.kif", "var_role_legal.kif", "role_goal_read.kif"]


def _cli(path: Path, capsys) -> dict:
    assert main(["gdl", str(path), "--engine", "both", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", FILES)
def test_both_engines_equal_the_interpreter(name, capsys):
    doc = _cli(HERE / name, capsys)
    res = explore(read_kif((HERE / name).read_text()), concurrent=doc.get("concurrent", False))
    got = {(tuple(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]}
    assert (doc["reachable"], doc["dead_ends"], got) == (
        len(res.states),
        res.dead_ends,
        res.forced,
    ), (doc, res.forced)


def test_known_answers(capsys):
    def table(name):
        return {
            ("+".join(f["coalition"]), f["role"]): f["value"]
            for f in _cli(HERE / name, capsys)["forced"]
        }

    # x marks the middle and completes a pair next turn whatever o does
    assert table("var_role_goal.kif")[("x", "x")] == 100
    # each role alone keeps off the hole (stays), nobody forces the other in
    legal = table("var_role_legal.kif")
    assert (legal[("red", "red")], legal[("red", "blue")]) == (100, 0), legal
    # a stops at s 1 (winner a); inc twice ends the game by (goal nobody 100) with 0
    assert table("role_goal_read.kif") == {("a", "a"): 100}


def test_the_ground_program_keeps_only_the_roles():
    prog = gdl_program((HERE / "var_role_legal.kif").read_text(), "var_role_legal.kif")
    assert sorted(prog.moves) == ["blue", "red"]
    atoms = [
        (lit[1][0], lit[1][1][0]) for bodies in prog.rules.values() for b in bodies for lit in b
    ]
    assert ("does", "hole") not in atoms and ("does", "red") in atoms
    assert not any(a[0] == "legal" and a[1][0] == "hole" for a in prog.rules)
    goal = gdl_program((HERE / "var_role_goal.kif").read_text(), "var_role_goal.kif")
    assert goal.goals == {"x": (0, 50, 100), "o": (0, 50, 100)}
    assert ("goal", ("b", "100")) not in goal.rules
    read = gdl_program((HERE / "role_goal_read.kif").read_text(), "role_goal_read.kif")
    assert ("goal", ("nobody", "100")) in read.rules  # terminal reads it
    assert read.moves == {"a": ("inc", "stop")} and read.goals == {"a": (0, 100)}
