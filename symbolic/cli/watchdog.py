"""The command line's watchdog: Ctrl-C and ``--timeout`` end the process within 2 s, even
while the main thread is inside one long call of a BDD backend.

Python runs its signal handlers (Ctrl-C's ``KeyboardInterrupt``, the alarm of
:meth:`symbolic.limits.Limits.enforced`) in the main thread, between two bytecodes: a
call into oxidd that lasts 10 minutes holds them off for 10 minutes (before this module,
SIGINT into ``strategy connect4 -p w=5 -p h=4`` acted only once the call returned).
oxidd releases Python's lock while it computes, so another thread still runs: the
:class:`Watchdog`, a daemon thread that the ``symbolic`` command starts around the
request. It learns of a Ctrl-C through :func:`signal.set_wakeup_fd` (the interpreter's C
handler writes the signal's number to a pipe at once, whatever the main thread does) and
knows the deadline; when the main thread has not ended the request :data:`GRACE` seconds
after either, the watchdog prints the same one-line message the main thread would have
printed (naming the stage that was running, or the one the main thread was leaving when the
limit unwound it: :meth:`~symbolic.limits.Limits.timed_out`; with ``--json``, the same
document on stdout, :func:`symbolic.cli.output.stopped_document`), flushes what it can and
leaves with :func:`os._exit` (status 130 or 3). With ``--max-memory`` it also ends the
process (status 3) once its resident memory passes the cap by :data:`RESIDENT_SLACK_MB`:
the cap bounds the BDD manager and the explicit positions, and the watchdog the rest (a
GDL grounder, the front end), which no check of the cap sees. It is
for the ``symbolic`` process only (:func:`symbolic.cli.console` calls :func:`enable`):
``main()`` called from Python never ends its caller's process.

>>> from symbolic.limits import Limits
>>> with Watchdog(Limits(timeout=60)) as dog:  # not enabled: watches nothing
...     dog.running()
False
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
from typing import Callable

from .. import interrupts
from ..errors import LimitExceeded
from ..limits import Limits, megabytes

__all__ = [
    "Watchdog",
    "enable",
    "resident_bytes",
    "GRACE",
    "INTERRUPTED",
    "LIMIT",
    "RESIDENT_SLACK_MB",
]

#: seconds the main thread has to end a request by itself after Ctrl-C or the deadline
#: (the alarm of ``--timeout`` rings 0.25 s after it; a cooperative check comes first)
GRACE = 1.0
#: the exit statuses the watchdog leaves with (as :mod:`symbolic.cli`)
INTERRUPTED, LIMIT = 130, 3
#: seconds between two looks at the clock
_TICK = 0.05
#: MB the process may hold beyond ``--max-memory`` (Python, the front end, a grounder)
#: before the watchdog ends it: gt_two_thirds_6p's grounding passed 8 GB under a 4 GB cap
RESIDENT_SLACK_MB = 2048
#: ticks between two looks at the resident memory
_RSS_TICKS = 5


def enable() -> None:
    """Let watchdogs end this process: the ``symbolic`` command's own (``console``);
    and Ctrl-C kill it inside the native calls that hold Python's lock
    (:func:`symbolic.interrupts.kernel_ends_on_ctrl_c`)."""
    interrupts.enable()


class Watchdog:
    """A context manager: within the block, a daemon thread ends the process when a
    Ctrl-C or the deadline of ``limits`` has not ended the request :data:`GRACE`
    seconds later (see the module docstring). Main thread only (elsewhere a no-op, as
    :func:`signal.set_wakeup_fd` requires); leaving the block stops it, and a watchdog
    already ending the process keeps the block from being left (no second message)."""

    def __init__(self, limits: Limits, report: Callable[[LimitExceeded], str] | None = None):
        self.limits = limits
        # the --json document of a run the time limit ended (written to stdout)
        self.report = report
        self._lock = threading.Lock()  # held while ending the process, or while stopping
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fds: tuple[int, int] | None = None
        self._old_fd = -1

    def running(self) -> bool:
        """Whether the watchdog's thread is watching."""
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> "Watchdog":
        if not interrupts.enabled() or threading.current_thread() is not threading.main_thread():
            return self
        r, w = os.pipe()
        os.set_blocking(w, False)
        try:
            self._old_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except (ValueError, OSError):  # not the main interpreter, or no such call
            os.close(r)
            os.close(w)
            return self
        self._fds = (r, w)
        self._thread = threading.Thread(target=self._watch, daemon=True, name="symbolic watchdog")
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._fds is None:
            return
        with self._lock:  # blocks for good if the watchdog is ending the process
            self._stop.set()
        signal.set_wakeup_fd(self._old_fd)
        if self._thread is not None:
            self._thread.join()
        for fd in self._fds:
            os.close(fd)
        self._fds = None

    def _watch(self) -> None:
        assert self._fds is not None
        # SIGINT goes to another thread: the main one (it still reaches the pipe)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        r = self._fds[0]
        interrupted_at = None
        deadline = self.limits.deadline
        cap = self.limits.max_memory
        ceiling = None if cap is None else megabytes(cap + RESIDENT_SLACK_MB)
        ticks = 0
        while not self._stop.is_set():
            ready, _, _ = select.select([r], [], [], _TICK)
            ticks += 1
            if ceiling is not None and not ticks % _RSS_TICKS:
                rss = resident_bytes()
                if rss is not None and rss > ceiling:
                    self._over_memory(rss)
            now = time.monotonic()
            if ready:
                data = os.read(r, 512)
                if interrupted_at is None and signal.SIGINT in data:
                    interrupted_at = now
            if interrupted_at is not None and now > interrupted_at + GRACE:
                self._end(INTERRUPTED, "symbolic: interrupted")
            elif deadline is not None and now > deadline + GRACE:
                # no sizes: they would be computed by this thread, beside the main one's
                # work; the stage running (or, the main thread unwinding, the one it left)
                err = self.limits.timed_out()
                err.solved = err.solved or self._solved()
                document = None if self.report is None else self.report(err)
                self._end(LIMIT, f"symbolic: {err.message}", document)

    def _over_memory(self, rss: int) -> None:
        """End the process: its resident memory ``rss`` passed the cap and the slack."""
        lim = self.limits
        where = lim.where()
        err = LimitExceeded(
            f"memory limit of {lim.max_memory:g} MB reached while {where} (resident"
            f" {rss >> 20} MB, past the cap and the {RESIDENT_SLACK_MB} MB left to the rest"
            " of the process)",
            "max-memory",
            where,
        )
        err.solved = self._solved()
        document = None if self.report is None else self.report(err)
        self._end(LIMIT, f"symbolic: {err.message}", document)

    def _solved(self) -> list | None:
        """What the request finished before the stop (:attr:`Limits.solved`), or None."""
        rows = self.limits.solved
        return None if rows is None else (rows() or None)

    def _end(self, status: int, message: str, document: str | None = None) -> None:
        if not self._lock.acquire(blocking=False) or self._stop.is_set():
            return  # the main thread is leaving the block: it reports by itself
        _flush_stdout(0.2)
        for fd, text in ((1, document), (2, message + "\n")):
            if text is None:
                continue
            try:
                os.write(fd, text.encode("utf-8", "replace"))
            except OSError:
                pass
        os._exit(status)


def resident_bytes() -> int | None:
    """This process's resident memory in bytes (Linux's /proc; None elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _flush_stdout(seconds: float) -> None:
    """Flush sys.stdout from a helper thread, waiting at most ``seconds`` (the main thread
    may hold its lock, blocked in a write)."""

    def flush():
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001 - the process ends anyway; the message matters
            pass

    t = threading.Thread(target=flush, daemon=True)
    t.start()
    t.join(seconds)
