"""Formulas printed back as text (symbolic.printing): reading the text gives the formula
again, exactly for every query of every shipped model-language model and arena, and
for random formulas the same set of positions on the explicit engine (the checker
folds constants and merges state conditions, so a hand-built formula may come back in
another form), the text of that form being a fixpoint."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import symbolic
from symbolic import atl, ir
from symbolic.errors import SymbolicError
from symbolic.printing import coalition_text, expr_text, formula_text

from .conftest import build_engine
from .strategies import formulas, games

COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

TEXT_MODELS = [n for n in sorted(symbolic.shipped_models()) if not n.startswith("gdl/")]


@pytest.mark.parametrize("name", TEXT_MODELS)
def test_every_query_comes_back_from_its_text(name):
    m = symbolic.load_model(name)
    assert m.queries
    for q in m.queries:
        text = formula_text(q.formula)
        assert m.formula(text) == q.formula, (q.text, text)


def test_gdl_queries_read_back_to_the_same_sets():
    """A GDL query is built as objects (names of the description's relations) and its
    text reads back through the relations' expansion: the same positions."""
    m = symbolic.load_model("gdl/nim1")
    e = symbolic.make_engine(m.game, "explicit")
    for q in m.queries:
        text = formula_text(q.formula)
        assert text.startswith("<<{")
        again = m.formula(text)
        assert symbolic.evaluate(e, again, m.definitions) == symbolic.evaluate(
            e, q.formula, m.definitions
        )


def model_text(game: ir.Game) -> str:
    """A model file with ``game``'s players and variables (no moves: formulas only
    need the names)."""
    lines = [f"players {', '.join(map(str, game.players))}"]
    for d in game.space.vars:
        t = d.type
        base = "bool" if isinstance(t, ir.BoolType) else f"{t.lo}..{t.hi}"
        if d.index is not None:
            base = f"array[{d.index.lo}..{d.index.hi}] of {base}"
        lines.append(f"var {d.name} : {base}")
    lines.append(f"turn {game.players[0]}")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, **COMMON)
@given(st.data())
def test_random_formulas_read_back_to_the_same_sets(data):
    game = data.draw(games(), label="game")
    f = data.draw(formulas(game, depth=3), label="formula")
    m = symbolic.parse_model(model_text(game))
    text = formula_text(f)
    try:
        again = m.formula(text)
    except SymbolicError as err:
        # a quantifier nested in one of the same name: the language refuses shadowing
        assume("already" not in str(err) and "shadow" not in str(err))
        raise
    e = build_engine(game, "explicit")
    assert atl.evaluate(e, again) == atl.evaluate(e, f), text
    assert m.formula(formula_text(again)) == again, text


def test_spellings():
    k, x = ir.Var("k"), ir.Elem("c", ir.Const(2))
    one, J = atl.CoalitionLit((1,)), atl.CoalitionRef("J")
    cases = [
        (atl.Release(one, atl.Truth(False), atl.Prop(k.ne(0))), "<<{1}>> [] k != 0"),
        (atl.Release(J, atl.Turn(one), atl.Prop(k >= 1)), "<<J>> turn({1}) R k >= 1"),
        (atl.Next(atl.AllPlayers(), atl.Reach(atl.Ref("initial"))), "<<players>> X reach(initial)"),
        (atl.Not(atl.BoolOp("or", atl.Truth(True), atl.Ref("F", (one,)))), "not (true or F({1}))"),
        (
            atl.BoolOp(
                "implies", atl.BoolOp("implies", atl.Truth(True), atl.Truth(False)), atl.Truth(True)
            ),
            "(true implies false) implies true",
        ),
        (
            atl.Prop(ir.Binary("%", x - ir.Const(-2), ir.Const(3)).eq(ir.Const(0))),
            "(c[2] - -2) mod 3 = 0",
        ),
        (
            atl.Prop(ir.Quant("forall", "i", (1, 3), ir.Elem("c", ir.Name("i")).eq(ir.Const(0)))),
            "(forall i in {1, 3}: c[i] = 0)",
        ),
    ]
    for f, text in cases:
        assert formula_text(f) == text
    assert (
        expr_text(ir.Ite(ir.Var("b"), k, ir.Const(1)) * ir.Const(2)) == "(if b then k else 1) * 2"
    )
    assert coalition_text(
        atl.CoalitionOp("|", J, atl.CoalitionOp("\\", atl.AllPlayers(), one))
    ) == ("J | (players \\ {1})")
