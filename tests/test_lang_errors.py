"""Errors of the model language: each kind carries FILE:LINE:COL, the source line
and a caret under the offending text, with a message in human terms."""

from __future__ import annotations

from pathlib import Path

import pytest

from symbolic.errors import (
    FileError,
    ModelError,
    ParseError,
    QueryError,
    RangeError,
    SymbolicError,
    UnknownName,
    WrongType,
)
from symbolic.model import load_model, parse_formula, parse_model

HEADER = "players 1, 2\nvar j : 1..2\nvar x : 0..5\nvar k : array[1..3] of 0..4\nturn j\n"
FIRST = HEADER.count("\n") + 1  # the line number of the first line after HEADER


def fails(text: str, kind=SymbolicError, params=None) -> SymbolicError:
    """The error ``parse_model`` raises on ``text`` (file name ``m.game``)."""
    with pytest.raises(kind) as info:
        parse_model(text, "m.game", params)
    return info.value


def check_render(
    err: SymbolicError,
    line: int,
    column: int,
    message: str,
    file: str = "m.game",
    length: int | None = None,
) -> None:
    """``str(err)`` is ``FILE:LINE:COL: error: ...``, the line, and a caret at COL."""
    head, source, caret = str(err).split("\n")
    assert head.startswith(f"{file}:{line}:{column}: error: "), head
    assert message in head, head
    assert source.startswith("    ") and source[4:] == err.span.text
    assert caret.startswith("    ")
    marks = caret[4:]
    assert marks.index("^") == column - 1
    if length is not None:
        assert marks.count("^") == length


# --------------------------------------------------------------------------- syntax


@pytest.mark.parametrize(
    "line, column, message",
    [
        ("set s = forall i in 1..3 k[i] > 0", 26, "expected ':' after the quantifier domain"),
        ("set s = x @ 2", 11, "unexpected character '@'"),
        ("set s = (x + 1", 15, "expected ')' to close the '('"),
        ("move m when x > 0 x' = 1", 19, "expected 'then' and the move's effect"),
        ("var in : bool", 5, "'in' is a reserved word"),
        ("formula f = <<1>> x > 0 and x < 3 U x = 0", 25, "expected 'U'"),
        ("set s = if x > 0 then 1", 24, "expected 'else'"),
        ("var y 0..3", 7, "expected ':' and a type after the variable name"),
        ("var y : array[1..3] 0..3", 21, "expected 'of'"),
        ("const c = ", 10, "unexpected end of input: expected an expression"),
        ("formula f = <<1>>", 18, "expected a temporal operator after the coalition"),
    ],
)
def test_syntax_errors(line, column, message):
    err = fails(HEADER + line, ParseError)
    check_render(err, FIRST, column, message)


def test_syntax_error_on_a_later_line():
    err = fails(HEADER + "set ok = x > 0\n\nset bad = x > > 0", ParseError)
    check_render(err, FIRST + 2, 15, "unexpected '>': expected an expression", length=1)


# --------------------------------------------------------------------------- names


def test_unknown_name_suggests():
    err = fails(HEADER + "set s = xx > 0", UnknownName)
    check_render(err, FIRST, 9, "unknown name 'xx' (did you mean 'x'?)", length=2)


def test_unknown_name_suggests_other_case():
    err = fails("param K = 3\n" + HEADER + "set s = x < k0 + κ", UnknownName)
    assert "unknown name 'k0'" in str(err)
    err = fails("param K = 3\n" + HEADER + "set s = x < k", WrongType)
    assert "'k' is an array" in str(err)
    err = fails("param Kmax = 3\n" + HEADER + "set s = x < kmax", UnknownName)
    check_render(err, FIRST + 1, 13, "did you mean 'Kmax'?")


def test_name_used_before_its_declaration():
    err = fails(HEADER + "set s = x < limit\nconst limit = 3", UnknownName)
    check_render(
        err, FIRST, 13, f"'limit' is used before its declaration as a const (line {FIRST + 1})"
    )


def test_unknown_function():
    err = fails(HEADER + "const c = lgc(0, 1, 1, 7, 3)", UnknownName)
    check_render(err, FIRST, 11, "unknown function 'lgc' (did you mean 'lcg'?)")


def test_duplicate_declarations():
    err = fails(HEADER + "const x = 3", ModelError)
    check_render(err, FIRST, 7, "'x' is already declared at line 3 (as a var)")
    err = fails(HEADER + "move m then x' = 0\nmove m then x' = 1", ModelError)
    check_render(err, FIRST + 1, 6, "move 'm' is already declared at line 6")


def test_rebinding_a_bound_name():
    err = fails(HEADER + "set s = forall i in 1..3: exists i in 1..3: k[i] > 0", UnknownName)
    check_render(err, FIRST, 34, "'i' is already bound here")


# --------------------------------------------------------------------------- types


@pytest.mark.parametrize(
    "line, column, message",
    [
        ("set s = x + (x > 1) > 0", 14, "expected an int after '+', got a bool"),
        ("set s = x", 9, "expected a bool as the body of set 's', got an int"),
        ("set s = x' > 0", 9, "primed variable x' outside a move effect"),
        ("move m when x' > 0 then x' = 0", 13, "primed variable x'"),
        ("set s = x / 2 > 0", 9, "integer (floor) division is written div"),
        ("set s = x == true", 9, "cannot compare an int with a bool"),
        ("set s = j[1] = 0", 9, "'j' is a scalar variable, not an array"),
        ("set s = turn({1}) and x > 0", 9, "declare it with 'formula' instead"),
        ("formula f(J: coalition) = k[J] = 0", 29, "'J' is a coalition parameter"),
        (
            "formula f(j) = <<{j}>> X true\nquery f(1, 2)",
            7,
            "formula 'f' takes 1 argument (j), got 2",
        ),
        ("formula f = <<1>> X x + 1", 21, "expected a bool as a formula, got an int"),
        ("const c = {1, (2, 3)}", 11, "a set's elements must all have the same type"),
        (
            "set s = forall i in 0..x: k[1] > i",
            24,
            "must be a constant, but it reads the state variable 'x'",
        ),
        ("set s = x + 1 in {(1, 2)}", 9, "cannot look for an int among values of type (int, int)"),
        ("const c = lcg(0, 1, 1, true, 3)", 11, "lcg: m must be an int, got bool"),
        ("set s = (1, 2)[x] = {1}", 9, "cannot compare an int with a set of int"),
        ("formula f(j: team) = true", 14, "unknown parameter kind 'team'"),
    ],
)
def test_type_errors(line, column, message):
    err = fails(HEADER + line, WrongType)
    check_render(err, FIRST + line.count("\n"), column, message)


# --------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    "line, column, message",
    [
        ("var y : 5..3", 9, "empty range 5..3 for the variable 'y'"),
        ("var a : array[2..1] of bool", 9, "empty index range 2..1 for the array 'a'"),
        ("set s = k[4] > 0", 11, "index 4 is outside k[1..3]"),
        (
            "const t = (1, 2)\nset s = t[2] = x",
            11,
            "index 2 is out of range for a tuple of length 2 (tuples are indexed from 0)",
        ),
        ("formula f = <<3>> X true", 15, "player 3 is not among the players {1, 2}"),
        ("const c = 1 div 0", 11, "division by zero"),
        ("set s = x mod 0 = 1", 15, "the divisor of mod must be a positive constant, got 0"),
        ("const c = lcg(0, 1, 1, 7, -1)", 11, "lcg: count must be >= 0"),
    ],
)
def test_range_errors(line, column, message):
    err = fails(HEADER + line, RangeError)
    check_render(err, FIRST + line.count("\n"), column, message)


# --------------------------------------------------------------------------- model-level


def test_primed_element_with_a_state_index():
    err = fails(HEADER + "move m then k'[j] = 0", ModelError)
    check_render(
        err,
        FIRST,
        16,
        "the index of the primed element k'[...] must not depend on the position (it reads 'j')",
    )


def test_missing_turn_and_players():
    err = fails('game "g"\nplayers 1\nvar x : 0..1', ModelError)
    check_render(err, 1, 1, "the model has no 'turn' declaration")
    err = fails('game "g"\nvar x : 0..1\nturn 1', ModelError)
    check_render(err, 1, 1, "the model has no 'players' declaration")


# --------------------------------------------------------------------------- parameters

PARAMS = "param N : 2..5 = 3, fast = false\nplayers 1..N\nturn 1\n"


def test_unknown_parameter_override():
    err = fails(PARAMS, UnknownName, params={"N": 4, "n": 2})
    check_render(
        err,
        1,
        6,
        "unknown parameter 'n' (did you mean 'N'?); the parameters are N, fast",
        file="<params>",
    )
    assert err.span.text == "N=4, n=2"


def test_parameter_override_out_of_range():
    err = fails(PARAMS, RangeError, params={"N": 9})
    check_render(err, 1, 1, "parameter 'N' = 9 is outside its declared range 2..5", file="<params>")


def test_parameter_override_wrong_type():
    err = fails(PARAMS, WrongType, params={"N": 3, "fast": 3})
    check_render(err, 1, 6, "parameter 'fast' is a bool, got an int (3)", file="<params>")
    err = fails(PARAMS, WrongType, params={"N": "three"})
    assert "cannot read 'three' as an int or a boolean" in str(err)
    err = fails(PARAMS, TypeError, params={"N": 2.5})  # the API's ArgumentTypeError
    assert "N = 2.5: a value is an int, a bool or a string" in str(err)


def test_parameter_default_out_of_range():
    err = fails("param N : 2..5 = 7\nplayers 1\nturn 1", RangeError)
    check_render(err, 1, 18, "parameter 'N' = 7 is outside its declared range 2..5")


def test_parameter_must_be_scalar():
    err = fails("param N = (1, 2)\nplayers 1\nturn 1", WrongType)
    check_render(err, 1, 11, "use const for other values")


# --------------------------------------------------------------------------- files and formulas


def test_missing_file(tmp_path):
    with pytest.raises(FileError) as info:
        load_model(tmp_path / "nope.game")
    assert "nope.game: no such model file" in str(info.value)
    with pytest.raises(FileError) as info:
        load_model(tmp_path)
    assert "is a directory" in str(info.value)


def test_errors_in_a_loaded_file_name_the_file(tmp_path):
    path = tmp_path / "bad.game"
    path.write_text(HEADER + "set s = y > 0\n", encoding="utf-8")
    with pytest.raises(UnknownName) as info:
        load_model(path)
    check_render(info.value, FIRST, 9, "unknown name 'y'", file=str(path))


def test_formula_errors_point_into_the_formula():
    m = parse_model(HEADER + "formula G(p) = <<{p}>> X true")
    with pytest.raises(ParseError) as info:
        parse_formula("<<1>> X (x > 0", m)
    check_render(info.value, 1, 15, "expected ')' to close the '(' at 1:9", file="<formula>")
    with pytest.raises(UnknownName) as info:
        parse_formula("<<1>> X G(1) and H(2)", m)
    check_render(info.value, 1, 18, "unknown function 'H'", file="<formula>")
    with pytest.raises(WrongType) as info:
        parse_formula("G(1) + 1", m)
    check_render(
        info.value, 1, 1, "an ATL formula cannot be used as a value here", file="<formula>"
    )
    with pytest.raises(ParseError) as info:
        parse_formula("   ", m)
    assert "empty formula" in str(info.value)


def test_an_unterminated_block_comment_says_so():
    err = fails(HEADER + "/* a comment that never ends\nvar y : 0..1\n", ParseError)
    check_render(err, FIRST, 1, "unterminated comment: this '/*' has no closing '*/'", length=2)
    err = fails(HEADER + "var y : 0..1 /* closed */ /* open", ParseError)
    check_render(err, FIRST, 27, "unterminated comment", length=2)


def test_a_utf8_bom_at_the_start_of_a_file_is_accepted(tmp_path):
    path = tmp_path / "bom.game"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + "query x = 0\n").encode("utf-8"))
    m = load_model(path)
    assert m.players == (1, 2) and m.queries[0].text == "x = 0", m


def test_carets_line_up_after_tabs_and_wide_characters():
    err = fails(HEADER + "\tset 漢字 = x @ 1\n", ParseError)
    head, source, caret = str(err).split("\n")
    assert source == "    \tset 漢字 = x @ 1", source
    # the tab is kept, each wide character takes two columns: '@' stands above the caret
    assert caret == "    \t" + " " * (4 + 2 * 2 + 5) + "^", repr(caret)


def test_the_div_message_names_div_not_the_ir_operator():
    from symbolic.engines import make_engine

    m = parse_model(HEADER + "set s = forall d in 0..1: x div d = 1\n", "m.game")
    for kind in ("explicit", "symbolic"):
        with pytest.raises(ModelError) as info:
            make_engine(m.game, kind).from_expr(m.definitions["s"].body.expr)
        assert "'div' must be a positive constant" in str(info.value), (kind, str(info.value))
        assert "//" not in str(info.value), (kind, str(info.value))


def test_a_device_is_refused_without_being_read():
    with pytest.raises(FileError) as info:
        load_model("/dev/zero")  # would be read forever
    assert "not a regular file" in str(info.value), str(info.value)


@pytest.mark.parametrize("name", ["\0", "models/nim\0.game", Path("nim\0.game")])
def test_a_file_name_with_a_nul_is_a_file_error_not_a_value_error(name):
    """Found by hypothesis (test_api_errors): Path.read_text raised ValueError."""
    with pytest.raises(FileError) as info:
        load_model(name)
    assert "cannot hold a NUL character" in str(info.value), str(info.value)


def test_an_arena_file_in_upper_case_is_read_as_an_arena(tmp_path):
    arena = Path(__file__).resolve().parent.parent / "models" / "td_example.arena.json"
    path = tmp_path / "TD.ARENA.JSON"
    path.write_bytes(arena.read_bytes())
    assert load_model(path).game == load_model(arena).game


# --------------------------------------------------------------------------- issue 11


def test_a_self_referencing_formula_is_called_recursive():
    err = fails(HEADER + "move m then x' = x\nformula A = <<1>> X A\n", UnknownName)
    check_render(err, FIRST + 1, 21, "'A' refers to itself: a formula cannot be recursive")
    err = fails(HEADER + "move m then x' = x\nset S(i) = x = i or S(i)\n", UnknownName)
    check_render(err, FIRST + 1, 21, "'S' refers to itself: a set cannot be recursive")


def test_a_bad_player_argument_is_reported_at_the_call():
    from symbolic import atl
    from symbolic.engines import make_engine
    from symbolic.errors import UnknownPlayer

    m = parse_model(
        HEADER + "move m then x' = x\nformula W(p) = <<{p}>> X x = 0\n"
        "formula V(q) = W(q) and <<q>> X true\n",
        "m.game",
    )
    f = parse_formula("V(0)", m)
    with pytest.raises(UnknownPlayer) as info:
        atl.Evaluator(make_engine(m.game, "explicit"), m.definitions)(f)
    err = info.value
    check_render(
        err,
        1,
        1,
        "unknown player(s) [0]: the players are [1, 2] (passed to V -> W, "
        f"whose coalition is at line {FIRST + 1}, column 18 of m.game)",
        file="<formula>",
        length=4,
    )
    assert isinstance(err, QueryError) and err.unknown == [0] and err.players == [1, 2]


def test_a_constant_formula_condition_selects_one_branch():
    from symbolic import atl
    from symbolic.engines import make_engine

    m = parse_model(
        "param N = 2\nplayers 1..N\nvar j : 1..N\nturn j\nmove m then j' = 3 - j\n"
        "formula Gone(p) = <<{p}>> X false\n"
        "formula T = if N >= 3 then <<1>> X Gone(3) else false\nquery T\n",
        "m.game",
    )
    # the branch naming player 3 is dropped: evaluating T raises no UnknownPlayer
    for kind in ("explicit", "symbolic"):
        assert (
            atl.Evaluator(make_engine(m.game, kind), m.definitions)(m.queries[0].formula).tuples()
            == []
        )


@pytest.mark.parametrize(
    "const, words",
    [
        ("const S = 0..pow(10, 18)", "has 1000000000000000001 values, more than the 10000000"),
        ("const P = pow(7, pow(10, 10))", "pow(7, 10000000000) would have more than 10000 bits"),
        ("const U = lcg(0, 101, 269, 4890367, pow(10, 9))", "1000000000 terms asked"),
        ("const S = {(x, y) for x in 0..5000 for y in 0..5000}", "too many constant bindings"),
        ("const b = forall x in 0..5000, y in 0..5000: x + y >= 0", "too many constant bindings"),
    ],
)
def test_absurd_constants_are_refused_at_once(const, words):
    import time

    t0 = time.perf_counter()
    err = fails(HEADER + const + "\n", RangeError)
    assert words in err.message and err.span.line == FIRST, (err.message, err.span)
    assert time.perf_counter() - t0 < 30  # refused, not computed (generous: shared CI)


# --------------------------------------------------------------------------- chains of definitions


def _chain(n: int, first: str, step: str, kind: str = "formula") -> str:
    """A model whose definitions f1 ... f(n-1) each name the previous one (issue 23)."""
    lines = [HEADER.rstrip("\n"), f"{kind} f0 = {first}"]
    lines += [f"{kind} f{i} = " + step.format(p=f"f{i - 1}") for i in range(1, n)]
    lines += ["move m when x < 5 then x' = x + 1", f"query f{n - 1}", f"query <<1>> <> f{n - 1}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "first, step, kind, name, line, depth",
    [
        ("x > 0", "{p} and x > 0", "formula", "f398", FIRST + 398, 401),  # inlined, as a set
        ("x > 0", "{p} and x > 0", "set", "f398", FIRST + 398, 401),
        ("<<1>> X x > 0", "{p} and true", "formula", "f199", FIRST + 199, 402),
        ("x > 0", "<<1>> X {p}", "formula", "f199", FIRST + 199, 401),
    ],
)
def test_a_long_chain_of_definitions_is_refused_at_the_definition(
    first, step, kind, name, line, depth
):
    from symbolic.limits import MAX_EXPANDED_NESTING

    err = fails(_chain(3000, first, step, kind), ModelError)
    check_render(
        err,
        line,
        len(kind) + 2,
        f"{kind} '{name}' nests {depth} levels deep once the sets and formulas it "
        f"names are expanded (at most {MAX_EXPANDED_NESTING})",
        length=len(name),
    )


@pytest.mark.parametrize(
    "first, step, kind, n",
    [
        ("x > 0", "{p} and x > 0", "set", 398),
        ("<<1>> X x > 0", "{p} and true", "formula", 199),
        ("x > 0", "<<1>> X {p}", "formula", 199),
    ],
)
def test_a_chain_just_within_the_limit_is_answered_by_both_engines(first, step, kind, n):
    from symbolic import atl
    from symbolic.engines import make_engine

    model = parse_model(_chain(n, first, step, kind), "m.game")
    answers = []
    for engine in ("symbolic", "explicit"):
        ev = atl.Evaluator(make_engine(model.game, engine), model.definitions)
        answers.append([sorted(ev(q.formula).tuples()) for q in model.queries])
    assert answers[0] == answers[1], answers
