"""Messages in the user's words: the common slips get a located hint, and no
message names an internal class (issue 20, item 5)."""

from __future__ import annotations

import inspect
import re

import pytest

from symbolic import atl, ir
from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import ParseError, QueryError, SymbolicError
from symbolic.lang import ast
from symbolic.model import parse_arena, parse_formula, parse_model

from .test_lang_errors import check_render
from .conftest import ROOT

ENS = str(ROOT / "models" / "ens2005.game")
HEADER = "players 1, 2\nvar c : 0..9\nvar d : 0..3\nturn 1\n"
LINE = HEADER.count("\n") + 1  # the line after HEADER

#: every class name of the AST, the IR and the ATL formulas: none may reach a message
INTERNAL_NAMES = frozenset(
    name
    for module in (ast, ir, atl)
    for name, obj in vars(module).items()
    if inspect.isclass(obj) and obj.__module__ == module.__name__
) | {
    "ExprChecker",
    "FormulaChecker",
    "ModelChecker",
    "BuiltinCalls",
    "OperatorChecks",
    "BinderChecks",
    "ToAst",
    "Known",
    "Sym",
}


def internal_names_in(message: str) -> list[str]:
    return [w for w in re.findall(r"\b[A-Z]\w*\b", message) if w in INTERNAL_NAMES]


def parse_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_model(text, "m.game")
    return info.value


# --------------------------------------------------------------------------- slips


@pytest.mark.parametrize(
    "line, column, slip, hint",
    [
        (
            "move add when c < 5 then c' := c + d",
            29,
            ":=",
            "this language writes '=', as in c' = c + d",
        ),
        ("move add when c < 5 then c' = c + 1 and d' := 0", 44, ":=", "writes '='"),
        ("const N := 3", 9, ":=", "writes '='"),
        ("set s = c > 0 && d > 0", 15, "&&", "this language writes 'and', as in x > 0 and y > 0"),
        ("set s = c > 0 || d > 0", 15, "||", "this language writes 'or'"),
        ("set s = c = 1 -> d = 1", 15, "->", "this language writes 'implies'"),
    ],
)
def test_a_slip_from_another_language_gets_a_located_hint(line, column, slip, hint):
    err = parse_error(HEADER + line)
    check_render(err, LINE, column, f"unexpected '{slip}': ", length=2)
    assert hint in str(err).split("\n")[0], str(err)


def test_the_hint_is_located_on_a_later_line_of_a_move():
    err = parse_error(HEADER + "move add when c < 5\n  then c' = c + 1 and\n       d' := 0")
    check_render(err, LINE + 2, 11, "unexpected ':=': this language writes '='", length=2)


def test_a_slip_in_a_command_line_formula():
    with pytest.raises(ParseError) as info:
        parse_formula("<<1>> <> (c > 2 && d = 0)", parse_model(HEADER, "m.game"))
    check_render(
        info.value, 1, 17, "unexpected '&&': this language writes 'and'", file="<formula>", length=2
    )


def test_a_missing_then_after_a_guard_says_how_a_move_is_written():
    err = parse_error(HEADER + "move add when c < 5 c' = c + d")
    check_render(
        err,
        LINE,
        21,
        "unexpected name 'c': expected 'then' and the move's effect "
        "(a move is written move NAME when GUARD then EFFECT)",
    )


def test_double_equals_in_an_effect_is_accepted_and_means_equals():
    """docs/language.md: comparisons are `=` or `==`, effects included."""
    relations = []
    for eq in ("=", "=="):
        model = parse_model(
            HEADER + f"move add when c < 5 then c' {eq} c + d and d' {eq} d", "m.game"
        )
        engine = make_engine(model.game, "explicit")
        relations.append(
            sorted(engine.moves_between(engine.positions(), engine.positions()).pairs())
        )
    assert relations[0] == relations[1], (relations[0][:5], relations[1][:5])
    assert len(relations[0]) == sum(1 for c in range(5) for d in range(4) if c + d <= 9)


# --------------------------------------------------------------------------- no class names


def test_a_strategy_of_a_conjunction_is_refused_in_user_terms(capsys):
    status = main(["strategy", ENS, "--query", "F({1}) and initial", "--from", "initial"])
    err = capsys.readouterr().err
    assert status == 2, err
    head = err.split("\n")[0]
    assert head.startswith(
        "<formula>:1:1: error: a strategy is read from an until or a release formula"
    ), head
    assert "this one is an 'and' of two formulas" in head and "--from SET" in head, head
    assert internal_names_in(err) == [], err


@pytest.mark.parametrize(
    "query, words",
    [
        ("<<1>> X initial", "a next-move formula <<J>> X f"),
        ("not F({1})", "a negation 'not f'"),
        ("initial", "a state expression"),  # a named set: its body
        ("k[1] > 0", "a state expression"),
        ("true", "the constant true"),
        ("turn(1)", "a turn(...) test"),
        ("reach(initial)", "a reach(f) formula"),
    ],
)
def test_each_form_refused_by_strategy_is_named_in_user_terms(capsys, query, words):
    status = main(["strategy", ENS, "--query", query, "--from", "initial"])
    err = capsys.readouterr().err
    assert status == 2 and f"this one is {words}" in err, err
    assert internal_names_in(err) == [], err


def test_every_formula_class_has_a_description():
    formulas = {
        c
        for c in vars(atl).values()
        if inspect.isclass(c) and issubclass(c, atl.Formula) and c is not atl.Formula
    }
    assert formulas == set(atl._DESCRIPTIONS), formulas ^ set(atl._DESCRIPTIONS)


WRONG_FORMS = [
    "set s = c + (c > 0)",
    "set s = <<1>> X c > 0",
    "set s = {1, 2}",
    "set s = (c, d)",
    "set s = c[1] > 0",
    "set s = d'",
    "formula f = c",
    "query c + 1",
    "query <<1>> X c",
    "set s = max(c) > 0",
    "set s = c in c",
    "turn {1}",
    "invariant 3",
    "move m when c then c' = 1",
    "move m when true then c' = true",
    "set s = if c then 1 else 2",
    "set s = forall i in c: true",
    "set s = len(c) > 0",
    "query F(1)",
    "set s(x) = s(x)",
    "formula f(J) = <<J>> X J",
    "set s = (c > 0) < 3",
    "set s = -(c > 0)",
    "set s = not c",
    "set s = c / 2 > 0",
    "set s = {1} | (c > 0)",
    "set s = players > 0",
    "set s = turn(c)",
]


def rendered_messages() -> list[str]:
    """The rendered message of every wrong form above, of the slips, and of the
    pinned fuzz corpus (tests/fuzz_cases)."""
    texts = [("model", HEADER + w) for w in WRONG_FORMS]
    texts += [("model", HEADER + s) for s in ("move m when true then c' := 1", "set s = c && d")]
    for path in sorted((ROOT / "tests" / "fuzz_cases").glob("*.txt")):
        texts.append(
            (path.name.split("-", 1)[0], path.read_text(encoding="utf-8", errors="surrogatepass"))
        )
    out = []
    for kind, text in texts:
        try:
            if kind == "arena":
                parse_arena(text, "a.arena.json")
            else:
                parse_model(text, "m.game")
        except SymbolicError as err:
            out.append(str(err))
    return out


@pytest.mark.parametrize("text", WRONG_FORMS)
def test_every_wrong_form_is_refused_with_a_located_error(text):
    with pytest.raises(SymbolicError) as info:
        parse_model(HEADER + text, "m.game")
    assert str(info.value).startswith(f"m.game:{LINE}:"), str(info.value)


def test_no_rendered_message_names_an_internal_class():
    messages = rendered_messages()
    assert len(messages) >= len(WRONG_FORMS), len(messages)
    leaks = [(m.split("\n")[0], internal_names_in(m)) for m in messages if internal_names_in(m)]
    assert leaks == [], leaks


def test_the_class_name_check_would_see_a_leak():
    assert internal_names_in("... not a BoolOp") == ["BoolOp"]
    assert internal_names_in("unexpected 'U': expected 'X'") == []


def test_a_strategy_file_of_the_wrong_json_kind_says_it_in_json_terms(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text("[1, 2]", encoding="utf-8")
    status = main(
        [
            "execute",
            str(ROOT / "models" / "td_example.arena.json"),
            "--strategy",
            f"1={path}",
            "--from",
            "initial",
        ]
    )
    err = capsys.readouterr().err
    assert status == 2, err
    assert "expected a JSON object (a strategy), got an array" in err, err
    assert "list" not in err, err


def test_a_query_error_is_a_query_error():
    """The refusal above is a QueryError (exit 2), not an internal failure."""
    from symbolic.analysis.strategy import strategy_for

    model = parse_model(HEADER + "set s = c > 0", "m.game")
    engine = make_engine(model.game, "explicit")
    with pytest.raises(QueryError, match="this one is a state expression"):
        strategy_for(engine, parse_formula("s", model), model.definitions)
