"""symbolic.cli.values and symbolic.cli.chocolate: output, JSON shape, engines, errors."""

from __future__ import annotations

import json

import pytest

from symbolic.seeds.chocolate import HALF, BarValues
from symbolic.engines import make_engine
from symbolic.explicit.values import retrograde_values
from symbolic.model import load_model

from symbolic.cli.positions import MAX_COLUMNS, position_shower

from .conftest import ROOT, run

CHOC = str(ROOT / "models" / "chocolate.game")
TTT = str(ROOT / "models" / "tictactoe.game")


def reference(path, params=None):
    model = load_model(path, params)
    return retrograde_values(make_engine(model.game, "explicit"))


def test_values_text(capsys):
    status, out, err = run(capsys, "values", CHOC, "--engine", "both")
    assert status == 0, err
    table = reference(CHOC)
    counts = {}
    for v in table.values():
        counts[v] = counts.get(v, 0) + 1
    lines = out.splitlines()
    assert lines[0] == "chocolate(m, n, i, j) [m=10, n=7, i=7, j=3]"
    won = sum(n for v, n in counts.items() if v > 0)
    assert (
        f"{len(table)} positions: {won} won by the player to move, "
        f"{len(table) - won} lost, 0 drawn" in lines
    )
    for v, n in counts.items():
        shown = f"+{v}" if v > 0 else str(v)
        assert f"{shown:>6}  {n:>9}" in lines, v
    # the initial bar, drawn by the model and numbered as a list of boards, then its value
    board = position_shower(load_model(CHOC))((1, 7, 2, 3, 3)).splitlines()
    at = lines.index("initial positions:")
    assert lines[at + 1] == "     1) " + board[0]
    assert lines[at + 2 : at + 1 + len(board)] == ["        " + b for b in board[1:]]
    assert lines[at + 1 + len(board)] == f"        value: +{table[(1, 7, 2, 3, 3)]} (win)"
    assert "outcome: normal play (the player left without a move loses)" in lines
    assert "symbolic and explicit agree on every position" in lines


@pytest.mark.parametrize("engine", ["symbolic", "explicit", "both"])
def test_values_json(capsys, engine):
    status, out, _ = run(
        capsys,
        "values",
        CHOC,
        "-p",
        "m=4",
        "-p",
        "n=3",
        "-p",
        "i=1",
        "-p",
        "j=2",
        "--json",
        "--engine",
        engine,
    )
    assert status == 0
    doc = json.loads(out)
    table = reference(CHOC, {"m": 4, "n": 3, "i": 1, "j": 2})
    counts = {}
    for v in table.values():
        counts[str(v)] = counts.get(str(v), 0) + 1
    assert doc["counts"] == counts and doc["draws"] == 0 and doc["positions"] == len(table)
    assert doc["initial"] == [
        {
            "position": {"mover": 1, "l": 1, "r": 2, "u": 2, "d": 0},
            "value": table[(1, 1, 2, 2, 0)],
            "result": "win",
        }
    ]
    assert doc["outcome"] == "normal play"
    assert doc["parameters"] == {"m": 4, "n": 3, "i": 1, "j": 2}
    assert ("agree" in doc) == (engine == "both") and doc.get("agree", True)


@pytest.mark.parametrize("engine", ["symbolic", "explicit", "both"])
def test_values_at(capsys, engine):
    table = reference(CHOC)
    for pos in [(1, 7, 2, 3, 3), (2, 5, 1, 2, 0), (1, 0, 0, 0, 0), (2, 1, 1, 0, 0)]:
        text = "mover={}, l={}, r={}, u={}, d={}".format(*pos)
        status, out, _ = run(capsys, "values", CHOC, "--at", text, "--json", "--engine", engine)
        assert status == 0
        doc = json.loads(out)
        assert doc["value"] == table[pos] and doc["position"]["l"] == pos[1], (pos, doc)
        status, out, _ = run(capsys, "values", CHOC, "--at", text, "--engine", engine)
        v = table[pos]
        board = position_shower(load_model(CHOC))(pos)  # the bar, drawn by the model
        assert board.count("\n") == 7 and "X" in board
        assert out == f"{board}\nvalue: {'+' if v > 0 else ''}{v}\n"


@pytest.mark.parametrize("m", [80, 81])
def test_values_at_draws_a_position_that_fits(capsys, m):
    # a bar of m columns: drawn up to MAX_COLUMNS characters, shown by its slots above
    assert MAX_COLUMNS == 80
    text = f"mover=1, l=1, r={m - 2}, u=0, d=1"
    status, out, _ = run(
        capsys, "values", CHOC, "-p", f"m={m}", "-p", "n=2", "-p", "i=1", "-p", "j=0", "--at", text
    )
    assert status == 0
    # the bar is Nim with heaps l, r, u, d: 1 xor (m - 2) xor 0 xor 1 != 0, a win (+)
    if m == 80:
        lines = out.splitlines()
        assert lines[:2] == ["#X" + "#" * 78, "#" * 80], out
        assert lines[2:-1] == ["player 1 to move"] and lines[-1].startswith("value: +"), out
    else:
        assert out.startswith(f"{text}  (drawing too large: 81 columns × 3 lines): +"), out


def test_values_draws_are_reported(capsys, tmp_path):
    # a two-player game where both players can shuttle forever
    p = tmp_path / "loop.game"
    # (x = 2: a dead end, so x = 1 wins at once; x = 0 may only go to 3, where the
    # only move returns to 0: nobody can force the end from 0 or 3)
    p.write_text(
        'game "loop"\nplayers 1, 2\nvar j : 1..2\nvar x : 0..3\nturn j\n'
        "move step when x = 1 then x' = 2; j' = 3 - j\n"
        "move out when x = 0 then x' = 3; j' = 3 - j\n"
        "move back when x = 3 then x' = 0; j' = 3 - j\n"
    )
    status, out, _ = run(capsys, "values", str(p), "--json", "--engine", "both")
    doc = json.loads(out)
    table = reference(p)
    assert status == 0 and doc["agree"]
    assert doc["draws"] == sum(v is None for v in table.values()) > 0
    assert doc["draws"] == 4 and doc["counts"] == {"0": 2, "1": 2}
    status, out, _ = run(capsys, "values", str(p), "--at", "j=1, x=0")
    assert out == "j=1, x=0: draw\n"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["values", str(ROOT / "models" / "ens2005.game")], "two-player games"),
        (["values", CHOC, "--at", "mover=1, q=0"], "unknown 'q'"),
        (["values", CHOC, "--at", "mover=1, l=9, r=0, u=0, d=0"], "outside"),
    ],
)
def test_values_errors(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and message in err and "Traceback" not in err, err


def test_chocolate_command(capsys):
    status, out, _ = run(capsys, "chocolate", "--json")
    assert status == 0
    doc = json.loads(out)
    V = BarValues(HALF, "symbolic", "cudd")
    assert doc["Q9"] == {"a": V.value(100, 100, 50, 50), "b": V.value(100, 100, 48, 52)}
    assert doc["Q10"] == [list(p) for p in V.configurations(127, 127, 127)]
    status, out, _ = run(capsys, "chocolate")
    lines = out.splitlines()
    # each question's statement, then its answers
    assert lines[1].startswith("Q9   the values of the 100 x 100 bar with the square of death")
    assert lines[2] == f"     value(100, 100, 50, 50) = {doc['Q9']['a']:+d}"
    assert lines[3] == f"     value(100, 100, 48, 52) = {doc['Q9']['b']:+d}"
    assert lines[4].startswith("Q10  every square of death (i, j)")
    assert lines[5].endswith(", ".join(f"({i}, {j})" for i, j in doc["Q10"]))


def test_values_both_reports_a_difference(capsys, monkeypatch):
    from symbolic.explicit import ExplicitGame

    def wrong(engine):
        table = retrograde_values(engine)
        table[(2, 1, 0, 0, 0)] = -4  # really +1
        return table

    monkeypatch.setattr(ExplicitGame, "retrograde_values", wrong)
    status, out, err = run(capsys, "values", CHOC, "--engine", "both")
    assert status == 1
    assert "MISMATCH: at mover=2, l=1, r=0, u=0, d=0: symbolic +1, explicit -4" in err
    assert "agree" not in out


@pytest.mark.parametrize("engine", ["symbolic", "explicit", "both"])
def test_values_at_a_position_the_invariant_excludes(capsys, tmp_path, engine):
    p = tmp_path / "inv.game"
    p.write_text(
        'game "inv"\nplayers 1, 2\nvar j : 1..2\nvar x : 0..3\ninvariant x != 2\n'
        "turn j\nmove dec when x > 0 then x' = x - 1; j' = 3 - j\n"
    )
    status, out, err = run(capsys, "values", str(p), "--at", "j=1, x=2", "--engine", engine)
    assert status == 2 and "(1, 2) is not a position: the invariant is false" in err, err
    status, out, err = run(capsys, "values", str(p), "--at", "j=1, x=1", "--engine", engine)
    assert (status, out) == (0, "j=1, x=1: +1\n")


@pytest.mark.parametrize("as_json", [False, True])
def test_by_layer_stopped_by_a_limit_keeps_the_layers_it_solved(capsys, monkeypatch, as_json):
    # a limit met in the backward pass (here: on the 7th layer step, 2 per layer) ends the
    # run with status 3, and the rows solved so far are printed (text) or carried in the
    # stopped document (JSON): the last three layers of the whole table, row for row
    from symbolic.bdd.engine import SymbolicGame
    from symbolic.errors import LimitExceeded

    argv = ["values", "connect4-compact", "-p", "w=4", "-p", "h=3", "--by-layer", "--json"]
    status, out, _ = run(capsys, *argv)
    full = json.loads(out)["layers"]
    step, calls = SymbolicGame.until_layer_step, []

    def stopping(self, *a, **kw):
        calls.append(1)
        if len(calls) == 7:
            raise LimitExceeded("time limit of 1 s reached while solving", "timeout", "solving")
        return step(self, *a, **kw)

    monkeypatch.setattr(SymbolicGame, "until_layer_step", stopping)
    status, out, err = run(capsys, *(argv if as_json else argv[:-1]))
    assert status == 3 and "time limit of 1 s" in err, (status, err)
    if as_json:
        solved = json.loads(out)["stopped"]["solved"]
        assert solved == full[::-1][:3], (solved, full[-3:])
    else:
        lines = out.splitlines()
        assert (
            lines[0]
            == "stopped after solving 3 layers (the player to move wins, draws, loses with perfect play):"
        )
        rows = [[int(x) for x in line.split()] for line in lines[3:]]
        assert rows == [[r["layer"], r["win"], r["draw"], r["loss"]] for r in full[-3:]], rows
