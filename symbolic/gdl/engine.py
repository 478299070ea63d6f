"""The contract of the GDL engines (:class:`GdlEngine`): what :mod:`~.solve` and the
command line read of an engine of a GDL game beside the queries of every engine."""

from __future__ import annotations

from abc import abstractmethod

from ..api import GameEngine, PositionSet, ReachLayers
from ..limits import Limits
from .game import GdlGame

__all__ = ["GdlEngine"]


class GdlEngine(GameEngine):
    """A :class:`~symbolic.api.GameEngine` of a :class:`~.game.GdlGame` whose positions
    are the states reachable from ``init``, within ``depth`` moves when a depth is given
    (the symbolic :class:`~.symbolic.GdlSymbolicGame`, the explicit
    :class:`~.explicit.GdlExplicitGame`, and their concurrent forms). Beside the
    queries it has ``layers`` (the number of states first reached at each depth),
    ``complete`` (no state lies beyond the last layer), ``frontier`` (the positions not
    expanded), :meth:`atom_set` (where a ground atom holds) and ``reach``: the layers as
    a :class:`~symbolic.fixpoint.ReachLayers` when the engine keeps them as sets (the
    symbolic ones), else None.

    >>> from symbolic.gdl.explicit import GdlExplicitGame
    >>> issubclass(GdlExplicitGame, GdlEngine)
    True
    """

    game: GdlGame
    #: the limits its computations obey (:func:`~.solve.refine_by_invariant` sets an
    #: entry's budget there for the time of that entry)
    limits: Limits

    @property
    def reach(self) -> ReachLayers | None:
        """The reachable states by depth as sets, when the engine keeps them (else None)."""
        return None

    @property
    @abstractmethod
    def layers(self) -> list[int]:
        """The number of states first reached at each depth."""

    @property
    def explored(self) -> bool:
        """Whether the positions are states reached from ``init`` by moves, each taken
        in an expanded non-terminal state where every role has a legal move (the
        engine explored them: it has ``layers``); False over a domain that holds
        states nothing reaches (the symbolic engine's inductive invariant)."""
        return bool(self.layers)

    @property
    @abstractmethod
    def complete(self) -> bool:
        """Whether every reachable state is a position (no frontier)."""

    @property
    @abstractmethod
    def frontier(self) -> PositionSet:
        """The positions not expanded: ∅ unless a depth cut the exploration short."""

    @abstractmethod
    def atom_set(self, atom: tuple, within: PositionSet | None = None) -> PositionSet:
        """The positions (of ``within``, when given) where the ground atom (not
        depending on ``does``) holds."""
