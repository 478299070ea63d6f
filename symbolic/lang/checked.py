"""The result of checking a model: :class:`CheckedModel` and its :class:`Query`, plain
dataclasses apart from the checker (:mod:`.decls`), so that a front end that builds its
model as objects (AIGER circuits, GDL) does not load the checker.

>>> from symbolic import atl
>>> Query("true", atl.Truth(True)).text
'true'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import atl, ir
from ..errors import Span

if TYPE_CHECKING:
    from .. import display
    from .scope import Scope

__all__ = ["CheckedModel", "Query"]


@dataclass(frozen=True)
class Query:
    """A ``query`` of a model file: its source text, formula and place."""

    text: str
    formula: atl.Formula
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CheckedModel:
    """The parts of a checked model file.

    ``params`` holds the parameter values in force (defaults and overrides),
    ``consts`` the constants (sets as sorted tuples, as in the IR),
    ``definitions`` the named sets and formulas, ``queries`` the queries in
    source order, ``scope`` the top-level names (to check formulas later),
    ``display`` how a position is drawn (None when the model does not say).
    """

    name: str
    description: str
    source: str
    params: dict
    consts: dict
    game: ir.Game | ir.ConcurrentGame
    definitions: dict[str, atl.Definition]
    queries: tuple[Query, ...]
    scope: Scope = field(repr=False, compare=False)
    display: display.Drawing | None = field(default=None, repr=False, compare=False)
