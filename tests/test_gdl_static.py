"""GDL relations that do not depend on the state (issue 23, item 1): ``legal``, ``next``,
``terminal`` and ``goal`` given as facts or as rules over static relations are kept by
both GDL engines; a property test compares them with a plain interpreter
(:mod:`tests.gdl_interp`) on random games mixing static and state-dependent rules."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import ModelError
from symbolic.gdl.load import gdl_model
from symbolic.gdl.solve import dead_ends, forced_values
from symbolic.model import Model
from tests.gdl_interp import NotTurnBased, explore, kif
from tests.strategies import static_gdl

HERE = Path(__file__).resolve().parent / "gdl"


def _table(path: Path, capsys) -> dict:
    assert main(["gdl", str(path), "--engine", "both", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {
        "reachable": doc["reachable"],
        "dead_ends": doc["dead_ends"],
        **{("+".join(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]},
    }


@pytest.mark.parametrize(
    "name, expected",
    [
        # the issue's file: a forces 100 for a and 50 for b (goal and legal facts)
        (
            "static_goal.kif",
            {
                "reachable": 2,
                "dead_ends": 0,
                ("a", "a"): 100,
                ("a", "b"): 50,
                ("b", "a"): 100,
                ("a+b", "b"): 50,
            },
        ),
        # a legal fact: the start is no dead end
        ("static_legal.kif", {"reachable": 3, "dead_ends": 0, ("a", "a"): 100}),
        # terminal as a fact: the initial state is terminal, and its goal counts
        ("static_terminal.kif", {"reachable": 1, "dead_ends": 0, ("a", "a"): 100}),
        # terminal by a rule over a static fact
        ("static_terminal_rule.kif", {"reachable": 1, "dead_ends": 0, ("a", "a"): 100}),
        # a next fact: (done) holds after every move
        ("static_next.kif", {"reachable": 2, "dead_ends": 0, ("a", "a"): 100}),
        # a goal rule over facts, 70 everywhere, with a state-dependent 100
        ("static_goal_rule.kif", {"reachable": 3, "dead_ends": 0, ("a", "a"): 100}),
    ],
)
def test_static_relations_are_kept(name, expected, capsys):
    got = _table(HERE / name, capsys)
    assert {k: got[k] for k in expected} == expected, got


def test_a_static_goal_is_a_set_of_states(capsys):
    """``check --query 'goal(a, 100)'`` counts the reachable states (issue 23: it said 0)."""
    assert (
        main(
            ["check", str(HERE / "static_goal.kif"), "--query", "goal(a, 100)", "--engine", "both"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "count: 2" in out, out


def test_a_goal_rule_over_facts_gives_its_values():
    m = gdl_model((HERE / "static_goal_rule.kif").read_text(), "static_goal_rule.kif")
    assert m.game.program.goals["a"] == (70, 100), m.game.program.goals


def _engine_view(model: Model, kind: str, concurrent: bool | None = None) -> dict:
    eng = make_engine(model.game, kind, concurrent=concurrent)
    prog = model.game.program
    goal_counts = {}
    for atom in prog.rules:
        if atom[0] == "goal":
            goal_counts[(atom[1][0], int(atom[1][1]))] = len(eng.atom_set(atom).tuples())
    return {
        "reachable": len(eng.positions().tuples()),
        "terminal": len(eng.atom_set(("terminal", ())).tuples()),
        "dead_ends": len(dead_ends(model, eng).tuples()),
        "goals": {k: v for k, v in goal_counts.items() if v},
        "forced": {
            (tuple(f["coalition"]), f["role"]): f["value"] for f in forced_values(model, eng)
        },
    }


def _interp_view(res) -> dict:
    goals: dict = {}
    for term, _, g, _ in res.states.values():
        for r, vs in g.items():
            for v in vs:
                goals[(r, v)] = goals.get((r, v), 0) + 1
    return {
        "reachable": len(res.states),
        "terminal": sum(1 for t, _, _, _ in res.states.values() if t),
        "dead_ends": res.dead_ends,
        "goals": goals,
        "forced": res.forced,
    }


def check_against_interpreter(rules, concurrent: bool | None = None) -> None:
    """Both GDL engines and the plain interpreter agree on the reachable, terminal and
    dead-end states, each goal's states and the forced table. A game that is not
    turn-based is refused by the turn-based reading (``concurrent=False``) and solved
    by the concurrent one (the default reading then, the interpreter's concurrent
    solver); ``concurrent=True`` reads every game as concurrent (the same table on a
    turn-based game)."""
    text = kif(rules)
    model = gdl_model(text, "random.kif")
    try:
        res = explore(rules, concurrent=bool(concurrent))
    except NotTurnBased:
        for kind in ("explicit", "symbolic"):
            with pytest.raises(ModelError, match="not a turn-based game"):
                _engine_view(model, kind, concurrent=False)
        res = explore(rules, concurrent=True)
    want = _interp_view(res)
    for kind in ("explicit", "symbolic"):
        got = _engine_view(model, kind, concurrent)
        assert got == want, (kind, text, got, want)


COMMON = dict(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@settings(max_examples=100, **COMMON)
@given(static_gdl())
def test_random_games_with_static_relations(rules):
    check_against_interpreter(rules)


@settings(max_examples=60, **COMMON)
@given(static_gdl(simultaneous=True))
def test_random_simultaneous_games(rules):
    """Both roles usually choose at once: the concurrent engines == the interpreter's
    plain concurrent solver."""
    check_against_interpreter(rules)


@settings(max_examples=40, **COMMON)
@given(static_gdl())
def test_random_games_read_as_concurrent(rules):
    """Every game read as concurrent (turn-based ones too) == the concurrent solver."""
    check_against_interpreter(rules, concurrent=True)


@pytest.mark.fuzz
def test_fuzz_random_games_with_static_relations():
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000")) // 10
    count = 0

    @settings(max_examples=n, database=None, **COMMON)
    @given(static_gdl())
    def run(rules):
        nonlocal count
        check_against_interpreter(rules)
        check_against_interpreter(rules, concurrent=True)
        count += 1

    run()
    print(
        f"\nfuzz: {count} random GDL games with static relations, both GDL engines == "
        "the plain interpreter"
    )
    assert count >= min(n, 1)
