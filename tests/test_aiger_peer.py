"""bench/aiger_dd.py, the plain dd peer of issue 35, against an explicit solver.

The explicit solver enumerates every latch valuation and every input choice
(simulating the circuit with symbolic.aiger.simulate) and computes the same
greatest fixpoint W = νZ. {x | ∀u ∃c : ¬err ∧ next ∈ Z} by plain iteration; on
random small circuits both must give the same answer. A few corpus files are
checked against status.tsv where the shared corpus is present.
"""

from __future__ import annotations

import importlib.util
import itertools
import os

import pytest
from hypothesis import given, settings

from symbolic.aiger import Circuit, literal_value, parse_aiger, read_aiger, simulate

from .conftest import ROOT
from .strategies import aiger_circuits
from .test_aiger_reader import CORPUS

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "150"))


def _peer():
    spec = importlib.util.spec_from_file_location("aiger_dd", ROOT / "bench" / "aiger_dd.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


PEER = _peer()


def explicit_answer(c: Circuit) -> str:
    """REAL or UNREAL by enumeration (latches start at their reset values)."""
    ctrl = [lit for lit, k in zip(c.inputs, c.controllable) if k]
    env = [lit for lit, k in zip(c.inputs, c.controllable) if not k]
    states = list(itertools.product((0, 1), repeat=len(c.latches)))
    moves = {}
    for s in states:
        for u in itertools.product((0, 1), repeat=len(env)):
            options = []
            for k in itertools.product((0, 1), repeat=len(ctrl)):
                value = simulate(
                    c, dict(zip(c.latches, s)), {**dict(zip(env, u)), **dict(zip(ctrl, k))}
                )
                if not literal_value(value, c.error):
                    options.append(tuple(literal_value(value, n) for n in c.next_state))
            moves[s, u] = options
    z = set(states)
    while True:
        new = {
            s
            for s in z
            if all(
                any(t in z for t in moves[s, u]) for u in itertools.product((0, 1), repeat=len(env))
            )
        }
        if new == z:
            break
        z = new
    return "REAL" if tuple(c.reset) in z else "UNREAL"


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_peer_equals_explicit_solver(c):
    assert PEER.solve(c)["answer"] == explicit_answer(c)


@pytest.mark.parametrize(
    "text, answer",
    [
        ("aag 1 1 0 1 0\n2\n2\ni0 u\n", "UNREAL"),  # the environment errs
        ("aag 1 1 0 1 0\n2\n2\ni0 controllable_c\n", "REAL"),  # the controller avoids it
        # a latch set by the environment's input, the error when it is 1 and c is 1: REAL
        ("aag 4 2 1 1 1\n2\n4\n6 2\n8\n8 6 4\ni0 u\ni1 controllable_c\n", "REAL"),
        # the same with the error when the latch is 1 whatever c: UNREAL in two steps
        ("aag 3 2 1 1 0\n2\n4\n6 2\n6\ni0 u\ni1 controllable_c\n", "UNREAL"),
        # the same latch starting at 1: the error at once
        ("aag 3 2 1 1 0\n2\n4\n6 4 1\n6\ni0 u\ni1 controllable_c\n", "UNREAL"),
    ],
)
def test_peer_small_games(text, answer):
    c = parse_aiger(text)
    assert PEER.solve(c)["answer"] == answer == explicit_answer(c)


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
def test_peer_on_small_corpus_files():
    status = dict(
        line.split("\t")[:2] for line in (CORPUS / "status.tsv").read_text().splitlines()[1:]
    )
    for name in ["add2n.aag", "cnt5y.aag", "demo-v11_2_UNREAL.aag", "demo-v12_2_REAL.aag"]:
        assert PEER.solve(read_aiger(CORPUS / name))["answer"] == status[name], name
