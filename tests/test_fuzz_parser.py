"""The parser and model fuzzer (tests/fuzz_parser.py) in make test: a few hundred hostile
inputs, and every input that once failed, pinned (tests/fuzz_cases/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.errors import ModelError, SymbolicError
from symbolic.model import parse_model

from .fuzz_parser import CASES, fuzz, random_expr, run_one

PINNED = sorted(CASES.glob("*.txt"))


def verdict_of(path: Path) -> str:
    kind = path.name.split("-", 1)[0]
    return run_one(kind, path.read_text(encoding="utf-8", errors="surrogatepass"))


@pytest.mark.parametrize("path", PINNED, ids=[p.name for p in PINNED])
def test_every_input_that_once_failed_gets_an_answer_or_a_located_error(path):
    verdict = verdict_of(path)
    assert verdict in ("ok", "located"), path.read_text()[:300]


@pytest.mark.parametrize("kind, n", [("strategy", 60), ("at", 60), ("play", 12), ("aiger", 60)])
def test_generated_strategy_files_positions_and_play_scripts(kind, n):
    import random
    from .fuzz_inputs import aiger_input, at_input, play_input, strategy_input
    from .fuzz_parser import mutate

    make = {
        "strategy": strategy_input,
        "at": at_input,
        "play": play_input,
        "aiger": aiger_input,
    }[kind]
    rnd = random.Random(23)
    for _ in range(n):
        text = make(rnd, mutate)
        assert run_one(kind, text) in ("ok", "located"), text[:300]


def test_the_pinned_cases_are_there():
    kinds = {p.name.split("-", 1)[0] for p in PINNED}
    assert {"model", "arena", "kif"} <= kinds, kinds


def test_a_few_hundred_generated_inputs():
    counts = fuzz(150, seed=2024, save=False)
    assert counts["traceback"] == 0 and counts["unlocated"] == 0, dict(counts)
    assert counts["ok"] > 0 and counts["located"] > 0, dict(counts)


_ALPHABET = st.sampled_from(
    list("()[]{}<>=!+-*/%,:;'\"\n\t xjkn0123456789.\\")
    + [
        "<<",
        ">>",
        "X ",
        "U ",
        "and ",
        "not ",
        "forall ",
        "in ",
        "..",
        "players",
        "turn",
        "é",
        "\r\n",
        "\ufeff",
        "\x00",
    ]
)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_ALPHABET, max_size=60).map("".join))
def test_hypothesis_query_texts(text):
    assert run_one("query", text) in ("ok", "located"), repr(text)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_ALPHABET, max_size=40).map("".join), st.integers(0, 10**6))
def test_hypothesis_model_texts(body, seed):
    import random

    text = (
        'game "h"\nplayers 1, 2\nvar j : 1..2\nvar k : array[1..2] of 0..3\nturn j\n'
        f"set s = {random_expr(random.Random(seed), 3)}\nquery {body}\n"
    )
    try:
        parse_model(text, "h.game")
    except ModelError as err:
        assert err.span is not None, (text, err)
    except SymbolicError:
        pass
