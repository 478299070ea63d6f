"""The Dask side: a client on a local cluster of worker processes or on a running one.

:class:`Pool` opens a ``distributed.LocalCluster`` of N worker processes on the
loopback address (one thread each: a BDD manager is not shared between threads), or
connects to the scheduler at an address within a connect timeout (an unreachable one
is a QueryError in seconds, not a hang). :meth:`Pool.round` runs one bulk-synchronous
round: a task per part, their results in order, while the request's limits are
checked every fraction of a second; on any exception (the time limit, Ctrl-C) the
round's futures are cancelled, and :meth:`Pool.close` closes the client and the
cluster it opened. A worker lost in a round has its tasks run again on the others
(Dask's own retry, up to ``distributed.scheduler.allowed-failures`` losses of one task);
past that the run stops with a message that says so (and a rerun with a work directory,
:mod:`symbolic.distributed.store`, resumes from the parts already solved).

``distributed`` is an optional dependency (``pip install symbolic[distributed]``):
importing this module does not need it, opening a pool does.

>>> Pool(workers=0)
Traceback (most recent call last):
...
symbolic.errors.QueryError: a local cluster needs at least 1 worker, got 0
"""

from __future__ import annotations

import logging
import time
import warnings
from typing import Callable, Sequence

from ..errors import Hint, QueryError
from ..limits import Limits
from .worker import TaskFailed

__all__ = ["Pool", "RoundStats", "CONNECT_SECONDS", "needs_distributed"]

#: seconds to wait for a scheduler named by address before saying it cannot be reached
CONNECT_SECONDS = 10.0

# how often a waiting round checks the request's limits (the time limit, Ctrl-C)
_POLL_SECONDS = 0.2


def needs_distributed():
    """The ``distributed`` module, or QueryError saying how to install it."""
    try:
        import distributed
    except ImportError as err:
        raise QueryError(
            f"distributed solving needs Dask's distributed package: "
            f"pip install 'symbolic[distributed]' ({err})"
        ) from None
    return distributed


class RoundStats:
    """Per round: its name, the tasks, the bytes sent and received, its wall seconds
    and the tasks' reports (:func:`symbolic.distributed.worker._info`)."""

    def __init__(self, name: str, tasks: int, sent: int):
        self.name, self.tasks, self.sent = name, tasks, sent
        self.received = 0
        self.seconds = 0.0
        self.reports: list[dict] = []

    def as_dict(self) -> dict:
        return {
            "round": self.name,
            "tasks": self.tasks,
            "bytes_sent": self.sent,
            "bytes_received": self.received,
            "seconds": round(self.seconds, 4),
            "largest_part_nodes": max((r["part_nodes"] for r in self.reports), default=0),
            "sum_part_nodes": sum(r["part_nodes"] for r in self.reports),
            "largest_manager_nodes": max((r["manager_nodes"] for r in self.reports), default=0),
        }


class Pool:
    """A Dask client and, for ``workers`` = N, the local cluster of N processes it
    runs on; for ``scheduler`` = ADDRESS, an existing cluster. ``limits`` are checked
    while a round waits. Use it in a ``with`` block (or call :meth:`close`)."""

    def __init__(
        self,
        workers: int | None = None,
        scheduler: str | None = None,
        limits: Limits | None = None,
        connect_seconds: float = CONNECT_SECONDS,
    ):
        if (workers is None) == (scheduler is None):
            raise QueryError("give either a number of workers or a scheduler address")
        if workers is not None and (not isinstance(workers, int) or workers < 1):
            raise QueryError(f"a local cluster needs at least 1 worker, got {workers}")
        self.limits = limits if limits is not None else Limits()
        self.stats: list[RoundStats] = []
        self.cluster = None
        dist = needs_distributed()
        self._dist = dist
        if workers is not None:
            self.cluster = dist.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                # the scheduler's HTTP routes (health, metrics) on the loopback address
                # too, at a free port (not 8787 on every interface)
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR,
            )
            self.client = dist.Client(self.cluster, timeout=connect_seconds)
        else:
            self.client = _connect(dist, str(scheduler), connect_seconds)

    @property
    def workers(self) -> int:
        """How many workers the cluster has now."""
        return len(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def round(
        self, name: str, fn: Callable, args: Sequence[tuple], done: Callable | None = None
    ) -> list:
        """``[fn(*a) for a in args]``, each call a task on a worker, the results in
        order (the bytes of the arguments and results counted in :attr:`stats`);
        ``done(i, result)`` is called as each task's result arrives (the work directory
        keeps it: a round stopped half-way keeps its finished parts)."""
        sent = sum(len(x) for a in args for x in a if isinstance(x, bytes))
        st = RoundStats(name, len(args), sent)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            # the BDDs travel inside the task graph on purpose: the scheduler keeps them,
            # so a task lost with its worker runs again elsewhere (scattered data would
            # be lost with it); Dask's advice to scatter large graphs does not apply
            warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
            futures = [self.client.submit(fn, *a, pure=False) for a in args]
        results: list = [None] * len(futures)
        pending = set(range(len(futures)))
        try:
            while pending:
                self.limits.check(name)
                try:
                    self._dist.wait(
                        [futures[i] for i in pending],
                        timeout=_POLL_SECONDS,
                        return_when="FIRST_COMPLETED",
                    )
                except TimeoutError:  # none done yet: check the limits again
                    continue
                for i in sorted(pending):
                    if futures[i].status in ("finished", "error", "cancelled"):
                        results[i] = self._result(name, futures[i])
                        pending.discard(i)
                        if done is not None:
                            done(i, results[i])
        finally:
            self.client.cancel(futures)
        st.seconds = time.perf_counter() - t0
        for r in results:
            st.received += sum(len(x) for x in r if isinstance(x, bytes))
            st.reports.append(r[-1])
        self.stats.append(st)
        return results

    def _result(self, name: str, future):
        """The result of a task, or its error (QueryError when the task was lost with
        its worker too many times)."""
        try:
            r = future.result()
        except self._dist.KilledWorker as err:
            raise QueryError(
                (
                    f"{name}: a task was lost with its worker too many times ({err}); the "
                    "run stopped (with ",
                    Hint("give", "store"),
                    ", a rerun resumes from the parts solved)",
                )
            ) from None
        if isinstance(r, TaskFailed):
            raise r.error_in(name)
        return r

    def close(self) -> None:
        """Close the client, and the local cluster when this pool opened one."""
        try:
            self.client.close(timeout=5)
        finally:
            if self.cluster is not None:
                self.cluster.close(timeout=5)

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _connect(dist, address: str, seconds: float):
    """A client of the scheduler at ``address``, or QueryError within ``seconds``."""
    try:
        return dist.Client(address, timeout=seconds)
    except (OSError, TimeoutError, ValueError) as err:
        raise QueryError(
            f"cannot reach the Dask scheduler at {address!r} within {seconds:g} s ({err})"
        ) from None
