"""The shipped concurrent models: known answers, on both engines.

Each answer is what the model's comment says, computed independently here (by the
closed form or by hand), compared with the sets both engines give (the corpus test
of tests/test_models.py also checks every query on every engine).
"""

from __future__ import annotations


import pytest

from symbolic import atl
from symbolic.engines import make_engine
from symbolic.model import load_model

from .conftest import MODELS

KINDS = ("explicit", "symbolic")


def holds(model, kind: str, text: str) -> set[tuple]:
    ev = atl.Evaluator(make_engine(model.game, kind), model.definitions)
    return set(ev(model.formula(text)).tuples())


@pytest.mark.parametrize("kind", KINDS)
def test_pennies(kind):
    m = load_model(MODELS / "pennies.game")
    start = [(0, 0), (0, 1)]  # not done yet
    for text, want in [
        ("<<1>> <> matched", False),
        ("<<2>> <> matched", False),
        ("<<1>> <> mismatched", False),
        ("<<2>> <> mismatched", False),
        ("<<1, 2>> <> matched", True),
        ("<<1, 2>> <> mismatched", True),
    ]:
        got = holds(m, kind, text)
        assert all((c in got) == want for c in start), (text, got)


@pytest.mark.parametrize("kind", KINDS)
def test_train_gate(kind):
    m = load_model(MODELS / "train_gate.game")
    out, requested, granted, inside = (0,), (1,), (2,), (3,)
    assert holds(m, kind, "<<2>> [] out_of_gate") == {out, requested}
    assert out not in holds(m, kind, "<<1>> <> s == IN")
    assert holds(m, kind, "<<1, 2>> <> s == IN") == {out, requested, granted, inside}
    assert holds(m, kind, "<<1>> [] out_of_gate") == {out, requested, granted}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("R", [1, 2, 3])
def test_rps(kind, R):
    m = load_model(MODELS / "rps.game", {"R": R})
    start = (0, 0)
    assert start not in holds(m, kind, "<<1>> <> (over and score > 0)")
    assert start not in holds(m, kind, "<<2>> <> (over and score < 0)")
    assert start not in holds(m, kind, "<<1>> [] score >= 0")
    assert start in holds(m, kind, "<<1, 2>> <> (over and score == R)")
    assert start in holds(m, kind, "<<1, 2>> <> (over and score == -R)")
    # player 2 can win every round left (it answers any throw): player 1 forces a
    # positive final score exactly where it stays positive after losing them all
    lead = holds(m, kind, "<<1>> <> (over and score > 0)")
    assert lead == {(r, s) for r in range(R + 1) for s in range(-r, r + 1) if s - (R - r) > 0}


def steps(n: int, M: int) -> int:
    return -(-n // M)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("N, M", [(4, 2), (5, 3)])
def test_race(kind, N, M):
    m = load_model(MODELS / "race.game", {"N": N, "M": M})
    win1 = holds(m, kind, "<<1>> <> won1")
    safe1 = holds(m, kind, "<<1>> [] not won2")
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            assert ((a, b) in win1) == (steps(a, M) < steps(b, M)), (a, b)
            assert ((a, b) in safe1) == (steps(a, M) <= steps(b, M)), (a, b)
