"""Algorithms over any game engine, written as free functions on the contract of
:class:`~symbolic.api.engine.GameEngine` (as :mod:`symbolic.fixpoint` writes its
fixpoints): reachability (the image fixpoint), the TD's attractor and ⟨⟨J⟩⟩□.
The layered family has its own module, :mod:`symbolic.api.layers`.

>>> from symbolic.seeds.games import arena
>>> from symbolic.explicit import ExplicitGame
>>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1}, [(0, 1), (1, 2)]))
>>> reachable(G, G.from_tuples([(1,)])).result.tuples()
[(1,), (2,)]
"""

from __future__ import annotations

from typing import Iterable

from ..fixpoint import Fixpoint, least_fixpoint
from .engine import DeadEnds, GameEngine, check_engine
from .sets import PositionSet, check_set

__all__ = ["reachable", "attractor", "always"]


def reachable(engine: GameEngine, source: PositionSet, *, keep_layers: bool = False) -> Fixpoint:
    """reach(S) = μX. S ∪ post(X): the positions reachable from S in zero or
    more moves (the image fixpoint). Layer n holds those reachable within n moves.

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1, 3: 1}, [(0, 1), (1, 2), (3, 0)]))
    >>> fp = reachable(G, G.from_tuples([(0,)]))
    >>> fp.result.tuples(), fp.iterations
    ([(0,), (1,), (2,)], 2)
    """
    check_set(check_engine(engine), source, "the source")
    # Only the positions added by the last step (the frontier) feed post: the
    # sets are those of μX. S ∪ post(X), at one image of the frontier per step.
    # (Connect Four 5 × 4: the same 21 steps, images of one layer each.)
    last = [source, engine.empty()]

    def step(x):
        frontier = last[0] - last[1]
        last[1] = x
        y = x | engine.post(frontier)
        last[0] = y
        return y

    return least_fixpoint(
        step,
        source,
        keep_layers=keep_layers,
        limits=engine.limits,
        name="computing reach (image fixpoint)",
    )


def attractor(
    engine: GameEngine, coalition: Iterable[int], target: PositionSet, *, keep_layers: bool = False
) -> Fixpoint:
    """Attr_J(target) as in the reachability-games TD: until with σ = all positions
    and the ``STRICT`` dead-end convention.

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1}, [(0, 1), (1, 2), (1, 0)]))
    >>> attractor(G, {1}, G.from_tuples([(2,)])).result.tuples()
    [(2,)]
    """
    return check_engine(engine).until(
        coalition, engine.positions(), target, dead_ends=DeadEnds.STRICT, keep_layers=keep_layers
    )


def always(
    engine: GameEngine, coalition: Iterable[int], invariant: PositionSet, *, dead_ends: DeadEnds
) -> Fixpoint:
    """⟨⟨J⟩⟩□F = release(J, ∅, F) = νZ. F ∩ pre(J, Z).

    ``iterations`` counts the strict decreases of Z_0 = F,
    Z_{k+1} = F ∩ pre(J, Z_k).

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2}, [(0, 1), (1, 0)]))
    >>> always(G, {1}, G.positions(), dead_ends=DeadEnds.VACUOUS).result.tuples()
    [(0,), (1,)]
    """
    return check_engine(engine).release(coalition, engine.empty(), invariant, dead_ends=dead_ends)
