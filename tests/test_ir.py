"""The IR's one traversal idiom: children, map_children, walk, substitute,
free_names and substitute_exprs, on every node class."""

from __future__ import annotations

import dataclasses

import pytest

from symbolic import ir
from symbolic.errors import Span
from symbolic.ir import Binary, Const, Elem, Item, Ite, Name, Quant, Sum, Unary, Var

SPAN = Span("t.game", 1, 1, "x")
x, i, j = Var("x"), Name("i"), Name("j")

#: one node of every class, with recognisable children
SAMPLES = {
    Const: Const(3, SPAN),
    Name: Name("i", SPAN),
    Var: Var("x", True, SPAN),
    Elem: Elem("a", i, False, SPAN),
    Item: Item(Const((1, 2)), i, SPAN),
    Unary: Unary("-", i, SPAN),
    Binary: Binary("+", x, i, SPAN),
    Ite: Ite(x > 0, i, j, SPAN),
    Quant: Quant("exists", "i", (1, 2), i < j, SPAN),
    Sum: Sum("i", (1, 2), i + j, SPAN),
}


def test_samples_cover_every_node_class():
    assert set(SAMPLES) == set(ir.expr_classes())


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda c: c.__name__)
def test_children_are_the_expr_fields(cls):
    e = SAMPLES[cls]
    want = tuple(
        getattr(e, f.name) for f in dataclasses.fields(e) if isinstance(getattr(e, f.name), ir.Expr)
    )
    assert ir.children(e) == want
    assert ir.map_children(e, lambda c: c) is e  # nothing changed: the same node
    bumped = ir.map_children(e, lambda c: Unary("-", c))
    assert type(bumped) is cls and bumped.span == SPAN
    assert ir.children(bumped) == tuple(Unary("-", c) for c in want)
    for f in dataclasses.fields(e):  # every other field is kept
        if not isinstance(getattr(e, f.name), ir.Expr):
            assert getattr(bumped, f.name) == getattr(e, f.name)


def test_walk_is_preorder_left_to_right():
    e = ir.ite(x > 0, i + 1, j)
    assert [type(n).__name__ for n in ir.walk(e)] == [
        "Ite",
        "Binary",
        "Var",
        "Const",
        "Binary",
        "Name",
        "Const",
        "Name",
    ]
    assert ir.has_primes(e.eq(Var("x", True))) and not ir.has_primes(e.eq(0))


def test_substitute_respects_binders():
    e = i + ir.forall("i", (1, 2), lambda k: k < j)
    got = ir.substitute(e, {"i": 7, "j": 9})
    assert got == Const(7) + ir.forall("i", (1, 2), lambda k: k < Const(9))
    assert ir.substitute(Sum("i", (1,), i), {"i": 5}) == Sum("i", (1,), i)
    assert ir.substitute(e, {}) is e


def test_free_names():
    e = ir.exists("i", (1,), lambda k: Elem("a", k + j).eq(i)) & i.eq(Name("n"))
    assert ir.free_names(e) == {"i", "j", "n"}  # the i outside the binder is free
    assert ir.free_names(Sum("i", (1,), i)) == set()
    assert ir.free_names(x + 1) == set()


def test_substitute_exprs_avoids_capture():
    body = ir.exists("i", (1, 2), lambda k: k < j)
    got = ir.substitute_exprs(body, {"j": i + 1})
    assert got == ir.exists("i_1", (1, 2), lambda k: k < i + 1)
    # the fresh name is not one that is being substituted at the same time
    got = ir.substitute_exprs(body, {"j": i, "i_1": Const(5)})
    assert got == ir.exists("i_2", (1, 2), lambda k: k < i)
    # a bound name is not replaced, a free one is
    assert ir.substitute_exprs(Sum("i", (1,), i + j), {"i": x, "j": x}) == Sum("i", (1,), i + x)
    assert ir.substitute_exprs(Elem("a", j, True), {"j": Const(2)}) == Elem("a", Const(2), True)


def test_reads_state():
    assert ir.reads_state(Elem("a", Const(1)) + 1)
    assert not ir.reads_state(Item(Name("d"), i + 1))
