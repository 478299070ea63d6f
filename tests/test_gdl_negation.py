"""Negation in GDL rules (symbolic.gdl.strata, issue 36): a state-dependent relation may
read its own negation when no ground atom does (majorities:
``(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))``), checked by both engines against the
plain interpreter (:mod:`tests.gdl_interp`, its alternating fixpoint); a cycle through
negation, of relations or of ground atoms, is refused at its rule, the cycle named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symbolic.cli import main
from symbolic.errors import ModelError
from symbolic.gdl.load import gdl_model
from tests.gdl_interp import NotStratified, explore, read_kif

HERE = Path(__file__).resolve().parent / "gdl"


def test_own_negation_equals_the_interpreter(capsys):
    path = HERE / "own_negation.kif"
    assert main(["gdl", str(path), "--engine", "both", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    res = explore(read_kif(path.read_text()))
    got = {(tuple(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]}
    assert (doc["reachable"], doc["dead_ends"], got) == (len(res.states), 0, res.forced)
    # a claims two of the three cells whatever b does; b never has two
    assert got[(("a",), "a")] == 100 and got[(("a", "b"), "b")] == 0, got
    # at the end each role has one goal value: 0 exactly when not 100
    ends = [goals for t, _, goals, _ in res.states.values() if t]
    assert ends and all(len(g) == 1 for goals in ends for g in goals.values()), ends


#: p reads (not q) and q reads (not p): ground atoms on a cycle through negation
DYNAMIC_CYCLE = """(role a)
(init s)
(<= (legal a go) (true s))
(<= (next s) (does a go))
(<= terminal (true t))
(<= (goal a 100) p)
(<= p (true s) (not q))
(<= q (not p))
"""


def test_a_ground_cycle_through_negation_is_refused_at_its_rule():
    with pytest.raises(ModelError) as err:
        gdl_model(DYNAMIC_CYCLE, "cycle.kif")
    e = err.value
    assert (e.span.file, e.span.line) == ("cycle.kif", 7), str(e)
    assert "p depends on its own negation: p → not q → not p" in e.message, e.message
    assert "not stratified" in e.message
    with pytest.raises(NotStratified):  # the interpreter finds no model either
        explore(read_kif(DYNAMIC_CYCLE))


@pytest.mark.parametrize(
    "text, line, cycle",
    [
        ("(role a)\n(<= (p 1) (not (p 1)))", 2, "'p' → not 'p'"),
        (
            "(role a)\n(r 1)\n(<= (q ?x) (p ?x))\n(<= (p ?x) (r ?x) (not (q ?x)))",
            4,
            "'p' → not 'q' → 'p'",
        ),
    ],
)
def test_a_static_cycle_through_negation_names_its_relations(text, line, cycle):
    with pytest.raises(ModelError) as err:
        gdl_model(text, "bad.kif")
    e = err.value
    assert e.span.line == line and cycle in e.message and "not stratified" in e.message, e
