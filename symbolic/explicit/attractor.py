"""The explicit engine's attractor: a least fixpoint over predecessor lists, in linear time.

Every query that grows a set backwards (``until``, and ``release`` through
its dual) is one call of :func:`attract` on the successor counts and
predecessor lists of :class:`~symbolic.explicit.engine.ExplicitGame`.

>>> # 0 -> 1 -> 2, 0 -> 2: position 0 is a ∀-position, 1 an ∃-position
>>> attract([[], [0], [0, 1]], [2, 1, 0], bytearray([0, 1, 0]), bytearray(3), [2], [])
[[2], [1], [0]]
"""
from __future__ import annotations

from typing import Callable

__all__ = ["attract"]


def attract(pred: list[list[int]], outdeg: list[int], exists: bytearray, closed: bytearray,
            target: list[int], extras: list[int], check: Callable | None = None
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
