"""The command line's distributed options: ``--workers N``, ``--scheduler ADDRESS``,
``--split K`` (docs/distributed.md), and the pool and worker spec they make.

>>> import argparse
>>> p = argparse.ArgumentParser(); distributed_args(p)
>>> a = p.parse_args(["--workers", "2", "--split", "3"])
>>> distributed_asked(a), a.split
(True, 3)
"""

from __future__ import annotations

import os

from ..distributed.cluster import Pool
from ..distributed.split import MAX_SPLIT
from ..distributed.worker import WorkSpec
from ..errors import QueryError
from ..limits import current as current_limits
from .common import int_arg, params_of

__all__ = ["distributed_args", "distributed_asked", "open_pool", "work_spec"]


def distributed_args(sp) -> None:
    """``--workers``, ``--scheduler`` and ``--split`` on the parser ``sp``."""
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


def distributed_asked(args) -> bool:
    """True when ``--workers`` or ``--scheduler`` was given (QueryError for ``--split``
    alone, which would do nothing)."""
    asked = getattr(args, "workers", None) is not None or getattr(args, "scheduler", None)
    if not asked and getattr(args, "split", None) is not None:
        raise QueryError("--split needs --workers N or --scheduler ADDRESS")
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
