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
from symbolic.lang import ast
from symbolic.lang.exprs import ExprChecker
from symbolic.lang.parser import parse_model_text
from symbolic.lang.scope import EMPTY
from symbolic.model import load_model

from .conftest import all_engines, build_engine

MODELS = sorted(p for p in (Path(__file__).parent.parent / "models").glob("*.game"))
#: beyond this many value vectors the explicit engine is skipped (symbolic only)
EXPLICIT_LIMIT = 200_000
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
            out[d.name.name] = tuple(checker.value(b, EMPTY).value
                                     for b in (d.type.lo, d.type.hi))
    return out


CASES = [(p, name, end) for p in MODELS for name, (lo, hi) in declared_ranges(p).items()
         for end in (lo, hi)]


@pytest.mark.parametrize("path, name, value", CASES,
                         ids=[f"{p.stem}-{n}={v}" for p, n, v in CASES])
def test_every_model_works_at_the_ends_of_its_ranges(path, name, value):
    try:
        model = load_model(path, {name: value})
    except SymbolicError as err:
        pytest.fail(f"{path.name} with {name}={value} (declared in range) fails: {err}")
    size = model.game.space.size
    engines = [build_engine(model.game, "cudd")]
    if size <= EXPLICIT_LIMIT and ExplicitGame(model.game).edge_bound() <= EXPLICIT_EDGES:
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
    assert {p.stem for p, _, _ in CASES} >= {"ens2005", "nim", "chocolate", "subtraction"}
