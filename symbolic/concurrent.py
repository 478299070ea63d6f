"""Queries on concurrent games: the fixpoints of ATL over the concurrent pre-image.

Both engines of a :class:`symbolic.ir.ConcurrentGame` (``symbolic.bdd.concurrent``
and ``symbolic.explicit.concurrent``) implement :meth:`ConcurrentEngine._pre`,

    pre(J, Z) = { c | ∃ a_J ∈ A_J(c) ∀ a_{−J} ∈ A_{−J}(c) : ∅ ≠ δ(c, a) ⊆ Z },

and inherit everything else from here:

- dead ends (some player has no enabled action): with ``DeadEnds.VACUOUS``
  the formula is read as it stands, so a dead end c is in pre(J, Z) iff every
  player of J has an action there (the blocked player is an opponent: on a
  turn-based game read as concurrent this is pre∀'s vacuity); with
  ``DeadEnds.STRICT`` dead ends are never in pre(J, Z);
- until(J, σ, τ) = μX. τ ∪ (σ ∩ pre(J, X)) and
  release(J, f, g) = νZ. g ∩ (f ∪ pre(J, Z)), iterated by the one fixpoint idiom
  (:func:`symbolic.api.least_fixpoint`);
- turn(J) (tour_J), pre∃ and pre∀ have no meaning when every player moves at
  once: they raise :class:`~symbolic.errors.QueryError`.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Iterable

from .api import (
    DeadEnds,
    Fixpoint,
    GameEngine,
    PositionSet,
    check_dead_ends,
    greatest_fixpoint,
    least_fixpoint,
)
from .errors import QueryError

__all__ = ["ConcurrentEngine", "NO_TURNS"]

NO_TURNS = (
    "turn(J) has no meaning on a concurrent game: every player chooses an action at every position"
)


class ConcurrentEngine(GameEngine):
    """A :class:`GameEngine` of a concurrent game: every query through ``pre``."""

    concurrent = True

    @abstractmethod
    def _pre(self, J: frozenset, target: PositionSet, strict: bool) -> PositionSet:
        """pre(J, target) (module docstring); ``strict`` drops the dead ends."""

    def pre(
        self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds
    ) -> PositionSet:
        """The concurrent pre-image pre(J, τ) (module docstring)."""
        dead_ends = check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        return self._pre(J, self._check(target), dead_ends is DeadEnds.STRICT)

    def _check(self, s: PositionSet) -> PositionSet:
        return self.positions()._check(s)

    def turn_set(self, coalition: Iterable[int]) -> PositionSet:
        raise QueryError(NO_TURNS)

    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> PositionSet:
        raise QueryError("pre∃ is a turn-based notion: on a concurrent game use pre(J, Z)")

    def pre_forall(
        self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds
    ) -> PositionSet:
        raise QueryError("pre∀ is a turn-based notion: on a concurrent game use pre(J, Z)")

    def check_turns(self) -> None:
        """Nothing to check: no turn."""

    def until(
        self,
        coalition: Iterable[int],
        stay: PositionSet,
        target: PositionSet,
        *,
        dead_ends: DeadEnds,
        keep_layers: bool = False,
    ) -> Fixpoint:
        """μX. τ ∪ (σ ∩ pre(J, X)), from X_0 = τ."""
        dead_ends = check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        stay, target = self._check(stay), self._check(target)
        strict = dead_ends is DeadEnds.STRICT
        return least_fixpoint(
            lambda x: x | (stay & self._pre(J, x, strict)),
            target,
            keep_layers=keep_layers,
            limits=self.limits,
            name="computing until (concurrent pre)",
        )

    def release(
        self,
        coalition: Iterable[int],
        left: PositionSet,
        right: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> Fixpoint:
        """νZ. g ∩ (f ∪ pre(J, Z)), from Z_0 = g."""
        dead_ends = check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        left, right = self._check(left), self._check(right)
        strict = dead_ends is DeadEnds.STRICT
        return greatest_fixpoint(
            lambda z: right & (left | self._pre(J, z, strict)),
            right,
            limits=self.limits,
            name="computing release (concurrent pre)",
        )

    def layer_pre(
        self,
        J: frozenset,
        reach,
        k: int,
        ours,
        won: PositionSet,
        above: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> PositionSet:
        """pre(J, U_{k+1} ∪ ¬F_{k+1}): on layer k every successor lies in F_{k+1}."""
        return self._pre(J, won | ~above, dead_ends is DeadEnds.STRICT)

    def joint_moves(self, pos) -> dict[tuple[int, ...], frozenset]:
        """{a: δ(c, a)} over the enabled joint actions a (index tuples in player order), for
        the engines that list them (the engines of a concurrent model's game, the
        explicit GDL one); QueryError for the others."""
        raise QueryError(f"{type(self).__name__} does not list the joint moves of a position")

    def deadlocks(self) -> PositionSet:
        """Positions where no joint action has a successor (dead ends included)."""
        return self.positions() - self._pre(frozenset(self.game.players), self.positions(), True)
