"""``reach_layers`` and ``until_layered`` (symbolic.api.layers): the
reachable positions by distance, and until restricted to them, one backward step per
layer. Compared with the plain fixpoints (``reachable``, ``until`` ∩ R) on Connect Four
boards and on random graded arenas, on every engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.api import (
    DeadEnds,
    ReachLayers,
    graded_levels,
    layer_counts,
    reach_layers,
    reachable,
    until_by_layer,
    until_layered,
)
from symbolic.errors import EngineMismatch, QueryError
from symbolic.seeds.games import arena
from symbolic.model import load_model

from .conftest import build_engine
from .strategies import arenas, graded_arenas

# (w, h, a); the 4 × 3 boards take 10-20 s (explicit engine: 3^12 value vectors)
BOARDS = [
    (3, 3, 3),
    pytest.param(4, 3, 3, marks=pytest.mark.slow),
    pytest.param(4, 3, 4, marks=pytest.mark.slow),
]


def _connect4(kind, w, h, a):
    model = load_model("models/connect4.game", {"w": w, "h": h, "a": a})
    eng = build_engine(model.game, kind)
    return model, eng, atl.Evaluator(eng, model.definitions)


def _check_layers(eng, ev, model):
    """reach_layers against reachable(), and until_layered against until ∩ R."""
    empty = ev(model.formula("empty"))
    r = reach_layers(eng, empty)
    plain = reachable(eng, empty)
    assert r.result == plain.result, (r.result.count(), plain.result.count())
    assert r.graded, "dropping a disc goes exactly one layer up"
    union = eng.empty()
    for k, layer in enumerate(r.layers):
        assert (union & layer).is_empty(), k
        union = union | layer
    assert union == r.result
    # F_k = X_k ∖ X_{k-1} of the plain image fixpoint (distance k = k discs)
    assert len(r.layers) == plain.iterations + 1, (len(r.layers), plain.iterations)
    over = ev(model.formula("over"))
    out = {}
    for p in (1, 2):
        for de in (DeadEnds.VACUOUS, DeadEnds.STRICT):
            win = ev(model.formula(f"win({p})"))
            got = until_layered(eng, [p], ~over, win, r, dead_ends=de)
            want = eng.until([p], ~over, win, dead_ends=de).result & r.result
            assert got.result == want, (p, de, got.result.count(), want.count())
            assert got.iterations == len(r.layers)
            out[p, de] = got.result.count()
    return r.result.count(), out


@pytest.mark.parametrize("w,h,a", BOARDS)
def test_connect4_layers_agree_with_the_fixpoints_on_every_engine(w, h, a):
    results = {}
    for kind in ("explicit", "cudd", "autoref"):
        model, eng, ev = _connect4(kind, w, h, a)
        results[kind] = _check_layers(eng, ev, model)
    assert results["explicit"] == results["cudd"] == results["autoref"], results


@pytest.mark.slow
def test_connect4_4x4_layers_agree_with_the_fixpoints():
    # 3^16 value vectors: beyond the explicit engine's limit, so symbolic only
    model, eng, ev = _connect4("cudd", 4, 4, 4)
    count, wins = _check_layers(eng, ev, model)
    assert count == 161029, count


def test_3x3_reach_counts_and_layers():
    model, eng, ev = _connect4("cudd", 3, 3, 3)
    r = reach_layers(eng, ev(model.formula("empty")))
    # layer k: boards of k discs; 1 empty board, 3 with one disc, 9 with two
    assert [x.count() for x in r.layers][:3] == [1, 3, 9], [x.count() for x in r.layers]
    assert len(r.layers) == 10 and r.result.count() == 694, (len(r.layers), r.result.count())


def test_until_layered_refuses_layers_that_are_not_graded():
    g = build_engine(arena({0: 1, 1: 2, 2: 1}, [(0, 1), (0, 2), (1, 2)]), "cudd")
    r = reach_layers(g, g.from_tuples([(0,)]))
    assert not r.graded and isinstance(r, ReachLayers)
    with pytest.raises(QueryError, match="graded"):
        until_layered(g, {1}, g.positions(), g.from_tuples([(2,)]), r, dead_ends=DeadEnds.VACUOUS)


def test_until_layered_refuses_another_engines_layers():
    game = arena({0: 1, 1: 2}, [(0, 1)])
    a, b = build_engine(game, "cudd"), build_engine(game, "explicit")
    r = reach_layers(b, b.from_tuples([(0,)]))
    with pytest.raises(EngineMismatch):
        until_layered(a, {1}, a.positions(), a.from_tuples([(1,)]), r, dead_ends=DeadEnds.VACUOUS)
    with pytest.raises(QueryError, match="dead_ends"):
        until_layered(b, {1}, b.positions(), b.from_tuples([(1,)]), r, dead_ends="vacuous")


@settings(max_examples=40, deadline=None)
@given(graded_arenas(), st.sampled_from(list(DeadEnds)))
def test_until_layered_is_until_within_the_reachable_positions(case, de):
    controller, edges, target, stay, start, p = case
    game = arena(controller, edges)
    for kind in ("explicit", "cudd", "oxidd"):
        e = build_engine(game, kind)
        r = reach_layers(e, e.from_tuples([(s,) for s in start]))
        tau = e.from_tuples([(s,) for s in target])
        sigma = e.from_tuples([(s,) for s in stay])
        want = e.until([p], sigma, tau, dead_ends=de).result & r.result
        assert r.graded, [f.tuples() for f in r.layers]  # edges go one layer up
        got = until_layered(e, [p], sigma, tau, r, dead_ends=de).result
        assert got == want, (kind, got.tuples(), want.tuples())
        # until_by_layer: the same sets, layer by layer
        per_layer = until_by_layer(e, [p], sigma, tau, r, dead_ends=de)
        assert len(per_layer) == len(r.layers), (len(per_layer), len(r.layers))
        for k, (u, layer) in enumerate(zip(per_layer, r.layers)):
            assert u == want & layer, (kind, k, u.tuples(), (want & layer).tuples())


@settings(max_examples=60, deadline=None)
@given(graded_arenas(), st.sampled_from(list(DeadEnds)), st.data())
def test_until_over_levels_holding_the_layers_is_until_on_the_layers(case, de, data):
    # levels C_k: the layer F_k plus any states at all (moves may leave them): the steps
    # over them give until ∩ F_k on each layer
    controller, edges, target, stay, start, p = case
    game = arena(controller, edges)
    states = sorted(controller)
    extra = None
    for kind in ("explicit", "cudd", "oxidd"):
        e = build_engine(game, kind)
        r = reach_layers(e, e.from_tuples([(s,) for s in start]))
        if extra is None:
            extra = [data.draw(st.sets(st.sampled_from(states))) for _ in r.layers]
        levels = [f | e.from_tuples([(x,) for x in sorted(x_)]) for f, x_ in zip(r.layers, extra)]
        c = graded_levels(e, r, levels)
        tau = e.from_tuples([(s,) for s in target])
        sigma = e.from_tuples([(s,) for s in stay])
        want = e.until([p], sigma, tau, dead_ends=de).result
        per_level = until_by_layer(e, [p], sigma, tau, c, dead_ends=de)
        for k, (u, level, layer) in enumerate(zip(per_level, c.layers, r.layers)):
            assert (u - level).is_empty(), (kind, k, u.tuples(), level.tuples())
            assert u & layer == want & layer, (
                kind,
                k,
                (u & layer).tuples(),
                (want & layer).tuples(),
            )


def test_levels_that_miss_a_position_of_their_layer_are_refused():
    # 0 → 1 → 2, and 3 → 4 apart from them
    g = arena({0: 1, 1: 2, 2: 1, 3: 1, 4: 2}, [(0, 1), (1, 2), (3, 4)])
    for kind in ("explicit", "cudd", "oxidd"):
        e = build_engine(g, kind)
        r = reach_layers(e, e.from_tuples([(0,)]))
        sets = lambda *levels: [e.from_tuples([(x,) for x in lv]) for lv in levels]  # noqa: E731
        assert len(graded_levels(e, r, sets([0, 3, 4], [1, 4], [2, 0])).layers) == 3
        with pytest.raises(QueryError, match=r"level\(1\) does not hold the positions of layer 1"):
            graded_levels(e, r, sets([0], [3, 4], [2]))
        with pytest.raises(QueryError, match="2 levels for 3 layers"):
            graded_levels(e, r, sets([0], [1]))


@settings(max_examples=60, deadline=None)
@given(arenas())
def test_layer_counts_are_the_sizes_of_the_reach_layers(case):
    controller, edges, start = case
    game = arena(controller, edges)
    for kind in ("explicit", "cudd", "oxidd"):
        e = build_engine(game, kind)
        source = e.from_tuples([(s,) for s in sorted(start)])
        want = tuple(f.count() for f in reach_layers(e, source).layers)
        seen: list = []
        got = layer_counts(e, source, on_layer=lambda k, n: seen.append((k, n)))
        assert got == want, (kind, got, want)
        assert seen == list(enumerate(want)), (kind, seen)


@settings(max_examples=60, deadline=None)
@given(graded_arenas(), st.data())
def test_layer_counts_over_disjoint_levels_hold_one_layer(case, data):
    # levels C_k: the layer F_k plus states of no layer, each given to one level at most
    controller, edges, _, _, start, _ = case
    game = arena(controller, edges)
    where = None
    for kind in ("explicit", "cudd", "oxidd"):
        e = build_engine(game, kind)
        source = e.from_tuples([(s,) for s in sorted(start)])
        r = reach_layers(e, source)
        if where is None:
            reached = {x for f in r.layers for (x,) in f.tuples()}
            spare = sorted(set(controller) - reached)
            where = {x: data.draw(st.integers(-1, len(r.layers) - 1)) for x in spare}
        extra = {k: sorted(x for x, j in where.items() if j == k) for k in range(len(r.layers))}
        levels = [f | e.from_tuples([(x,) for x in extra[k]]) for k, f in enumerate(r.layers)]
        # past the last layer: never asked (the count stops at the first empty layer)
        got = layer_counts(e, source, lambda k: levels[k])
        assert got == tuple(f.count() for f in r.layers), (kind, got)


def test_layer_counts_refuse_levels_that_miss_their_layer_or_meet():
    # 0 → 1 → 2 (graded), 3 apart; then 2 → 0 (back to layer 0)
    for edges, levels, message in (
        ([(0, 1), (1, 2)], [[0], [1, 3], [2, 3]], r"level\(1\) and level\(2\) share positions"),
        ([(0, 1), (1, 2)], [[0], [3], [2]], r"level\(1\) does not hold the positions of layer 1"),
        ([(0, 1), (1, 2), (2, 0)], [[0], [1], [2], [3]], r"level\(3\) does not hold"),
        ([(0, 1), (1, 2), (2, 0)], [[0], [1], [2], [0]], r"level\(0\) and level\(3\) share"),
    ):
        g = arena({0: 1, 1: 2, 2: 1, 3: 1}, edges)
        for kind in ("explicit", "cudd", "oxidd"):
            e = build_engine(g, kind)
            sets = [e.from_tuples([(x,) for x in lv]) for lv in levels]
            with pytest.raises(QueryError, match=message):
                layer_counts(e, e.from_tuples([(0,)]), lambda k: sets[k])
