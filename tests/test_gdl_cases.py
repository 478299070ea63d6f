"""A joint move imaged as a few renamings (:meth:`symbolic.gdl.symbolic_rules.RuleBdds.cases`):
its sources split by a few bits into parts where each changed fluent takes a constant or one
fluent's value, checked on the part itself (eightPuzzle's frame reads whether some blank lies
elsewhere: no move is a renaming over every state, each is one on the states where the blank
is at one neighbour).

- ``tests/gdl/slide2x2.kif`` (a 2 × 2 sliding puzzle written as eightPuzzle): every move
  goes through the cases, one part per neighbour holding the blank; the answer is the plain
  interpreter's (``tests/gdl_interp.py``): 38 states, the player forces 100.
- On the files of ``tests/gdl/`` and on random games, the layers and the answers are the
  same with the cases turned off (every image that is not a renaming by the relation),
  and with the renaming turned off too (every image through the cases where they apply).
- The concurrent engine splits a layer by the roles' action bits too (a joint move per
  part): read as concurrent with T built from the sources, its layers equal the
  relation's and its answers the interpreter's.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings

from symbolic.engines import make_engine
from symbolic.gdl import symbolic_concurrent
from symbolic.gdl.symbolic_concurrent import GdlSymbolicConcurrentGame
from symbolic.gdl.symbolic_rules import Negated, RuleBdds
from symbolic.gdl.within import Within
from tests.gdl_interp import explore, read_kif
from tests.strategies import static_gdl
from tests.test_gdl_shift import _model, no_shift
from tests.test_gdl_static import COMMON, _engine_view, check_against_interpreter

HERE = Path(__file__).resolve().parent
KIFS = sorted((HERE / "gdl").glob("*.kif"))
SLIDE = HERE / "gdl" / "slide2x2.kif"


def no_cases():
    """Every image that is not a renaming by the relation (the path before the cases)."""
    return mock.patch.object(RuleBdds, "cases", lambda self, *args, **kwargs: None)


def no_split_cases():
    """The concurrent engine's images by the relation too."""
    return mock.patch.object(RuleBdds, "split_cases", lambda self, *args, **kwargs: None)


def test_each_slide_splits_by_the_blank_s_neighbour():
    model = _model(SLIDE)
    eng = make_engine(model.game, "symbolic")
    m, rules = eng.manager, eng.rules
    moves = model.game.program.moves["player"]
    for mv in moves:
        assert rules.shift("player", mv, {}) is None  # no renaming over every state
    # (move 1 1) from every reachable state where it is legal: the blank at (1 2) or (2 1)
    src = m.and_(eng.positions().node, rules.legal("player", ("move", "1", "1")))
    parts = rules.cases("player", ("move", "1", "1"), {}, src)
    assert parts is not None and len(parts) == 2, parts
    # the bits fixed on a set holding src (the step counter's, on one layer) read there
    for layer in eng.reach.layers:
        sub = m.and_(src, layer.node)
        if not m.is_false(sub):
            inside = Within(rules, layer.node)
            assert rules.cases("player", ("move", "1", "1"), {}, sub, scope=inside) == rules.cases(
                "player", ("move", "1", "1"), {}, sub
            )
    assert m.disj(p for p, _ in parts) == src
    assert m.is_false(m.and_(parts[0][0], parts[1][0]))
    for _, simple in parts:
        assert not any(isinstance(v, Negated) for v in simple.values()), simple
        assert [f for f, v in simple.items() if v is True] == [("cell", "1", "1", "b")], simple
        moved = {f: g for f, g in simple.items() if g is not True and g is not False}
        steps = {f: g for f, g in moved.items() if f[0] == "step"}
        # the counter shifts; the bits the part fixes (its parity) are constants instead
        assert steps and all(g == ("step", str(int(f[1]) - 1)) for f, g in steps.items()), steps
        moved = {f: g for f, g in moved.items() if f[0] == "cell"}
        # the tile of (1 1) slides to where the blank was: 3 tiles, 3 bits, one neighbour
        assert len(moved) == 3 and all(g[:3] == ("cell", "1", "1") for g in moved.values())
        assert len({f[:3] for f in moved}) == 1 and next(iter(moved))[:3] != ("cell", "1", "1")


def test_the_slide_answer_is_the_interpreters():
    res = explore(read_kif(SLIDE.read_text()))
    assert len(res.states) == 38
    assert res.forced == {(("player",), "player"): 100}
    model = _model(SLIDE)
    want = _engine_view(model, "symbolic")
    assert want["reachable"] == 38
    assert want["forced"] == {(("player",), "player"): 100}
    with no_cases():
        assert _engine_view(model, "symbolic") == want
    assert _engine_view(model, "explicit") == want
    check_against_interpreter(read_kif(SLIDE.read_text()))


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_layers_and_answers_without_the_cases_are_the_same(path):
    model = _model(path)
    eng = make_engine(model.game, "symbolic")
    want = _engine_view(model, "symbolic")
    for patch in (no_cases, no_shift):
        with patch():
            plain = make_engine(model.game, "symbolic")
            assert plain.layers == eng.layers, patch.__name__
            assert _engine_view(model, "symbolic") == want, patch.__name__


@settings(max_examples=40, **COMMON)
@given(static_gdl())
def test_random_games_through_the_cases_and_without(rules):
    """With the renaming off, most of the random games' moves go through the cases."""
    with no_shift():
        check_against_interpreter(rules)
    with no_cases():
        check_against_interpreter(rules)


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_concurrent_images_through_the_cases_are_the_relation_s(path):
    """Read as concurrent with T built from the sources (FULL_T_MAX = 0), a layer's image
    split into joint moves that rename the state equals the relation's, layer by layer."""
    model = _model(path)
    with mock.patch.object(symbolic_concurrent, "FULL_T_MAX", 0):
        cases = GdlSymbolicConcurrentGame(model.game)
        with no_split_cases():
            plain = GdlSymbolicConcurrentGame(model.game)
    assert cases._full is None and plain._full is None
    assert cases.layers == plain.layers
    assert cases.positions().tuples() == plain.positions().tuples()


@settings(max_examples=30, **COMMON)
@given(static_gdl())
def test_random_games_read_as_concurrent_through_the_cases(rules):
    with mock.patch.object(symbolic_concurrent, "FULL_T_MAX", 0):
        check_against_interpreter(rules, concurrent=True)


def test_rock_paper_scissors_splits_into_its_nine_joint_moves():
    model = _model(HERE / "gdl" / "rps_static.kif")
    seen = []
    split = RuleBdds.split_cases

    def spy(self, *args, **kwargs):
        out = split(self, *args, **kwargs)
        seen.append(None if out is None else len(out))
        return out

    with mock.patch.object(symbolic_concurrent, "FULL_T_MAX", 0):
        with mock.patch.object(RuleBdds, "split_cases", spy):
            GdlSymbolicConcurrentGame(model.game)
    assert seen[0] == 9, seen  # 3 × 3 joint moves, each a part
