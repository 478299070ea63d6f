"""GDL input that must be refused with a clear message, or read without a crash (issue 23):
mixed terms in a ground body, no terminal rule, an undefined relation, ever deeper terms,
an empty file, deep nesting, ``--budget``, ``--depth`` output under a limit, and the
two-player commands on GDL files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symbolic.errors import LimitExceeded, ModelError, ParseError, SymbolicError
from symbolic.gdl.load import gdl_program
from symbolic.model import load_model

from .conftest import run as _run

HERE = Path(__file__).resolve().parent / "gdl"
CORPUS = HERE.parent.parent / "symbolic" / "models" / "gdl"

GAME = (
    "(role a) (init (s 0)) (<= (legal a go) (true (s 0)))\n"
    "(<= (next (s 1)) (does a go))\n(<= terminal (true (s 1)))\n(goal a 100)\n"
)


def test_a_body_mixing_compound_and_constant_fluents_grounds(capsys):
    """The reproducer of the TypeError ('<' between tuple and str) at gdl/ground.py."""
    status, out, err = _run(capsys, "gdl", HERE / "mixed_terms.kif", "--engine", "both", "--json")
    assert (status, err) == (0, ""), err
    doc = json.loads(out)
    assert (
        doc["reachable"] == 2
        and {(tuple(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]}[(("a",), "a")]
        == 100
    ), doc


def test_an_empty_file_is_named(tmp_path, capsys):
    empty = tmp_path / "empty.kif"
    empty.write_text("")
    status, out, err = _run(capsys, "gdl", empty)
    assert (status, out) == (2, ""), err
    assert err.startswith(f"{empty}:1:1: error: no (role ...)"), err


def test_no_terminal_rule_is_refused(tmp_path, capsys):
    path = tmp_path / "endless.kif"
    path.write_text(GAME.replace("(<= terminal (true (s 1)))", ""))
    status, out, err = _run(capsys, "gdl", path)
    assert (status, out) == (2, ""), err
    assert err.startswith(f"{path}:1:1: error: no terminal rule: GDL requires one"), err


def test_an_undefined_relation_is_a_located_warning(tmp_path, capsys):
    path = tmp_path / "typo.kif"
    path.write_text(
        GAME.replace(
            "(<= (legal a go) (true (s 0)))", "(<= (legal a go) (true (s 0)) (playable go))"
        )
    )
    status, out, err = _run(capsys, "gdl", path)
    assert status == 0, err
    assert err.startswith(
        f"{path}:1:23: warning: relation 'playable' is defined by no rule or fact"
    ), err
    assert "dead ends: 1" in out, out  # read as GDL says: never true


def test_the_corpus_has_no_warning():
    for name in ("nim1.kif", "ticTacToe.kif"):  # the others take seconds to ground
        assert gdl_program((CORPUS / name).read_text(), name).warnings == (), name


def test_ever_deeper_terms_are_refused(tmp_path, capsys):
    path = tmp_path / "deep.kif"
    path.write_text("(succ 0 1) (<= (succ ?x (f ?x)) (succ ?y ?x))\n" + GAME)
    status, out, err = _run(capsys, "gdl", path)
    assert (status, out) == (2, ""), err
    assert err.startswith(f"{path}:1:12: error: this rule builds ever deeper terms"), err
    assert "(f (f (f" in err and "levels (grounding would not end" in err, err


def test_a_deep_term_written_in_the_file_is_no_reason_to_refuse():
    deep = "(p " * 150 + "x" + ")" * 150
    prog = gdl_program(GAME + f"(deep {deep}) (<= (next (t ?x)) (true (s 0)) (deep ?x))")
    assert len(prog.fluents) == 3, prog.fluents


def test_deep_nesting_is_located_and_a_symbolic_error(tmp_path, capsys):
    path = tmp_path / "nest.kif"
    path.write_text(GAME + "(<= (goal a 50) " + "(p " * 3000 + "x" + ")" * 3000 + ")\n")
    with pytest.raises(ParseError, match="nest too deeply"):
        load_model(path)
    status, out, err = _run(capsys, "gdl", path)
    assert (status, out) == (2, ""), err
    assert err.startswith(f"{path}:5:614: error: the forms nest too deeply here"), err


def test_a_negative_budget_is_called_a_budget(capsys):
    status, out, err = _run(
        capsys, "gdl", CORPUS / "ticTacToe.kif", "--depth", "2", "--invariant", "--budget", "-1"
    )
    assert (status, out) == (2, ""), err
    assert "--budget must be a positive number of seconds, got -1" in err, err


def test_a_limit_after_the_layers_leaves_stdout_empty(monkeypatch, capsys):
    """The layers found before the limit are not printed (--depth used to flush them)."""
    import symbolic.cli.gdl as cli_gdl

    def over(*_args, **_kw):
        raise LimitExceeded("time limit of 1 s reached while solving", "timeout", "solving")

    monkeypatch.setattr(cli_gdl, "forced_values", over)
    status, out, err = _run(capsys, "gdl", CORPUS / "ticTacToe.kif", "--depth", "3")
    assert (status, out) == (3, ""), (out, err)
    monkeypatch.undo()
    status, out, _ = _run(capsys, "gdl", CORPUS / "ticTacToe.kif", "--depth", "3")
    assert status == 0 and "states reachable in at most 3 moves: 334" in out, out


@pytest.mark.parametrize("command", ["values", "nimbers"])
def test_three_roles_are_refused_before_exploring(command, monkeypatch, capsys):
    import symbolic.cli.common

    def never(*_a, **_k):
        raise AssertionError("an engine was built")

    monkeypatch.setattr(symbolic.cli.common, "make_engine", never)  # every command's engines
    status, out, err = _run(capsys, command, HERE / "three.kif")
    assert (status, out) == (2, ""), err
    assert "two-player game" in err and "[1, 2, 3]" in err, err


def test_nimbers_of_gdl_nim_ignore_the_end_states_nominal_mover(capsys):
    """nim1.kif's end state names the first role as its (nominal) mover: the alternation
    check reads only the positions with moves."""
    status, out, err = _run(capsys, "nimbers", CORPUS / "nim1.kif", "--engine", "both")
    assert status == 0, err
    assert "symbolic and explicit agree on every position's nimber" in out, out


def test_every_refusal_is_a_symbolic_error():
    for text in [
        "",
        GAME.replace("(<= terminal (true (s 1)))", ""),
        "(succ 0 1) (<= (succ ?x (f ?x)) (succ ?y ?x))\n" + GAME,
    ]:
        with pytest.raises(SymbolicError):
            gdl_program(text, "x.kif")
    with pytest.raises(ModelError, match="x.kif:1:1"):
        gdl_program("", "x.kif")


@pytest.mark.parametrize(
    "extra, where, message",
    [
        # issue 32: a goal of 101 was accepted (and reported)
        ("(goal a 100)\n(goal a 101)\n", "6:1", "goal value 101 of a: expected a number 0..100"),
        # an over-long value was located at the first goal rule of the role (line 5)
        (
            "(goal a 0)\n(<= (goal a 12345678901234) (true (s 1)))\n",
            "6:1",
            "goal value 12345678901234 of a: expected a number 0..100",
        ),
        # next is defined by heads only
        (
            "(goal a 100)\n(<= (q) (next (s 0)))\n",
            "6:9",
            "'next' may only appear in the head of a rule (GDL)",
        ),
        (
            "(goal a 100)\n(<= (q) (not (next (s 0))) (true (s 0)))\n",
            "6:14",
            "'next' may only appear in the head of a rule (GDL)",
        ),
        (
            "(goal a 100)\n(<= (next (s 0)) (does b go))\n",
            "6:1",
            "(does b ...): b is not a role (the roles: a)",
        ),
        (
            "(goal a 100)\n(role 42)\n",
            "6:1",
            "a role is a constant symbol such as (role white), not 42",
        ),
    ],
)
def test_gdl_that_the_spec_forbids_is_a_located_error(tmp_path, capsys, extra, where, message):
    path = tmp_path / "bad.kif"
    path.write_text("; issue 32\n" + GAME.replace("(goal a 100)\n", "") + extra)
    status, out, err = _run(capsys, "gdl", path)
    assert (status, out) == (2, ""), err
    assert err.startswith(f"{path}:{where}: error: {message}"), err


def test_goal_values_0_and_100_are_read():
    prog = gdl_program(GAME.replace("(goal a 100)", "(goal a 0) (goal a 100)"), "ok.kif")
    assert prog.goals == {"a": (0, 100)}, prog.goals
