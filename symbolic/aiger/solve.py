"""Realizability of a SYNTCOMP safety circuit on either AIGER engine: the answer of
``symbolic aiger``, by one of two methods (:data:`METHODS`).

The controller wins from the initial position iff it lies in ⟨⟨controller⟩⟩□¬error
(:mod:`.build` for the game). ``safety`` (the default) is each engine's dedicated
solver, ``safety_fixpoint``: W = νZ. ∀u ∃c. ¬err ∧ Z(next) over the latch valuations,
stopped as soon as an initial valuation leaves Z (then the winning region is not
computed: ``winning`` and ``winning_size`` are None); its iterations are the circuit's
steps. ``game`` goes through the engine API only: the greatest fixpoint
νZ. ¬error ∩ pre(controller, Z), the engine's ``release``, run to the end; two moves
of the game make one step of the circuit, so its iterations are about twice as many.
When both run to the end their winning positions are the same set (the tests check it).

>>> from symbolic.model import Model
>>> from symbolic.engines import make_engine
>>> from .build import aiger_model
>>> from .reader import parse_aiger
>>> m = Model.of(aiger_model(parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 u\\n")), "")
>>> r = realizability(m, make_engine(m.game, "explicit"))
>>> r.realizable, r.winning_size, r.iterations
(False, None, 1)
>>> r = realizability(m, make_engine(m.game, "explicit"), "game")
>>> r.realizable, r.winning_size, r.iterations
(False, 0, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .. import ir
from ..api import DeadEnds, GameEngine, PositionSet
from ..errors import QueryError
from .build import CONTROLLER
from .explicit import AigerExplicitGame
from .safety import METHODS
from .symbolic import AigerSymbolicGame

__all__ = ["METHODS", "Realizability", "realizability"]


@dataclass(frozen=True)
class Realizability:
    """The answer on a circuit: ``realizable`` (the initial position is won),
    ``winning`` (⟨⟨controller⟩⟩□¬error, every position of it: ``region`` gives it,
    computed on first use by the ``safety`` method), ``winning_size`` (the latch
    valuations in it: its environment's positions with ``error`` 0), both None when
    the ``safety`` method stopped early or a controlled invariant proved the answer,
    the fixpoint's ``iterations`` and the ``method`` that computed them; ``proof``:
    ``"fixpoint"``, ``"initial"`` (the initial position left the iterate) or
    ``"invariant"``; ``keep``: positions the controller can keep forever, the initial
    ones among them (the winning region, or the invariant's), computed on first use."""

    realizable: bool
    region: Callable[[], PositionSet] | None
    winning_size: int | None
    iterations: int
    method: str = "game"
    proof: str = "fixpoint"
    keep: Callable[[], PositionSet] | None = None

    @property
    def winning(self) -> PositionSet | None:
        """⟨⟨controller⟩⟩□¬error (None when the fixpoint stopped early)."""
        return None if self.region is None else self.region()

    @property
    def keepable(self) -> PositionSet | None:
        """A set the controller can keep (``keep``), or the winning region."""
        return self.keep() if self.keep is not None else self.winning


def realizability(
    model, engine: GameEngine, method: str = "safety", *, guess: bool = False
) -> Realizability:
    """The answer on the circuit of ``model`` (an AIGER model) by ``engine``, one of the
    AIGER engines (QueryError for any other), by ``method`` (one of :data:`METHODS`);
    ``guess``: the ``safety`` method of the symbolic engine tries controlled invariants
    too (then W may be left uncomputed, ``proof`` ``"invariant"``)."""
    if not isinstance(engine, (AigerSymbolicGame, AigerExplicitGame)):
        raise QueryError(f"{engine!r} is not an engine of an AIGER circuit's game")
    if method == "safety":
        run = engine.safety_fixpoint(guess)
        return Realizability(
            run.realizable,
            run.region,
            run.winning_size,
            run.iterations,
            method,
            proof=run.proof,
            keep=run.keep,
        )
    if method != "game":
        raise QueryError(f"unknown method {method!r}: one of {', '.join(METHODS)}")
    safe = engine.from_expr(ir.Unary("not", ir.Var("error")))
    fp = engine.release({CONTROLLER}, engine.empty(), safe, dead_ends=DeadEnds.VACUOUS)
    initial = engine.from_expr(model.definitions["initial"].body.expr)
    won = fp.result
    return Realizability(
        realizable=(initial - won).is_empty(),
        region=lambda: won,
        winning_size=engine.winning_size(won),
        iterations=fp.iterations,
        method=method,
    )
