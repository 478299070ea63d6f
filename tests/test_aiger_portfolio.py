"""The safety solver run two ways at once (symbolic.aiger.portfolio): the first answer
is the circuit's (against enumeration and each way alone), a way that fails leaves the
other's answer, failures and limits come back as the project's errors, and the command
line's ``--jobs``.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings

from symbolic.aiger import parse_aiger
from symbolic.aiger import portfolio
from symbolic.aiger.portfolio import first_answer
from symbolic.aiger.safety import WAYS, default_names, solve_safety
from symbolic.cli import main
from symbolic.errors import LimitExceeded, SymbolicError
from symbolic.limits import Limits

from .strategies import aiger_circuits
from .test_aiger_peer import explicit_answer
from .test_aiger_reader import CORPUS
from .test_docs import ROOT

#: forks cost ~30 ms each: fewer examples than the other circuit tests
EXAMPLES = max(1, int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "100")) // 5)

#: the controller copies the input the error compares it with: realizable
EASY = "aag 3 2 0 1 1\n2\n4\n6\n6 2 5\ni0 request\ni1 controllable_grant\n"


@settings(max_examples=EXAMPLES, deadline=None)
@given(aiger_circuits())
def test_the_first_answer_is_the_circuits(c):
    want = explicit_answer(c)
    for way in WAYS:  # each way alone
        r = solve_safety(c, *default_names(c), backend="cudd", order=way)
        assert ("REAL" if r.realizable else "UNREAL") == want, (way, r.iterations)
    got = first_answer(c, 2, backend="cudd", merge=True)
    assert ("REAL" if got.realizable else "UNREAL") == want, got
    assert got.way in WAYS, got


def test_the_winning_region_comes_back_when_nothing_merges():
    c = parse_aiger(EASY)
    alone = solve_safety(c, *default_names(c), backend="cudd")
    got = first_answer(c, 2, backend="cudd")
    assert (got.realizable, got.winning_size, got.backend) == (True, alone.winning_size, "cudd")


def test_a_way_that_fails_leaves_the_other_answer(monkeypatch):
    real = portfolio.solve_safety

    def file_way_breaks(c, *names, order, **settings):
        if order == "file":
            raise SymbolicError("this way broke")
        return real(c, *names, order=order, **settings)

    monkeypatch.setattr(portfolio, "solve_safety", file_way_breaks)  # the fork inherits it
    got = first_answer(parse_aiger(EASY), 2, backend="cudd")
    assert (got.realizable, got.way) == (True, "dfs"), got


def test_when_every_way_fails_the_failure_is_raised(monkeypatch):
    def dies(*args, **settings):
        os._exit(7)

    monkeypatch.setattr(portfolio, "solve_safety", dies)
    with pytest.raises(SymbolicError, match="exit status 7"):
        first_answer(parse_aiger(EASY), 2, backend="cudd")


def test_a_limit_in_every_way_is_a_limit(monkeypatch):
    def stopped(*args, **settings):
        raise LimitExceeded("time limit of 1 s reached while testing", "timeout", "testing")

    monkeypatch.setattr(portfolio, "solve_safety", stopped)
    with pytest.raises(LimitExceeded) as info:
        first_answer(parse_aiger(EASY), 2, backend="cudd")
    assert (info.value.limit, info.value.stage) == ("timeout", "testing")


def test_the_deadline_holds_for_the_whole(monkeypatch):
    import time

    def slow(*args, **settings):
        time.sleep(30)

    monkeypatch.setattr(portfolio, "solve_safety", slow)
    started = time.monotonic()
    with pytest.raises(LimitExceeded, match="2 ways at once"):
        first_answer(parse_aiger(EASY), 2, backend="cudd", limits=Limits(timeout=0.5))
    assert time.monotonic() - started < 10


def test_the_command_line_runs_two_ways(capsys, tmp_path):
    path = tmp_path / "easy.aag"
    path.write_text(EASY)
    assert main(["aiger", str(path), "--jobs", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["realizable"], doc["jobs"], doc["initial_order"] in WAYS) == (True, 2, True)
    assert main(["aiger", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["jobs"], doc["initial_order"]) == (1, "file"), doc


def test_two_ways_answer_alone(capsys, tmp_path):
    path = tmp_path / "easy.aag"
    path.write_text(EASY)
    status = main(["aiger", str(path), "--jobs", "2", "--controller", str(tmp_path / "c.aag")])
    err = capsys.readouterr().err
    assert status == 2 and "answer alone" in err, (status, err)
    with pytest.raises(SystemExit):
        main(["aiger", str(path), "--jobs", "3"])
    assert "expected an integer <= 2" in capsys.readouterr().err


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the SYNTCOMP corpus is not beside the checkout")
@pytest.mark.parametrize(("name", "status"), [("amba3f8unrealy.aag", False), ("bs64y.aag", True)])
def test_corpus_files_two_ways(capsys, name, status):
    assert main(["aiger", str(CORPUS / name), "--jobs", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["realizable"] is status, doc


def test_the_grant_example_two_ways(capsys):
    path = str(ROOT / "models" / "aiger" / "grant_twice.aag")
    assert main(["aiger", path, "--jobs", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["realizable"], doc["merged_latches"]) == (True, 1), doc
