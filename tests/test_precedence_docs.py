"""docs/language.md's operator precedence says what the parser does.

Two kinds of checks: every "`A` is `B`" example of the precedence section
parses to the same AST on both sides, and the precedence table, level by
level (ATL's ``<<J>> X`` / ``<>`` / ``[]`` and ``not`` at level 5: tighter
than ``and``/``or``/``implies``/``iff``, looser than comparisons and
arithmetic). Spans are not part of AST equality, so ``(a) and b`` equals
``a and b``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from symbolic.errors import ParseError
from symbolic.lang import parse_formula_text

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def parse(text: str):
    return parse_formula_text(text)


def same(a: str, b: str) -> bool:
    return parse(a) == parse(b)


def doc_examples() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("Operators, loosest first")
    section = text[start : text.index("## ATL formulas", start)]
    return re.findall(r"`([^`]+)` is\s+`([^`]+)`", section)


def test_the_section_has_examples():
    assert len(doc_examples()) >= 15


@pytest.mark.parametrize("text, meaning", doc_examples())
def test_each_documented_example_parses_as_stated(text, meaning):
    assert same(text, meaning)


# --------------------------------------------------------------------- the table

LOOSE = ["iff", "implies", "or", "and"]  # levels 1-4, loosest first
TIGHT = ["=", "..", "+", "*"]  # levels 6-9, loosest first
BINARY = LOOSE + TIGHT
PREFIXES = ["not", "<<1>> X", "<<1>> <>", "<<1>> []", "<<1>> ○", "⟨⟨1⟩⟩ ◇", "<<1>> □"]


@pytest.mark.parametrize("i", range(len(BINARY) - 1))
def test_binary_levels_in_table_order(i):
    for loose in BINARY[: i + 1]:
        tight = BINARY[i + 1]
        assert same(f"a {loose} b {tight} c", f"a {loose} (b {tight} c)"), (loose, tight)
        assert same(f"a {tight} b {loose} c", f"(a {tight} b) {loose} c"), (loose, tight)


@pytest.mark.parametrize("prefix", PREFIXES)
def test_level_5_prefixes_bind_tighter_than_the_connectives(prefix):
    for op in LOOSE:
        assert same(f"{prefix} a {op} b", f"({prefix} a) {op} b"), op
        assert same(f"a {op} {prefix} b", f"a {op} ({prefix} b)"), op


@pytest.mark.parametrize("prefix", PREFIXES)
def test_level_5_prefixes_bind_looser_than_comparisons_and_arithmetic(prefix):
    for op in TIGHT:
        assert same(f"{prefix} a {op} b", f"{prefix} (a {op} b)"), op
    assert same(f"{prefix} x + 1 > 2", f"{prefix} (x + 1 > 2)")
    assert same(f"{prefix} -k[1] * 2 in 0..3", f"{prefix} (((-(k[1])) * 2) in (0..3))")


def test_the_issue_examples():
    assert same("<<1>> X a and b", "(<<1>> X a) and b")
    assert not same("<<1>> X a and b", "<<1>> X (a and b)")
    assert same("<<1>> X x + 1 > 2", "<<1>> X (x + 1 > 2)")


def test_level_5_prefixes_nest():
    assert same("not <<1>> X a", "not (<<1>> X a)")
    assert same("<<1>> X not a and b", "(<<1>> X (not a)) and b")
    assert same("<<1>> X <<2>> <> <<3>> [] a or b", "(<<1>> X (<<2>> <> (<<3>> [] a))) or b")


def test_until_takes_two_level_5_operands():
    for op in LOOSE:
        assert same(f"<<1>> a U b {op} c", f"(<<1>> a U b) {op} c"), op
        assert same(f"c {op} <<1>> a U b", f"c {op} (<<1>> a U b)"), op
    for op in TIGHT:
        assert same(f"<<1>> a {op} b U c {op} d", f"<<1>> (a {op} b) U (c {op} d)"), op
    assert same("<<1>> not a U <<2>> X b", "<<1>> (not a) U (<<2>> X b)")


def test_until_parenthesised_form_takes_whole_formulas():
    assert same("<<1>> (a U b)", "<<1>> a U b")
    assert same("<<1>> (a implies b U c iff d)", "<<1>> (a implies b) U (c iff d)")


def test_until_does_not_chain_and_ranges_do_not_chain():
    for text in ("<<1>> a U b U c", "0..1..2"):
        with pytest.raises(ParseError):
            parse(text)
    assert same("<<1>> a U (<<2>> b U c)", "<<1>> a U (<<2>> (b U c))")


def test_associativity():
    assert same("a iff b iff c", "(a iff b) iff c")
    assert same("a implies b implies c", "a implies (b implies c)")
    assert same("a or b or c", "(a or b) or c")
    assert same("a and b and c", "(a and b) and c")
    assert same("a - b - c", "(a - b) - c")
    assert same("a div b * c", "(a div b) * c")
    assert same("-a * b", "(-a) * b")


def test_quantifiers_and_if_extend_to_the_right():
    assert same("forall i in 1..2: p and q", "forall i in 1..2: (p and q)")
    assert same("<<1>> X exists i in 1..2: p or q", "<<1>> X (exists i in 1..2: (p or q))")
    assert same("<<1>> [] if c then a else b and d", "<<1>> [] (if c then a else (b and d))")
    assert not same("(forall i in 1..2: p) and q", "forall i in 1..2: p and q")
