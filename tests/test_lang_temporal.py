"""``ExprChecker.is_temporal`` (one pass over a plain stack since issue 32's reading
round) answers as its definition over :func:`symbolic.lang.ast.walk` does, on every
expression of every ``.game`` of the repository, in the scope the whole model builds,
with no name bound and with every name bound."""

from __future__ import annotations

import pytest

from symbolic.errors import SymbolicError
from symbolic.lang import ast
from symbolic.lang.decls import ModelChecker
from symbolic.lang.parser import parse_formula_text, parse_model_text
from symbolic.lang.scope import EMPTY, Ctx, inlinable
from symbolic.lang.types import INT, Sym
from symbolic.lang.vocabulary import FORMULA_FUNCTION_NAMES
from symbolic import ir

from .conftest import ROOT

GAMES = sorted(p for p in ROOT.glob("**/*.game") if ".venv" not in p.parts)


def _by_definition(checker: ModelChecker, node: ast.Expr, ctx: Ctx) -> bool:
    """is_temporal as defined: some node of ``node`` is strategic, ``turn(...)``, a
    formula function not shadowed, or names a definition that is not a state predicate."""
    entries = checker.scope.entries
    for n in ast.walk(node):
        if isinstance(n, (ast.Strategic, ast.TurnOf)):
            return True
        if isinstance(n, (ast.Name, ast.Call)) and not ctx.is_local(n.name):
            e = entries.get(n.name)
            if e is None and isinstance(n, ast.Call) and n.name in FORMULA_FUNCTION_NAMES:
                return True
            if e is not None and e.definition is not None and not inlinable(e.definition):
                return True
    return False


def _expressions(tree: ast.ModelAst):
    """Every expression node below the declarations (each one, not only the roots)."""
    for d in tree.decls:
        for value in vars(d).values():
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, ast.Expr):
                    yield from ast.walk(item)


def test_there_are_models():
    assert len(GAMES) > 15


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_is_temporal_agrees_with_its_definition(path):
    tree = parse_model_text(path.read_text(encoding="utf-8-sig"), str(path))
    checker = ModelChecker(tree, str(path), None)
    try:
        checker.run()
    except SymbolicError:
        pass  # a model that needs parameters: the scope built so far is still a scope
    nodes = list(_expressions(tree))
    assert nodes
    names = {n.name for n in nodes if isinstance(n, (ast.Name, ast.Call))}
    bound = EMPTY
    for name in sorted(names):
        bound = bound.bind(name, Sym(ir.Name(name, nodes[0].span), INT))
    seen = set()
    for node in nodes:
        for ctx in (EMPTY, bound):
            got = checker.is_temporal(node, ctx)
            assert got == _by_definition(checker, node, ctx), (node, ctx is bound)
            seen.add(got)
    if any(isinstance(n, ast.Strategic) for n in nodes):
        assert seen == {True, False}


FORMULAS = [
    "reach(initial)",
    "reach(<<1>> X j == 1) and k[1] == 0",
    "turn(1) or j == 2",
    "exists i in 1..n: k[i] > 0 and <<2>> [] j == 1",
    "forall reach in 1..2: reach == j",
    "{t for t in 1..3 if t > 1} == {2, 3}",
    "initial implies not nim_sum_zero",
    "if j == 1 then <<1>> <> k[1] == 0 else false",
]


@pytest.mark.parametrize("text", FORMULAS)
def test_is_temporal_agrees_on_formulas(text):
    path = ROOT / "models" / "nim.game"
    checker = ModelChecker(parse_model_text(path.read_text(), str(path)), str(path), None)
    checker.run()
    formula = parse_formula_text(text)
    for node in ast.walk(formula):
        for ctx in (EMPTY, EMPTY.bind("reach", Sym(ir.Name("reach", node.span), INT))):
            assert checker.is_temporal(node, ctx) == _by_definition(checker, node, ctx), node


def test_formula_functions_and_turn_are_temporal():
    path = ROOT / "models" / "nim.game"
    checker = ModelChecker(parse_model_text(path.read_text(), str(path)), str(path), None)
    checker.run()
    assert [checker.is_temporal(parse_formula_text(t), EMPTY) for t in FORMULAS[:4]] == [True] * 4
    assert not checker.is_temporal(parse_formula_text("j == 1 and k[1] > 0"), EMPTY)
