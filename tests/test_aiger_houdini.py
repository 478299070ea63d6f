"""The controlled invariant guessed from the initial state's literals
(symbolic.aiger.houdini), and the safety solver answering with it.

A guess that holds is a set the controller can keep, containing the initial state: on
random circuits it lies inside the winning region the full fixpoint computes, and the
answer the solver gives with it is the enumeration's. On the corpus's counters it answers
in a few rounds where the fixpoint needs 2^(n-1) iterations.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.aiger import read_aiger
from symbolic.aiger.houdini import initial_invariant
from symbolic.aiger.safety import GUESS_AT, circuit_bdds, default_names, solve_safety
from symbolic.limits import Limits

from .strategies import aiger_circuits
from .test_aiger_peer import explicit_answer
from .test_aiger_reader import CORPUS

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100"))


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits(), st.integers(1, 3))
def test_the_answer_with_a_guess_is_the_enumerations(c, at):
    r = solve_safety(c, *default_names(c), backend="cudd", invariant=at, first_guess=False)
    assert ("REAL" if r.realizable else "UNREAL") == explicit_answer(c), r.proof
    if r.proof == "invariant":
        assert r.realizable and r.winning is None and r.iterations == at


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_a_guess_that_holds_is_inside_the_winning_region(c):
    full = solve_safety(c, *default_names(c), backend="autoref")
    m = full.manager
    latch_vars, input_vars = default_names(c)
    safe_err, nexts = circuit_bdds(m, c, latch_vars, input_vars, Limits())
    ctrl = [v for v, k in zip(input_vars, c.controllable) if k]
    env = [v for v, k in zip(input_vars, c.controllable) if not k]
    inv, rounds = initial_invariant(
        m, m.not_(safe_err), nexts, latch_vars, c.reset, ctrl, env, m.true, Limits()
    )
    assert rounds <= len(c.latches) + 1
    if inv is None:
        return
    init = m.cube({v: bool(r) for v, r in zip(latch_vars, c.reset)})
    assert m.is_false(m.diff(init, inv)), "the initial state is outside the guess"
    assert full.realizable and m.is_false(m.diff(inv, full.winning)), "outside W"


def test_a_guess_that_fails_lets_the_fixpoint_answer():
    # err = x, x' = u: the environment raises the error, no literal survives
    from symbolic.aiger import parse_aiger

    c = parse_aiger("aag 2 1 1 1 0\n2\n4 2\n4\ni0 u\n")
    r = solve_safety(c, *default_names(c), backend="cudd", invariant=1)
    assert (r.realizable, r.proof) == (False, "initial"), r
    assert r.iterations == 2, r  # the fixpoint ran: the first try failed


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", ["cnt20n", "cnt25y", "cnt30y"])
def test_the_counters_answer_with_an_invariant(name):
    c = read_aiger(str(CORPUS / f"{name}.aag"))
    r = solve_safety(c, *default_names(c), backend="cudd", invariant=GUESS_AT, first_guess=False)
    assert (r.realizable, r.proof, r.iterations) == (True, "invariant", GUESS_AT), r
