"""The explicit engine's games: δ by enumeration, and the queries by counting.

:class:`ExplicitGame` adds the game to the sets of :mod:`symbolic.explicit.sets`:
it interprets the moves of the IR (via :mod:`symbolic.explicit.moves`) to list
δ(c) for every position, keeps successor and predecessor lists over integer
indices, and answers pre∃, pre∀, until and release with linear-time
counter-based algorithms (:mod:`symbolic.explicit.attractor`). It shares no
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

from typing import Iterable

from ..arguments import need_int
from ..api import (DeadEnds, Fixpoint, GameEngine, MoveRelation, PositionSet,
                   check_dead_ends)
from ..errors import ModelError, TooManyPositions, WrongType
from ..ir import Game
from ..limits import Limits
from ..validate import check_game
from .attractor import attract
from .interp import INT, compile_expr, type_name
from .moves import apply, compile_moves, max_successors, successors
from .sets import DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets
from .values import retrograde_values as _retrograde_values

__all__ = ["ExplicitGame", "ExplicitRelation", "DEFAULT_MAX_EDGES"]

#: Games whose number of edges may exceed this are refused before enumeration: an edge
#: costs about 20 bytes (successor and predecessor lists), so this is gigabytes already.
DEFAULT_MAX_EDGES = 100_000_000


class ExplicitRelation(MoveRelation):
    """A set of moves of an :class:`ExplicitGame`: a frozenset of (c, c') tuple pairs."""

    __slots__ = ("engine", "items")

    def __init__(self, engine: "ExplicitGame", items: frozenset):
        self.engine = engine
        self.items = items

    def count(self) -> int:
        return len(self.items)

    def pairs(self) -> list[tuple[tuple, tuple]]:
        return sorted(self.items)

    def sources(self) -> ExplicitSet:
        return ExplicitSet(self.engine, frozenset(c for c, _ in self.items))

    def image(self, source: PositionSet) -> ExplicitSet:
        s = self.engine._own(source).items
        return ExplicitSet(self.engine, frozenset(d for c, d in self.items if c in s))

    def restrict(self, source: PositionSet) -> "ExplicitRelation":
        s = self.engine._own(source).items
        return ExplicitRelation(self.engine, frozenset(p for p in self.items if p[0] in s))

    def pick(self) -> "ExplicitRelation":
        best: dict = {}
        for c, d in self.items:
            if c not in best or d < best[c]:
                best[c] = d
        return ExplicitRelation(self.engine, frozenset(best.items()))

    def _union(self, other): return ExplicitRelation(self.engine, self.items | other.items)
    def _same(self, other) -> bool: return self.items == other.items

class ExplicitGame(ExplicitSets, GameEngine):
    """A game by explicit enumeration of positions and successors (ENS 2005, §3–4).

    δ(c) is the union over moves m and parameter valuations v with guard(c):
    every position c' with effect(c, c') where every slot not primed in the
    effect (at v) keeps its value, listed by the plans of
    :mod:`symbolic.explicit.moves` (equations solved, the rest enumerated).

    >>> from symbolic.seeds.games import subtraction
    >>> from symbolic.ir import Var
    >>> G = ExplicitGame(subtraction(K=5))
    >>> G.successors((1, 4)).tuples()
    [(2, 1), (2, 2), (2, 3)]
    >>> lose = G.from_expr(Var("k").eq(0)) & G.turn_set({2})   # player 2 cannot move
    >>> G.until({1}, G.positions(), lose, dead_ends=DeadEnds.VACUOUS).result.tuples()
    [(1, 1), (1, 2), (1, 3), (1, 5), (2, 0), (2, 4)]
    """

    def __init__(self, game: Game, *, max_positions: int = DEFAULT_MAX_POSITIONS,
                 max_edges: int = DEFAULT_MAX_EDGES, limits: Limits | None = None):
        check_game(game)
        super().__init__(game.space, game.invariant, max_positions=max_positions, limits=limits)
        self.game = game
        self.max_edges = need_int(max_edges, "max_edges", low=1)
        turn = compile_expr(game.turn, game.space)
        if turn.type != INT:
            raise WrongType(f"the turn must be an int expression, got {type_name(turn.type)}",
                             getattr(game.turn, "span", None))
        self._turn_fn = turn.fn
        self._plans = compile_moves(game)
        # Built by _graph(), on the first query that needs the whole graph.
        self._succ: list[tuple[int, ...]] | None = None
        self._pred: list[list[int]] | None = None
        self._outdeg: list[int] | None = None
        self._dead: list[int] | None = None
        self._turns: list[int] | None = None
        self._by_player: dict[int, list[int]] | None = None
        self._masks: dict[frozenset, bytearray] = {}

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<ExplicitGame {self.game.name!r}: {n} positions>"

    def edge_bound(self) -> int:
        """An upper bound on the number of edges, known before any enumeration:
        the value vectors times the successors every move instance may give."""
        return self.space.size * sum(max_successors(p) for p in self._plans)

    def check_size(self) -> None:
        """QueryError when the positions or the edges may be too many to enumerate."""
        super().check_size()
        bound = self.edge_bound()
        if bound > self.max_edges:
            raise TooManyPositions(
                f"edge limit reached: the game may have up to {bound} edges ({self.space.size} value vectors "
                f"times up to {bound // max(self.space.size, 1)} successors each), more than the "
                f"explicit engine's limit of {self.max_edges}: use the symbolic engine",
                limit="edges", stage="before enumerating the positions")

    # ---------------------------------------------------------------- the graph

    def _graph(self):
        """Build δ over indices, the predecessor lists, out-degrees and turns (once)."""
        if self._succ is not None:
            return
        with self.limits.stage("building δ (explicit)"):
            dom = self._domain()
            member = self._index.get
            plans = self._plans
            check, total = self.limits.check, len(dom)
            succ = []
            for i, c in enumerate(dom):
                if not i & 1023:
                    check(f"position {i} of {total}")
                succ.append(tuple(sorted(successors(plans, c, member))))
        self._set_graph(succ)

    def _set_graph(self, succ: list[tuple[int, ...]]) -> None:
        """Keep δ as successor index tuples (one per position, sorted), and derive
        the predecessor lists, out-degrees, dead ends and turns from it."""
        pred: list[list[int]] = [[] for _ in succ]
        for i, ss in enumerate(succ):
            for j in ss:
                pred[j].append(i)
        self._outdeg = [len(ss) for ss in succ]
        self._dead = [i for i, d in enumerate(self._outdeg) if d == 0]
        self._pred = pred
        self._turn_table()
        self._succ = succ

    def _turn_table(self):
        """t(c) for every position, and the positions of each player (once)."""
        if self._turns is not None:
            return
        f = self._turn_fn
        turns = [f(c, None) for c in self._domain()]
        by_player: dict[int, list[int]] = {p: [] for p in self.game.players}
        for i, t in enumerate(turns):
            if t in by_player:
                by_player[t].append(i)
        self._by_player, self._turns = by_player, turns
        try:
            self.check_turns()  # on the tables just built
        except ModelError:
            self._by_player = self._turns = None  # every later query raises again
            raise

    def _mask(self, J: frozenset) -> bytearray:
        """mask[i] = 1 iff t(position i) ∈ J (cached per coalition)."""
        m = self._masks.get(J)
        if m is None:
            self._turn_table()
            m = bytearray(len(self._dom))
            for p in J:
                for i in self._by_player[p]:
                    m[i] = 1
            self._masks[J] = m
        return m

    # ---------------------------------------------------------------- GameEngine

    def turn_set(self, coalition: Iterable[int]) -> ExplicitSet:
        """tour_J = {c | t(c) ∈ J}; QueryError for an unknown player."""
        J = self.game.coalition(coalition)
        self._turn_table()
        return self._from_indices(i for p in J for i in self._by_player[p])

    def turn(self, pos) -> int:
        """t(c), the player to move at ``pos``."""
        self._turn_table()
        return self._turns[self.index(pos)]

    def successors(self, pos) -> ExplicitSet:
        """δ(c), computed for this position alone unless the graph is already built."""
        c = self._position(pos)
        if self._succ is not None:
            return self._from_indices(self._succ[self._index[c]])
        member = (lambda t: t) if self._inv is None else (
            lambda t: t if self._inv(t, None) else None)
        return ExplicitSet(self, frozenset(successors(self._plans, c, member)))

    def transitions(self, pos) -> list[tuple[str, dict, tuple]]:
        """δ(c) labelled by move: (move name, parameter valuation, successor) triples,
        in the order of the moves, then of the valuations, then of the successors."""
        c = self._position(pos)
        member = lambda t: t if self._is_position(t) else None  # noqa: E731
        out = []
        for plan in self._plans:  # declaration order of moves, then of valuations
            if plan.guard is None or plan.guard(c, None):
                found: set = set()
                apply(plan, c, member, found)
                out.extend((plan.move, dict(plan.env), t) for t in sorted(found))
        return out

    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> ExplicitSet:
        """pre∃(J, τ) = {c | t(c) ∈ J and ∃c' ∈ δ(c). c' ∈ τ}.

        Walks the predecessors of τ: O(|τ| + edges into τ).
        """
        J = self.game.coalition(coalition)
        tau = self._indices(self._own(target))
        self._graph()
        mine, pred = self._mask(J), self._pred
        out = {p for q in tau for p in pred[q] if mine[p]}
        return self._from_indices(out)

    def pre_forall(self, coalition: Iterable[int], target: PositionSet, *,
                   dead_ends: DeadEnds) -> ExplicitSet:
        """pre∀(J, τ) = {c | t(c) ∉ J and ∀c' ∈ δ(c). c' ∈ τ} (with STRICT: and δ(c) ≠ ∅).

        Counts, for each opponent predecessor of τ, its successors in τ; it
        qualifies when that count is its out-degree. VACUOUS adds the opponent
        positions without successors. O(|τ| + edges into τ + dead ends).
        """
        check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        tau = self._indices(self._own(target))
        self._graph()
        mine, pred, outdeg = self._mask(J), self._pred, self._outdeg
        hits: dict[int, int] = {}
        for q in tau:
            for p in pred[q]:
                if not mine[p]:
                    hits[p] = hits.get(p, 0) + 1
        out = [p for p, k in hits.items() if k == outdeg[p]]
        if dead_ends is DeadEnds.VACUOUS:
            out.extend(p for p in self._dead if not mine[p])
        return self._from_indices(out)

    def until(self, coalition: Iterable[int], stay: PositionSet, target: PositionSet, *,
              dead_ends: DeadEnds, keep_layers: bool = False) -> Fixpoint:
        """until(J, σ, τ) = ⋃ₙ untilₙ, until₀ = τ, untilₙ₊₁ = untilₙ ∪ (pre(J, untilₙ) ∩ σ).

        The linear-time attractor: each opponent position keeps a counter of its
        successors not yet in the set, and the set grows layer by layer, so
        layer n is exactly untilₙ ∖ untilₙ₋₁ and ``iterations`` is the number of
        non-empty layers added. With VACUOUS the opponent positions of σ ∖ τ
        without successors join in layer 1; with STRICT they never join.
        O(positions + edges).
        """
        check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        sigma = self._own(stay)
        tau = self._indices(self._own(target))
        self._graph()
        mine = self._mask(J)
        n = len(self._dom)
        if len(sigma) == n:
            closed = bytearray(n)
        else:
            closed = bytearray(b"\x01") * n
            for i in self._indices(sigma):
                closed[i] = 0
        extras = ([p for p in self._dead if not mine[p]]
                  if dead_ends is DeadEnds.VACUOUS else [])
        with self.limits.stage("computing until (attractor)"):
            layers = attract(self._pred, self._outdeg, mine, closed, tau, extras,
                             self.limits.check)
        return self._fixpoint(layers, keep_layers)

    def release(self, coalition: Iterable[int], left: PositionSet, right: PositionSet, *,
                dead_ends: DeadEnds) -> Fixpoint:
        """⟨⟨J⟩⟩ f R g = νZ. g ∩ (f ∪ pre(J, Z)), by duality with an attractor of the
        other players.

        Write J̄ = players ∖ J (t(c) ∉ J ⟺ t(c) ∈ J̄, turns being players).
        The complement Y = ¬Z is μY. ¬g ∪ (¬f ∩ ¬pre(J, ¬Y)), and

            c ∈ ¬pre(J, ¬Y) ⟺ t(c) ∈ J and ∀c' ∈ δ(c). c' ∈ Y      (∄ move out of Y)
                            or t(c) ∈ J̄ and ∃c' ∈ δ(c). c' ∈ Y      (not all moves in ¬Y)
                            or [STRICT] t(c) ∈ J̄ and δ(c) = ∅        (the strict ∀ fails)

        so Y is until(J̄, ¬f, ¬g) — J̄ attracts towards ¬g through ¬f only: a
        position of f ∩ g never joins, whatever its successors — in which the
        positions of J ∖ f without successors join at step 1 in both
        conventions (the first ∀ is J's ∃ negated, not a pre∀: it holds
        vacuously, as J cannot stay anywhere from a dead end), plus, with
        STRICT, the positions of J̄ ∖ f without successors (an opponent's dead
        end is not a forced move then). Hence a dead end c is in Z iff c ∈ g
        and (c ∈ f or, with VACUOUS only, t(c) ∈ J̄).

        ``iterations`` is the number of layers after the first of that dual
        attractor, which is also the number of strict decreases of Z₀ = g,
        Zₖ₊₁ = g ∩ (f ∪ pre(J, Zₖ)): with Yₖ = ¬Zₖ, Y₀ = ¬g is layer 0 and
        Yₖ₊₁ = ¬g ∪ (¬f ∩ ¬pre(J, ¬Yₖ)); the step is monotone and Z₁ ⊆ g = Z₀,
        so Yₖ grows, and layer k + 1 holds exactly Yₖ₊₁ ∖ Yₖ (a J̄ position
        with a successor in Yₖ, a J position whose counter of successors not
        yet in Y reached 0 while layer k was processed, or at k = 0 a dead end
        above). O(positions + edges).
        """
        check_dead_ends(dead_ends)
        J = self.game.coalition(coalition)
        f = self._own(left)
        g = self._own(right)
        self._graph()
        n = len(self._dom)
        mine = self._mask(J)
        theirs = bytearray(1 - b for b in mine)   # ∃-positions of the dual coalition J̄
        closed = bytearray(n)                     # outside σ = ¬f: the positions of f
        for i in self._indices(f):
            closed[i] = 1
        in_g = bytearray(n)
        for i in self._indices(g):
            in_g[i] = 1
        bad = [i for i in range(n) if not in_g[i]]
        if dead_ends is DeadEnds.VACUOUS:
            extras = [p for p in self._dead if mine[p]]
        else:
            extras = list(self._dead)
        with self.limits.stage("computing release (dual attractor)"):
            layers = attract(self._pred, self._outdeg, theirs, closed, bad, extras,
                             self.limits.check)
        lost = bytearray(n)
        for layer in layers:
            for i in layer:
                lost[i] = 1
        return Fixpoint(self._from_indices(i for i in range(n) if not lost[i]), len(layers) - 1)

    def post(self, source: PositionSet) -> ExplicitSet:
        """post(S): the successor lists of the positions of S. O(|S| + their edges)."""
        s = self._indices(self._own(source))
        self._graph()
        succ = self._succ
        return self._from_indices({j for i in s for j in succ[i]})

    def moves_between(self, source: PositionSet, target: PositionSet) -> ExplicitRelation:
        """{(c, c') | c ∈ S, c' ∈ T ∩ δ(c)} from the successor lists."""
        s = self._indices(self._own(source))
        t = self._own(target).items
        self._graph()
        dom, succ = self._dom, self._succ
        return ExplicitRelation(self, frozenset(
            (dom[i], dom[j]) for i in s for j in succ[i] if dom[j] in t))

    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        """Counts the lengths of the successor lists."""
        s = self._indices(self._own(source))
        self._graph()
        out: dict[int, int] = {}
        for i in s:
            d = self._outdeg[i]
            out[d] = out.get(d, 0) + 1
        return out

    def deadlocks(self) -> ExplicitSet:
        """Positions with no successor."""
        self._graph()
        return self._from_indices(self._dead)

    def _fixpoint(self, layers: list[list[int]], keep_layers: bool) -> Fixpoint:
        dom = self._dom
        acc: set = set()
        cumulative = []
        for layer in layers:
            acc.update(map(dom.__getitem__, layer))
            if keep_layers:
                cumulative.append(ExplicitSet(self, frozenset(acc)))
        result = cumulative[-1] if keep_layers else ExplicitSet(self, frozenset(acc))
        return Fixpoint(result, len(layers) - 1, tuple(cumulative) if keep_layers else None)

    # ---------------------------------------------------------------- explicit-only views

    def successor_indices(self, i: int) -> tuple[int, ...]:
        """δ of the position of index ``i``, as sorted indices (builds the graph)."""
        self._graph()
        return self._succ[i]

    def predecessor_indices(self, i: int) -> list[int]:
        """The positions with the position of index ``i`` in their δ, as indices."""
        self._graph()
        return list(self._pred[i])

    def position_at(self, i: int) -> tuple:
        """The position of index ``i``."""
        return self._domain()[i]

    @property
    def edge_count(self) -> int:
        """Σ_c |δ(c)| (builds the graph)."""
        self._graph()
        return sum(self._outdeg)

    # ---------------------------------------------------------------- two-player values

    def retrograde_values(self) -> dict[tuple, int | None]:
        """{position: value or None (a draw)} of a two-player game, by the retrograde
        sweep of :func:`symbolic.explicit.values.retrograde_values` (the reference for
        :func:`symbolic.analysis.values.two_player_values`)."""
        return _retrograde_values(self)
