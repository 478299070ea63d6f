"""The vocabulary table and the grammar spell the same language."""

from __future__ import annotations

import pytest

from symbolic.lang import vocabulary
from symbolic.lang.grammar import _parser
from symbolic.lang.parser import parse_formula_text


def grammar_literals() -> set[str]:
    """The grammar's string terminals (keywords included), from the lark parser."""
    return {t.pattern.value for t in _parser().terminals if t.pattern.type == "str"}


def test_grammar_and_vocabulary_agree():
    literals = grammar_literals()
    assert literals - vocabulary.TOKENS == set(), "in the grammar, not in the vocabulary"
    assert vocabulary.TOKENS - literals == set(), "in the vocabulary, not in the grammar"


def test_keywords_are_the_words_of_the_grammar():
    words = {t for t in grammar_literals() if t.isidentifier()}
    assert vocabulary.KEYWORDS == words
    assert vocabulary.RESERVED | vocabulary.SOFT_KEYWORDS == words
    assert {"X", "U"} <= vocabulary.SOFT_KEYWORDS <= set(vocabulary.TEMPORAL)
    assert not vocabulary.RESERVED & vocabulary.SOFT_KEYWORDS


def test_a_shared_spelling_means_one_operator():
    for group in (
        vocabulary.PREFIX,
        vocabulary.CONNECTIVES,
        vocabulary.COMPARISONS,
        vocabulary.ARITHMETIC,
        vocabulary.QUANTIFIERS,
        vocabulary.TEMPORAL,
    ):
        for spelling, canonical in group.items():
            assert vocabulary.OPERATORS[spelling] == canonical


@pytest.mark.parametrize("spelling", sorted(vocabulary.CONNECTIVES))
def test_every_connective_spelling_parses_to_its_canonical_name(spelling):
    assert parse_formula_text(f"a {spelling} b").op == vocabulary.CONNECTIVES[spelling]


@pytest.mark.parametrize("spelling", sorted(vocabulary.TEMPORAL_PREFIX))
def test_every_prefix_temporal_spelling_parses(spelling):
    assert parse_formula_text(f"<<1>> {spelling} p").op == vocabulary.TEMPORAL_PREFIX[spelling]


def test_derived_sets():
    assert "if" in vocabulary.EXPRESSION_START and "[" not in vocabulary.EXPRESSION_START
    assert "not" in vocabulary.INFIX_OPERATORS  # of "not in"
    assert set(vocabulary.LOGIC.values()) == {"and", "or", "implies", "iff"}
    assert set(vocabulary.COALITION_OPERATORS.values()) == {"|", "&", "\\"}
