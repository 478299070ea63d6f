"""The AIGER engines (issue 35): the circuit's game on BDDs and by enumeration.

On random small circuits the symbolic and explicit engines give the same winning
positions, the same answers to a few ATL formulas and the same realizability, which
equals the plain dd peer's (bench/aiger_dd.py) and an independent enumeration's
(tests/test_aiger_peer.py); on the small corpus files that run in seconds the answer
equals status.tsv and the peer's, and on the smallest the two engines agree.
"""

from __future__ import annotations

import dataclasses
import json
from unittest import mock
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.aiger import parse_aiger, read_aiger, to_aag, to_aig
from symbolic.aiger.build import aiger_model, variable_names
from symbolic.aiger.controller import controller_circuit
from symbolic.aiger.explicit import closed_circuit_safe
from symbolic.aiger.solve import METHODS, realizability
from symbolic.api import same_sets
from symbolic.atl import Evaluator
from symbolic.engines import ENGINES, make_engine
from symbolic.errors import ModelError, QueryError
from symbolic.model import Model, load_model, parse_formula
from symbolic.limits import Limits

from .conftest import ROOT, run
from .strategies import aiger_circuits
from .test_aiger_peer import PEER, explicit_answer
from .test_aiger_reader import CORPUS

EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100"))

#: formulas compared between the engines on random circuits
FORMULAS = [
    "<<controller>> [] not error",
    "<<environment>> <> error",
    "<<controller>> X not error",
    "<<controller, environment>> <> (error and initial)",
    "<<environment>> (not error) U (env_moved and not error)",
]


def _model(circuit) -> Model:
    return Model.of(aiger_model(circuit), "")


def _status() -> dict:
    rows = (CORPUS / "status.tsv").read_text().splitlines()[1:]
    return dict(line.split("\t")[:2] for line in rows)


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_engines_agree_on_random_circuits(c):
    m = _model(c)
    sym = make_engine(m.game, "symbolic", "cudd")
    exp = make_engine(m.game, "explicit")
    rs, re_ = realizability(m, sym, "game"), realizability(m, exp, "game")
    assert same_sets(rs.winning, re_.winning)
    assert (rs.winning_size, rs.iterations) == (re_.winning_size, re_.iterations)
    answer = "REAL" if rs.realizable else "UNREAL"
    assert answer == ("REAL" if re_.realizable else "UNREAL")
    peer = PEER.solve(c)
    assert answer == explicit_answer(c) == peer["answer"]
    _safety_agrees(m, sym, exp, rs, peer["iterations"])
    for text in FORMULAS:
        f = parse_formula(text, m)
        a = Evaluator(sym, m.definitions)(f)
        b = Evaluator(exp, m.definitions)(f)
        assert same_sets(a, b), text


def _safety_agrees(m, sym, exp, game, peer_iterations: int) -> None:
    """The dedicated safety solver of both engines against the game's fixpoint ``game``:
    the same answer; when realizable the same winning positions and size; else no region
    (it stopped early); the iterations equal between the engines and the peer's."""
    ss, se = realizability(m, sym), realizability(m, exp)
    assert ss.method == se.method == "safety"
    assert ss.realizable == se.realizable == game.realizable
    assert ss.iterations == se.iterations == peer_iterations
    assert ss.winning_size == se.winning_size
    if game.realizable:
        assert same_sets(ss.winning, game.winning) and same_sets(se.winning, game.winning)
        assert ss.winning_size == game.winning_size
    else:
        assert ss.winning is None and se.winning is None and ss.winning_size is None


@settings(max_examples=20, deadline=None)
@given(aiger_circuits())
def test_autoref_and_successors_agree(c):
    m = _model(c)
    sym = make_engine(m.game, "symbolic", "autoref")
    exp = make_engine(m.game, "explicit")
    game = realizability(m, exp, "game")
    assert same_sets(realizability(m, sym, "game").winning, game.winning)
    _safety_agrees(m, sym, exp, game, PEER.solve(c)["iterations"])
    for pos in exp.positions().tuples()[:6]:
        assert same_sets(sym.successors(pos), exp.successors(pos))
    everything = sym.positions()
    assert sym.moves_between(everything, everything).count() == sum(
        len(exp.successors(p)) for p in exp.positions().tuples()
    )


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits(), st.data())
def test_latches_without_reset_value(c, data):
    """Latches free at the start (AIGER 1.9: the reset is the latch's own literal): the
    initial set holds every value of them, and both methods of both engines agree."""
    free = [data.draw(st.booleans()) for _ in c.latches]
    c = dataclasses.replace(
        c, reset=tuple(lit if f else r for lit, r, f in zip(c.latches, c.reset, free))
    )
    m = _model(c)
    sym = make_engine(m.game, "symbolic", "cudd")
    exp = make_engine(m.game, "explicit")
    game = realizability(m, exp, "game")
    assert game.realizable == realizability(m, sym, "game").realizable
    ss, se = realizability(m, sym), realizability(m, exp)
    assert ss.realizable == se.realizable == game.realizable
    assert ss.iterations == se.iterations
    if game.realizable:
        assert same_sets(ss.winning, game.winning) and same_sets(se.winning, game.winning)


def test_unknown_method():
    m = _model(parse_aiger("aag 1 1 0 1 0\n2\n2\ni0 u\n"))
    with pytest.raises(QueryError, match="unknown method"):
        realizability(m, make_engine(m.game, "explicit"), "fast")


@pytest.mark.parametrize(
    "text, realizable, size",
    [
        ("aag 1 1 0 1 0\n2\n2\ni0 u\n", False, 0),  # the environment errs
        ("aag 1 1 0 1 0\n2\n2\ni0 controllable_c\n", True, 1),  # the controller avoids it
        ("aag 4 2 1 1 1\n2\n4\n6 2\n8\n8 6 4\ni0 u\ni1 controllable_c\n", True, 2),
        ("aag 3 2 1 1 0\n2\n4\n6 2\n6\ni0 u\ni1 controllable_c\n", False, 0),
        ("aag 3 2 1 1 0\n2\n4\n6 4 1\n6\ni0 u\ni1 controllable_c\n", False, 1),
    ],
)
def test_small_games(text, realizable, size):
    m = _model(parse_aiger(text))
    for kind in ("symbolic", "explicit"):
        r = realizability(m, make_engine(m.game, kind), "game")
        assert (r.realizable, r.winning_size) == (realizable, size), kind
        r = realizability(m, make_engine(m.game, kind))  # stops early when unrealizable
        assert (r.realizable, r.winning_size) == (realizable, size if realizable else None)


def test_names_from_the_symbol_table():
    c = parse_aiger("aag 3 2 1 1 0\n2\n4\n6 2\n6\ni0 req<0>\ni1 controllable_g\nl0 a[1]\n")
    assert variable_names(c) == (["a_1"], ["req_0", "controllable_g"])
    m = _model(c)
    assert [s.label for s in m.space.slots] == ["env_moved", "error", "a_1", "req_0"]
    f = parse_formula("<<controller>> X (a_1 or req_0)", m)  # the names formulas see
    assert not Evaluator(make_engine(m.game, "explicit"), m.definitions)(f).is_empty()


def test_one_output_is_needed():
    with pytest.raises(ModelError, match="exactly one output"):
        aiger_model(parse_aiger("aag 1 1 0 2 0\n2\n2\n3\n"), "two.aag")


def test_shipped_examples():
    late = load_model(ROOT / "models" / "aiger" / "grant.aag")
    ahead = load_model(ROOT / "models" / "aiger" / "grant_ahead.aag")
    assert not realizability(late, make_engine(late.game)).realizable
    assert realizability(ahead, make_engine(ahead.game)).realizable


#: small corpus files, each solved in well under a second by the symbolic engine
SMALL = [
    "mult2.aag",
    "add2n.aag",
    "cnt3y.aag",
    "mvs4n.aag",
    "stay4y.aag",
    "bs8y.aag",
    "demo-v8_2_REAL.aag",
    "demo-v2_2_UNREAL.aag",
    "demo-v11_2_UNREAL.aag",
    "demo-v12_2_REAL.aag",
    "genbuf1c2unrealy.aag",
]


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", SMALL)
def test_corpus_answers(name):
    m = load_model(CORPUS / name)
    r = realizability(m, make_engine(m.game, "symbolic", "cudd"))
    answer = "REAL" if r.realizable else "UNREAL"
    peer = PEER.solve(read_aiger(CORPUS / name))
    assert answer == _status()[name] == peer["answer"]
    assert r.iterations == peer["iterations"]


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", ["mvs2y.aag", "cnt4y.aag", "stay2y.aag", "add4y.aag", "cnt7n.aag"])
def test_corpus_engines_agree(name):
    m = load_model(CORPUS / name)
    sym, exp = make_engine(m.game, "symbolic", "cudd"), make_engine(m.game, "explicit")
    for method in METHODS:
        rs, re_ = realizability(m, sym, method), realizability(m, exp, method)
        assert (rs.winning is None) == (re_.winning is None)
        assert rs.winning is None or same_sets(rs.winning, re_.winning)
        assert (rs.winning_size, rs.iterations) == (re_.winning_size, re_.iterations)
        assert rs.realizable == re_.realizable == (_status()[name] == "REAL")


def test_cli_json(capsys):
    path = ROOT / "models" / "aiger" / "grant.aag"
    status, out, _ = run(capsys, "aiger", path, "--json")
    doc = json.loads(out)
    assert status == 0 and doc["realizable"] is False and doc["winning_region"] is None
    assert doc["backend"] in ("cudd", "oxidd", "autoref") and doc["method"] == "safety"
    status, out, _ = run(capsys, "aiger", path, "--json", "--method", "game")
    doc = json.loads(out)
    assert status == 0 and doc["realizable"] is False and doc["winning_region"] == 1


@pytest.mark.parametrize("name", ["grant.aag", "grant_ahead.aag"])
def test_cli_answer_alone_equals_the_engines(capsys, name):
    """Asked the answer only, ``symbolic aiger`` solves without the engine (the safety
    solver alone); with a query, through the engine: the same document otherwise."""
    path = ROOT / "models" / "aiger" / name
    docs = []
    for extra in ([], ["--query", "initial"]):
        status, out, _ = run(capsys, "aiger", path, "--json", *extra)
        doc = json.loads(out)
        assert status == 0
        docs.append({k: v for k, v in doc.items() if k not in ("seconds", "queries")})
    # the order the solver started from: the safety solver's first way, or the engine's
    orders = [d.pop("initial_order") for d in docs]
    assert orders == ["file", None], orders
    assert docs[0] == docs[1]
    status, text, _ = run(capsys, "aiger", path)
    assert status == 0 and text.startswith(f"{name}: ")


def test_cli_engine_choices():
    from symbolic.bdd.managers import BACKEND_CHOICES
    from symbolic.cli import aiger as cli_aiger
    from symbolic.cli import basics, common

    assert cli_aiger.ENGINE_CHOICES == common.ENGINE_CHOICES
    assert basics.BACKEND_CHOICES == BACKEND_CHOICES


def test_cli_both_and_queries(capsys):
    path = ROOT / "models" / "aiger" / "grant_ahead.aag"
    status, out, _ = run(
        capsys, "aiger", path, "--engine", "both", "--query", "<<environment>> <> error"
    )
    assert status == 0 and "realizable: the controller" in out
    assert "<<environment>> <> error: 4 positions; does not hold at initial" in out
    assert "symbolic and explicit agree" in out


@pytest.mark.parametrize(
    "text, where, what",
    [
        ("aag 1 1 0 1 0\n2\n4\n", ":3:", "out of range"),
        ("aag 1 1 0 2 0\n2\n2\n3\n", ":1:11:", "exactly one output"),
        ("aag 2 1 0 1 1\n2\n4\n4 2\n", ":4:", ""),
    ],
)
def test_cli_bad_circuits_are_located(capsys, tmp_path, text, where, what):
    path = tmp_path / "bad.aag"
    path.write_text(text)
    status, out, err = run(capsys, "aiger", path)
    assert status == 2 and out == ""
    assert f"bad.aag{where}" in err and what in err and "Traceback" not in err


def test_cli_refuses_other_files(capsys):
    status, _, err = run(capsys, "aiger", ROOT / "models" / "nim.game")
    assert status == 2 and "not an AIGER circuit" in err


def _closed_is_safe(c, backend: str = "cudd", guess: bool = False) -> bool:
    """The controller of a realizable circuit (from W, or with ``guess`` from a
    controlled invariant when one proves it), written as .aag, read back and solved by
    both engines, neither guessing: the closed circuit never raises the error."""
    m = _model(c)
    eng = make_engine(m.game, "symbolic", backend)
    closed, added = controller_circuit(eng, realizability(m, eng, guess=guess).keepable)
    assert added >= len(m.game.names.ctrl_index) and not any(closed.controllable)
    back = _model(parse_aiger(to_aag(closed)))
    assert parse_aiger(to_aig(closed)).counts[1:] == closed.counts[1:]
    ok = [realizability(back, make_engine(back.game, k)).realizable for k in ENGINES]
    assert ok[0] == ok[1]
    return ok[0]


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_controllers_of_random_circuits_are_safe(c):
    m = _model(c)
    if realizability(m, make_engine(m.game, "explicit")).realizable:
        assert _closed_is_safe(c)


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_controllers_from_invariants_are_safe(c):
    """Without the try that answers small circuits with W first, the invariant of the
    initial literals proves many random circuits: its controller keeps it."""
    m = _model(c)
    with mock.patch("symbolic.aiger.symbolic.STATIC_FIRST", None):
        r = realizability(m, make_engine(m.game, "symbolic"), guess=True)
        assert r.realizable == realizability(m, make_engine(m.game, "explicit")).realizable
        if r.proof == "invariant":
            assert (r.winning, r.winning_size, r.iterations) == (None, None, 0), r
        if r.realizable:
            assert _closed_is_safe(c, guess=True)


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_simulating_a_closed_circuit_answers_as_the_fixpoint(c):
    """With no controllable input, "safe" by simulating the reachable states equals
    "realizable" by the explicit engine's fixpoint."""
    closed = dataclasses.replace(c, input_names=tuple(f"u{k}" for k in range(len(c.inputs))))
    m = _model(closed)
    expected = realizability(m, make_engine(m.game, "explicit")).realizable
    assert closed_circuit_safe(closed, Limits()) == expected


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("name", ["add4y.aag", "cnt4y.aag", "stay4y.aag", "mvs4n.aag"])
def test_controllers_of_corpus_files_are_safe(name):
    assert _closed_is_safe(read_aiger(CORPUS / name))


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
def test_cli_controller_from_an_invariant(capsys, tmp_path):
    """cnt25n needs 2^24 iterations of the fixpoint: its controller comes from the
    invariant guessed at iteration 64, and the closed circuit is proved safe too."""
    out_file = tmp_path / "ctl.aag"
    path = CORPUS / "cnt25n.aag"
    status, out, _ = run(capsys, "aiger", path, "--controller", out_file, "--json")
    doc = json.loads(out)
    assert status == 0 and (doc["proof"], doc["iterations"]) == ("invariant", 64), doc
    assert doc["controller"]["verified"] and doc["controller"]["verified_by"] == ["symbolic"]
    assert not any(read_aiger(out_file).controllable)


def test_cli_controller(capsys, tmp_path):
    out_file = tmp_path / "ctl.aag"
    path = ROOT / "models" / "aiger" / "grant_ahead.aag"
    status, out, _ = run(capsys, "aiger", path, "--controller", out_file, "--json")
    doc = json.loads(out)["controller"]
    assert status == 0 and doc["verified"] and doc["verified_by"] == ["explicit", "symbolic"]
    assert read_aiger(out_file).input_names == ("request",)
    status, _, err = run(
        capsys, "aiger", ROOT / "models" / "aiger" / "grant.aag", "--controller", out_file
    )
    assert status == 1 and "unrealizable" in err


def test_cli_aiger_imports_only_its_command():
    """``symbolic aiger`` imports the module of its command only: no other command, no
    model-language parser (lark) nor checker, no GDL, no pictures' libraries, not even
    the networkx that dd would load (start-up time); asking the answer only, it loads
    neither the model nor the engines (the safety solver needs a manager only)."""
    code = (
        "import sys; from symbolic.cli import main; "
        f"status = main(['aiger', {str(ROOT / 'models' / 'aiger' / 'grant.aag')!r}]); "
        "print(status, sorted(n for n in sys.modules if n.split('.')[0] in "
        "('lark', 'matplotlib', 'networkx') or n.startswith(('symbolic.gdl', "
        "'symbolic.pictures', 'symbolic.lang.parser', 'symbolic.lang.arena', "
        "'symbolic.lang', 'symbolic.model', 'symbolic.engines', 'symbolic.explicit', "
        "'symbolic.bdd.engine', 'symbolic.aiger.build', 'symbolic.aiger.symbolic', "
        "'symbolic.cli.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    status, _, loaded = out.stdout.splitlines()[-1].partition(" ")
    assert status == "0"  # grant.aag: unrealizable, answered
    assert loaded == str(
        [
            "symbolic.cli.aiger",
            "symbolic.cli.basics",
            "symbolic.cli.output",
            "symbolic.cli.watchdog",
        ]
    ), loaded
