"""symbolic.gdl.invariant and the invariant domain of the GDL symbolic engine: the
inferred set holds init and the reachable states and is closed under the moves, and
the forced table solved over it is the one solved over the reachable states (both
engines), entry by entry (``refine_by_invariant``, ``symbolic gdl --invariant``)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.strategies import graph_gdl

from symbolic.bdd.engine import BddSet
from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import QueryError
from symbolic.gdl.invariant import infer_invariant
from symbolic.gdl.load import gdl_model
from symbolic.gdl.solve import forced_values, refine_by_invariant
from symbolic.gdl.symbolic import GdlSymbolicGame
from symbolic.model import load_model

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "symbolic" / "models" / "gdl"
SMALL = [
    CORPUS / "ticTacToe.kif",
    CORPUS / "nim1.kif",
    HERE / "gdl" / "corners.kif",
    HERE / "gdl" / "forced.kif",
    HERE / "gdl" / "stuck.kif",
]


@functools.cache
def model(path: Path):
    return load_model(path)


@functools.cache
def exact(path: Path) -> list:
    """The forced table from the reachable states, both engines agreeing."""
    m = model(path)
    sym = forced_values(m, make_engine(m.game, "symbolic"))
    exp = forced_values(m, make_engine(m.game, "explicit"))
    assert sym == exp, (sym, exp)
    return sym


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_the_invariant_holds_the_reachable_states_and_is_closed(path):
    m = model(path)
    reach = make_engine(m.game, "symbolic")
    eng = GdlSymbolicGame(m.game, explore=False)
    inv = infer_invariant(eng)
    mgr = eng.manager
    d = BddSet._make(eng, inv.node)
    assert eng.initial() <= d
    post = eng.image(d)
    assert post <= d, post.count()
    # the reachable states (another engine, same variables in the same order) lie in D
    inside = [
        pos
        for pos in reach.positions().tuples()
        if mgr.is_false(mgr.and_(eng.encoder.position_cube(pos), inv.node))
    ]
    assert inside == [], inside[:3]
    assert inv.rounds >= 1 and inv.kept, inv


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
@pytest.mark.parametrize("depth", [0, 2])
def test_the_invariant_domain_gives_the_exact_table(path, depth):
    """From the bounds of the first ``depth`` moves, every open entry decided over the
    invariant domain: the table of the reachable states, entry for entry."""
    m = model(path)
    bounds = forced_values(m, make_engine(m.game, "symbolic", depth=depth))
    inv = GdlSymbolicGame(m.game, domain="invariant")
    refined = refine_by_invariant(m, bounds, inv)
    got = [{k: f[k] for k in ("coalition", "role", "value")} for f in refined]
    want = [{k: f[k] for k in ("coalition", "role", "value")} for f in exact(path)]
    assert got == want, (got, want)
    assert all(f["decided"] and f["by"] in ("bounds", "invariant") for f in refined), refined
    for b, f in zip(bounds, refined):
        assert f["by"] == ("bounds" if b["decided"] else "invariant"), (b, f)


def test_the_whole_invariant_table_is_the_reachable_one():
    """Solved over the invariant domain from scratch (forced_values on that engine:
    no frontier, so the until is exact at init), tic-tac-toe's table is the usual."""
    path = CORPUS / "ticTacToe.kif"
    m = model(path)
    eng = GdlSymbolicGame(m.game, domain="invariant")
    assert eng.positions().count() > 5478  # more than the reachable states
    assert forced_values(m, eng) == exact(path)


def test_a_counter_grades_the_invariant():
    """A hand-written game with a step counter: the invariant's counter is its chain of
    values from init, the layers are graded, and the table is the reachable one."""
    path = HERE / "gdl" / "counter.kif"
    m = model(path)
    eng = GdlSymbolicGame(m.game, domain="invariant")
    assert [f[1] for f in eng.inductive.counter] == ["0", "1", "2", "3"], eng.inductive
    assert eng.reach.graded and len(eng.reach.layers) == 4
    # the forward simulation fixes the control at each step: a moves at 0 and 2
    assert [f.split(",")[0] for f in eng.inductive.fixed] == [
        "(step 0) → (control a) (mark 0)",
        "(step 1) → (control b)",
        "(step 2) → (control a)",
        "(step 3) → (control b)",
    ], eng.inductive.fixed
    ctl = eng.rules.cur[("control", "a")]
    mgr = eng.manager
    for k, layer in enumerate(eng.reach.layers):
        assert mgr.is_false(mgr.and_(layer.node, ctl) if k % 2 else mgr.diff(layer.node, ctl)), k
    assert forced_values(m, eng) == exact(path)


def test_a_budget_keeps_the_bounds():
    m = model(CORPUS / "ticTacToe.kif")
    bounds = forced_values(m, make_engine(m.game, "symbolic", depth=2))
    inv = GdlSymbolicGame(m.game, domain="invariant")
    refined = refine_by_invariant(m, bounds, inv, budget=1e-3)
    assert {f["by"] for f in refined} == {"over budget"}, refined
    assert [(f["lower"], f["upper"]) for f in refined] == [
        (f["lower"], f["upper"]) for f in bounds
    ], refined


def test_a_question_over_budget_is_not_asked_again(monkeypatch):
    """The same entry twice: the second asks nothing (the first ran out of budget)."""
    from symbolic.gdl import solve

    m = model(CORPUS / "ticTacToe.kif")
    bounds = forced_values(m, make_engine(m.game, "symbolic", depth=2))
    entry = next(f for f in bounds if not f["decided"])
    inv = GdlSymbolicGame(m.game, domain="invariant")
    calls = []
    real = solve._Forcing.forces
    monkeypatch.setattr(
        solve._Forcing, "forces", lambda self, *a: calls.append(a) or real(self, *a)
    )
    first, second = refine_by_invariant(m, [entry, entry], inv, budget=1e-3)
    assert first["by"] == second["by"] == "over budget" and len(calls) == 1, (first, calls)


def test_equal_targets_share_their_answers():
    """terminal ∧ goal(r, ·) ≥ its least value is every terminal state, for each role:
    one question, whoever r is (``_Forcing.seen`` is keyed by the set)."""
    from symbolic.gdl.solve import _Forcing

    m = model(CORPUS / "ticTacToe.kif")
    f = _Forcing(m, make_engine(m.game, "symbolic"))
    x, o = (f.at_least(r) for r in m.game.program.roles)
    assert x[0] == o[0] == f.terminal and x[-1] != o[-1]
    assert f.seen("exact", x[0]) is f.seen("exact", o[0])
    assert f.seen("exact", x[-1]) is not f.seen("exact", o[-1])
    assert f.seen("upper", x[0]) is not f.seen("exact", x[0])


def test_the_invariant_domain_refuses_a_depth():
    m = model(CORPUS / "nim1.kif")
    with pytest.raises(QueryError, match="does not apply"):
        GdlSymbolicGame(m.game, domain="invariant", depth=3)
    with pytest.raises(QueryError, match="unknown domain"):
        GdlSymbolicGame(m.game, domain="everything")


def test_a_simultaneous_game_has_no_turn_based_invariant():
    m = model(HERE / "gdl" / "simultaneous.kif")
    with pytest.raises(QueryError, match="no turn-based inductive invariant"):
        GdlSymbolicGame(m.game, domain="invariant")


def test_gdl_command_invariant(capsys):
    path = str(HERE / "gdl" / "stuck.kif")
    assert main(["gdl", path, "--depth", "0", "--invariant", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(f["role"], f["value"], f["by"]) for f in doc["forced"]] == [
        ("a", 100, "invariant"),
        ("b", 0, "invariant"),
        ("a", None, "invariant"),
        ("b", None, "invariant"),
        ("a", 100, "invariant"),
        ("b", 0, "invariant"),
    ], doc
    assert doc["invariant"]["states"] == 3 and doc["invariant"]["counter"] is None, doc
    assert main(["gdl", path, "--depth", "0", "--invariant"]) == 0
    out = capsys.readouterr().out
    assert "solved over an inductive invariant of 3 states" in out and "(invariant, " in out
    assert all(f["seconds"] >= 0 for f in doc["forced"] if f["by"] != "bounds"), doc
    for argv, message in [
        (["--invariant"], "give a depth too"),
        (["--depth", "1", "--budget", "5"], "--budget is the time"),
    ]:
        assert main(["gdl", path] + argv) == 2
        assert message in capsys.readouterr().err


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(graph_gdl())
def test_random_graph_games_agree_over_the_invariant(text):
    """Random graph games (dead ends, cycles, unreachable nodes): the forced table over
    the invariant domain, from scratch and refined from the bounds of one move, is the
    one of the reachable states on the symbolic and explicit engines."""
    m = gdl_model(text, "random.kif")
    sym = forced_values(m, make_engine(m.game, "symbolic"))
    assert sym == forced_values(m, make_engine(m.game, "explicit")), text
    inv = GdlSymbolicGame(m.game, domain="invariant")
    assert forced_values(m, inv) == sym, text
    refined = refine_by_invariant(
        m, forced_values(m, make_engine(m.game, "symbolic", depth=1)), inv
    )
    assert [f["value"] for f in refined] == [f["value"] for f in sym], text


@pytest.mark.gdl_slow
def test_3pttc_invariant():
    """3pttc.kif's inferred invariant (about 2.5 minutes): one piece per cell, the spawn
    cells occupied, one control, fixed at each step by the forward simulation, and the
    step counter (step 1 ... step 31) grading it into 31 layers; it holds init and is
    closed under the moves. Over it, red with yellow does not force a blue line (about
    15 s): with the lower bound 0 of 13 moves, that entry is exact."""
    m = load_model(CORPUS / "3pttc.kif")
    eng = GdlSymbolicGame(m.game, domain="invariant")
    inv = eng.inductive
    assert [f[1] for f in inv.counter] == [str(t) for t in range(1, 32)], inv.counter
    assert "at most one (cell 3 3 ·)" in inv.kept and "at least one (control ·)" in inv.kept
    assert "(cell 1 4 red) stays true" in inv.kept
    # the forward simulation: the control of each step, the cells still empty early on
    movers = ["red", "yellow", "blue"]
    assert [f.split(",")[0].split(" → ")[1].split()[-1][:-1] for f in inv.fixed] == [
        movers[k % 3] for k in range(31)
    ], inv.fixed
    assert inv.fixed[1].endswith(", 103 false"), inv.fixed[1]
    d = BddSet._make(eng, inv.node)
    assert eng.initial() <= d and eng.image(d) <= d
    entry = {
        "coalition": ["red", "yellow"],
        "role": "blue",
        "value": None,
        "lower": 0,
        "upper": 100,
        "decided": False,
    }
    (out,) = refine_by_invariant(m, [entry], eng, budget=300)
    assert (out["value"], out["by"]) == (0, "invariant"), out


def test_a_simulation_cut_short_keeps_d():
    """The forward simulation of tic-tac-toe: init, one move, then the control
    alternating (a cycle of two fixed sets), which refines D; cut short of that, it
    gives D back as it is, with nothing fixed and no counter."""
    from symbolic.gdl.invariant import _layers

    m = model(CORPUS / "ticTacToe.kif")
    eng = GdlSymbolicGame(m.game, explore=False)
    inv = infer_invariant(eng)
    assert [f.split(" → ")[0] for f in inv.fixed] == [f"after {k} moves" for k in range(4)], (
        inv.fixed
    )
    mgr = eng.manager
    assert _layers(eng, inv.node, [], 3) == (inv.node, None, ())
    assert _layers(eng, mgr.true, [], 2) == (mgr.true, None, ())
    again, counter, fixed = _layers(eng, inv.node, [], 4)
    assert again == inv.node and counter is None and fixed == inv.fixed
