"""The explicit reference engine: sets of position tuples and games by enumeration.

:class:`ExplicitSets` enumerates the domain of a :class:`~symbolic.ir.Space`
(the product of the slot ranges, filtered by an invariant) and represents sets
as frozensets of position tuples. :class:`ExplicitGame` adds the game: it
interprets the moves of the IR (via :mod:`symbolic.explicit.interp`) to list
δ(c) for every position, keeps successor and predecessor lists over integer
indices, and answers pre∃, pre∀, until and release with linear-time
counter-based algorithms. It shares no code with the BDD engine: it exists to
cross-check it, and as an honest peer in benchmarks.

Work is lazy: the domain is enumerated on first use and the graph is built on
the first query that needs it, so ``successors(c)`` of one position of a huge
game costs only that position's moves.

>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> E = ExplicitSets(Space((VarDecl("x", IntType(0, 3)), VarDecl("y", IntType(0, 3)))),
...                  invariant=Var("x") <= Var("y"))
>>> len(E.positions()), E.from_expr(Var("x").eq(Var("y"))).tuples()
(10, [(0, 0), (1, 1), (2, 2), (3, 3)])
>>> len(~E.from_expr(Var("x").eq(Var("y"))))
6
"""
from __future__ import annotations

import heapq
import itertools
from typing import Iterable

from ..api import (DeadEnds, Fixpoint, GameEngine, MoveRelation, PositionSet, SetEngine,
                   check_dead_ends)
from ..errors import EngineMismatch, ModelError, RangeError, TooManyPositions, WrongType
from ..ir import TRUE, Expr, Game, Space
from ..limits import Limits
from ..validate import check_expr, check_game
from .interp import BOOL, INT, compile_expr, type_name
from .moves import apply, compile_moves, max_successors, successors
from .values import retrograde_values as _retrograde_values

__all__ = ["ExplicitSet", "ExplicitSets", "ExplicitGame", "ExplicitRelation",
           "DEFAULT_MAX_POSITIONS", "DEFAULT_MAX_EDGES"]

#: Spaces larger than this (before the invariant) are refused rather than
#: enumerated: a tuple costs about 100 bytes, so this is already gigabytes.
DEFAULT_MAX_POSITIONS = 5_000_000
#: Games whose number of edges may exceed this are refused before enumeration:
#: an edge costs about 20 bytes (successor and predecessor lists), so this is
#: about 2 GB, and minutes of Python.
DEFAULT_MAX_EDGES = 100_000_000

#: bytes a position costs the explicit engine, about (its tuple, index entry,
#: successor and predecessor lists): with a memory cap (``--max-memory``) the
#: position limit is the cap divided by this, instead of DEFAULT_MAX_POSITIONS
BYTES_PER_POSITION = 500


class ExplicitSet(PositionSet):
    """A set of positions of an :class:`ExplicitSets` engine: a frozenset of tuples.

    Iteration and :meth:`tuples` are in lexicographic order; ``len``, ``in``,
    ``| & - ~``, ``==`` and ``<=`` follow :class:`~symbolic.api.PositionSet`.

    >>> from symbolic.ir import Space, VarDecl, IntType
    >>> E = ExplicitSets(Space((VarDecl("x", IntType(0, 2)),)))
    >>> a = E.from_tuples([(2,), (0,)])
    >>> a.tuples(), (1,) in a, len(~a), a <= E.positions()
    ([(0,), (2,)], False, 1, True)
    """

    __slots__ = ("engine", "items", "_sorted", "_idx")

    def __init__(self, engine: "ExplicitSets", items: frozenset):
        self.engine = engine
        #: the positions, as a frozenset of tuples (read-only by convention)
        self.items = items
        self._sorted = None  # cached sorted list
        self._idx = None     # cached engine indices (see ExplicitSets._indices)

    def count(self) -> int:
        return len(self.items)

    def _contains(self, pos: tuple) -> bool:
        return pos in self.items

    def tuples(self) -> list[tuple]:
        if self._sorted is None:
            self._sorted = sorted(self.items)
        return list(self._sorted)

    def _take(self, n: int):
        """The n smallest positions, in order, without sorting the whole set."""
        if self._sorted is not None or n >= len(self.items):
            return iter(self.tuples()[:n])
        return iter(heapq.nsmallest(n, self.items))

    def _union(self, other): return ExplicitSet(self.engine, self.items | other.items)
    def _inter(self, other): return ExplicitSet(self.engine, self.items & other.items)
    def _diff(self, other): return ExplicitSet(self.engine, self.items - other.items)
    def _same(self, other) -> bool: return self.items == other.items


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


class ExplicitSets(SetEngine):
    """Sets of positions of ``space`` by enumeration (ENS 2005, Q2–Q4).

    The domain is {c ∈ ∏ slot ranges | invariant(c)}, in lexicographic order
    (the order of :func:`itertools.product` over ascending ranges); position i
    of that order has index i.

    >>> from symbolic.ir import Space, VarDecl, IntType, Var
    >>> x, y, z = Var("x"), Var("y"), Var("z")
    >>> E = ExplicitSets(Space(tuple(VarDecl(v, IntType(0, 10)) for v in "xyz")))
    >>> A = E.from_expr((x * x + y * y).eq(z * z))
    >>> len(A), [t for t in A if 0 < t[0] < t[1]]
    (25, [(3, 4, 5), (6, 8, 10)])
    """

    kind = "explicit"

    def __init__(self, space: Space, invariant: Expr = TRUE, *,
                 max_positions: int = DEFAULT_MAX_POSITIONS, limits: Limits | None = None):
        self.space = space
        self.invariant = invariant
        self.limits = limits = limits if limits is not None else Limits()
        if limits.max_memory_bytes is not None:
            max_positions = limits.max_memory_bytes // BYTES_PER_POSITION
        self.max_positions = max_positions
        inv = compile_expr(check_expr(invariant, space), space)
        if inv.type != BOOL:
            raise WrongType(f"the invariant must be bool, got {type_name(inv.type)}",
                             getattr(invariant, "span", None))
        # None means "always true": most games have no invariant, skip the calls.
        self._inv = None if inv.folded and inv.value is True else inv.fn
        self._dom: list[tuple] | None = None
        self._index: dict[tuple, int] | None = None
        self._all: ExplicitSet | None = None

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<{type(self).__name__} over {[s.label for s in self.space.slots]}: {n} positions>"

    # ---------------------------------------------------------------- domain

    def check_size(self) -> None:
        """:class:`~symbolic.errors.TooManyPositions` (a QueryError and a
        LimitExceeded) when the space is too large to enumerate (before any work)."""
        size = self.space.size
        if size > self.max_positions:
            raise TooManyPositions(
                f"position limit reached: the space has {size} value vectors, more than the "
                f"explicit engine's limit of {self.max_positions} (--max-memory raises or "
                f"lowers it, at {BYTES_PER_POSITION} bytes a position): use the symbolic engine",
                stage="enumerating the positions")

    def _domain(self) -> list[tuple]:
        """The positions in lexicographic order (enumerated once)."""
        if self._dom is None:
            self.check_size()
            ranges = [s.type.values() for s in self.space.slots]
            inv = self._inv
            if inv is None:
                dom = list(itertools.product(*ranges))
            else:
                dom = [c for c in itertools.product(*ranges) if inv(c, None)]
            self._dom = dom
            self._index = dict(zip(dom, range(len(dom))))
        return self._dom

    def _is_position(self, pos: tuple) -> bool:
        """Invariant test for an in-range tuple, without enumerating the domain."""
        if self._index is not None:
            return pos in self._index
        return self._inv is None or bool(self._inv(pos, None))

    def _position(self, pos) -> tuple:
        """``pos`` normalised; RangeError out of range or where the invariant fails."""
        t = self.space.check_position(pos)
        if not self._is_position(t):
            raise RangeError(f"{t} is not a position: the invariant is false there")
        return t

    def _own(self, s) -> ExplicitSet:
        if not isinstance(s, ExplicitSet) or s.engine is not self:
            raise EngineMismatch(f"{s!r} is not a set of {self!r}: convert it first")
        return s

    def _indices(self, s: ExplicitSet) -> list[int]:
        """The indices of the positions of ``s`` (cached on the set)."""
        if s._idx is None:
            self._domain()
            index = self._index
            s._idx = [index[t] for t in s.items]
        return s._idx

    def _from_indices(self, idx: Iterable[int]) -> ExplicitSet:
        dom = self._domain()
        return ExplicitSet(self, frozenset(map(dom.__getitem__, idx)))

    # ---------------------------------------------------------------- SetEngine

    def empty(self) -> ExplicitSet:
        return ExplicitSet(self, frozenset())

    def positions(self) -> ExplicitSet:
        if self._all is None:
            self._all = ExplicitSet(self, frozenset(self._domain()))
        return self._all

    def from_tuples(self, tuples: Iterable) -> ExplicitSet:
        """The given positions (tuples, lists or dicts by slot label).

        RangeError for a value out of its slot's range, a wrong length, or a
        tuple where the invariant is false (it is not a position).
        """
        return ExplicitSet(self, frozenset(self._position(t) for t in tuples))

    def _from_expr(self, expr: Expr, env: dict) -> ExplicitSet:
        """{c ∈ domain | expr(c)} for a bool expression over current variables."""
        c = compile_expr(expr, self.space, env)
        if c.type != BOOL:
            raise WrongType(f"a set is defined by a bool expression, got {type_name(c.type)}",
                             getattr(expr, "span", None))
        if c.folded:
            return self.positions() if c.value else self.empty()
        f = c.fn
        return ExplicitSet(self, frozenset(t for t in self._domain() if f(t, None)))

    def index(self, pos) -> int:
        """The index of position ``pos`` in the lexicographic domain order."""
        t = self._position(pos)
        self._domain()
        return self._index[t]


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
        self.max_edges = max_edges
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
            layers = self._attract(mine, closed, tau, extras)
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
            layers = self._attract(theirs, closed, bad, extras)
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

    # ---------------------------------------------------------------- attractor core

    def _attract(self, exists: bytearray, closed: bytearray, target: list[int],
                 extras: list[int]) -> list[list[int]]:
        """Layers of the least fixpoint X₀ = target, Xₙ₊₁ = Xₙ ∪ step(Xₙ).

        step(X) holds, among the positions p with ``closed[p] == 0``, those with
        ``exists[p]`` and a successor in X, those without ``exists[p]`` whose
        successors are all in X and at least one of them (a counter of the
        successors not yet in X reaches 0), and at step 1 the ``extras``.
        ``closed`` is consumed (it marks positions outside σ and those already
        added). Returns [layer₀ = target, layer₁, ...], each layer the new
        positions only; every edge is looked at once, hence O(positions + edges).
        """
        pred = self._pred
        check = self.limits.check
        remaining = self._outdeg[:]  # counters, only read for ∀-positions
        for i in target:
            closed[i] = 1
        layer = list(target)
        layers = [layer]
        first = True
        while True:
            check(f"layer {len(layers)}", lambda: {"positions": len(layer)})
            nxt = []
            if first:
                for p in extras:
                    if not closed[p]:
                        closed[p] = 1
                        nxt.append(p)
                first = False
            for q in layer:
                for p in pred[q]:
                    if closed[p]:
                        continue
                    if exists[p]:
                        closed[p] = 1
                        nxt.append(p)
                    else:
                        r = remaining[p] - 1
                        remaining[p] = r
                        if r == 0:
                            closed[p] = 1
                            nxt.append(p)
            if not nxt:
                return layers
            layers.append(nxt)
            layer = nxt

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
