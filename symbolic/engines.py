"""Choosing an engine by name: ``symbolic`` (BDDs, cudd or autoref) or ``explicit``.

>>> from symbolic.games import subtraction
>>> make_engine(subtraction(5), "explicit").kind
'explicit'
"""
from __future__ import annotations

from .api import GameEngine
from .errors import QueryError
from .ir import Game

ENGINES = ("symbolic", "explicit")
BACKENDS = ("cudd", "autoref")


def make_engine(game: Game, engine: str = "symbolic", backend: str = "cudd") -> GameEngine:
    """An engine of the given kind for ``game``."""
    if engine == "symbolic":
        from .bdd import SymbolicGame
        return SymbolicGame(game, backend=backend)
    if engine == "explicit":
        from .explicit import ExplicitGame
        return ExplicitGame(game)
    raise QueryError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
