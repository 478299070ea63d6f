"""The ENS 2005 game Nim(N, n, K, r) built from Python (symbolic.seeds.games), solved by
both engines and checked against a naive transcription of the ENS definitions
written here (successor function, pre∃, pre∀, pre, until by their formulas)."""

from __future__ import annotations

import itertools

import pytest

from symbolic import atl
from symbolic.api import DeadEnds, difference_witness
from symbolic.seeds.games import ens_rules, lcg, nim_ens, subtraction

from .conftest import all_engines

U0S = (0, 1234, 4_890_366)


def naive_delta(N, n, K, R, c):
    """δ(j, k) straight from the ENS definition."""
    j, k = c[0], c[1:]
    return {
        ((j % N) + 1,) + tuple(ki - di for ki, di in zip(k, d))
        for d in R
        if all(ki >= di for ki, di in zip(k, d))
    }


def naive_game(N, n, K, r, u0):
    R = ens_rules(n, r, u0)
    C = [(j,) + k for j in range(1, N + 1) for k in itertools.product(range(K + 1), repeat=n)]
    return C, {c: naive_delta(N, n, K, R, c) for c in C}


def naive_pre(C, delta, J, tau):
    ex = {c for c in C if c[0] in J and delta[c] & tau}
    fa = {c for c in C if c[0] not in J and delta[c] <= tau}
    return ex | fa


def naive_until(C, delta, J, sigma, tau):
    x = set(tau)
    while True:
        y = x | (naive_pre(C, delta, J, x) & sigma)
        if y == x:
            return x
        x = y


engines = all_engines


def test_lcg_recurrence():
    u = lcg(7, 50)
    assert all(u[i + 1] == (101 * u[i] + 269) % 4_890_367 for i in range(49)), u[:5]
    assert ens_rules(3, 3, 0) == tuple(
        sorted({tuple(lcg(0, 9)[3 * i + t] % 5 for t in range(3)) for i in range(3)} - {(0, 0, 0)})
    )


@pytest.mark.parametrize("u0", U0S)
@pytest.mark.parametrize(
    "params,c",
    [
        ((2, 2, 20, 2), (1, 5, 9)),
        ((2, 3, 20, 3), (2, 3, 7, 2)),
        ((3, 5, 20, 6), (1, 1, 9, 3, 4, 7)),
    ],
)
def test_delta_of_question_6(u0, params, c):
    N, n, K, r = params
    expected = naive_delta(N, n, K, ens_rules(n, r, u0), c)
    for e in engines(nim_ens(N, n, K, r, u0)):
        got = set(e.successors(c))
        assert got == expected, (e.kind, sorted(got), sorted(expected))


@pytest.mark.parametrize("u0", U0S)
def test_pre_and_until_match_the_definitions(u0):
    N, n, K, r = 3, 3, 5, 3
    C, delta = naive_game(N, n, K, r, u0)
    R = ens_rules(n, r, u0)
    zeros = {(j, 0, 0, 0) for j in range(1, N + 1)}
    stuck_not1 = {
        c for c in C if c[0] != 1 and all(any(d[i] > c[1 + i] for i in range(n)) for d in R)
    }
    sigma_a = {c for c in C if c[2] >= c[3]}
    for e in engines(nim_ens(N, n, K, r, u0)):
        for J in ({1}, {1, 2}, set()):
            got = e.pre(J, e.from_tuples(zeros), dead_ends=DeadEnds.VACUOUS)
            want = naive_pre(C, delta, J, zeros)
            assert set(got) == want, (e.kind, J, len(got), len(want))
        got = e.until(
            {1}, e.from_tuples(sigma_a), e.from_tuples(stuck_not1), dead_ends=DeadEnds.VACUOUS
        ).result
        want = naive_until(C, delta, {1}, sigma_a, stuck_not1)
        assert set(got) == want, (e.kind, len(got), len(want))


def test_atl_questions_11_and_12_agree_across_engines():
    game = nim_ens(3, 2, 20, 3, 4242)
    P, one, two, three = (
        atl.AllPlayers(),
        atl.CoalitionLit((1,)),
        atl.CoalitionLit((1, 2)),
        atl.CoalitionLit((3,)),
    )

    def F(J):
        lose = atl.BoolOp(
            "and", atl.Turn(atl.CoalitionOp("\\", P, J)), atl.Next(J, atl.Truth(False))
        )
        return atl.Until(J, atl.Next(P, atl.Truth(True)), lose)

    traitor = atl.Until(
        two, atl.Next(P, atl.Truth(True)), atl.BoolOp("and", atl.Not(F(three)), F(one))
    )
    engs = engines(game)
    results = [[atl.evaluate(e, f) for f in (F(one), F(two), traitor)] for e in engs]
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert difference_witness(a, b) is None, (len(a), len(b))
    # until_0 = τ: F_J contains every position where an opponent is to move and stuck
    ref = engs[0]
    for J, FJ in ((one, results[0][0]), (two, results[0][1])):
        blocked = ref.turn_set(game.players) - ref.turn_set(
            atl.coalition_value(J, game.players, {})
        )
        blocked = blocked & ref.deadlocks()
        assert blocked <= FJ and len(FJ) > len(blocked), (J, len(blocked), len(FJ))


def test_subtraction_game_losing_positions_are_multiples_of_four():
    """Take 1–3, the player who cannot move loses: the mover loses iff k % 4 == 0."""
    g = subtraction(K=30)
    for e in engines(g):
        for p in (1, 2):
            other = 3 - p
            lose = atl.BoolOp(
                "and",
                atl.Turn(atl.CoalitionLit((other,))),
                atl.Next(atl.CoalitionLit((p,)), atl.Truth(False)),
            )
            wins = atl.evaluate(e, atl.Eventually(atl.CoalitionLit((p,)), lose))
            movers_win = {k for (j, k) in wins if j == p}
            assert movers_win == {k for k in range(31) if k % 4}, (e.kind, sorted(movers_win))
