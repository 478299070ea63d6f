"""Realizability of a SYNTCOMP safety circuit on either AIGER engine: the answer of
``symbolic aiger``, computed through the engine API only.

The controller wins from the initial position iff it lies in ⟨⟨controller⟩⟩□¬error
(:mod:`.build` for the game): the greatest fixpoint νZ. ¬error ∩ pre(controller, Z),
the engine's ``release``. Two moves of the game make one step of the circuit, so the
engine's iterations are about twice the circuit's steps.

>>> from symbolic.model import Model
>>> from symbolic.engines import make_engine
>>> from .build import aiger_model
>>> from .reader import parse_aiger
>>> m = Model.of(aiger_model(parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 u\\n")), "")
>>> r = realizability(m, make_engine(m.game, "explicit"))
>>> r.realizable, r.winning_size
(False, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..api import DeadEnds, GameEngine, PositionSet
from ..errors import QueryError
from .build import CONTROLLER
from .explicit import AigerExplicitGame
from .symbolic import AigerSymbolicGame

__all__ = ["Realizability", "realizability"]


@dataclass(frozen=True)
class Realizability:
    """The answer on a circuit: ``realizable`` (the initial position is won),
    ``winning`` (⟨⟨controller⟩⟩□¬error, every position of it), ``winning_size`` (the
    latch valuations in it: its environment's positions with ``error`` 0) and the
    fixpoint's ``iterations``."""

    realizable: bool
    winning: PositionSet
    winning_size: int
    iterations: int


def realizability(model, engine: GameEngine) -> Realizability:
    """The answer on the circuit of ``model`` (an AIGER model) by ``engine``, one of the
    AIGER engines (QueryError for any other)."""
    if not isinstance(engine, (AigerSymbolicGame, AigerExplicitGame)):
        raise QueryError(f"{engine!r} is not an engine of an AIGER circuit's game")
    safe = engine.from_expr(ir.Unary("not", ir.Var("error")))
    fp = engine.release({CONTROLLER}, engine.empty(), safe, dead_ends=DeadEnds.VACUOUS)
    initial = engine.from_expr(model.definitions["initial"].body.expr)
    return Realizability(
        realizable=(initial - fp.result).is_empty(),
        winning=fp.result,
        winning_size=engine.winning_size(fp.result),
        iterations=fp.iterations,
    )
