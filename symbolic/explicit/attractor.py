"""The explicit engines' counting algorithms over index arrays, in linear time.

The turn-based queries of every explicit engine, on its
:class:`~.graph.IndexedGraph` and the mask of a coalition's positions
(:meth:`~.graph.TurnTable.mask`), positions as indices: :func:`pre_exists`
(walks the predecessors of τ), :func:`pre_forall` (a counter per predecessor),
and every query that grows a set backwards — :func:`until_layers`, and
:func:`release_layers` through its dual — one call of :func:`attract`, the
counter-based least fixpoint over the predecessor lists.

>>> # 0 -> 1 -> 2, 0 -> 2: position 0 is a ∀-position, 1 an ∃-position
>>> attract([[], [0], [0, 1]], [2, 1, 0], bytearray([0, 1, 0]), bytearray(3), [2], [])
[[2], [1], [0]]
>>> from .graph import IndexedGraph
>>> g, mine = IndexedGraph.of([(1, 2), (2,), ()]), bytearray([0, 1, 0])
>>> sorted(pre_exists(g, mine, [2])), pre_forall(g, mine, [1, 2], vacuous=True)
([1], [0, 2])
"""

from __future__ import annotations

from typing import Callable, MutableSequence, Sequence

from .graph import IndexedGraph

__all__ = ["attract", "pre_exists", "pre_forall", "until_layers", "release_layers"]


def pre_exists(graph: IndexedGraph, mine: bytearray, tau: list[int]) -> set[int]:
    """{p | mine[p] and some successor of p in τ}, walking the predecessors of τ:
    O(|τ| + edges into τ)."""
    pred = graph.pred
    return {p for q in tau for p in pred[q] if mine[p]}


def pre_forall(graph: IndexedGraph, mine: bytearray, tau: list[int], *, vacuous: bool) -> list[int]:
    """{p | not mine[p] and every successor of p in τ, at least one} (with ``vacuous``:
    also the positions not mine without successors).

    Counts, for each opponent predecessor of τ, its successors in τ; it qualifies
    when that count is its out-degree. O(|τ| + edges into τ + dead ends).
    """
    pred, outdeg = graph.pred, graph.outdeg
    hits: dict[int, int] = {}
    for q in tau:
        for p in pred[q]:
            if not mine[p]:
                hits[p] = hits.get(p, 0) + 1
    out = [p for p, k in hits.items() if k == outdeg[p]]
    if vacuous:
        out.extend(p for p in graph.dead if not mine[p])
    return out


def until_layers(
    graph: IndexedGraph,
    mine: bytearray,
    stay: list[int] | None,
    tau: list[int],
    *,
    vacuous: bool,
    check: Callable | None = None,
) -> list[list[int]]:
    """The layers of until(J, σ, τ) (:func:`attract` with J's positions ∃): ``stay``
    the indices of σ, None for every position; with ``vacuous`` the opponent
    positions without successors join in layer 1."""
    n = len(graph)
    if stay is None:
        closed = bytearray(n)
    else:
        closed = bytearray(b"\x01") * n
        for i in stay:
            closed[i] = 0
    extras = [p for p in graph.dead if not mine[p]] if vacuous else []
    return attract(graph.pred, graph.outdeg, mine, closed, tau, extras, check)


def release_layers(
    graph: IndexedGraph,
    mine: bytearray,
    left: list[int],
    right: list[int],
    *,
    vacuous: bool,
    check: Callable | None = None,
) -> list[list[int]]:
    """The layers of the dual attractor of release(J, f, g) (``left``, ``right``: the
    indices of f and g): until(J̄, ¬f, ¬g) in which the positions of J ∖ f without
    successors join at step 1, and with STRICT (not ``vacuous``) those of J̄ ∖ f too.
    Its union is the complement of the release
    (:meth:`~symbolic.explicit.counting.CountingGame.release` has the argument)."""
    n = len(graph)
    theirs = bytearray(1 - b for b in mine)  # ∃-positions of the dual coalition J̄
    closed = bytearray(n)  # outside σ = ¬f: the positions of f
    for i in left:
        closed[i] = 1
    in_g = bytearray(n)
    for i in right:
        in_g[i] = 1
    bad = [i for i in range(n) if not in_g[i]]
    extras = [p for p in graph.dead if mine[p]] if vacuous else list(graph.dead)
    return attract(graph.pred, graph.outdeg, theirs, closed, bad, extras, check)


def attract(
    pred: Sequence[Sequence[int]],
    outdeg: MutableSequence[int],
    exists: bytearray,
    closed: bytearray,
    target: list[int],
    extras: list[int],
    check: Callable | None = None,
) -> list[list[int]]:
    """Layers of the least fixpoint X₀ = target, Xₙ₊₁ = Xₙ ∪ step(Xₙ).

    step(X) holds, among the positions p with ``closed[p] == 0``, those with
    ``exists[p]`` and a successor in X, those without ``exists[p]`` whose
    successors are all in X and at least one of them (a counter of the
    successors not yet in X reaches 0), and at step 1 the ``extras``.
    ``pred[q]`` lists the predecessors of q, ``outdeg[p]`` counts p's successors;
    ``check`` (a :meth:`symbolic.limits.Limits.check`) is called once per layer.
    ``closed`` is consumed (it marks positions outside σ and those already
    added). Returns [layer₀ = target, layer₁, ...], each layer the new
    positions only; every edge is looked at once, hence O(positions + edges).
    """
    remaining = outdeg[:]  # counters, only read for ∀-positions
    for i in target:
        closed[i] = 1
    layer = list(target)
    layers = [layer]
    first = True
    while True:
        if check is not None:
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
