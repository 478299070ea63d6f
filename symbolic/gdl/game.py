"""The IR game of a GDL description, keeping its ground program and the names
the model gives to its fluents, roles, moves and ground atoms."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import Game
from .ground import GroundProgram

__all__ = ["GdlGame", "GdlNames"]


@dataclass(frozen=True)
class GdlNames:
    """The names of a GDL model (:mod:`symbolic.gdl.build`): ``var_of[fluent]`` (a bool
    variable), ``role_id[role]`` (a player id), ``role_name[role]`` (the constant holding
    it), ``move_of[(role, move)]`` (an IR move) and ``set_of[atom]`` (the named set of a
    ground atom that does not depend on ``does``)."""

    var_of: dict
    role_id: dict
    role_name: dict
    move_of: dict
    set_of: dict = field(default_factory=dict)

    @property
    def move_named(self) -> dict:
        """``{move name: (role, move)}``."""
        return {v: k for k, v in self.move_of.items()}


@dataclass(frozen=True)
class GdlGame(Game):
    """An :class:`~symbolic.ir.Game` built from GDL. ``program`` is the ground
    program (read by both GDL engines), ``names`` the model's names.
    :func:`symbolic.engines.make_engine` builds the GDL engines for it."""

    program: GroundProgram = field(kw_only=True, compare=False, repr=False)
    names: GdlNames = field(kw_only=True, compare=False, repr=False)
