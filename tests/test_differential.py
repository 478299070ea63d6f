"""Differential tests: the symbolic engine (cudd, autoref, oxidd) against the explicit
engine on random games and random ATL formulas (strategies in tests/strategies.py).

``make test`` runs 300+ generated cases; ``make fuzz`` runs the same checks on
``SYMBOLIC_FUZZ_EXAMPLES`` (default 10 000) cases and prints how many ran.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.api import DeadEnds, always, difference_witness, greatest_fixpoint

from .conftest import ENGINE_KINDS, all_engines
from .strategies import bool_exprs, coalitions, formulas, games

COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)


engines = all_engines


def assert_same(what, reference, other):
    w = difference_witness(reference, other)
    assert w is None, (
        f"{what}: {reference.engine.kind} has {len(reference)} positions, "
        f"{other.engine.kind}/{getattr(other.engine, 'backend', '')} has {len(other)}; "
        f"they differ at {w} (in reference: {w in reference})"
    )


def check_game(data):
    """One generated case: a game, a few formulas and a few raw queries, all engines."""
    game = data.draw(games(), label="game")
    ref, *syms = engines(game)
    for s in syms:
        assert_same("positions", ref.positions(), s.positions())
    # δ on a sample of positions
    sample = ref.positions().tuples()[:: max(1, len(ref.positions()) // 7)]
    for pos in sample:
        for s in syms:
            assert_same(f"successors of {pos}", ref.successors(pos), s.successors(pos))
    # raw queries, both dead-end conventions, with layers
    J = data.draw(coalitions(game.players), label="J")
    J = atl.coalition_value(J, game.players, {})
    sigma_e = data.draw(bool_exprs(game.space, (), 1), label="sigma")
    tau_e = data.draw(bool_exprs(game.space, (), 1), label="tau")
    for conv in DeadEnds:
        r = ref.until(
            J, ref.from_expr(sigma_e), ref.from_expr(tau_e), dead_ends=conv, keep_layers=True
        )
        for s in syms:
            o = s.until(
                J, s.from_expr(sigma_e), s.from_expr(tau_e), dead_ends=conv, keep_layers=True
            )
            assert r.iterations == o.iterations, (conv, r.iterations, o.iterations)
            for n, (a, b) in enumerate(zip(r.layers, o.layers)):
                assert_same(f"until_{n} ({conv.name}, J={sorted(J)})", a, b)
            assert_same(
                f"pre_forall {conv.name}",
                ref.pre_forall(J, ref.from_expr(tau_e), dead_ends=conv),
                s.pre_forall(J, s.from_expr(tau_e), dead_ends=conv),
            )
        check_release(game, [ref, *syms], J, sigma_e, tau_e, conv)
    # ATL formulas
    fs = data.draw(st.lists(formulas(game), min_size=1, max_size=3), label="formulas")
    for f in fs:
        expected = atl.evaluate(ref, f)
        for s in syms:
            assert_same(f"formula {f}", expected, atl.evaluate(s, f))


def check_release(game, engs, J, f_e, g_e, conv):
    """release(J, f, g) on every engine: equal to the naive greatest fixpoint of
    Z ↦ g ∩ (f ∪ pre(J, Z)) from Z₀ = g built on that engine's own pre (result and
    iterations), equal across engines, and under VACUOUS the complement of
    until(players ∖ J, ¬f, ¬g) (ATL duality; it fails under STRICT)."""
    results = []
    for E in engs:
        f, g = E.from_expr(f_e), E.from_expr(g_e)
        got = E.release(J, f, g, dead_ends=conv)
        naive = greatest_fixpoint(lambda z: g & (f | E.pre(J, z, dead_ends=conv)), g)
        where = f"release ({conv.name}, J={sorted(J)}) on {E.kind}/{getattr(E, 'backend', '')}"
        assert_same(where, naive.result, got.result)
        assert got.iterations == naive.iterations, (where, got.iterations, naive.iterations)
        if conv is DeadEnds.VACUOUS:
            others = set(game.players) - J
            assert_same(
                f"duality: {where}", ~E.until(others, ~f, ~g, dead_ends=conv).result, got.result
            )
        box = always(E, J, g, dead_ends=conv)
        assert_same(
            f"always = release(J, ∅, g): {where}",
            E.release(J, E.empty(), g, dead_ends=conv).result,
            box.result,
        )
        results.append((got, box))
    (ref, ref_always), *others = results
    for got, box in others:
        assert_same(f"release ({conv.name}, J={sorted(J)})", ref.result, got.result)
        assert ref.iterations == got.iterations, (conv, ref.iterations, got.iterations)
        assert_same(f"always ({conv.name}, J={sorted(J)})", ref_always.result, box.result)
        assert ref_always.iterations == box.iterations, conv


@settings(max_examples=100, **COMMON)
@given(st.data())
def test_engines_agree_on_random_games(data):
    check_game(data)


@pytest.mark.fuzz
def test_fuzz_engines_agree():
    """Long run: prints the number of generated cases checked."""
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000"))
    count = 0

    @settings(max_examples=n, database=None, **COMMON)
    @given(st.data())
    def run(data):
        nonlocal count
        check_game(data)
        count += 1

    run()
    print(
        f"\nfuzz: {count} generated cases, symbolic ({', '.join(ENGINE_KINDS[1:])}) == "
        "explicit on all"
    )
    assert count >= min(n, 1)
