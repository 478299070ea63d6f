"""The model-language checker: model text to IR and ATL (round trips, constants,
types, parameters, formulas), and a few evaluations on the explicit engine."""

from __future__ import annotations

import pytest

from symbolic import atl, ir
from symbolic.seeds import games
from symbolic.errors import UnknownName, RangeError, WrongType
from symbolic.model import Model, Query, load_model, parse_formula, parse_model, parse_state_expr

NIM = """
game "Nim(N, n, K, r)"
param N = 3, n = 2, K = 20, r = 3, u0 = 0
const u = lcg(u0, 101, 269, 4890367, r * n)
const R = { tuple(u[i*n + t] % 5 for t in 0..n-1) for i in 0..r-1 } - { tuple(0 for t in 0..n-1) }
players 1..N
var j : 1..N
var k : array[1..n] of 0..K
turn j
move take(d in R)
  when forall i in 1..n: k[i] >= d[i-1]
  then forall i in 1..n: k'[i] = k[i] - d[i-1];  j' = j % N + 1
set initial = exists x in 0..K: forall i in 1..n: k[i] == x
formula F(J) = <<J>> (<<players>> X true) U (turn(players \\ J) and <<J>> X false)
formula Gagne(j) = F({j})
formula Perd(j) = not Gagne(j)
formula Traître_1 = <<1, 2>> (<<players>> X true) U (Perd(3) and Gagne(1))
query F({1}), F({1, 2}) and initial
"""

SUBTRACTION = """
game "subtraction"
param K = 10
players 1, 2
var j : 1..2
var k : 0..K
turn j
move take(t in {1, 2, 3}) when k >= t then k' = k - t; j' = 3 - j
"""

HEADER = "players 1, 2\nvar j : 1..2\nvar x : 0..5\nvar k : array[1..3] of 0..4\nturn j\n"


def const(text: str, name: str = "c", **params):
    """The value of constant ``name`` in a model made of ``text``."""
    return parse_model(text + "\nplayers 1\nturn 1", params=params).consts[name]


def state(expr: str) -> ir.Expr:
    """A boolean state expression over HEADER's variables, as IR."""
    return parse_model(HEADER + f"set s = {expr}").definitions["s"].body.expr


# --------------------------------------------------------------------------- round trips


def test_nim_model_matches_the_python_builder():
    m = parse_model(NIM, "nim.game")
    g = games.nim_ens(N=3, n=2, K=20, r=3, u0=0)
    assert m.game.space == g.space
    assert m.game.players == g.players == (1, 2, 3)
    assert m.game.turn == g.turn
    assert m.game.moves == g.moves
    assert m.consts["R"] == games.ens_rules(2, 3, 0) == ((0, 4), (2, 3), (3, 2))
    assert [s.label for s in m.game.space.slots] == ["j", "k[1]", "k[2]"]


@pytest.mark.parametrize("N, n, K, r, u0", [(2, 2, 5, 2, 0), (3, 3, 4, 3, 17), (2, 1, 6, 4, 42)])
def test_nim_parameter_overrides_match_the_builder(N, n, K, r, u0):
    m = parse_model(NIM, params={"N": N, "n": n, "K": K, "r": r, "u0": u0})
    g = games.nim_ens(N=N, n=n, K=K, r=r, u0=u0)
    assert (m.game.space, m.game.moves, m.game.turn) == (g.space, g.moves, g.turn)
    assert m.params == {"N": N, "n": n, "K": K, "r": r, "u0": u0}


def test_subtraction_matches_the_python_builder():
    m = parse_model(SUBTRACTION)
    g = games.subtraction(K=10)
    assert (m.game.space, m.game.moves, m.game.turn, m.game.players) == (
        g.space,
        g.moves,
        g.turn,
        g.players,
    )
    assert m.name == "subtraction"


def test_model_fields():
    m = parse_model(NIM, "nim.game")
    assert isinstance(m, Model)
    assert (m.name, m.source, m.game.name) == ("Nim(N, n, K, r)", "nim.game", "Nim(N, n, K, r)")
    assert set(m.definitions) == {"initial", "F", "Gagne", "Perd", "Traître_1"}
    assert m.definitions["F"].params == (("J", "coalition"),)
    assert m.definitions["Gagne"].params == (("j", "int"),)
    assert m.definitions["initial"].params == ()
    assert isinstance(m.definitions["initial"].body, atl.Prop)
    assert [q.text for q in m.queries] == ["F({1})", "F({1, 2}) and initial"]
    assert all(isinstance(q, Query) and q.span.line == 18 for q in m.queries)
    with pytest.raises(Exception):
        m.name = "other"  # frozen


def test_formula_structure():
    m = parse_model(NIM)
    F = m.definitions["F"].body
    assert F == atl.Until(
        atl.CoalitionRef("J"),
        atl.Next(atl.AllPlayers(), atl.Truth(True)),
        atl.BoolOp(
            "and",
            atl.Turn(atl.CoalitionOp("\\", atl.AllPlayers(), atl.CoalitionRef("J"))),
            atl.Next(atl.CoalitionRef("J"), atl.Truth(False)),
        ),
    )
    assert m.definitions["Gagne"].body == atl.Ref("F", (atl.CoalitionLit(("j",)),))
    assert m.definitions["Perd"].body == atl.Not(atl.Ref("Gagne", (ir.Name("j"),)))
    t = m.definitions["Traître_1"].body
    assert t.coalition == atl.CoalitionLit((1, 2))
    assert t.right == atl.BoolOp("and", atl.Ref("Perd", (3,)), atl.Ref("Gagne", (1,)))
    assert m.queries[0].formula == atl.Ref("F", (atl.CoalitionLit((1,)),))
    assert m.queries[1].formula == atl.BoolOp(
        "and", atl.Ref("F", (atl.CoalitionLit((1, 2)),)), atl.Ref("initial")
    )


def test_with_params_and_load_model(tmp_path):
    path = tmp_path / "nim.game"
    path.write_text(NIM, encoding="utf-8")
    m = load_model(path, params={"K": 4})
    assert m.source == str(path) and m.params["K"] == 4
    assert m.game.space.decl("k").type == ir.IntType(0, 4)
    m2 = m.with_params({"N": 2})
    assert (m2.params["N"], m2.params["K"]) == (2, 4)


# --------------------------------------------------------------------------- constants


def test_lcg_matches_the_recurrence():
    u1 = (101 * 0 + 269) % 4890367
    u2 = (101 * u1 + 269) % 4890367
    assert (u1, u2) == (269, 27438)
    assert const("const c = lcg(0, 101, 269, 4890367, 3)") == (0, u1, u2)
    assert const("param u0 = 5\nconst c = lcg(u0, 101, 269, 4890367, 2)") == (5, 101 * 5 + 269)


@pytest.mark.parametrize(
    "expr, value",
    [
        ("7 div 2 + 7 mod 2 + (-7) div 2 + (-7) % 2", 3 + 1 - 4 + 1),
        ("1 < 2 <= 2", True),
        ("({1, 2} | {3}) == 1..3", True),
        ("({1, 2, 3} & {2, 3, 4}) - {3}", (2,)),
        ("(1..5) \\ {2, 4}", (1, 3, 5)),
        ("{ (x, y) for x in 0..2 for y in 0..2 if x < y }", ((0, 1), (0, 2), (1, 2))),
        ("tuple(t * t for t in 0..3)", (0, 1, 4, 9)),
        ("(1, 2) + (3,)", (1, 2, 3)),
        ("(10, 20, 30)[2]", 30),
        ("len({4, 5}) + min(3, 1) + max((2, 8)) + abs(-4)", 2 + 1 + 8 + 4),
        ("sum(i for i in 1..4) + count(i > 2 for i in 1..4)", 10 + 2),
        ("sorted({3, 1, 2})", (1, 2, 3)),
        ("range(3) + range(5, 7)", (0, 1, 2, 5, 6)),
        ("xor(1, 2, 3) + xor((4, 1)) + pow(2, 5)", 0 + 5 + 32),
        ("if 2 > 1 then 10 else 20", 10),
        ("forall x in 1..3: exists y in 1..3: x + y == 4", True),
        ("3 in {1, 3} and (1, 2) not in {(2, 1)}", True),
        ("{}", ()),
        ("1..0", ()),
        ("int(true) + int(false)", 1),
        ('dyck("(()())")', ((0, 5), (1, 2), (3, 4))),
    ],
)
def test_constant_evaluation(expr, value):
    assert const(f"const c = {expr}") == value


def test_ens_rules_set_from_the_design_example():
    text = """param n = 3, r = 3, u0 = 0
    const u = lcg(u0, 101, 269, 4890367, r * n)
    const c = { tuple(u[i*n + t] % 5 for t in 0..n-1) for i in 0..r-1 } - { tuple(0 for t in 0..n-1) }
    """
    assert const(text) == games.ens_rules(3, 3, 0)


def test_params_and_consts_chain_in_order():
    m = parse_model("param n = 2, m = 2 * n\nconst c = m + 1\nplayers 1\nturn 1", params={"n": 5})
    assert m.params == {"n": 5, "m": 10} and m.consts == {"c": 11}


def test_parameter_override_values():
    text = "param N : 1..9 = 3, fast = false\nplayers 1..N\nturn 1"
    assert parse_model(text, params={"N": "4", "fast": "true"}).params == {"N": 4, "fast": True}
    assert parse_model(text, params={"fast": True}).params == {"N": 3, "fast": True}
    assert parse_model(text).game.players == (1, 2, 3)


# --------------------------------------------------------------------------- state expressions


def test_constant_subexpressions_fold():
    m = parse_model("param N = 3\nconst c = (4, 5)\n" + HEADER + "set s = x + N * 2 > c[1] - 1")
    assert m.definitions["s"].body.expr == ir.Binary(
        ">", ir.Binary("+", ir.Var("x"), ir.Const(6)), ir.Const(4)
    )


def test_arrays_primes_and_quantifiers():
    m = parse_model(
        HEADER + "move m(d in {(1, 0, 2)}) when forall i in 1..3: k[i] >= d[i-1] "
        "then forall i in 1..3: k'[i] = k[i] - d[i-1]; x' = x"
    )
    mv = m.game.moves[0]
    assert mv.params == (ir.Param("d", ((1, 0, 2),)),)
    assert mv.guard == ir.Quant(
        "forall",
        "i",
        (1, 2, 3),
        ir.Binary(
            ">=",
            ir.Elem("k", ir.Name("i")),
            ir.Item(ir.Name("d"), ir.Binary("-", ir.Name("i"), ir.Const(1))),
        ),
    )
    assert ir.has_primes(mv.effect) and not ir.has_primes(mv.guard)
    m = parse_model(HEADER + "move m(d in {(1, 0, 2)}) when len(d) = 3 then x' = d[len(d) - 1]")
    assert m.game.moves[0].guard == ir.TRUE
    assert m.game.moves[0].effect == ir.Binary(
        "==", ir.Var("x", primed=True), ir.Item(ir.Name("d"), ir.Const(2))
    )


def test_membership_expands():
    assert state("x in {1, 3}") == ir.Binary(
        "or", ir.Binary("==", ir.Var("x"), ir.Const(1)), ir.Binary("==", ir.Var("x"), ir.Const(3))
    )
    assert state("x in 2..4") == ir.Binary(
        "and", ir.Binary("<=", ir.Const(2), ir.Var("x")), ir.Binary("<=", ir.Var("x"), ir.Const(4))
    )
    assert state("x not in {}") == ir.Unary("not", ir.FALSE)
    assert state("(x, k[1]) in {(0, 1)}") == ir.Binary(
        "and",
        ir.Binary("==", ir.Var("x"), ir.Const(0)),
        ir.Binary("==", ir.Elem("k", ir.Const(1)), ir.Const(1)),
    )


def test_sums_and_state_builtins():
    assert state("sum(k[i] for i in 1..3) > 2") == ir.Binary(
        ">", ir.Sum("i", (1, 2, 3), ir.Elem("k", ir.Name("i"))), ir.Const(2)
    )
    assert state("count(k[i] > 0 for i in 1..3 if i != 2) = 1").left == ir.Sum(
        "i",
        (1, 2, 3),
        ir.Ite(
            ir.Binary("!=", ir.Name("i"), ir.Const(2)),
            ir.Binary(">", ir.Elem("k", ir.Name("i")), ir.Const(0)),
            ir.FALSE,
        ),
    )
    assert state("max(x, 2) = 2").left == ir.Ite(
        ir.Binary(">=", ir.Var("x"), ir.Const(2)), ir.Var("x"), ir.Const(2)
    )
    assert isinstance(state("abs(x - 3) < 2").left, ir.Ite)


def test_constant_conditions_short_circuit():
    # k[5] would be out of range: the constant condition keeps it from being checked
    assert state("if 1 > 2 then k[5] = 0 else x = 0") == ir.Binary("==", ir.Var("x"), ir.Const(0))
    assert state("false and k[5] = 0") == ir.FALSE


def test_sets_are_inlined_in_state_expressions():
    m = parse_model(
        HEADER + "set at(p) = x = p\nset t = at(2) or at(k[1])\nmove m when at(1) then x' = 0"
    )
    assert m.definitions["t"].body.expr == ir.Binary(
        "or",
        ir.Binary("==", ir.Var("x"), ir.Const(2)),
        ir.Binary("==", ir.Var("x"), ir.Elem("k", ir.Const(1))),
    )
    assert m.game.moves[0].guard == ir.Binary("==", ir.Var("x"), ir.Const(1))
    assert m.definitions["at"].params == (("p", "int"),)


def test_inlining_avoids_capture():
    m = parse_model(
        HEADER + "set s(p) = exists i in 1..3: k[i] = p\nset t = forall i in 0..1: s(i)"
    )
    body = m.definitions["t"].body.expr
    inner = body.body
    assert inner.kind == "exists" and inner.var != "i"
    assert inner.body.right == ir.Name("i")


def test_invariant_and_bool_variables():
    m = parse_model(
        "players 1\nvar b : bool\nvar a : array[0..1] of bool\nturn 1\n"
        "invariant b or a[0]\ninvariant not a[1]"
    )
    assert m.game.invariant == ir.Binary(
        "and",
        ir.Binary("or", ir.Var("b"), ir.Elem("a", ir.Const(0))),
        ir.Unary("not", ir.Elem("a", ir.Const(1))),
    )
    assert m.game.space.decl("a").type == ir.BoolType()


# --------------------------------------------------------------------------- formulas


def test_parse_formula_against_a_model():
    m = parse_model(NIM)
    f = parse_formula("<<1>> <> initial and not <<>> [] k[1] > 0", m)
    assert f == atl.BoolOp(
        "and",
        atl.Eventually(atl.CoalitionLit((1,)), atl.Ref("initial")),
        atl.Not(
            atl.Always(
                atl.CoalitionLit(()),
                atl.Prop(ir.Binary(">", ir.Elem("k", ir.Const(1)), ir.Const(0))),
            )
        ),
    )
    assert parse_formula("Gagne({2})", m) == atl.Ref("Gagne", (2,))
    assert parse_formula("F(2)", m) == atl.Ref("F", (atl.CoalitionLit((2,)),))
    assert parse_formula("turn(players \\ {1})", m) == atl.Turn(atl.CoalitionLit((2, 3)))
    assert parse_formula("<<players>> X true", m) == atl.Next(atl.AllPlayers(), atl.Truth(True))
    assert parse_formula("true", m) == atl.Truth(True)
    assert m.formula("<<1, {2}>> X false").coalition == atl.CoalitionLit((1, 2))


def test_formula_parameter_kinds():
    m = parse_model(
        HEADER
        + """
        formula a(J) = <<J>> X true
        formula b(j) = <<{j}>> X true
        formula c(j) = k[j] = 0
        formula d(J: coalition, p: player, n: int) = <<J>> X x = n or turn(p)
        formula e(J) = <<players \\ J | {1}>> X a(J) and c(1)
    """
    )
    kinds = {n: d.params for n, d in m.definitions.items()}
    assert kinds["a"] == (("J", "coalition"),)
    assert kinds["b"] == (("j", "int"),)
    assert kinds["c"] == (("j", "int"),)
    assert kinds["d"] == (("J", "coalition"), ("p", "int"), ("n", "int"))
    e = m.definitions["e"].body
    assert e.left.coalition == atl.CoalitionOp(
        "|", atl.CoalitionOp("\\", atl.AllPlayers(), atl.CoalitionRef("J")), atl.CoalitionLit((1,))
    )
    assert e.right == atl.Ref("c", (1,))


def test_quantifier_over_formulas_expands():
    m = parse_model(NIM)
    f = parse_formula("exists p in players: Gagne(p)", m)
    assert f == atl.BoolOp(
        "or",
        atl.BoolOp("or", atl.Ref("Gagne", (1,)), atl.Ref("Gagne", (2,))),
        atl.Ref("Gagne", (3,)),
    )


def test_parse_state_expr():
    m = parse_model(NIM)
    assert parse_state_expr("k[1] = K", m) == ir.Binary(
        "==", ir.Elem("k", ir.Const(1)), ir.Const(20)
    )


# --------------------------------------------------------------------------- evaluation


def test_evaluation_on_the_explicit_engine():
    explicit = pytest.importorskip("symbolic.explicit")
    m = parse_model(NIM, params={"K": 6})
    g = games.nim_ens(N=3, n=2, K=6, r=3, u0=0)
    E_model, E_builder = explicit.ExplicitGame(m.game), explicit.ExplicitGame(g)
    for q in m.queries:
        assert atl.evaluate(E_model, q.formula, m.definitions) is not None
    # F({1}) from the text equals F_{1} built by hand on the Python-built game
    players = atl.AllPlayers()
    J = atl.CoalitionLit((1,))
    by_hand = atl.Until(
        J,
        atl.Next(players, atl.Truth(True)),
        atl.BoolOp(
            "and", atl.Turn(atl.CoalitionOp("\\", players, J)), atl.Next(J, atl.Truth(False))
        ),
    )
    from_text = atl.evaluate(E_model, m.queries[0].formula, m.definitions)
    assert from_text.tuples() == atl.evaluate(E_builder, by_hand).tuples()
    # Traître_1 holds somewhere, but not everywhere
    traitor = atl.evaluate(E_model, parse_formula("Traître_1", m), m.definitions)
    assert 0 < len(traitor) < len(E_model.positions())


def test_subtraction_losing_positions():
    explicit = pytest.importorskip("symbolic.explicit")
    m = parse_model(
        SUBTRACTION + "formula wins(p) = <<{p}>> <> (turn(players \\ {p}) and <<{p}>> X false)\n"
    )
    E = explicit.ExplicitGame(m.game)
    wins = atl.evaluate(E, parse_formula("wins(1) and j = 1", m), m.definitions)
    # player 1 to move wins exactly when k is not a multiple of 4
    assert sorted(k for (_, k) in wins.tuples()) == [k for k in range(11) if k % 4]


@pytest.mark.parametrize(
    "text",
    [
        "F({1})",
        "Traître_1 and initial",
        "<<1>> [] k[1] > 0",
        "exists p in players: Gagne(p)",
        "<<1, 2>> k[1] = 0 R (k[2] > 0 or turn(3))",
        "sum(k[i] for i in 1..2) = 3 and (j, k[1]) in {(1, 2), (2, 0)}",
        "abs(k[1] - k[2]) <= 1 and max(k[1], k[2]) = 4",
    ],
)
def test_both_engines_agree_on_parsed_formulas(text):
    explicit = pytest.importorskip("symbolic.explicit")
    bdd = pytest.importorskip("symbolic.bdd")
    m = parse_model(NIM, params={"K": 5})
    f = parse_formula(text, m)
    a = atl.evaluate(bdd.SymbolicGame(m.game, backend="autoref"), f, m.definitions)
    b = atl.evaluate(explicit.ExplicitGame(m.game), f, m.definitions)
    assert a.tuples() == b.tuples()


def test_errors_carry_types():
    with pytest.raises(WrongType):
        state("x + true > 0")
    with pytest.raises(UnknownName):
        state("y > 0")
    with pytest.raises(RangeError):
        state("k[0] > 0")


def test_a_constant_tuple_of_strings_loads_when_unused_in_state_expressions():
    from symbolic.model import parse_model

    m = parse_model(
        'game "w"\nconst W = ("()", "(())")\nconst n = len(W[1])\nplayers 1\nvar x : 0..n\nturn 1\n'
    )
    assert m.consts["W"] == ("()", "(())") and m.consts["n"] == 4, m.consts


def test_string_parameters_take_the_override_text():
    from symbolic.errors import WrongType
    from symbolic.model import parse_model

    text = (
        'game "w"\nparam word = "(())"\nparam K = 2\nconst N = len(dyck(word))\n'
        "players 1\nvar x : 0..N\nturn 1\n"
    )
    assert parse_model(text).consts["N"] == 2
    m = parse_model(text, params={"word": "()()()", "K": "5"})
    assert (m.consts["N"], m.params["K"], m.params["word"]) == (3, 5, "()()()")
    with pytest.raises(WrongType, match="cannot read 'abc'"):
        parse_model(text, params={"K": "abc"})


def test_int_of_a_folded_condition_is_a_constant():
    # once a crash (AttributeError): the bool argument folds to a constant
    m = parse_model(
        "players 1\nvar k : array[1..2] of 0..3\nturn 1\n"
        "set s = int(false and k[1] > 0) = 0\nset t = int(true or k[1] > 0) = 0"
    )
    assert m.definitions["s"].body.expr == ir.TRUE, m.definitions["s"].body
    assert m.definitions["t"].body.expr == ir.FALSE, m.definitions["t"].body
