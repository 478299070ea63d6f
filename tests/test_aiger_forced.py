"""The controllable inputs the error forces (symbolic.aiger.forced), substituted away.

The substitution keeps the answer (an independent enumeration of the original circuit
agrees), the reduced circuit computes what the original computes once each forced input
takes its function, and on the multipliers of the corpus the error folds to 0.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings

from symbolic.aiger import parse_aiger, read_aiger
from symbolic.aiger.circuit import literal_value, simulate
from symbolic.aiger.forced import forced_inputs
from symbolic.aiger.safety import default_names, solve_safety
from symbolic.limits import ensure_recursion_headroom

from .strategies import aiger_forced_circuits
from .test_aiger_peer import explicit_answer
from .test_aiger_reader import CORPUS

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100"))
# as the command does, before hypothesis notes the limit (a command run in a test raises it)
ensure_recursion_headroom()


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_forced_circuits())
def test_the_answer_is_the_enumerations(c):
    r = solve_safety(c, *default_names(c), backend="cudd")
    plain = solve_safety(c, *default_names(c), backend="cudd", forced=False)
    assert ("REAL" if r.realizable else "UNREAL") == explicit_answer(c)
    assert (r.realizable, r.winning_size) == (plain.realizable, plain.winning_size)


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_forced_circuits())
def test_the_reduced_circuit_computes_the_same_with_the_forced_functions(c):
    r = forced_inputs(c)
    for k in r.forced:
        assert c.controllable[k], (k, r.forced)
    for bits in itertools.product((0, 1), repeat=len(c.latches) + len(c.inputs)):
        state = dict(zip(c.latches, bits))
        inputs = dict(zip(c.inputs, bits[len(c.latches) :]))
        reduced = simulate(r.circuit, state, inputs)
        # the forced inputs take the functions the reduced circuit computes for them
        for k, lit in r.forced.items():
            inputs[c.inputs[k]] = literal_value(reduced, lit)
        original = simulate(c, state, inputs)
        for a, b in [(c.error, r.circuit.error), *zip(c.next_state, r.circuit.next_state)]:
            assert literal_value(original, a) == literal_value(reduced, b), (bits, a, b)


def test_an_equivalence_of_two_controllable_inputs_substitutes_one():
    # err = c0 XOR c1: c0 := c1 (or the converse), never both (a cycle)
    text = "aag 5 2 0 1 3\n2\n4\n11\n6 2 5\n8 3 4\n10 7 9\ni0 controllable_a\ni1 controllable_b\n"
    r = forced_inputs(parse_aiger(text))
    assert len(r.forced) == 1 and r.circuit.error == 0, r


def test_a_function_that_reads_its_input_is_not_substituted():
    # err = c XOR (c ∧ u): c ↔ (c ∧ u) reads c itself
    text = "aag 6 2 0 1 4\n2\n4\n13\n6 2 4\n8 4 7\n10 5 6\n12 9 11\ni0 u\ni1 controllable_c\n"
    assert forced_inputs(parse_aiger(text)).forced == {}


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", ["mult2", "mult7", "mult12", "mult16"])
def test_the_multipliers_fold_to_no_error(name):
    c = read_aiger(str(CORPUS / f"{name}.aag"))
    r = forced_inputs(c)
    assert (r.circuit.error, len(r.forced)) == (0, sum(c.controllable)), r.forced
    assert solve_safety(c, *default_names(c), backend="cudd").realizable


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
def test_the_multiplier_controller_is_the_product_and_verified(tmp_path):
    out = tmp_path / "mult7.aag"
    cmd = [sys.executable, "-m", "symbolic", "aiger", str(CORPUS / "mult7.aag"), "--json"]
    proc = subprocess.run([*cmd, "--controller", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)["controller"]
    # the product copied from the circuit (400 gates after hashing) and one gate per
    # input, far below a BDD's gates (14 022 before the substitution)
    assert doc["verified"] and doc["verified_by"] == ["explicit", "symbolic"], doc
    assert doc["ands"] < doc["circuit_ands"], doc
    assert read_aiger(str(out)).controllable == (False,) * 14


@settings(max_examples=max(1, EXAMPLES // 4), deadline=None)
@given(aiger_forced_circuits())
def test_a_controller_with_forced_inputs_comes_from_the_one_solve_and_is_verified(c):
    """``symbolic aiger --controller`` on a circuit whose error forces inputs solves the
    circuit with them substituted once (the answer's run, whose strategy makes the
    controller, not a second solve), reports the same winning region as a plain run,
    and the controller written is verified."""
    import tempfile
    from unittest import mock

    from symbolic.aiger import solve as solve_mod
    from symbolic.aiger.writer import to_aag

    if not forced_inputs(c).forced:
        return
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "c.aag"), os.path.join(tmp, "ctrl.aag")
        with open(src, "w") as f:
            f.write(to_aag(c))
        plain = json.loads(_main(["aiger", src, "--json", "--merge", "off"])[1])
        with mock.patch.object(solve_mod, "realizability", wraps=solve_mod.realizability) as r:
            status, text, err = _main(["aiger", src, "--json", "--controller", out])
        doc = json.loads(text)
        assert doc["realizable"] == plain["realizable"], (status, err, doc)
        assert status == (0 if doc["realizable"] else 1), (status, err)  # 1: no controller
        if not doc["merged_latches"]:  # merged latches: no region (the plain run's is W)
            assert doc["winning_region"] == plain["winning_region"], (doc, plain)
        assert r.call_count == 1, r.call_args_list
        if doc["realizable"]:
            assert doc["controller"]["verified"], doc["controller"]


def _main(argv: list[str]) -> tuple[int, str, str]:
    """``symbolic ARGV`` in this process: (status, stdout, stderr)."""
    import contextlib
    import io

    from symbolic.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()
