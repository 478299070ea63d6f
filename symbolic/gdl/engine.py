"""The contract of the GDL engines (:class:`GdlEngine`): what :mod:`~.solve` and the
command line read of an engine of a GDL game beside the queries of every engine."""

from __future__ import annotations

from abc import abstractmethod

from ..api import GameEngine, PositionSet, ReachLayers
from ..errors import QueryError
from ..limits import Limits
from .game import GdlGame
from .ground import GroundProgram

__all__ = ["GdlEngine", "check_stop_at_best"]


def check_stop_at_best(stop_at_best: bool, prog: GroundProgram) -> None:
    """QueryError unless ``stop_at_best`` is False or the game has one role.

    With ``stop_at_best`` the engines explore up to the first layer holding a terminal
    state where the only role gets its best goal value V, and leave that layer's other
    states unexpanded (the engine's ``frontier``, ``complete`` False, unless they are
    all terminal). Its value is then V: the path that reached that state runs through
    expanded, non-terminal states with a successor, so the role forces V
    (:mod:`~.solve`'s lower bound), and no value is higher. A solution of the whole
    game that needs none of the states beyond.

    >>> from symbolic.gdl.load import gdl_program
    >>> prog = gdl_program("(role a) (role b) (init p) (<= terminal (true p))")
    >>> check_stop_at_best(True, prog)
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: stopping at the best goal applies to games of one role, this one has 2
    """
    if not isinstance(stop_at_best, bool):
        raise QueryError(f"stop_at_best must be True or False, got {stop_at_best!r}")
    if stop_at_best and len(prog.roles) != 1:
        raise QueryError(
            f"stopping at the best goal applies to games of one role, this one has "
            f"{len(prog.roles)}"
        )


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
