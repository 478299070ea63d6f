"""The TD's Ω₃ (draw states) in arena files: ``objectifs3`` / ``objective3`` gives
a set ``Obj3``; without it there is none."""

from __future__ import annotations

import json

import pytest

from symbolic import atl
from symbolic.errors import UnknownName
from symbolic.model import load_model

from .conftest import build_engine

ARENA = {
    "etats": [0, 1, 2, 3],
    "init": 0,
    "controles": {"0": 1, "1": 2, "2": 1, "3": 2},
    "transitions": {"0": [1, 3], "1": [2], "2": [2], "3": [3]},
    "objectifs1": [2],
    "objectifs2": [],
}


@pytest.mark.parametrize("key", ["objectifs3", "objective3"])
def test_draw_states_become_Obj3(tmp_path, key, engine_kind):
    p = tmp_path / "draw.arena.json"
    p.write_text(json.dumps({**ARENA, key: [3]}))
    m = load_model(p)
    e = build_engine(m.game, engine_kind)
    assert atl.evaluate(e, m.formula("Obj3"), m.definitions).tuples() == [(3,)]
    # player 1 moves at 0: to 3 (the draw) or to 1, from where 2 must move to 2 (1 wins)
    assert (0,) in atl.evaluate(e, m.formula("<<1>> <> Obj3"), m.definitions)
    assert (0,) in atl.evaluate(e, m.formula("<<1>> <> Obj1"), m.definitions)


def test_no_draw_key_no_Obj3(tmp_path):
    p = tmp_path / "nodraw.arena.json"
    p.write_text(json.dumps(ARENA))
    m = load_model(p)
    with pytest.raises(UnknownName):
        m.formula("Obj3")
