"""symbolic.validate: the structural checks of the IR, done once before any
engine compiles a game, with the same errors whichever engine is asked."""

from __future__ import annotations

import pytest

from symbolic import ir
from symbolic.api import DeadEnds, always, check_dead_ends
from symbolic.errors import ModelError, QueryError, Span, UnknownName, WrongType
from symbolic.seeds.games import subtraction
from symbolic.ir import (
    Binary,
    BoolType,
    Const,
    Elem,
    Game,
    IntType,
    Item,
    Move,
    Name,
    Param,
    Quant,
    Space,
    Sum,
    Unary,
    Var,
    VarDecl,
)
from symbolic.validate import check_expr, check_game

from .conftest import build_engine

SPAN = Span("t.game", 2, 5, "text")
SP = Space(
    (
        VarDecl("x", IntType(0, 3)),
        VarDecl("b", BoolType()),
        VarDecl("a", IntType(0, 2), IntType(1, 3)),
    )
)
x = Var("x")


@pytest.mark.parametrize(
    "e, primed, err, fragment",
    [
        (Var("zz", span=SPAN), False, UnknownName, "unknown variable 'zz'"),
        (Elem("zz", Const(1), span=SPAN), False, UnknownName, "unknown variable 'zz'"),
        (Var("a", span=SPAN), False, WrongType, "is an array"),
        (Elem("x", Const(1), span=SPAN), False, WrongType, "is a scalar"),
        (Name("q", SPAN), False, UnknownName, "unbound name 'q'"),
        (Var("x", True, SPAN), False, ModelError, "primed variable x' outside a move's effect"),
        (Elem("a", Const(1), True, SPAN), False, ModelError, r"a\[..\]' outside a move's effect"),
        (Elem("a", x, True, SPAN), True, ModelError, "must be constant"),
        (Elem("a", Elem("a", Const(1)), True, SPAN), True, ModelError, "must be constant"),
        (Binary("%", Const(7), x, SPAN), False, ModelError, "positive constant"),
        (Binary("//", x, Const(1) + x, SPAN), False, ModelError, "reads the state"),
        (Binary("**", x, x, SPAN), False, ModelError, "unknown binary operator"),
        (Unary("~", x, SPAN), False, ModelError, "unknown unary operator"),
        (Quant("every", "i", (1,), ir.TRUE, SPAN), False, ModelError, "unknown quantifier"),
        (Quant("forall", "i", [1, 2], ir.TRUE, SPAN), False, ModelError, "must be a tuple"),
        (Sum("i", range(3), Name("i"), SPAN), False, ModelError, "must be a tuple"),
    ],
)
def test_ill_formed_expressions(e, primed, err, fragment):
    with pytest.raises(err, match=fragment) as info:
        check_expr(ir.Binary("==", e, e), SP, primed=primed)  # found below the root too
    assert info.value.span == SPAN


def test_well_formed_expressions_pass_unchanged():
    ok = [
        ir.forall("i", (1, 2, 3), lambda i: Elem("a", i, primed=True).eq(Elem("a", i) + Name("d"))),
        Sum("i", (1, 2), Elem("a", Name("i")) // Name("d")),
        Elem("a", Item(Const((1, 2)), Name("d")), True).eq(0),  # constant once substituted
        ir.ite(Var("b", True), x % 2, x).eq(Var("x", True)),
        Quant("exists", "d", (), Name("d").eq(0)),  # binders shadow, even empty
    ]
    for e in ok:
        assert check_expr(e, SP, ["d"], primed=True) is e
    # a binder's name is not bound outside it
    with pytest.raises(UnknownName, match="'i'"):
        check_expr(Sum("i", (1,), Name("i")) + Name("i"), SP)


def test_long_conjunctions_need_no_recursion():
    check_expr(ir.conj(x.eq(v % 4) for v in range(20_000)), SP)


def test_games_are_checked_in_order():
    g = subtraction(K=3)
    assert check_game(g) is g
    with pytest.raises(ModelError, match="declared twice"):
        check_game(
            Game(
                "g", g.space, g.players, g.turn, (Move("m", (Param("t", (1,)), Param("t", (2,)))),)
            )
        )
    with pytest.raises(ModelError, match="must be a tuple"):
        check_game(Game("g", g.space, g.players, g.turn, (Move("m", (Param("t", [1]),)),)))
    with pytest.raises(ModelError, match="outside a move's effect"):
        check_game(
            Game("g", g.space, g.players, g.turn, (Move("m", (), Var("k", True).eq(0), ir.TRUE),))
        )
    with pytest.raises(UnknownName, match="unbound name 't'"):  # t is the other move's
        check_game(
            Game(
                "g",
                g.space,
                g.players,
                Const(1),
                (Move("m", (Param("t", (1,)),)), Move("n", (), Name("t").eq(1))),
            )
        )
    with pytest.raises(ModelError, match="outside a move's effect"):
        check_game(Game("g", g.space, g.players, Const(1), (), invariant=Var("k", True) > 0))


BAD_GAMES = [
    (
        Game("g", SP, (1,), Const(1), (Move("m", (Param("p", (1,)), Param("p", (1,)))),)),
        ModelError,
        "declared twice",
    ),
    (
        Game("g", SP, (1,), Const(1), (Move("m", (), Var("x", True).eq(1)),)),
        ModelError,
        "outside a move's effect",
    ),
    (
        Game("g", SP, (1,), Const(1), (Move("m", (), ir.TRUE, Elem("a", x, True).eq(0)),)),
        ModelError,
        "must be constant",
    ),
    (Game("g", SP, (1,), Var("x", True), ()), ModelError, "outside a move's effect"),
    (Game("g", SP, (1,), Name("p"), ()), UnknownName, "unbound name"),
]


@pytest.mark.parametrize("game, err, fragment", BAD_GAMES)
def test_every_engine_refuses_the_same_games_the_same_way(engine_kind, game, err, fragment):
    with pytest.raises(err, match=fragment):
        build_engine(game, engine_kind)


def test_every_engine_reports_a_turn_that_is_not_a_player(engine_kind):
    g = subtraction(K=3)
    game = Game("g", g.space, (1, 2), Var("k"), g.moves)  # k = 0 and k = 3 are nobody's turn
    with pytest.raises(ModelError) as info:
        build_engine(game, engine_kind).turn_set({1})
    assert str(info.value) == (
        "at position {'j': 1, 'k': 0} the turn is not a player (players: [1, 2])"
    )


def test_every_engine_checks_the_dead_end_convention(engine_kind):
    E = build_engine(subtraction(K=3), engine_kind)
    X = E.positions()
    for query in (
        lambda d: E.pre_forall({1}, X, dead_ends=d),
        lambda d: E.pre({1}, X, dead_ends=d),
        lambda d: E.until({1}, X, X, dead_ends=d),
        lambda d: E.release({1}, X, X, dead_ends=d),
        lambda d: always(E, {1}, X, dead_ends=d),
    ):
        with pytest.raises(QueryError, match="dead_ends must be"):
            query("strict")
        query(DeadEnds.STRICT)
    assert check_dead_ends(DeadEnds.VACUOUS) is DeadEnds.VACUOUS


def test_sets_are_checked_too(engine_kind):
    E = build_engine(subtraction(K=3), engine_kind)
    with pytest.raises(ModelError, match="outside a move's effect"):
        E.from_expr(Var("k", True).eq(0))
    with pytest.raises(UnknownName, match="unbound name 'd'"):
        E.from_expr(Var("k").eq(Name("d")))
    assert E.from_expr(Var("k").eq(Name("d")), {"d": 2}) == E.from_expr(Var("k").eq(2))
