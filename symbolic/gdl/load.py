"""GDL text → :class:`~symbolic.model.Model`: read, ground, translate, check.

>>> from symbolic.model import Model
>>> m = Model.of(*gdl_model("(role a) (init (s 0)) (<= (legal a go) (true (s 0))) "
...               "(<= (next (s 1)) (does a go)) (<= terminal (true (s 1))) "
...               "(<= (goal a 100) (true (s 1)))", "tiny.kif"))
>>> m.players, [s.label for s in m.space.slots], [mv.name for mv in m.game.moves]
((1,), ['s_0', 's_1'], ['a_go'])
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..lang.decls import CheckedModel, check_model
from ..lang.parser import parse_model_text
from .game import GdlGame
from .ground import GroundProgram, ground
from .kif import parse_kif
from .rules import read_rules
from .translate import translate

__all__ = ["gdl_model", "gdl_program"]


def gdl_program(text: str, filename: str = "<string>") -> GroundProgram:
    """The ground program of GDL ``text`` (errors name ``filename``)."""
    return ground(read_rules(parse_kif(text, filename)))


def gdl_model(text: str, filename: str = "<string>") -> tuple[CheckedModel, str]:
    """The checked model of GDL ``text`` and its model text (for
    :meth:`symbolic.model.Model.of`): its game is a :class:`~.game.GdlGame`."""
    prog = gdl_program(text, filename)
    name = Path(filename).name
    desc = (f"GDL game description {name}, translated: roles "
            + ", ".join(f"{r} = player {i}" for i, r in enumerate(prog.roles, 1))
            + f"; {len(prog.fluents)} fluents as bool variables")
    tr = translate(prog, name, desc)
    where = f"{filename} (translated)"
    checked = check_model(parse_model_text(tr.text, where), where, None)
    game = GdlGame(**{f.name: getattr(checked.game, f.name)
                      for f in dataclasses.fields(checked.game)},
                   program=prog, translation=tr)
    return dataclasses.replace(checked, game=game, source=filename), tr.text
