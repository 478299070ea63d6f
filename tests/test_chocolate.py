"""symbolic.seeds.chocolate: configuration values of the chocolate bar, on both
engines, against a brute force on the bar itself (the text's recurrence over
rectangles, memoized), and the text's questions Q9 and Q10."""

from __future__ import annotations

from functools import lru_cache

import pytest

from symbolic.seeds.chocolate import HALF, MODEL, BarValues, answers, load_bar
from symbolic.model import load_model
from symbolic.errors import QueryError
from symbolic.analysis.values import recurrence_value


@lru_cache(maxsize=None)
def bar_value(x0: int, x1: int, y0: int, y1: int, i: int, j: int) -> int:
    """The value of the bar of columns x0..x1 and rows y0..y1 with the square of
    death at (i, j): each move keeps the part with the square."""
    nxt = [(c, x1, y0, y1) for c in range(x0 + 1, i + 1)]  # break left of column i
    nxt += [(x0, c, y0, y1) for c in range(i, x1)]  # right of it
    nxt += [(x0, x1, c, y1) for c in range(y0 + 1, j + 1)]  # above row j
    nxt += [(x0, x1, y0, c) for c in range(j, y1)]  # below it
    return recurrence_value(bar_value(*s, i, j) for s in nxt)


def brute(m, n, i, j):
    return bar_value(0, m - 1, 0, n - 1, i, j)


@pytest.mark.parametrize(
    "engine,backend", [("symbolic", "cudd"), ("symbolic", "autoref"), ("explicit", "cudd")]
)
def test_bar_values_match_the_brute_force(engine, backend):
    V = BarValues(3, engine, backend)
    for m in range(1, 8):
        for n in range(1, 8):
            for i in range(m):
                for j in range(n):
                    if max(i, m - 1 - i, j, n - 1 - j) <= 3:
                        assert V.value(m, n, i, j) == brute(m, n, i, j), (m, n, i, j)


def test_text_examples():
    V = BarValues(7, "symbolic", "cudd")
    assert V.value(10, 7, 7, 3) == brute(10, 7, 7, 3) == 11  # first page
    assert V.value(10, 7, 5, 3) == brute(10, 7, 5, 3)  # Q6's second instance
    assert V.value(1, 1, 0, 0) == 0  # the lone square: lost


@pytest.mark.parametrize("value", [1, 3, 5, 7, -2, -6, 0, 2])
def test_configurations_of_a_value(value):
    V = BarValues(6, "symbolic", "cudd")
    expected = sorted((i, j) for i in range(7) for j in range(5) if brute(7, 5, i, j) == value)
    assert V.configurations(7, 5, value) == expected


def test_configurations_explicit_engine_agrees():
    S, E = BarValues(6, "symbolic", "cudd"), BarValues(6, "explicit")
    for v in range(-12, 13):
        assert S.configurations(7, 6, v) == E.configurations(7, 6, v), v


def test_requests_outside_the_bar_are_refused():
    V = BarValues(3, "symbolic", "cudd")
    with pytest.raises(QueryError, match="must lie in the bar"):
        V.value(3, 3, 3, 0)
    with pytest.raises(QueryError, match="exceed 3"):
        V.value(10, 7, 7, 3)
    with pytest.raises(QueryError, match="exceed 3"):
        V.configurations(9, 7, 1)


def test_the_model_takes_a_1000_by_1000_bar():
    model = load_bar(499)  # 999 × 999
    assert model.params == {"m": 999, "n": 999, "i": 499, "j": 499}
    big = load_model(MODEL, {"m": 1000, "n": 1000, "i": 500, "j": 999})
    assert big.game.space.size == 2 * 501 * 500 * 1000 * 1


def test_q9_q10():
    V = BarValues(HALF, "symbolic", "cudd")
    got = answers(V)
    assert set(got) == {"Q9", "Q10"}
    assert got["Q9"] == {"a": V.value(100, 100, 50, 50), "b": V.value(100, 100, 48, 52)}
    # (100, 100, 50, 50): l, r, u, d = 50, 49, 50, 49, Nim sum 0: a loss, and the longest
    # game lasts at most 50 + 49 + 50 + 49 moves; (100, 100, 48, 52): 48, 51, 52, 47, Nim sum
    # 8: a win
    assert -198 <= got["Q9"]["a"] < 0 < got["Q9"]["b"] <= 198
    pairs = got["Q10"]
    assert pairs == sorted(pairs) and pairs
    assert all(V.value(127, 127, i, j) == 127 for i, j in pairs)
    # the 8 symmetries of Q12 map the answer set of a square bar onto itself
    s = {tuple(p) for p in pairs}
    assert (
        s == {(126 - i, j) for i, j in s} == {(i, 126 - j) for i, j in s} == {(j, i) for i, j in s}
    )
    # the same big computation, on configurations the brute force can still solve
    for config in [(10, 7, 7, 3), (10, 7, 5, 3), (24, 24, 11, 12), (30, 17, 3, 9), (1, 40, 0, 20)]:
        assert V.value(*config) == brute(*config), config
