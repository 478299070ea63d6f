"""symbolic.analysis.grundy: nimbers by BDD layers and by the explicit mex, on every engine.

The layered computation runs on each engine kind (explicit sets, cudd, autoref);
the explicit mex is the independent reference; both are compared with the
Sprague–Grundy theorem (Nim's xor rule, sums) and with a recursive mex in
Python on random acyclic games.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.errors import QueryError
from symbolic.explicit import ExplicitGame
from symbolic.seeds.games import arena, subtraction
from symbolic.analysis.grundy import (
    check_impartial,
    first_difference,
    layered_nimbers,
    mex,
    mex_nimbers,
)
from symbolic.model import load_model, parse_model

from .conftest import MODELS, build_engine


def nimbers_on(game, kind):
    """{position: nimber} from the layered computation on engine ``kind``."""
    return layered_nimbers(build_engine(game, kind)).table()


def test_mex():
    assert (mex([]), mex([1]), mex([0, 2]), mex(range(5))) == (0, 0, 1, 5)


# --------------------------------------------------------------------------- Nim


@pytest.mark.parametrize("n, K", [(1, 9), (2, 7), (3, 7), (4, 3)])
def test_nim_nimber_is_the_xor_of_the_heaps_everywhere(engine_kind, n, K):
    if engine_kind == "autoref" and n * K > 12:
        pytest.skip("autoref: the smaller cases suffice")
    model = load_model(MODELS / "nim.game", {"n": n, "K": K})
    got = nimbers_on(model.game, engine_kind)
    assert len(got) == 2 * (K + 1) ** n
    wrong = {t: g for t, g in got.items() if g != xor(t[1:])}
    assert not wrong, (
        f"positions (j, heaps...) whose nimber is not the xor: {sorted(wrong.items())[:5]}"
    )


def test_nim_mex_reference_agrees():
    model = load_model(MODELS / "nim.game", {"n": 3, "K": 7})
    table = mex_nimbers(ExplicitGame(model.game))
    assert all(g == xor(t[1:]) for t, g in table.items())


def xor(xs) -> int:
    r = 0
    for x in xs:
        r ^= x
    return r


# --------------------------------------------------------------------------- random games


@st.composite
def acyclic_games(draw):
    """A random DAG over states 0..n-1 (edges go down), played by two alternating
    players: arena state 2s + (p - 1) is "state s, player p to move"."""
    n = draw(st.integers(1, 9))
    edges = [(s, t) for s in range(n) for t in range(s) if draw(st.booleans())]
    controller = {2 * s + q: q + 1 for s in range(n) for q in (0, 1)}
    doubled = [(2 * s + q, 2 * t + 1 - q) for s, t in edges for q in (0, 1)]
    return n, edges, arena(controller, doubled)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(acyclic_games())
def test_layered_and_mex_agree_with_a_recursive_mex_on_random_games(case):
    n, edges, game = case
    succ = {s: [t for a, t in edges if a == s] for s in range(n)}

    @lru_cache(maxsize=None)
    def g(s):
        return mex(g(t) for t in succ[s])

    expected = {(2 * s + q,): g(s) for s in range(n) for q in (0, 1)}
    assert mex_nimbers(ExplicitGame(game)) == expected
    for kind in ("explicit", "cudd", "autoref"):
        got = nimbers_on(game, kind)
        assert first_difference(got, expected) is None, (kind, got, expected)


# --------------------------------------------------------------------------- the API


def test_optimal_moves_lead_to_nimber_zero_and_exist_iff_nonzero(engine_kind):
    model = load_model(MODELS / "kayles.game", {"n": 6})
    N = layered_nimbers(build_engine(model.game, engine_kind))
    for t, g in N.table().items():
        moves = N.optimal_moves(t)
        assert bool(moves) == (g != 0), (t, g, moves.tuples())
        assert all(N.of(s) == 0 for s in moves), (t, moves.tuples())


@pytest.mark.parametrize(
    "name, params",
    [
        ("kayles.game", {"n": 7}),
        ("dawson.game", {"n": 8}),
        ("grundy_game.game", {"N": 10}),
        ("subtraction_set.game", {"K": 9}),
        ("hackendot.game", {}),
        ("chomp.game", {"R": 2, "C": 3}),
    ],
)
def test_nimber_zero_is_where_the_mover_loses(name, params):
    # the ATL answer (the model's own formula) against the nimbers, both engines
    model = load_model(MODELS / name, params)
    for kind in ("explicit", "cudd"):
        eng = build_engine(model.game, kind)
        N = layered_nimbers(eng)
        loses = atl.evaluate(eng, model.formula("not mover_wins"), model.definitions)
        assert N.with_value(0) == loses, (name, kind)


def test_counts_and_values_on_the_subtraction_game():
    N = layered_nimbers(build_engine(subtraction(9), "cudd"))
    assert [N.of((1, k)) for k in range(10)] == [k % 4 for k in range(10)]
    assert N.counts() == {0: 6, 1: 6, 2: 4, 3: 4}
    assert N.with_value(7).is_empty()


# --------------------------------------------------------------------------- refusals


def test_three_players_are_refused():
    model = load_model(MODELS / "ens2005.game", {"K": 3})
    with pytest.raises(QueryError, match="two-player"):
        layered_nimbers(build_engine(model.game, "cudd"))


def test_endless_play_is_refused_by_both_computations():
    game = arena({0: 1, 1: 2, 2: 1, 3: 2}, [(0, 1), (1, 2), (2, 3), (3, 0)])
    for kind in ("explicit", "cudd"):
        with pytest.raises(QueryError, match="forever"):
            layered_nimbers(build_engine(game, kind))
    with pytest.raises(QueryError, match="forever"):
        mex_nimbers(ExplicitGame(game), check=False)


def test_non_alternating_turns_are_refused():
    game = arena({0: 1, 1: 1, 2: 2}, [(0, 1), (1, 2)])
    with pytest.raises(QueryError, match="alternate"):
        check_impartial(build_engine(game, "cudd"))


# --------------------------------------------------------------------------- sums

SUM_MODEL = """
game "Kayles row + subtraction heap"
param n = 5, K = 8
players 1, 2
var j : 1..2
var b : array[1..n] of bool
var k : 0..K
turn j
move one(i in 1..n) when b[i] then not b'[i]; j' = 3 - j
move two(i in 1..n-1) when b[i] and b[i+1] then not b'[i]; not b'[i+1]; j' = 3 - j
move take(s in {1, 3, 4}) when k >= s then k' = k - s; j' = 3 - j
formula wins(p: player) = <<{p}>> <> (turn(players \\ {p}) and <<{p}>> X false)
query wins(1)
"""


def test_a_disjoint_sum_of_two_different_games_has_the_xor_of_their_nimbers(engine_kind):
    # the parts' nimbers come from the engine on the parts' own models
    whole = parse_model(SUM_MODEL)
    kayles = load_model(MODELS / "kayles.game", {"n": 5})
    heap = load_model(MODELS / "subtraction_set.game", {"n": 1, "K": 8, "S": "1,3,4"})
    if engine_kind == "autoref":
        pytest.skip("cudd and explicit suffice for a 1152-position sum")
    k_n = layered_nimbers(build_engine(kayles.game, engine_kind)).table()
    h_n = layered_nimbers(build_engine(heap.game, engine_kind)).table()
    got = layered_nimbers(build_engine(whole.game, engine_kind)).table()
    assert len(got) == 2 * 2**5 * 9
    wrong = [(t, g) for t, g in got.items() if g != k_n[(t[0],) + t[1:6]] ^ h_n[(t[0], t[6])]]
    assert not wrong, wrong[:3]
