"""The dedicated safety solver (symbolic.aiger.safety) on a manager of its own.

On random small circuits its answer equals an independent enumeration's
(tests/test_aiger_peer.py) whatever the backend and the reordering, its winning region
is the explicit engine's, and on corpus files it equals status.tsv.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.aiger import parse_aiger, read_aiger
from symbolic.aiger.build import aiger_model
from symbolic.aiger.safety import (
    POLICIES,
    Adapt,
    default_names,
    dfs_order,
    solve_safety,
)
from symbolic.aiger.solve import realizability
from symbolic.engines import make_engine
from symbolic.errors import LimitExceeded
from symbolic.limits import Limits
from symbolic.model import Model

from .strategies import aiger_circuits
from .test_aiger_engines import SMALL, _status
from .test_aiger_peer import explicit_answer
from .test_aiger_reader import CORPUS

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100"))


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    aiger_circuits(),
    st.sampled_from(["cudd", "autoref"]),
    st.booleans(),
    st.sampled_from(sorted(POLICIES)),
    st.sampled_from(["file", "dfs"]),
    st.sampled_from([None, 0.0, 5.0]),  # no try without reordering, one given up at once, one
    st.sampled_from([1.0, 1.1, 1.2, 2.0]),  # sifting's bound on growth
)
def test_answer_equals_enumeration(c, backend, sifting, policy, order, static_first, growth):
    names = default_names(c)
    r = solve_safety(
        c,
        *names,
        backend=backend,
        sifting=sifting,
        policy=policy,
        order=order,
        static_first=static_first,
        growth=growth,
    )
    assert ("REAL" if r.realizable else "UNREAL") == explicit_answer(c)
    assert (r.winning is None) == (not r.realizable) == (r.winning_size is None)


@settings(max_examples=max(EXAMPLES // 4, 10), deadline=None)
@given(aiger_circuits())
def test_winning_size_and_iterations_equal_the_explicit_engine(c):
    r = solve_safety(c, *default_names(c), backend="cudd")
    m = Model.of(aiger_model(c), "")
    e = realizability(m, make_engine(m.game, "explicit"))
    assert (r.realizable, r.winning_size, r.iterations) == (
        e.realizable,
        e.winning_size,
        e.iterations,
    )


def test_oxidd_gives_the_same_answer():
    pytest.importorskip("oxidd")
    c = parse_aiger("aag 3 2 0 1 1\n2\n4\n6\n6 5 2\ni0 u\ni1 controllable_c\n")
    rs = [solve_safety(c, *default_names(c), backend=b) for b in ("cudd", "oxidd")]
    assert [r.realizable for r in rs] == [True, True]  # c = 0 keeps the error at 0


def test_the_time_limit_stops_it():
    c = parse_aiger("aag 1 1 0 1 0\n2\n2\ni0 u\n")
    lim = Limits(timeout=1e-9)
    with pytest.raises(LimitExceeded) as err:
        with lim.enforced():
            solve_safety(c, *default_names(c), limits=lim)
    assert "time limit" in str(err.value)


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", SMALL)
def test_corpus_answers(name):
    c = read_aiger(CORPUS / name)
    r = solve_safety(c, *default_names(c))
    assert ("REAL" if r.realizable else "UNREAL") == _status()[name]


def test_probe_prints_each_stage():
    """bench/aiger_probe.py: the gates, each iteration, then the answer."""
    import json
    import subprocess
    import sys

    from .conftest import ROOT

    probe, path = ROOT / "bench" / "aiger_probe.py", ROOT / "models" / "aiger" / "grant.aag"
    out = subprocess.run(
        [sys.executable, str(probe), str(path), "--limit", "60"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[1]["stage"] == "gates" and lines[2]["stage"] == "iteration"
    assert lines[-1] == {"answer": "UNREAL", "iterations": lines[-2]["step"], "merged": 0}


@pytest.mark.parametrize(
    "policy, seconds, nodes, dynamic",
    [
        ("adapt", 0.01, 10**6, False),  # by time only
        ("adapt", 1.0, 10, True),
        ("grow", 0.01, 399, False),  # 4 × the gates' 100 nodes
        ("grow", 0.01, 401, True),
        ("always", 0.0, 0, True),
    ],
)
def test_the_reordering_policies_switch_on_as_stated(policy, seconds, nodes, dynamic):
    import contextlib

    from symbolic.bdd.managers import make_manager

    adapt = Adapt(make_manager("cudd"), gates=100, **POLICIES[policy])
    with contextlib.ExitStack() as stack:
        adapt(seconds, nodes, stack)
        assert adapt.dynamic == dynamic, (policy, seconds, nodes)


class _Sifting:
    """A manager's reordering as Adapt sees it: whether it is on, and the seconds its
    reorderings have taken (set by the test)."""

    def __init__(self):
        self.on, self.seconds = False, 0.0

    def reordering_seconds(self) -> float:
        return self.seconds

    def sift(self) -> bool:
        return True

    def reordering(self):
        import contextlib

        @contextlib.contextmanager
        def block():
            self.on = True
            try:
                yield True
            finally:
                self.on = False

        return block()


def test_a_storm_of_reorderings_turns_them_off_for_good():
    import contextlib

    m = _Sifting()
    m.seconds = 7.0  # the gates' reorderings: not the fixpoint's
    adapt = Adapt(m, **POLICIES["storm"])
    storm = POLICIES["storm"]["storm"]
    with contextlib.ExitStack() as stack:
        adapt(0.0, 0, stack)
        assert m.on and adapt.watching
        # 3 s of sifting of the fixpoint's 4 (under the 4 s), then 5 s of its 10 (a
        # ratio of 1 to the other work, under 4): on
        for spent, sifted in [(4.0, 3.0), (6.0, 2.0)]:
            m.seconds += sifted
            adapt(spent, 0, stack)
            assert m.on, (spent, sifted)
        # then 34 s of its 40: over 4 s, and over 4 times the other 6 s: off
        m.seconds += 29.0
        adapt(30.0, 0, stack)
        assert 34.0 > storm and not m.on and adapt.stopped and not adapt.watching
        adapt(100.0, 10**9, stack)  # never on again
        assert not m.on


def test_without_storm_the_reordering_stays_on_whatever_it_costs():
    import contextlib

    m = _Sifting()
    adapt = Adapt(m, **POLICIES["always"])
    with contextlib.ExitStack() as stack:
        adapt(0.0, 0, stack)
        m.seconds += 1000.0
        assert not adapt.watching  # the fixpoint no longer calls it
        adapt(1001.0, 0, stack)
        assert m.on


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_dfs_order_is_a_permutation_of_the_latches_and_inputs(c):
    order = dfs_order(c)
    assert sorted(order) == list(range(len(c.latches) + len(c.inputs))), order


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
def test_a_try_without_reordering_given_up_leaves_the_answer():
    c = read_aiger(str(CORPUS / "mult7.aag"))
    limits = Limits()
    gave_up = solve_safety(c, *default_names(c), static_first=0.0, limits=limits, forced=False)
    plain = solve_safety(c, *default_names(c), forced=False)
    assert (gave_up.realizable, gave_up.winning_size) == (plain.realizable, plain.winning_size)
    assert limits.budget_left() is None, "the budget outlived the try"
    # a try that answers: its manager, used on, no longer stops at the budget's end
    tiny = read_aiger(str(CORPUS / "cnt10n.aag"))
    quick = solve_safety(tiny, *default_names(tiny), static_first=0.3, limits=limits)
    spent = time.process_time() + 0.5
    while time.process_time() < spent:  # CPU past the budget: CUDD's clock counts CPU
        pass
    m = quick.manager
    latch_vars, input_vars = default_names(tiny)
    fresh = quick.winning
    for v in [*latch_vars, *input_vars] * 20:  # many new nodes, then W again
        fresh = m.xor(fresh, m.and_(m.var(v), m.var(latch_vars[0])))
    assert m.exact_count(fresh, len(tiny.latches)) == quick.winning_size


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("seconds", [0.002, 0.01, 0.03, 0.1, 0.3])
def test_a_try_stopped_anywhere_inside_cudd_leaves_the_answer(seconds):
    # the try's budget ends inside a CUDD call (CUDD's own clock) or between two
    c = read_aiger(str(CORPUS / "amba6b4unrealy.aag"))
    r = solve_safety(c, *default_names(c), static_first=seconds, invariant=64)
    assert r.realizable is False, r
