"""symbolic.cli.layers: the reachable positions counted layer by layer, on every
engine, against the ply-by-ply table's rows and the explicit engine's layers."""

from __future__ import annotations

import json

import pytest

from symbolic.analysis.layered import initial_set
from symbolic.api import reach_layers
from symbolic.engines import make_engine
from symbolic.model import load_model

from .conftest import ROOT, run

C4 = str(ROOT / "models" / "connect4-compact.game")
SMALL = ("-p", "w=3", "-p", "h=3", "-p", "a=3")


def _explicit_layers(path, params) -> list[int]:
    model = load_model(path, params)
    e = make_engine(model.game, "explicit")
    return [f.count() for f in reach_layers(e, initial_set(e, model.definitions)).layers]


@pytest.mark.parametrize("backend", ["cudd", "oxidd"])
def test_counts_equal_the_explicit_layers_and_the_table_rows(capsys, backend):
    # one layer held (the model declares its levels): the explicit engine's layers, and
    # the sizes of the rows of `values --by-layer` (win + draw + loss of each layer)
    status, out, err = run(capsys, "layers", C4, *SMALL, "--backend", backend, "--json")
    assert status == 0, err
    doc = json.loads(out)
    got = [row["positions"] for row in doc["layers"]]
    assert got == _explicit_layers(C4, {"w": 3, "h": 3, "a": 3}), got
    assert doc["total"] == sum(got) == 694 and doc["one_layer_held"] is True, doc
    assert [row["layer"] for row in doc["layers"]] == list(range(len(got)))
    status, out, err = run(capsys, "values", C4, *SMALL, "--by-layer", "--json")
    assert status == 0, err
    rows = [r["win"] + r["draw"] + r["loss"] for r in json.loads(out)["layers"]]
    assert rows == got, (rows, got)


def test_text_both_engines_and_no_levels(capsys):
    status, out, err = run(capsys, "layers", "tictactoe", "--engine", "both")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "tic-tac-toe", lines
    assert "the layers seen kept: the model declares no levels" in lines[1], lines
    counts = [int(line.split()[1]) for line in lines if line[:5].strip().isdigit()]
    want = _explicit_layers(str(ROOT / "models" / "tictactoe.game"), None)
    assert counts == want, (counts, want)
    assert f"total {sum(want)} positions in {len(want)} layers" in lines
    assert lines[-1] == "symbolic and explicit agree on every layer"


def test_rows_print_as_they_are_counted_with_one_engine(capsys):
    status, out, err = run(capsys, "layers", C4, *SMALL)
    assert status == 0, err
    lines = out.splitlines()
    assert "one layer held at a time: the model declares disjoint levels" in lines[1], lines
    assert lines[3].split() == ["layer", "positions"], lines
    assert [line.split() for line in lines[4:7]] == [["0", "1"], ["1", "3"], ["2", "9"]]
    assert lines[-1] == "total 694 positions in 10 layers", lines


def test_a_level_that_misses_its_layer_is_an_error_at_its_definition(capsys, tmp_path):
    text = (ROOT / "models" / "connect4-compact.game").read_text()
    wrong = text.replace("for i in CELLS) = k\n", "for i in CELLS) = k + 1\n")
    assert wrong != text
    path = tmp_path / "c4.game"
    path.write_text(wrong)
    status, out, err = run(capsys, "layers", path, *SMALL)
    line = 1 + text[: text.index("set level(k)")].count("\n")
    assert status == 2, (status, err)
    assert f"c4.game:{line}:1: error: level(0) does not hold the positions of layer 0" in err, err
    assert "Traceback" not in err


def test_a_limit_keeps_the_layers_counted(capsys, monkeypatch):
    # the limit reached before layer 3 is made: the stop document (exit 3) carries
    # layers 0-2, as counted
    from symbolic.errors import LimitExceeded
    from symbolic.limits import Limits

    check = Limits.check

    def check_until_layer_3(self, detail=None, info=None):
        if detail == "layer 3":
            raise LimitExceeded("time limit of 1 s reached", "timeout", "counting")
        return check(self, detail, info)

    monkeypatch.setattr(Limits, "check", check_until_layer_3)
    status, out, err = run(capsys, "layers", C4, *SMALL, "--json")
    assert status == 3, (status, err)
    doc = json.loads(out)
    assert doc["command"] == "layers" and doc["stopped"]["limit"] == "timeout", doc
    want = [
        {"layer": 0, "positions": 1},
        {"layer": 1, "positions": 3},
        {"layer": 2, "positions": 9},
    ]
    assert doc["stopped"]["solved"] == want, doc
