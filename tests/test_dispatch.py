"""Every pass over the IR or over ATL formulas is a dispatch table keyed by node
class: each table must cover every concrete class, so that a new node kind
without a handler fails here (and, at run time, raises AssertionError(node)
rather than being silently skipped). Operator tables must cover the IR's
operator vocabulary, defined once in symbolic.ir."""

from __future__ import annotations

import pytest

from symbolic import atl, coalitions, ir, printing, validate
from symbolic.bdd import encode, primed
from symbolic.bdd.managers import make_manager
from symbolic.explicit import ExplicitGame, interp, moves
from symbolic.explicit.interp import compile_expr
from symbolic.seeds.games import subtraction

EXPR_TABLES = {
    "validate": validate._RULES,
    "explicit interpreter": interp._COMPILE,
    "explicit conjuncts": moves._CONJUNCTS,
    "explicit equations": moves._EQUATIONS,
    "bdd encoder": encode._DISPATCH,
    "bdd primed slots": primed._PRIMED,
    "printer": printing._EXPR,
}


def test_the_node_classes():
    names = {c.__name__ for c in ir.expr_classes()}
    assert names == {
        "Const",
        "Name",
        "Var",
        "Elem",
        "Item",
        "Unary",
        "Binary",
        "Ite",
        "Quant",
        "Sum",
    }
    assert {c.__name__ for c in atl.formula_classes()} == {
        "Truth",
        "Turn",
        "Prop",
        "Ref",
        "Not",
        "BoolOp",
        "Next",
        "Until",
        "Release",
        "Reach",
    }


@pytest.mark.parametrize("name", list(EXPR_TABLES))
def test_expression_passes_cover_every_node_class(name):
    table = EXPR_TABLES[name]
    assert set(table) == set(ir.expr_classes()), (name, set(ir.expr_classes()) ^ set(table))


def test_atl_passes_cover_every_class():
    assert set(atl._EVAL) == set(atl.formula_classes())
    assert set(printing._FORMULA) == set(atl.formula_classes())
    assert set(coalitions._COALITION) == set(atl.Coalition.__subclasses__())


def test_operator_tables_cover_the_vocabulary():
    binary = set(ir.ARITH_OPS + ir.COMPARE_OPS + ir.BOOL_OPS)
    assert validate.BINARY_OPS == binary
    assert set(interp._BIN_FF) | {"//", "%"} == binary  # // and % need a constant divisor
    assert set(interp._BIN_FC) | set(ir.BOOL_OPS) == binary  # connectives short-circuit
    assert set(encode._CONNECTIVES) == set(ir.BOOL_OPS)
    assert set(encode._ORDERINGS) | {"==", "!="} == set(ir.COMPARE_OPS)
    assert set(encode._RINGS) | {"//", "%"} == set(ir.ARITH_OPS)
    assert set(atl._CONNECTIVES) == set(ir.BOOL_OPS)
    assert set(ir.QUANTIFIERS) == {"forall", "exists"}


def test_unknown_nodes_are_assertion_errors():
    sp = ir.Space((ir.VarDecl("x", ir.IntType(0, 1)),))
    stranger = object()
    with pytest.raises(AssertionError):
        validate.check_expr(stranger, sp)
    with pytest.raises(AssertionError):
        compile_expr(stranger, sp)
    with pytest.raises(AssertionError):
        encode.Encoder(sp, make_manager("autoref")).primed_slots(stranger)
    with pytest.raises(AssertionError):
        ir.children(stranger)
    with pytest.raises(AssertionError):
        atl.formula_children(stranger)
    with pytest.raises(AssertionError):
        atl.coalition_value(stranger, (1,), {})
    with pytest.raises(AssertionError):
        atl.Evaluator(ExplicitGame(subtraction(K=2))).eval(stranger, {})  # below the API check
