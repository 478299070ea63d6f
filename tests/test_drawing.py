"""The ``display`` declaration: parsing, checking (located errors) and drawing
(symbolic.lang.display, symbolic.display), on small models and the shipped ones."""

from __future__ import annotations

import inspect

import pytest

from symbolic import display as dr
from symbolic.explicit import display as xdr
from symbolic.errors import ModelError, ParseError, RangeError, WrongType
from symbolic.explicit import ExplicitGame
from symbolic.model import load_model, parse_model

from .conftest import MODELS


HEAD = """\
players 1, 2
var j : 1..2
var k : array[1..2] of 0..3
turn j
"""


def model(display: str):
    return parse_model(HEAD + display, "t.game")


def draw(m, pos) -> str:
    return xdr.render(m.display, m.space, pos)


def error_at(display: str, cls=WrongType):
    """The error for a display, with its line and column."""
    with pytest.raises(cls) as info:
        model(display)
    err = info.value
    return err.span.line, err.span.column, str(err)


# --------------------------------------------------------------------------- what it draws


def test_strings_numbers_repeat_join_and_if():
    m = model(
        'display join("\\n", "heap " + str(i) + ": " + repeat("|", k[i]) for i in 1..2)'
        ' + "\\n" + (if j = 1 then "first" else "second") + " to move"'
    )
    assert draw(m, (2, 3, 0)) == "heap 1: |||\nheap 2: \nsecond to move"
    assert draw(m, (1, 0, 2)) == "heap 1: \nheap 2: ||\nfirst to move"


def test_a_constant_tuple_of_strings_indexed_by_the_state():
    m = model(
        'const MARK = (".", "a", "b", "c")\n'
        'display join(" ", MARK[k[i]] for i in 1..2) + " " + str(k[1] > k[2])'
    )
    assert draw(m, (1, 3, 1)) == "c a true"
    assert draw(m, (1, 0, 2)) == ". b false"


def test_join_of_a_tuple_of_texts_and_a_repeated_drawing():
    m = model('display join(", ", ("j=" + str(j), repeat("k" + str(k[1]), k[2])))')
    assert draw(m, (1, 2, 3)) == "j=1, k2k2k2"
    assert draw(m, (2, 2, 0)) == "j=2, "


def test_no_display_means_none():
    assert model("").display is None


def test_adjacent_texts_are_merged_when_checked():
    m = model('display "a" + "b" + str(j) + "c" + "d"')
    assert m.display == dr.Concat((dr.Text("ab"), dr.Show(m.display.parts[1].expr), dr.Text("cd")))


def test_an_index_outside_the_tuple_is_a_located_error_when_drawn():
    m = model('const MARK = (".", "a")\ndisplay MARK[k[1]]')
    assert draw(m, (1, 1, 0)) == "a"
    with pytest.raises(RangeError) as info:
        draw(m, (1, 3, 0))
    assert info.value.span.line == 6 and "index 3 is outside 0..1" in str(info.value)


# --------------------------------------------------------------------------- located mistakes


@pytest.mark.parametrize(
    "display, column, words",
    [
        ("display k[1]", 9, "write str(...) to show a number"),
        ('display "n=" + k[1]', 16, "write str(...)"),
        ("display str(k'[1])", 13, "prime"),
        ('display repeat("|")', 9, "repeat takes 2 arguments"),
        ('display repeat("|", j = 1)', 21, "expected an int as the count of repeat"),
        ('display join(k[1], "a" for i in 1..2)', 14, "must be a constant"),
        ('display join("", "a")', 18, "join's second argument"),
        ('display "a" * 3', 9, "texts are joined with '+'"),
        ("display (1, 2)[j]", 9, "a display indexes a constant tuple of strings"),
        ('display if k[1] then "a" else "b"', 12, "expected a bool"),
        ("display str(zzz)", 13, "unknown name 'zzz'"),
        ("display players", 9, "expected text in a display"),
    ],
)
def test_mistakes_are_located(display, column, words):
    line, col, msg = error_at(display, (WrongType, ModelError))
    assert (line, col) == (5, column), msg
    assert words in msg, msg


def test_display_twice_is_an_error_naming_the_first():
    line, col, msg = error_at('display "a"\ndisplay "b"', ModelError)
    assert line == 6 and "declared twice (first at line 5)" in msg, msg


def test_display_is_a_reserved_word():
    with pytest.raises(ParseError) as info:
        parse_model(HEAD + "var display : bool", "t.game")
    assert "reserved word" in str(info.value)


def test_a_missing_text_is_a_parse_error_in_place():
    with pytest.raises(ParseError) as info:
        parse_model(HEAD + "display\n", "t.game")
    assert info.value.span.line == 5, str(info.value)


# --------------------------------------------------------------------------- dispatch


def test_every_drawing_class_is_drawn_and_walked():
    classes = {
        c
        for c in vars(dr).values()
        if inspect.isclass(c) and issubclass(c, dr.Drawing) and c is not dr.Drawing
    }
    assert set(xdr._DRAW) == classes
    assert set(dr._EXPRS) == classes


def test_an_unknown_drawing_class_fails_loudly():
    class Odd(dr.Drawing):
        pass

    from symbolic.ir import IntType, Space, VarDecl

    sp = Space((VarDecl("x", IntType(0, 1)),))
    with pytest.raises(AssertionError):
        xdr.render(Odd(), sp, (0,))
    with pytest.raises(AssertionError):
        dr.exprs(Odd())


# --------------------------------------------------------------------------- shipped models


def test_nim_draws_each_heap_as_its_matches_at_every_position():
    m = load_model(MODELS / "nim.game", {"n": 2, "K": 3})
    for pos in ExplicitGame(m.game).positions():
        lines = xdr.render(m.display, m.space, pos).splitlines()
        j, heaps = pos[0], pos[1:]
        assert lines == [f"heap {i}: {'|' * h} ({h})" for i, h in enumerate(heaps, 1)] + [
            f"player {j} to move"
        ], (pos, lines)


def test_tictactoe_draws_the_board_row_by_row_with_the_cells_numbers():
    m = load_model(MODELS / "tictactoe.game")
    board = (1, 0, 2, 0, 1, 0, 2, 0, 0)
    assert xdr.render(m.display, m.space, board) == (
        "O . X    1 2 3\n. O .    4 5 6\nX . .    7 8 9\nO to move"
    )
    # the numbers are the i of play(i): the cell play(i) marks is numbered i
    for i in range(1, 10):
        rows = xdr.render(m.display, m.space, tuple(int(k == i) for k in range(1, 10)))
        marked = [
            (r, line.split()[:3].index("O"))
            for r, line in enumerate(rows.split("\n")[:3])
            if "O" in line.split()[:3]
        ]
        ((r, col),) = marked
        assert rows.split("\n")[r].split()[3 + col] == str(i), rows


def test_chocolate_draws_the_whole_bar_with_the_square_of_death():
    m = load_model(MODELS / "chocolate.game", {"m": 4, "n": 3, "i": 1, "j": 1})
    for pos in ExplicitGame(m.game).positions():
        mover, l, r, u, d = pos
        rows = xdr.render(m.display, m.space, pos).splitlines()
        want = [
            "".join(
                "X"
                if (x, y) == (1, 1)
                else "#"
                if 1 - l <= x <= 1 + r and 1 - u <= y <= 1 + d
                else "."
                for x in range(4)
            )
            for y in range(3)
        ]
        assert rows == want + [f"player {mover} to move"], (pos, rows)


@pytest.mark.parametrize("name", ["tictactoe", "nim", "chocolate", "subtraction", "ens2005"])
def test_the_shipped_models_declare_a_display(name):
    m = load_model(MODELS / f"{name}.game")
    pos = ExplicitGame(m.game).positions().first()
    assert xdr.render(m.display, m.space, pos).strip()


@pytest.mark.parametrize(
    "text, column",
    [("const c = sum(1, i for i in 1..3)", 18), ("set s = k[1] > max(1, i for i in 1..3)", 23)],
)
def test_a_generator_after_another_argument_is_only_for_join(text, column):
    """The grammar reads ``f(a, e for x in D)`` for join; any other function says no."""
    with pytest.raises(WrongType) as info:
        parse_model(HEAD + text, "t.game")
    assert (info.value.span.line, info.value.span.column) == (5, column), str(info.value)
    assert "must be the only argument" in str(info.value)
