"""The source texts' modules check their arguments at the boundary (issue 23, item 6):
hackendot, chomp and chocolate refuse wrong types and values with a SymbolicError,
never a plain TypeError, KeyError, AttributeError or RecursionError."""

from __future__ import annotations

import random

import pytest

from symbolic.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    QueryError,
    RangeError,
    SymbolicError,
)
from symbolic.seeds import chocolate, chomp, hackendot
from symbolic.seeds.hackendot import CORRECTED, Forest, Reading


def _refused(call, error, words=""):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, SymbolicError), type(info.value).__mro__
    assert words in str(info.value), str(info.value)


F = Forest.from_word("(()())()")

HACKENDOT_CASES = [
    (lambda: Forest.from_word(None), ArgumentTypeError, "the word"),
    (lambda: Forest.from_word("(()"), QueryError, "not a Dyck word"),
    (lambda: Forest([0, 1], [None, 0]), ArgumentTypeError, "the nodes"),
    (lambda: Forest((0, 1), (None,)), ArgumentValueError, "one parent per node"),
    (lambda: Forest((0, 1), (None, 5)), ArgumentValueError, "not a node before it"),
    (lambda: Forest((0, True), (None, None)), ArgumentTypeError, "distinct ints"),
    (lambda: F.children(9), QueryError, "not in the forest"),
    (lambda: F.path("0"), QueryError, "not in the forest"),
    (lambda: F.remove_path(None), QueryError, "not in the forest"),
    (lambda: F.without(3, "roots"), ArgumentTypeError, "the removed nodes"),
    (lambda: F.without({0}, "leaves"), ArgumentValueError, "reattach"),
    (lambda: Reading("r", True, "roots", "nimber"), ArgumentValueError, "move_check"),
    (lambda: Reading("r", 1, "roots", "rip"), ArgumentTypeError, "count_start"),
    (lambda: hackendot.colours("(())"), ArgumentTypeError, "Forest.from_word"),
    (lambda: hackendot.rip(None), ArgumentTypeError, "the forest"),
    (lambda: hackendot.sequence(F, "corrected"), ArgumentTypeError, "the reading"),
    (lambda: hackendot.wins(F, None), ArgumentTypeError, "the reading"),
    (lambda: hackendot.winning_move("()", CORRECTED), ArgumentTypeError, "the forest"),
    (lambda: hackendot.ulehla_value(F, {}), ArgumentTypeError, "the reading"),
    (lambda: hackendot.nimber([1, 2]), ArgumentTypeError, "the forest"),
    (lambda: hackendot.strip_kernel(F, 0), ArgumentValueError, "reattach"),
    (lambda: list(hackendot.all_dyck("3")), ArgumentTypeError, "the size"),
    (lambda: list(hackendot.all_dyck(10**4)), ArgumentValueError, "at most"),
    (lambda: hackendot.random_dyck(5, 1), ArgumentTypeError, "rng"),
    (lambda: hackendot.random_dyck(5.0, random.Random(0)), ArgumentTypeError, "the size"),
]


@pytest.mark.parametrize("case", range(len(HACKENDOT_CASES)))
def test_hackendot_boundary(case):
    call, error, words = HACKENDOT_CASES[case]
    _refused(call, error, words)


def test_a_deep_forest_prints_without_recursion():
    word = "(" * 5000 + ")" * 5000
    assert Forest.from_word(word).word() == word


@pytest.fixture(scope="module")
def boards():
    return chomp.board_nimbers(2, False, "explicit")


CHOMP_CASES = [
    (lambda b: chomp.verdicts({}, 3), QueryError, "lack the 1 × 1 tablet"),
    (lambda b: chomp.verdicts(b, 3), QueryError, "lack the 1 × 3 tablet"),
    (lambda b: chomp.verdicts(None, 2), ArgumentTypeError, "the boards"),
    (lambda b: chomp.verdicts(b, "2"), ArgumentTypeError, "the board size"),
    (lambda b: chomp.verdicts(b, 9), QueryError, "board size must be 1..4"),
    (lambda b: chomp.verdicts({frozenset({(1, 1)}): "0"}, 1), ArgumentTypeError, "nimber"),
    (lambda b: chomp.verdicts({frozenset({1}): 0}, 1), ArgumentTypeError, "a square is a pair"),
    (lambda b: chomp.tablet_nimbers(b, 0), QueryError, "board size"),
    (lambda b: chomp.tablet("2", 2), ArgumentTypeError, "the rows"),
    (lambda b: chomp.components(5), ArgumentTypeError, "a board"),
    (lambda b: chomp.components({("a", 1)}), ArgumentTypeError, "a square is a pair"),
    (lambda b: chomp.rectangle(None), ArgumentTypeError, "a component"),
    (lambda b: chomp.board_nimbers(2, "yes"), ArgumentTypeError, "edge"),
    (lambda b: chomp.board_nimbers(True, False), ArgumentTypeError, "the board size"),
    (lambda b: chomp.board_nimbers(2, False, "quantum"), QueryError, "unknown engine"),
]


@pytest.mark.parametrize("case", range(len(CHOMP_CASES)))
def test_chomp_boundary(boards, case):
    call, error, words = CHOMP_CASES[case]
    _refused(lambda: call(boards), error, words)


def test_chomp_checked_calls_still_answer(boards):
    assert chomp.rectangle(frozenset()) is None
    # the explicit engine's boards against the symbolic engine's
    assert chomp.tablet_nimbers(boards, 2) == chomp.tablet_nimbers(
        chomp.board_nimbers(2, False, "symbolic"), 2
    )
    assert {v.verdict for v in chomp.verdicts(boards, 2)} <= {"holds", "false", "untested"}


@pytest.fixture(scope="module")
def bar():
    return chocolate.BarValues(2, "explicit")


CHOCOLATE_CASES = [
    (lambda v: chocolate.load_bar("2"), ArgumentTypeError, "half"),
    (lambda v: chocolate.load_bar(-1), ArgumentValueError, "half"),
    (lambda v: chocolate.load_bar(10**6), ArgumentValueError, "half"),
    (lambda v: chocolate.BarValues(None), ArgumentTypeError, "half"),
    (lambda v: chocolate.BarValues(1, 5), ArgumentTypeError, "the engine kind"),
    (lambda v: v.value(5, 5, 2, "2"), ArgumentTypeError, "j"),
    (lambda v: v.value(5, 5, 7, 2), QueryError, "square of death"),
    (lambda v: v.value(99, 99, 49, 49), QueryError, "exceed 2"),
    (lambda v: v.configurations(3, 3, None), ArgumentTypeError, "the value"),
    (lambda v: v.configurations(0, 5, 1), ArgumentValueError, "m must be at least 1"),
    (lambda v: chocolate.answers("values"), ArgumentTypeError, "values"),
    (lambda v: chocolate.answers(v), QueryError, "exceed 2"),
]


@pytest.mark.parametrize("case", range(len(CHOCOLATE_CASES)))
def test_chocolate_boundary(bar, case):
    call, error, words = CHOCOLATE_CASES[case]
    _refused(lambda: call(bar), error, words)


def test_chocolate_checked_calls_still_answer(bar):
    # the square of death alone: the player to move must eat it, value 0
    assert bar.value(1, 1, 0, 0) == 0
    assert isinstance(bar.value(5, 5, 2, 2), int)
    with pytest.raises(RangeError):
        bar.ranks.rank((3, 0, 0, 0, 0))
