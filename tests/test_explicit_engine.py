"""The explicit engine (symbolic.explicit.engine): sets, δ, pre∃ / pre∀ under both
dead-end conventions, until layers and always, on hand-made games with values
computed by hand, and on random games against naive transcriptions of the
definitions written here (δ by enumerating every c', fixpoints by iterating
set formulas)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl, ir
from symbolic.api import DeadEnds, always, attractor, greatest_fixpoint, least_fixpoint
from symbolic.errors import EngineMismatch, ModelError, QueryError, RangeError, WrongType
from symbolic.explicit import ExplicitGame, ExplicitSets
from symbolic.ir import BoolType, Const, Elem, Game, IntType, Move, Name, Param, Space, Var, VarDecl

from .strategies import coalitions, games
from .test_explicit_interp import naive_eval

V, S = DeadEnds.VACUOUS, DeadEnds.STRICT


def tuples(s):
    return sorted(s.tuples())


# --------------------------------------------------------------------------- sets


def test_pythagorean_triples_by_brute_force():
    space = Space(tuple(VarDecl(v, IntType(0, 10)) for v in "xyz"))
    E = ExplicitSets(space)
    x, y, z = Var("x"), Var("y"), Var("z")
    A = E.from_expr((x * x + y * y).eq(z * z))
    want = [
        (a, b, c) for a in range(11) for b in range(11) for c in range(11) if a * a + b * b == c * c
    ]
    assert len(A) == len(want) == 25, (len(A), len(want))
    assert A.tuples() == want
    assert (3, 4, 5) in A and {"x": 6, "y": 8, "z": 10} in A and (1, 1, 1) not in A


def test_set_operations_iteration_order_and_equality():
    E = ExplicitSets(Space((VarDecl("x", IntType(-1, 2)), VarDecl("b", BoolType()))))
    a = E.from_tuples([(2, 1), (-1, 0), (0, 1)])
    b = E.from_tuples([{"x": 0, "b": 1}, (1, 1)])
    assert list(a) == [(-1, 0), (0, 1), (2, 1)] and a.first() == (-1, 0)
    assert tuples(a | b) == [(-1, 0), (0, 1), (1, 1), (2, 1)]
    assert tuples(a & b) == [(0, 1)]
    assert tuples(a - b) == [(-1, 0), (2, 1)]
    assert len(~a) == 8 - 3 and (~a & a).is_empty() and (~a | a) == E.positions()
    assert a == E.from_tuples(reversed(a.tuples())) and a != b
    assert (a & b) <= a and not a <= b
    assert a.dicts()[0] == {"x": -1, "b": 0}
    assert E.empty().first() is None and len(E.singleton((1, 0))) == 1


def test_complement_within_the_invariant():
    space = Space((VarDecl("x", IntType(0, 4)), VarDecl("y", IntType(0, 4))))
    E = ExplicitSets(space, invariant=Var("x") < Var("y"))
    assert len(E.positions()) == 10
    diag = E.from_expr((Var("y") - Var("x")).eq(1))
    assert tuples(diag) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    comp = ~diag
    assert len(comp) == 6 and all(x < y and y - x != 1 for x, y in comp), tuples(comp)
    assert E.from_expr(ir.TRUE) == E.positions() and E.from_expr(ir.FALSE) == E.empty()


def test_from_tuples_validates_positions():
    space = Space((VarDecl("x", IntType(0, 4)), VarDecl("y", IntType(0, 4))))
    E = ExplicitSets(space, invariant=Var("x") < Var("y"))
    with pytest.raises(RangeError):
        E.from_tuples([(0, 5)])
    with pytest.raises(RangeError):
        E.from_tuples([(0, 1, 2)])
    with pytest.raises(RangeError, match="invariant"):
        E.from_tuples([(3, 1)])
    with pytest.raises(WrongType):
        E.from_expr(Var("x") + 1)


def test_mixing_engines_is_an_engine_mismatch():
    space = Space((VarDecl("x", IntType(0, 3)),))
    E1, E2 = ExplicitSets(space), ExplicitSets(space)
    a, b = E1.from_tuples([(1,)]), E2.from_tuples([(1,)])
    for op in (lambda: a | b, lambda: a & b, lambda: a - b, lambda: a == b):
        with pytest.raises(EngineMismatch):
            op()
    assert E1.convert(b) == a and E1.convert(a) is a
    other = ExplicitSets(Space((VarDecl("y", IntType(0, 3)),)))
    with pytest.raises(EngineMismatch):
        other.convert(a)


def test_space_too_large_is_refused_but_single_positions_work():
    space = Space((VarDecl("h", IntType(0, 100), IntType(1, 6)),))
    take = Move(
        "take",
        (Param("i", (1, 2, 3, 4, 5, 6)),),
        Elem("h", Name("i")) >= 1,
        Elem("h", Name("i"), primed=True).eq(Elem("h", Name("i")) - 1),
    )
    G = ExplicitGame(Game("big", space, (1,), Const(1), (take,)))
    assert tuples(G.successors((0, 0, 5, 0, 0, 1))) == [(0, 0, 4, 0, 0, 1), (0, 0, 5, 0, 0, 0)]
    with pytest.raises(QueryError, match="limit"):
        G.positions()


# --------------------------------------------------------------------------- subtraction game


def subtraction_game(K=10):
    """Heap k in 0..K, players 1 and 2 alternate through j, a move takes 1 to 3."""
    space = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, K))))
    t = Name("t")
    take = Move(
        "take",
        (Param("t", (1, 2, 3)),),
        Var("k") >= t,
        Var("k", primed=True).eq(Var("k") - t) & Var("j", primed=True).eq(Const(3) - Var("j")),
    )
    return Game("subtraction", space, (1, 2), Var("j"), (take,))


@pytest.fixture(scope="module")
def sub():
    return ExplicitGame(subtraction_game())


def test_subtraction_delta_by_hand(sub):
    assert tuples(sub.successors((1, 5))) == [(2, 2), (2, 3), (2, 4)]
    assert tuples(sub.successors((2, 2))) == [(1, 0), (1, 1)]
    assert tuples(sub.successors((1, 0))) == []
    assert tuples(sub.deadlocks()) == [(1, 0), (2, 0)]
    assert sub.transitions((2, 2)) == [("take", {"t": 1}, (1, 1)), ("take", {"t": 2}, (1, 0))]
    assert tuples(sub.turn_set({2})) == [(2, k) for k in range(11)]
    assert sub.turn((1, 7)) == 1


def test_subtraction_pre_by_hand(sub):
    assert tuples(sub.pre_exists({1}, sub.from_tuples([(2, 0)]))) == [(1, 1), (1, 2), (1, 3)]
    assert tuples(sub.pre_exists({2}, sub.from_tuples([(2, 0)]))) == []
    one_zero = sub.from_tuples([(1, 0)])
    assert tuples(sub.pre_forall({1}, one_zero, dead_ends=V)) == [(2, 0), (2, 1)]
    assert tuples(sub.pre_forall({1}, one_zero, dead_ends=S)) == [(2, 1)]
    low = sub.from_tuples([(1, 0), (1, 1)])
    assert tuples(sub.pre_forall({1}, low, dead_ends=S)) == [(2, 1), (2, 2)]
    assert tuples(sub.pre({1}, low, dead_ends=V)) == [(2, 0), (2, 1), (2, 2)]
    # J = every player: pre∀ is empty, pre∃ is "can move into τ"
    assert tuples(sub.pre_forall({1, 2}, sub.positions(), dead_ends=V)) == []
    assert len(sub.pre({1, 2}, sub.positions(), dead_ends=V)) == 20


def test_subtraction_until_layers_by_hand(sub):
    lose2 = sub.from_tuples([(2, 0)])  # player 2 to move and stuck
    fp = sub.until({1}, sub.positions(), lose2, dead_ends=V, keep_layers=True)
    new = [tuples(b - a) for a, b in zip(fp.layers, fp.layers[1:])]
    assert new == [
        [(1, 1), (1, 2), (1, 3)],
        [(2, 4)],
        [(1, 5), (1, 6), (1, 7)],
        [(2, 8)],
        [(1, 9), (1, 10)],
    ], new
    assert fp.iterations == 5 and fp.layers[0] == lose2 and fp.result == fp.layers[-1]
    # player 1 wins from (1, k) iff k % 4 != 0
    assert {k for j, k in fp.result if j == 1} == {k for k in range(11) if k % 4}
    # empty target: the opponent's dead end joins at step 1 (vacuous ∀), never with STRICT
    fv = sub.until({1}, sub.positions(), sub.empty(), dead_ends=V, keep_layers=True)
    assert fv.iterations == 6 and tuples(fv.layers[1]) == [(2, 0)] and fv.result == fp.result
    fs = sub.until({1}, sub.positions(), sub.empty(), dead_ends=S, keep_layers=True)
    assert fs.iterations == 0 and fs.result.is_empty() and len(fs.layers) == 1
    assert (
        fp.layers is not None and sub.until({1}, sub.positions(), lose2, dead_ends=V).layers is None
    )


def test_subtraction_until_respects_sigma(sub):
    lose2 = sub.from_tuples([(2, 0)])
    sigma = sub.from_expr(Var("k") <= 5)
    fp = sub.until({1}, sigma, lose2, dead_ends=V)
    assert tuples(fp.result) == [(1, 1), (1, 2), (1, 3), (1, 5), (2, 0), (2, 4)]


def test_subtraction_always_by_hand(sub):
    everything = sub.positions()
    # player 1 can stay forever only by ending at player 2's dead end (vacuous ∀ there)
    win = sub.until({1}, everything, sub.from_tuples([(2, 0)]), dead_ends=V).result
    assert always(sub, {1}, everything, dead_ends=V).result == win
    # with STRICT no dead end is safe, and every play ends
    assert always(sub, {1}, everything, dead_ends=S).result.is_empty()


# --------------------------------------------------------------------------- dead end of an opponent


def arena_game():
    """States 0..4; 0: P1 -> 1, 2;  1: P2 -> 3, 0;  2: P2 (dead end);  3: P1 -> 3;  4: P1 (dead end)."""
    edges = ((0, 1), (0, 2), (1, 3), (1, 0), (3, 3))
    s, e = Var("s"), Name("e")
    edge = Move(
        "edge",
        (Param("e", edges),),
        s.eq(ir.Item(e, Const(0))),
        Var("s", primed=True).eq(ir.Item(e, Const(1))),
    )
    turn = ir.ite(s.eq(1) | s.eq(2), 2, 1)
    return Game("arena", Space((VarDecl("s", IntType(0, 4)),)), (1, 2), turn, (edge,))


@pytest.fixture(scope="module")
def arena():
    return ExplicitGame(arena_game())


def states(*xs):
    return [(x,) for x in xs]


def at(G, *xs):
    return G.from_tuples(states(*xs))


def test_arena_pre_by_hand(arena):
    G = arena
    assert tuples(G.pre_exists({1}, at(G, 2))) == states(0)
    assert tuples(G.pre_forall({1}, at(G, 3), dead_ends=V)) == states(2)
    assert tuples(G.pre_forall({1}, at(G, 3), dead_ends=S)) == []
    assert tuples(G.pre_forall({1}, at(G, 0, 3), dead_ends=S)) == states(1)
    assert tuples(G.pre_forall({2}, G.empty(), dead_ends=V)) == states(4)
    assert tuples(G.deadlocks()) == states(2, 4)


def test_arena_until_by_hand(arena):
    G = arena
    fv = G.until({1}, G.positions(), at(G, 3), dead_ends=V, keep_layers=True)
    assert [tuples(x) for x in fv.layers] == [
        states(3),
        states(2, 3),
        states(0, 2, 3),
        states(0, 1, 2, 3),
    ]
    assert fv.iterations == 3
    fs = G.until({1}, G.positions(), at(G, 3), dead_ends=S, keep_layers=True)
    assert [tuples(x) for x in fs.layers] == [states(3)] and fs.iterations == 0
    # the dead end 2 is outside σ: it may not be crossed
    fsig = G.until({1}, at(G, 0, 1, 3), at(G, 3), dead_ends=V)
    assert tuples(fsig.result) == states(3)
    assert attractor(G, {1}, at(G, 3)).result == fs.result


def test_arena_always_by_hand(arena):
    G = arena
    F = G.from_expr(Var("s").ne(4))
    assert tuples(always(G, {1}, F, dead_ends=V).result) == states(0, 1, 2, 3)
    assert tuples(always(G, {1}, F, dead_ends=S).result) == states(0, 1, 3)
    assert tuples(always(G, {2}, G.positions(), dead_ends=V).result) == states(1, 3, 4)
    assert tuples(always(G, {2}, G.positions(), dead_ends=S).result) == states(1, 3)


def test_query_errors(arena):
    G = arena
    with pytest.raises(QueryError, match="unknown player"):
        G.turn_set({3})
    with pytest.raises(QueryError, match="unknown player"):
        G.pre_exists({1, 7}, G.positions())
    with pytest.raises(QueryError, match="dead_ends"):
        G.pre_forall({1}, G.positions(), dead_ends="vacuous")
    with pytest.raises(RangeError):
        G.successors((5,))
    other = ExplicitGame(arena_game())
    with pytest.raises(EngineMismatch):
        G.until({1}, G.positions(), other.positions(), dead_ends=V)
    with pytest.raises(EngineMismatch):
        always(G, {1}, other.positions(), dead_ends=V)


# --------------------------------------------------------------------------- effects

XYB = Space((VarDecl("x", IntType(0, 3)), VarDecl("y", IntType(0, 3)), VarDecl("b", BoolType())))
xp, yp, bp = Var("x", primed=True), Var("y", primed=True), Var("b", primed=True)
X, Y, B = Var("x"), Var("y"), Var("b")


def succ_of(effect, pos, space=XYB, guard=ir.TRUE, invariant=ir.TRUE, params=()):
    g = Game("g", space, (1,), Const(1), (Move("m", params, guard, effect),), invariant)
    return tuples(ExplicitGame(g).successors(pos))


def test_frame_rule_and_nondeterminism():
    assert succ_of(xp <= X, (2, 1, 0)) == [(0, 1, 0), (1, 1, 0), (2, 1, 0)]
    assert succ_of(ir.TRUE, (2, 1, 1)) == [(2, 1, 1)]  # nothing primed: a self-loop
    assert succ_of(ir.FALSE, (2, 1, 1)) == []
    assert succ_of(xp.eq(yp + 1) & (yp <= 1), (3, 3, 1)) == [(1, 0, 1), (2, 1, 1)]
    assert succ_of((yp + 1).eq(xp) & (yp <= 1), (3, 3, 1)) == [(1, 0, 1), (2, 1, 1)]
    # a disjunction primes both: x' = 1 with any y', or y' = 2 with any x'
    got = succ_of(xp.eq(1) | yp.eq(2), (0, 0, 0))
    assert got == sorted({(1, v, 0) for v in range(4)} | {(v, 2, 0) for v in range(4)}), got


def test_solved_candidates_are_checked_against_the_whole_effect():
    assert succ_of(xp.eq(1) & xp.eq(2), (0, 0, 0)) == []
    assert succ_of(xp.eq(Y) & (xp < 2), (0, 3, 0)) == []
    assert succ_of(xp.eq(Y) & (xp < 2), (0, 1, 0)) == [(1, 1, 0)]
    assert succ_of(xp.eq(yp) & yp.eq(X + 1) & xp.ne(2), (1, 0, 0)) == []
    assert succ_of(xp.eq(yp) & yp.eq(X + 1) & xp.ne(2), (0, 0, 0)) == [(1, 1, 0)]


def test_bool_effects():
    assert succ_of(bp.iff(~B), (1, 1, 0)) == [(1, 1, 1)]
    assert succ_of(bp, (1, 1, 0)) == [(1, 1, 1)]
    assert succ_of(~bp, (1, 1, 1)) == [(1, 1, 0)]
    assert succ_of(bp.eq(X > 1) & xp.eq(0), (2, 0, 0)) == [(0, 0, 1)]


def test_out_of_range_and_invariant_successors_are_dropped():
    assert succ_of(xp.eq(X + 1), (3, 0, 0)) == []
    assert succ_of(xp.eq(X + 1), (2, 0, 0)) == [(3, 0, 0)]
    assert succ_of(xp >= 0, (0, 2, 0), invariant=X <= Y) == [(0, 2, 0), (1, 2, 0), (2, 2, 0)]
    with pytest.raises(RangeError, match="invariant"):
        succ_of(xp >= 0, (3, 2, 0), invariant=X <= Y)


def test_array_shift_with_a_guarded_out_of_range_element():
    space = Space((VarDecl("a", IntType(0, 9), IntType(1, 3)),))
    # a'[i+1] == a[i] for i < 3; a'[4] appears only where i < 3 is false: never primed, never read
    eff = ir.forall(
        "i", (1, 2, 3), lambda i: (i < 3).implies(Elem("a", i + 1, primed=True).eq(Elem("a", i)))
    )
    assert succ_of(eff, (4, 5, 6), space) == [(4, 4, 5)]


def test_equation_errors_fall_back_to_the_definition():
    space = Space(
        (
            VarDecl("x", IntType(0, 3)),
            VarDecl("y", IntType(0, 9)),
            VarDecl("a", IntType(0, 9), IntType(1, 3)),
        )
    )
    guarded = (X >= 1) & yp.eq(Elem("a", X))
    assert succ_of(guarded, (0, 5, 1, 2, 3), space) == []
    assert succ_of(guarded, (2, 5, 1, 2, 3), space) == [(2, 2, 1, 2, 3)]
    with pytest.raises(RangeError):
        succ_of(yp.eq(Elem("a", X)), (0, 5, 1, 2, 3), space)


def test_parameters_and_guards():
    d = Name("d")
    got = succ_of(xp.eq(X - d), (2, 0, 0), guard=X >= d, params=(Param("d", (1, 2, 3)),))
    assert got == [(0, 0, 0), (1, 0, 0)], got


def test_ill_formed_games():
    turn3 = Game("g", XYB, (1, 2), Const(3), ())
    with pytest.raises(ModelError, match="not a player"):
        ExplicitGame(turn3).turn_set({1})
    with pytest.raises(WrongType, match="turn"):
        ExplicitGame(Game("g", XYB, (1,), B, ()))
    with pytest.raises(WrongType, match="guard"):
        ExplicitGame(Game("g", XYB, (1,), Const(1), (Move("m", (), X, ir.TRUE),)))
    with pytest.raises(ModelError, match="outside a move's effect"):
        ExplicitGame(Game("g", XYB, (1,), Const(1), (Move("m", (), xp.eq(1), ir.TRUE),)))
    with pytest.raises(ModelError, match="constant"):
        ExplicitGame(
            Game(
                "g",
                Space((VarDecl("a", IntType(0, 1), IntType(0, 1)),)),
                (1,),
                Const(1),
                (Move("m", (), ir.TRUE, Elem("a", Elem("a", Const(0)), primed=True).eq(0)),),
            )
        )


# --------------------------------------------------------------------------- random games


def naive_primed(e, space, env):
    """The slots primed in ``e`` once quantifiers and sums are expanded (symbolic.ir's frame rule)."""
    out = set()
    if isinstance(e, Var) and e.primed:
        out.add(space.slot_index(e.name))
    elif isinstance(e, Elem) and e.primed:
        i = naive_eval(e.index, space, None, None, env)
        d = space.decl(e.array)
        if d.index.lo <= i <= d.index.hi:
            out.add(space.slot_index(e.array, i))
    if isinstance(e, (ir.Quant, ir.Sum)):
        for v in e.domain:
            out |= naive_primed(e.body, space, {**env, e.var: v})
    else:
        for c in ir.children(e):
            out |= naive_primed(c, space, env)
    return out


def naive_delta(game, domain, c):
    """δ(c) by the definition: every c' of the domain, the frame rule, the effect."""
    space, out = game.space, set()
    for m in game.moves:
        names = [p.name for p in m.params]
        for vals in itertools.product(*(p.domain for p in m.params)):
            env = dict(zip(names, vals))
            if not naive_eval(m.guard, space, c, None, env):
                continue
            framed = [s for s in range(len(c)) if s not in naive_primed(m.effect, space, env)]
            for c2 in domain:
                if all(c2[s] == c[s] for s in framed) and naive_eval(m.effect, space, c, c2, env):
                    out.add(c2)
    return out


def naive_pre(domain, delta, turn, J, X, conv):
    return {
        c
        for c in domain
        if (turn[c] in J and delta[c] & X)
        or (turn[c] not in J and delta[c] <= X and (delta[c] or conv is V))
    }


RANDOM = dict(deadline=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=120, **RANDOM)
@given(st.data())
def test_random_games_delta_matches_the_definition(data):
    game = data.draw(games(), label="game")
    G = ExplicitGame(game)
    space = game.space
    everything = list(itertools.product(*(s.type.values() for s in space.slots)))
    domain = [c for c in everything if naive_eval(game.invariant, space, c)]
    assert G.positions().tuples() == domain
    fresh = ExplicitGame(game)  # successors computed one position at a time
    for c in domain[:: max(1, len(domain) // 6)]:
        want = naive_delta(game, domain, c)
        assert set(fresh.successors(c)) == want, (c, sorted(fresh.successors(c)), sorted(want))
        assert set(G.successors(c)) == want
    G.index_graph()
    for c in domain[:: max(1, len(domain) // 6)]:  # now through the built graph
        assert set(G.successors(c)) == set(fresh.successors(c)), c


@settings(max_examples=80, **RANDOM)
@given(st.data())
def test_random_games_fixpoints_match_naive_iteration(data):
    game = data.draw(games(), label="game")
    G = ExplicitGame(game)
    J = atl.coalition_value(data.draw(coalitions(game.players), label="J"), game.players, {})
    domain = G.positions().tuples()
    delta = {c: set(G.successors(c)) for c in domain}
    turn = {c: naive_eval(game.turn, game.space, c) for c in domain}
    assert set(G.turn_set(J)) == {c for c in domain if turn[c] in J}
    pick = st.sets(st.sampled_from(domain)) if domain else st.just(set())
    sigma, tau, F = (data.draw(pick, label=n) for n in ("sigma", "tau", "F"))
    for conv in DeadEnds:
        X = G.from_tuples(tau)
        assert set(G.pre(J, X, dead_ends=conv)) == naive_pre(domain, delta, turn, J, tau, conv)
        assert set(G.pre_exists(J, X)) == naive_pre(domain, delta, turn, J, tau, conv) & {
            c for c in domain if turn[c] in J
        }

        naive = least_fixpoint(
            lambda x: x | (naive_pre(domain, delta, turn, J, x, conv) & sigma),
            frozenset(tau),
            keep_layers=True,
        )
        got = G.until(J, G.from_tuples(sigma), X, dead_ends=conv, keep_layers=True)
        assert got.iterations == naive.iterations, (conv, got.iterations, naive.iterations)
        assert [set(x) for x in got.layers] == [set(x) for x in naive.layers], conv

        gfp = greatest_fixpoint(
            lambda z: frozenset(F) & naive_pre(domain, delta, turn, J, z, conv), frozenset(F)
        )
        alw = always(G, J, G.from_tuples(F), dead_ends=conv)
        assert set(alw.result) == set(gfp.result), (conv, sorted(alw.result), sorted(gfp.result))
        assert alw.iterations == gfp.iterations, (conv, alw.iterations, gfp.iterations)

        # release(J, σ, F) = νZ. F ∩ (σ ∪ pre(J, Z)) from Z₀ = F
        gfp = greatest_fixpoint(
            lambda z: (
                frozenset(F) & (frozenset(sigma) | naive_pre(domain, delta, turn, J, z, conv))
            ),
            frozenset(F),
        )
        rel = G.release(J, G.from_tuples(sigma), G.from_tuples(F), dead_ends=conv)
        assert set(rel.result) == set(gfp.result), (conv, sorted(rel.result), sorted(gfp.result))
        assert rel.iterations == gfp.iterations, (conv, rel.iterations, gfp.iterations)


def test_too_many_edges_are_refused_before_enumeration():
    """nim n=4 K=36 exhausted memory after 550 s; the edge bound refuses it at once."""
    from pathlib import Path

    from symbolic.errors import QueryError
    from symbolic.model import load_model

    m = load_model(Path(__file__).parent.parent / "models" / "nim.game", {"n": 4, "K": 36})
    G = ExplicitGame(m.game)
    assert G.edge_bound() == 2 * 37**4 * 4 * 36
    with pytest.raises(QueryError, match="up to 539758368 edges"):
        G.positions()
    assert G._dom is None  # nothing was enumerated
    small = ExplicitGame(
        load_model(Path(__file__).parent.parent / "models" / "nim.game", {"n": 2, "K": 3}).game,
        max_edges=10,
    )
    with pytest.raises(QueryError, match="limit of 10"):
        small.check_size()


# --------------------------------------------------------------------------- concurrent


def test_the_joint_action_table_is_sized_before_it_is_built(capsys):
    """race N=1000 M=10 reached position 768 of 1 002 001 in 100 s building δ(c, a)
    (issue 32): the table's bound, value vectors times joint actions, refuses it at once
    with the turn-based engine's edge limit, exit status 3."""
    from pathlib import Path

    from symbolic.cli import main
    from symbolic.errors import TooManyPositions
    from symbolic.explicit.concurrent import ExplicitConcurrentGame
    from symbolic.model import load_model

    race = Path(__file__).parent.parent / "models" / "race.game"
    G = ExplicitConcurrentGame(load_model(race, {"N": 1000, "M": 10}).game)
    assert G.table_bound() == 1001**2 * 11 * 11, G.table_bound()
    with pytest.raises(TooManyPositions, match="up to 121242121 pairs"):
        G.positions()
    assert G._dom is None and G._table is None  # nothing was enumerated
    status = main(["check", str(race), "-p", "N=1000", "-p", "M=10", "--engine", "explicit"])
    out, err = capsys.readouterr()
    assert (status, out) == (3, ""), (status, out, err)
    assert "joint-action limit reached" in err, err


def test_equations_under_does_give_the_plain_successors():
    """The successors solved from ``does(p, a) implies x' = e`` (issue 32: every primed
    slot was enumerated over its range) are those of the plain definition."""
    from pathlib import Path

    from symbolic.explicit.concurrent import ExplicitConcurrentGame
    from symbolic.model import load_model

    for name, params in (
        ("race.game", {"N": 6, "M": 3}),
        ("rps.game", {"R": 3}),
        ("pennies.game", {}),
        ("train_gate.game", {}),
    ):
        G = ExplicitConcurrentGame(
            load_model(Path(__file__).parent.parent / "models" / name, params).game
        )
        plain = ExplicitConcurrentGame(G.game)
        plain._fixers = [[] for _ in plain._fixers]  # no equations: every range enumerated
        for c in G.positions().tuples():
            assert G.joint_moves(c) == plain.joint_moves(c), (name, c)


def test_a_declared_bound_past_the_limit_is_counted_exactly_when_cheap():
    """Past the limit, a table whose guards are cheap to evaluate everywhere is counted:
    enabled joint actions, not declared ones (a turn-based game read as concurrent has
    one mover per position); past the limit then, refused before δ is built."""
    from pathlib import Path

    from symbolic.errors import TooManyPositions
    from symbolic.explicit.concurrent import ExplicitConcurrentGame
    from symbolic.model import load_model

    race = load_model(Path(__file__).parent.parent / "models" / "race.game", {"N": 3, "M": 2}).game
    # 16 value vectors x 3 x 3 declared joint actions = 144; enabled: 9 positions with
    # a, b > 0 (t <= a and t <= b: 1..2 each), 7 dead ends or rest-only
    enabled = sum(
        min(a, 2) * min(b, 2) if a and b else int(not a or not b)
        for a in range(4)
        for b in range(4)
    )
    G = ExplicitConcurrentGame(race, max_edges=enabled)
    G.check_size()  # 144 > limit, but cheap to count: deferred
    assert len(G.positions()) == 16 and G._build() is not None
    small = ExplicitConcurrentGame(race, max_edges=enabled - 1)
    small.check_size()
    with pytest.raises(TooManyPositions, match=f"has {enabled} pairs"):
        small._build()
    assert small._table is None


def _keyed(game: Game, draw) -> Game:
    """``game`` with some guards given a first conjunct ``x == k`` (k a constant or the
    move's parameter), the form :func:`symbolic.explicit.moves.source_key` indexes."""
    slot = game.space.slots[0]
    x = Var(slot.var) if slot.index is None else None
    moves = []
    for m in game.moves:
        if x is not None and draw(st.booleans()):
            k = Name("p") if m.params and draw(st.booleans()) else Const(draw(st.integers(-1, 4)))
            m = Move(m.name, m.params, x.eq(k) & m.guard, m.effect)
        moves.append(m)
    return Game(game.name, game.space, game.players, game.turn, tuple(moves), game.invariant)


def _outcome(f):
    """f()'s value, or the type and message of the SymbolicError it raised."""
    from symbolic.errors import SymbolicError

    try:
        return f()
    except SymbolicError as err:
        return (type(err).__name__, str(err))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(games(), st.data())
def test_the_plan_table_gives_every_plans_successors(game, data):
    """The successors by the table of keyed plans (only the moves that can fire at a
    position) are those of every plan, errors included, at every value vector."""
    from symbolic.explicit.moves import PlanTable, compile_moves, successors

    game = _keyed(game, data.draw)
    try:
        plans = compile_moves(game)
    except (WrongType, RangeError):
        return  # an ill-typed random guard: not this test's concern
    table = PlanTable(plans)
    member = lambda t: t  # noqa: E731 - every tuple collected, positions or not
    ranges = [s.type.values() for s in game.space.slots]
    for c in itertools.product(*ranges):
        want = _outcome(lambda: successors(plans, c, member))
        assert _outcome(lambda: table.successors(c, member)) == want, (c, want)


def test_an_arena_tries_only_the_edges_of_the_position():
    """Every edge of an arena is keyed by its source: the table holds no plan to try
    everywhere, and one bucket per source state."""
    from pathlib import Path

    from symbolic.explicit.moves import PlanTable
    from symbolic.model import load_model

    model = load_model(Path(__file__).parent.parent / "models" / "td_example.arena.json")
    table = PlanTable(ExplicitGame(model.game)._plans)
    assert table.anywhere == [] and list(table.keyed) == [0], table.keyed
    edges = sum(len(ps) for ps in table.keyed[0].values())
    assert edges == len(table.plans) and len(table.keyed[0]) > 1, table.keyed[0]
