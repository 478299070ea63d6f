"""The order of a GDL game's fluent bits in the BDD manager, chosen by exploring.

The grounded order sorts the fluents by name: ``(cell 1 1 b), (cell 1 1 o), …`` keeps a
cell's values together, as a board wants. Where the name puts the board last (the two
boards of doubletictactoe: ``(blank a board1), (blank a board2), …``) it interleaves two
independent boards, and the reachable set, a product, takes millions of nodes where the
order sorted on the reversed arguments (:func:`reversed_key`) keeps each board apart: the
exploration of doubletoetictac takes 0.5 s in that order and passes 5 minutes in the
grounded one. Neither wins everywhere (ticTacToe's reachable set: 1 040 nodes against
12 046), so the engine factory measures (:func:`build_in_best_order`): it builds the
engine in the grounded order and explores for :data:`PROBE_SECONDS` of CPU; a game
explored by then is kept as it is; otherwise a fresh engine explores the same time in the
other order, and the order that got further (more layers, else fewer nodes at the last
layer) is built again in full. A game of a few seconds pays nothing; a larger one pays
about twice the probe. The probe's time is counted at the end of each layer and, given
the request's limits, at each of their checks (:meth:`~symbolic.limits.Limits.budget`):
a bad order can spend minutes inside one layer (ticTacToeLarge's first layers in the
reversed order: 185 s before this check).

>>> reversed_key(("cell", "1", "2", "x")) < reversed_key(("cell", "2", "1", "o"))
False
"""

from __future__ import annotations

import contextlib
import time

from ..limits import Limits
from .ground import term_key

__all__ = [
    "PROBE_SECONDS",
    "better_progress",
    "build_in_best_order",
    "fluent_bit_order",
    "reversed_key",
]

#: the CPU seconds each order is explored for before the engine chooses
PROBE_SECONDS = 2.0


class _Budget(Exception):
    """The probe's time for one order is spent (caught by the probe)."""


def reversed_key(fluent):
    """The sort key of a fluent by its arguments from the last to the first, then its name."""
    return term_key(tuple(reversed(fluent))) if isinstance(fluent, tuple) else term_key(fluent)


def better_progress(theirs: list[int], ours: list[int], ours_done: bool) -> bool:
    """Whether an exploration whose layers took ``ours`` nodes (complete when
    ``ours_done``) went further in the same time than one that took ``theirs``: complete,
    or more layers, or as many and fewer nodes at the last.

    >>> better_progress([10, 200], [10, 50], False), better_progress([10], [10, 50, 9], False)
    (True, True)
    >>> better_progress([10, 20, 30], [10, 50], True), better_progress([10, 20], [10, 50], False)
    (True, False)
    """
    if ours_done:
        return True
    if len(ours) != len(theirs):
        return len(ours) > len(theirs)
    return bool(ours) and ours[-1] < theirs[-1]


def build_in_best_order(build, on_layer, fluents, limits: Limits | None = None):
    """``build(fluent_order, on_layer)`` (an engine's constructor, exploring: see
    :meth:`~.symbolic.GdlSymbolicGame.__init__`'s ``fluent_order``) in the order of the
    fluent bits that measures best (module docstring); each try that runs out of time is
    dropped with its manager, a try that ends is the engine returned. No probe when the
    two orders of ``fluents`` (the grounded ones) are the same. ``limits``: those the
    engine checks, which then end a try inside a layer too."""
    if sorted(fluents, key=reversed_key) == list(fluents):
        return build("grounded", on_layer)
    spent: list[int] = []
    try:
        with _within_budget(limits):
            return build("grounded", _budgeted(spent, on_layer))
    except _Budget:
        pass
    tried: list[int] = []
    try:
        with _within_budget(limits):
            return build("reversed", _budgeted(tried, None))
    except _Budget:
        pass
    best = "reversed" if better_progress(spent, tried, False) else "grounded"
    return build(best, on_layer)


def _within_budget(limits: Limits | None):
    """The probe's time on ``limits``' checks, or nothing without limits."""
    if limits is None:
        return contextlib.nullcontext()
    return limits.budget(PROBE_SECONDS, _Budget)


def _budgeted(nodes: list, report):
    """An ``on_layer`` that appends each layer's nodes to ``nodes``, passes the layer to
    ``report`` (when not None) and raises :class:`_Budget` past :data:`PROBE_SECONDS`
    of CPU from its making."""
    start = time.process_time()

    def on_layer(n, count, size):
        if report is not None:
            report(n, count, size)
        nodes.append(size)
        if time.process_time() - start > PROBE_SECONDS:
            raise _Budget

    return on_layer


def fluent_bit_order(names, fluents, bits) -> list:
    """``names`` (a manager's variables) with the bits of ``fluents`` (``bits``: fluent →
    (current bit, next bit)) laid out in the order of :func:`reversed_key`, the other
    variables keeping their levels.

    >>> fluent_bit_order(["a", "a'", "z", "b", "b'"], [("p", "2"), ("p", "1")],
    ...                  {("p", "2"): ("a", "a'"), ("p", "1"): ("b", "b'")})
    ['b', "b'", 'z', 'a', "a'"]
    """
    own = {b for f in fluents for b in bits[f]}
    laid = iter([b for f in sorted(fluents, key=reversed_key) for b in bits[f]])
    return [next(laid) if n in own else n for n in names]
