"""The keyword policy: the temporal letters are soft keywords (names wherever the
parser expects no operator), every other keyword is reserved."""

from __future__ import annotations

import pytest

from symbolic import atl
from symbolic.errors import ParseError
from symbolic.lang import ast
from symbolic.lang.parser import parse_formula_text
from symbolic.model import parse_model

SOFT = """
game "soft keywords as names"
const R = {1, 2}
players 1, 2
var U : 0..3
var X : bool
var j : 1..2
turn j
move up(d in R) when U + d <= 3 and not X then U' = U + d; X' = (U + d = 3); j' = 3 - j
set full = X and U in {3}
query <<1>> <> full, <<1>> X U > 0, <<1>> (U < 3) U X
"""


def test_soft_keywords_are_names_in_declarations_guards_and_sets():
    m = parse_model(SOFT)
    assert m.consts["R"] == (1, 2)
    assert [v.name for v in m.game.space.vars] == ["U", "X", "j"]
    assert m.game.moves[0].params[0].domain == (1, 2)


def test_soft_keywords_are_operators_where_an_operator_may_stand():
    m = parse_model(SOFT)
    eventually, next_, until = (q.formula for q in m.queries)
    assert isinstance(next_, atl.Next) and isinstance(next_.arg, atl.Prop)
    assert isinstance(until, atl.Until)


def test_a_model_with_soft_keyword_names_evaluates():
    explicit = pytest.importorskip("symbolic.explicit")
    m = parse_model(SOFT)
    E = explicit.ExplicitGame(m.game)
    holds = [atl.evaluate(E, q.formula, m.definitions).tuples() for q in m.queries]
    assert atl.evaluate(E, m.formula("full"), m.definitions).tuples() == [(3, 1, 1), (3, 1, 2)]
    start, stuck = (0, 0, 1), (3, 1, 1)  # (U, X, j); no move once X holds
    assert [start in h for h in holds] == [True, True, True]
    assert [stuck in h for h in holds] == [True, False, True]


@pytest.mark.parametrize(
    "text, op",
    [
        ("<<1>> X x > 0", "X"),
        ("<<1>> a U b", "U"),
        ("<<1>> (a U b)", "U"),
        ("<<1>> X X", "X"),  # the second X is a name
    ],
)
def test_temporal_letters_still_parse_as_operators(text, op):
    f = parse_formula_text(text)
    assert isinstance(f, ast.Strategic) and f.op == op


def test_a_soft_keyword_after_an_operator_is_a_name():
    f = parse_formula_text("<<1>> X X")
    assert f.args == (ast.Name("X", False, f.span),)
    g = parse_formula_text("<<1>> U U X")
    assert (g.op, g.args[0].name, g.args[1].name) == ("U", "U", "X")
    assert parse_formula_text("R + U * X").op == "+"


@pytest.mark.parametrize(
    "text, column, word",
    [
        ("var if : bool", 5, "if"),
        ("const in = 3", 7, "in"),
        ("set s(then) = true", 7, "then"),
        ("var x : 0..3\nset s = x > mod", 13, "mod"),
        ("move for then true", 6, "for"),
    ],
)
def test_a_reserved_word_is_not_a_name(text, column, word):
    with pytest.raises(ParseError) as info:
        parse_model("players 1\nturn 1\n" + text, "m.game")
    err = info.value
    assert f"'{word}' is a reserved word" in err.message, err.message
    assert (err.span.line, err.span.column) == (3 + text.count("\n"), column)
