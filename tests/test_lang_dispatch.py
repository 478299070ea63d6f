"""The checker's dispatch tables cover every AST node class, so a node class
added without a handler fails here rather than deep inside a model."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from symbolic.errors import Span
from symbolic.lang import ast, vocabulary
from symbolic.lang.decls import DECL_HANDLERS, DECLARED_KINDS, ModelChecker
from symbolic.lang.exprs import EXPR_HANDLERS, ExprChecker
from symbolic.lang.formulas import FORMULA_HANDLERS, STRATEGIC, FormulaChecker
from symbolic.lang.parser import parse_formula_text
from symbolic.lang.scope import EMPTY, Scope

SPAN = Span("t", 1, 1)


def node_classes(base: type) -> set[type]:
    """The concrete node classes of :mod:`symbolic.lang.ast` deriving from ``base``."""
    return {
        c
        for c in vars(ast).values()
        if inspect.isclass(c) and issubclass(c, base) and c is not base
    }


def test_the_expression_table_covers_every_expression_class():
    assert set(EXPR_HANDLERS) == node_classes(ast.Expr)


def test_the_formula_table_covers_every_expression_class():
    assert set(FORMULA_HANDLERS) == node_classes(ast.Expr)


def test_the_declaration_tables_cover_every_declaration_class():
    assert set(DECL_HANDLERS) == node_classes(ast.Decl)
    assert set(DECLARED_KINDS) == node_classes(ast.Decl)


@pytest.mark.parametrize(
    "table", [EXPR_HANDLERS, FORMULA_HANDLERS, DECL_HANDLERS], ids=["expr", "formula", "decl"]
)
def test_no_subclass_shadows_a_handler(table):
    """A handler is the method of that name on the final checker: a subclass
    method of the same name would be a trap (the table would bypass it)."""
    for handler in table.values():
        assert getattr(ModelChecker, handler.__name__) is handler, handler


def test_every_strategic_operator_has_a_constructor():
    assert set(STRATEGIC) == set(vocabulary.TEMPORAL.values())


@dataclasses.dataclass(frozen=True)
class Unknown(ast.Expr):
    """An expression class no table knows."""

    arg: ast.Expr | None = None
    span: Span = SPAN


@dataclasses.dataclass(frozen=True)
class UnknownDecl(ast.Decl):
    """A declaration class no table knows."""

    span: Span = SPAN


def test_a_node_class_without_handler_fails_loudly():
    with pytest.raises(AssertionError):
        ExprChecker(Scope()).expr(Unknown(), EMPTY)
    with pytest.raises(AssertionError):  # it holds ATL, so it goes to the formula table
        FormulaChecker(Scope()).formula(Unknown(ast.TurnOf((), SPAN)), EMPTY)
    with pytest.raises(AssertionError):
        FormulaChecker(Scope()).formula(
            ast.Strategic("?", (), (ast.BoolLit(True, SPAN),), SPAN), EMPTY
        )
    with pytest.raises(AssertionError):
        ModelChecker(ast.ModelAst((UnknownDecl(),), SPAN), "t.game", None).run()


def test_expr_children_follow_binders_and_clauses():
    e = parse_formula_text("forall i in A: {x + i for x in B if x > C} == D")
    names = [n.name for n in ast.walk(e) if isinstance(n, ast.Name)]
    assert names == ["A", "x", "i", "B", "x", "C", "D"]
