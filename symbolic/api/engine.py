"""The game-engine contract: what every engine of a game implements
(:class:`GameEngine`), the dead-end conventions (:class:`DeadEnds`) and the check of an
engine argument (:func:`check_engine`).

The contract is the abstract queries of ENS 2005, sections 3–4 (turn sets, successors,
pre∃, pre∀, until, release, post, moves between sets, out-degrees) and a few methods
with a generic body that engines override for speed or for their own reading of a
step (``pre``, ``deadlocks``, ``check_turns``, and the layered hooks ``layer_pre`` and
``until_layer_step``). Everything computed from these queries is a free function over
any engine: :mod:`symbolic.api.algorithms` (reachability, attractors, □) and
:mod:`symbolic.api.layers` (the layered family), as :mod:`symbolic.fixpoint` holds the
fixpoint idiom.
"""

from __future__ import annotations

import enum
from abc import abstractmethod
from typing import Iterable, Sequence

from ..arguments import need
from ..errors import ModelError, QueryError
from ..fixpoint import Fixpoint, ReachLayers, check_layer, check_reach
from ..ir import ConcurrentGame, Game
from ..limits import NO_LIMITS, Limits
from .sets import MoveRelation, PositionSet, SetEngine, check_set

__all__ = ["DeadEnds", "GameEngine", "check_dead_ends", "check_engine"]


class DeadEnds(enum.Enum):
    """What a universal step means at a position with no successor.

    ``VACUOUS``: ENS 2005, section 3: pre∀(J, τ) ∋ c when t(c) ∉ J and
    ∀c' ∈ δ(c). c' ∈ τ, which holds when δ(c) = ∅ (an opponent who cannot
    move counts as forced). ATL's ⟨⟨J⟩⟩○ uses it.

    ``STRICT``: the attractor of the reachability-games TD: an
    opponent's position is forced only if it has at least one move and all of
    them lead into the target.
    """

    VACUOUS = "vacuous"
    STRICT = "strict"


def check_dead_ends(dead_ends) -> DeadEnds:
    """``dead_ends`` itself when it is a :class:`DeadEnds`, else QueryError.

    Both engines call it once per query, before any fixpoint step.

    >>> check_dead_ends("vacuous")
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: dead_ends must be DeadEnds.VACUOUS or DeadEnds.STRICT, got 'vacuous'
    """
    if not isinstance(dead_ends, DeadEnds):
        raise QueryError(
            f"dead_ends must be DeadEnds.VACUOUS or DeadEnds.STRICT, got {dead_ends!r}"
        )
    return dead_ends


def check_engine(engine) -> "GameEngine":
    """``engine`` itself when it is a game engine, else ArgumentTypeError (the public
    functions over an engine call it first).

    >>> check_engine("nim")
    Traceback (most recent call last):
    ...
    symbolic.errors.ArgumentTypeError: the engine must be a GameEngine, got str 'nim' (build one with make_engine(model.game))
    """
    return need(engine, GameEngine, "the engine", hint=" (build one with make_engine(model.game))")


class GameEngine(SetEngine):
    """Queries on a game (ENS 2005, sections 3–4), implemented by every engine: the
    abstract methods, and the methods with a generic body an engine may override
    (module docstring)."""

    #: the game it plays: a turn-based :class:`~symbolic.ir.Game`, or a
    #: :class:`~symbolic.ir.ConcurrentGame` (the engines of one narrow it)
    game: Game | ConcurrentGame
    #: the time, memory and progress limits the engine's work checks (none by default)
    limits: Limits = NO_LIMITS
    #: True for an engine of a concurrent game (:class:`symbolic.concurrent.ConcurrentEngine`):
    #: every player chooses at every position, so there are no turn sets
    concurrent: bool = False

    @abstractmethod
    def turn_set(self, coalition: Iterable[int]) -> PositionSet:
        """tour_J: the positions c with t(c) ∈ J."""

    @abstractmethod
    def successors(self, pos) -> PositionSet:
        """δ(c) for one position c."""

    @abstractmethod
    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> PositionSet:
        """pre∃(J, τ) = {c | t(c) ∈ J and ∃c' ∈ δ(c). c' ∈ τ}."""

    @abstractmethod
    def pre_forall(
        self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds
    ) -> PositionSet:
        """pre∀(J, τ) = {c | t(c) ∉ J and ∀c' ∈ δ(c). c' ∈ τ}; with
        ``DeadEnds.STRICT`` also δ(c) ≠ ∅."""

    @abstractmethod
    def until(
        self,
        coalition: Iterable[int],
        stay: PositionSet,
        target: PositionSet,
        *,
        dead_ends: DeadEnds,
        keep_layers: bool = False,
    ) -> Fixpoint:
        """until(J, σ, τ) = ⋃ until_n, until_0 = τ,
        until_{n+1} = until_n ∪ (pre(J, until_n) ∩ σ)."""

    @abstractmethod
    def release(
        self,
        coalition: Iterable[int],
        left: PositionSet,
        right: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> Fixpoint:
        """release(J, f, g) = ⟨⟨J⟩⟩ f R g = νZ. g ∩ (f ∪ pre(J, Z)), the dual of until.

        J can keep g true up to and including the first position where f holds,
        or forever.
        Iterated from Z_0 = g (every step stays below g, so this reaches the
        same greatest fixpoint as starting from all positions);
        ``iterations`` counts the strict decreases of Z_{k+1} = g ∩ (f ∪ pre(J, Z_k)).

        >>> from symbolic.seeds.games import arena
        >>> from symbolic.explicit import ExplicitGame
        >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1}, [(0, 1), (1, 0), (1, 2), (2, 2)]))
        >>> two, one = G.from_tuples([(2,)]), G.from_tuples([(1,)])
        >>> G.release({1}, G.empty(), ~two, dead_ends=DeadEnds.VACUOUS).result.tuples()
        []
        >>> fp = G.release({1}, one, ~two, dead_ends=DeadEnds.VACUOUS)  # 1 releases ¬2
        >>> fp.result.tuples(), fp.iterations
        ([(0,), (1,)], 0)
        """

    @abstractmethod
    def post(self, source: PositionSet) -> PositionSet:
        """post(S) = {c' | ∃c ∈ S. c' ∈ δ(c)}: the image of S by one move."""

    @abstractmethod
    def moves_between(self, source: PositionSet, target: PositionSet) -> MoveRelation:
        """δ restricted: {(c, c') | c ∈ S, c' ∈ T, c' ∈ δ(c)}."""

    @abstractmethod
    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        """{k: number of positions of S with exactly k successors}, for k ≥ 0
        (absent keys: no such position)."""

    def pre(
        self, coalition: Iterable[int], target: PositionSet, *, dead_ends: DeadEnds
    ) -> PositionSet:
        """pre(J, τ) = pre∃(J, τ) ∪ pre∀(J, τ)."""
        return self.pre_exists(coalition, target) | self.pre_forall(
            coalition, target, dead_ends=dead_ends
        )

    def deadlocks(self) -> PositionSet:
        """Positions with no successor."""
        return self.positions() - self.pre_exists(self.game.players, self.positions())

    def check_turns(self) -> None:
        """ModelError unless the turn is a player at every position:
        positions ⊆ ⋃_{p ∈ players} tour_{p}; the error names the first position
        outside. Each engine calls it once its turn sets are known."""
        pos = (self.positions() - self.turn_set(self.game.players)).first()
        if pos is not None:
            turn = self.game.turn if isinstance(self.game, Game) else None
            raise ModelError(
                f"at position {self.space.as_dict(pos)} the turn is not a player "
                f"(players: {list(self.game.players)})",
                getattr(turn, "span", None),
            )

    # the layered hooks: symbolic.api.layers runs them layer by layer, from the farthest
    def until_layer_step(
        self,
        J: frozenset,
        reach: ReachLayers,
        k: int,
        ours: PositionSet | None,
        won: PositionSet,
        stay: PositionSet,
        target: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> PositionSet:
        """One layer of the layered until (:func:`symbolic.api.layers.until_by_layer`), J
        validated, ``ours`` = :func:`~symbolic.api.layers.layer_turns` (J):
        U_k = F_k ∩ (τ ∪ (σ ∩ (pre∃(J, U_{k+1}) ∪ pre∀(J, U_{k+1} ∪ ¬F_{k+1})))) from
        U_{k+1} = ``won`` (∅ above the last layer). Callers may interleave coalitions
        layer by layer (the ply-by-ply table); engines may override it (the BDD one).

        >>> from symbolic.seeds.games import arena
        >>> from symbolic.explicit import ExplicitGame
        >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2}, [(0, 1), (1, 2)]))
        >>> from symbolic.api.layers import reach_layers
        >>> r, J = reach_layers(G, G.from_tuples([(0,)])), frozenset({1})
        >>> u2 = G.until_layer_step(J, r, 2, G.turn_set(J), G.empty(), G.positions(),
        ...                         G.from_tuples([(2,)]), dead_ends=DeadEnds.VACUOUS)
        >>> u2.tuples()
        [(2,)]
        """
        self.check_layer_step(J, reach, k, ours, won, stay, target, dead_ends)
        layer = reach.layers[k]
        above = reach.layers[k + 1] if k + 1 < len(reach.layers) else self.empty()
        step = self.layer_pre(J, reach, k, ours, won, above, dead_ends=dead_ends)
        # each term cut to F_k first: τ and σ span every position
        return (layer & target) | (layer & step & stay)

    def check_layer_step(self, J, reach, k, ours, won, stay, target, dead_ends) -> None:
        """The checks of :meth:`until_layer_step`'s arguments (``ours``: None on a
        concurrent game only), every override's."""
        self.game.coalition(need(J, frozenset, "J", hint=" (engine.game.coalition(players))"))
        check_layer(check_reach(self, reach), k)
        for s, what in ((ours, "ours"), (won, "won"), (stay, "stay"), (target, "the target")):
            if s is not None or what != "ours" or not self.concurrent:
                check_set(self, s, what)
        check_dead_ends(dead_ends)

    def layer_pre(
        self,
        J: frozenset,
        reach: ReachLayers,
        k: int,
        ours: PositionSet | None,
        won: PositionSet,
        above: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> PositionSet:
        """pre(J, U_{k+1}) on the positions of layer k of a graded ``reach`` (what
        :meth:`until_layer_step` needs; ``ours`` = T_J, None on a concurrent game only,
        ``won`` = U_{k+1}, ``above`` = F_{k+1}): only its intersection with F_k is read,
        so an engine may restrict the sources of its pre-images to F_k (the GDL symbolic
        engine does):

            F_k ∩ (pre∃(J, U_{k+1}) ∪ pre∀(J, U_{k+1} ∪ ¬F_{k+1})) ⊆ result.
        """
        layer = reach.layers[k]
        # a set of this engine (None only on a concurrent game, whose engines override
        # this method): EngineMismatch otherwise, as ``layer & ours`` would raise
        ours = layer._check(ours)
        # a layer where only J (or only the others) moves needs one of the two
        # (in Connect Four every layer: the number of discs decides the mover)
        step = self.empty()
        if not (layer & ours).is_empty():
            step = self.pre_exists(J, won)
        if not (layer - ours).is_empty():
            step = step | self.pre_forall(J, won | ~above, dead_ends=dead_ends)
        return step

    def layer_pres(
        self,
        J: frozenset,
        reach: ReachLayers,
        k: int,
        ours: PositionSet | None,
        wons: Sequence[PositionSet],
        above: PositionSet,
        *,
        dead_ends: DeadEnds,
    ) -> tuple[PositionSet, ...]:
        """:meth:`layer_pre` of each set of ``wons`` (the ranks of a layer,
        :func:`symbolic.api.layers.until_approximations`): an engine may compute them
        together (the BDD engine on a cluster: one round, docs/distributed.md)."""
        return tuple(self.layer_pre(J, reach, k, ours, w, above, dead_ends=dead_ends) for w in wons)
