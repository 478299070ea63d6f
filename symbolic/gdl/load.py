"""GDL text → checked model: read (:mod:`.kif`), rules (:mod:`.rules`), ground
(:mod:`.ground`), build the IR (:mod:`.build`). The text is read once, here; below
this point everything is objects.

>>> from symbolic.model import Model
>>> m = Model.of(gdl_model("(role a) (init (s 0)) (<= (legal a go) (true (s 0))) "
...              "(<= (next (s 1)) (does a go)) (<= terminal (true (s 1))) "
...              "(<= (goal a 100) (true (s 1)))", "tiny.kif"), "")
>>> m.players, [s.label for s in m.space.slots], [mv.name for mv in m.game.moves]
((1,), ['s_0', 's_1'], ['a_go'])
"""

from __future__ import annotations

from ..lang.checked import CheckedModel
from ..lang.source import paused_gc
from .build import build_model
from .ground import GroundProgram, ground
from .kif import parse_kif
from .rules import read_rules

__all__ = ["gdl_model", "gdl_program"]


def gdl_program(text: str, filename: str = "<string>") -> GroundProgram:
    """The ground program of GDL ``text`` (errors name ``filename``)."""
    with paused_gc():
        return ground(read_rules(parse_kif(text, filename)), filename)


def gdl_model(text: str, filename: str = "<string>") -> CheckedModel:
    """The checked model of GDL ``text``: its game is a :class:`~.game.GdlGame`."""
    program = gdl_program(text, filename)
    with paused_gc():
        return build_model(program, filename)
