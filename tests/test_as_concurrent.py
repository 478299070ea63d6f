"""Turn-based games read as concurrent ones (symbolic.analysis.concurrent.as_concurrent).

On every shipped turn-based model at small parameters, every query has the same set on
the game and on its concurrent reading, on both concurrent engines, under both
dead-end conventions; and pre(J, Z) = pre∃(J, Z) ∪ pre∀(J, Z) for every coalition J
and a few sets Z. ``turn(J)`` has no meaning on a concurrent game: the queries that use
it read it on the converted game as the state proposition "the turn expression is in J",
evaluated by the concurrent engine itself.
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

from symbolic import atl
from symbolic.analysis.concurrent import as_concurrent
from symbolic.api import DeadEnds, difference_witness
from symbolic.bdd.concurrent import SymbolicConcurrentGame
from symbolic.explicit import ExplicitGame
from symbolic.explicit.concurrent import ExplicitConcurrentGame
from symbolic.ir import Const, disj
from symbolic.model import load_model

from .conftest import MODELS


#: small parameters (as_concurrent lists positions)
SMALL: dict[str, dict | None] = {
    "subtraction.game": {"K": 5},
    "nim.game": {"n": 2, "K": 3},
    "chocolate.game": {"m": 3, "n": 2, "i": 0, "j": 1},
    "hackendot.game": {"word": "(())(()())"},
    "chomp.game": {"R": 2, "C": 3},
    "kayles.game": {"n": 5},
    "dawson.game": {"n": 6},
    "grundy_game.game": {"N": 8},
    "subtraction_set.game": {"n": 1, "K": 4},
    "connect4.game": {"w": 2, "h": 4, "a": 2},
    "connect4-compact.game": {"w": 2, "h": 4, "a": 2},
    "tictactoe.game": None,
    "ens2005.game": None,
    "td_example.arena.json": None,
}


def model_files() -> list[Path]:
    """The turn-based models (a concurrent one declares ``concurrent`` on a line)."""
    return sorted(
        p
        for p in MODELS.glob("*")
        if p.name.endswith(".game")
        and not re.search(r"^concurrent\b", p.read_text(encoding="utf-8"), re.M)
        or p.name.endswith(".arena.json")
    )


#: over a minute each (as_concurrent's guards list thousands of positions): make test-slow
SLOW = {"tictactoe.game", "ens2005.game"}


def names():
    return [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else []) for n in sorted(SMALL)]


def test_every_model_is_listed():
    assert sorted(p.name for p in model_files()) == sorted(SMALL)


def with_turn_as_prop(engine, game):
    """``engine`` whose turn(J) is the proposition t(c) ∈ J (a test double for the
    turn-based formulas; the set comes from the concurrent engine's own from_expr)."""
    engine.concurrent = False  # the evaluator refuses turn(J) on concurrent engines
    engine.turn_set = lambda J: engine.from_expr(
        disj(game.turn.eq(Const(p)) for p in game.coalition(J))
    )
    return engine


def engines(model):
    conc = as_concurrent(model.game)
    return ExplicitGame(model.game), [
        with_turn_as_prop(ExplicitConcurrentGame(conc), model.game),
        with_turn_as_prop(SymbolicConcurrentGame(conc, "cudd"), model.game),
    ]


def coalitions(players):
    return [c for k in range(len(players) + 1) for c in combinations(players, k)]


@pytest.mark.parametrize("name", names())
def test_queries_agree_on_the_concurrent_reading(name):
    model = load_model(MODELS / name, SMALL[name])
    ref, others = engines(model)
    for dead in DeadEnds:
        ev_ref = atl.Evaluator(ref, model.definitions, dead_ends=dead)
        evs = [atl.Evaluator(e, model.definitions, dead_ends=dead) for e in others]
        for q in model.queries:
            want = ev_ref(q.formula)
            for ev in evs:
                got = ev(q.formula)
                w = difference_witness(want, got)
                assert w is None, (name, q.text, dead, ev.engine, w, w in want)


@pytest.mark.parametrize("name", names())
def test_pre_is_pre_exists_or_pre_forall(name):
    model = load_model(MODELS / name, SMALL[name])
    ref, others = engines(model)
    targets = [ref.empty(), ref.positions(), ref.deadlocks()] + [
        atl.Evaluator(ref, model.definitions)(q.formula) for q in model.queries[:3]
    ]
    for J in coalitions(model.game.players):
        for Z in targets:
            for dead in DeadEnds:
                want = ref.pre(J, Z, dead_ends=dead)
                for e in others:
                    got = e.pre(J, e.convert(Z), dead_ends=dead)
                    assert difference_witness(want, got) is None, (name, J, dead, e)
