"""Latch correspondence (symbolic.aiger.correspondence): the merged classes hold in every
reachable state (checked by enumeration), merging never changes the answer (against
enumeration and the unmerged solver), copied latches are merged, and the command line
reports what it merged.
"""

from __future__ import annotations

import itertools
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.aiger import Circuit, read_aiger, to_aag
from symbolic.aiger.circuit import literal_value, simulate
from symbolic.aiger.correspondence import merged_latches
from symbolic.aiger.explicit import closed_circuit_safe
from symbolic.aiger.forced import forced_inputs
from symbolic.aiger.safety import GUESS_AT, default_names, solve_safety
from symbolic.cli import main
from symbolic.limits import Limits

from .strategies import aiger_circuits
from .test_aiger_peer import explicit_answer
from .test_aiger_reader import CORPUS
from .test_docs import ROOT

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100"))


@st.composite
def circuits_with_copies(draw):
    """A random circuit with latches added: exact copies of others (same next-state
    literal and reset), opposite copies (negated next state, other reset) and stuck
    latches (next state its own literal or a constant equal to the reset)."""
    c = draw(aiger_circuits())
    extra = draw(st.lists(st.integers(0, 3), max_size=4))
    latches, nexts, resets = list(c.latches), list(c.next_state), list(c.reset)
    top = c.maxvar
    for kind in extra:
        top += 1
        x = 2 * top
        if kind < 2 and c.latches:
            k = draw(st.integers(0, len(c.latches) - 1))
            flip = kind  # 1: the opposite copy
            nexts.append(c.next_state[k] ^ flip)
            resets.append(c.reset[k] ^ flip)
        elif kind == 2:
            r = draw(st.integers(0, 1))
            nexts.append(x if draw(st.booleans()) else r)
            resets.append(r)
        else:  # a latch copying an input
            nexts.append(draw(st.sampled_from(c.inputs)))
            resets.append(0)
        latches.append(x)
    n = len(latches)
    return Circuit(
        top,
        c.inputs,
        tuple(latches),
        tuple(nexts),
        tuple(resets),
        c.outputs,
        c.and_lhs,
        c.and_rhs0,
        c.and_rhs1,
        c.input_names,
        ("",) * n,
        c.output_names,
    )


def reachable(c: Circuit) -> set[tuple[int, ...]]:
    """Every latch valuation reachable from the initial one, whatever the inputs."""
    start = tuple(c.reset)
    seen, todo = {start}, [start]
    while todo:
        s = todo.pop()
        for bits in itertools.product((0, 1), repeat=len(c.inputs)):
            value = simulate(c, dict(zip(c.latches, s)), dict(zip(c.inputs, bits)))
            t = tuple(literal_value(value, n) for n in c.next_state)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


@settings(max_examples=EXAMPLES, deadline=None)
@given(circuits_with_copies(), st.sampled_from([1, 2, 64]), st.integers(0, 3))
def test_the_merged_classes_hold_in_every_reachable_state(c, steps, seed):
    merged = merged_latches(c, steps=steps, seed=seed)
    states = reachable(c)
    for k, (r, phase) in merged.classes.items():
        for s in states:
            want = phase if r < 0 else s[r] ^ phase
            assert s[k] == want, (k, r, phase, s)
    assert len(merged.circuit.latches) == len(c.latches) - len(merged.classes)


@settings(max_examples=EXAMPLES, deadline=None)
@given(circuits_with_copies(), st.sampled_from([1, 64]))
def test_merging_keeps_the_answer(c, steps):
    merged = merged_latches(c, steps=steps)
    assert explicit_answer(merged.circuit) == explicit_answer(c)
    r = solve_safety(c, *default_names(c), backend="cudd", merge=True, invariant=GUESS_AT)
    assert ("REAL" if r.realizable else "UNREAL") == explicit_answer(c)
    # the solver merges once the forced inputs are substituted
    assert r.merged == len(merged_latches(forced_inputs(c).circuit).classes)
    if r.merged:
        assert r.winning is None and r.winning_size is None


@settings(max_examples=EXAMPLES, deadline=None)
@given(circuits_with_copies())
def test_an_exact_copy_is_merged(c):
    merged = merged_latches(c)
    firsts: dict[tuple[int, int], int] = {}
    for k, key in enumerate(zip(c.next_state, c.reset)):
        if key in firsts:  # the same next-state literal and reset as latch firsts[key]
            a, b = firsts[key], k
            ra = merged.classes.get(a, (a, 0))
            rb = merged.classes.get(b, (b, 0))
            assert ra == rb, (a, ra, b, rb)
        else:
            firsts[key] = k


def test_the_merged_circuit_keeps_the_representatives_names():
    c = read_aiger(ROOT / "models" / "aiger" / "grant_twice.aag")
    merged = merged_latches(c)
    assert merged.classes == {1: (0, 0)}
    assert merged.circuit.latch_names == ("granted",)
    # the error reads the representative: request ∧ ¬granted
    gate = merged.circuit.and_lhs.index(merged.circuit.error)
    operands = {merged.circuit.and_rhs0[gate], merged.circuit.and_rhs1[gate]}
    assert operands == {2, 7}, operands


def test_the_command_says_what_it_merged(capsys):
    path = str(ROOT / "models" / "aiger" / "grant_twice.aag")
    assert main(["aiger", path, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["realizable"], doc["merged_latches"], doc["winning_region"]) == (True, 1, None)
    assert main(["aiger", path, "--json", "--merge", "off"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["realizable"], doc["merged_latches"], doc["winning_region"]) == (True, 0, 2)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the SYNTCOMP corpus is not beside the checkout")
@pytest.mark.parametrize(
    ("name", "latches", "kept", "status"),
    [("demo-v10_2_REAL.aag", 56, 20, "REAL"), ("gb_s2_r2_comp1_UNREAL.aag", 354, 126, "UNREAL")],
)
def test_corpus_circuits_lose_most_of_their_latches(name, latches, kept, status):
    c = read_aiger(CORPUS / name)
    merged = merged_latches(c)
    assert (len(c.latches), len(merged.circuit.latches)) == (latches, kept)
    r = solve_safety(c, *default_names(c), merge=True, invariant=GUESS_AT)
    assert ("REAL" if r.realizable else "UNREAL") == status


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(circuits_with_copies())
def test_a_controller_of_the_merged_circuit_keeps_the_whole_circuit_safe(tmp_path_factory, c):
    folder = tmp_path_factory.mktemp("merged")
    path, out = folder / "c.aag", folder / "controller.aag"
    path.write_text(to_aag(c))
    status = main(["aiger", str(path), "--controller", str(out), "--json"])
    if explicit_answer(c) == "UNREAL":
        assert status == 1 and not out.exists()
        return
    assert status == 0
    closed = read_aiger(out)
    # simulated on every reachable state, every latch kept
    assert closed_circuit_safe(closed, Limits())
    assert not any(closed.controllable)


def test_the_controller_of_grant_twice_reads_the_representative(tmp_path, capsys):
    out = tmp_path / "controller.aag"
    path = str(ROOT / "models" / "aiger" / "grant_twice.aag")
    assert main(["aiger", path, "--controller", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["merged_latches"] == 1 and doc["latches"] == 2
    assert doc["controller"]["verified"] is True
    closed = read_aiger(out)
    assert closed.latches == (6, 8) and closed_circuit_safe(closed, Limits())


def test_a_controller_run_reads_the_circuit_once(capsys, tmp_path, monkeypatch):
    """--controller with --merge on: whether latches merge (grant_twice) or not
    (grant_ahead), the file is read once, and the controller is verified."""
    import symbolic.aiger.reader as reader

    from .conftest import run

    calls = []
    real = reader.parse_aiger

    def counting(data, file="<aiger>"):
        calls.append(file)
        return real(data, file)

    monkeypatch.setattr(reader, "parse_aiger", counting)  # every file read parses
    for name in ("grant_ahead", "grant_twice"):
        calls.clear()
        out = tmp_path / f"{name}-controller.aag"
        status, text, err = run(capsys, "aiger", f"aiger/{name}", "--controller", out)
        assert status == 0 and "never raises the error" in text, (text, err)
        # the circuit once; the controller written is read back once to verify it
        assert [c.endswith(f"{name}.aag") for c in calls] == [True, False], calls
