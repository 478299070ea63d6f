"""symbolic.analysis.values: ranks and two-player values from layered fixpoints, on both
engines, against the explicit references of symbolic.explicit.values (a
retrograde sweep and the text's recurrence, memoized) on the shipped two-player
models and on random games."""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, assume, given, settings

from symbolic import ir
from symbolic.errors import QueryError
from symbolic.explicit.values import recurrence_values, retrograde_values
from symbolic.seeds.games import arena, subtraction
from symbolic.model import load_model
from symbolic.analysis.values import ranks, recurrence_value, two_player_values

from .conftest import MODELS, build_engine
from .strategies import games


def table(values) -> dict:
    """{position: value or None} from a Values object's sets."""
    out = {}
    for v, ps in values.by_value.items():
        for p in ps.tuples():
            assert p not in out, (p, out[p], v)  # the value sets are disjoint
            out[p] = v
    for p in values.draws.tuples():
        assert p not in out, (p, out[p], "draw")
        out[p] = None
    return out


def first_difference(a: dict, b: dict):
    assert a.keys() == b.keys(), sorted(set(a) ^ set(b))[:5]
    return next(((p, a[p], b[p]) for p in sorted(a) if a[p] != b[p]), None)


# --------------------------------------------------------------------------- the recurrence


def test_recurrence_reproduces_the_texts_two_examples():
    assert recurrence_value([2, 6, 11]) == -12
    assert recurrence_value([-11, 3, -8, 17]) == 9
    assert recurrence_value([]) == 0  # the lone square of death: lost
    assert recurrence_value([0]) == 1  # hand over the lone square
    assert recurrence_value([1, 1]) == -2


# --------------------------------------------------------------------------- shipped models

TWO_PLAYER = [
    ("chocolate.game", {}),
    ("chocolate.game", {"m": 4, "n": 3, "i": 1, "j": 2}),
    ("subtraction.game", {}),
    ("nim.game", {"n": 2, "K": 4}),
    ("chomp.game", {"R": 2, "C": 3}),
    ("hackendot.game", {"word": "(())(()())"}),
    ("tictactoe.game", {}),
]


@pytest.mark.parametrize("name,params", TWO_PLAYER, ids=[f"{n}{p or ''}" for n, p in TWO_PLAYER])
@pytest.mark.parametrize("kind", ["explicit", "cudd", "autoref"])
def test_values_agree_with_the_explicit_references(name, params, kind):
    model = load_model(MODELS / name, params)
    if kind == "autoref" and name == "tictactoe.game":
        pytest.skip("autoref is slow on tic-tac-toe; cudd covers it")
    ref_engine = build_engine(model.game, "explicit")
    reference = retrograde_values(ref_engine)
    V = two_player_values(build_engine(model.game, kind))
    got = table(V)
    assert first_difference(reference, got) is None, first_difference(reference, got)
    # these games alternate and end: under normal play the text's recurrence gives the
    # same table (tic-tac-toe declares win(p) sets: the recurrence refuses it)
    if isinstance(model.game.outcome, ir.NormalPlay):
        assert first_difference(reference, recurrence_values(ref_engine)) is None
    else:
        with pytest.raises(QueryError, match="normal play"):
            recurrence_values(ref_engine)
    for pos in list(reference)[:: max(1, len(reference) // 20)]:
        assert V.value(pos) == reference[pos], (pos, V.value(pos), reference[pos])


def test_chocolate_values_match_the_nim_rule_and_the_first_page_example():
    model = load_model(MODELS / "chocolate.game")  # 10 × 7, square at (7, 3)
    V = two_player_values(build_engine(model.game, "cudd"))
    for v, ps in V.by_value.items():
        for _, l, r, u, d in ps.tuples():
            assert (v > 0) == (l ^ r ^ u ^ d != 0), (v, l, r, u, d)
    assert V.draws.is_empty()
    assert V.value((1, 7, 2, 3, 3)) == V.value((2, 7, 2, 3, 3)) == 11
    assert V.value((1, 0, 0, 0, 0)) == 0


def test_subtraction_values_by_hand():
    V = two_player_values(build_engine(subtraction(9), "cudd"))
    # k ≡ 0 mod 4 loses; the loser holds out k/4 rounds of two moves
    assert [V.value((1, k)) for k in range(10)] == [0, 1, 1, 1, -2, 3, 3, 3, -4, 5]
    assert V.counts() == {-4: 2, -2: 2, 0: 2, 1: 6, 3: 6, 5: 2}


# --------------------------------------------------------------------------- cycles, ranks


@pytest.mark.parametrize("kind", ["explicit", "cudd", "autoref"])
def test_cycles_give_draws(kind):
    # 0 (player 1) can go to the dead end 1 (player 2 stuck: 1 wins) or to 2;
    # 2 (player 2) and 3 (player 1) can circle forever; 3 may also go to 4,
    # where player 2 wins at once (5: player 1 stuck) — player 1 avoids it.
    g = arena(
        {0: 1, 1: 2, 2: 2, 3: 1, 4: 2, 5: 1}, [(0, 1), (0, 2), (2, 3), (3, 2), (3, 4), (4, 5)]
    )
    V = two_player_values(build_engine(g, kind))
    assert [V.value((s,)) for s in range(6)] == [1, 0, None, None, 1, 0]
    assert V.draws.tuples() == [(2,), (3,)]
    reference = retrograde_values(build_engine(g, "explicit"))
    assert first_difference(reference, table(V)) is None
    with pytest.raises(QueryError, match="without cycles"):
        recurrence_values(build_engine(g, "explicit"))


def test_a_player_moving_twice_counts_every_move():
    # 0 (1) -> 1 (1) -> 2 (2, stuck): player 1 wins in two moves of its own
    g = arena({0: 1, 1: 1, 2: 2}, [(0, 1), (1, 2)])
    V = two_player_values(build_engine(g, "cudd"))
    assert [V.value((s,)) for s in range(3)] == [2, 1, 0]
    with pytest.raises(QueryError, match="alternating"):
        recurrence_values(build_engine(g, "explicit"))


@pytest.mark.parametrize("kind", ["explicit", "cudd"])
def test_ranks_are_the_minimax_distance_to_the_goal(kind):
    G = build_engine(subtraction(11), kind)
    goal = G.deadlocks() & G.turn_set({2})
    R = ranks(G, {1}, goal)
    union = G.empty()
    for k, layer in enumerate(R.layers):
        assert not (layer & union), k  # layers are disjoint
        union = union | layer
    assert union == R.attractor
    for pos in R.attractor.tuples():
        succ = [R.rank(s) for s in G.successors(pos).tuples()]
        if pos in goal:
            assert R.rank(pos) == 0
        elif pos[0] == 1:
            assert R.rank(pos) == 1 + min(k for k in succ if k is not None), pos
        else:
            assert None not in succ and R.rank(pos) == 1 + max(succ), pos
    assert R.rank((1, 4)) is None and R.rank((2, 4)) == 2 and R.max_rank == 5


def test_values_need_two_players():
    model = load_model(MODELS / "ens2005.game")
    with pytest.raises(QueryError, match="two-player games.*3 player"):
        two_player_values(build_engine(model.game, "cudd"))
    with pytest.raises(QueryError, match="two-player"):
        retrograde_values(build_engine(model.game, "explicit"))


# --------------------------------------------------------------------------- random games


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(games())
def test_random_two_player_games(game):
    assume(len(game.players) == 2)
    ref_engine = build_engine(game, "explicit")
    reference = retrograde_values(ref_engine)
    try:
        literal = recurrence_values(ref_engine)
    except QueryError:  # a cycle or a player moving twice: the recurrence does not apply
        literal = None
    if literal is not None:
        assert first_difference(reference, literal) is None, first_difference(reference, literal)
    for kind in ("explicit", "cudd", "autoref"):
        got = table(two_player_values(build_engine(game, kind)))
        assert first_difference(reference, got) is None, (kind, first_difference(reference, got))
