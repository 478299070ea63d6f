"""The explicit engine's interpreter (symbolic.explicit.interp) on hand-picked
expressions, and against a naive recursive evaluator written here on random
expressions (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import ir
from symbolic.errors import ModelError, UnknownName, RangeError, Span, WrongType
from symbolic.explicit.interp import compile_expr, evaluate, value_type
from symbolic.ir import (
    Binary,
    BoolType,
    Const,
    Elem,
    IntType,
    Item,
    Ite,
    Name,
    Quant,
    Space,
    Sum,
    Unary,
    Var,
    VarDecl,
)

from .strategies import bool_exprs, int_exprs, spaces

SP = Space(
    (
        VarDecl("x", IntType(-7, 7)),
        VarDecl("y", IntType(0, 3)),
        VarDecl("b", BoolType()),
        VarDecl("a", IntType(-2, 9), IntType(1, 3)),
    )
)
x, y, b = Var("x"), Var("y"), Var("b")


def at(xv=0, yv=0, bv=0, av=(0, 0, 0)):
    return (xv, yv, bv) + tuple(av)


def ev(e, pos=None, nxt=None, env=None):
    return evaluate(e, at() if pos is None else pos, nxt, env, space=SP)


def span(col):
    return Span("t.game", 1, col, "some source text")


# --------------------------------------------------------------------------- naive reference


def naive_eval(e, space, s, n=None, env=None):
    """A plain recursive evaluator of the symbolic.ir semantics, for well-typed expressions."""
    env = env or {}
    rec = lambda f, en=env: naive_eval(f, space, s, n, en)  # noqa: E731
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Name):
        return env[e.name]
    if isinstance(e, (Var, Elem)):
        d = space.decl(e.name if isinstance(e, Var) else e.array)
        if isinstance(e, Var):
            slot = space.slot_index(e.name)
        else:
            i = rec(e.index)
            if not d.index.lo <= i <= d.index.hi:
                raise RangeError(f"index {i}")
            slot = space.slot_index(e.array, i)
        v = (n if e.primed else s)[slot]
        return bool(v) if isinstance(d.type, BoolType) else v
    if isinstance(e, Item):
        t, i = rec(e.base), rec(e.index)
        if not 0 <= i < len(t):
            raise RangeError(f"tuple index {i}")
        return t[i]
    if isinstance(e, Unary):
        return -rec(e.arg) if e.op == "-" else not rec(e.arg)
    if isinstance(e, Binary):
        op = e.op
        if op == "and":
            return rec(e.left) and rec(e.right)
        if op == "or":
            return rec(e.left) or rec(e.right)
        if op == "implies":
            return (not rec(e.left)) or rec(e.right)
        l, r = rec(e.left), rec(e.right)
        if op in ("//", "%") and r <= 0:
            raise ModelError("divisor")
        return {
            "+": lambda: l + r,
            "-": lambda: l - r,
            "*": lambda: l * r,
            "//": lambda: l // r,
            "%": lambda: l % r,
            "==": lambda: l == r,
            "!=": lambda: l != r,
            "<": lambda: l < r,
            "<=": lambda: l <= r,
            ">": lambda: l > r,
            ">=": lambda: l >= r,
            "iff": lambda: l == r,
        }[op]()
    if isinstance(e, Ite):
        return rec(e.then) if rec(e.cond) else rec(e.other)
    if isinstance(e, Quant):
        vals = (rec(e.body, {**env, e.var: v}) for v in e.domain)
        return all(vals) if e.kind == "forall" else any(vals)
    if isinstance(e, Sum):
        return sum(int(rec(e.body, {**env, e.var: v})) for v in e.domain)
    raise AssertionError(e)


# --------------------------------------------------------------------------- arithmetic


@pytest.mark.parametrize("xv", range(-7, 8))
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_floor_division_and_modulo_follow_python(xv, k):
    got = ev(Binary("//", x, Const(k)), at(xv)), ev(Binary("%", x, Const(k)), at(xv))
    assert got == (xv // k, xv % k), (xv, k, got)


def test_negative_operands_by_hand():
    assert ev(Binary("//", x, Const(2)), at(-7)) == -4
    assert ev(Binary("%", x, Const(3)), at(-7)) == 2
    assert ev(-(x // 2), at(-7)) == 4
    assert ev(Binary("%", -x, Const(4)), at(5)) == 3
    # exact integers: no wrap-around however large
    assert ev(x * x * x * x * x * x * x * x, at(-7)) == 5764801


def test_divisor_bound_by_a_name_is_a_constant():
    assert ev(x // Name("d"), at(7), env={"d": 2}) == 3


@pytest.mark.parametrize("divisor", [y, x + 1, Elem("a", Const(1))])
def test_divisor_reading_the_state_is_a_model_error(divisor):
    with pytest.raises(ModelError, match="positive constant"):
        ev(Binary("//", Const(7), divisor))


@pytest.mark.parametrize("divisor", [Const(0), Const(-2), Const(1) - 3, Name("d")])
def test_non_positive_divisor_is_a_model_error(divisor):
    with pytest.raises(ModelError, match="positive constant"):
        ev(Binary("%", x, divisor), env={"d": 0})


def test_division_error_is_raised_only_where_evaluated():
    # 'i > 0 implies x % i == 0' is well defined for i = 0: the division is never reached
    e = ir.forall("i", (0, 1, 2), lambda i: (i > 0).implies(Binary("%", x, i).eq(0)))
    assert ev(e, at(4)) is True
    assert ev(e, at(3)) is False


# --------------------------------------------------------------------------- state reads


def test_bool_variable_reads_as_bool_and_arrays_by_element():
    assert ev(b, at(bv=1)) is True and ev(b, at(bv=0)) is False
    assert [ev(Elem("a", Const(i)), at(av=(4, 5, 6))) for i in (1, 2, 3)] == [4, 5, 6]


def test_elem_with_computed_index():
    e = Elem("a", Binary("%", x, Const(3)) + 1)
    got = [ev(e, at(xv, av=(10 - 8, 5, 9))) for xv in (-3, -2, -1, 0, 1, 2)]
    assert got == [2, 5, 9, 2, 5, 9], got


def test_elem_index_out_of_range_is_a_range_error_with_span():
    e = Elem("a", x, span=span(4))
    assert ev(e, at(2, av=(0, 8, 0))) == 8
    with pytest.raises(RangeError, match=r"index 0 outside a\[1..3\]") as info:
        ev(e, at(0))
    assert info.value.span == span(4)
    with pytest.raises(RangeError):
        ev(Elem("a", Const(4)))


def test_elem_index_error_is_raised_only_where_evaluated():
    e = (x >= 1) & (x <= 3) & Elem("a", x).eq(0)
    assert [ev(e, at(xv)) for xv in (-1, 0, 1, 4)] == [False, False, True, False]


def test_constant_operands_of_and_or_and_quantifiers_keep_the_evaluation_order():
    """A constant operand that cannot change the result is dropped, and nothing after a
    constant that decides it is evaluated: an index out of range before it still raises,
    after it never does (the compiler folds both into one closure)."""
    bad = Elem("a", Const(9)).eq(1)  # a[9]: outside a[1..3], raised when evaluated
    F, T = Const(False), Const(True)
    assert ev(Binary("and", F, bad)) is False and ev(Binary("or", T, bad)) is True
    for e in (Binary("and", bad, F), Binary("or", bad, T), Binary("and", T, bad)):
        with pytest.raises(RangeError):
            ev(e)
    assert [ev(Binary("and", T, x.eq(2)), at(xv)) for xv in (1, 2)] == [False, True]
    assert [ev(Binary("or", F, Const(2).eq(x)), at(xv)) for xv in (1, 2)] == [False, True]
    # the bodies of a quantifier: 1 < i and a[i] = 1 for i = 1, 3, 9 (i = 1: false)
    early = ir.exists(
        "i", (1, 3, 9), lambda i: Binary("and", Binary("<", Const(1), i), Elem("a", i).eq(1))
    )
    with pytest.raises(RangeError):  # i = 9 is reached: a[3] is not 1
        ev(early, at(av=(0, 0, 0)))
    assert ev(early, at(av=(0, 0, 1))) is True  # i = 3 decides before i = 9
    # comparisons of a slot with a constant, both ways round, current and next
    for op, want in (("<", [True, False, False]), (">=", [False, True, True])):
        assert [ev(Binary(op, y, Const(1)), at(yv=v)) for v in (0, 1, 2)] == want
        flip = {"<": ">", ">=": "<="}[op]
        assert [ev(Binary(flip, Const(1), y), at(yv=v)) for v in (0, 1, 2)] == want
        nxt = Var("y", primed=True)
        assert [ev(Binary(op, nxt, Const(1)), at(), at(yv=v)) for v in (0, 1, 2)] == want


def test_primed_variables_need_a_next_state():
    assert ev(Var("x", primed=True) - x, at(1), at(5)) == 4
    with pytest.raises(ModelError, match="outside a move's effect"):
        ev(Var("x", primed=True).eq(1))
    with pytest.raises(ModelError, match="constant"):
        ev(Elem("a", y + 1, primed=True).eq(0), at(), at())
    # an index bound by a quantifier is constant once substituted
    e = ir.forall("i", (1, 2, 3), lambda i: Elem("a", i, primed=True).eq(Elem("a", i) + 1))
    assert ev(e, at(av=(1, 2, 3)), at(av=(2, 3, 4))) is True
    assert ev(e, at(av=(1, 2, 3)), at(av=(2, 3, 3))) is False
    assert sorted(compile_expr(e, SP).primed) == [3, 4, 5]


# --------------------------------------------------------------------------- tuples, binders


def test_item_is_zero_based_and_checks_its_range():
    d = Name("d")
    env = {"d": (4, 7, 9)}
    assert [ev(Item(d, Const(i)), env=env) for i in range(3)] == [4, 7, 9]
    assert ev(Item(d, y), at(yv=2), env=env) == 9
    with pytest.raises(RangeError, match="tuple index 3"):
        ev(Item(d, y), at(yv=3), env=env)
    with pytest.raises(RangeError):
        ev(Item(d, Const(-1)), env=env)


def test_tuple_equality_and_nested_tuples():
    assert ev(Name("d").eq(Const((1, 2))), env={"d": (1, 2)}) is True
    assert ev(Item(Item(Name("d"), Const(1)), Const(0)), env={"d": ((1,), (5, 6))}) == 5


def test_quantifiers_and_shadowing():
    arr = at(av=(3, 1, 2))
    assert ev(ir.exists("i", (1, 2, 3), lambda i: Elem("a", i).eq(2)), arr) is True
    assert ev(ir.forall("i", (1, 2, 3), lambda i: Elem("a", i) >= 1), arr) is True
    assert ev(ir.forall("i", (1, 2, 3), lambda i: Elem("a", i) >= 2), arr) is False
    assert ev(ir.forall("i", (), lambda i: ir.FALSE)) is True
    assert ev(ir.exists("i", (), lambda i: ir.TRUE)) is False
    # the inner binder hides the outer i
    inner = Quant("exists", "i", (5,), Name("i").eq(5))
    assert ev(Quant("forall", "i", (1, 2), inner & (Name("i") <= 2))) is True


def test_sum_counts_true_booleans_as_one():
    arr = at(av=(3, -1, 4))
    assert ev(Sum("i", (1, 2, 3), Elem("a", Name("i"))), arr) == 6
    assert ev(Sum("i", (1, 2, 3), Elem("a", Name("i")) > 0), arr) == 2
    assert ev(Sum("i", (), Name("i"))) == 0


def test_ite_evaluates_one_branch():
    e = ir.ite(x >= 1, Elem("a", x), Const(-1))
    assert [ev(e, at(xv, av=(7, 8, 9))) for xv in (-2, 0, 1, 3)] == [-1, -1, 7, 9]


# --------------------------------------------------------------------------- static errors


@pytest.mark.parametrize(
    "e, fragment",
    [
        (Binary("+", x, Const(True), span(3)), "right operand of '\\+' must be int"),
        (Binary("==", x, b, span(3)), "compares two ints"),
        (Binary("<", b, b, span(3)), "left operand of '<' must be int"),
        (Binary("and", x, b, span(3)), "operand of 'and' must be bool"),
        (Unary("not", x, span(3)), "operand of 'not' must be bool"),
        (Unary("-", b, span(3)), "operand of unary '-' must be int"),
        (Ite(b, x, b, span(3)), "different types"),
        (Ite(x, x, x, span(3)), "condition of 'if' must be bool"),
        (Elem("a", b, span=span(3)), "index of a"),
        (Item(x, Const(0), span(3)), "only tuples"),
        (Quant("forall", "i", (1, 2), Name("i"), span(3)), "body of forall must be bool"),
        (Sum("i", (1,), Const((1,)), span(3)), "body of sum"),
        (Var("a", span=span(3)), "is an array"),
        (Elem("x", Const(1), span=span(3)), "is a scalar"),
    ],
)
def test_type_errors_carry_the_span(e, fragment):
    with pytest.raises(WrongType, match=fragment) as info:
        ev(e)
    assert info.value.span == span(3), info.value.span


def test_type_errors_are_found_in_branches_never_taken():
    with pytest.raises(WrongType):
        ev(ir.ite(ir.FALSE, x + Const(True), x))
    with pytest.raises(WrongType):
        ev(ir.FALSE & (x + 1))


def test_unknown_names():
    with pytest.raises(UnknownName, match="unknown variable 'zz'") as info:
        ev(Var("zz", span=span(9)))
    assert info.value.span == span(9)
    with pytest.raises(UnknownName, match="unbound name 'q'"):
        ev(Name("q") + 1)


def test_bad_constants_and_operators():
    with pytest.raises(WrongType):
        ev(Const(1.5))
    with pytest.raises(ModelError, match="unknown binary operator"):
        ev(Binary("^", x, x))
    with pytest.raises(ModelError, match="unknown quantifier"):
        ev(Quant("some", "i", (1,), ir.TRUE))


def test_unknown_node_kind_is_an_internal_error():
    class Weird(ir.Expr):
        __slots__ = ()

    with pytest.raises(AssertionError):
        compile_expr(Weird(), SP)


def test_value_types():
    assert value_type(True) == "bool" and value_type(3) == "int"
    assert value_type((1, (True,))) == ("int", ("bool",))


# --------------------------------------------------------------------------- random expressions


def _outcome(thunk):
    try:
        return ("value", thunk())
    except (RangeError, ModelError) as exc:
        return ("error", type(exc).__name__)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_compiled_closures_agree_with_a_naive_evaluator(data):
    space = data.draw(spaces(), label="space")
    expr = data.draw(
        st.one_of(bool_exprs(space, ("p",), 2), int_exprs(space, ("p",), 2)), label="expr"
    )
    env = {"p": data.draw(st.integers(-2, 3), label="p")}
    ranges = [s.type.values() for s in space.slots]
    compiled = compile_expr(expr, space, env)
    for _ in range(5):
        pos = tuple(data.draw(st.sampled_from(list(r))) for r in ranges)
        want = _outcome(lambda: naive_eval(expr, space, pos, None, env))
        got = _outcome(lambda: compiled.fn(pos, None))
        # compare types too: True == 1 in Python, but a bool is not an int here
        assert (got, type(got[1])) == (want, type(want[1])), (expr, pos, got, want)
