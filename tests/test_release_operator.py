"""The ATL release operator ``<<J>> f R g`` from model text, on every engine.

Release is the dual of until: νZ. g ∩ (f ∪ pre(J, Z)). Under the ENS dead-end
convention it equals ``not <<players \\ J>> (not f) U (not g)``; these tests
check that identity on shipped models through the parser, and that every
engine returns the same sets. ``R`` stays a soft keyword: a model may still
name a constant ``R`` (the ENS model does).
"""

from __future__ import annotations

import pytest

from symbolic import atl
from symbolic.model import load_model, parse_formula, parse_model

from .conftest import ENGINE_KINDS, build_engine

CASES = [
    # (model, overrides, coalition, f, g)
    ("models/subtraction.game", {"K": 9}, "1", "k = 0", "k != 3"),
    ("models/subtraction.game", {"K": 9}, "2", "turn(1) and k = 2", "k >= 2"),
    ("models/ens2005.game", {"K": 4}, "1, 2", "turn(1)", "k[1] + k[2] >= 2"),
    ("models/ens2005.game", {"K": 4}, "3", "k[1] = 0", "not turn(3) or k[2] > 0"),
    ("models/nim.game", {"n": 2, "K": 4}, "1", "k[1] = k[2]", "k[1] + k[2] > 1"),
]


def test_release_parses_to_a_release_node():
    m = load_model("models/subtraction.game")
    f = parse_formula("<<1>> k = 0 R k != 3", m)
    assert isinstance(f, atl.Release), f
    assert isinstance(parse_formula("<<1>> (k = 0 R k != 3)", m), atl.Release)
    # [] is release from false
    assert parse_formula("<<1>> [] k != 3", m) == parse_formula("<<1>> false R k != 3", m)


def test_R_stays_a_name_where_no_operator_fits():
    m = parse_model("""
        players 1, 2
        const R = {1, 2}
        var j : 1..2
        var U : 0..4
        turn j
        move take(t in R) when U >= t then U' = U - t; j' = 3 - j
        query <<1>> (U = 0 and turn(2)) R (U != 3)
    """)
    assert m.consts["R"] == (1, 2)
    assert isinstance(m.queries[0].formula, atl.Release)


@pytest.mark.parametrize("path, params, J, f, g", CASES)
def test_release_is_the_dual_of_until_and_engines_agree(path, params, J, f, g):
    m = load_model(path, params)
    release = parse_formula(f"<<{J}>> ({f}) R ({g})", m)
    dual = parse_formula(f"not <<players \\ {{{J}}}>> (not ({f})) U (not ({g}))", m)
    results = {}
    for kind in ENGINE_KINDS:
        engine = build_engine(m.game, kind)
        ev = atl.Evaluator(engine, m.definitions)
        r, d = ev(release), ev(dual)
        assert r == d, (kind, sorted(set(r.tuples()) ^ set(d.tuples()))[:5])
        results[kind] = r.tuples()
    reference = results["explicit"]
    for kind, got in results.items():
        assert got == reference, (kind, sorted(set(got) ^ set(reference))[:5])
    # the identity is not vacuous on these cases: neither everything nor nothing
    assert 0 < len(reference) < build_engine(m.game, "explicit").positions().count(), reference[:5]
