"""Tests of symbolic.bdd.encode: bit layout and exact bit-blasting of IR expressions.

Expected sets come from hand-known values or from a brute-force Python evaluation
of the same expression (``py_eval`` below, Python's own // and %).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.bdd.backend import BACKENDS
from symbolic.bdd.managers import make_manager
from symbolic.bdd.encode import Encoder, choose_order
from symbolic.bdd.engine import SymbolicSets
from symbolic.errors import ModelError, UnknownName, QueryError, RangeError, Span, WrongType
from symbolic.ir import (
    FALSE,
    TRUE,
    Binary,
    BoolType,
    Const,
    Elem,
    Expr,
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
    exists,
    forall,
    ite,
)
from symbolic.validate import check_expr


x, y, z, b = Var("x"), Var("y"), Var("z"), Var("b")


def ints(*specs) -> Space:
    """A space of scalar int variables given as (name, lo, hi)."""
    return Space(tuple(VarDecl(n, IntType(lo, hi)) for n, lo, hi in specs))


def encoder(backend: str, sp: Space, order: str = "auto") -> Encoder:
    return Encoder(sp, make_manager(backend), order)


def sols(enc: Encoder, expr: Expr, env=None) -> list[tuple]:
    """The positions where ``expr`` holds, sorted."""
    m = enc.m
    u = m.and_(enc.boolean(expr, env), enc.domain())
    return sorted(enc.decode(a) for a in m.assignments(u, enc.current_bits))


# --------------------------------------------------------------------------- a reference evaluator


def py_eval(e: Expr, s: dict, env: dict):
    """Direct Python evaluation of an IR expression at state ``s`` ({label: value})."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Name):
        return env[e.name]
    if isinstance(e, Var):
        return s[e.name]
    if isinstance(e, Elem):
        i = py_eval(e.index, s, env)
        key = f"{e.array}[{i}]"
        if key not in s:
            raise RangeError(key)
        return s[key]
    if isinstance(e, Item):
        t, i = py_eval(e.base, s, env), py_eval(e.index, s, env)
        if not 0 <= i < len(t):
            raise RangeError(i)
        return t[i]
    if isinstance(e, Unary):
        v = py_eval(e.arg, s, env)
        return -v if e.op == "-" else not v
    if isinstance(e, Ite):
        return py_eval(e.then if py_eval(e.cond, s, env) else e.other, s, env)
    if isinstance(e, Quant):
        vals = (py_eval(e.body, s, {**env, e.var: v}) for v in e.domain)
        return all(vals) if e.kind == "forall" else any(vals)
    if isinstance(e, Sum):
        return sum(int(py_eval(e.body, s, {**env, e.var: v})) for v in e.domain)
    assert isinstance(e, Binary), e
    a = py_eval(e.left, s, env)
    if e.op == "and":
        return a and py_eval(e.right, s, env)
    if e.op == "or":
        return a or py_eval(e.right, s, env)
    if e.op == "implies":
        return (not a) or py_eval(e.right, s, env)
    c = py_eval(e.right, s, env)
    return {
        "+": lambda: a + c,
        "-": lambda: a - c,
        "*": lambda: a * c,
        "//": lambda: a // c,
        "%": lambda: a % c,
        "==": lambda: a == c,
        "!=": lambda: a != c,
        "<": lambda: a < c,
        "<=": lambda: a <= c,
        ">": lambda: a > c,
        ">=": lambda: a >= c,
        "iff": lambda: a == c,
    }[e.op]()


def brute(sp: Space, expr: Expr, env=None) -> list[tuple]:
    """The positions of ``sp`` where ``expr`` holds, by evaluating it at each (bool slots
    read as bools)."""

    def state(p):
        return {
            s.label: bool(v) if isinstance(s.type, BoolType) else v for s, v in zip(sp.slots, p)
        }

    ranges = [s.type.values() for s in sp.slots]
    return [p for p in itertools.product(*ranges) if py_eval(expr, state(p), env or {})]


# --------------------------------------------------------------------------- layout


def test_bit_sliced_order_msb_first_current_then_next(backend):
    sp = Space(
        (VarDecl("x", IntType(0, 5)), VarDecl("y", IntType(-3, 5)), VarDecl("b", BoolType()))
    )
    enc = encoder(backend, sp, "sliced")
    assert enc.widths == (3, 4, 1), enc.widths
    want = [
        "y.3",
        "y.3'",
        "x.2",
        "x.2'",
        "y.2",
        "y.2'",
        "x.1",
        "x.1'",
        "y.1",
        "y.1'",
        "x.0",
        "x.0'",
        "y.0",
        "y.0'",
        "b.0",
        "b.0'",
    ]
    assert list(enc.order) == want, enc.order
    assert [enc.m.level(n) for n in want] == list(range(16))
    assert enc.current_bits == tuple(n for n in want if not n.endswith("'"))
    assert enc.to_next["x.2"] == "x.2'" and enc.to_current["y.0'"] == "y.0"


def test_slot_order_keeps_each_slot_together(backend):
    sp = ints(("x", 0, 5), ("y", 0, 1))
    enc = encoder(backend, sp, "slots")
    assert list(enc.order) == ["x.2", "x.2'", "x.1", "x.1'", "x.0", "x.0'", "y.0", "y.0'"]


def test_auto_order_avoids_many_ragged_ranges():
    full = ints(*[(f"h{i}", 0, 255) for i in range(6)], ("j", 1, 3))
    ragged = ints(*[(f"h{i}", 0, 20) for i in range(5)])
    assert choose_order(full) == "sliced"
    assert choose_order(ragged) == "slots"
    with pytest.raises(QueryError) as info:
        choose_order(full, "random")
    assert "sliced" in str(info.value), str(info.value)


@pytest.mark.parametrize("order", ["sliced", "slots"])
def test_domain_holds_exactly_the_in_range_values(backend, order):
    sp = ints(("x", -3, 5), ("y", 2, 6), ("z", 0, 0))
    enc = encoder(backend, sp, order)
    got = sols(enc, TRUE)
    want = list(itertools.product(range(-3, 6), range(2, 7), [0]))
    assert got == want, (len(got), got[:5])


def test_assignment_and_decode_round_trip(backend):
    sp = ints(("x", -3, 5), ("y", 2, 6))
    enc = encoder(backend, sp)
    for pos in [(-3, 2), (5, 6), (0, 4)]:
        assert enc.decode(enc.assignment(pos)) == pos
    assert enc.assignment((-3, 2)) == {n: False for n in enc.current_bits}


# --------------------------------------------------------------------------- arithmetic


def test_odd_ranges_read_their_values(backend):
    sp = ints(("x", -3, 5), ("y", 2, 6))
    enc = encoder(backend, sp)
    assert sols(enc, x.eq(-3) & y.eq(6)) == [(-3, 6)]
    assert sols(enc, (x + y).eq(-1)) == [(-3, 2)]
    assert sols(enc, (x * y).eq(-18)) == [(-3, 6)]
    assert [p[0] for p in sols(enc, y.eq(2) & (x < 0))] == [-3, -2, -1]


def test_no_wrap_around(backend):
    """3-bit operands: sums reach 14, products 49; a modular circuit would find 15 ≡ 7."""
    sp = ints(("x", 0, 7), ("y", 0, 7))
    enc = encoder(backend, sp)
    assert sols(enc, (x + y).eq(15)) == []
    assert sols(enc, (x + y).eq(14)) == [(7, 7)]
    assert sols(enc, (x + y).eq(6) & (x > 5)) == [(6, 0)]
    assert sols(enc, (x - y).eq(-7)) == [(0, 7)]
    assert sols(enc, (x * y) > 40) == [(6, 7), (7, 6), (7, 7)]
    assert sols(enc, (x * y).eq(1)) == [(1, 1)]
    assert sols(enc, (x * y - 2 * x * y).eq(-49)) == [(7, 7)]
    assert sols(enc, (-x) > -1) == [(0, v) for v in range(8)]


def test_pythagorean_triples(backend):
    sp = ints(("x", 0, 10), ("y", 0, 10), ("z", 0, 10))
    enc = encoder(backend, sp)
    got = sols(enc, (x * x + y * y).eq(z * z))
    # 11 with x = 0, 10 with y = 0 < x, and (3,4,5), (4,3,5), (6,8,10), (8,6,10)
    assert len(got) == 25, got
    assert {(3, 4, 5), (4, 3, 5), (6, 8, 10), (8, 6, 10)} <= set(got)
    assert got == brute(sp, (x * x + y * y).eq(z * z))


@pytest.mark.parametrize("c", [1, 2, 3, 4, 5, 7, 8])
def test_floor_division_and_modulo_of_negatives(backend, c):
    sp = ints(("x", -9, 7))
    enc = encoder(backend, sp)
    quot = {v: q for q in range(-10, 8) for (v,) in sols(enc, (x // c).eq(q))}
    rem = {v: r for r in range(c) for (v,) in sols(enc, (x % c).eq(r))}
    assert quot == {v: v // c for v in range(-9, 8)}, quot
    assert rem == {v: v % c for v in range(-9, 8)}, rem


def test_division_composes(backend):
    sp = ints(("x", -6, 6), ("y", 1, 4))
    enc = encoder(backend, sp)
    e = ((x * y) // 3 + (x - y) % 5).eq(y - 2)
    assert sols(enc, e) == brute(sp, e)


SMALL = ints(("x", -3, 5), ("y", 2, 6))


def int_terms():
    leaves = st.one_of(st.just(x), st.just(y), st.integers(-4, 6).map(Const))

    def grow(children):
        arith = st.tuples(st.sampled_from(["+", "-", "*"]), children, children).map(
            lambda t: Binary(t[0], t[1], t[2])
        )
        div = st.tuples(st.sampled_from(["//", "%"]), children, st.integers(1, 6)).map(
            lambda t: Binary(t[0], t[1], Const(t[2]))
        )
        neg = children.map(lambda t: Unary("-", t))
        cond = st.tuples(children, children, children, children).map(
            lambda t: Ite(t[0] < t[1], t[2], t[3])
        )
        return st.one_of(arith, div, neg, cond)

    return st.recursive(leaves, grow, max_leaves=5)


def bool_terms():
    cmp = st.tuples(
        st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), int_terms(), int_terms()
    ).map(lambda t: Binary(t[0], t[1], t[2]))
    return st.recursive(
        cmp,
        lambda c: st.one_of(
            st.tuples(st.sampled_from(["and", "or", "implies", "iff"]), c, c).map(
                lambda t: Binary(t[0], t[1], t[2])
            ),
            c.map(lambda t: Unary("not", t)),
        ),
        max_leaves=3,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(e=bool_terms(), backend=st.sampled_from(BACKENDS))
def test_random_expressions_match_python(e, backend):
    enc = encoder(backend, SMALL)
    assert sols(enc, e) == brute(SMALL, e), e


# ------------------------------------------------------------------------ arrays, tuples, binders

ARR = Space((VarDecl("i", IntType(1, 3)), VarDecl("a", IntType(0, 3), IntType(1, 3))))
i = Var("i")


def a(k):
    return Elem("a", k if isinstance(k, Expr) else Const(k))


def test_element_with_variable_index(backend):
    enc = encoder(backend, ARR)
    e = a(i).eq(3) & a(1).eq(0)
    got = sols(enc, e)
    assert got == brute(ARR, e)
    assert len(got) == 4 + 4, got  # i = 1 impossible; i = 2 or 3: the other element free


def test_index_out_of_range_raises_where_reached(backend):
    enc = encoder(backend, ARR)
    with pytest.raises(RangeError) as info:
        enc.boolean(a(i + 1).eq(0))
    assert "a[1..3]" in str(info.value) and "'i': 3" in str(info.value), str(info.value)
    guarded = (i < 3) & a(i + 1).eq(0)  # never evaluated at i = 3
    assert sols(enc, guarded) == brute(ARR, guarded)
    assert sols(enc, ite(i < 3, a(i + 1), 0).eq(0)) == brute(ARR, ite(i < 3, a(i + 1), 0).eq(0))
    with pytest.raises(RangeError):
        enc.boolean(a(4).eq(0))
    assert sols(enc, FALSE & a(4).eq(0)) == []  # constant short-circuit: never reached
    with pytest.raises(RangeError):
        enc.boolean((i > 1) | a(0).eq(0))  # reached where i = 1


def test_tuple_items(backend):
    enc = encoder(backend, ARR)
    d = (2, 0, 1)
    e = forall("k", (1, 2, 3), lambda k: a(k) >= Item(Name("d"), k - 1))
    assert sols(enc, e, {"d": d}) == brute(ARR, e, {"d": d})
    sel = Item(Const((3, 1, 2)), i - 1).eq(a(1))
    assert sols(enc, sel) == brute(ARR, sel)
    assert sols(
        enc, Const((1, 2)).eq(Const((1, 2))) & i.eq(1) & a(1).eq(0) & a(2).eq(0) & a(3).eq(0)
    ) == [(1, 0, 0, 0)]
    with pytest.raises(RangeError):
        enc.boolean(Item(Const((3, 1, 2)), i).eq(1))  # i = 3 is outside 0..2


def test_quantifiers_and_sums(backend):
    enc = encoder(backend, ARR)
    sorted_ = forall("k", (1, 2), lambda k: a(k) <= a(k + 1))
    assert len(sols(enc, sorted_)) == 3 * 20, len(sols(enc, sorted_))  # C(3+3, 3) = 20
    total = Sum("k", (1, 2, 3), a(Name("k"))).eq(3)
    assert len(sols(enc, total)) == 3 * 10  # compositions of 3 into 3 parts
    count_zero = Sum("k", (1, 2, 3), a(Name("k")).eq(0)).eq(2)  # bools count 1
    assert sols(enc, count_zero) == brute(ARR, count_zero)
    some = exists("k", (1, 2, 3), lambda k: a(k).eq(i))
    assert sols(enc, some) == brute(ARR, some)
    assert sols(enc, Quant("exists", "k", (), TRUE)) == []
    assert sols(enc, Sum("k", (), a(Name("k"))).eq(0)) == sols(enc, TRUE)


def test_bool_variables(backend):
    sp = Space((VarDecl("b", BoolType()), VarDecl("x", IntType(0, 2))))
    enc = encoder(backend, sp)
    assert sols(enc, b) == [(1, 0), (1, 1), (1, 2)]
    assert sols(enc, b.eq(x.eq(2))) == [(0, 0), (0, 1), (1, 2)]
    assert sols(enc, (Sum("k", (0, 1), b) + x).eq(4)) == [(1, 2)]


# --------------------------------------------------------------------------- errors

SPAN = Span("m.game", 3, 5, "x + b", 1)


def test_type_errors_carry_the_span(backend):
    sp = Space((VarDecl("b", BoolType()), VarDecl("x", IntType(0, 2))))
    enc = encoder(backend, sp)
    with pytest.raises(WrongType) as info:
        enc.boolean(Binary("+", x, b, SPAN).eq(1))
    assert info.value.span == SPAN, info.value
    for bad in [
        Unary("not", x),
        b < 1,
        x.eq(b),
        ite(b, x, b).eq(1),
        x,
        Binary("+", Const((1, 2)), Const(1)).eq(1),
        Item(x, Const(0)).eq(1),
    ]:
        with pytest.raises(WrongType):
            enc.boolean(bad)
    with pytest.raises(WrongType):
        enc.integer(b)


def test_structural_errors(backend):
    """Structural errors are symbolic.validate's, found before the encoder runs (the
    engine's from_expr validates); value errors stay the encoder's."""
    sp = ints(("x", 0, 3), ("y", 1, 3))
    S = SymbolicSets(sp, backend)
    enc = S.encoder
    with pytest.raises(ModelError) as info:
        S.from_expr((x // y).eq(0))
    assert "positive constant" in str(info.value), str(info.value)
    with pytest.raises(ModelError):
        enc.boolean((x % 0).eq(0))
    assert sols(enc, FALSE & (x % 0).eq(0)) == []  # a value error never reached
    with pytest.raises(ModelError):
        S.from_expr(Var("x", primed=True).eq(1))
    with pytest.raises(UnknownName):
        S.from_expr(Name("n").eq(1))
    with pytest.raises(UnknownName):
        S.from_expr(Var("w").eq(1))
    with pytest.raises(WrongType):
        S.from_expr(Elem("x", Const(0)).eq(1))  # a scalar indexed
    with pytest.raises(AssertionError):
        enc.compile(object())
    with pytest.raises(AssertionError):  # the encoder expects validated IR
        enc.boolean(Name("n").eq(1))


def test_primed_slots_expand_binders(backend):
    enc = encoder(backend, ARR)  # slots: i, a[1], a[2], a[3]
    eff = forall("k", (1, 2), lambda k: Elem("a", k, primed=True).eq(a(k) + 1))
    assert enc.primed_slots(eff) == frozenset({1, 2})
    by_param = Elem("a", Name("p"), primed=True).eq(0) & Var("i", primed=True).eq(1)
    assert enc.primed_slots(by_param, {"p": 3}) == frozenset({0, 3})
    branches = ite(i < 2, Elem("a", Const(1), primed=True), Elem("a", Const(2), primed=True))
    assert enc.primed_slots(branches.eq(0)) == frozenset({1, 2})  # syntactic: both branches
    assert enc.primed_slots(Elem("a", Const(9), primed=True).eq(0)) == frozenset()
    bad = Elem("a", i, primed=True).eq(0)  # the index reads the state
    with pytest.raises(ModelError):
        check_expr(bad, ARR, primed=True)
    with pytest.raises(AssertionError):  # the encoder expects validated IR
        enc.primed_slots(bad)


def test_effect_compiles_over_next_bits(backend):
    sp = ints(("x", 0, 3))
    enc = encoder(backend, sp)
    m = enc.m
    rel = m.and_(
        enc.boolean(Var("x", primed=True).eq(x + 1), primed=True),
        m.and_(enc.domain(), enc.domain(True)),
    )
    pairs = sorted(
        (
            enc.decode({k: v for k, v in asg.items() if not k.endswith("'")}),
            enc.decode({k[:-1]: v for k, v in asg.items() if k.endswith("'")}),
        )
        for asg in m.assignments(rel, enc.order)
    )
    assert pairs == [((0,), (1,)), ((1,), (2,)), ((2,), (3,))], pairs


# ---------------------------------------------------------------- closed sub-expressions


def test_a_closed_subexpression_is_compiled_once(backend):
    sp = ints(("x", 0, 7), ("y", 0, 7))
    enc = encoder(backend, sp)
    shared = forall("i", (1, 2, 3), lambda i: x.ne(i) | y.eq(i))  # no free name
    e = Binary("and", shared, x.eq(Name("k")))
    calls = []
    original = Encoder._quant

    def counting(self, node, env):
        calls.append(node)
        return original(self, node, env)

    import symbolic.bdd.encode as mod

    mod._DISPATCH[Quant] = counting
    try:
        with enc.closed_terms_kept():
            first = [enc.boolean(e, {"k": k}) for k in range(4)]
        assert len(calls) == 1, calls  # not once per value of k
        again = [enc.boolean(e, {"k": k}) for k in range(4)]
        assert len(calls) == 5 and not enc._memo, calls  # outside the block: nothing kept
    finally:
        mod._DISPATCH[Quant] = original
    assert first == again
    assert sols(enc, e, {"k": 2}) == [(2, 2)], sols(enc, e, {"k": 2})


def test_closedness_counts_bound_names_as_bound(backend):
    enc = encoder(backend, ints(("x", 0, 3)))
    body = x.ne(Name("i"))
    assert enc.is_closed(forall("i", (1, 2), lambda i: x.ne(i)))
    assert not enc.is_closed(body) and not enc.is_closed(x.eq(Name("k")))
    assert not enc.is_closed(forall("i", (1, 2), lambda i: x.ne(i + Name("k"))))


def test_value_errors_are_not_memoized_away(backend):
    # the same closed node, compiled under a path that hides its error and then
    # under one that does not: the second compilation still raises
    sp = Space((VarDecl("k", IntType(0, 3)), VarDecl("a", IntType(0, 1), IntType(1, 3))))
    enc = encoder(backend, sp)
    k = Var("k")
    risky = Elem("a", k).eq(0)  # k = 0 is outside a[1..3]
    guarded = Binary("and", k >= 1, risky)
    with enc.closed_terms_kept():
        assert enc.try_boolean(guarded) is not None
        assert enc.try_boolean(risky) is None  # errors somewhere: None, not an answer
        with pytest.raises(RangeError, match="outside"):
            enc.boolean(risky)
    want = [
        (kk, a1, a2, a3)
        for kk in range(4)
        for a1 in (0, 1)
        for a2 in (0, 1)
        for a3 in (0, 1)
        if kk >= 1 and (a1, a2, a3)[kk - 1] == 0
    ]
    assert sols(enc, guarded) == want, sols(enc, guarded)
