"""symbolic.explicit.domain: the positions found conjunct by conjunct are those of the
whole product filtered by the invariant, in the same order, with the same errors."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import ir
from symbolic.errors import RangeError, SymbolicError
from symbolic.explicit.domain import invariant_parts, positions
from symbolic.explicit.interp import compile_expr
from symbolic.model import load_model

from .conftest import ROOT
from .strategies import bool_exprs, spaces


def filtered(space: ir.Space, invariant: ir.Expr):
    """The definition: every vector of the product, in order, kept where the invariant
    holds; the error the first failing vector raises, if one does."""
    fn = compile_expr(invariant, space).fn
    try:
        return [
            c for c in itertools.product(*(s.type.values() for s in space.slots)) if fn(c, None)
        ]
    except SymbolicError as err:
        return type(err)


def found(space: ir.Space, invariant: ir.Expr):
    try:
        return positions(space, invariant)
    except SymbolicError as err:
        return type(err)


@st.composite
def invariants(draw):
    """A space and an invariant: a conjunction of 1–4 random conditions, some under a
    ``forall``, so that conjuncts read different slots."""
    space = draw(spaces())
    parts = [draw(bool_exprs(space, depth=2)) for _ in range(draw(st.integers(1, 4)))]
    if draw(st.booleans()):
        body = draw(bool_exprs(space, names=("q",), depth=1))
        parts.insert(draw(st.integers(0, len(parts))), ir.Quant("forall", "q", (0, 1, 2), body))
    return space, ir.conj(parts)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(invariants())
def test_the_positions_are_the_filtered_product(case):
    space, invariant = case
    want, got = filtered(space, invariant), found(space, invariant)
    assert got == want, (invariant, space)


SPACE = ir.Space(
    (
        ir.VarDecl("x", ir.IntType(0, 3)),
        ir.VarDecl("a", ir.IntType(0, 1), ir.IntType(1, 2)),
    )
)
X, A = ir.Var("x"), (lambda i: ir.Elem("a", i))


@pytest.mark.parametrize(
    "invariant, want",
    [
        # x = 0 indexes outside a[1..2]: the product's filter raises, so does the search
        (A(X).eq(1) & (X >= 5), RangeError),
        # a guard first: the short-circuit never evaluates a[0], the search prunes x = 0
        ((X >= 1) & (X <= 2) & A(X).eq(1), None),
        # x >= 1 comes after a conjunct that raises at x = 0: it must not remove x = 0
        ((A(X) >= 0) & (X >= 1), RangeError),
    ],
)
def test_errors_are_those_of_the_filtered_product(invariant, want):
    got = found(SPACE, invariant)
    assert got == filtered(SPACE, invariant)
    if want is not None:
        assert got is want, got
    else:
        assert isinstance(got, list) and got, got


def test_the_conjuncts_are_the_ands_and_foralls_in_evaluation_order():
    inv = (X >= 0) & ir.forall("i", (1, 2), lambda i: A(i).eq(0)) & (X <= 2)
    parts = invariant_parts(inv)
    assert [env for _, env in parts] == [{}, {"i": 1}, {"i": 2}, {}], parts
    reads = [sorted(compile_expr(e, SPACE, env).reads) for e, env in parts]
    assert reads == [[0], [1], [2], [0]], reads


def test_connect4s_boards_are_found_without_the_whole_product():
    # 4 × 3: 3¹² = 531 441 fillings. The gravity conjuncts leave 15 of a column's 27
    # fillings; the last column's top conjunct reads the last slot, so only its lower
    # one prunes there (7 of 9 fillings of its two lower cells, times 3 for the top)
    model = load_model(ROOT / "models" / "connect4.game", {"w": 4, "h": 3, "a": 3})
    game = model.game
    got = positions(game.space, game.invariant)
    calls = 0
    whole = compile_expr(game.invariant, game.space).fn

    def counted(c, n):
        nonlocal calls
        calls += 1
        return whole(c, n)

    assert positions(game.space, game.invariant, counted) == got
    assert len(got) == 12_933, len(got)
    assert calls == 15**3 * 7 * 3, calls
