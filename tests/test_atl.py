"""ATL evaluation (symbolic.atl) on a hand-solved arena, on every engine.

Arena (state: controller -> successors):
    0: P1 -> 1, 2      1: P2 -> 3, 0      2: P2 -> (none)
    3: P1 -> 3         4: P2 -> 3         5: P1 -> (none)
"""
from __future__ import annotations

import pytest

from symbolic import atl, ir
from symbolic.api import DeadEnds
from symbolic.errors import UnknownName, QueryError, WrongType
from symbolic.games import arena

from .conftest import build_engine

GAME = arena({0: 1, 1: 2, 2: 2, 3: 1, 4: 2, 5: 1},
             [(0, 1), (0, 2), (1, 3), (1, 0), (3, 3), (4, 3)], name="hand arena")
P1, P2, NONE = atl.CoalitionLit((1,)), atl.CoalitionLit((2,)), atl.CoalitionLit(())
S = ir.Var("s")


def at(*states):
    return {(s,) for s in states}


@pytest.fixture
def engine(engine_kind):
    return build_engine(GAME, engine_kind)


def ev(engine, f, **kw):
    return set(atl.evaluate(engine, f, **kw))


def test_turn_and_constants(engine):
    assert ev(engine, atl.Turn(P1)) == at(0, 3, 5)
    assert ev(engine, atl.Turn(atl.AllPlayers())) == at(0, 1, 2, 3, 4, 5)
    assert ev(engine, atl.Truth(False)) == set()
    assert ev(engine, atl.Not(atl.Turn(P2))) == at(0, 3, 5)


def test_next_uses_the_vacuous_forall(engine):
    # pre({1}, {2}): 0 can move to 2; 2 is P2's dead end, vacuously forced
    assert ev(engine, atl.Next(P1, atl.Prop(S.eq(2)))) == at(0, 2)
    # <<{}>> X false: exactly the dead ends
    assert ev(engine, atl.Next(NONE, atl.Truth(False))) == at(2, 5)


def test_eventually_layers_and_strict_attractor(engine):
    three = engine.from_expr(S.eq(3))
    fp = engine.until({1}, engine.positions(), three, dead_ends=DeadEnds.VACUOUS, keep_layers=True)
    assert [set(x) for x in fp.layers] == [at(3), at(2, 3, 4), at(0, 2, 3, 4), at(0, 1, 2, 3, 4)]
    assert fp.iterations == 3
    strict = engine.attractor({1}, three, keep_layers=True)
    assert [set(x) for x in strict.layers] == [at(3), at(3, 4)], strict.layers
    assert ev(engine, atl.Eventually(P1, atl.Prop(S.eq(3)))) == at(0, 1, 2, 3, 4)


def test_always_is_a_greatest_fixpoint(engine):
    assert ev(engine, atl.Always(P1, atl.Prop(S.ne(2)))) == at(0, 1, 3, 4)
    assert ev(engine, atl.Always(P2, atl.Prop(S.ne(3)))) == at(5)


def test_connectives(engine):
    a, b = atl.Turn(P1), atl.Prop(S <= 2)
    assert ev(engine, atl.BoolOp("implies", a, b)) == at(0, 1, 2, 4)
    assert ev(engine, atl.BoolOp("iff", a, b)) == at(0, 3, 5) & at(0, 1, 2) | at(4)


def test_definitions_with_parameters(engine):
    J = atl.CoalitionRef("J")
    lose = atl.BoolOp("and", atl.Turn(atl.CoalitionOp("\\", atl.AllPlayers(), J)),
                      atl.Next(J, atl.Truth(False)))
    defs = {"Lose": atl.Definition("Lose", (("J", "coalition"),), lose),
            "At": atl.Definition("At", (("v", "int"),), atl.Prop(S.eq(ir.Name("v"))))}
    assert ev(engine, atl.Ref("Lose", (P1,)), definitions=defs) == at(2)
    assert ev(engine, atl.Ref("Lose", (2,)), definitions=defs) == at(5)
    assert ev(engine, atl.Ref("At", (ir.Const(4),)), definitions=defs) == at(4)
    with pytest.raises(UnknownName):
        atl.evaluate(engine, atl.Ref("Nope"), definitions=defs)
    with pytest.raises(WrongType):
        atl.evaluate(engine, atl.Ref("Lose"), definitions=defs)


def test_unknown_player_is_reported(engine):
    with pytest.raises(QueryError, match="unknown player"):
        atl.evaluate(engine, atl.Turn(atl.CoalitionLit((7,))))


def test_coalition_algebra():
    players = (1, 2, 3)
    u = atl.CoalitionOp("|", atl.CoalitionLit((1,)), atl.CoalitionLit((3,)))
    assert atl.coalition_value(u, players, {}) == {1, 3}
    d = atl.CoalitionOp("\\", atl.AllPlayers(), atl.CoalitionRef("J"))
    assert atl.coalition_value(d, players, {"J": frozenset({2})}) == {1, 3}
    assert atl.coalition_value(atl.CoalitionLit(("j",)), players, {"j": 2}) == {2}
