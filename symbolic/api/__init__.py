"""The query API shared by every engine: position sets, the game-engine contract,
the algorithms written over it, and the one fixpoint idiom.

Module by module: :mod:`~symbolic.api.sets` (the contract of position sets:
:class:`PositionSet`, :class:`SetEngine`, :class:`MoveRelation`),
:mod:`~symbolic.api.engine` (the contract of a game engine: :class:`GameEngine`,
:class:`DeadEnds`), :mod:`~symbolic.api.algorithms` (free functions over any engine:
:func:`reachable`, :func:`attractor`, :func:`always`) and :mod:`~symbolic.api.layers`
(the layered family: :func:`reach_layers`, :func:`until_layered`, ...). Every engine
(``symbolic.bdd.SymbolicGame``, ``symbolic.explicit.ExplicitGame``, the GDL ones)
implements :class:`GameEngine`; their results are :class:`PositionSet` objects, so a
differential test is one equality after :meth:`SetEngine.convert`. The fixpoint idiom
lives in :mod:`symbolic.fixpoint`, re-exported here.
"""

from __future__ import annotations

from ..fixpoint import (
    Fixpoint,
    ReachLayers,
    check_layer,
    check_reach,
    greatest_fixpoint,
    least_fixpoint,
    union_all,
)
from .algorithms import always, attractor, reachable
from .engine import DeadEnds, GameEngine, check_dead_ends, check_engine
from .layers import (
    graded_layers,
    graded_levels,
    layer_counts,
    layer_turns,
    reach_layers,
    until_approximations,
    until_by_layer,
    until_layered,
)
from .sets import MoveRelation, PositionSet, SetEngine, check_set, difference_witness, same_sets

__all__ = [
    "DeadEnds",
    "check_dead_ends",
    "check_engine",
    "check_layer",
    "check_reach",
    "check_set",
    "Fixpoint",
    "ReachLayers",
    "least_fixpoint",
    "greatest_fixpoint",
    "PositionSet",
    "SetEngine",
    "MoveRelation",
    "GameEngine",
    "difference_witness",
    "same_sets",
    "union_all",
    "reachable",
    "attractor",
    "always",
    "reach_layers",
    "graded_layers",
    "graded_levels",
    "layer_counts",
    "until_layered",
    "until_by_layer",
    "until_approximations",
    "layer_turns",
]
