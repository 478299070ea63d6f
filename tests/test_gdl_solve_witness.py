"""A one-role GDL game's value by a depth-first search for a play (``symbolic.gdl.solve_witness``).

- On every one-role file of ``tests/gdl``, the shipped models and random one-role games, the
  search's value is the whole game's (the explicit engine's forced table); when it visited
  every state, it counted the reachable ones; its play, replayed by the independent
  interpreter (``tests/gdl_interp.replay``), is legal and ends in a terminal state of that
  value.
- ``symbolic gdl --search-best`` prints the play and the table (text and JSON); a game of
  several roles, a run with ``--depth``, and a limit reached are answered as such.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings

from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import LimitExceeded, QueryError
from symbolic.gdl.explicit_rules import CompiledRules
from symbolic.gdl.ground import term_text
from symbolic.gdl.load import gdl_model, gdl_program
from symbolic.gdl.solve import forced_values
from symbolic.gdl import solve_witness as witness
from symbolic.gdl.solve_witness import search_best
from symbolic.limits import Limits
from tests.gdl_interp import kif, read_kif, replay
from tests.strategies import static_gdl
from tests.test_gdl_static import COMMON
from tests.test_gdl_stop_at_best import KIFS

HERE = Path(__file__).resolve().parent

#: a counter to 3 where the role may also stop at once (goal 0): the best goal, 100, is
#: three moves deep; with ``(goal a 100)`` out of reach the search visits every state
COUNTER = """
(role a) (init (at 0)) (succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal a stop) (true (at ?x)))
(<= (legal a up) (true (at ?x)) (succ ?x ?y))
(<= (next (at ?y)) (does a up) (true (at ?x)) (succ ?x ?y))
(<= (next (at ?x)) (does a stop) (true (at ?x)))
(<= (next done) (does a stop))
(<= terminal (true done))
(<= (goal a GOAL) (true (at 3)) (true done))
(<= (goal a 10) (true (at 2)) (true done))
(<= (goal a 0) (not (true (at 2))) (not (true (at 3))))
"""


def check_search(text: str, name: str) -> None:
    model = gdl_model(text, name)
    prog = model.game.program
    eng = make_engine(model.game, "explicit")
    whole = forced_values(model, eng)[0]["value"]
    found = search_best(CompiledRules(prog))
    assert found.value == whole, (found, whole)
    if found.complete:
        assert found.states == sum(eng.layers), (found.states, eng.layers)
    else:
        assert found.value == max(prog.goals[prog.roles[0]]), (found, prog.goals)
    if found.value is not None:
        end = replay(read_kif(text), [term_text(m) for m in found.moves])
        assert end["terminal"] and found.value in end["goals"], (end, found)


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_the_search_finds_the_whole_games_value(path):
    check_search(path.read_text(), path.name)


@settings(max_examples=60, **COMMON)
@given(static_gdl())
def test_random_one_role_games(rules):
    assume(sum(1 for head, _ in rules if head[0] == "role") == 1)
    check_search(kif(rules), "random.kif")


def test_a_deep_best_goal_and_an_unreachable_one():
    found = search_best(CompiledRules(gdl_program(COUNTER.replace("GOAL", "100"))))
    assert (found.value, [str(m) for m in found.moves], found.complete) == (
        100,
        ["up", "up", "up", "stop"],
        False,
    ), found
    # 100 is out of reach when it needs the counter at 0 and 3 at once (which the grounding,
    # an over-estimate, keeps): every state visited, 10 the best
    out_of_reach = COUNTER.replace("GOAL", "100").replace(
        "(at 3)) (true done)", "(at 3)) (true (at 0))"
    )
    found = search_best(CompiledRules(gdl_program(out_of_reach)))
    assert (found.value, found.complete, found.states) == (10, True, 8), found
    assert [str(m) for m in found.moves] == ["up", "up", "stop"], found
    check_search(COUNTER.replace("GOAL", "100"), "counter.kif")
    check_search(out_of_reach, "out_of_reach.kif")


def test_several_roles_and_limits_are_refused(monkeypatch):
    nim = HERE.parent / "symbolic" / "models" / "gdl" / "nim1.kif"
    with pytest.raises(QueryError, match="games of one role, this one has 2"):
        search_best(CompiledRules(gdl_program(nim.read_text())))
    rules = CompiledRules(gdl_program((HERE / "gdl" / "slide2x2.kif").read_text()))
    monkeypatch.setattr(witness, "CHECK_EVERY", 1)  # (slide2x2 finds its play in 12 states)
    with pytest.raises(LimitExceeded):
        search_best(rules, Limits(timeout=1e-9))


def test_the_command_prints_the_play(capsys):
    path = str(HERE / "gdl" / "pancakes3.kif")
    assert main(["gdl", path, "--search-best", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # the fewest-moves order tries the terminal successor first: the stack sorted in one flip
    assert (doc["engine"], doc["complete"], doc["searched"], doc["order"]) == (
        "explicit",
        False,
        2,
        "fewest",
    ), doc
    assert doc["play"] == ["(flip 3)"], doc
    assert doc["forced"] == [{"coalition": ["flipper"], "role": "flipper", "value": 100}]
    assert "reachable" not in doc  # not every state was visited
    assert main(["gdl", path, "--search-best"]) == 0
    out = capsys.readouterr().out
    assert "a play of 1 move ends in a terminal state where flipper gets 100" in out, out
    assert "    1. (flip 3)" in out and "{flipper}  flipper    100" in out, out
    assert main(["gdl", path, "--search-best", "--depth", "2"]) == 2
    assert "--search-best searches the game alone: drop --depth" in capsys.readouterr().err
    nim = HERE.parent / "symbolic" / "models" / "gdl" / "nim1.kif"
    assert main(["gdl", str(nim), "--search-best"]) == 2
    assert "games of one role, this one has 2" in capsys.readouterr().err
