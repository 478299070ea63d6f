"""The frame rule is syntactic and does not depend on constant folding
(docs/language.md: a variable primed anywhere in the effect is changed).

A random effect mixes primed atoms with branches on a condition over ``N``; the
same effect is written three ways — ``N`` a model parameter (its branches are
folded at load time), a move parameter, a quantified name (both kept in the
IR) — and every position must have the same successors in all three, on every
engine. ``make fuzz`` runs more cases (``SYMBOLIC_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.model import parse_model

from .conftest import all_engines

HEAD = 'game "frame"\nplayers 1\nvar x : 0..2\nvar b : bool\nvar k : array[1..2] of 0..1\nturn 1\n'
ATOMS = [
    "x' = 0",
    "x' = x",
    "b' = (not b)",
    "b'",
    "k'[1] = 0",
    "k'[2] = k[1]",
    "(forall i in 1..2: k'[i] = 1)",
    "(forall i in 2..2: k'[i] = 0)",
    "k'[3 - 1] = 1",
    "true",
    "false",
    "x >= 1",
]


@st.composite
def effects(draw, depth=3):
    """An effect text using the condition ``N > v`` in branches."""
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(ATOMS))
    cond = f"N > {draw(st.integers(0, 2))}"
    a, b = draw(effects(depth - 1)), draw(effects(depth - 1))
    form = draw(st.sampled_from(["if", "and", "or", "implies", "conj", "or_true"]))
    return {
        "if": f"(if {cond} then {a} else {b})",
        "and": f"({cond} and {a})",
        "or": f"({cond} or {a})",
        "implies": f"({cond} implies {a})",
        "conj": f"({a} and {b})",
        "or_true": f"({a} or true)",
    }[form]


def spellings(effect: str, n: int) -> dict[str, str]:
    return {
        "param": HEAD + f"param N = {n}\nmove a then {effect}\n",
        "move parameter": HEAD + f"move a(N in {{{n}}}) then {effect}\n",
        "quantified": HEAD + f"move a then exists N in {{{n}}}: {effect}\n",
    }


def successor_table(engine) -> dict:
    return {p: engine.successors(p).tuples() for p in engine.positions().tuples()}


def check(effect: str, n: int) -> None:
    tables = {}
    for how, text in spellings(effect, n).items():
        game = parse_model(text).game
        for eng in all_engines(game):
            tables[(how, eng.kind, getattr(eng, "backend", ""))] = successor_table(eng)
    (ref_key, ref), *rest = tables.items()
    for key, table in rest:
        diff = [p for p in ref if ref[p] != table[p]]
        assert not diff, (
            f"effect {effect!r}, N = {n}: {key} differs from {ref_key} at "
            f"{diff[0]}: {table[diff[0]]} vs {ref[diff[0]]}"
        )


@pytest.mark.parametrize(
    "effect, n, changed",
    [
        ("if N > 1 then x' = 0 else true", 1, 3),  # x free: 3 values
        ("N > 1 and x' = 0 or true", 0, 3),
        ("x' = 0 or true", 0, 3),
        ("if N > 1 then forall i in 2..2: k'[i] = 0 else true", 1, 2),  # only k[2] free
        ("if N > 1 then b' else x' = x", 1, 2),  # b free, x kept
    ],
)
def test_the_issue_cases(effect, n, changed):
    check(effect, n)
    eng = all_engines(parse_model(spellings(effect, n)["param"]).game)[0]
    assert len(eng.successors((0, 0, 0, 0))) == changed, eng.successors((0, 0, 0, 0)).tuples()


COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=30, **COMMON)
@given(effects(), st.integers(0, 2))
def test_folding_does_not_change_the_frame(effect, n):
    check(effect, n)


@pytest.mark.fuzz
def test_fuzz_folding_does_not_change_the_frame():
    runs = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000")) // 10

    @settings(max_examples=runs, database=None, **COMMON)
    @given(effects(depth=4), st.integers(0, 2))
    def inner(effect, n):
        check(effect, n)

    inner()
    print(f"\nframe rule: {runs} generated effects, three spellings each, all engines agree")
