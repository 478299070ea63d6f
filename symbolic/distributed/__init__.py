"""Layered solving on a Dask cluster (issue 38): the parts of each layer on workers.

The ply-by-ply table (``symbolic values --by-layer``) can run its layers' work on the
worker processes of a Dask cluster (``--workers N``: a local cluster; ``--scheduler
ADDRESS``: a running one). Each layer is split into its cofactors on the top bits of
the BDD order (:mod:`~symbolic.distributed.split`), each part runs on a worker that
keeps its own BDD manager (:mod:`~symbolic.distributed.worker`), the BDDs travel as
DDDMP bytes (:mod:`~symbolic.distributed.wire`), and the client puts the parts together
(:mod:`~symbolic.distributed.solve`; the cluster: :mod:`~symbolic.distributed.cluster`;
the work directory a stopped run resumes from: :mod:`~symbolic.distributed.store`).
The answer is the single process's, byte for byte (docs/distributed.md).
"""

from __future__ import annotations

from .cluster import Pool
from .solve import InProcess, Spread, distributed_outcomes
from .store import TaskStore
from .worker import WorkSpec

__all__ = ["Pool", "InProcess", "Spread", "TaskStore", "WorkSpec", "distributed_outcomes"]
