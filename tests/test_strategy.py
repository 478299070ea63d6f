"""Strategies (symbolic.analysis.strategy) on every engine: tables and relations read from
the until layers and the release fixpoint, checked by the independent play search
(verify), and the TD's tools: number of positional strategies (Q2), execution of
two strategies (Q4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.api import DeadEnds, reachable
from symbolic.bdd.engine import BddRelation
from symbolic.explicit.engine import ExplicitRelation
from symbolic.seeds.games import arena, subtraction
from symbolic.analysis.strategy import (
    IllegalMove,
    count_strategies,
    execute,
    reach_strategy,
    release_strategy,
    strategy_for,
    to_dot,
    to_json,
    verify,
)

from .conftest import all_engines, build_engine
from .strategies import bool_exprs, coalitions, games

# The TD's example arena (models/td_example.arena.json): 0 is the initial state,
# 5 is player 1's objective, 6 player 2's.
TD = arena(
    {0: 1, 1: 2, 2: 1, 3: 2, 4: 2, 5: 1, 6: 2},
    [
        (0, 1),
        (0, 4),
        (1, 2),
        (1, 6),
        (2, 3),
        (2, 5),
        (3, 2),
        (3, 6),
        (4, 3),
        (4, 5),
        (5, 5),
        (6, 6),
    ],
    name="td",
)


def states(ps):
    return sorted(t[0] for t in ps.tuples())


def test_td_attractor_strategy_of_player_2(engine_kind):
    e = build_engine(TD, engine_kind)
    s = reach_strategy(e, {2}, e.positions(), e.from_tuples([(6,)]), DeadEnds.STRICT)
    assert states(s.region) == [0, 1, 3, 4, 6]
    assert [states(layer) for layer in s.layers] == [[6], [1, 3, 6], [1, 3, 4, 6], [0, 1, 3, 4, 6]]
    assert {c[0]: d[0] for c, d in s.table().items()} == {1: 6, 3: 6, 4: 3}
    assert {c[0]: s.rank(c) for c in s.region} == {0: 3, 1: 1, 3: 1, 4: 2, 6: 0}
    assert s.rank((2,)) is None
    v = verify(e, s.objective, s.table(), e.from_tuples([(0,)]))
    assert v.ok and v.longest == {(0,): 3}, v
    # player 1 has no winning strategy from 0 (TD Q11)
    s1 = reach_strategy(e, {1}, e.positions(), e.from_tuples([(5,)]), DeadEnds.STRICT)
    assert states(s1.region) == [2, 5]
    assert {c[0]: d[0] for c, d in s1.table().items()} == {2: 5}


def test_the_relation_is_a_bdd_on_the_symbolic_engine(engine_kind):
    e = build_engine(TD, engine_kind)
    s = reach_strategy(e, {2}, e.positions(), e.from_tuples([(6,)]), DeadEnds.STRICT)
    kind = ExplicitRelation if engine_kind == "explicit" else BddRelation
    assert isinstance(s.relation, kind)
    # all the rank-lowering moves: from 4 (rank 2) only to 3 (rank 1); 5 is not in the region
    assert [(c[0], d[0]) for c, d in s.relation.pairs()] == [(1, 6), (3, 6), (4, 3)]
    assert s.relation.count() == 3
    assert states(s.relation.sources()) == [1, 3, 4]
    assert states(s.relation.image(e.from_tuples([(1,), (4,)]))) == [3, 6]


def test_verify_rejects_bad_tables(engine_kind):
    e = build_engine(TD, engine_kind)
    s = reach_strategy(e, {2}, e.positions(), e.from_tuples([(6,)]), DeadEnds.STRICT)
    start = e.from_tuples([(0,)])
    # 1 -> 2 hands the play to player 1, who can loop 2 -> 3 -> 2 ... or reach 5
    v = verify(e, s.objective, {(1,): (2,), (3,): (6,), (4,): (3,)}, start)
    assert not v.ok and "loop" in v.reason, v
    v = verify(e, s.objective, {(1,): (6,), (3,): (6,)}, start)
    assert not v.ok and v.position == (4,) and "no move" in v.reason, v
    v = verify(e, s.objective, {(1,): (5,), (3,): (6,), (4,): (3,)}, start)
    assert not v.ok and "not a legal move" in v.reason, v


def test_td_keep_away_strategy(engine_kind):
    # <<1>> [] not Obj2: from 2 player 1 plays 2 -> 5 and loops on 5
    e = build_engine(TD, engine_kind)
    s = release_strategy(e, {1}, e.empty(), ~e.from_tuples([(6,)]), DeadEnds.VACUOUS)
    assert states(s.region) == [2, 5]
    assert {c[0]: d[0] for c, d in s.table().items()} == {2: 5, 5: 5}
    assert verify(e, s.objective, s.table(), s.region).ok
    # a table that walks into 3 lets player 2 reach 6
    v = verify(e, s.objective, {(2,): (3,), (5,): (5,)}, e.from_tuples([(2,)]))
    assert not v.ok and v.position == (6,), v


def test_count_strategies_td_q2(engine_kind):
    e = build_engine(TD, engine_kind)
    assert count_strategies(e, 1) == 4  # 2 choices at 0 and at 2, 1 at 5
    assert count_strategies(e, 2) == 8  # 2 at 1 and at 3 and at 4, 1 at 6


def test_count_strategies_is_exact_beyond_floats(engine_kind):
    # subtraction game with 1..3 matches: 3 moves from every heap of >= 3, for both players
    e = build_engine(subtraction(K=60), engine_kind)
    degrees = e.out_degrees(e.turn_set({1}))
    assert degrees == {0: 1, 1: 1, 2: 1, 3: 58}, degrees
    assert count_strategies(e, 1) == 3**58 * 2


def test_execute_td_q4(engine_kind):
    e = build_engine(TD, engine_kind)
    stop = e.from_tuples([(5,), (6,)])
    s1 = {(0,): (1,), (2,): (3,)}  # the TD's sample strategy of player 1
    s2 = {(1,): (6,), (3,): (6,), (4,): (3,)}
    assert execute(e, (0,), {1: s1, 2: s2}, stop) == [(0,), (1,), (6,)]
    assert execute(e, (0,), {1: {(0,): (4,)}, 2: s2}, stop) == [(0,), (4,), (3,), (6,)]
    # player 2 playing 1 -> 2 and 3 -> 2: a loop 2 -> 3 -> 2, closed by the repeated state
    loop = {(1,): (2,), (3,): (2,), (4,): (3,)}
    assert execute(e, (0,), {1: s1, 2: loop}, stop) == [(0,), (1,), (2,), (3,), (2,)]
    with pytest.raises(IllegalMove, match="not a legal move"):
        execute(e, (0,), {1: {(0,): (2,)}, 2: s2}, stop)
    with pytest.raises(IllegalMove, match="no move at"):
        execute(e, (0,), {1: s1, 2: {}}, stop)


def test_strategy_for_formulas_and_errors(engine_kind):
    from symbolic.model import parse_model

    m = parse_model("""
        players 1, 2
        var j : 1..2
        var k : 0..7
        turn j
        move take(t in 1..3) when t <= k then k' = k - t; j' = 3 - j
        formula wins(p) = <<{p}>> <> (turn(players \\ {p}) and k = 0)
    """)
    e = build_engine(m.game, engine_kind)
    s = strategy_for(e, m.formula("wins(1)"), m.definitions)
    assert s.objective.kind == "reach" and s.objective.coalition == {1}
    # the mover wins iff k mod 4 != 0, by taking k mod 4
    table = s.table(e.turn_set({1}))
    assert {c: d for c, d in table.items() if c[1] > 0} == {
        (1, k): (2, k - k % 4) for k in range(1, 8) if k % 4
    }
    assert verify(e, s.objective, s.table(), s.region).ok
    safe = strategy_for(e, m.formula("<<2>> [] not (turn(2) and k = 0)"), m.definitions)
    assert safe.objective.kind == "safety"
    assert verify(e, safe.objective, safe.table(), safe.region).ok
    from symbolic.errors import QueryError

    with pytest.raises(QueryError, match="until or a release"):
        strategy_for(e, m.formula("<<1>> X k = 0"), m.definitions)


def test_export_json_and_dot():
    e = build_engine(TD, "explicit")
    s = reach_strategy(e, {2}, e.positions(), e.from_tuples([(6,)]), DeadEnds.STRICT)
    start = e.from_tuples([(0,)])
    doc = to_json(s, start)
    assert doc["coalition"] == [2] and doc["objective"] == "reach"
    assert [p["position"]["s"] for p in doc["positions"]] == [0, 1, 3, 4, 6]
    assert [(mv["from"]["s"], mv["to"]["s"]) for mv in doc["moves"]] == [(1, 6), (3, 6), (4, 3)]
    dot = to_dot(s, start)
    assert dot.startswith("digraph strategy {") and dot.rstrip().endswith("}")
    assert '"s=4" -> "s=3" [style=bold];' in dot
    assert '"s=0" -> "s=1";' in dot and '"s=0" -> "s=4";' in dot
    assert '"s=6" [shape=box, label="s=6\\nrank 0", peripheries=2];' in dot


# --------------------------------------------------------------------------- random games

COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def check_case(game, J, sigma, tau, conv) -> tuple[int, int]:
    """Strategies of J for σ U τ and τ R σ on every engine: the explicit engine's
    play search accepts them (reach: within the rank), the engines' relations and
    tables are equal, and so are post, reach, out-degrees and strategy counts.
    Returns the numbers of moves of the two strategies (to see the case was not empty)."""
    ref, *syms = all_engines(game)
    r = reach_strategy(ref, J, ref.from_tuples(sigma), ref.from_tuples(tau), conv)
    w = release_strategy(ref, J, ref.from_tuples(tau), ref.from_tuples(sigma), conv)
    v = verify(ref, r.objective, r.table(), r.region)
    assert v.ok, v
    assert all(v.longest[c] <= r.rank(c) for c in v.longest), (v.longest, r.layers)
    vw = verify(ref, w.objective, w.table(), w.region)
    assert vw.ok, vw
    pairs = {"reach": r.relation.pairs(), "release": w.relation.pairs()}
    tables = {"reach": r.table(), "release": w.table()}
    start = ref.from_tuples(ref.positions().tuples()[::3])
    for s in syms:
        rs = reach_strategy(s, J, s.from_tuples(sigma), s.from_tuples(tau), conv)
        ws = release_strategy(s, J, s.from_tuples(tau), s.from_tuples(sigma), conv)
        assert rs.relation.pairs() == pairs["reach"], s
        assert ws.relation.pairs() == pairs["release"], s
        # the symbolic pick (bit by bit) chooses the same move as the explicit minimum
        assert rs.table() == tables["reach"] and ws.table() == tables["release"], s
        # the symbolic engine's table passes the explicit engine's search
        assert verify(ref, r.objective, rs.table(), r.region).ok
        assert rs.outcome(s.convert(start)).tuples() == r.outcome(start).tuples()
        for p in game.players:
            assert s.out_degrees(s.turn_set({p})) == ref.out_degrees(ref.turn_set({p}))
            assert count_strategies(s, p) == count_strategies(ref, p)
        assert s.post(s.from_tuples(sigma)).tuples() == ref.post(ref.from_tuples(sigma)).tuples()
        assert (
            reachable(s, s.from_tuples(tau)).result.tuples()
            == reachable(ref, ref.from_tuples(tau)).result.tuples()
        )
    return len(pairs["reach"]), len(pairs["release"])


def random_arena(rng: random.Random):
    """2-12 states, 1-3 players (each controls a state), up to 3n random edges."""
    n = rng.randint(2, 12)
    k = rng.randint(1, 3)
    controller = {i: rng.randint(1, k) for i in range(n)}
    controller[0], controller[n - 1] = 1, k
    edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(1, 3 * n))]
    return arena(controller, edges, name=f"arena{n}")


def test_random_arenas_strategies_agree_and_win():
    rng = random.Random(20261123)
    nonempty = [0, 0]
    cases = 50
    for _ in range(cases):
        game = random_arena(rng)
        states_ = list(range(game.space.slots[0].type.hi + 1))
        J = frozenset(rng.sample(game.players, rng.randint(1, len(game.players))))
        sigma = [(i,) for i in states_ if rng.random() < 0.8]
        tau = [(i,) for i in rng.sample(states_, rng.randint(1, min(3, len(states_))))]
        moves = check_case(game, J, sigma, tau, rng.choice(list(DeadEnds)))
        nonempty = [a + (b > 0) for a, b in zip(nonempty, moves)]
    # most cases had moves to check
    assert min(nonempty) >= cases // 3, nonempty


@settings(max_examples=25, **COMMON)
@given(st.data())
def test_random_games_strategies_agree_and_win(data):
    game = data.draw(games(), label="game")
    J = atl.coalition_value(data.draw(coalitions(game.players), label="J"), game.players, {})
    conv = data.draw(st.sampled_from(list(DeadEnds)), label="dead ends")
    ref = build_engine(game, "explicit")
    sigma = ref.from_expr(data.draw(bool_exprs(game.space, (), 1), label="sigma")).tuples()
    tau = ref.from_expr(data.draw(bool_exprs(game.space, (), 1), label="tau")).tuples()
    check_case(game, J, sigma, tau, conv)
