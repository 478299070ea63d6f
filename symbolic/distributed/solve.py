"""The ply-by-ply table on a Dask cluster: :func:`symbolic.analysis.layered.layer_outcomes`
with each layer's work split into parts that run on workers.

**Forward**, one round per layer: F_k is split into its cofactors on the top K current
bits (:mod:`symbolic.distributed.split`; K = ``split``, else
:func:`~symbolic.distributed.split.default_split` of the layer's size), each part P goes
to a worker, which returns post(P) and the keys of the parts of the next layer that
post(P) meets; the client unions the images into F_{k+1} (and stops, as the single
process does, when a move lands in a layer already seen: not graded).

**Backward**, one round per layer from the last: the part P of F_k goes with A = the
parts of F_{k+1} that its moves reach and U_{k+1} ∩ A for each player; the worker returns
U_k ∩ P (:func:`symbolic.distributed.worker.solve_part`); the client unions them into
U_k and counts layer k's row as the single process does
(:func:`~symbolic.analysis.layered.layer_row`). A part's successors all lie in A, so
U_k ∩ P is the single process's, and the parts cover F_k disjointly: every U_k, every
count and so every byte of the table is the same.

The client holds the layers and the won sets (as the single process does); the
workers hold the parts and their own copy of the game's transition relation.

>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> from symbolic.distributed.worker import WorkSpec
>>> m = load_model("models/tictactoe.game")
>>> e = make_engine(m.game, "symbolic", "cudd")
>>> from symbolic.analysis.layered import initial_set
>>> source = initial_set(e, m.definitions)
>>> rows = distributed_outcomes(e, source, WorkSpec(m.source, (), "cudd"), InProcess(), 1)
>>> rows.total
5478
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..api import PositionSet, check_set, union_all
from ..analysis.layered import Outcomes, layer_row
from ..arguments import need_int
from ..bdd.sets import BddSet
from ..errors import QueryError
from .split import MAX_SPLIT, default_split, split_set, top_bits
from .wire import check_wire_backend, dump_nodes, load_nodes
from .worker import WorkSpec, post_part, solve_part

__all__ = ["distributed_outcomes", "InProcess"]


class InProcess:
    """A stand-in for :class:`~symbolic.distributed.cluster.Pool` that runs each task
    in this process, one after the other (the doctests; the bytes still go through
    DDDMP): the same rounds, no cluster."""

    workers = 1

    def __init__(self) -> None:
        self.stats: list = []

    def round(self, name: str, fn: Callable, args: Sequence[tuple]) -> list:
        return [fn(*a) for a in args]


def _cover(m, keys, bits):
    """⋁ over ``keys`` of the cube [bits = key]: the parts named by ``keys``."""
    return m.disj(m.cube(dict(zip(bits, key))) for key in keys) if bits else m.true


def _forward(engine, spec, pool, source, split):
    """The graded layers from ``source`` and, per layer, (K, [(key, part, touched)]):
    each part's key over the top K bits and the keys over the top :data:`MAX_SPLIT`
    bits of the parts its image meets. None when the game is not graded."""
    m, lim = engine.manager, engine.limits
    wide = top_bits(engine, MAX_SPLIT)
    layers, plans = [source], []
    seen = frontier = source
    while True:
        lim.check(f"layer {len(layers) - 1}")
        k = split if split is not None else default_split(m.size(frontier.node), pool.workers)
        parts = split_set(engine, frontier, top_bits(engine, k))
        args = [(spec, dump_nodes(m, [p.node]), wide) for _, p in parts]
        got = pool.round(f"the forward round from layer {len(layers) - 1}", post_part, args)
        plans.append((k, [(key, p, touched) for (key, p), (_, touched, _) in zip(parts, got)]))
        images = [BddSet._make(engine, load_nodes(m, data)[0]) for data, _, _ in got]
        image = union_all(engine, images)
        if image.is_empty():
            return layers, plans
        if not (image & seen).is_empty():
            return None
        layers.append(image)
        seen = seen | image
        frontier = image


def _backward(engine, spec, pool, layers, plans, players, turns):
    """The rows of the table, from the last layer down (see the module docstring)."""
    m, lim = engine.manager, engine.limits
    won = {p: engine.empty() for p in players}
    rows = []
    for k in reversed(range(len(layers))):
        lim.check(f"layer {k}")
        nxt = layers[k + 1] if k + 1 < len(layers) else engine.empty()
        k_next = plans[k + 1][0] if k + 1 < len(layers) else 0
        bits_next = top_bits(engine, k_next)
        args = []
        for _, part, touched in plans[k][1]:
            cover = _cover(m, {t[:k_next] for t in touched}, bits_next)
            above = m.and_(nxt.node, cover)
            mine = [m.and_(won[p].node, cover) for p in players]
            args.append((spec, dump_nodes(m, [part.node, above, *mine])))
        got = pool.round(f"the backward round of layer {k}", solve_part, args)
        parts = [load_nodes(m, data) for data, _ in got]
        won = {
            p: union_all(engine, [BddSet._make(engine, nodes[i]) for nodes in parts])
            for i, p in enumerate(players)
        }
        rows.append(layer_row(k, layers[k], won, turns))
    return tuple(reversed(rows))


def distributed_outcomes(
    engine, source: PositionSet, spec: WorkSpec, pool, split: int | None = None
) -> Outcomes:
    """:func:`~symbolic.analysis.layered.layer_outcomes` (layered) of the positions
    reachable from ``source`` on ``engine`` (a symbolic engine of a cudd or oxidd
    manager), its layers' parts run by ``pool`` (a
    :class:`~symbolic.distributed.cluster.Pool`, or :class:`InProcess`) on workers that
    build the engine of ``spec`` again; ``split``: the top bits each layer is split on
    (None: picked from the layer's size). QueryError, as the single process, when the
    game is not graded from ``source``."""
    check_wire_backend(getattr(engine, "backend", "explicit"))
    check_set(engine, source, "the source")
    need_int(split, "split", low=0, high=MAX_SPLIT, none=True)
    players = engine.game.players
    if len(players) != 2:
        raise QueryError(f"win/draw/loss counts need two players, the game has {len(players)}")
    with engine.limits.stage("computing the reachable layers on the cluster"):
        found = _forward(engine, spec, pool, source, split)
    if found is None:
        raise QueryError(
            "the game is not graded from its initial positions (a move "
            "reaches a layer already seen): no ply-by-ply table"
        )
    layers, plans = found
    turns = {p: engine.turn_set({p}) for p in players}
    with engine.limits.stage("computing until layer by layer on the cluster, both players"):
        rows = _backward(engine, spec, pool, layers, plans, players, turns)
    return Outcomes(rows)
