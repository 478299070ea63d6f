"""Choosing an engine by name: ``symbolic`` (BDDs, cudd or autoref) or ``explicit``.

>>> from symbolic.games import subtraction
>>> make_engine(subtraction(5), "explicit").kind
'explicit'
"""
from __future__ import annotations

from .api import GameEngine
from .bdd.encode import ORDERS  # bit orders of the symbolic engine  # noqa: F401
from .bdd.engine import PARTITIONS  # how the symbolic engine splits δ  # noqa: F401
from .errors import QueryError
from .ir import Game

ENGINES = ("symbolic", "explicit")
BACKENDS = ("cudd", "autoref")


def make_engine(game: Game, engine: str = "symbolic", backend: str = "cudd", *,
                order: str = "auto", partition: str = "moves") -> GameEngine:
    """An engine of the given kind for ``game`` (``order`` and ``partition`` tune
    the symbolic engine; the explicit engine ignores them)."""
    if engine == "symbolic":
        from .bdd import SymbolicGame
        return SymbolicGame(game, backend=backend, partition=partition, order=order)
    if engine == "explicit":
        from .explicit import ExplicitGame
        return ExplicitGame(game)
    raise QueryError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
