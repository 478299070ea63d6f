"""ATL evaluation (symbolic.atl) on a hand-solved arena, on every engine.

Arena (state: controller -> successors):
    0: P1 -> 1, 2      1: P2 -> 3, 0      2: P2 -> (none)
    3: P1 -> 3         4: P2 -> 3         5: P1 -> (none)

Dead ends: 2 (P2's) and 5 (P1's). Under VACUOUS an opponent's dead end is
forced into anything (2 ∈ pre({1}, X) for every X, 5 ∈ pre({2}, X)); under
STRICT it is in no pre∀, and a mover's dead end is in no pre∃ either way.
"""

from __future__ import annotations

import pytest

from symbolic import atl, ir
from symbolic.api import DeadEnds, attractor
from symbolic.errors import UnknownName, QueryError, WrongType
from symbolic.seeds.games import arena

from .conftest import build_engine

GAME = arena(
    {0: 1, 1: 2, 2: 2, 3: 1, 4: 2, 5: 1},
    [(0, 1), (0, 2), (1, 3), (1, 0), (3, 3), (4, 3)],
    name="hand arena",
)
P1, P2, NONE = atl.CoalitionLit((1,)), atl.CoalitionLit((2,)), atl.CoalitionLit(())
S = ir.Var("s")


def at(*states):
    return {(s,) for s in states}


@pytest.fixture
def engine(engine_kind):
    return build_engine(GAME, engine_kind)


def ev(engine, f, **kw):
    return set(atl.evaluate(engine, f, **kw))


def test_derived_operators_are_core_nodes():
    f = atl.Prop(S.eq(3))
    assert atl.Eventually(P1, f) == atl.Until(P1, atl.Truth(True), f)
    assert atl.Always(P1, f) == atl.Release(P1, atl.Truth(False), f)
    assert atl.formula_children(atl.Always(P1, f)) == (atl.Truth(False), f)


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
    strict = attractor(engine, {1}, three, keep_layers=True)
    assert [set(x) for x in strict.layers] == [at(3), at(3, 4)], strict.layers
    assert ev(engine, atl.Eventually(P1, atl.Prop(S.eq(3)))) == at(0, 1, 2, 3, 4)


def test_always_is_a_greatest_fixpoint(engine):
    assert ev(engine, atl.Always(P1, atl.Prop(S.ne(2)))) == at(0, 1, 3, 4)
    assert ev(engine, atl.Always(P2, atl.Prop(S.ne(3)))) == at(5)


def test_release(engine):
    """⟨⟨P2⟩⟩ (s = 0) R (s ≠ 3): g = {0, 1, 2, 4, 5}, f = {0}, Z₀ = g.

    VACUOUS: pre({2}, Z₀) = {1 (→0), 0 (→1, 2 ∈ Z₀), 5 (P1's dead end)}, so
    Z₁ = g ∩ (f ∪ {0, 1, 5}) = {0, 1, 5}; pre({2}, Z₁) ∋ 1, 5 but not 0 (→2),
    and 0 ∈ f: Z₂ = Z₁ — one strict decrease.
    STRICT: 5 is in no pre∀, so Z₁ = g ∩ (f ∪ {0, 1}) = {0, 1} = Z₂.
    """
    g, f = atl.Prop(S.ne(3)), atl.Prop(S.eq(0))
    rel = atl.Release(P2, f, g)
    assert ev(engine, rel) == at(0, 1, 5)
    assert ev(engine, rel, dead_ends=DeadEnds.STRICT) == at(0, 1)
    for conv, want in ((DeadEnds.VACUOUS, at(0, 1, 5)), (DeadEnds.STRICT, at(0, 1))):
        fp = engine.release(
            {2}, engine.from_expr(S.eq(0)), engine.from_expr(S.ne(3)), dead_ends=conv
        )
        assert set(fp.result) == want and fp.iterations == 1, (conv, fp)
    # ATL duality under VACUOUS: ¬⟨⟨P1⟩⟩ (s ≠ 0) U (s = 3) = ¬{2, 3, 4}
    dual = atl.Not(atl.Until(P1, atl.Not(f), atl.Not(g)))
    assert ev(engine, dual) == at(0, 1, 5)
    # not under STRICT: 2 is no longer forced towards 3, so the until is {3, 4}
    assert ev(engine, dual, dead_ends=DeadEnds.STRICT) == at(0, 1, 2, 5)


def test_strict_convention(engine):
    """Every formula above again, with every universal step STRICT.

    ⟨⟨P1⟩⟩○(s = 2) = {0}: 2 (P2's dead end) is no longer forced.
    ⟨⟨∅⟩⟩○⊥ = ∅: a dead end is no longer in pre∀(∅, ∅).
    ⟨⟨P1⟩⟩◇(s = 3) = the strict attractor {3, 4}.
    ⟨⟨P1⟩⟩□(s ≠ 2) = {0, 1, 3, 4}, as under VACUOUS (5 is P1's own dead end).
    ⟨⟨P2⟩⟩□(s ≠ 3): Z₁ = {0 (→1, 2), 1 (→0)}, Z₂ = {1} (0 may go to 2 ∉ Z₁),
    Z₃ = ∅ (1's only move in Z is 0 ∉ Z₂): 5 is no longer kept vacuously.
    """

    def strict(f):
        return ev(engine, f, dead_ends=DeadEnds.STRICT)

    assert strict(atl.Next(P1, atl.Prop(S.eq(2)))) == at(0)
    assert strict(atl.Next(NONE, atl.Truth(False))) == set()
    assert strict(atl.Eventually(P1, atl.Prop(S.eq(3)))) == at(3, 4)
    assert strict(atl.Always(P1, atl.Prop(S.ne(2)))) == at(0, 1, 3, 4)
    assert strict(atl.Always(P2, atl.Prop(S.ne(3)))) == set()
    assert strict(atl.Turn(P1)) == at(0, 3, 5)  # no universal step: unchanged
    with pytest.raises(QueryError, match="dead_ends"):
        atl.Evaluator(engine, dead_ends="strict")


def test_connectives(engine):
    a, b = atl.Turn(P1), atl.Prop(S <= 2)
    assert ev(engine, atl.BoolOp("implies", a, b)) == at(0, 1, 2, 4)
    assert ev(engine, atl.BoolOp("iff", a, b)) == at(0, 3, 5) & at(0, 1, 2) | at(4)


def test_definitions_with_parameters(engine):
    J = atl.CoalitionRef("J")
    lose = atl.BoolOp(
        "and", atl.Turn(atl.CoalitionOp("\\", atl.AllPlayers(), J)), atl.Next(J, atl.Truth(False))
    )
    defs = {
        "Lose": atl.Definition("Lose", (("J", "coalition"),), lose),
        "At": atl.Definition("At", (("v", "int"),), atl.Prop(S.eq(ir.Name("v")))),
    }
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
