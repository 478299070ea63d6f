"""A one-role GDL game explored up to its best goal (``stop_at_best``:
:func:`symbolic.gdl.engine.check_stop_at_best`).

- On every one-role file of ``tests/gdl``, the shipped models and random one-role games, the
  symbolic and explicit engines stop at the same layer, with the same positions, frontier,
  dead ends and forced table; the layers are the whole game's first ones, the value is the
  whole game's, and no shallower layer holds a terminal state of the best goal.
- ``symbolic gdl --stop-at-best --json`` says how far it explored; a game of several roles,
  a game that is not GDL and the concurrent reading are refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings

from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import QueryError
from symbolic.gdl.kif import SList, parse_kif
from symbolic.gdl.load import gdl_model
from symbolic.gdl.solve import dead_ends, forced_values
from symbolic.model import load_model
from tests.gdl_interp import kif
from tests.strategies import static_gdl
from tests.test_gdl_static import COMMON


def _roles(path: Path) -> int:
    """The ``(role R)`` facts of a GDL file, read without grounding it (collection
    builds no model)."""
    forms = parse_kif(path.read_text(), path.name)
    return sum(isinstance(f, SList) and f.items and str(f.items[0]) == "role" for f in forms)


HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KIFS = [
    p
    for p in sorted((HERE / "gdl").glob("*.kif"))
    + sorted((ROOT / "symbolic" / "models" / "gdl").glob("*.kif"))
    if _roles(p) == 1
]


def _view(model, kind: str, stop: bool, depth: int | None = None) -> dict:
    eng = make_engine(model.game, kind, stop_at_best=stop, depth=depth)
    return {
        "layers": list(eng.layers),
        "complete": eng.complete,
        "positions": sorted(eng.positions().tuples()),
        "frontier": sorted(eng.frontier.tuples()),
        "dead_ends": sorted(dead_ends(model, eng).tuples()),
        "forced": forced_values(model, eng),
    }


def _best_terminal(model, kind: str, depth: int) -> int:
    """The terminal states of the best goal within ``depth`` moves."""
    eng = make_engine(model.game, kind, depth=depth)
    prog = model.game.program
    best = eng.empty()
    for atom in prog.best_goal_atoms(prog.roles[0]):
        best = best | eng.atom_set(atom)
    return len((best & eng.atom_set(("terminal", ()))).tuples())


def check_stop(model) -> None:
    whole = _view(model, "explicit", False)
    got = {kind: _view(model, kind, True) for kind in ("symbolic", "explicit")}
    assert got["symbolic"] == got["explicit"], got
    view = got["symbolic"]
    d = len(view["layers"]) - 1
    assert view["layers"] == whole["layers"][: d + 1], (view["layers"], whole["layers"])
    value = [f["value"] for f in view["forced"]]
    assert value == [f["value"] for f in whole["forced"]], (view["forced"], whole["forced"])
    if d < len(whole["layers"]) - 1:  # stopped before the end: the best goal is there
        prog = model.game.program
        assert value == [max(prog.goals[prog.roles[0]])], view["forced"]
        assert _best_terminal(model, "explicit", d) > 0
        if d > 0:
            assert _best_terminal(model, "explicit", d - 1) == 0
    else:
        assert view["complete"] == whole["complete"]


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_both_engines_stop_at_the_first_layer_of_the_best_goal(path):
    check_stop(gdl_model(path.read_text(), path.name))


def test_some_file_stops_early():
    """The files above do test a stop (pancakes3: the stack sorted in one flip)."""
    model = gdl_model((HERE / "gdl" / "pancakes3.kif").read_text(), "pancakes3.kif")
    view = _view(model, "symbolic", True)
    assert not view["complete"] and view["layers"] == [1, 2], view


@settings(max_examples=40, **COMMON)
@given(static_gdl())
def test_random_one_role_games(rules):
    assume(sum(1 for head, _ in rules if head[0] == "role") == 1)
    check_stop(gdl_model(kif(rules), "random.kif"))


def test_the_command_says_how_far_it_explored(capsys):
    path = str(HERE / "gdl" / "pancakes3.kif")
    assert main(["gdl", path, "--stop-at-best", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["reachable"], doc["depth"], doc["layers"], doc["complete"]) == (3, 1, [1, 3], False)
    assert doc["forced"] == [{"coalition": ["flipper"], "role": "flipper", "value": 100}]
    assert main(["gdl", path, "--stop-at-best"]) == 0
    out = capsys.readouterr().out
    assert "explored reachable states: 3" in out and "stopped after 1 move:" in out, out


def test_refusals(capsys):
    nim = HERE.parent / "symbolic" / "models" / "gdl" / "nim1.kif"
    assert main(["gdl", str(nim), "--stop-at-best"]) == 2
    assert "applies to games of one role, this one has 2" in capsys.readouterr().err
    with pytest.raises(QueryError, match="GDL games only"):
        make_engine(load_model("nim").game, stop_at_best=True)
    model = gdl_model((HERE / "gdl" / "pancakes3.kif").read_text(), "pancakes3.kif")
    with pytest.raises(QueryError, match="turn-based reading"):
        make_engine(model.game, stop_at_best=True, concurrent=True)
