"""The explicit reference engine: enumeration of positions and successors.

It interprets the game IR directly (:mod:`symbolic.explicit.interp`), lists
δ(c) by solving each move's effect (:mod:`symbolic.explicit.moves`), keeps sets
of positions as frozensets of tuples (:mod:`symbolic.explicit.sets`) and answers
the queries of :mod:`symbolic.api` on successor and predecessor lists over
position indices (:mod:`symbolic.explicit.graph`) with counter-based attractors
(:mod:`symbolic.explicit.attractor`), written once for every explicit engine
(:mod:`symbolic.explicit.counting`; the game is read by :mod:`symbolic.explicit.engine`);
:mod:`symbolic.explicit.values` holds the reference two-player values. It shares no code with the BDD
engine, so that each can check the other (both rely on the same IR validation,
:mod:`symbolic.validate`, done before either compiles anything).

>>> from symbolic.seeds.games import subtraction
>>> G = ExplicitGame(subtraction(K=4))
>>> G.kind, len(G.positions()), sorted(G.deadlocks())
('explicit', 10, [(1, 0), (2, 0)])
"""

from .engine import ExplicitGame
from .sets import DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets
from .interp import Compiled, compile_expr, evaluate

__all__ = [
    "ExplicitGame",
    "ExplicitSets",
    "ExplicitSet",
    "DEFAULT_MAX_POSITIONS",
    "Compiled",
    "compile_expr",
    "evaluate",
]
