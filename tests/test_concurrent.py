"""Concurrent games: differential tests of the two engines on random games and formulas.

Random concurrent games (tests/strategies.py) and ATL formulas without turn(J): the
explicit engine (joint actions enumerated) and the symbolic engine on every backend
(cudd, oxidd, autoref) give the same set for every formula, under both dead-end
conventions. ``make test`` runs a few hundred cases; ``make fuzz`` runs
SYMBOLIC_FUZZ_EXAMPLES (default 10 000).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.api import DeadEnds, difference_witness
from symbolic.bdd import BACKENDS
from symbolic.bdd.concurrent import ACTION_ORDERS, SymbolicConcurrentGame
from symbolic.errors import QueryError, SymbolicError
from symbolic.explicit.concurrent import ExplicitConcurrentGame

from .strategies import concurrent_games, formulas


def check(data, backend: str, dead: DeadEnds) -> None:
    game = data.draw(concurrent_games())
    try:
        ref = ExplicitConcurrentGame(game)
        ref.positions()
    except SymbolicError:
        return  # a type error of the random expressions: both engines refuse it (below)
    sym = SymbolicConcurrentGame(game, backend, actions=data.draw(st.sampled_from(ACTION_ORDERS)))
    ev_ref = atl.Evaluator(ref, dead_ends=dead)
    ev_sym = atl.Evaluator(sym, dead_ends=dead)
    for f in data.draw(st.lists(formulas(game, 3, turns=False), min_size=1, max_size=3)):
        want, got = ev_ref(f), ev_sym(f)
        w = difference_witness(want, got)
        assert w is None, (f, w, w in want, len(want), len(got), sym.deterministic)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), dead=st.sampled_from(list(DeadEnds)))
def test_engines_agree_on_random_concurrent_games(backend, data, dead):
    check(data, backend, dead)


@pytest.mark.fuzz
def test_fuzz_concurrent_games():
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000"))

    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data(), dead=st.sampled_from(list(DeadEnds)), backend=st.sampled_from(BACKENDS))
    def run(data, dead, backend):
        nonlocal count
        check(data, backend, dead)
        count += 1

    count = 0
    run()
    print(
        f"\nfuzz: {count} random concurrent games, explicit == symbolic "
        f"({', '.join(BACKENDS)}, drawn per case) on all"
    )
    assert count >= min(n, 1)


def test_turn_is_refused_on_a_concurrent_game():
    from symbolic.ir import Action, BoolType, ConcurrentGame, Space, VarDecl

    g = ConcurrentGame(
        "g", Space((VarDecl("b", BoolType()),)), (1, 2), (Action(1, "a"), Action(2, "a")), ()
    )
    for E in (ExplicitConcurrentGame(g), SymbolicConcurrentGame(g)):
        with pytest.raises(QueryError, match="no meaning on a concurrent game"):
            atl.Evaluator(E)(atl.Turn(atl.CoalitionLit((1,))))
