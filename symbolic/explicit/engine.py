"""The explicit engine's games: δ by enumeration, and the queries by counting.

:class:`ExplicitGame` is assembled from the parts of the explicit engines: the
position index and sets of :mod:`symbolic.explicit.sets`, and the turn-based
queries of :class:`~symbolic.explicit.counting.CountingGame`, which answers pre∃,
pre∀, until and release with linear-time counter-based algorithms
(:mod:`symbolic.explicit.attractor`) on the :class:`~symbolic.explicit.graph.IndexedGraph`
and :class:`~symbolic.explicit.graph.TurnTable` this class builds: it interprets the
moves of the IR (via :mod:`symbolic.explicit.moves`) to list δ(c) for every
position, and the turn expression for t(c). It shares no
code with the BDD engine: it exists to cross-check it, and as an honest peer in
benchmarks.

Work is lazy: the domain is enumerated on first use and the graph is built on
the first query that needs it, so ``successors(c)`` of one position of a huge
game costs only that position's moves.

>>> from symbolic.seeds.games import subtraction
>>> G = ExplicitGame(subtraction(K=3))
>>> G.successors((1, 3)).tuples(), G.edge_count
([(2, 0), (2, 1), (2, 2)], 12)
"""

from __future__ import annotations

from typing import Callable, cast

from ..arguments import need_int
from ..api import MoveRelation, PositionSet
from ..errors import TooManyPositions, WrongType
from ..ir import Game
from ..limits import Limits
from ..validate import check_game
from .counting import CountingGame
from .graph import IndexedGraph, TurnTable
from .interp import INT, compile_expr, type_name
from .moves import PlanTable, apply, compile_moves, max_successors
from .sets import DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets, TupleSets

__all__ = ["ExplicitGame", "ExplicitRelation", "DEFAULT_MAX_EDGES"]

#: Games whose number of edges may exceed this are refused before enumeration: an edge
#: costs about 20 bytes (successor and predecessor lists), so this is gigabytes already.
DEFAULT_MAX_EDGES = 100_000_000


class ExplicitRelation(MoveRelation):
    """A set of moves of an explicit engine (:class:`~.sets.TupleSets`: an :class:`ExplicitGame`,
    a GDL one): a frozenset of (c, c') tuple pairs."""

    __slots__ = ("engine", "items")
    #: the game engine (turn-based or concurrent), with its explicit sets
    engine: TupleSets

    def __init__(self, engine: TupleSets, items: frozenset):
        self.engine = engine
        self.items = items

    def count(self) -> int:
        return len(self.items)

    def pairs(self) -> list[tuple[tuple, tuple]]:
        return sorted(self.items)

    def sources(self) -> PositionSet:
        return self.engine._set_of(frozenset(c for c, _ in self.items))

    def image(self, source: PositionSet) -> PositionSet:
        s = self.engine._own(source).items
        return self.engine._set_of(frozenset(d for c, d in self.items if c in s))

    def restrict(self, source: PositionSet) -> "ExplicitRelation":
        s = self.engine._own(source).items
        return ExplicitRelation(self.engine, frozenset(p for p in self.items if p[0] in s))

    def pick(self) -> "ExplicitRelation":
        best: dict = {}
        for c, d in self.items:
            if c not in best or d < best[c]:
                best[c] = d
        return ExplicitRelation(self.engine, frozenset(best.items()))

    def _union(self, other):
        return ExplicitRelation(self.engine, self.items | other.items)

    def _same(self, other) -> bool:
        return self.items == other.items


class ExplicitGame(ExplicitSets, CountingGame[ExplicitSet]):
    """A game by explicit enumeration of positions and successors (ENS 2005, §3–4).

    δ(c) is the union over moves m and parameter valuations v with guard(c):
    every position c' with effect(c, c') where every slot not primed in the
    effect (at v) keeps its value, listed by the plans of
    :mod:`symbolic.explicit.moves` (equations solved, the rest enumerated).

    >>> from symbolic.seeds.games import subtraction
    >>> from symbolic.ir import Var
    >>> from symbolic.api import DeadEnds
    >>> G = ExplicitGame(subtraction(K=5))
    >>> G.successors((1, 4)).tuples()
    [(2, 1), (2, 2), (2, 3)]
    >>> lose = G.from_expr(Var("k").eq(0)) & G.turn_set({2})   # player 2 cannot move
    >>> G.until({1}, G.positions(), lose, dead_ends=DeadEnds.VACUOUS).result.tuples()
    [(1, 1), (1, 2), (1, 3), (1, 5), (2, 0), (2, 4)]
    """

    def __init__(
        self,
        game: Game,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        max_edges: int = DEFAULT_MAX_EDGES,
        limits: Limits | None = None,
    ):
        check_game(game)
        ExplicitSets.__init__(
            self, game.space, game.invariant, max_positions=max_positions, limits=limits
        )
        super(ExplicitSets, self).__init__()  # CountingGame's, the next base in the MRO
        self.game = game
        self.max_edges = need_int(max_edges, "max_edges", low=1)
        turn = compile_expr(game.turn, game.space)
        if turn.type != INT:
            raise WrongType(
                f"the turn must be an int expression, got {type_name(turn.type)}",
                getattr(game.turn, "span", None),
            )
        # an int expression (checked above): its function gives ints
        self._turn_fn = cast(Callable[[tuple, object], int], turn.fn)
        self._plans = compile_moves(game)
        self._table = PlanTable(self._plans)

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<ExplicitGame {self.game.name!r}: {n} positions>"

    def edge_bound(self) -> int:
        """An upper bound on the number of edges, known before any enumeration:
        the value vectors times the successors every move instance may give."""
        return self.space.size * sum(max_successors(p) for p in self._plans)

    def check_size(self) -> None:
        """QueryError when the positions or the edges may be too many to enumerate."""
        ExplicitSets.check_size(self)
        bound = self.edge_bound()
        if bound > self.max_edges:
            raise TooManyPositions(
                f"edge limit reached: the game may have up to {bound} edges ({self.space.size} value vectors "
                f"times up to {bound // max(self.space.size, 1)} successors each), more than the "
                f"explicit engine's limit of {self.max_edges}: use the symbolic engine",
                limit="edges",
                stage="before enumerating the positions",
            )

    # ---------------------------------------------------------------- the parts

    def _build_graph(self) -> IndexedGraph:
        """δ over indices, listed by the move plans (once); the turn table is built and
        checked before the graph is kept, as every query on the graph needs it."""
        with self.limits.stage("building δ (explicit)"):
            dom = self._domain()
            member = self._position_index().get
            table = self._table
            check, total = self.limits.check, len(dom)
            succ = []
            for i, c in enumerate(dom):
                if not i & 1023:
                    check(f"position {i} of {total}")
                succ.append(tuple(sorted(table.successors(c, member))))
        graph = IndexedGraph.of(succ)
        self.turn_table()
        return graph

    def _build_turns(self) -> TurnTable:
        """t(c) for every position, by the compiled turn expression."""
        f = self._turn_fn
        return TurnTable([f(c, None) for c in self._domain()], self.game.players)

    # ---------------------------------------------------------------- GameEngine

    def successors(self, pos) -> ExplicitSet:
        """δ(c), computed for this position alone unless the graph is already built."""
        c = self._position(pos)
        if self.graph_built:
            return self._from_indices(self.index_graph().succ[self._position_index()[c]])
        inv = self._inv
        member = (lambda t: t) if inv is None else (lambda t: t if inv(t, None) else None)
        return ExplicitSet(self, frozenset(self._table.successors(c, member)))

    def transitions(self, pos) -> list[tuple[str, dict, tuple]]:
        """δ(c) labelled by move: (move name, parameter valuation, successor) triples,
        in the order of the moves, then of the valuations, then of the successors."""
        c = self._position(pos)
        member = lambda t: t if self._is_position(t) else None  # noqa: E731
        out: list[tuple[str, dict, tuple]] = []
        for plan in self._plans:  # declaration order of moves, then of valuations
            if plan.guard is None or plan.guard(c, None):
                found: set = set()
                apply(plan, c, member, found)
                out.extend((plan.move, dict(plan.env), t) for t in sorted(found))
        return out

    def moves_between(self, source: PositionSet, target: PositionSet) -> ExplicitRelation:
        """{(c, c') | c ∈ S, c' ∈ T ∩ δ(c)} from the successor lists."""
        s = self._indices(self._own(source))
        t = self._own(target).items
        succ = self.index_graph().succ
        dom = self._domain()
        return ExplicitRelation(
            self, frozenset((dom[i], dom[j]) for i in s for j in succ[i] if dom[j] in t)
        )
