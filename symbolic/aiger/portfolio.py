"""The safety solver run several ways at once, one process each: the first answer wins.

A circuit's solving time under dynamic reordering depends on the order the run starts
from and on where the nodes land in memory (CUDD hashes addresses): the same file can
take 11 s or over 100 s (bench/README.md, AIGER section). Two runs that start from
different orders fail together less often than one fails. :func:`first_answer` starts
one process per way of :data:`WAYS` (``fork``: the circuit is not sent), waits for the
first answer and stops the others. The answer is the circuit's whichever way gives it:
every way is :func:`.safety.solve_safety` with the same semantics.

>>> from .reader import parse_aiger
>>> c = parse_aiger("aag 1 1 0 1 0\\n2\\n2\\ni0 controllable_c\\n")
>>> got = first_answer(c, 2, backend="autoref")
>>> got.realizable, got.way in WAYS[:2]
(True, True)
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from dataclasses import dataclass
from typing import Any

from ..errors import LimitExceeded, SymbolicError
from ..limits import Limits
from ..limits import current as current_limits
from .circuit import Circuit
from .safety import WAYS, default_names, solve_safety

__all__ = ["WAYS", "Answered", "first_answer"]


@dataclass(frozen=True)
class Answered:
    """The first answer of :func:`first_answer`: what :class:`.safety.SafetyAnswer`
    says (its BDDs stay in the process that made them), the ``way`` (a value of
    :data:`WAYS`) that gave it, and the manager's ``backend``."""

    realizable: bool
    iterations: int
    winning_size: int | None
    proof: str
    merged: int
    way: str
    backend: str


def first_answer(
    circuit: Circuit, jobs: int, *, limits: Limits | None = None, **settings
) -> Answered:
    """The first answer of ``jobs`` processes (1 ≤ ``jobs`` ≤ ``len(WAYS)``), process k
    running :func:`.safety.solve_safety` on ``circuit`` from the initial order
    ``WAYS[k]`` with ``settings``; each manager gets ``1/jobs`` of the memory cap. The
    others are stopped once one answers. When every process fails, the first failure is
    raised again (:class:`~symbolic.errors.LimitExceeded` for a limit); the deadline of
    ``limits`` holds for the whole."""
    limits = current_limits() if limits is None else limits
    if not 1 <= jobs <= len(WAYS):
        raise AssertionError(jobs)
    cap = limits.max_memory_bytes
    if cap is not None:
        settings["max_memory"] = cap // jobs
    ctx = multiprocessing.get_context("fork")
    pipes, procs = [], []
    try:
        for way in WAYS[:jobs]:
            receive, send = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_way, args=(send, circuit, way, limits, settings), daemon=True)
            p.start()
            send.close()
            pipes.append(receive)
            procs.append(p)
        with limits.stage(f"the safety solver, {jobs} ways at once"):
            return _first(pipes, procs, limits)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
            p.join()


def _first(pipes: list, procs: list, limits: Limits) -> Answered:
    """The first answer read from ``pipes`` (one per process of ``procs``)."""
    failures: list[BaseException] = []
    waiting: dict[Any, Any] = dict(zip(pipes, procs))
    while waiting:
        left = None if limits.deadline is None else limits.deadline - time.monotonic()
        if left is not None and left <= 0:
            raise limits.timed_out()
        ready: list[Any] = multiprocessing.connection.wait(list(waiting), timeout=left)
        if not ready:
            raise limits.timed_out()
        for conn in ready:
            proc = waiting.pop(conn)
            try:
                kind, value = conn.recv()
            except EOFError:  # the process died without a word (a signal, the kernel)
                proc.join()
                kind, value = (
                    "error",
                    SymbolicError(f"a solver process ended with exit status {proc.exitcode}"),
                )
            if kind == "answer":
                return value
            failures.append(value)
    # every way failed: the first failure speaks for all (the limits are shared)
    raise next((f for f in failures if isinstance(f, LimitExceeded)), failures[0])


def _way(send, circuit: Circuit, way: str, limits: Limits, settings: dict) -> None:
    """A process of :func:`first_answer`: solve, send ("answer", Answered) or ("error",
    the exception), end without Python's exit handlers (the parent's are not ours)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        r = solve_safety(circuit, *default_names(circuit), limits=limits, order=way, **settings)
        answer = Answered(
            r.realizable,
            r.iterations,
            r.winning_size,
            r.proof,
            r.merged,
            way,
            r.manager.backend,  # type: ignore[attr-defined]
        )
        send.send(("answer", answer))
    except BaseException as err:  # noqa: BLE001 - every failure goes to the parent
        try:
            send.send(("error", err))
        except Exception:  # an exception that does not pickle: its text
            send.send(("error", SymbolicError(f"{type(err).__name__}: {err}")))
    finally:
        send.close()
        os._exit(0)
