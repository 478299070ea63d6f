"""The command line's distributed options: ``--workers N``, ``--scheduler ADDRESS``,
``--split K``, ``--work-dir DIR`` (docs/distributed.md), shared by ``values``, ``check``
and ``strategy``, and the :class:`~symbolic.distributed.solve.Spread` they make.

What runs layered runs on the cluster (the graded layers and every layered until);
what does not (a query of ``check --layered auto`` without an anchor, a game not graded
from the start, ``--why``, ``strategy --count``) runs in this process, and a note on
stderr says so (:func:`note_local`). The cluster is opened at the first round only: a
request with nothing layered starts none.

>>> import argparse
>>> p = argparse.ArgumentParser(); distributed_args(p)
>>> a = p.parse_args(["--workers", "2", "--split", "3"])
>>> distributed_asked(a), a.split
(True, 3)
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator

from ..api import graded_layers
from ..distributed.cluster import Pool
from ..distributed.solve import Spread, check_spreadable
from ..distributed.split import MAX_SPLIT
from ..distributed.layer_store import LayerStore
from ..distributed.store import TaskStore
from ..distributed.worker import WorkSpec
from ..errors import QueryError
from ..limits import current as current_limits
from .common import int_arg, params_of

__all__ = [
    "distributed_args",
    "distributed_asked",
    "layer_store",
    "open_pool",
    "work_spec",
    "spread_for",
    "layers_of",
    "note_local",
]


def distributed_args(sp) -> None:
    """``--workers``, ``--scheduler``, ``--split`` and ``--work-dir`` on the parser ``sp``."""
    g = sp.add_mutually_exclusive_group()
    g.add_argument(
        "--workers",
        type=int_arg(1),
        metavar="N",
        help="solve the layers' parts on a local Dask cluster of N worker processes "
        "(needs symbolic[distributed]; the same answer as one process)",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="solve the layers' parts on the Dask cluster of the scheduler at ADDRESS "
        "(e.g. tcp://10.0.0.5:8786; its workers must read the model file at the same path)",
    )
    sp.add_argument(
        "--split",
        type=int_arg(0, MAX_SPLIT),
        metavar="K",
        help=f"with --workers or --scheduler: split each layer into its cofactors on the "
        f"top K bits of the BDD order, 2^K parts at most (0..{MAX_SPLIT}; default: "
        f"picked from the layer's size)",
    )
    sp.add_argument(
        "--work-dir",
        metavar="DIR",
        help="with --workers or --scheduler: keep each part's answer in DIR; a run "
        "stopped (Ctrl-C, --timeout, a lost worker) and run again with the same "
        "arguments and DIR resumes from the parts already solved. values --by-layer "
        "in one process: keep the layers and the layers solved in DIR, and resume "
        "from them",
    )


def distributed_asked(args, *, store_alone: bool = False) -> bool:
    """True when ``--workers`` or ``--scheduler`` was given (QueryError for ``--split``
    or ``--work-dir`` alone, which would do nothing; ``store_alone``: ``--work-dir``
    alone is the single process's store of layers, ``values --by-layer``)."""
    asked = getattr(args, "workers", None) is not None or getattr(args, "scheduler", None)
    if not asked:
        for opt in ("split",) if store_alone else ("split", "work_dir"):
            if getattr(args, opt, None) is not None:
                name = "--" + opt.replace("_", "-")
                raise QueryError(f"{name} needs --workers N or --scheduler ADDRESS")
    return bool(asked)


def open_pool(args) -> Pool:
    """The :class:`~symbolic.distributed.cluster.Pool` the options ask for, under the
    request's limits."""
    return Pool(workers=args.workers, scheduler=args.scheduler, limits=current_limits())


def work_spec(args, model, engine) -> WorkSpec:
    """What the workers need to build ``engine`` again: the model file (an absolute
    path when it is a file here), the ``-p`` overrides, the backend ``engine`` runs on,
    the order and partition asked, and ``--max-memory`` (each worker's cap)."""
    path = model.source
    if os.path.isfile(path):
        path = os.path.abspath(path)
    params = tuple(sorted(params_of(args.param).items()))
    return WorkSpec(
        path, params, engine.backend, args.order, args.partition, current_limits().max_memory
    )


def layer_store(args, model, engine) -> LayerStore:
    """The single process's store of layers in ``--work-dir`` (``values --by-layer``)."""
    return LayerStore(args.work_dir, work_spec(args, model, engine), engine)


class _LazyPool:
    """The pool the options ask for, opened at its first use (a request whose work is
    not layered opens no cluster)."""

    def __init__(self, args):
        self.args = args
        self.pool: Pool | None = None

    def _open(self) -> Pool:
        if self.pool is None:
            self.pool = open_pool(self.args)
        return self.pool

    @property
    def workers(self) -> int:
        return self._open().workers

    @property
    def stats(self) -> list:
        return [] if self.pool is None else self.pool.stats

    def round(self, name, fn, args, done=None) -> list:
        return self._open().round(name, fn, args, done)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


@contextlib.contextmanager
def spread_for(args, model, engine) -> Iterator[Spread | None]:
    """None when the options ask for no cluster; else the
    :class:`~symbolic.distributed.solve.Spread` of ``engine`` (checked before any
    cluster is opened: the symbolic engine of a turn-based model on cudd or oxidd) on
    the cluster they ask for, closed at the end of the block."""
    if not distributed_asked(args):
        yield None
        return
    check_spreadable(engine)
    spec = work_spec(args, model, engine)
    store = TaskStore(args.work_dir, spec) if args.work_dir is not None else None
    pool = _LazyPool(args)
    try:
        spread = Spread(engine, spec, pool, args.split, store)
        yield spread
        if spread.reused:
            note = (
                f"{spread.reused} of {spread.reused + spread.sent} parts read from {args.work_dir}"
            )
            print(f"symbolic: note: {note}", file=sys.stderr)
    finally:
        pool.close()


def layers_of(spread: Spread | None):
    """The function that computes graded layers (``graded_layers(engine, source)``):
    the spread's, on its cluster, or the single process's."""
    return graded_layers if spread is None else spread.graded_layers


def note_local(spread: object, what: str) -> None:
    """With a cluster asked (``spread`` a :class:`~symbolic.distributed.solve.Spread`,
    or True), say on stderr that ``what`` runs in this process."""
    if spread is not None and spread is not False:
        print(
            f"symbolic: note: {what}: solved in this process, not on the cluster", file=sys.stderr
        )
