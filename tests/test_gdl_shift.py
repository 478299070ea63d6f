"""A joint move that only renames the state (:meth:`symbolic.gdl.symbolic_rules.RuleBdds.shift`:
every fluent it changes takes a constant or the value of another changed fluent, one each)
has its image computed by renaming, with no relation built (pancakes6's flips permute 720
order atoms: and-ing the 720 equivalences did not end in 300 s).

- ``tests/gdl/pancakes3.kif`` (three pancakes, a counter): both flips are renamings; the
  answer is the plain interpreter's (``tests/gdl_interp.py``): 8 states, the flipper
  forces 100.
- On the files of ``tests/gdl/`` and on random games, the layers and the answers are the
  same with the renaming turned off (every image by the relation), and the interpreter's.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings

from symbolic.engines import make_engine
from symbolic.gdl.load import gdl_model
from symbolic.gdl.symbolic_rules import RuleBdds
from tests.gdl_interp import explore, read_kif
from tests.strategies import static_gdl
from tests.test_gdl_static import COMMON, _engine_view, check_against_interpreter

HERE = Path(__file__).resolve().parent
KIFS = sorted((HERE / "gdl").glob("*.kif"))
PANCAKES = HERE / "gdl" / "pancakes3.kif"


def _model(path: Path):
    return gdl_model(path.read_text(), path.name)


def no_shift():
    """Every image by the relation (the path before the renaming)."""
    return mock.patch.object(RuleBdds, "shift", lambda self, role, move, forced: None)


def test_pancake_flips_are_renamings():
    model = _model(PANCAKES)
    eng = make_engine(model.game, "symbolic")
    moves = model.game.program.moves["flipper"]
    shifts = [eng.rules.shift("flipper", mv, {}) for mv in moves]
    assert len(shifts) == 2 and all(s is not None for s in shifts)
    for s in shifts:
        assert s is not None
        lost, moved, fixed, back = s
        assert len(moved) == 6 + 3  # the six orders, counters 0..2 into 1..3
        assert len(lost) == 1  # counter 3: no fluent reads it
        assert not eng.manager.is_true(fixed)  # counter 0 becomes false


def test_pancakes_answer_is_the_interpreters():
    res = explore(read_kif(PANCAKES.read_text()))
    assert len(res.states) == 8
    assert res.forced == {(("flipper",), "flipper"): 100}
    model = _model(PANCAKES)
    want = _engine_view(model, "symbolic")
    assert want["reachable"] == 8
    assert want["forced"] == {(("flipper",), "flipper"): 100}
    assert _engine_view(model, "explicit") == want
    check_against_interpreter(read_kif(PANCAKES.read_text()))


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_layers_and_answers_without_the_renaming_are_the_same(path):
    model = _model(path)
    eng = make_engine(model.game, "symbolic")
    want = _engine_view(model, "symbolic")
    with no_shift():
        plain = make_engine(model.game, "symbolic")
        assert plain.layers == eng.layers
        assert _engine_view(model, "symbolic") == want


@settings(max_examples=40, **COMMON)
@given(static_gdl())
def test_random_games_with_and_without_the_renaming(rules):
    """The random games' step counter and ``control`` fluent make many moves renamings."""
    check_against_interpreter(rules)
    with no_shift():
        check_against_interpreter(rules)
