"""The query API shared by both engines: position sets, the dead-end conventions,
and the one fixpoint idiom.

Both engines (``symbolic.bdd.SymbolicGame`` and ``symbolic.explicit.ExplicitGame``)
implement :class:`GameEngine`; their results are :class:`PositionSet` objects,
so a differential test is one equality after :meth:`SetEngine.convert`. The
fixpoint idiom lives in :mod:`symbolic.fixpoint`, re-exported here.
"""
from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from typing import Iterable, Iterator, Mapping

from .arguments import need, need_mapping
from .errors import ArgumentTypeError, EngineMismatch, ModelError, QueryError
from .fixpoint import (Fixpoint, Reach, check_layer, check_reach, greatest_fixpoint,
                       least_fixpoint, union_all)
from .ir import Expr, Game, Space, Value
from .limits import NO_LIMITS
from .validate import check_expr

__all__ = ["DeadEnds", "check_dead_ends", "check_engine", "check_layer", "check_reach",
           "check_set", "Fixpoint", "Reach",
           "least_fixpoint", "greatest_fixpoint", "PositionSet", "SetEngine", "MoveRelation",
           "GameEngine", "difference_witness", "same_sets", "union_all"]


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
        raise QueryError(f"dead_ends must be DeadEnds.VACUOUS or DeadEnds.STRICT, "
                         f"got {dead_ends!r}")
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


def check_set(engine: "SetEngine", s, what: str = "the set") -> "PositionSet":
    """``s`` itself when it is a set of positions of ``engine``: ArgumentTypeError for
    anything else, EngineMismatch for a set of another engine."""
    need(s, PositionSet, what, hint=" (a PositionSet of the engine)")
    if s.engine is not engine:
        raise EngineMismatch(f"{what} is a set of {s.engine!r}, not of {engine!r}: convert it "
                             f"first (engine.convert)")
    return s


class PositionSet(ABC):
    """A set of positions of one engine's space, always inside its domain.

    Supports ``len``, ``in`` (tuple or dict), iteration in lexicographic order of
    position tuples, ``| & -``, ``~`` (complement within the positions), ``==``,
    ``<=`` (subset). Mixing sets of two engines raises :class:`EngineMismatch`:
    use :meth:`SetEngine.convert` first.
    """

    __slots__ = ()
    engine: "SetEngine"

    @abstractmethod
    def count(self) -> int:
        """The exact number of positions (a Python int, however large)."""

    def __len__(self) -> int:
        # len() is limited to sys.maxsize: count() is the exact, unbounded size
        return self.count()

    @abstractmethod
    def _contains(self, pos: tuple) -> bool: ...

    @abstractmethod
    def tuples(self) -> list[tuple]:
        """All positions as tuples, sorted lexicographically."""

    @abstractmethod
    def _union(self, other): ...

    @abstractmethod
    def _inter(self, other): ...

    @abstractmethod
    def _diff(self, other): ...

    @abstractmethod
    def _same(self, other) -> bool: ...

    def __contains__(self, pos) -> bool:
        return self._contains(self.engine.space.check_position(pos))

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.tuples())

    def _check(self, other) -> "PositionSet":
        if not isinstance(other, PositionSet) or other.engine is not self.engine:
            raise EngineMismatch(
                f"cannot combine a set of {self.engine!r} with {other!r}: convert it first")
        return other

    def __or__(self, other): return self._union(self._check(other))
    def __and__(self, other): return self._inter(self._check(other))
    def __sub__(self, other): return self._diff(self._check(other))
    def __invert__(self): return self.engine.positions() - self

    def __eq__(self, other) -> bool:
        if not isinstance(other, PositionSet):
            return NotImplemented
        return self._same(self._check(other))

    def __ne__(self, other) -> bool:
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None  # mutable-looking value semantics; not hashable on purpose

    def __le__(self, other) -> bool:
        return (self - other).is_empty()

    def is_empty(self) -> bool:
        return self.count() == 0

    def __bool__(self) -> bool:
        return not self.is_empty()

    def dicts(self) -> list[dict]:
        """All positions as ``{label: value}`` dicts, in lexicographic order."""
        return [self.engine.space.as_dict(t) for t in self.tuples()]

    def first(self) -> tuple | None:
        """The lexicographically smallest position, or None when empty."""
        t = self.tuples()
        return t[0] if t else None

    def take(self, n: int) -> Iterator[tuple]:
        """The ``n`` lexicographically smallest positions (fewer if the set is
        smaller), in order, lazily: each engine finds them without listing the
        whole set, so a set of 2**100 positions gives its first 10 at once.

        >>> from symbolic.ir import IntType, Space, VarDecl
        >>> from symbolic.engines import make_sets
        >>> S = make_sets(Space((VarDecl("x", IntType(0, 9)),)), "explicit")
        >>> list(S.positions().take(3))
        [(0,), (1,), (2,)]
        """
        if isinstance(n, bool) or not isinstance(n, int):
            raise QueryError(f"take(n) needs an int, got {type(n).__name__} {n!r}")
        if n < 0:
            raise QueryError(f"take(n) needs n >= 0, got {n}")
        return self._take(n)

    def _take(self, n: int) -> Iterator[tuple]:
        """:meth:`take` after validation; engines override it with a lazy version."""
        return iter(self.tuples()[:n])

    def _repr_html_(self) -> str:
        from .html import positions_html  # Jupyter: a count and at most 20 rows
        return positions_html(self)

    def __repr__(self) -> str:
        n = self.count()
        shown = self.tuples()[:5] if n <= 10_000 else []
        more = ", ..." if n > len(shown) else ""
        return f"<{self.engine.kind} PositionSet of {n}: {', '.join(map(str, shown))}{more}>"


class SetEngine(ABC):
    """Sets of positions over a :class:`Space` (ENS 2005, Q2–Q4)."""

    kind: str  # "symbolic" or "explicit"
    space: Space

    @abstractmethod
    def empty(self) -> PositionSet: ...

    @abstractmethod
    def positions(self) -> PositionSet:
        """Every position of the domain (values in range and the invariant holds)."""

    @abstractmethod
    def from_tuples(self, tuples: Iterable) -> PositionSet:
        """The set of the given positions (tuples or dicts); out-of-range values raise."""

    def from_expr(self, expr: Expr, env: Mapping[str, Value] | None = None) -> PositionSet:
        """The positions where the boolean state expression ``expr`` holds; ``env``
        binds the names (constants) it uses. It is validated first
        (:func:`symbolic.validate.check_expr`: no primed variable, ...), so each
        engine's :meth:`_from_expr` only evaluates."""
        if not isinstance(expr, Expr):
            hint = (": parse text first with parse_state_expr(text, model)"
                    if isinstance(expr, str) else "")
            raise ArgumentTypeError(f"from_expr needs an IR expression, got {expr!r}{hint}")
        env = dict(need_mapping(env, "env (name -> constant)") if env is not None else {})
        for k, v in env.items():
            need(k, str, "a name of env")
            need(v, (int, bool, tuple), f"env[{k!r}]")
        check_expr(expr, self.space, env)
        return self._from_expr(expr, env)

    @abstractmethod
    def _from_expr(self, expr: Expr, env: dict) -> PositionSet:
        """:meth:`from_expr` of an expression that passed validation."""

    def singleton(self, pos) -> PositionSet:
        return self.from_tuples([pos])

    def convert(self, other: PositionSet) -> PositionSet:
        """The same set of positions as a set of this engine (spaces must match)."""
        if other.engine is self:
            return other
        if other.engine.space != self.space:
            raise EngineMismatch("cannot convert between different position spaces")
        return self.from_tuples(other.tuples())


class MoveRelation(ABC):
    """A set of moves (c, c') of one engine's game, c' ∈ δ(c): a strategy's
    relation, or δ restricted to sources and targets (:meth:`GameEngine.moves_between`).

    The symbolic engine holds it as one BDD over current and next bits, the
    explicit engine as a frozenset of pairs of position tuples.
    """

    engine: "GameEngine"

    @abstractmethod
    def count(self) -> int:
        """The exact number of pairs."""

    @abstractmethod
    def pairs(self) -> list[tuple[tuple, tuple]]:
        """Every pair (c, c'), sorted lexicographically."""

    @abstractmethod
    def sources(self) -> PositionSet:
        """{c | ∃c'. (c, c') ∈ R}."""

    @abstractmethod
    def image(self, source: PositionSet) -> PositionSet:
        """R(S) = {c' | ∃c ∈ S. (c, c') ∈ R}."""

    @abstractmethod
    def restrict(self, source: PositionSet) -> "MoveRelation":
        """{(c, c') ∈ R | c ∈ S}."""

    @abstractmethod
    def pick(self) -> "MoveRelation":
        """A function inside R: for each source c, only its lexicographically
        smallest c' (the same choice on both engines)."""

    @abstractmethod
    def _union(self, other) -> "MoveRelation": ...

    @abstractmethod
    def _same(self, other) -> bool: ...

    def _check(self, other) -> "MoveRelation":
        if not isinstance(other, MoveRelation) or other.engine is not self.engine:
            raise EngineMismatch(f"cannot combine a relation of {self.engine!r} with {other!r}")
        return other

    def __or__(self, other): return self._union(self._check(other))

    def __eq__(self, other) -> bool:
        if not isinstance(other, MoveRelation):
            return NotImplemented
        return self._same(self._check(other))

    __hash__ = None

    def __len__(self) -> int:
        return self.count()

    def is_empty(self) -> bool:
        return self.count() == 0

    def table(self) -> dict[tuple, tuple]:
        """{c: smallest c'} over the sources: the relation as a position → move table."""
        return dict(self.pick().pairs())

    def __repr__(self) -> str:
        return f"<{self.engine.kind} MoveRelation of {self.count()} pairs>"


class GameEngine(SetEngine):
    """Queries on a game (ENS 2005, sections 3–4), implemented by both engines."""

    game: Game

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
    def pre_forall(self, coalition: Iterable[int], target: PositionSet, *,
                   dead_ends: DeadEnds) -> PositionSet:
        """pre∀(J, τ) = {c | t(c) ∉ J and ∀c' ∈ δ(c). c' ∈ τ}; with
        ``DeadEnds.STRICT`` also δ(c) ≠ ∅."""

    @abstractmethod
    def until(self, coalition: Iterable[int], stay: PositionSet, target: PositionSet, *,
              dead_ends: DeadEnds, keep_layers: bool = False) -> Fixpoint:
        """until(J, σ, τ) = ⋃ until_n, until_0 = τ,
        until_{n+1} = until_n ∪ (pre(J, until_n) ∩ σ)."""

    @abstractmethod
    def release(self, coalition: Iterable[int], left: PositionSet, right: PositionSet, *,
                dead_ends: DeadEnds) -> Fixpoint:
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

    def reachable(self, source: PositionSet, *, keep_layers: bool = False) -> Fixpoint:
        """reach(S) = μX. S ∪ post(X): the positions reachable from S in zero or
        more moves (the image fixpoint). Layer n holds those reachable within n moves.

        >>> from symbolic.seeds.games import arena
        >>> from symbolic.explicit import ExplicitGame
        >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1, 3: 1}, [(0, 1), (1, 2), (3, 0)]))
        >>> fp = G.reachable(G.from_tuples([(0,)]))
        >>> fp.result.tuples(), fp.iterations
        ([(0,), (1,), (2,)], 2)
        """
        # Only the positions added by the last step (the frontier) feed post: the
        # sets are those of μX. S ∪ post(X), at one image of the frontier per step.
        # (Connect Four 5 × 4: the same 21 steps, images of one layer each.)
        last = [source, self.empty()]

        def step(x):
            frontier = last[0] - last[1]
            last[1] = x
            y = x | self.post(frontier)
            last[0] = y
            return y
        return least_fixpoint(step, source, keep_layers=keep_layers,
                              limits=getattr(self, "limits", None),
                              name="computing reach (image fixpoint)")

    def reach_layers(self, source: PositionSet) -> "Reach":
        """The positions reachable from S split by distance: F_0 = S,
        F_{n+1} = post(F_n) ∖ (F_0 ∪ … ∪ F_n), up to the first empty F; and whether
        the reachable game is *graded*: post(F_n) = F_{n+1} for every n (every move
        goes exactly one layer up, as in games whose moves add one piece), which
        :meth:`until_layered` needs.

        >>> from symbolic.seeds.games import arena
        >>> from symbolic.explicit import ExplicitGame
        >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1, 3: 1}, [(0, 1), (0, 2), (1, 2), (3, 0)]))
        >>> r = G.reach_layers(G.from_tuples([(0,)]))
        >>> [f.tuples() for f in r.layers], r.graded, r.result.tuples()
        ([[(0,)], [(1,), (2,)]], False, [(0,), (1,), (2,)])
        >>> G.reach_layers(G.from_tuples([(3,)])).graded
        False
        >>> G.reach_layers(G.from_tuples([(1,)])).graded
        True
        """
        check_set(self, source, "the source")
        lim = getattr(self, "limits", None) or NO_LIMITS
        seen = frontier = source
        layers = [source]
        graded = True
        with lim.stage("computing reach layers"):
            while True:
                lim.check(f"layer {len(layers)}")
                image = self.post(frontier)
                frontier = image - seen
                if graded and frontier != image:
                    graded = False  # a move goes back to a layer already seen
                if frontier.is_empty():
                    return Reach(seen, tuple(layers), graded)
                layers.append(frontier)
                seen = seen | frontier

    def until_layered(self, coalition: Iterable[int], stay: PositionSet, target: PositionSet,
                      reach: "Reach", *, dead_ends: DeadEnds) -> Fixpoint:
        """until(J, σ, τ) ∩ R over the reachable positions R of a graded
        :class:`Reach` (from :meth:`reach_layers`), one step per layer from the
        farthest one down, instead of a fixpoint over all positions (the layered
        backward solution of Connect Four by BDDs, Edelkamp & Kissmann):

            U_n = F_n ∩ (τ ∪ (σ ∩ pre(J, ∅))),
            U_k = F_k ∩ (τ ∪ (σ ∩ (pre∃(J, U_{k+1}) ∪ pre∀(J, U_{k+1} ∪ ¬F_{k+1})))).

        Why it is until ∩ R: a position of F_k has all its successors in F_{k+1}
        (graded), so whether it is in until depends on U_{k+1} only, and ∀ over
        them may treat everything outside F_{k+1} as inside (that keeps the
        complement the BDD engine builds as small as F_{k+1} ∖ U_{k+1}).
        ``iterations`` is the number of layers; ``layers`` is None (the sets U_k
        themselves: :meth:`until_layers`).
        QueryError when ``reach`` is not graded (use :meth:`until`).

        >>> from symbolic.seeds.games import arena
        >>> from symbolic.explicit import ExplicitGame
        >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2, 3: 1, 4: 1}, [(0, 1), (0, 2), (1, 3), (2, 4)]))
        >>> r = G.reach_layers(G.from_tuples([(0,)]))
        >>> fp = G.until_layered({1}, G.positions(), G.from_tuples([(4,)]), r, dead_ends=DeadEnds.VACUOUS)
        >>> fp.result.tuples(), fp.iterations
        ([(0,), (2,), (4,)], 3)
        """
        wons = self.until_layers(coalition, stay, target, reach, dead_ends=dead_ends)
        return Fixpoint(union_all(self, wons), len(reach.layers))

    def until_layers(self, coalition: Iterable[int], stay: PositionSet, target: PositionSet,
                     reach: "Reach", *, dead_ends: DeadEnds) -> tuple[PositionSet, ...]:
        """(U_0, …, U_n) of :meth:`until_layered` (U_k = its result ∩ F_k), without
        their union: a caller that works layer by layer (the ply-by-ply table) never
        needs it. Same checks as :meth:`until_layered`."""
        check_dead_ends(dead_ends)
        check_reach(self, reach)
        J = self.game.coalition(coalition)
        check_set(self, stay, "stay")
        check_set(self, target, "the target")
        lim = getattr(self, "limits", None) or NO_LIMITS
        ours = self.layer_turns(J)
        won = self.empty()
        wons = []
        with lim.stage("computing until layer by layer"):
            for k in reversed(range(len(reach.layers))):
                lim.check(f"layer {k}")
                won = self.until_layer_step(J, reach, k, ours, won, stay, target,
                                            dead_ends=dead_ends)
                wons.append(won)
        return tuple(reversed(wons))

    def layer_turns(self, J: frozenset) -> PositionSet | None:
        """T_J, what :meth:`until_layer_step` takes as ``ours`` (None for a concurrent
        game, which has no turns: its pre-images do not read them)."""
        J = self.game.coalition(J)
        return None if getattr(self, "concurrent", False) else self.turn_set(J)

    def until_layer_step(self, J: frozenset, reach: "Reach", k: int, ours: PositionSet | None,
                         won: PositionSet, stay: PositionSet, target: PositionSet, *,
                         dead_ends: DeadEnds) -> PositionSet:
        """One layer of :meth:`until_layers`, J validated, ``ours`` = :meth:`layer_turns` (J):
        U_k = F_k ∩ (τ ∪ (σ ∩ (pre∃(J, U_{k+1}) ∪ pre∀(J, U_{k+1} ∪ ¬F_{k+1})))) from
        U_{k+1} = ``won`` (∅ above the last layer). Callers may interleave coalitions
        layer by layer (the ply-by-ply table); engines may override it (the BDD one)."""
        self.check_layer_step(J, reach, k, ours, won, stay, target, dead_ends)
        layer = reach.layers[k]
        above = reach.layers[k + 1] if k + 1 < len(reach.layers) else self.empty()
        step = self.layer_pre(J, reach, k, ours, won, above, dead_ends=dead_ends)
        # each term cut to F_k first: τ and σ span every position
        return (layer & target) | (layer & step & stay)

    def check_layer_step(self, J, reach, k, ours, won, stay, target, dead_ends) -> None:
        """The checks of :meth:`until_layer_step`'s arguments (``ours``: None on a
        concurrent game only), every engine's."""
        self.game.coalition(need(J, frozenset, "J", hint=" (engine.game.coalition(players))"))
        check_layer(check_reach(self, reach), k)
        for s, what in ((ours, "ours"), (won, "won"), (stay, "stay"), (target, "the target")):
            if s is not None or what != "ours" or not getattr(self, "concurrent", False):
                check_set(self, s, what)
        check_dead_ends(dead_ends)

    def layer_pre(self, J: frozenset, reach: "Reach", k: int, ours: PositionSet,
                  won: PositionSet, above: PositionSet, *, dead_ends: DeadEnds) -> PositionSet:
        """pre(J, U_{k+1}) on the positions of layer k of a graded ``reach`` (what
        :meth:`until_layered` needs; ``ours`` = T_J, ``won`` = U_{k+1}, ``above`` =
        F_{k+1}): only its intersection with F_k is read, so an engine may restrict
        the sources of its pre-images to F_k (the GDL symbolic engine does):

            F_k ∩ (pre∃(J, U_{k+1}) ∪ pre∀(J, U_{k+1} ∪ ¬F_{k+1})) ⊆ result.
        """
        layer = reach.layers[k]
        # a layer where only J (or only the others) moves needs one of the two
        # (in Connect Four every layer: the number of discs decides the mover)
        step = self.empty()
        if not (layer & ours).is_empty():
            step = self.pre_exists(J, won)
        if not (layer - ours).is_empty():
            step = step | self.pre_forall(J, won | ~above, dead_ends=dead_ends)
        return step

    def always(self, coalition: Iterable[int], invariant: PositionSet, *,
               dead_ends: DeadEnds) -> Fixpoint:
        """⟨⟨J⟩⟩□F = release(J, ∅, F) = νZ. F ∩ pre(J, Z).

        ``iterations`` counts the strict decreases of Z_0 = F,
        Z_{k+1} = F ∩ pre(J, Z_k)."""
        return self.release(coalition, self.empty(), invariant, dead_ends=dead_ends)

    def pre(self, coalition: Iterable[int], target: PositionSet, *,
            dead_ends: DeadEnds) -> PositionSet:
        """pre(J, τ) = pre∃(J, τ) ∪ pre∀(J, τ)."""
        return (self.pre_exists(coalition, target)
                | self.pre_forall(coalition, target, dead_ends=dead_ends))

    def attractor(self, coalition: Iterable[int], target: PositionSet, *,
                  keep_layers: bool = False) -> Fixpoint:
        """Attr_J(target) as in the reachability-games TD: until with σ = all positions
        and the ``STRICT`` dead-end convention."""
        return self.until(coalition, self.positions(), target,
                          dead_ends=DeadEnds.STRICT, keep_layers=keep_layers)

    def deadlocks(self) -> PositionSet:
        """Positions with no successor."""
        return self.positions() - self.pre_exists(self.game.players, self.positions())

    def check_turns(self) -> None:
        """ModelError unless the turn is a player at every position:
        positions ⊆ ⋃_{p ∈ players} tour_{p}; the error names the first position
        outside. Each engine calls it once its turn sets are known."""
        pos = (self.positions() - self.turn_set(self.game.players)).first()
        if pos is not None:
            raise ModelError(f"at position {self.space.as_dict(pos)} the turn is not a player "
                             f"(players: {list(self.game.players)})",
                             getattr(self.game.turn, "span", None))


def difference_witness(a: PositionSet, b: PositionSet) -> tuple | None:
    """The smallest position in exactly one of ``a`` and ``b`` (any engines), or None.

    >>> # difference_witness(symbolic_set, explicit_set) is None  when they agree
    """
    b = a.engine.convert(b)
    d = (a - b) | (b - a)
    return d.first()


def same_sets(a: PositionSet, b: PositionSet) -> bool:
    """True when ``a`` and ``b`` hold the same positions, across engines."""
    return a == a.engine.convert(b)
