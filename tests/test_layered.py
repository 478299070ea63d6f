"""symbolic.analysis.layered: layered answers against the plain fixpoints.

Every shipped model's queries (``check --layered auto`` gives the plain answers,
``on`` gives them within the reachable positions), random ATL formulas on random
graded arenas (LayeredEvaluator = plain ∩ R), and the ply-by-ply table
(``values --by-layer``) layered against plain, symbolic against explicit."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from symbolic import atl
from symbolic.analysis.layered import (LayeredEvaluator, anchor_of, evaluate_queries,
                                       graded_layers, initial_set, layer_outcomes)
from symbolic.cli import main
from symbolic.errors import QueryError
from symbolic.model import load_model
from symbolic.seeds.games import arena

from .conftest import build_engine
from .strategies import formulas, graded_arenas

MODELS = Path(__file__).resolve().parent.parent / "models"
# every shipped model at its default parameters, Connect Four on a 3 × 3 board
SHIPPED = [(p.name, {"w": 3, "h": 3, "a": 3} if p.name.startswith("connect4") else {})
           for p in sorted(MODELS.glob("*.game"))]


# oxidd managers allocate an 80 MB apply cache each: the per-model and random tests use
# CUDD and the explicit engine, oxidd is checked on the two graded models below
@pytest.mark.parametrize("name,params", SHIPPED, ids=[n for n, _ in SHIPPED])
@pytest.mark.parametrize("kind", ["cudd"])
def test_auto_gives_the_plain_answers_on_every_shipped_model(name, params, kind):
    model = load_model(MODELS / name, params)
    eng = build_engine(model.game, kind)
    queries = [(q.text, q.formula) for q in model.queries]
    plain = evaluate_queries(model, queries, eng, "off")
    auto = evaluate_queries(model, queries, eng, "auto")
    for (text, _), p, a in zip(queries, plain, auto):
        assert p.how is None
        assert a.positions == p.positions, (text, a.positions.count(), p.positions.count())


@pytest.mark.parametrize("kind", ["explicit", "cudd", "oxidd"])
def test_layered_queries_on_tictactoe_and_connect4(kind):
    for name, params in (("tictactoe.game", {}), ("connect4.game", {"w": 3, "h": 3, "a": 3})):
        model = load_model(MODELS / name, params)
        eng = build_engine(model.game, kind)
        queries = [(q.text, q.formula) for q in model.queries]
        plain = evaluate_queries(model, queries, eng, "off")
        auto = evaluate_queries(model, queries, eng, "auto")
        on = evaluate_queries(model, queries, eng, "on")
        reach = graded_layers(eng, initial_set(model, eng))
        assert reach is not None
        for (text, _), p, a, o in zip(queries, plain, auto, on):
            assert a.positions == p.positions, (name, text)
            anchored = anchor_of(model.formula(text), model.definitions) is not None
            if text.startswith("empty and"):
                assert a.how[0] == "anchored", (name, text, a.how)
            if o.how[0] == "reachable":
                assert o.positions == p.positions & reach.result, (name, text)
            else:
                assert anchored and o.positions == p.positions, (name, text)


@settings(max_examples=25, deadline=None)
@given(graded_arenas().flatmap(lambda case: formulas(arena(case[0], case[1]), 3).map(
    lambda f: (case, f))))
def test_layered_evaluator_is_the_plain_one_within_the_reachable_positions(case_f):
    (controller, edges, _target, _stay, start, _p), f = case_f
    game = arena(controller, edges)
    for kind in ("explicit", "cudd"):
        e = build_engine(game, kind)
        reach = graded_layers(e, e.from_tuples([(s,) for s in start]))
        assert reach is not None
        got = LayeredEvaluator(e, reach)(f)
        want = atl.evaluate(e, f) & reach.result
        assert got == want, (kind, f, got.tuples(), want.tuples())


def test_graded_layers_stops_at_a_move_into_a_layer_already_seen():
    g = build_engine(arena({0: 1, 1: 2, 2: 1}, [(0, 1), (0, 2), (1, 2)]), "cudd")
    assert graded_layers(g, g.from_tuples([(0,)])) is None
    assert graded_layers(g, g.from_tuples([(1,)])).result.count() == 2


@pytest.mark.parametrize("name,params", [("tictactoe.game", {}),
                                         ("connect4.game", {"w": 3, "h": 3, "a": 3}),
                                         pytest.param("connect4.game", {"w": 4, "h": 3, "a": 3},
                                                      marks=pytest.mark.slow)])
def test_layer_outcomes_layered_plain_and_both_engines(name, params):
    model = load_model(MODELS / name, params)
    tables = {}
    for kind in ("explicit", "cudd", "oxidd"):
        eng = build_engine(model.game, kind)
        tables[kind] = layer_outcomes(model, eng)
        assert layer_outcomes(model, eng, layered=False) == tables[kind], kind
    assert tables["explicit"] == tables["cudd"] == tables["oxidd"], tables
    eng = build_engine(model.game, "cudd")
    reach = eng.reachable(initial_set(model, eng)).result.count()
    assert tables["cudd"].total == reach, (tables["cudd"].total, reach)


def test_tictactoe_by_layer_is_a_draw_from_the_empty_board(capsys):
    assert main(["values", "models/tictactoe.game", "--by-layer", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = doc["layers"]
    assert rows[0] == {"layer": 0, "win": 0, "draw": 1, "loss": 0}, rows[0]
    assert sum(r["win"] + r["draw"] + r["loss"] for r in rows) == 5478
    # the last layer: full boards (draws) and boards where the last mover won
    assert rows[9] == {"layer": 9, "win": 0, "draw": 16, "loss": 62}, rows[9]


def test_connect4_4x4_by_layer_sums_to_the_reachable_count(capsys):
    assert main(["values", "models/connect4.game", "-p", "w=4", "-p", "h=4", "--by-layer",
                 "--json", "--backend", "oxidd"]) == 0
    rows = json.loads(capsys.readouterr().out)["layers"]
    assert len(rows) == 17 and sum(r["win"] + r["draw"] + r["loss"] for r in rows) == 161029
    assert rows[0] == {"layer": 0, "win": 0, "draw": 1, "loss": 0}, rows[0]


def test_by_layer_refuses_a_game_that_is_not_graded(capsys):
    assert main(["values", "models/chocolate.game", "--by-layer"]) == 2
    assert "not graded" in capsys.readouterr().err


def test_layered_on_without_an_initial_set_is_an_error():
    model = load_model(MODELS / "nim.game")
    eng = build_engine(model.game, "cudd")
    with pytest.raises(QueryError, match="initial"):
        evaluate_queries(model, [("mover_wins", model.formula("mover_wins"))], eng, "on")


def test_check_says_when_a_query_was_layered(capsys):
    assert main(["check", "models/tictactoe.game", "--query", "empty and forces_win(1)",
                 "--query", "forces_win(1)", "--layered", "on"]) == 0
    out = capsys.readouterr().out
    # the anchored answer is the plain one: stdout as with --layered off (a terminal
    # sees the note on stderr); the restricted one says so on stdout
    assert "from empty" not in out, out
    assert "layered: over the 5478 positions reachable from initial (10 layers)" in out, out
