"""Recursion through the state (symbolic.gdl.recursion, issue 36: atariGoVariant's
``hasliberty``, cubicup's ``nextplayer_with_cubes``): ground atoms reading each other,
unrolled, checked by both engines against the plain interpreter (:mod:`tests.gdl_interp`,
bottom-up, no unrolling), state by state for every goal."""

from __future__ import annotations

import json
from pathlib import Path

from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.gdl.load import gdl_program
from symbolic.model import load_model
from tests.gdl_interp import explore, read_kif

HERE = Path(__file__).resolve().parent / "gdl"
FILE = HERE / "recursive_state.kif"


def test_both_engines_equal_the_interpreter(capsys):
    assert main(["gdl", str(FILE), "--engine", "both", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    res = explore(read_kif(FILE.read_text()))
    got = {(tuple(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]}
    assert (doc["reachable"], doc["dead_ends"], got) == (len(res.states), 0, res.forced)
    assert got == {(("a",), "a"): 100}  # stones on 2 and 3 reach cell 3


def test_every_goal_holds_where_the_interpreter_says():
    res = explore(read_kif(FILE.read_text()))
    m = load_model(FILE)
    fluents = m.game.program.fluents
    for kind in ("symbolic", "explicit"):
        eng = make_engine(m.game, kind)
        for v in (10, 50, 100):
            got = {
                frozenset(f for f, bit in zip(fluents, p) if bit)
                for p in eng.atom_set(("goal", ("a", str(v)))).tuples()
            }
            want = {frozenset(s) for s, (_, _, goals, _) in res.states.items() if v in goals["a"]}
            # the interpreter's fluents are its own tuples: compare them as KIF-like tuples
            want = {frozenset(f if isinstance(f, tuple) else (f,) for f in s) for s in want}
            assert got == want, (kind, v, got, want)
        assert any(res.states[s][2]["a"] == {10} for s in res.states)  # reach 3 not always


def test_the_unrolled_atoms_are_copies_by_round():
    prog = gdl_program(FILE.read_text(), "recursive_state.kif")
    rounds = sorted({a[0] for a in prog.rules if a[0].startswith("reach @")})
    # (reach 1) ... (reach 4) read each other (reach 1 also through adj 2 1): 4 rounds,
    # 3 copies
    assert rounds == ["reach @1", "reach @2", "reach @3"], rounds
