"""The layered family: solving over the positions reachable from a source, one
distance layer at a time, instead of a fixpoint over every position (the layered
backward solution of Connect Four by BDDs, Edelkamp & Kissmann). Free functions over
any :class:`~symbolic.api.engine.GameEngine`; the engines' hooks are
:meth:`~symbolic.api.engine.GameEngine.until_layer_step` (one layer) and
:meth:`~symbolic.api.engine.GameEngine.layer_pre` (its pre-image).

One name per concept:

- :func:`reach_layers`: F_0 = S, F_{n+1} = post(F_n) ∖ (F_0 ∪ … ∪ F_n), and whether
  the game is *graded* from S (every move goes exactly one layer up), as a
  :class:`~symbolic.fixpoint.ReachLayers`; :func:`graded_layers`: the same layers when
  graded, else None, found at the first move back into a layer already seen;
- :func:`until_layered`: until(J, σ, τ) ∩ R as a :class:`~symbolic.fixpoint.Fixpoint`;
  :func:`until_by_layer`: its parts U_k = until ∩ F_k, never their union;
  :func:`until_approximations`: until ∩ R with its approximations until_n ∩ R (the
  ranks); :func:`layer_turns`: what the steps take as ``ours``;
- :func:`graded_levels`: levels C_k ⊇ F_k the model declares, checked, which the steps
  may read in place of the layers;
- :func:`layer_counts`: |F_0|, |F_1|, …, counted as the layers are made, one layer held
  at a time when disjoint levels C_k ⊇ F_k are given.

>>> from symbolic.seeds.games import arena
>>> from symbolic.explicit import ExplicitGame
>>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2, 3: 1, 4: 1}, [(0, 1), (0, 2), (1, 3), (2, 4)]))
>>> r = graded_layers(G, G.from_tuples([(0,)]))
>>> [f.tuples() for f in r.layers]
[[(0,)], [(1,), (2,)], [(3,), (4,)]]
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ..fixpoint import Fixpoint, ReachLayers, check_reach, union_all
from ..errors import QueryError
from .engine import DeadEnds, GameEngine, check_dead_ends, check_engine
from .sets import PositionSet, check_set

__all__ = [
    "reach_layers",
    "graded_layers",
    "until_layered",
    "until_by_layer",
    "until_approximations",
    "layer_turns",
    "graded_levels",
    "layer_counts",
]


def reach_layers(engine: GameEngine, source: PositionSet) -> ReachLayers:
    """The positions reachable from S split by distance: F_0 = S,
    F_{n+1} = post(F_n) ∖ (F_0 ∪ … ∪ F_n), up to the first empty F; and whether
    the reachable game is *graded*: post(F_n) = F_{n+1} for every n (every move
    goes exactly one layer up, as in games whose moves add one piece), which
    :func:`until_layered` needs.

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1, 3: 1}, [(0, 1), (0, 2), (1, 2), (3, 0)]))
    >>> r = reach_layers(G, G.from_tuples([(0,)]))
    >>> [f.tuples() for f in r.layers], r.graded, r.result.tuples()
    ([[(0,)], [(1,), (2,)]], False, [(0,), (1,), (2,)])
    >>> reach_layers(G, G.from_tuples([(3,)])).graded
    False
    >>> reach_layers(G, G.from_tuples([(1,)])).graded
    True
    """
    check_set(check_engine(engine), source, "the source")
    lim = engine.limits
    seen = frontier = source
    layers = [source]
    graded = True
    with lim.stage("computing reach layers"):
        while True:
            lim.check(f"layer {len(layers)}")
            image = engine.post(frontier)
            frontier = image - seen
            if graded and frontier != image:
                graded = False  # a move goes back to a layer already seen
            if frontier.is_empty():
                return ReachLayers(seen, tuple(layers), graded)
            layers.append(frontier)
            seen = seen | frontier


def graded_layers(engine: GameEngine, source: PositionSet) -> ReachLayers | None:
    """The layers F_0 = S, F_{n+1} = post(F_n) of the positions reachable from S when
    they are pairwise disjoint (a graded :class:`~symbolic.fixpoint.ReachLayers`, as
    :func:`reach_layers` gives), else None, found at the first image that meets a
    layer already seen (without the rest of the forward search)."""
    check_set(check_engine(engine), source, "the source")
    lim = engine.limits
    seen = frontier = source
    layers = [source]
    with lim.stage("computing the reachable layers"):
        while True:
            lim.check(f"layer {len(layers)}")
            image = engine.post(frontier)
            if image.is_empty():
                return ReachLayers(seen, tuple(layers), True)
            if not (image & seen).is_empty():
                return None  # a move goes back to a layer already seen
            layers.append(image)
            seen = seen | image
            frontier = image


def layer_counts(
    engine: GameEngine,
    source: PositionSet,
    level: Callable[[int], PositionSet] | None = None,
    on_layer: Callable[[int, int], None] | None = None,
) -> tuple[int, ...]:
    """|F_0|, |F_1|, …: the positions of each layer of :func:`reach_layers` from S (first
    reached after k moves), each counted as soon as it is made (``on_layer(k, |F_k|)``).

    Without ``level``: F_{n+1} = post(F_n) ∖ (F_0 ∪ … ∪ F_n), the union kept. With
    ``level`` (k ↦ C_k, levels a model declares), one layer is held at a time:

        F_{n+1} = post(F_n),  checked F_k ⊆ C_k and C_j ∩ C_k = ∅ (j < k),

    exact since then post(F_n) ⊆ C_{n+1} meets no F_j ⊆ C_j of an earlier layer: the
    union of the layers, the largest BDD of a forward search, is never made, and each
    layer is dropped once its image is. QueryError where a level misses a position of
    its layer, or two levels meet.

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2, 3: 1}, [(0, 1), (0, 2), (1, 3), (3, 0)]))
    >>> layer_counts(G, G.from_tuples([(0,)]))
    (1, 2, 1)
    >>> layer_counts(G, G.from_tuples([(0,)]), lambda k: G.from_tuples([(k,)]))
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: level(1) does not hold the positions of layer 1 (at distance 1 from the start)
    """
    check_set(check_engine(engine), source, "the source")
    lim = engine.limits
    counts: list[int] = []
    levels: list[PositionSet] = []
    seen = frontier = source
    with lim.stage("counting the reachable layers"):
        while not frontier.is_empty():
            k = len(counts)
            if level is not None:
                levels.append(_disjoint_level(engine, level, k, frontier, levels))
            counts.append(frontier.count())
            if on_layer is not None:
                on_layer(k, counts[-1])
            lim.check(f"layer {k + 1}")
            frontier = engine.post(frontier)
            if level is None:  # the union of the layers seen tells the new positions
                frontier = frontier - seen
                seen = seen | frontier
    return tuple(counts)


def _disjoint_level(engine, level, k: int, layer: PositionSet, levels: list) -> PositionSet:
    """C_k = level(k), checked: it holds F_k (``layer``) and meets no earlier level."""
    c = level(k)
    check_set(engine, c, "a level")
    _check_holds(layer, c, k)
    for j, cj in enumerate(levels):
        if not (c & cj).is_empty():
            raise QueryError(
                f"level({j}) and level({k}) share positions: counting one layer at a time "
                "needs disjoint levels"
            )
    return c


def graded_levels(
    engine: GameEngine, reach: ReachLayers, levels: Sequence[PositionSet], name: str = "level"
) -> ReachLayers:
    """Levels C_0, …, C_n, one per layer F_k of the graded ``reach`` and each holding it
    (F_k ⊆ C_k, checked), as a graded :class:`~symbolic.fixpoint.ReachLayers` that
    :meth:`~symbolic.api.engine.GameEngine.until_layer_step` reads in place of the
    layers. The steps over the levels give sets U_k ⊆ C_k with

        U_k ∩ F_k = until ∩ F_k,

    by induction from the last layer: a position of F_k has all its successors in
    F_{k+1} ⊆ C_{k+1}, where U_{k+1} is right; what U_k holds outside F_k is never read
    for F_k. Why: a level (Connect Four's boards of k discs, unreachable ones included)
    can have a smaller BDD than the layer, and so can the won sets cut to it. QueryError
    (naming ``name``(k)) where a level misses a position of its layer.

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2, 3: 1}, [(0, 1), (1, 2)]))
    >>> r = graded_layers(G, G.from_tuples([(0,)]))
    >>> C = [G.from_tuples(t) for t in ([(0,), (3,)], [(1,)], [(2,)])]
    >>> [c.tuples() for c in graded_levels(G, r, C).layers]
    [[(0,), (3,)], [(1,)], [(2,)]]
    >>> graded_levels(G, r, C[::-1])
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: level(0) does not hold the positions of layer 0 (at distance 0 from the start)
    """
    check_reach(check_engine(engine), reach)
    if not reach.graded:
        raise QueryError("levels need graded layers (reach_layers(...).graded)")
    levels = tuple(levels)
    for c in levels:
        check_set(engine, c, f"a {name}")
    if len(levels) != len(reach.layers):
        raise QueryError(f"{len(levels)} levels for {len(reach.layers)} layers")
    for k, (layer, c) in enumerate(zip(reach.layers, levels)):
        _check_holds(layer, c, k, name)
    return ReachLayers(engine.empty(), levels, True, None)


def _check_holds(layer: PositionSet, c: PositionSet, k: int, name: str = "level") -> None:
    """QueryError unless F_k ⊆ C_k (``layer``, ``c``: the level ``name``(k))."""
    if not (layer - c).is_empty():
        raise QueryError(
            f"{name}({k}) does not hold the positions of layer {k} (at distance {k} from the start)"
        )


def until_layered(
    engine: GameEngine,
    coalition: Iterable[int],
    stay: PositionSet,
    target: PositionSet,
    reach: ReachLayers,
    *,
    dead_ends: DeadEnds,
) -> Fixpoint:
    """until(J, σ, τ) ∩ R over the reachable positions R of a graded
    :class:`~symbolic.fixpoint.ReachLayers` (from :func:`reach_layers`), one step per
    layer from the farthest one down, instead of a fixpoint over all positions:

        U_n = F_n ∩ (τ ∪ (σ ∩ pre(J, ∅))),
        U_k = F_k ∩ (τ ∪ (σ ∩ (pre∃(J, U_{k+1}) ∪ pre∀(J, U_{k+1} ∪ ¬F_{k+1})))).

    Why it is until ∩ R: a position of F_k has all its successors in F_{k+1}
    (graded), so whether it is in until depends on U_{k+1} only, and ∀ over
    them may treat everything outside F_{k+1} as inside (that keeps the
    complement the BDD engine builds as small as F_{k+1} ∖ U_{k+1}).
    ``iterations`` is the number of layers; ``layers`` is None (the sets U_k
    themselves: :func:`until_by_layer`).
    QueryError when ``reach`` is not graded (use ``engine.until``).

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2, 3: 1, 4: 1}, [(0, 1), (0, 2), (1, 3), (2, 4)]))
    >>> r = reach_layers(G, G.from_tuples([(0,)]))
    >>> fp = until_layered(G, {1}, G.positions(), G.from_tuples([(4,)]), r,
    ...                    dead_ends=DeadEnds.VACUOUS)
    >>> fp.result.tuples(), fp.iterations
    ([(0,), (2,), (4,)], 3)
    """
    wons = until_by_layer(engine, coalition, stay, target, reach, dead_ends=dead_ends)
    return Fixpoint(union_all(engine, wons), len(reach.layers))


def until_by_layer(
    engine: GameEngine,
    coalition: Iterable[int],
    stay: PositionSet,
    target: PositionSet,
    reach: ReachLayers,
    *,
    dead_ends: DeadEnds,
) -> tuple[PositionSet, ...]:
    """(U_0, …, U_n) of :func:`until_layered` (U_k = its result ∩ F_k), without
    their union: a caller that works layer by layer (the ply-by-ply table) never
    needs it. Same checks as :func:`until_layered`."""
    check_dead_ends(dead_ends)
    check_reach(check_engine(engine), reach)
    J = engine.game.coalition(coalition)
    check_set(engine, stay, "stay")
    check_set(engine, target, "the target")
    lim = engine.limits
    ours = layer_turns(engine, J)
    won = engine.empty()
    wons = []
    with lim.stage("computing until layer by layer"):
        for k in reversed(range(len(reach.layers))):
            lim.check(f"layer {k}")
            won = engine.until_layer_step(J, reach, k, ours, won, stay, target, dead_ends=dead_ends)
            wons.append(won)
    return tuple(reversed(wons))


def layer_turns(engine: GameEngine, J: Iterable[int]) -> PositionSet | None:
    """T_J, what :meth:`~symbolic.api.engine.GameEngine.until_layer_step` takes as
    ``ours`` (None for a concurrent game, which has no turns: its pre-images do not
    read them)."""
    J = check_engine(engine).game.coalition(J)
    return None if engine.concurrent else engine.turn_set(J)


def until_approximations(
    engine: GameEngine,
    coalition: Iterable[int],
    stay: PositionSet,
    target: PositionSet,
    reach: ReachLayers,
    *,
    dead_ends: DeadEnds,
) -> Fixpoint:
    """until(J, σ, τ) ∩ R with its approximations until_n ∩ R: ``layers`` as
    ``engine.until`` with ``keep_layers`` gives them (strictly increasing, the last one
    the result), over R only. A position of F_k has all its successors in F_{k+1}, so

        until_{n+1} ∩ F_k = F_k ∩ (τ ∪ (σ ∩ pre(J, until_n ∩ F_{k+1}))),

    (pre∀ may treat every position outside F_{k+1} as inside, as :func:`until_layered`
    does). This runs from the farthest layer down: layer k's sequence A^k_0 ⊆ A^k_1 ⊆ …
    is stable one step after layer k+1's, and until_n ∩ R = ⋃_k A^k_min(n, last_k). So
    the rank of a position of R (the least n with c ∈ until_n) is the plain one. The
    pre-images are over one layer's sets, never over the union of all the
    approximations.

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 2, 3: 1, 4: 1}, [(0, 1), (0, 2), (1, 3), (2, 4)]))
    >>> r = graded_layers(G, G.from_tuples([(0,)]))
    >>> fp = until_approximations(G, {1}, G.positions(), G.from_tuples([(4,)]), r,
    ...                           dead_ends=DeadEnds.VACUOUS)
    >>> [u.tuples() for u in fp.layers]
    [[(4,)], [(2,), (4,)], [(0,), (2,), (4,)]]
    """
    if not isinstance(reach, ReachLayers) or not reach.graded:
        raise QueryError(f"a layered until needs graded layers, got {reach!r}")
    J = check_engine(engine).game.coalition(coalition)
    check_reach(engine, reach)
    check_dead_ends(dead_ends)
    stay = reach.result & check_set(engine, stay, "stay")
    target = reach.result & check_set(engine, target, "the target")
    lim = engine.limits
    ours = layer_turns(engine, J)  # None on a concurrent game (no turns)
    per_layer: list[list[PositionSet]] = [[] for _ in reach.layers]
    above, nxt = engine.empty(), [engine.empty()]
    with lim.stage("computing until layer by layer, with its ranks"):
        for k in reversed(range(len(reach.layers))):
            layer = reach.layers[k]
            lim.check(f"layer {k}")
            seq = [layer & target]
            steps = engine.layer_pres(J, reach, k, ours, nxt, above, dead_ends=dead_ends)
            seq.extend(layer & (target | (stay & step)) for step in steps)
            while len(seq) > 1 and seq[-1] == seq[-2]:
                seq.pop()
            per_layer[k] = seq
            above, nxt = layer, seq
    depth = max(len(s) for s in per_layer)
    layers = []
    for n in range(depth):
        u = engine.empty()
        for seq in per_layer:
            u = u | seq[min(n, len(seq) - 1)]
        layers.append(u)
    return Fixpoint(layers[-1], depth - 1, tuple(layers))
