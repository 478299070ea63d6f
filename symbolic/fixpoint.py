"""The one fixpoint idiom: iterate a monotone step until stable, under the limits.

Every fixpoint of the engines and analyses (until, release, reachability,
nimbers, strategies) is a :func:`least_fixpoint` or :func:`greatest_fixpoint`
call, which checks the request's :class:`~symbolic.limits.Limits` before each
step and returns a :class:`Fixpoint` (result, iterations, and the layers when
asked). Also the result of a forward search by distance (:class:`ReachLayers`), its
checks (:func:`check_reach`, :func:`check_layer`) and :func:`union_all`. Re-exported by
:mod:`symbolic.api`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterable, TypeVar

from .arguments import need, need_int
from .errors import EngineMismatch, QueryError
from .limits import NO_LIMITS, Limits

__all__ = [
    "Fixpoint",
    "ReachLayers",
    "least_fixpoint",
    "greatest_fixpoint",
    "check_reach",
    "check_layer",
    "union_all",
]

#: a set of positions (``symbolic.api.PositionSet``), or any value with ``==``
S = TypeVar("S")


@dataclass(frozen=True)
class Fixpoint(Generic[S]):
    """Result of a fixpoint computation: the set, the number of steps taken
    (applications of the step function that changed the set), and the
    approximations X_0, X_1, ... when they were asked for. (The symbolic engine's
    until without layers steps by rounds chained mover by mover, fewer than the
    steps of one pre-image each: ``SymbolicGame._chained_until``.)"""

    result: S
    iterations: int
    layers: tuple[S, ...] | None = None

    def approximations(self) -> tuple[S, ...]:
        """``layers``, of a computation asked to keep them (``keep_layers``); an
        AssertionError when it was not.

        >>> least_fixpoint(lambda x: x | {min(x) - 1} if min(x) > 0 else x, {1},
        ...                keep_layers=True).approximations()
        ({1}, {0, 1})
        """
        if self.layers is None:
            raise AssertionError("the approximations were not kept")
        return self.layers

    def _repr_html_(self) -> str:
        from .html import fixpoint_html  # Jupyter: the steps and the result's table

        return fixpoint_html(self)


def least_fixpoint(
    step: Callable[[S], S],
    start: S,
    *,
    keep_layers: bool = False,
    limits: "Limits | None" = None,
    name: str = "fixpoint",
    sizes: Callable[[S], dict] | None = None,
) -> Fixpoint[S]:
    """Iterate X_0 = start, X_{n+1} = step(X_n) until X_{n+1} = X_n.

    ``step`` must be inflationary from ``start`` (X ⊆ step(X)), as in
    until_{n+1} = until_n ∪ (pre(J, until_n) ∩ σ) (ENS 2005, Q10).
    ``limits`` (:class:`symbolic.limits.Limits`) is checked before each step,
    the stage named ``name``, iteration n; ``sizes(X_n)`` describes X_n in
    progress reports and limit messages.

    >>> least_fixpoint(lambda x: x | {min(x) - 1} if min(x) > 0 else x, {3}).result
    {0, 1, 2, 3}
    """
    lim = limits if limits is not None else NO_LIMITS
    x = start
    layers = [x] if keep_layers else None
    n = 0
    with lim.stage(name):
        while True:
            lim.check(f"iteration {n + 1}", None if sizes is None else (lambda: sizes(x)))
            y = step(x)
            if y == x:
                return Fixpoint(x, n, tuple(layers) if layers is not None else None)
            n += 1
            x = y
            if layers is not None:
                layers.append(x)


def greatest_fixpoint(
    step: Callable[[S], S],
    start: S,
    *,
    limits: "Limits | None" = None,
    name: str = "fixpoint",
    sizes: Callable[[S], dict] | None = None,
) -> Fixpoint[S]:
    """Iterate X_0 = start, X_{n+1} = step(X_n) until stable, ``step`` deflationary
    (``limits``, ``name`` and ``sizes`` as in :func:`least_fixpoint`).

    >>> greatest_fixpoint(lambda x: {v for v in x if v - 1 in x or v == 0}, {0, 1, 3}).result
    {0, 1}
    """
    return least_fixpoint(step, start, limits=limits, name=name, sizes=sizes)


@dataclass(frozen=True)
class ReachLayers(Generic[S]):
    """The positions reachable from a source, by distance
    (:func:`symbolic.api.layers.reach_layers`, :func:`symbolic.api.layers.graded_layers`):
    ``result`` = R, ``layers`` = (F_0, F_1, …) disjoint, F_n the positions first
    reached after n moves; ``graded``: every move from F_n lands in F_{n+1}.
    ``remote``: None, or the cluster the layers were split on
    (:class:`symbolic.distributed.solve.Spread`), which the BDD engine's layered steps
    hand their pre-images to (not compared, not shown)."""

    result: S
    layers: tuple[S, ...]
    graded: bool
    remote: Any = field(default=None, compare=False, repr=False)


def check_reach(engine, reach, *, graded: bool = True) -> ReachLayers:
    """``reach`` itself when it is a :class:`ReachLayers` of ``engine`` (graded, with
    ``graded``): ArgumentTypeError, EngineMismatch or QueryError otherwise."""
    need(reach, ReachLayers, "the layers", hint=" (a ReachLayers: reach_layers(engine, source))")
    if reach.result.engine is not engine:
        raise EngineMismatch(
            f"the layers are a ReachLayers of {reach.result.engine!r}, not of "
            f"this engine {engine!r}"
        )
    if graded and not reach.graded:
        raise QueryError(
            "layered solving (until_layered) needs graded layers (every move "
            "one layer up); these are not: use the plain fixpoints (until)"
        )
    return reach


def check_layer(reach: ReachLayers, k) -> int:
    """``k`` when it is the index of a layer of ``reach``, else ArgumentTypeError or
    ArgumentValueError."""
    return need_int(k, "the layer k", low=0, high=len(reach.layers) - 1)


def union_all(engine, sets: Iterable):
    """S_0 ∪ … ∪ S_n, as a balanced tree of unions (each set enters log n unions,
    not up to n as in a running union).

    >>> from symbolic.seeds.games import arena
    >>> from symbolic.explicit import ExplicitGame
    >>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1}, [(0, 1)]))
    >>> union_all(G, [G.from_tuples([(k,)]) for k in range(3)]).tuples()
    [(0,), (1,), (2,)]
    """
    sets = list(sets)
    if not sets:
        return engine.empty()
    while len(sets) > 1:
        sets = [a | b for a, b in zip(sets[::2], sets[1::2])] + sets[len(sets) - len(sets) % 2 :]
    return sets[0]
