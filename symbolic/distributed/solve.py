"""The layered solve on a Dask cluster: the graded layers and the steps of every layered
until, each layer's work split into parts that run on workers. The one module that
owns the distributed layered until: the ply-by-ply table (``values --by-layer``), the
±k values, ``check`` and ``strategy`` reach it through the layers it returns.

:meth:`Spread.graded_layers` is :func:`symbolic.api.layers.graded_layers` with the
posts on the workers. **Forward**, one round per layer: F_k is split into its cofactors
on the top K current bits (:mod:`symbolic.distributed.split`; K = ``split``, else
:func:`~symbolic.distributed.split.default_split` of the layer's size), each part P goes
to a worker, which returns post(P) and the keys of the parts of the next layer that
post(P) meets; the client unions the images into F_{k+1} (and stops, as the single
process does, when a move lands in a layer already seen: not graded). The layers it
returns (a :class:`~symbolic.fixpoint.ReachLayers`) carry the split in their ``remote``
field, and the BDD engine's layered steps (:meth:`~symbolic.api.GameEngine.layer_pre`,
:meth:`~symbolic.api.GameEngine.until_layer_step`) hand their pre-images to it.

**Backward**, one round per layer step (:meth:`Splits.pre_within`): the part W ∩ P of
the set W ⊆ F_k a step reads goes with V ∩ A, where A is the parts of F_{k+1} that P's
moves reach and V the step's U_{k+1}; the worker returns pre(J, V ∩ A) ∩ W ∩ P
(:func:`symbolic.distributed.worker.pre_part`) and the client unions the parts. A part's
successors all lie in A, so each answer is the single process's, and the parts cover
F_k disjointly: every U_k, every count and so every byte of the answers is the same.

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

from typing import Callable, Sequence, cast

from ..api import PositionSet, ReachLayers, check_set, union_all
from ..analysis.layered import Outcomes, layer_outcomes
from ..arguments import need_int
from ..bdd.engine import SymbolicGame
from ..bdd.sets import BddSet
from ..errors import Hint, QueryError
from .split import MAX_SPLIT, default_split, split_set, top_bits
from .store import TaskStore
from .wire import check_wire_backend, dump_nodes, load_nodes
from .worker import TaskFailed, WorkSpec, post_part, pre_part

__all__ = ["Spread", "Splits", "distributed_outcomes", "InProcess", "check_spreadable"]


class InProcess:
    """A stand-in for :class:`~symbolic.distributed.cluster.Pool` that runs each task
    in this process, one after the other (the doctests; the bytes still go through
    the wire): the same rounds, no cluster."""

    workers = 1

    def __init__(self) -> None:
        self.stats: list = []

    def round(
        self, name: str, fn: Callable, args: Sequence[tuple], done: Callable | None = None
    ) -> list:
        out = []
        for i, a in enumerate(args):
            out.append(fn(*a))
            if isinstance(out[-1], TaskFailed):
                raise out[-1].error_in(name)
            if done is not None:
                done(i, out[-1])
        return out


def check_spreadable(engine) -> None:
    """QueryError unless ``engine`` is the symbolic engine of a turn-based ``.game``
    model on a backend whose BDDs travel (cudd, oxidd): what the workers build again."""
    if type(engine) is not SymbolicGame:
        raise QueryError(
            (
                "distributed solving runs the symbolic engine of a turn-based .game model (",
                Hint("choose", "engine", ("symbolic",)),
                f"), not {type(engine).__name__}",
            )
        )
    check_wire_backend(engine.backend)


def _cover(m, keys, bits):
    """⋁ over ``keys`` of the cube [bits = key]: the parts named by ``keys``."""
    return m.disj(m.cube(dict(zip(bits, key))) for key in keys) if bits else m.true


class Spread:
    """The layered work of ``engine`` (a symbolic engine, :func:`check_spreadable`) on
    ``pool`` (a :class:`~symbolic.distributed.cluster.Pool`, or :class:`InProcess`),
    whose workers build the engine of ``spec`` again; ``split``: the top bits each
    layer is split on (None: picked from the layer's size); ``store``: a
    :class:`~symbolic.distributed.store.TaskStore` that keeps each task's answer (a
    rerun reads them instead of sending the tasks), or None."""

    def __init__(
        self, engine, spec: WorkSpec, pool, split: int | None = None, store: TaskStore | None = None
    ):
        check_spreadable(engine)
        need_int(split, "split", low=0, high=MAX_SPLIT, none=True)
        self.engine, self.spec, self.pool, self.split, self.store = (
            engine,
            spec,
            pool,
            split,
            store,
        )
        #: tasks sent to the workers, and tasks whose answers were read from the store
        self.sent = self.reused = 0

    def round(self, name: str, fn: Callable, args: Sequence[tuple]) -> list:
        """The pool's round of ``fn`` over ``args``, the tasks whose answers the store
        holds read from it, the others' answers kept there as they arrive."""
        store = self.store
        if store is None:
            self.sent += len(args)
            return self.pool.round(name, fn, args)
        keys = [store.key(fn.__name__, a[1:]) for a in args]  # a[0]: the spec
        out = [store.get(key) for key in keys]
        todo = [i for i, r in enumerate(out) if r is None]

        def done(j: int, result) -> None:
            out[todo[j]] = result
            store.put(keys[todo[j]], result)

        if todo:
            self.pool.round(name, fn, [args[i] for i in todo], done)
        self.sent += len(todo)
        self.reused += len(args) - len(todo)
        return out

    def graded_layers(self, engine, source: PositionSet) -> ReachLayers | None:
        """:func:`symbolic.api.layers.graded_layers` of ``engine`` (this spread's) from
        ``source``, the posts on the workers; the layers' ``remote`` is their
        :class:`Splits`."""
        if engine is not self.engine:
            raise QueryError("a spread solves the engine it was made for")
        check_set(engine, source, "the source")
        m, lim = engine.manager, engine.limits
        wide = top_bits(engine, MAX_SPLIT)
        seen = frontier = cast(BddSet, source)  # a symbolic engine's (check_spreadable)
        layers: list[BddSet] = [frontier]
        plans = []
        with lim.stage("computing the reachable layers on the cluster"):
            while True:
                lim.check(f"layer {len(layers) - 1}")
                k = self.split
                if k is None:
                    k = default_split(m.size(frontier.node), self.pool.workers)
                name = f"the forward round from layer {len(layers) - 1}"
                parts = split_set(engine, frontier, top_bits(engine, k))
                # the client's own work on a layer is plain BDD calls (no time check
                # inside them): the limits are checked between them, part by part
                args = [
                    (self.spec, _checked(lim, name, dump_nodes(m, [p.node])), wide)
                    for _, p in parts
                ]
                got = self.round(name, post_part, args)
                plans.append((k, [(key, touched) for (key, _), (_, touched, _) in zip(parts, got)]))
                images = [
                    BddSet._make(engine, _checked(lim, name, load_nodes(m, data))[0])
                    for data, _, _ in got
                ]
                lim.check(name)
                image = union_all(engine, images)
                if image.is_empty():
                    break
                if not (image & seen).is_empty():
                    return None  # a move goes back to a layer already seen
                layers.append(image)
                seen = seen | image
                frontier = image
        splits = Splits(self, tuple(layers), tuple(plans))
        return ReachLayers(seen, tuple(layers), True, remote=splits)

    def outcomes(self, source: PositionSet) -> Outcomes:
        """The ply-by-ply table (:func:`~symbolic.analysis.layered.layer_outcomes`) of
        the positions reachable from ``source``, layered on the cluster; QueryError, as
        the single process, when the game is not graded from ``source``."""
        e = self.engine
        check_set(e, source, "the source")
        players = e.game.players
        if len(players) != 2:
            raise QueryError(f"win/draw/loss counts need two players, the game has {len(players)}")
        reach = self.graded_layers(e, source)
        if reach is None:
            raise QueryError(
                "the game is not graded from its initial positions (a move "
                "reaches a layer already seen): no ply-by-ply table"
            )
        return layer_outcomes({}, e, reach)


class Splits:
    """The split of graded layers on a cluster (the ``remote`` of the
    :class:`~symbolic.fixpoint.ReachLayers` that :meth:`Spread.graded_layers` returns):
    per layer, the top bits K it was split on and, per part, its key and the keys (over
    the top :data:`~symbolic.distributed.split.MAX_SPLIT` bits) of the parts of the next
    layer its moves reach."""

    def __init__(self, spread: Spread, layers: tuple, plans: tuple):
        self.spread, self.layers, self.plans = spread, layers, plans

    def pre_within(self, k: int, asks: Sequence[tuple]) -> list:
        """For each ask (J, W, V, dead_ends) (W ⊆ F_k and V nodes of the engine's
        manager), the node of pre(J, V) ∩ W, pre by the step of the BDD engine's
        layered until, computed part by part on the workers in one round."""
        spread = self.spread
        e = spread.engine
        m = e.manager
        bits_k, parts = self.plans[k]
        bits = top_bits(e, bits_k)
        last = k + 1 == len(self.layers)
        meta = tuple((tuple(sorted(J)), d.value, last) for J, _, _, d in asks)
        name = f"the backward round of layer {k}"
        lim = e.limits
        args = []
        for key, touched in parts:
            lim.check(name)  # between the client's plain BDD calls on the layer's parts
            cube = m.cube(dict(zip(bits, key))) if bits else m.true
            within = [m.and_(w, cube) for _, w, _, _ in asks]
            if all(m.is_false(w) for w in within):
                continue
            if last:
                won = [m.false for _ in asks]
            else:
                k_next = self.plans[k + 1][0]
                cover = _cover(m, {t[:k_next] for t in touched}, top_bits(e, k_next))
                above = m.and_(self.layers[k + 1].node, cover)
                won = [m.and_(v, above) for _, _, v, _ in asks]
            args.append((spread.spec, dump_nodes(m, within + won), meta))
        got = spread.round(name, pre_part, args)
        answers = [_checked(lim, name, load_nodes(m, data)) for data, _, _ in got]
        return [m.disj(a[i] for a in answers) for i in range(len(asks))]


def _checked(limits, where: str, value):
    """``value``, after checking ``limits`` (the time limit, Ctrl-C) at ``where``: what
    the client computes between rounds, one call at a time."""
    limits.check(where)
    return value


def distributed_outcomes(
    engine,
    source: PositionSet,
    spec: WorkSpec,
    pool,
    split: int | None = None,
    store: TaskStore | None = None,
) -> Outcomes:
    """:meth:`Spread.outcomes`: the ply-by-ply table of the positions reachable from
    ``source`` on ``engine`` (a symbolic engine of a cudd or oxidd manager), its
    layers' work run by ``pool`` as the :class:`Spread` of ``spec``, ``split`` and
    ``store`` does."""
    return Spread(engine, spec, pool, split, store).outcomes(source)
