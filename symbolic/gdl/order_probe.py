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
other order; the reversed order is kept (or built in full) when it found
:data:`LAYER_MARGIN` more layers, ended or not, else the grounded one is built. A game
of a few seconds pays nothing; a larger one pays about twice the probe. The probe's time
is counted at the end of each layer and, given the request's limits, at each of their
checks
(:meth:`~symbolic.limits.Limits.budget`): a bad order can spend minutes inside one layer
(ticTacToeLarge's first layers in the reversed order: 185 s before this check). The
margin, because neither fewer nodes nor one more layer tells the faster order:
simultaneousWin2's reversed order keeps 149 nodes at layer 2 against 636, then takes over
30 s for layer 3, the grounded one 1.1 s; sheepAndWolf's finds 7 or 8 layers in 5 s as the
grounded one does, depending on the load, and its sets then grow 12 times larger (past
300 s against 42 s); snake2p's reversed order explores the whole game within 5 s, where
the grounded one finds 6 of its 7 layers, and then its fixpoints pass 300 s against 11 s
for the whole solution in the grounded order (8 layers against 6: hence a margin of 3,
which the games that need the reversed order pass by 4 to 46 layers).

>>> reversed_key(("cell", "1", "2", "x")) < reversed_key(("cell", "2", "1", "o"))
False
"""

from __future__ import annotations

import time

from ..limits import Limits
from .ground import term_key

__all__ = [
    "LAYER_MARGIN",
    "PROBE_SECONDS",
    "better_progress",
    "build_in_best_order",
    "fluent_bit_order",
    "reversed_key",
]

#: the CPU seconds each order is explored for before the engine chooses
PROBE_SECONDS = 5.0
#: how many more layers the reversed order must find in that time to be chosen
LAYER_MARGIN = 3


class _Budget(Exception):
    """The probe's time for one order is spent (caught by the probe)."""


def reversed_key(fluent):
    """The sort key of a fluent by its arguments from the last to the first, then its name."""
    return term_key(tuple(reversed(fluent))) if isinstance(fluent, tuple) else term_key(fluent)


def better_progress(theirs: list[int], ours: list[int]) -> bool:
    """Whether an exploration whose layers took ``ours`` nodes clearly went further in
    the same time than one that took ``theirs``: :data:`LAYER_MARGIN` layers further,
    ended or not. Not by one layer, nor by its nodes, nor by having ended: the probe's
    time is short and a loaded machine moves it, small sets need not make fast images,
    and a quick exploration need not make quick fixpoints (module docstring).

    >>> better_progress([10, 200], [10, 50]), better_progress([10], [10, 50, 9, 7])
    (False, True)
    >>> better_progress([10, 20], [10, 50, 9])
    False
    """
    return len(ours) >= len(theirs) + LAYER_MARGIN


def build_in_best_order(build, on_layer, fluents, limits: Limits | None = None):
    """``build(fluent_order, on_layer)`` (an engine's constructor, exploring: see
    :meth:`~.symbolic.GdlSymbolicGame.__init__`'s ``fluent_order``) in the order of the
    fluent bits that measures best (module docstring); each try that runs out of time is
    dropped with its manager, a try that ends is the engine returned. No probe when the
    two orders of ``fluents`` (the grounded ones) are the same. ``limits``: those the
    engine checks, which then end a try inside a layer too."""
    if sorted(fluents, key=reversed_key) == list(fluents):
        return build("grounded", on_layer)
    spent = _Try(on_layer)
    try:
        return spent.run(build, "grounded", limits)
    except _Budget:
        pass
    tried = _Try(None)
    try:
        ended = tried.run(build, "reversed", limits)
    except _Budget:
        ended = None
    if not better_progress(spent.nodes, tried.nodes):
        return build("grounded", on_layer)
    return ended if ended is not None else build("reversed", on_layer)


class _Try:
    """One order's exploration in the probe: the nodes of each layer it found."""

    def __init__(self, report):
        self.report = report
        self.nodes: list[int] = []

    def run(self, build, order: str, limits: Limits | None):
        """``build(order, on_layer)`` within the probe's time: :class:`_Budget` past it,
        at the end of a layer, or at a check of ``limits`` when given."""
        start = time.process_time()

        def on_layer(n, count, size):
            if self.report is not None:
                self.report(n, count, size)
            self.nodes.append(size)
            if time.process_time() - start > PROBE_SECONDS:
                raise _Budget

        if limits is None:
            return build(order, on_layer)
        with limits.budget(PROBE_SECONDS, _Budget):
            return build(order, on_layer)


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
