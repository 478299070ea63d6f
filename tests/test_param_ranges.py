"""Declared parameter ranges are honest: every shipped model loads and answers
its queries on both engines with each parameter at each end of its declared
range (the others at their defaults, sizes capped so the explicit engine can
follow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symbolic import atl
from symbolic.api import difference_witness
from symbolic.errors import SymbolicError
from symbolic.explicit import ExplicitGame
from symbolic.ir import ConcurrentGame
from symbolic.lang import ast
from symbolic.lang.exprs import ExprChecker
from symbolic.lang.parser import parse_model_text
from symbolic.lang.scope import EMPTY
from symbolic.model import load_model

from .conftest import all_engines, build_engine

MODELS = sorted(p for p in (Path(__file__).parent.parent / "models").glob("*.game"))
#: beyond this many value vectors the explicit engine is skipped (symbolic only)
EXPLICIT_LIMIT = 200_000
#: concurrent games: the explicit engine only up to this many value vectors
EXPLICIT_CONCURRENT = 2_000
#: and beyond this bound on the edges
EXPLICIT_EDGES = 5_000_000


def declared_ranges(path: Path) -> dict[str, tuple[int, int]]:
    """``param NAME : LO..HI`` declarations, bounds evaluated with the defaults of
    the other parameters (``param i : 0..m-1``)."""
    tree = parse_model_text(path.read_text(encoding="utf-8"), str(path))
    checker = ExprChecker(load_model(path).scope)
    out = {}
    for d in tree.decls:
        if isinstance(d, ast.ParamDecl) and isinstance(d.type, ast.RangeSpec):
            out[d.name.name] = tuple(checker.value(b, EMPTY).value for b in (d.type.lo, d.type.hi))
    return out


#: ends whose queries take more than a few seconds (seconds measured on a loaded 2-core
#: machine): checked by `make test-slow`, so that `make test` stays short
SLOW = {
    ("connect4", "w", 8): ">30",
    ("connect4", "h", 8): ">30",
    ("connect4-compact", "w", 8): ">30",
    ("connect4-compact", "h", 8): ">30",
    ("grundy_game", "N", 40): ">30",
    ("subtraction", "K", 1_000_000): ">30",
    ("kayles", "n", 40): "20",
    ("subtraction_set", "K", 200): "12",
    ("nim", "K", 4095): "13",
    ("connect4-compact", "a", 2): "12",
    ("connect4-compact", "centre", 0): "11",
    ("connect4-compact", "a", 8): "10",
    ("connect4-compact", "centre", 1): "9",
    ("chomp", "C", 5): "9",
    ("ens2005", "K", 4095): "7",
    ("dawson", "n", 40): "6",
}

CASES = [
    pytest.param(
        p,
        name,
        end,
        id=f"{p.stem}-{name}={end}",
        marks=[pytest.mark.slow] if (p.stem, name, end) in SLOW else [],
    )
    for p in MODELS
    for name, (lo, hi) in declared_ranges(p).items()
    for end in (lo, hi)
]


@pytest.mark.parametrize("path, name, value", CASES)
def test_every_model_works_at_the_ends_of_its_ranges(path, name, value):
    try:
        model = load_model(path, {name: value})
    except SymbolicError as err:
        pytest.fail(f"{path.name} with {name}={value} (declared in range) fails: {err}")
    size = model.game.space.size
    engines = [build_engine(model.game, "cudd")]
    # a concurrent game's explicit engine enumerates the joint actions at every position
    # and step of a fixpoint: followed only on small spaces (the race's and rps's ends
    # reach 10^4-10^5 positions, minutes of explicit fixpoints)
    concurrent = isinstance(model.game, ConcurrentGame)
    if (
        size <= EXPLICIT_CONCURRENT
        if concurrent
        else size <= EXPLICIT_LIMIT and ExplicitGame(model.game).edge_bound() <= EXPLICIT_EDGES
    ):
        engines = all_engines(model.game)
    results = []
    for eng in engines:
        ev = atl.Evaluator(eng, model.definitions)
        try:
            results.append([ev(q.formula) for q in model.queries])
        except SymbolicError as err:
            pytest.fail(f"{path.name} with {name}={value}: a query fails on {eng.kind}: {err}")
    for other in results[1:]:
        for q, a, b in zip(model.queries, results[0], other):
            w = difference_witness(a, b)
            assert w is None, f"{path.name} {name}={value}: {q.text} differs at {w}"


def test_there_are_cases():
    assert {c.values[0].stem for c in CASES} >= {"ens2005", "nim", "chocolate", "subtraction"}
    assert all(
        c.values[0].stem == stem
        for (stem, _, _), c in zip(
            sorted(SLOW),
            sorted(
                (c for c in CASES if c.marks),
                key=lambda c: (c.values[0].stem, c.values[1], c.values[2]),
            ),
        )
    )
