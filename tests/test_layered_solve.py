"""symbolic.analysis.layered_solve: values, nimbers and strategies layer by layer.

The layered answers are the plain ones intersected with the positions R reachable from
the source: on every shipped graded model (tic-tac-toe, Dawson's Kayles, Connect Four
3 × 3) on both engines, through the commands (``--layered on`` against ``off``), and on
random graded games (a step counter every move increments, :func:`graded_games`) with
random ATL formulas, on the explicit engine and the symbolic one on every backend.
``make fuzz`` runs ``SYMBOLIC_FUZZ_EXAMPLES`` random cases and prints the count.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.analysis.grundy import layered_nimbers
from symbolic.analysis.layered import LayeredEvaluator, initial_set, layer_outcomes
from symbolic.analysis.layered_solve import (
    graded_reach,
    layered_nimbers_graded,
    layered_strategy,
    layered_values,
)
from symbolic.analysis.strategy import strategy_for, verify
from symbolic.analysis.values import two_player_values
from symbolic.api import DeadEnds, attractor, graded_layers, until_approximations, until_layered
from symbolic.errors import QueryError, SymbolicError
from symbolic.model import load_model

from .conftest import MODELS, build_engine, run
from .strategies import formulas, graded_concurrent_games, graded_games

GRADED = [("tictactoe.game", {}), ("dawson.game", {}), ("connect4.game", {"w": 3, "h": 3, "a": 3})]
COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck))


def same_values(got, want, R):
    """The layered Values ``got`` equal the plain ``want`` on R, value by value."""
    for v in set(got.by_value) | set(want.by_value):
        a, b = got.positions_of(v), want.positions_of(v) & R
        assert a == b, (v, a.tuples()[:5], b.tuples()[:5])
    assert got.draws == want.draws & R, (got.draws.tuples()[:5], (want.draws & R).tuples()[:5])


def same_layers(got, want, R):
    """until_approximations' = the plain ones ∩ R, index by index."""
    last = len(got.layers) - 1
    for n, w in enumerate(want.layers):
        assert got.layers[min(n, last)] == w & R, (n, got.layers[min(n, last)].tuples()[:5])
    assert len(got.layers) <= len(want.layers), (len(got.layers), len(want.layers))


def same_strategy(engine, got, want, R):
    """The same region and moves on R, and the layered table verifies on it."""
    assert got.region == want.region & R, (got.region.tuples()[:5],)
    assert got.table(R) == want.table(R)
    v = verify(engine, got.objective, got.table(R), got.region)
    assert v.ok, (v.reason, v.position)


# --------------------------------------------------------------------------- shipped models


@pytest.mark.parametrize("name,params", GRADED, ids=[n for n, _ in GRADED])
@pytest.mark.parametrize("kind", ["explicit", "cudd"])
def test_layered_values_and_ranks_are_the_plain_ones_on_the_reachable_positions(name, params, kind):
    model = load_model(MODELS / name, params)
    e = build_engine(model.game, kind)
    reach = graded_reach(e, initial_set(e, model.definitions), "on")
    R = reach.result
    same_values(layered_values(e, reach), two_player_values(e), R)
    for p in model.game.players:
        goal = e.deadlocks() - e.turn_set({p})
        same_layers(
            until_approximations(e, {p}, e.positions(), goal, reach, dead_ends=DeadEnds.STRICT),
            attractor(e, {p}, goal, keep_layers=True),
            R,
        )


@pytest.mark.parametrize(
    "name,params,query",
    [
        ("tictactoe.game", {}, "forces_win(1)"),
        ("tictactoe.game", {}, "<<2>> [] not win(1)"),
        ("dawson.game", {}, "wins(1)"),
        ("dawson.game", {}, "<<2>> [] not turn({1})"),
        ("connect4.game", {"w": 3, "h": 3, "a": 3}, "forces_win(1)"),
    ],
)
@pytest.mark.parametrize("kind", ["explicit", "cudd"])
def test_layered_strategies_are_the_plain_ones_on_the_reachable_positions(
    name, params, query, kind
):
    model = load_model(MODELS / name, params)
    e = build_engine(model.game, kind)
    reach = graded_reach(e, initial_set(e, model.definitions), "on")
    f = model.formula(query)
    same_strategy(
        e,
        layered_strategy(e, f, reach, model.definitions),
        strategy_for(e, f, model.definitions),
        reach.result,
    )


@pytest.mark.parametrize("kind", ["explicit", "cudd", "oxidd"])
def test_layered_nimbers_of_dawsons_kayles(kind):
    model = load_model(MODELS / "dawson.game")
    e = build_engine(model.game, kind)
    reach = graded_reach(e, initial_set(e, model.definitions), "auto")
    got, want = layered_nimbers_graded(e, reach), layered_nimbers(e)
    assert got.counts() == {g: (s & reach.result).count() for g, s in enumerate(want.layers)}
    for g, s in enumerate(want.layers):
        assert got.with_value(g) == s & reach.result, g


def test_graded_reach_modes():
    model = load_model(MODELS / "nim.game")
    e = build_engine(model.game, "cudd")
    assert graded_reach(e, initial_set(e, model.definitions), "off") is None
    assert graded_reach(e, initial_set(e, model.definitions), "auto") is None
    with pytest.raises(QueryError, match="not graded"):
        graded_reach(e, initial_set(e, model.definitions), "on")
    with pytest.raises(QueryError, match="^mode must be one of auto, on, off"):
        graded_reach(e, initial_set(e, model.definitions), "sometimes")


# --------------------------------------------------------------------------- the commands


@pytest.mark.parametrize("engine", ["symbolic", "explicit"])
@pytest.mark.parametrize("name,params", GRADED, ids=[n for n, _ in GRADED])
def test_values_layered_on_against_off(capsys, engine, name, params):
    ps = [a for k, v in params.items() for a in ("-p", f"{k}={v}")]
    st_on, on, _ = run(
        capsys,
        "values",
        str(MODELS / name),
        *ps,
        "--engine",
        engine,
        "--json",
        "--layered",
        "on",
        "--limit",
        "0",
    )
    st_off, off, _ = run(
        capsys,
        "values",
        str(MODELS / name),
        *ps,
        "--engine",
        engine,
        "--json",
        "--layered",
        "off",
        "--limit",
        "0",
    )
    assert st_on == st_off == 0
    on, off = json.loads(on), json.loads(off)
    assert on["initial"] == off["initial"]  # the values from the initial positions
    assert on["positions"] == on["layered"]["positions"] <= off["positions"]
    assert "layered" not in off
    for v, n in on["counts"].items():
        assert n <= off["counts"][v], (v, n, off["counts"][v])


def test_values_both_engines_agree_layered_and_by_layer_off(capsys):
    status, out, _ = run(capsys, "values", "tictactoe", "--engine", "both")
    assert status == 0 and "layered: over the 5478 positions" in out
    assert "agree on every position reachable from initial" in out
    a = run(capsys, "values", "tictactoe", "--by-layer", "--json", "--layered", "off")
    b = run(capsys, "values", "tictactoe", "--by-layer", "--json", "--layered", "on")
    assert a == b and a[0] == 0


def test_values_at_a_position_layered_from_it(capsys):
    at = "j=1, b[1]=1, b[2]=1, b[3]=0, b[4]=1, b[5]=1, b[6]=1, b[7]=0, b[8]=1, b[9]=1, b[10]=1"
    on = run(capsys, "values", "dawson", "--at", at, "--layered", "on", "--engine", "both")
    off = run(capsys, "values", "dawson", "--at", at, "--layered", "off", "--engine", "both")
    assert on == off and on[0] == 0, (on, off)


@pytest.mark.parametrize(
    "command", [["values"], ["nimbers"], ["strategy", "--query", "wins(1)", "--from", "initial"]]
)
def test_layered_on_a_game_that_is_not_graded_is_an_error(capsys, command):
    status, out, err = run(capsys, command[0], "kayles", *command[1:], "--layered", "on")
    assert status == 2 and out == "" and "not graded" in err, (status, err)


def test_nimbers_layered_on_against_off(capsys):
    on = json.loads(
        run(capsys, "nimbers", "dawson", "--json", "--engine", "both", "--layered", "on")[1]
    )
    off = json.loads(
        run(capsys, "nimbers", "dawson", "--json", "--engine", "both", "--layered", "off")[1]
    )
    assert "mismatch" not in on and "mismatch" not in off
    assert on["layered"] == {"from": "initial", "positions": 89, "layers": 6}
    assert sum(on["counts"].values()) == 89 and sum(off["counts"].values()) == 2048


@pytest.mark.parametrize("query,won", [("wins(1)", True), ("<<2>> [] not turn({1})", False)])
def test_strategy_layered_on_against_off(capsys, query, won):
    docs = {}
    for mode in ("on", "off"):
        status, out, _ = run(
            capsys,
            "strategy",
            "dawson",
            "--query",
            query,
            "--from",
            "initial",
            "--json",
            "--verify",
            "--layered",
            mode,
        )
        docs[mode] = json.loads(out)
        # a start that is not won is not verified (exit 1), layered or not
        assert status == (0 if won else 1), (mode, status)
    on, off = docs["on"], docs["off"]
    assert on["verified"]["ok"] == off["verified"]["ok"] == won, (on["verified"], off["verified"])
    for key in ("moves", "positions", "start_won"):
        assert on[key] == off[key], key
    assert on["layered"]["positions"] == 89 and "layered" not in off


# --------------------------------------------------------------------------- random graded games


def check_graded(data, kinds):
    """Every layered answer = the plain one ∩ R, on each engine of ``kinds``, and the
    engines agree with the explicit one (the first kind)."""
    game, start = data.draw(graded_games())
    f = data.draw(formulas(game, 3))
    J = data.draw(st.sets(st.sampled_from(game.players)))
    conv = data.draw(st.sampled_from(list(DeadEnds)))
    stay_e, target_e = data.draw(formulas(game, 0)), data.draw(formulas(game, 0))
    reference = None
    for kind in kinds:
        e = build_engine(game, kind)
        reach = graded_layers(e, e.from_expr(start))
        assert reach is not None and reach.graded
        R = reach.result
        got = [LayeredEvaluator(e, reach, dead_ends=conv)(f)]
        want = atl.evaluate(e, f, dead_ends=conv) & R
        assert got[0] == want, (kind, conv, f, got[0].tuples()[:5], want.tuples()[:5])
        stay, target = atl.evaluate(e, stay_e), atl.evaluate(e, target_e)
        layered = until_approximations(e, J, stay, target, reach, dead_ends=conv)
        same_layers(layered, e.until(J, stay, target, dead_ends=conv, keep_layers=True), R)
        got.append(layered.result)
        until = atl.Until(atl.CoalitionLit(tuple(sorted(J))), stay_e, target_e)
        release = atl.Release(until.coalition, until.left, until.right)
        for g in (until, release):
            same_strategy(
                e,
                layered_strategy(e, g, reach, dead_ends=conv),
                strategy_for(e, g, dead_ends=conv),
                R,
            )
        if len(game.players) == 2:
            same_values(layered_values(e, reach), two_player_values(e), R)
            rows = layer_outcomes({}, e, reach).rows  # no definition read: reach given
            assert rows == layer_outcomes({}, e, reach, layered=False).rows, kind
            got.append(rows)
        got = [sorted(x.tuples()) if hasattr(x, "tuples") else x for x in got]
        if reference is None:
            reference = got
        assert got == reference, (kind, f)


@settings(max_examples=50, **COMMON)
@given(st.data())
def test_random_graded_games_layered_is_plain_within_the_reachable_set(data):
    check_graded(data, ("explicit", "cudd", "autoref"))


@settings(max_examples=15, **COMMON)
@given(st.data())
def test_random_graded_games_on_oxidd(data):
    check_graded(data, ("explicit", "oxidd"))


@pytest.mark.fuzz
def test_fuzz_random_graded_games():
    """Long run on every backend: prints the number of generated cases checked."""
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000"))
    count = 0

    @settings(max_examples=n, database=None, **COMMON)
    @given(st.data())
    def run_one(data):
        nonlocal count
        check_graded(data, ("explicit", "cudd", "autoref", "oxidd"))
        count += 1

    run_one()
    print(
        f"\nfuzz: {count} random graded games, layered == plain ∩ reachable on explicit, "
        f"cudd, autoref and oxidd"
    )
    assert count >= min(n, 1)


# --------------------------------------------------------------------------- random concurrent games


def check_graded_concurrent(data, kinds) -> bool:
    """On a random graded concurrent game (:func:`graded_concurrent_games`: dead ends,
    contradictory updates, a last layer without successors) with a random formula,
    coalition and dead-end convention: ``LayeredEvaluator`` = the plain evaluator ∩ R,
    the anchored answer S ∩ layered(φ) = the plain [[S ∧ φ]], ``until_approximations`` (every
    approximation) and ``until_layered`` = the plain until ∩ R, on each engine of
    ``kinds``, all equal to the first (explicit) engine's. False when the random game
    is refused (a type error of its expressions: every engine refuses it)."""
    game, start = data.draw(graded_concurrent_games())
    f = data.draw(formulas(game, 3, turns=False))
    J = data.draw(st.sets(st.sampled_from(game.players)))
    conv = data.draw(st.sampled_from(list(DeadEnds)))
    stay_e, target_e = (data.draw(formulas(game, 1, turns=False)) for _ in range(2))
    reference = None
    for kind in kinds:
        try:
            e = build_engine(game, kind)
            e.positions()
        except SymbolicError:
            assert kind == kinds[0], kind  # the reference refused it first
            return False
        S = e.from_expr(start)
        reach = graded_layers(e, S)
        assert reach is not None and reach.graded
        R = reach.result
        got = LayeredEvaluator(e, reach, dead_ends=conv)(f)
        want = atl.evaluate(e, f, dead_ends=conv)
        assert got == want & R, (
            kind,
            conv,
            f,
            (got - want).tuples()[:5],
            ((want & R) - got).tuples()[:5],
        )
        anchored = atl.evaluate(e, atl.BoolOp("and", atl.Prop(start), f), dead_ends=conv)
        assert S & got == anchored, (kind, conv, f)
        stay, target = (atl.evaluate(e, g, dead_ends=conv) for g in (stay_e, target_e))
        layered = until_approximations(e, J, stay, target, reach, dead_ends=conv)
        same_layers(layered, e.until(J, stay, target, dead_ends=conv, keep_layers=True), R)
        assert until_layered(e, J, stay, target, reach, dead_ends=conv).result == layered.result
        sets = [sorted(x.tuples()) for x in (got, anchored, layered.result)]
        if reference is None:
            reference = sets
        assert sets == reference, (kind, conv, f)
    return True


@settings(max_examples=65, **COMMON)
@given(st.data())
def test_random_graded_concurrent_games_layered_is_plain_within_the_reachable_set(data):
    check_graded_concurrent(data, ("explicit", "cudd", "autoref"))


@settings(max_examples=20, **COMMON)
@given(st.data())
def test_random_graded_concurrent_games_on_oxidd(data):
    check_graded_concurrent(data, ("explicit", "oxidd"))


@pytest.mark.fuzz
def test_fuzz_random_graded_concurrent_games():
    """Long run on every backend: prints the number of generated cases checked."""
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000"))
    count = refused = 0

    @settings(max_examples=n, database=None, **COMMON)
    @given(st.data())
    def run_one(data):
        nonlocal count, refused
        if check_graded_concurrent(data, ("explicit", "cudd", "autoref", "oxidd")):
            count += 1
        else:
            refused += 1

    run_one()
    print(
        f"\nfuzz: {count} random graded concurrent games ({refused} more refused by "
        f"every engine), layered == plain ∩ reachable on explicit, cudd, autoref and oxidd"
    )
    assert count >= min(n, 1) // 2, (count, refused)
