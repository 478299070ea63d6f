"""The IR game of a GDL description, keeping its ground program and translation."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import Game
from .ground import GroundProgram
from .translate import Translation

__all__ = ["GdlGame"]


@dataclass(frozen=True)
class GdlGame(Game):
    """An :class:`~symbolic.ir.Game` translated from GDL. ``program`` is the ground
    program (read by both GDL engines), ``translation`` the names
    (see :mod:`symbolic.gdl.translate`).
    :func:`symbolic.engines.make_engine` builds the GDL engines for it."""
    program: GroundProgram | None = field(default=None, compare=False, repr=False)
    translation: Translation | None = field(default=None, compare=False, repr=False)
