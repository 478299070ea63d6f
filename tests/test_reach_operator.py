"""``reach(F)``: the positions reachable from [[F]] (the image fixpoint of the
reachability-games TD), from model text, on every engine; ``reach`` is not a
keyword: a model's own set or formula of that name wins."""

from __future__ import annotations

import pytest

from symbolic.api import reachable
from symbolic import atl
from symbolic.errors import WrongType
from symbolic.model import load_model, parse_model

from .conftest import build_engine

LINE = """
players 1, 2
var j : 1..2
var k : 0..6
turn j
move take(t in 1..2) when t <= k then k' = k - t; j' = 3 - j
set start = j = 1 and k = 4
"""


def test_reach_parses_to_a_reach_node():
    m = parse_model(LINE)
    f = m.formula("reach(start)")
    assert f == atl.Reach(atl.Ref("start")), f
    assert isinstance(m.formula("reach(start) and not <<1>> X true"), atl.BoolOp)
    assert isinstance(m.formula("reach(<<1>> X k = 0)"), atl.Reach)


def test_reach_from_a_position(engine_kind):
    m = parse_model(LINE)
    e = build_engine(m.game, engine_kind)
    got = atl.evaluate(e, m.formula("reach(start)"), m.definitions).tuples()
    # from (1, 4): player 1 leaves 3 or 2, player 2 then 2, 1 or 0, player 1 1 or 0
    expected = (
        {(1, 4)} | {(2, k) for k in (2, 3)} | {(1, k) for k in (0, 1, 2)} | {(2, k) for k in (0, 1)}
    )
    assert got == sorted(expected), got
    # the image fixpoint through the API, with its layers (moves)
    fp = reachable(e, e.from_tuples([(1, 4)]), keep_layers=True)
    assert [len(x) for x in fp.layers] == [1, 3, 6, 8] and fp.iterations == 3


def test_reach_on_shipped_models_agrees_across_engines():
    m = load_model("models/tictactoe.game")
    results = {
        k: atl.evaluate(
            build_engine(m.game, k), m.formula("reach(empty) and win(1)"), m.definitions
        )
        for k in ("explicit", "cudd")
    }
    assert results["explicit"].tuples() == results["cudd"].tuples()
    assert len(results["cudd"]) == 626  # boards won by 'O' in play from the empty board


def test_a_model_may_name_a_set_reach():
    m = parse_model(LINE + "set reach = k = 0\nquery reach\n")
    assert m.queries[0].formula == atl.Ref("reach")


def test_reach_takes_one_formula():
    m = parse_model(LINE)
    with pytest.raises(WrongType, match="reach takes one formula"):
        m.formula("reach(start, start)")
    with pytest.raises(WrongType, match="formula cannot be used as a value"):
        m.formula("reach(start) + 1 = 2")
