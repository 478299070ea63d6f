"""Tests of symbolic.bdd.engine: BDD position sets and game queries, on both backends.

The game values below are computed by hand (subtraction game, comments show how).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.api import DeadEnds, always, attractor, difference_witness
from symbolic.bdd import BACKENDS, BddSet, SymbolicGame, SymbolicSets
from symbolic.errors import EngineMismatch, ModelError, QueryError, RangeError
from symbolic.ir import Const, Elem, Game, IntType, Move, Name, Param, Space, Var, VarDecl, forall

from .conftest import ROOT


x, y, h, j = Var("x"), Var("y"), Var("h"), Var("j")


def ints(*specs) -> Space:
    return Space(tuple(VarDecl(n, IntType(lo, hi)) for n, lo, hi in specs))


# --------------------------------------------------------------------------- sets


def test_count_is_exactly_ten_to_the_thirty(backend):
    sp = ints(*[(f"v{i}", 0, 9) for i in range(30)])
    S = SymbolicSets(sp, backend)
    assert S.encoder.bit_order == "slots"  # 30 ragged ranges: "auto" avoids 2**30 nodes
    assert S.positions().count() == 10**30, S.positions().count()
    first_digit_zero = S.from_expr(Var("v0").eq(0))
    assert first_digit_zero.count() == 10**29, first_digit_zero.count()


def test_count_of_one_huge_slot_in_sliced_order(backend):
    S = SymbolicSets(ints(("n", 0, 10**30 - 1), ("p", 0, 2)), backend, order="sliced")
    assert S.positions().count() == 3 * 10**30
    assert S.from_expr(Var("n") >= 10**30 - 5).count() == 15
    with pytest.raises(OverflowError):
        len(S.positions())  # Python's len stops at sys.maxsize: use count()
    assert bool(S.positions()) and not S.empty()


def test_odd_ranges_enumerate_in_lexicographic_order(backend):
    S = SymbolicSets(ints(("x", -3, 5), ("y", 2, 6)), backend)
    got = S.from_expr((x + y).eq(2)).tuples()
    assert got == [(-3, 5), (-2, 4), (-1, 3), (0, 2)], got
    allpos = S.positions().tuples()
    assert len(allpos) == 45 and allpos == sorted(allpos), allpos[:6]
    assert allpos[0] == (-3, 2) and allpos[-1] == (5, 6)
    assert list(S.from_expr(x < -2)) == [(-3, v) for v in range(2, 7)]


def test_complement_stays_in_the_domain(backend):
    inv = x <= y
    S = SymbolicSets(ints(("x", 0, 4), ("y", 0, 4)), backend, invariant=inv)
    assert len(S.positions()) == 15  # pairs x <= y among 0..4
    a = S.from_expr(x.eq(y))
    assert len(~a) == 10, (~a).tuples()
    assert all(p[0] < p[1] for p in ~a), (~a).tuples()
    assert ~~a == a and ~S.empty() == S.positions() and ~S.positions() == S.empty()
    assert (a | ~a) == S.positions() and (a & ~a).is_empty()


def test_set_operations_and_equality(backend):
    S = SymbolicSets(ints(("x", 0, 3), ("y", 0, 3)), backend)
    a = S.from_expr(x < 2)
    b = S.from_expr(y < 1)
    assert (a & b).tuples() == [(0, 0), (1, 0)]
    assert len(a | b) == 8 + 2 and len(a - b) == 6
    assert a & b <= a and not a <= b
    assert S.from_tuples([(1, 0), {"x": 0, "y": 0}]) == a & b
    assert S.singleton((2, 3)).tuples() == [(2, 3)]
    assert S.from_expr(x < 2) == S.from_expr(Const(2) > x)  # node equality
    assert (a & b).first() == (0, 0) and S.empty().first() is None
    assert S.from_expr(y > 1).first() == (0, 2)


def test_membership(backend):
    S = SymbolicSets(ints(("x", -2, 2), ("y", 0, 1)), backend, invariant=x.ne(0))
    a = S.from_expr(y.eq(1))
    assert (1, 1) in a and (1, 0) not in a and {"x": -2, "y": 1} in a
    assert (0, 1) not in S.positions()  # in range, but the invariant is false
    for bad in [(3, 0), (0, 2), (0,), (1, 1, 1)]:
        with pytest.raises(RangeError):
            bad in a  # noqa: B015 - the membership test must raise
    with pytest.raises(RangeError):
        S.from_tuples([(0, 1)])  # not a position


def test_mixing_engines_raises(backend):
    sp = ints(("x", 0, 3))
    S1, S2 = SymbolicSets(sp, backend), SymbolicSets(sp, backend)
    a, b = S1.from_expr(x < 2), S2.from_expr(x < 2)
    for op in (lambda: a | b, lambda: a & b, lambda: a - b, lambda: a == b, lambda: a <= b):
        with pytest.raises(EngineMismatch):
            op()
    with pytest.raises(EngineMismatch):
        BddSet(S1, b.node)


def test_convert_between_engines_and_backends(backend):
    sp = ints(("x", 0, 5), ("y", 0, 5))
    other = "autoref" if backend == "cudd" else "cudd"
    S1, S2 = SymbolicSets(sp, backend), SymbolicSets(sp, other)
    a = S1.from_expr(((x * y) % 4).eq(1))
    c = S2.convert(a)
    assert c.engine is S2 and c.tuples() == a.tuples(), (c.tuples(), a.tuples())
    assert c == S2.from_expr(((x * y) % 4).eq(1))
    assert difference_witness(a, c) is None
    S3 = SymbolicSets(ints(("x", 0, 5), ("z", 0, 5)), backend)
    with pytest.raises(EngineMismatch):
        S3.convert(a)


def test_public_constructor_intersects_with_the_domain(backend):
    S = SymbolicSets(ints(("x", 0, 4)), backend)
    m = S.manager
    raw = m.true  # also holds the bit patterns 5, 6, 7
    assert BddSet(S, raw).count() == 5
    with pytest.raises(QueryError):
        BddSet(S, m.var("x.0'"))  # next bits are not positions


def test_repr_shows_count_and_first_positions(backend):
    S = SymbolicSets(ints(("x", 0, 9)), backend)
    r = repr(S.from_expr(x > 6))
    assert "of 3: (7,), (8,), (9,)" in r, r


def test_unknown_backend_and_order():
    with pytest.raises(QueryError):
        SymbolicSets(ints(("x", 0, 1)), "sylvan")
    with pytest.raises(QueryError):
        SymbolicSets(ints(("x", 0, 1)), "cudd", order="random")


# --------------------------------------------------------------------------- the subtraction game
#
# One heap h in 0..10, players 1 and 2 alternate (j), take 1..3 matches.
# Positions are (h, j). Player 1 wins by taking the last match: target (0, 2).


def subtraction(turn=j) -> Game:
    sp = Space((VarDecl("h", IntType(0, 10)), VarDecl("j", IntType(1, 2))))
    d = Name("d")
    take = Move(
        "take",
        (Param("d", (1, 2, 3)),),
        guard=h >= d,
        effect=Var("h", True).eq(h - d) & Var("j", True).eq(3 - j),
    )
    return Game("subtraction", sp, (1, 2), turn, (take,))


@pytest.fixture(
    params=[(b, p) for b in BACKENDS for p in ("moves", "monolithic")],
    ids=lambda bp: f"{bp[0]}-{bp[1]}",
)
def sub(request) -> SymbolicGame:
    b, p = request.param
    return SymbolicGame(subtraction(), b, p)


def test_successors(sub):
    assert sub.successors((5, 1)).tuples() == [(2, 2), (3, 2), (4, 2)]
    assert sub.successors((2, 2)).tuples() == [(0, 1), (1, 1)]
    assert sub.successors((0, 1)).is_empty()
    assert sub.deadlocks().tuples() == [(0, 1), (0, 2)]


def test_delta_and_sizes(sub):
    m, enc = sub.manager, sub.encoder
    edges = m.exact_count(sub.delta(), len(enc.order))
    # from h: min(h, 3) moves, for h = 0..10 and both players: 2 * (0+1+2+3*8)
    assert edges == 2 * 27, edges
    sizes = sub.bdd_sizes()
    assert sizes["delta"] > 1 and sum(sizes["parts"].values()) >= 1, sizes
    assert sizes["variables"] == len(enc.order) == 10


def test_turn_sets(sub):
    assert sub.turn_set({1}).tuples() == [(h, 1) for h in range(11)]
    assert sub.turn_set([1, 2]) == sub.positions()
    assert sub.turn_set(set()).is_empty()
    with pytest.raises(QueryError) as info:
        sub.turn_set({3})
    assert "[3]" in str(info.value), str(info.value)


def test_pre_exists_and_pre_forall(sub):
    target = sub.singleton((0, 2))
    assert sub.pre_exists({1}, target).tuples() == [(1, 1), (2, 1), (3, 1)]
    assert sub.pre_exists({2}, target).is_empty()  # (0, 2) is entered by player 1 only
    winning1 = sub.from_tuples([(1, 1), (2, 1), (3, 1)])
    # player 2 at h = 4 must move to 3, 2 or 1: all winning for player 1
    assert sub.pre_forall({1}, winning1, dead_ends=DeadEnds.STRICT).tuples() == [(4, 2)]
    # the dead end (0, 2) belongs to player 2 (not in J): vacuously forced
    assert sub.pre_forall({1}, winning1, dead_ends=DeadEnds.VACUOUS).tuples() == [(0, 2), (4, 2)]
    assert sub.pre_forall({1}, sub.empty(), dead_ends=DeadEnds.VACUOUS).tuples() == [(0, 2)]
    assert sub.pre_forall({1}, sub.empty(), dead_ends=DeadEnds.STRICT).is_empty()
    pre = sub.pre({1}, winning1, dead_ends=DeadEnds.STRICT)
    assert pre == (
        sub.pre_exists({1}, winning1) | sub.pre_forall({1}, winning1, dead_ends=DeadEnds.STRICT)
    )


def test_until_layers_by_hand(sub):
    fp = attractor(sub, {1}, sub.singleton((0, 2)), keep_layers=True)
    layers = [layer.tuples() for layer in fp.layers]
    assert layers[0] == [(0, 2)]
    assert layers[1] == [(0, 2), (1, 1), (2, 1), (3, 1)]
    assert layers[2] == layers[1] + [(4, 2)]
    assert layers[3] == layers[2] + [(5, 1), (6, 1), (7, 1)]
    assert layers[4] == layers[3] + [(8, 2)]
    assert sorted(layers[5]) == sorted(layers[4] + [(9, 1), (10, 1)])
    assert fp.iterations == 5 and len(fp.layers) == 6, (fp.iterations, layers)
    assert fp.result.tuples() == sorted(layers[5])
    # player 1 wins from (h, 1) iff h % 4 != 0 and from (h, 2) iff h % 4 == 0
    assert fp.result == sub.from_expr(((h % 4).ne(0) & j.eq(1)) | ((h % 4).eq(0) & j.eq(2)))


def test_until_respects_the_stay_set(sub):
    stay = sub.from_expr(h <= 5)
    fp = sub.until({1}, stay, sub.singleton((0, 2)), dead_ends=DeadEnds.STRICT)
    assert fp.result.tuples() == [(0, 2), (1, 1), (2, 1), (3, 1), (4, 2), (5, 1)]
    # without layers the rounds are chained by mover (2 rounds); with them, 3 steps
    assert fp.iterations == 2 and fp.layers is None, fp
    steps = sub.until({1}, stay, sub.singleton((0, 2)), dead_ends=DeadEnds.STRICT, keep_layers=True)
    assert steps.iterations == 3 and steps.result == fp.result, steps


def test_always_differs_between_conventions(sub):
    avoid_losing = ~sub.singleton((0, 1))  # player 1 never stuck on his turn
    vac = always(sub, {1}, avoid_losing, dead_ends=DeadEnds.VACUOUS)
    # every play ends; with a vacuous forall the end (0, 2) is kept: player 1's wins
    assert vac.result == attractor(sub, {1}, sub.singleton((0, 2))).result
    strict = always(sub, {1}, avoid_losing, dead_ends=DeadEnds.STRICT)
    assert strict.result.is_empty(), strict.result.tuples()  # no infinite play exists


def test_mixing_games_raises(backend):
    g1, g2 = SymbolicGame(subtraction(), backend), SymbolicGame(subtraction(), backend)
    with pytest.raises(EngineMismatch):
        g1.pre_exists({1}, g2.positions())
    with pytest.raises(EngineMismatch):
        g1.until({1}, g1.positions(), g2.positions(), dead_ends=DeadEnds.STRICT)


def test_bad_games_are_refused(backend):
    with pytest.raises(ModelError) as info:
        SymbolicGame(subtraction(turn=h), backend)  # h = 0 or h > 2 is nobody's turn
    assert "'h': 0" in str(info.value), str(info.value)
    with pytest.raises(QueryError):
        SymbolicGame(subtraction(), backend, partition="random")
    with pytest.raises(RangeError):
        SymbolicGame(subtraction(), backend).successors((11, 1))


# --------------------------------------------------------------------------- frames


def nim2() -> Game:
    """Two heaps k[1], k[2] in 0..3; take 1 or 2 from one heap; one player."""
    sp = Space((VarDecl("k", IntType(0, 3), IntType(1, 2)),))
    i, d = Name("i"), Name("d")
    take = Move(
        "take",
        (Param("i", (1, 2)), Param("d", (1, 2))),
        guard=Elem("k", i) >= d,
        effect=Elem("k", i, primed=True).eq(Elem("k", i) - d),
    )
    return Game("nim2", sp, (1,), Const(1), (take,))


def test_unprimed_slots_keep_their_value_per_valuation(backend):
    G = SymbolicGame(nim2(), backend)
    # each valuation primes one heap: the other one is framed
    assert G.successors((2, 3)).tuples() == [(0, 3), (1, 3), (2, 1), (2, 2)]
    assert G.successors((0, 0)).is_empty()


def test_unconstrained_primed_slot_takes_every_value(backend):
    sp = ints(("x", 0, 2), ("y", 0, 2))
    # primed y appears but is not fixed where x = 0: y' is free there
    mv = Move("m", effect=Var("x", True).eq(x) & (x.eq(0) | Var("y", True).eq(y)))
    G = SymbolicGame(Game("free", sp, (1,), Const(1), (mv,)), backend)
    assert G.successors((0, 1)).tuples() == [(0, 0), (0, 1), (0, 2)]
    assert G.successors((1, 1)).tuples() == [(1, 1)]


def test_effect_value_errors_only_where_evaluated(backend):
    sp = Space((VarDecl("p", IntType(0, 3)), VarDecl("a", IntType(0, 1), IntType(0, 2))))
    p = Var("p")
    # a[p] is read only when the guard p <= 2 holds
    set_all = forall("q", (0, 1, 2), lambda q: Elem("a", q, primed=True).eq(1))
    mv = Move("flip", guard=p <= 2, effect=Elem("a", p).eq(0) & Var("p", True).eq(p) & set_all)
    G = SymbolicGame(Game("g", sp, (1,), Const(1), (mv,)), backend)
    assert G.successors((1, 0, 0, 0)).tuples() == [(1, 1, 1, 1)]
    assert G.successors((3, 0, 0, 0)).is_empty()
    bad = Move("bad", effect=Elem("a", p).eq(0) & Var("p", True).eq(p))
    with pytest.raises(RangeError):
        SymbolicGame(Game("g", sp, (1,), Const(1), (bad,)), backend)


def test_invariant_restricts_successors(backend):
    sp = ints(("x", 0, 5))
    mv = Move("up", effect=Var("x", True) > x)
    G = SymbolicGame(Game("inv", sp, (1,), Const(1), (mv,), invariant=(x % 2).eq(0)), backend)
    assert G.positions().tuples() == [(0,), (2,), (4,)]
    assert G.successors((0,)).tuples() == [(2,), (4,)]
    assert G.deadlocks().tuples() == [(4,)]
    with pytest.raises(RangeError):
        G.successors((1,))


def test_layout_is_measured_before_the_first_predecessor_only():
    """order="auto" (cudd, > 20 bits) measures the layout lazily: successors and
    counts do not trigger it, the first pre∃ does; the answers equal a fixed order's."""
    from symbolic.model import load_model

    m = load_model("models/ens2005.game", {"N": 3, "n": 5, "K": 20, "r": 6, "u0": 0})
    auto = SymbolicGame(m.game, "cudd", order="auto")
    fixed = SymbolicGame(m.game, "cudd", order="slots")
    before = (auto.encoder.bit_order, tuple(auto.encoder.slot_order))
    c = (1, 1, 9, 3, 4, 7)
    assert auto.successors(c).tuples() == fixed.successors(c).tuples()
    assert auto.order_probe == {} and auto._layout_pending
    tau = auto.successors(c)
    pre = auto.pre_exists({1}, tau)
    assert not auto._layout_pending and len(auto.order_probe) >= 2, auto.order_probe
    # (3, 5, 20): the measure moves the manager out of the encoder's declaration order
    assert (auto.encoder.bit_order, tuple(auto.encoder.slot_order)) != before, auto.order_probe
    # a set made before the shuffle still means the same positions
    assert tau.tuples() == fixed.successors(c).tuples()
    assert pre.tuples() == fixed.pre_exists({1}, fixed.successors(c)).tuples()
    assert auto.settle_layout() is auto.order_probe  # once only


def test_layout_probe_skips_a_large_full_delta_and_measures_each_order_once():
    """The probe shuffles δ's parts with their source factors conjoined: past
    PROBE_MAX_NODES of them it measures nothing (Connect Four's compact model, 4 × 5:
    shuffling them cost 12 s of a 3 s solve), and it measures each variable order once
    (with one bit per slot, the sliced layouts are the slot ones)."""
    from symbolic.bdd.probe import PROBE_MAX_NODES
    from symbolic.model import load_model

    m = load_model("models/connect4-compact.game", {"w": 4, "h": 5})
    G = SymbolicGame(m.game, "cudd", order="auto")
    full = G.manager.shared_size([r for _, r in G.transitions().full()])
    assert full > PROBE_MAX_NODES, full
    assert G.settle_layout() == {}
    cands = G._layout_candidates()
    orders = [tuple(G.encoder.layout(kind, seq)) for kind, seq in cands]
    assert len(set(orders)) == len(orders) == 3, cands


# ---------------------------------------------------------------- source factors of guards


def _all_moves(G):
    return sorted((c, d) for c in G.positions().tuples() for d in G.successors(c).tuples())


def test_parameter_free_guard_conjuncts_become_a_source_factor(backend):
    from symbolic.explicit import ExplicitGame

    sp = Space((VarDecl("k", IntType(0, 3)), VarDecl("a", IntType(0, 1), IntType(1, 3))))
    k, i = Var("k"), Name("i")
    # `k <= 2` mentions no parameter: kept out of the relation, conjoined at each step
    mv = Move(
        "set",
        (Param("i", (1, 2, 3)),),
        guard=(k <= 2) & Elem("a", i).eq(0),
        effect=Elem("a", i, primed=True).eq(1) & Var("k", True).eq(k + 1),
    )
    game = Game("g", sp, (1,), Const(1), (mv,))
    G = SymbolicGame(game, backend)
    assert list(G.bdd_sizes()["source factors"]) == ["set"], G.bdd_sizes()
    ref = ExplicitGame(game)
    assert _all_moves(G) == _all_moves(ref)
    assert G.successors((3, 0, 0, 0)).is_empty() and G.successors((2, 0, 1, 1)).tuples() == [
        (3, 1, 1, 1)
    ]
    everything = G.positions()
    assert G.moves_between(everything, everything).count() == len(_all_moves(ref))
    assert G.post(G.from_tuples([(0, 0, 0, 0)])).tuples() == [
        (1, 0, 0, 1),
        (1, 0, 1, 0),
        (1, 1, 0, 0),
    ]
    mono = SymbolicGame(game, backend, partition="monolithic")
    assert _all_moves(mono) == _all_moves(ref) and mono.bdd_sizes()["source factors"] == {}


def test_a_guard_whose_parts_can_fail_keeps_its_evaluation_order(backend):
    from symbolic.explicit import ExplicitGame

    sp = Space((VarDecl("k", IntType(0, 3)), VarDecl("a", IntType(0, 1), IntType(1, 3))))
    k, i = Var("k"), Name("i")
    # a[k] is outside a[1..3] at k = 0, but `k >= i` (i ≥ 1) is false there and comes
    # first: no error in the model's semantics. Compiling `a[k] = 0` alone would
    # meet one, so this guard is not split.
    mv = Move(
        "m",
        (Param("i", (1, 2)),),
        guard=(k >= i) & Elem("a", k).eq(0),
        effect=Var("k", True).eq(k - i),
    )
    game = Game("g", sp, (1,), Const(1), (mv,))
    G = SymbolicGame(game, backend)
    assert G.bdd_sizes()["source factors"] == {}
    assert _all_moves(G) == _all_moves(ExplicitGame(game))


# ------------------------------------------------------------------ relational products in pieces


@pytest.mark.parametrize("backend", BACKENDS)
def test_products_split_into_pieces_give_the_same_sets(backend, monkeypatch):
    """Once a relational product is slow, its part of δ is split by the first slot its
    moves change (so that Ctrl-C and --timeout act between pieces): the pieces are
    disjoint, their union is the part, and every pre-image and fixpoint is unchanged."""
    from symbolic import atl
    from symbolic.bdd import relation
    from symbolic.model import load_model

    model = load_model("models/nim.game", {"n": 3, "K": 5})
    whole = SymbolicGame(model.game, backend)
    monkeypatch.setattr(relation, "_SPLIT_AFTER", -1.0)  # every product counts as slow
    split = SymbolicGame(model.game, backend)
    results = [
        [atl.Evaluator(g, model.definitions)(q.formula).tuples() for q in model.queries]
        for g in (whole, split)
    ]
    assert results[0] == results[1], [len(r) for r in results[0]]
    if split.manager.interruptible_products:  # oxidd: interrupted in its worker thread
        assert not split.products.pieces, len(split.products.pieces)
        return
    assert split.products.pieces, "no part was split"
    m = split.manager
    for r, pieces in split.products.pieces.items():
        assert len(pieces) >= 2, len(pieces)
        assert m.disj(pieces) == r
        for a in range(len(pieces)):
            for b in range(a + 1, len(pieces)):
                assert m.is_false(m.and_(pieces[a], pieces[b])), (a, b)


# ------------------------------------------------------------------ until chained by mover


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "params",
    [{"N": 3, "n": 3, "K": 7}, {"N": 2, "n": 2, "K": 9}, {"N": 4, "n": 2, "K": 5, "u0": 42}],
)
def test_chained_until_is_the_plain_least_fixpoint(backend, params):
    """until without layers runs rounds chained mover by mover: on ENS Nim, for F({1})'s
    until and F({1, 2})'s, both dead-end conventions, the same set as the step-by-step
    fixpoint (keep_layers) and as the explicit engine, in fewer rounds than steps."""
    from symbolic.engines import make_engine
    from symbolic.model import load_model

    model = load_model("models/ens2005.game", {"r": 6, "u0": 0, **params})
    sym = SymbolicGame(model.game, backend)
    exp = make_engine(model.game, "explicit")
    N = params["N"]
    assert sym._chain_order() == [1] + list(range(N, 1, -1))  # against the turn order
    for J in ({1}, {1, 2}):
        sets = []
        for eng in (sym, exp):
            # F(J): σ = a move exists, τ = someone outside J to move and stuck
            stuck = eng.deadlocks()
            sets.append((eng, ~stuck, ~eng.turn_set(J) & stuck))
        for conv in DeadEnds:
            (s, s_stay, s_tau), (e, e_stay, e_tau) = sets
            chained = s.until(J, s_stay, s_tau, dead_ends=conv)
            steps = s.until(J, s_stay, s_tau, dead_ends=conv, keep_layers=True)
            ref = e.until(J, e_stay, e_tau, dead_ends=conv)
            assert chained.result == steps.result, (J, conv, chained.result, steps.result)
            assert chained.result.tuples() == ref.result.tuples(), (J, conv)
            assert chained.iterations <= steps.iterations, (chained.iterations, steps.iterations)
            assert chained.iterations < steps.iterations or steps.iterations <= 1, (J, conv)


# ------------------------------------------------------------------ the engines' parts (issue 33)

SYMBOLIC_ENGINE_MODULES = sorted(
    [p for p in (ROOT / "symbolic" / "bdd").glob("*.py")]
    + [p for p in (ROOT / "symbolic" / "gdl").glob("symbolic*.py")]
    + [ROOT / "symbolic" / "gdl" / "invariant.py"]
)


@pytest.mark.parametrize("path", SYMBOLIC_ENGINE_MODULES, ids=lambda p: p.name)
def test_symbolic_engines_neither_skip_an_init_nor_borrow_a_method(path):
    """Every symbolic engine initialises its bases through ``super().__init__`` (never
    ``Base.__init__(self, ...)``, which let GdlSymbolicGame skip SymbolicGame's and
    re-create its private fields), and no class body assigns another class's method
    (GdlSymbolicConcurrentGame took six of SymbolicConcurrentGame's that way)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
            and isinstance(node.func.value, ast.Name)
        ):
            bad.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if (
                    isinstance(stmt, ast.Assign)
                    and isinstance(stmt.value, ast.Attribute)
                    and isinstance(stmt.value.value, ast.Name)
                    and stmt.value.value.id[:1].isupper()
                ):
                    bad.append(f"line {stmt.lineno}: {node.name}: {ast.unparse(stmt)}")
    assert bad == [], bad


@pytest.mark.parametrize("kif", ["models/gdl/nim1.kif", "tests/gdl/pennies.kif"])
def test_a_field_added_to_the_base_reaches_the_gdl_engines(kif, monkeypatch):
    """A private field that the turn-based base (or the sets below it) starts to
    initialise is there in both GDL engines, turn-based and concurrent."""
    from symbolic.bdd import turnbased
    from symbolic.engines import make_engine
    from symbolic.model import load_model

    for base in (turnbased.TurnBasedGame, SymbolicSets):
        init = base.__init__

        def with_field(self, *args, _init=init, _base=base, **kw):
            _init(self, *args, **kw)
            setattr(self, f"_new_field_of_{_base.__name__}", True)

        monkeypatch.setattr(base, "__init__", with_field)
    eng = make_engine(load_model(kif).game, "symbolic")
    assert eng._new_field_of_TurnBasedGame and eng._new_field_of_SymbolicSets, type(eng)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 8), st.integers(0, 8)), min_size=1, max_size=6),
    st.integers(0, 5),
)
def test_the_probe_skips_only_layouts_that_cannot_be_chosen(measures, which):
    """The probe's bounded measurement (LayoutProbe._measure_bounded) chooses what
    measuring every candidate chooses: the first of the smallest, or the initial layout
    within PROBE_MARGIN of it; a layout's size is its δ's plus the probe sets'."""
    from symbolic.bdd.probe import PROBE_MARGIN, LayoutProbe

    candidates = [("slots", (i,)) for i in range(len(measures))]  # (kind, slot sequence)
    by_delta = {c: d for c, (d, _) in zip(candidates, measures)}
    full = {c: d + extra for c, (d, extra) in zip(candidates, measures)}
    initial = candidates[which % len(candidates)]
    current = {}

    class Scratch:
        @staticmethod
        def shared_size(nodes):
            return full[current["layout"]]

    def layout(kind, seq):
        current["layout"] = (kind, seq)

    def choose(sizes):
        best = min(sizes, key=lambda c: (sizes[c], candidates.index(c)))
        if initial in sizes and sizes[best] * PROBE_MARGIN > sizes[initial]:
            best = initial
        return best

    got = LayoutProbe._measure_bounded(candidates, by_delta, initial, layout, Scratch, [])
    assert all(got[c] == full[c] for c in got), (got, full)
    assert choose(got) == choose(full), (got, full, initial)
