"""The TD's tic-tac-toe answers (symbolic.seeds.tictactoe, ``symbolic tictactoe``): both
engines agree, the published counts hold, and the attractors, the winner and the
strategies are checked against a brute force over boards written here."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from symbolic.api import reachable
from symbolic.seeds import tictactoe
from symbolic.cli import main
from symbolic.analysis.strategy import verify

from .test_models import ttt_board, ttt_outcome, ttt_reachable


@pytest.fixture(scope="module")
def results():
    return {k: tictactoe.answers(k, with_strategies=True) for k in ("symbolic", "explicit")}


def public(a):
    return {k: v for k, v in a.items() if not k.startswith("_")}


def test_keys_and_engines_agree(results):
    sym, exp = (public(results[k]) for k in ("symbolic", "explicit"))
    assert list(sym) == list(tictactoe.KEYS)
    assert sym == exp, (sym, exp)


def test_published_figures(results):
    a = results["symbolic"]
    assert a["boards"] == 3**9 == 19683  # Q18
    assert a["legal"] == 5478  # Q22
    assert a["reachable"] == 5478  # Q27: the same boards (test_models checks it)
    assert a["winner"] is None  # Q29: a draw with best play


@lru_cache(maxsize=None)
def _board_index():
    return ttt_reachable()


def test_attractors_are_the_forced_wins_by_brute_force(results):
    reached = _board_index()
    for kind in ("symbolic", "explicit"):
        a = results[kind]
        e = a["_engine"]
        for p in (1, 2):
            s = a["_strategies"][f"win{p}"]
            region = {ttt_board(e.space.as_dict(t)) for t in s.region.tuples()} & reached
            assert region == {b for b in reached if ttt_outcome(b) == p}, (kind, p)
            assert a[f"attractor{p}"] == len(region)


def test_strategy_tables_win_within_the_rank(results):
    for kind in ("symbolic", "explicit"):
        a = results[kind]
        e = a["_engine"]
        reached = reachable(e, e.singleton((0,) * 9)).result
        for p in (1, 2):
            s = a["_strategies"][f"win{p}"]
            table = s.table(reached)
            assert len(table) == a[f"strategy{p}"]
            # Q12's table: one move per board of p in its attractor, outside its wins
            mine = e.turn_set({p}) & reached & s.region
            assert set(table) == set((mine - s.objective.goal).tuples())
            # checked by the explicit search on the explicit engine's boards
            ref = results["explicit"]["_engine"]
            start = ref.convert(s.region & reached)
            refs = results["explicit"]["_strategies"][f"win{p}"]
            v = verify(ref, refs.objective, table, start)
            assert v.ok, (kind, p, v)
            assert all(n <= refs.rank(c) for c, n in v.longest.items())


def test_keep_the_draw(results):
    for kind in ("symbolic", "explicit"):
        a = results[kind]
        e = a["_engine"]
        empty = e.singleton((0,) * 9)
        for p in (1, 2):
            s = a["_strategies"][f"draw{p}"]
            assert (0,) * 9 in s.region
            reached = s.outcome(empty)
            table = s.table(reached)
            assert len(table) == a[f"draw{p}"] > 0
            v = verify(e, s.objective, table, empty)
            assert v.ok, (kind, p, v)
            # no board met when p follows it has a line of the opponent
            boards = {ttt_board(e.space.as_dict(t)) for t in reached.tuples()}
            assert all(ttt_outcome(b) in (0, p) for b in boards), (kind, p)


def test_cli_json(capsys):
    assert main(["tictactoe", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {
        "boards",
        "legal",
        "reachable",
        "attractor1",
        "attractor2",
        "winner",
        "strategy1",
        "strategy2",
    }
    assert doc["winner"] is None and doc["boards"] == 19683


def test_cli_text(capsys):
    assert main(["tictactoe"]) == 0
    out = capsys.readouterr().out
    assert "Q29 winner from the empty board: nobody" in out
    assert "Q18 boards (each cell empty, O or X): 19683" in out
