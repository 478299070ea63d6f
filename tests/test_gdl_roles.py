"""Rules whose role argument is a variable or a non-role (symbolic.gdl.roles, issue 36):
``(goal b 100)`` or ``(legal hole m)`` derived by the rules are no role's goal or move,
``(does hole m)`` never holds; each file of tests/gdl checked by both engines against the
plain interpreter (:mod:`tests.gdl_interp`, no code shared), with its known answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from symbolic.gdl.load import gdl_program
from tests.gdl_check import assert_cli_equals_interpreter, cli_doc, forced_table

HERE = Path(__file__).resolve().parent / "gdl"

FILES = ["var_role_goal.kif", "var_role_legal.kif", "role_goal_read.kif"]


@pytest.mark.parametrize("name", FILES)
def test_both_engines_equal_the_interpreter(name, capsys):
    assert_cli_equals_interpreter(HERE / name, capsys)


def test_known_answers(capsys):
    def table(name):
        return forced_table(cli_doc(HERE / name, capsys))

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
