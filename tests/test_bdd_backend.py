"""The BDD manager contract (symbolic.bdd.contract.Manager) on every backend: cudd and
autoref (symbolic.bdd.backend.DdManager) and oxidd (symbolic.bdd.oxidd_backend), each
test that takes the ``backend`` fixture once per backend, as dd's own suite runs
``tests/common.py`` against each of its managers."""

from __future__ import annotations

import gc
import itertools
import random
import sys

import pytest

from symbolic.bdd import backend as bdd_backend
from symbolic.bdd.backend import DdManager
from symbolic.bdd import capacity
from symbolic.bdd.contract import BACKENDS, Manager
from symbolic.bdd.managers import make_manager
from symbolic.errors import EngineMismatch, OutOfMemory, QueryError, TooManyVariables


def make(backend: str, names) -> Manager:
    m = make_manager(backend)
    m.declare(list(names))
    return m


def brute_count(m: Manager, u, names) -> int:
    """Models of u over ``names`` by evaluating every assignment (the reference)."""
    return sum(
        m.is_true(m.restrict(u, dict(zip(names, bits))))
        for bits in itertools.product((False, True), repeat=len(names))
    )


def random_function(m: Manager, names, rng: random.Random, terms: int = 6):
    """A random DNF over ``names`` mixing positive and negative literals."""
    u = m.false
    for _ in range(terms):
        lits = rng.sample(list(names), rng.randint(1, len(names)))
        u = m.or_(u, m.cube({n: rng.random() < 0.5 for n in lits}))
    return u


def test_unknown_backend_lists_the_choices():
    for make_it in (DdManager, make_manager):
        with pytest.raises(QueryError) as info:
            make_it("buddy")
        assert "cudd" in str(info.value) and "oxidd" in str(info.value), str(info.value)


def test_the_dd_wrapper_points_to_the_factory_for_oxidd():
    with pytest.raises(QueryError) as info:
        DdManager("oxidd")
    assert "make_manager('oxidd')" in str(info.value), str(info.value)


def test_declared_order_is_the_level_order(backend):
    m = make(backend, ["c", "a", "b"])
    levels = [m.level(n) for n in ("c", "a", "b")]
    assert levels == [0, 1, 2], levels
    assert m.names == ("c", "a", "b"), m.names


def test_cudd_reordering_is_off():
    m = DdManager("cudd")
    assert m.bdd.configure()["reordering"] is False, m.bdd.configure()


def test_boolean_operations(backend):
    m = make(backend, ["x", "y"])
    x, y = m.var("x"), m.var("y")
    table = {
        "and": (m.and_(x, y), [0, 0, 0, 1]),
        "or": (m.or_(x, y), [0, 1, 1, 1]),
        "xor": (m.xor(x, y), [0, 1, 1, 0]),
        "iff": (m.iff(x, y), [1, 0, 0, 1]),
        "implies": (m.implies(x, y), [1, 1, 0, 1]),
        "diff": (m.diff(x, y), [0, 0, 1, 0]),
        "ite": (m.ite(x, y, m.not_(y)), [1, 0, 0, 1]),
    }
    for name, (u, want) in table.items():
        got = [
            int(m.is_true(m.restrict(u, {"x": a, "y": b})))
            for a, b in itertools.product((False, True), repeat=2)
        ]
        assert got == want, (name, got, want)


def test_conj_disj_of_nothing(backend):
    m = make(backend, ["x"])
    assert m.is_true(m.conj([])) and m.is_false(m.disj([]))


# each fused relational product against its two-step definition
PRODUCTS = {
    "and_exists": (lambda m: m.and_exists, lambda m, u, v, q: m.exist(m.and_(u, v), q)),
    "implies_forall": (lambda m: m.implies_forall, lambda m, u, v, q: m.forall(m.implies(u, v), q)),
}


@pytest.mark.parametrize("product", sorted(PRODUCTS))
def test_fused_relational_products_equal_their_definitions(backend, product):
    fused_of, plain_of = PRODUCTS[product]
    names = [f"v{i}" for i in range(6)]
    m = make(backend, names)
    rng = random.Random(7 if product == "and_exists" else 11)
    for _ in range(20):
        u, v = random_function(m, names, rng), random_function(m, names, rng)
        q = set(rng.sample(names, 3))
        fused, plain = fused_of(m)(u, v, q), plain_of(m, u, v, q)
        assert fused == plain, (
            product,
            sorted(q),
            m.exact_count(fused, 6),
            m.exact_count(plain, 6),
        )


def test_forall_is_dual_of_exist(backend):
    m = make(backend, ["a", "b", "c"])
    u = m.or_(m.var("a"), m.and_(m.var("b"), m.var("c")))
    assert m.forall(u, {"b"}) == m.not_(m.exist(m.not_(u), {"b"}))
    assert m.forall(u, {"b"}) == m.or_(m.var("a"), m.and_(m.false, m.var("c")))


@pytest.mark.parametrize("seed", range(5))
def test_branch_is_the_root_variable_and_its_cofactors(backend, seed):
    """branch(u) = (v, u[v := false], u[v := true]) with v the lowest level of u's
    support (random functions, negated ones too: oxidd's complement edges), None on the
    constants."""
    names = ["a", "b", "c", "d"]
    m = make(backend, names)
    rng = random.Random(seed)
    for u in (f := random_function(m, names, rng), m.not_(f), m.var("c"), m.not_(m.var("d"))):
        if m.is_true(u) or m.is_false(u):
            continue
        v, low, high = m.branch(u)
        assert v == min(m.support(u), key=m.level), (v, m.support(u))
        assert (low, high) == (m.restrict(u, {v: False}), m.restrict(u, {v: True})), v
    assert m.branch(m.true) is None and m.branch(m.false) is None


def test_rename_swaps_simultaneously(backend):
    m = make(backend, ["x", "y"])
    u = m.diff(m.var("x"), m.var("y"))
    swapped = m.rename(u, {"x": "y", "y": "x"})
    assert swapped == m.diff(m.var("y"), m.var("x"))
    assert m.rename(u, {}) == u


@pytest.mark.parametrize("seed", range(5))
def test_compose_substitutes_simultaneously(backend, seed):
    """u[x := f_x] agrees with evaluating u at the values of the f_x, on every assignment
    (random functions; the substituted variables also occur in the f_x)."""
    names = ["a", "b", "c", "d"]
    m = make(backend, names)
    rng = random.Random(seed)
    u = random_function(m, names, rng)
    sub = {n: random_function(m, names, rng, terms=2) for n in rng.sample(names, 2)}
    composed = m.compose(u, sub)
    for bits in itertools.product((False, True), repeat=len(names)):
        point = dict(zip(names, bits))
        image = {
            n: (m.is_true(m.restrict(sub[n], point)) if n in sub else v) for n, v in point.items()
        }
        assert m.is_true(m.restrict(composed, point)) == m.is_true(m.restrict(u, image)), (
            point,
            image,
        )
    assert m.compose(u, {}) == u
    other = make(backend, names)
    with pytest.raises(EngineMismatch):
        m.compose(u, {"a": other.var("b")})


def test_exact_count_matches_brute_force(backend):
    names = [f"v{i}" for i in range(7)]
    m = make(backend, names)
    rng = random.Random(3)
    for _ in range(25):
        u = random_function(m, names, rng)
        assert m.exact_count(u, 7) == brute_count(m, u, names)


def test_exact_count_pads_variables_outside_the_support(backend):
    m = make(backend, ["a", "b", "c", "d"])
    u = m.and_(m.var("b"), m.not_(m.var("d")))
    assert [m.exact_count(u, n) for n in (2, 3, 4, 10)] == [1, 2, 4, 256]
    assert m.exact_count(m.true, 0) == 1 and m.exact_count(m.false, 4) == 0


def test_exact_count_beyond_float_precision(backend):
    """Counts near 2**200 are exact (cudd's double would round them)."""
    names = [f"x{i}" for i in range(200)]
    m = make(backend, names)
    minterms = [m.cube({n: (i * 7 + k) % 3 == 0 for i, n in enumerate(names)}) for k in range(3)]
    few = m.disj(minterms)
    assert m.exact_count(few, 200) == 3
    assert m.exact_count(m.not_(few), 200) == 2**200 - 3
    half_minus = m.diff(m.var("x0"), minterms[1])  # minterms[1] has x0 false: no effect
    assert m.exact_count(half_minus, 200) == 2**199
    assert m.exact_count(m.not_(few), 1000) == (2**200 - 3) * 2**800


@pytest.mark.parametrize("nvars", [40, 52, 53])
def test_exact_count_at_the_edge_of_double_precision(backend, nvars):
    """Counts over 52 variables and fewer are taken in doubles on oxidd
    (FLOAT_COUNT_MAX_VARIABLES): exact up to 2^52, with every bit of the count set, and
    equal to the big-integer count on random functions (negated too: complement edges),
    in a manager with more variables than counted, interleaved."""
    names = [f"x{i}" for i in range(2 * nvars)]
    counted = names[::2]  # the others, between them, are outside every support
    m = make(backend, names)
    few = m.disj(m.cube({n: (i * 7 + k) % 3 == 0 for i, n in enumerate(counted)}) for k in range(3))
    assert m.exact_count(m.not_(few), nvars) == 2**nvars - 3
    assert m.exact_count(m.var(counted[-1]), nvars) == 2 ** (nvars - 1)
    rng = random.Random(nvars)
    for _ in range(20):
        u = random_function(m, counted, rng, terms=12)
        for v in (u, m.not_(u)):
            got = m.exact_count(v, nvars)
            if backend == "oxidd":
                assert got == int(v.sat_count(nvars)), (got, int(v.sat_count(nvars)))
            else:
                assert got == m.exact_count(v, nvars + 1) // 2, got


def test_cudd_exact_traversal_agrees_with_float_count():
    names = [f"v{i}" for i in range(12)]
    m = make("cudd", names)
    rng = random.Random(11)
    for _ in range(30):
        u = random_function(m, names, rng, terms=10)
        for u2 in (u, m.not_(u)):
            want = int(m.bdd.count(u2, 12))
            assert m._count_cudd_exactly(u2, 12) == want


def test_assignments_cover_exactly_the_given_bits(backend):
    m = make(backend, ["a", "b", "c"])
    u = m.var("b")  # support {b}: a and c must be expanded
    got = sorted(tuple(sorted(d.items())) for d in m.assignments(u, ["a", "b", "c"]))
    assert len(got) == 4, got
    assert all(dict(g)["b"] is True and set(dict(g)) == {"a", "b", "c"} for g in got), got


def test_assignments_refuse_bits_below_the_support(backend):
    m = make(backend, ["a", "b"])
    with pytest.raises(AssertionError):
        list(m.assignments(m.and_(m.var("a"), m.var("b")), ["a"]))


def test_mixing_managers_raises_engine_mismatch(backend):
    m1, m2 = make(backend, ["x"]), make(backend, ["x"])
    with pytest.raises(EngineMismatch):
        m1.and_(m1.var("x"), m2.var("x"))
    with pytest.raises(EngineMismatch):
        m1.check(m2.var("x"))
    with pytest.raises(EngineMismatch):
        m1.exact_count(m2.var("x"), 1)


@pytest.mark.parametrize("other", BACKENDS)
def test_mixing_backends_raises_engine_mismatch(backend, other):
    """A node of another backend's manager (or of another manager of the same backend)
    is an EngineMismatch in every operation taking nodes, never the backend's own error
    (nor, on oxidd, an abort of the process)."""
    m, o = make(backend, ["x", "y"]), make(other, ["x", "y"])
    x, y, stranger = m.var("x"), m.var("y"), o.var("x")
    calls = {
        "not_": lambda: m.not_(stranger),
        "and_": lambda: m.and_(x, stranger),
        "or_": lambda: m.or_(stranger, x),
        "diff": lambda: m.diff(x, stranger),
        "xor": lambda: m.xor(x, stranger),
        "iff": lambda: m.iff(stranger, x),
        "implies": lambda: m.implies(x, stranger),
        "ite": lambda: m.ite(x, y, stranger),
        "exist": lambda: m.exist(stranger, {"x"}),
        "forall": lambda: m.forall(stranger, {"x"}),
        "and_exists": lambda: m.and_exists(x, stranger, {"x"}),
        "implies_forall": lambda: m.implies_forall(stranger, x, {"x"}),
        "rename": lambda: m.rename(stranger, {"x": "y"}),
        "restrict": lambda: m.restrict(stranger, {"x": True}),
        "compose": lambda: m.compose(x, {"x": stranger}),
        "exact_count": lambda: m.exact_count(stranger, 2),
        "assignments": lambda: list(m.assignments(stranger, ["x", "y"])),
        "check": lambda: m.check(stranger),
    }
    for name, call in calls.items():
        with pytest.raises(EngineMismatch):
            call()
            pytest.fail(name)


@pytest.mark.parametrize("other", BACKENDS)
def test_copy_between_backends_keeps_the_function(backend, other):
    src, dst = make(backend, ["x", "y", "z"]), make(other, ["z", "x", "y"])
    u = src.or_(src.diff(src.var("x"), src.var("y")), src.var("z"))
    v = dst.copy_from(u)
    assert dst.exact_count(v, 3) == 5 and dst.support(v) == {"x", "y", "z"}
    assert src.copy_from(v) == u
    assert dst.copy_from(v) is v
    assert dst.copy_from(src.true) == dst.true and dst.copy_from(src.false) == dst.false


def test_reorder_keeps_every_function(backend):
    names = [f"v{i}" for i in range(6)]
    m = make(backend, names)
    rng = random.Random(5)
    nodes = [random_function(m, names, rng) for _ in range(8)]
    counts = [m.exact_count(u, 6) for u in nodes]
    order = names[::-1]
    m.reorder(order)
    assert m.names == tuple(order) and [m.level(n) for n in order] == list(range(6))
    assert [m.exact_count(u, 6) for u in nodes] == counts
    assert m.rename(m.var("v0"), {"v0": "v5"}) == m.var("v5")
    with pytest.raises(AssertionError):
        m.reorder(names[1:])


@pytest.mark.parametrize("ratio", [1.0, 1.1, 3.0])
def test_sifting_bounded_in_growth_keeps_every_function(backend, ratio):
    names = [f"v{i}" for i in range(8)]
    m = make(backend, names)
    rng = random.Random(7)
    nodes = [random_function(m, names, rng, terms=10) for _ in range(8)]
    counts = [m.exact_count(u, 8) for u in nodes]
    bounded = m.sift_growth(ratio)
    assert bounded == (backend == "cudd"), (backend, bounded)
    if backend == "cudd":
        assert m.bdd.configure()["max_growth"] == ratio
    m.sift()
    assert [m.exact_count(u, 8) for u in nodes] == counts
    assert sorted(m.names, key=m.level) == list(m.names)
    with pytest.raises(AssertionError):
        m.sift_growth(0.5)


def test_declare_refuses_a_name_twice(backend):
    m = make(backend, ["a"])
    for names in (["a"], ["b", "b"]):
        with pytest.raises(AssertionError):
            m.declare(names)
    assert m.names == ("a",)
    m.declare(["b"])
    assert m.names == ("a", "b") and m.level("b") == 1


def test_a_cube_is_the_conjunction_of_its_literals_in_any_order(backend):
    """cube(a) = ∧ of a's literals, whatever the order of a's keys and of the levels,
    before and after a reorder (oxidd's cube builds from the lowest level up)."""
    rng = random.Random(7)
    names = [f"v{i}" for i in range(8)]
    m = make(backend, names)
    for round_ in range(3):
        for _ in range(40):
            picked = rng.sample(names, rng.randint(0, len(names)))
            a = {n: rng.random() < 0.5 for n in picked}
            want = m.conj(m.var(n) if b else m.not_(m.var(n)) for n, b in a.items())
            assert m.cube(a) == want, (round_, a)
        m.reorder(rng.sample(names, len(names)))


def test_constants_support_and_housekeeping(backend):
    m = make(backend, ["a", "b", "c"])
    assert m.const(True) == m.true and m.const(False) == m.false
    assert m.is_true(m.true) and m.is_false(m.false) and not m.is_true(m.var("a"))
    assert m.not_(m.true) == m.false
    u = m.or_(m.var("a"), m.var("c"))
    assert m.support(u) == {"a", "c"} and m.support(m.true) == set()
    assert m.cube({"a": True, "b": False}) == m.diff(m.var("a"), m.var("b"))
    held = m.node_count()
    assert held >= 1, held
    m.collect_garbage()
    assert m.exact_count(u, 3) == 6 and m.node_count() >= 1
    checked = []
    assert m.disj([m.var("a"), m.var("b"), m.var("c")], check=lambda: checked.append(1)) == m.or_(
        u, m.var("b")
    )
    assert len(checked) == 2, checked


def test_collect_garbage_now_frees_the_dead_nodes_at_once(backend):
    """``collect_garbage(now=True)`` frees what no handle holds (oxidd and autoref;
    CUDD collects by itself and dd.cudd offers no call), and the live functions keep
    their meaning; without ``now`` oxidd waits for its store to grow."""
    names = [f"x{i}" for i in range(12)]
    m = make(backend, names)
    keep = random_function(m, names, random.Random(1))
    want = m.exact_count(keep, len(names))
    dead = [random_function(m, names, random.Random(seed), terms=12) for seed in range(2, 40)]
    del dead
    gc.collect()
    before = m.node_count()
    m.collect_garbage(now=True)
    after = m.node_count()
    if backend == "cudd":
        assert after <= before, (before, after)
    else:
        assert after < before, (before, after)
    assert m.exact_count(keep, len(names)) == want


def test_every_backend_keeps_the_contract(backend):
    m = make_manager(backend)
    assert isinstance(m, Manager), type(m)
    assert m.backend == backend and isinstance(m.interruptible_products, bool)


def test_sizes(backend):
    m = make(backend, ["x", "y", "z"])
    u = m.and_(m.var("x"), m.var("y"))
    v = m.and_(m.var("y"), m.var("z"))
    assert m.size(m.true) == 1
    assert m.size(u) == 3, m.size(u)  # x, y and the constant
    assert m.shared_size([u, v]) <= m.size(u) + m.size(v)


def test_cudd_memory_exhaustion_is_out_of_memory():
    """A multiplier-like function under a 16 MiB cap: CUDD gives up, we say why."""
    m = DdManager("cudd", max_memory=16 * 2**20)
    n = 40
    xs, ys = [f"x{i}" for i in range(n)], [f"y{i}" for i in range(n)]
    m.declare(xs + ys)  # worst order for x = reverse(y)
    with pytest.raises(OutOfMemory) as info:
        u = m.true
        for i in range(n):
            u = m.and_(u, m.iff(m.var(xs[i]), m.var(ys[n - 1 - i])))
            u = m.or_(u, m.and_(m.var(xs[i]), m.var(ys[i])))
    assert "memory" in str(info.value), str(info.value)


def test_managers_are_released_after_their_nodes(backend, monkeypatch):
    """A manager caught in a reference cycle with its nodes (as exception tracebacks
    make them) is freed after them: dd reports nothing, and nothing leaks."""
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_value))
    gc.collect()
    before = len(bdd_backend._LIVE)
    for _ in range(3):
        m = make(backend, ["x", "y"])
        holder = {"m": m, "nodes": [m.and_(m.var("x"), m.var("y"))]}
        holder["self"] = holder  # a cycle holding the manager and a node
        del m, holder
    gc.collect()
    gc.collect()
    assert seen == [], seen
    assert len(bdd_backend._LIVE) <= before, (before, len(bdd_backend._LIVE))


# ------------------------------------------------------------------ variable bounds, memory caps


@pytest.mark.parametrize(
    "backend,cap_mb,bound",
    [
        ("cudd", 64, (64 - 9) * 128),  # 8 KiB per variable beyond 9 MiB
        ("cudd", 4, 1000),  # CUDD's minimal tables hold 1 018 at any cap
        ("autoref", 1, 2048),  # 512 bytes per node, a node per variable
        ("autoref", None, capacity.AUTOREF_MAX_VARIABLES),  # Python's stack binds first
        ("oxidd", 1, 512),  # 2 KiB per variable (its level, the engine's objects)
    ],
)
def test_the_variable_bound_is_checked_before_declaring(backend, cap_mb, bound):
    m = make_manager(backend, max_memory=None if cap_mb is None else cap_mb << 20)
    assert m.variable_bound()[0] == bound, m.variable_bound()
    m.require_variables(bound, "a space")  # fits: nothing raised, nothing declared
    with pytest.raises(TooManyVariables) as info:
        m.declare([f"v{i}" for i in range(bound + 1)], "a space of 7 slots")
    msg = str(info.value)
    assert f"a space of 7 slots needs {bound + 1} BDD variables" in msg, msg
    assert f"the {backend} backend" in msg and str(bound) in msg, msg
    assert m.names == () and info.value.limit == "bdd-variables", m.names


def test_the_bound_is_the_one_the_backend_really_has():
    """Declaring up to the bound works; CUDD fails a little beyond it (measured: 1 018
    variables under any cap up to 16 MiB), and that failure is an OutOfMemory."""
    m = make_manager("cudd", max_memory=4 << 20)
    m.declare([f"v{i}" for i in range(m.variable_bound()[0])])
    with pytest.raises(OutOfMemory):
        m._add_variables([f"w{i}" for i in range(200)])


def test_autoref_memory_cap_raises_out_of_memory():
    m = make_manager("autoref", max_memory=1 << 20)  # 2 048 nodes
    n = 12
    xs, ys = [f"x{i}" for i in range(n)], [f"y{i}" for i in range(n)]
    m.declare(xs + ys)
    with pytest.raises(OutOfMemory) as info:
        u = m.true
        for i in range(n):
            u = m.and_(u, m.iff(m.var(xs[i]), m.var(ys[n - 1 - i])))
            u = m.or_(u, m.and_(m.var(xs[i]), m.var(ys[i])))
    assert "autoref manager" in str(info.value) and "2048" in str(info.value), str(info.value)


def test_oxidd_products_stop_at_the_time_limit_while_they_run():
    """A relational product on oxidd runs in a worker thread: a deadline passed during
    it raises at once (within 0.1 s), not when the product ends; the manager stays usable."""
    import time
    from symbolic.errors import LimitExceeded
    from symbolic.limits import Limits

    pytest.importorskip("oxidd")
    n = 19
    names = [f"v{i}" for i in range(2 * n)]
    m = make_manager("oxidd", limits=Limits(timeout=0.05))
    m.declare(names)
    v = [m.var(x) for x in names]
    f = g = m.false
    for i in range(n):  # two parities whose conjunction is large and slow to build
        f = m.xor(f, m.and_(v[i], v[2 * n - 1 - i]))
        g = m.xor(g, m.and_(v[i], v[n + i]))
    t0 = time.monotonic()
    with pytest.raises(LimitExceeded):
        m.and_exists(f, m.not_(g), [names[0]])
    assert time.monotonic() - t0 < 0.5, time.monotonic() - t0
    assert m.exact_count(m.and_(v[0], v[1]), 2 * n) == 2 ** (2 * n - 2)


def test_auto_takes_cudd_when_ulimit_v_leaves_little_address_space():
    """oxidd ends the process when an allocation fails; under a tight `ulimit -v` the
    automatic choice is CUDD (which reports memory exhaustion), without it oxidd."""
    import subprocess

    code = (
        "import resource, sys; from symbolic.bdd.managers import choose_backend;"
        "from symbolic.ir import IntType, Space, VarDecl;"
        "s = Space(tuple(VarDecl(f'x{i}', IntType(0, 255)) for i in range(4)));"
        "print(choose_backend(s));"
        "resource.setrlimit(resource.RLIMIT_AS, (600 * 2**20,) * 2);"
        "print(choose_backend(s))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["oxidd", "cudd"], (out.stdout, out.stderr)


def test_oxidd_runs_small_products_in_the_calling_thread_and_large_ones_in_a_worker(
    monkeypatch,
):
    # on a manager past _DIRECT_BELOW nodes, a product of small operands needs no worker
    # thread (a thread per product made a GDL engine's successors several times slower on
    # a busy machine: bench/README.md); a product of large operands still runs in one,
    # where limits interrupt it
    from symbolic.bdd import oxidd_backend

    names = [f"v{i}" for i in range(40)]
    m = make("oxidd", names)
    rng = random.Random(3)
    held = [random_function(m, names, rng, terms=60) for _ in range(40)]
    assert m.bdd.num_inner_nodes() >= oxidd_backend._DIRECT_BELOW, m.bdd.num_inner_nodes()
    started = []
    real = oxidd_backend.threading.Thread

    def counted(*args, **kwargs):
        started.append(kwargs.get("name"))
        return real(*args, **kwargs)

    monkeypatch.setattr(oxidd_backend.threading, "Thread", counted)
    small_u, small_v = m.cube({"v1": True, "v2": False}), m.cube({"v2": False, "v3": True})
    got = m.and_exists(small_u, small_v, {"v2"})
    assert got == m.exist(m.and_(small_u, small_v), {"v2"}) and started == [], started
    big = max(held, key=m.size)
    assert m.size(big) >= oxidd_backend._DIRECT_OPERANDS, m.size(big)
    got = m.and_exists(big, held[0], {"v5"})
    assert got == m.exist(m.and_(big, held[0]), {"v5"}) and started == ["oxidd product"], started
