"""What a worker process runs: one part of one layer, in its own BDD manager.

Each worker builds the game's symbolic engine once per :class:`WorkSpec` (the model
file, its parameters, the backend, order and partition: the same variables in the same
order as the client's) and keeps it between tasks; a task receives its BDDs as bytes
(:mod:`symbolic.distributed.wire`), computes, and returns bytes. The tasks hold no
other state, so a task lost with its worker can run again anywhere.

- :func:`post_part`: the image post(P) of a part P of layer k, and the keys of the
  parts of layer k + 1 that it meets (:func:`symbolic.distributed.split.keys_of`);
- :func:`pre_part`: the pre-image pre(J, U_{k+1}) ∩ W of a part W of layer k, for
  one or several (J, U_{k+1}), from U_{k+1} ∩ A, A the parts of F_{k+1} its moves
  reach: the step of every layered until (:mod:`symbolic.distributed.solve`).

>>> spec = WorkSpec("models/tictactoe.game", (), "cudd")
>>> e = engine_for(spec)
>>> from symbolic.distributed.wire import dump_nodes, load_nodes
>>> from symbolic.analysis.layered import initial_set
>>> m = load_model(spec.model)
>>> data, keys, info = post_part(spec, dump_nodes(e.manager, [initial_set(e, m.definitions).node]), ())
>>> e.wrap(load_nodes(e.manager, data)[0]).count(), keys
(9, [()])
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

from .. import ir
from ..api import DeadEnds
from ..bdd.sets import BddSet
from ..engines import make_engine
from ..errors import QueryError, SymbolicError
from ..limits import Limits
from ..model import load_model
from .split import keys_of
from .wire import dump_nodes, load_nodes

__all__ = ["WorkSpec", "TaskFailed", "engine_for", "post_part", "pre_part", "forget_engines"]


@dataclass(frozen=True)
class WorkSpec:
    """What a worker needs to build the client's engine again: the model file (a path
    every worker can read, or a shipped model's name), its parameter overrides as
    ``(name, value)`` pairs, the BDD backend (cudd or oxidd), bit order and partition,
    and the memory cap of each worker in MB (None: the default); or, instead of a file,
    ``game`` itself (a :class:`symbolic.ir.Game`: a plain description, pickled as data,
    for games made in Python)."""

    model: str | None
    params: tuple
    backend: str
    order: str = "auto"
    partition: str = "moves"
    max_memory: float | None = None
    game: ir.Game | None = None


class _Solver:
    """A worker's engine for one spec."""

    def __init__(self, spec: WorkSpec):
        game = spec.game if spec.game is not None else _game_of(spec)
        # a symbolic engine (its manager and BddSets are read below)
        self.engine: Any = make_engine(
            game,
            "symbolic",
            spec.backend,
            order=spec.order,
            partition=spec.partition,
            limits=Limits(max_memory=spec.max_memory),
        )


def _game_of(spec: WorkSpec):
    """The game of the model file ``spec`` names, with its parameter overrides."""
    if spec.model is None:
        raise QueryError("a work spec names neither a model file nor a game")
    return load_model(spec.model, dict(spec.params)).game


# the engines of this process, by spec (a worker serves one run at a time, usually one spec)
_SOLVERS: dict[WorkSpec, _Solver] = {}


def _solver(spec: WorkSpec) -> _Solver:
    if spec not in _SOLVERS:
        _SOLVERS.clear()  # one engine at a time: a new run's spec replaces the last one
        _SOLVERS[spec] = _Solver(spec)
    return _SOLVERS[spec]


def engine_for(spec: WorkSpec):
    """This process's symbolic engine for ``spec`` (built on first use)."""
    return _solver(spec).engine


def _collected_engine(spec: WorkSpec):
    """:func:`engine_for`, its manager's dead nodes freed first: what the last task
    made is dead, and freeing it before each task keeps a worker's memory at its
    engine and one part's work (the single process's collection waits for the store
    to double, which on a worker only made its memory grow to the cap)."""
    e = engine_for(spec)
    e.manager.collect_garbage(now=True)
    return e


def forget_engines() -> None:
    """Drop this process's engines (their managers go with them)."""
    _SOLVERS.clear()


def _info(e, started: float, part_nodes: int) -> dict:
    """What a task reports besides its answer: the part's size, the nodes of the
    worker's manager after the task, the task's seconds."""
    return {
        "part_nodes": part_nodes,
        "manager_nodes": e.manager.node_count(),
        "seconds": time.perf_counter() - started,
    }


class TaskFailed:
    """What a task returns instead of raising one of symbolic's errors (a worker's
    memory limit, a model it cannot read): the client raises it again
    (:meth:`error_in`), and Dask logs no traceback of an error that is the answer."""

    def __init__(self, error: SymbolicError):
        self.error = error

    def error_in(self, name: str) -> SymbolicError:
        """The error, its message saying it came from a worker in round ``name``.

        >>> from symbolic.errors import OutOfMemory
        >>> str(TaskFailed(OutOfMemory("memory limit of 4 MB reached")).error_in("round 1"))
        'a worker, in round 1: memory limit of 4 MB reached'
        """
        err = self.error
        out = type(err)((f"a worker, in {name}: ", *err.parts))
        for k in ("limit", "stage"):  # a limit's name and stage, as the worker had them
            if hasattr(err, k):
                setattr(out, k, getattr(err, k))
        return out


def _task(fn):
    """``fn``, returning a :class:`TaskFailed` for symbolic's errors."""

    @functools.wraps(fn)
    def run(*args):
        try:
            return fn(*args)
        except SymbolicError as err:
            return TaskFailed(err)

    return run


@_task
def post_part(spec: WorkSpec, data: bytes, bits: tuple[str, ...]) -> tuple[bytes, list, dict]:
    """post(P) of the part P in ``data`` as bytes, the sorted keys over ``bits`` of the
    parts it meets, and the task's :func:`_info`."""
    t0 = time.perf_counter()
    e = _collected_engine(spec)
    [p] = load_nodes(e.manager, data)
    image = e.post(BddSet._make(e, p))
    keys = sorted(keys_of(e, image, bits))
    out = dump_nodes(e.manager, [image.node])
    return out, keys, _info(e, t0, e.manager.size(p))


@_task
def pre_part(spec: WorkSpec, data: bytes, asks: tuple) -> tuple[bytes, list, dict]:
    """For each ask (J, dead-end convention, last) of ``asks``, pre(J, V) ∩ W as bytes,
    from ``data``: the sets W_1 … W_m (the part of layer k to solve on, cut to what the
    caller reads) then V_1 … V_m (U_{k+1} ∩ A, A the parts of layer k + 1 that the
    part's moves reach: every successor of W_i is in A, the game is graded); ``last``:
    layer k is the last one. The step is the BDD engine's own
    (:meth:`~symbolic.bdd.engine.SymbolicGame.layer_pre` within W), so it is the single
    process's, position for position. An empty list stands for the post's keys."""
    t0 = time.perf_counter()
    e = _collected_engine(spec)
    nodes = load_nodes(e.manager, data)
    m = len(asks)
    out = []
    for (J, dead_ends, last), within, won in zip(asks, nodes[:m], nodes[m:]):
        J = e.game.coalition(J)
        key = e._coalition(J)
        w = BddSet._make(e, won)
        out.append(e._pre_within(key, within, e.turn_set(J), w, last, DeadEnds(dead_ends)))
    size = e.manager.size(e.manager.disj(nodes[:m])) if m else 0
    return dump_nodes(e.manager, out), [], _info(e, t0, size)
