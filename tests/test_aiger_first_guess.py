"""The invariant of the initial literals tried before any gate is built in full
(symbolic.aiger.first_guess): lazily built gates equal the eager ones, a latch whose cone
passes the bound is left out and the answer stays sound, a proof is only ever given on a
realizable circuit (against enumeration), and the stayN files answer with it.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.aiger import parse_aiger, read_aiger
from symbolic.aiger.first_guess import GateTooLarge, LazyGates, literal_invariant
from symbolic.aiger.safety import GUESS_AT, circuit_bdds, default_names, solve_safety
from symbolic.bdd.managers import make_manager
from symbolic.limits import Limits

from .strategies import aiger_circuits
from .test_aiger_peer import explicit_answer
from .test_aiger_reader import CORPUS

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100"))

# b' = b ∨ s (s the controller's), y' = u0 ∧ u1 ∧ u2 (the environment's), err = b ∧ y:
# the controller keeps b at 0 whatever y does
FLAG = """aag 10 4 2 1 4
2
4
6
8
10 19
12 16
20
14 4 6
16 14 8
18 11 3
20 10 12
i0 controllable_s
i1 u0
i2 u1
i3 u2
l0 b
l1 y
"""


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits(), st.sampled_from(["autoref", "cudd"]))
def test_lazy_gates_equal_the_eager_ones(c, backend):
    m = make_manager(backend)
    latch_vars, input_vars = default_names(c)
    m.declare(latch_vars + input_vars, "test")
    err, nexts = circuit_bdds(m, c, latch_vars, input_vars, Limits())
    gates = LazyGates(m, c, latch_vars, input_vars, bound=10**6)
    assert gates.literal(c.outputs[0]) == err
    for v, x in zip(latch_vars, c.next_state):
        assert gates.literal(x) == nexts[v], v


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits(), st.integers(1, 40))
def test_a_proof_is_given_on_realizable_circuits_only(c, bound):
    m = literal_invariant(
        c, *default_names(c), backend="cudd", limits=Limits(), bound=bound, seconds=5.0
    )
    if m is not None:
        assert explicit_answer(c) == "REAL"


def test_a_latch_past_the_bound_is_left_out_and_the_flag_proves_it():
    c = parse_aiger(FLAG)
    assert explicit_answer(c) == "REAL"
    m = make_manager("autoref")
    m.declare(["b", "y", "s", "u0", "u1", "u2"], "test")
    gates = LazyGates(m, c, ["b", "y"], ["s", "u0", "u1", "u2"], bound=3)
    with pytest.raises(GateTooLarge):
        gates.literal(c.next_state[1])  # u0 ∧ u1 ∧ u2: 4 nodes
    with pytest.raises(GateTooLarge):  # asked again, it is not built again
        gates.literal(c.next_state[1])
    assert gates.too_large == {8}
    assert gates.literal(c.next_state[0]) == m.or_(m.var("b"), m.var("s"))
    proved = literal_invariant(c, *default_names(c), backend="autoref", limits=Limits(), bound=3)
    assert proved is not None


def test_an_unrealizable_circuit_gets_no_proof():
    # err = x, x' = u: the environment raises the error
    c = parse_aiger("aag 2 1 1 1 0\n2\n4 2\n4\ni0 u\n")
    assert literal_invariant(c, *default_names(c), backend="cudd", limits=Limits()) is None


def test_a_try_out_of_time_gives_no_proof():
    c = parse_aiger(FLAG)
    limits = Limits()
    assert (
        literal_invariant(c, *default_names(c), backend="cudd", limits=limits, seconds=0.0) is None
    )
    assert limits.budget_left() is None  # the try's budget is gone with it


def test_the_solver_answers_with_it_in_no_iteration():
    c = parse_aiger(FLAG)
    r = solve_safety(c, *default_names(c), backend="cudd", invariant=GUESS_AT)
    assert (r.realizable, r.proof, r.iterations, r.winning) == (True, "invariant", 0, None)
    r = solve_safety(c, *default_names(c), backend="cudd", invariant=GUESS_AT, first_guess=False)
    assert (r.realizable, r.proof) == (True, "fixpoint"), r
    assert r.iterations > 0


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", ["stay16y", "stay20n", "stay24y", "cnt30y"])
def test_the_products_never_built_answer_at_once(name):
    c = read_aiger(str(CORPUS / f"{name}.aag"))
    r = solve_safety(c, *default_names(c), backend="cudd", invariant=GUESS_AT)
    assert (r.realizable, r.proof, r.iterations) == (True, "invariant", 0), r


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
def test_the_command_answers_stay20n_after_its_try_without_reordering(capsys):
    """The command tries the run without reordering first (``STATIC_FIRST``), where
    stay20n's product does not finish, then the invariant."""
    from symbolic.cli import main

    assert main(["aiger", str(CORPUS / "stay20n.aag"), "--json", "--timeout", "30"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["realizable"], doc["proof"], doc["iterations"]) == (True, "invariant", 0), doc
