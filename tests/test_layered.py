"""symbolic.analysis.layered: layered answers against the plain fixpoints.

Every shipped model's queries (``check --layered auto`` gives the plain answers,
``on`` gives them within the reachable positions), random ATL formulas on random
graded arenas (LayeredEvaluator = plain ∩ R), and the ply-by-ply table
(``values --by-layer``) layered against plain, symbolic against explicit. Concurrent
games (issue 32): the reproducer g32_21 and matching pennies over three rounds, layered
= plain = explicit on every backend, the simultaneous GDL games, and ``check --engine
both`` catching a wrong layered answer (the random graded concurrent games are in
tests/test_layered_solve.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.analysis import layered
from symbolic.analysis.layered import (
    LAYERED_MODES,
    LayeredEvaluator,
    anchor_of,
    evaluate_queries,
    graded_layers,
    initial_set,
    layer_outcomes,
)
from symbolic.api import DeadEnds, reachable, until_layered
from symbolic.cli import main
from symbolic.errors import QueryError
from symbolic.model import load_model, parse_model
from symbolic.seeds.games import arena

from .conftest import MODELS, build_engine
from .strategies import formulas, graded_arenas

# every shipped model at its default parameters, Connect Four on a 3 × 3 board
SHIPPED = [
    (p.name, {"w": 3, "h": 3, "a": 3} if p.name.startswith("connect4") else {})
    for p in sorted(MODELS.glob("*.game"))
]


# oxidd managers allocate an 80 MB apply cache each: the per-model and random tests use
# CUDD and the explicit engine, oxidd is checked on the two graded models below
@pytest.mark.parametrize("name,params", SHIPPED, ids=[n for n, _ in SHIPPED])
@pytest.mark.parametrize("kind", ["cudd"])
def test_auto_gives_the_plain_answers_on_every_shipped_model(name, params, kind):
    model = load_model(MODELS / name, params)
    eng = build_engine(model.game, kind)
    queries = [(q.text, q.formula) for q in model.queries]
    plain = evaluate_queries(model.definitions, queries, eng, "off")
    auto = evaluate_queries(model.definitions, queries, eng, "auto")
    for (text, _), p, a in zip(queries, plain, auto):
        assert p.how is None
        assert a.positions == p.positions, (text, a.positions.count(), p.positions.count())


@pytest.mark.parametrize("kind", ["explicit", "cudd", "oxidd"])
def test_layered_queries_on_tictactoe_and_connect4(kind):
    for name, params in (("tictactoe.game", {}), ("connect4.game", {"w": 3, "h": 3, "a": 3})):
        model = load_model(MODELS / name, params)
        eng = build_engine(model.game, kind)
        queries = [(q.text, q.formula) for q in model.queries]
        plain = evaluate_queries(model.definitions, queries, eng, "off")
        auto = evaluate_queries(model.definitions, queries, eng, "auto")
        on = evaluate_queries(model.definitions, queries, eng, "on")
        reach = graded_layers(eng, initial_set(eng, model.definitions))
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
@given(
    graded_arenas().flatmap(
        lambda case: formulas(arena(case[0], case[1]), 3).map(lambda f: (case, f))
    )
)
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


@pytest.mark.parametrize(
    "name,params",
    [
        ("tictactoe.game", {}),
        ("connect4.game", {"w": 3, "h": 3, "a": 3}),
        pytest.param("connect4.game", {"w": 4, "h": 3, "a": 3}, marks=pytest.mark.slow),
    ],
)
def test_layer_outcomes_layered_plain_and_both_engines(name, params):
    model = load_model(MODELS / name, params)
    tables = {}
    for kind in ("explicit", "cudd", "oxidd"):
        eng = build_engine(model.game, kind)
        tables[kind] = layer_outcomes(model.definitions, eng)
        assert layer_outcomes(model.definitions, eng, layered=False) == tables[kind], kind
    assert tables["explicit"] == tables["cudd"] == tables["oxidd"], tables
    eng = build_engine(model.game, "cudd")
    reach = reachable(eng, initial_set(eng, model.definitions)).result.count()
    assert tables["cudd"].total == reach, (tables["cudd"].total, reach)


COMPACT_LEVEL = "set level(k) = count(occupied(i) for i in CELLS) = k"


def test_a_declared_level_gives_the_table_without_it_and_is_used(monkeypatch):
    # connect4-compact declares level(k) (the boards of k discs): the table with it is the
    # table without it (the definition removed) on every engine, and the steps read it
    text = (MODELS / "connect4-compact.game").read_text(encoding="utf-8")
    assert COMPACT_LEVEL in text
    params = {"w": 3, "h": 3, "a": 3}
    declared = parse_model(text, params=params)
    plain = parse_model(text.replace(COMPACT_LEVEL, ""), params=params)
    seen = []
    real = layered.declared_levels

    def spy(engine, definitions, reach):
        seen.append(real(engine, definitions, reach))
        return seen[-1]

    monkeypatch.setattr(layered, "declared_levels", spy)
    for kind in ("explicit", "cudd", "oxidd"):
        want = layer_outcomes(plain.definitions, build_engine(plain.game, kind))
        got = layer_outcomes(declared.definitions, build_engine(declared.game, kind))
        assert got == want, (kind, got, want)
        assert seen[-2] is None and len(seen[-1].layers) == 10, seen


def test_a_declared_level_that_misses_a_layer_is_refused(tmp_path, capsys):
    text = (MODELS / "connect4-compact.game").read_text(encoding="utf-8")
    path = tmp_path / "c4.game"
    wrong = "set level(k) = count(occupied(i) for i in CELLS) = k and k < 5"
    path.write_text(text.replace(COMPACT_LEVEL, wrong), encoding="utf-8")
    assert main(["values", str(path), "-p", "w=4", "-p", "h=3", "--by-layer"]) == 2
    err = capsys.readouterr().err
    assert "level(5) does not hold the positions of layer 5" in err, err
    assert f"{path}:" in err and "Traceback" not in err, err


def test_a_declared_level_needs_one_int_parameter(tmp_path, capsys):
    text = (MODELS / "connect4-compact.game").read_text(encoding="utf-8")
    path = tmp_path / "c4.game"
    path.write_text(text.replace(COMPACT_LEVEL, "set level = empty"), encoding="utf-8")
    assert main(["values", str(path), "-p", "w=3", "-p", "h=2", "--by-layer"]) == 2
    err = capsys.readouterr().err
    assert "'level' must have one int parameter" in err and f"{path}:" in err, err


def test_tictactoe_by_layer_is_a_draw_from_the_empty_board(capsys):
    assert main(["values", "models/tictactoe.game", "--by-layer", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = doc["layers"]
    assert rows[0] == {"layer": 0, "win": 0, "draw": 1, "loss": 0}, rows[0]
    assert sum(r["win"] + r["draw"] + r["loss"] for r in rows) == 5478
    # the last layer: full boards (draws) and boards where the last mover won
    assert rows[9] == {"layer": 9, "win": 0, "draw": 16, "loss": 62}, rows[9]


def test_connect4_4x4_by_layer_sums_to_the_reachable_count(capsys):
    assert (
        main(
            [
                "values",
                "models/connect4.game",
                "-p",
                "w=4",
                "-p",
                "h=4",
                "--by-layer",
                "--json",
                "--backend",
                "oxidd",
            ]
        )
        == 0
    )
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
        evaluate_queries(
            model.definitions, [("mover_wins", model.formula("mover_wins"))], eng, "on"
        )


def test_check_says_when_a_query_was_layered(capsys):
    assert (
        main(
            [
                "check",
                "models/tictactoe.game",
                "--query",
                "empty and forces_win(1)",
                "--query",
                "forces_win(1)",
                "--layered",
                "on",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    # the anchored answer is the plain one: stdout as with --layered off (a terminal
    # sees the note on stderr); the restricted one says so on stdout
    assert "from empty" not in out, out
    assert "layered: over the 5478 positions reachable from initial (10 layers)" in out, out


# --------------------------------------------------------------------------- concurrent games (issue 32)

# the reproducer of issue 32: every joint action's updates contradict each other
# (x0' = x0 + 1 and x0' = x0), so no position has a successor, though every player
# has an action everywhere
G32_21 = """game "g32_21"
players 1, 2, 3
var n : 0..3
var x0 : 0..3
concurrent
action 1 a0
action {1, 2, 3} a1(t in {1, 3}) when ((x0 <= 3) or (x0 <= 3))
action 3 a2(t in {0, 1})
update then (x0' == (x0 + 1))
update then (x0' == (1 * x0))
update then (n' == (n + 1))
query (((n == 0) and (x0 == 1)) and (<<3>> [] (x0 != 0)))
"""

# matching pennies over three rounds: s counts the rounds whose pennies differed
PENNIES_ROUNDS = """game "pennies_rounds"
players 1, 2
var r : 0..3
var s : 0..3
concurrent
action players show(c in 0..1) when r < 3
update when r < 3 then r' = r + 1; s' = (if does(1, show(0)) iff does(2, show(0)) then s else s + 1)
set over = r == 3
set initial = r == 0 and s == 0
"""
# nobody alone keeps the pennies matching (or forces them apart), the two together can
PENNIES_ANSWERS = {
    "initial and <<1>> over R s == 0": False,
    "initial and <<2>> over R s == 0": False,
    "initial and <<1, 2>> over R s == 0": True,
    "initial and <<1>> [] s == 0": False,
    "initial and <<2>> <> s == 3": False,
    "initial and <<1, 2>> <> s == 3": True,
    "initial and <<1>> <> over": True,
}
ALL_KINDS = ["explicit", "cudd", "autoref", "oxidd"]


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_issue32_reproducer_is_empty_layered_and_plain(kind):
    model = parse_model(G32_21, "g32_21.game")
    eng = build_engine(model.game, kind)
    # the referee: no successor anywhere and nobody blocked, so pre({3}, Z) is empty
    # under either convention, and so is every <<3>> [] f
    assert eng.post(eng.positions()).is_empty()
    for conv in DeadEnds:
        assert eng.pre({3}, eng.positions(), dead_ends=conv).is_empty(), conv
    queries = [(q.text, q.formula) for q in model.queries]
    for mode in LAYERED_MODES:
        a = evaluate_queries(model.definitions, queries, eng, mode)[0]
        assert a.positions.tuples() == [], (mode, a.positions.tuples(), a.how)
        assert (a.how is None) == (mode == "off"), (mode, a.how)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_pennies_over_three_rounds_layered_plain_and_explicit(kind):
    model = parse_model(PENNIES_ROUNDS, "pennies_rounds.game")
    eng, ref = build_engine(model.game, kind), build_engine(model.game, "explicit")
    queries = [(t, model.formula(t)) for t in PENNIES_ANSWERS]
    plain = evaluate_queries(model.definitions, queries, ref, "off")
    reach = graded_layers(eng, initial_set(eng, model.definitions))
    assert reach is not None and len(reach.layers) == 4, reach
    for mode in LAYERED_MODES:
        for (text, _), a, p in zip(
            queries, evaluate_queries(model.definitions, queries, eng, mode), plain
        ):
            want = [(0, 0)] if PENNIES_ANSWERS[text] else []
            assert a.positions.tuples() == p.positions.tuples() == want, (
                mode,
                text,
                a.positions.tuples(),
                p.positions.tuples(),
                want,
            )
            assert (a.how is None) == (mode == "off"), (mode, text, a.how)
    # without the anchor, --layered on answers within the positions reachable from initial
    for text in PENNIES_ANSWERS:
        phi = model.formula(text.removeprefix("initial and "))
        got = LayeredEvaluator(eng, reach, model.definitions)(phi)
        want = atl.evaluate(eng, phi, model.definitions) & reach.result
        assert got == want, (text, got.tuples(), want.tuples())


def test_check_engine_both_catches_a_wrong_layered_answer(tmp_path, monkeypatch, capsys):
    path = tmp_path / "pennies_rounds.game"
    path.write_text(PENNIES_ROUNDS)
    argv = ["check", str(path), "--engine", "both", "--query", "initial and <<1>> over R s == 0"]
    assert main(argv) == 0
    assert "agree on all 1 queries" in capsys.readouterr().out

    def dual(self, f, env):  # issue 32's release rule: the dual, wrong on concurrent games
        others = frozenset(self.engine.game.players) - self._J(f.coalition, env)
        left, right = self.eval(f.left, env), self.eval(f.right, env)
        return (
            self.within
            - until_layered(
                self.engine,
                others,
                self.within - left,
                self.within - right,
                self.reach,
                dead_ends=self.dead_ends,
            ).result
        )

    monkeypatch.setitem(layered._LAYERED, atl.Release, dual)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert (
        "MISMATCH on initial and <<1>> over R s == 0: position r=0, s=0 is only in the "
        "symbolic result" in err
    ), err


GDL = Path(__file__).resolve().parent / "gdl"
SIMULTANEOUS = ["pennies.kif", "rps_static.kif", "sim_dead_end.kif", "simultaneous.kif"]


def _gdl_release_formulas(model):
    """⟨⟨J⟩⟩ f R g for every coalition J and f, g among true, false, terminal and its
    negation (terminal: where every role is blocked, a dead end of both conventions)."""
    sides = [
        atl.Truth(True),
        atl.Truth(False),
        model.formula("terminal"),
        model.formula("not terminal"),
    ]
    players = model.game.players
    coalitions = [(), (players[0],), (players[1],), tuple(players)]
    return [
        atl.Release(atl.CoalitionLit(J), f, g) for J in coalitions for f in sides for g in sides
    ]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_layered_is_plain_on_the_simultaneous_gdl_games(data):
    model = load_model(GDL / data.draw(st.sampled_from(SIMULTANEOUS)))
    conv = data.draw(st.sampled_from(list(DeadEnds)))
    fs = _gdl_release_formulas(model) + [data.draw(formulas(model.game, 3, turns=False))]
    for kind in ("explicit", "cudd"):
        e = build_engine(model.game, kind)
        reach = graded_layers(e, initial_set(e, model.definitions))
        assert reach is not None, model.source
        ev = LayeredEvaluator(e, reach, model.definitions, dead_ends=conv)
        for f in fs:
            want = atl.evaluate(e, f, model.definitions, dead_ends=conv) & reach.result
            got = ev(f)
            assert got == want, (model.source, kind, conv, f, got.tuples(), want.tuples())
