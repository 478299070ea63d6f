"""Resource limits of one request: a time budget, a memory cap, and where the work is.

A :class:`Limits` object travels with a request: the command line builds one
from ``--timeout`` and ``--max-memory``, and the Python API passes one to
:func:`symbolic.engines.make_engine` (``limits=``). The engines name their
stage (``building δ: move take, valuation 3 of 600``; ``until, iteration 57``)
and call :meth:`Limits.check` between units of work (each fixpoint iteration,
each move valuation, each quantifier instance of the BDD compiler); past the
deadline it raises :class:`~symbolic.errors.LimitExceeded`, whose message says
which limit and at which stage. The memory cap is CUDD's own
(``configure(max_memory=...)``): past it the BDD manager raises
:class:`~symbolic.errors.OutOfMemory` (also a ``LimitExceeded``), with the stage.

Between two checks the work cannot be stopped cooperatively (one CUDD call,
the front end evaluating constants): :meth:`Limits.enforced` adds an alarm
signal (main thread, POSIX) that raises the same error at the next Python
instruction, so the command line never runs past ``--timeout`` by more than
one backend call.

>>> lim = Limits(timeout=60)
>>> with lim.stage("building δ"):
...     lim.check("move take")
...     lim.where()
'building δ: move take'
>>> Limits(timeout=-1)
Traceback (most recent call last):
...
symbolic.errors.BadLimit: timeout must be a positive number of seconds, got -1
"""
from __future__ import annotations

import contextlib
import contextvars
import math
import signal
import sys
import threading
import time
from typing import Callable, Iterator

from .errors import BadLimit, BadLimitType, LimitExceeded

__all__ = ["Limits", "NO_LIMITS", "MAX_NESTING", "MAX_EXPANDED_NESTING", "ensure_recursion_headroom", "megabytes",
           "int_text", "current", "using"]

#: how deep model text and formulas may nest (parentheses, operators, ``X``):
#: deeper ones are refused with a located error (the checker, the IR passes and
#: both engines are recursive; :func:`ensure_recursion_headroom` gives them room)
MAX_NESTING = 200

#: how deep a named set or formula may nest once the sets and formulas it names
#: are expanded (a chain of definitions, each naming the previous one, adds up):
#: deeper ones are refused with an error located at the definition
MAX_EXPANDED_NESTING = 2 * MAX_NESTING

#: the longest integer literal (in digits) that model text and ``-p`` values may
#: hold (Python itself refuses to read more than 4300)
MAX_INT_DIGITS = 1000

#: the Python recursion limit symbolic needs for :data:`MAX_NESTING` levels
#: (each level of an expression costs up to ~10 frames across the passes)
RECURSION_LIMIT = 12 * MAX_NESTING + 2000

#: seconds the alarm of Limits.enforced waits after the deadline
_ALARM_GRACE = 0.25

#: functions the alarm must not interrupt (finalisers, gc callbacks)
_NO_RAISE = frozenset({"__del__", "__dealloc__", "_release_unused", "<lambda>", "close"})

#: seconds between two progress refreshes (sizes are only computed then)
_REFRESH = 0.25


def ensure_recursion_headroom() -> None:
    """Raise Python's recursion limit to :data:`RECURSION_LIMIT` if it is lower
    (never lowers it): room for expressions nested :data:`MAX_NESTING` deep."""
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)


def int_text(n: int) -> str:
    """The exact decimal text of ``n``, also beyond Python's limit on int to
    str conversion (4300 digits, a guard meant for parsing untrusted text).

    >>> len(int_text(10 ** 5000))
    5001
    """
    if -10 ** 4000 < n < 10 ** 4000:
        return str(n)
    chunk = 10 ** 4000
    sign, n = ("-", -n) if n < 0 else ("", n)
    parts = []
    while n:
        n, r = divmod(n, chunk)
        parts.append(str(r).zfill(4000))
    return sign + "".join(reversed(parts)).lstrip("0")


def _positive(name: str, value, unit: str) -> float | None:
    """``value`` as a positive finite float, None for None; BadLimit / BadLimitType otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadLimitType(f"{name} must be a number of {unit} or None, "
                           f"got {type(value).__name__} {value!r}")
    if not (value > 0 and math.isfinite(value)):
        raise BadLimit(f"{name} must be a positive number of {unit}, got {value!r}")
    return value


def megabytes(n: float) -> int:
    """Bytes in ``n`` MB (1 MB = 2**20 bytes here, as ``--max-memory`` counts).

    >>> megabytes(1.5)
    1572864
    """
    return int(n * 2 ** 20)


class Limits:
    """The limits of one request and the stage its work has reached.

    ``timeout``: seconds from the construction of this object (None: no limit).
    ``max_memory``: MB (2**20 bytes) that the BDD manager may use (None: symbolic's
    default cap, a share of the machine's memory). ``progress``: a callable
    ``(stage_text, info) -> None`` told about the work a few times a second
    (:mod:`symbolic.progress`), or None. Wrong types raise
    :class:`~symbolic.errors.BadLimitType` (a TypeError), impossible values
    :class:`~symbolic.errors.BadLimit` (a ValueError).

    >>> Limits(max_memory=512).max_memory_bytes
    536870912
    >>> Limits(timeout="5")
    Traceback (most recent call last):
    ...
    symbolic.errors.BadLimitType: timeout must be a number of seconds or None, got str '5'
    """

    def __init__(self, *, timeout: float | None = None, max_memory: float | None = None,
                 progress: Callable[[str, dict], None] | None = None):
        self.timeout = _positive("timeout", timeout, "seconds")
        self.max_memory = _positive("max_memory", max_memory, "MB")
        if progress is not None and not callable(progress):
            raise BadLimitType(f"progress must be callable or None, got {progress!r}")
        self.progress = progress
        self.started = time.monotonic()
        self.deadline = None if self.timeout is None else self.started + self.timeout
        self._stages: list[str] = []
        self._detail = ""
        self._next_refresh = self.started + _REFRESH

    def __repr__(self) -> str:
        return f"Limits(timeout={self.timeout!r}, max_memory={self.max_memory!r})"

    @property
    def max_memory_bytes(self) -> int | None:
        """The memory cap in bytes, or None."""
        return None if self.max_memory is None else megabytes(self.max_memory)

    # ------------------------------------------------------------------ stages

    @contextlib.contextmanager
    def stage(self, text: str) -> Iterator["Limits"]:
        """Name the work done inside the ``with`` block (stages nest)."""
        self._stages.append(text)
        saved, self._detail = self._detail, ""
        try:
            yield self
        finally:
            self._stages.pop()
            self._detail = saved

    def where(self) -> str:
        """The current stage, outermost first, with the last detail given to :meth:`check`."""
        parts = list(self._stages)
        text = " › ".join(parts)
        if self._detail:
            text = f"{text}: {self._detail}" if text else self._detail
        return text or "starting"

    def elapsed(self) -> float:
        """Seconds since this object was made."""
        return time.monotonic() - self.started

    # ------------------------------------------------------------------ checks

    def check(self, detail: str | None = None, info: Callable[[], dict] | None = None) -> None:
        """Record ``detail`` (e.g. ``"iteration 57"``) and raise
        :class:`~symbolic.errors.LimitExceeded` if the time is up. ``info`` is
        called only when progress is shown or the limit is hit: it returns sizes
        (``{"positions": n, "nodes": k}``) too costly to compute at every step.
        Without ``detail`` the last one stays."""
        if detail is not None:
            self._detail = detail
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise self.timed_out(info)
        if self.progress is not None and now >= self._next_refresh:
            self._next_refresh = now + _REFRESH
            self.progress(self.where(), _sizes(info))

    def timed_out(self, info: Callable[[], dict] | None = None) -> LimitExceeded:
        """The error to raise when the time is up, naming the stage and the sizes."""
        sizes = _sizes(info)
        where = self.where()
        if sizes:
            where += " (" + ", ".join(f"{v} {k}" for k, v in sizes.items()) + ")"
        return LimitExceeded(f"time limit of {_num(self.timeout)} s reached while {where}",
                             "timeout", where)

    def out_of_memory(self, what: str) -> str:
        """The message of an out-of-memory error raised at the current stage."""
        cap = f"memory limit of {_num(self.max_memory)} MB" if self.max_memory else "memory limit"
        return f"{cap} reached while {self.where()} ({what})"

    # ------------------------------------------------------------------ the alarm

    @contextlib.contextmanager
    def enforced(self) -> Iterator["Limits"]:
        """Within the block, an alarm signal raises the timeout error even in the
        middle of work that does not call :meth:`check` (front end, explicit
        enumeration); only in the main thread of a POSIX process, else a no-op."""
        usable = (self.deadline is not None and hasattr(signal, "setitimer")
                  and threading.current_thread() is threading.main_thread())
        if not usable:
            yield self
            return

        def ring(signum, frame):
            # an exception raised inside a finaliser or a gc callback is only
            # printed ("Exception ignored in ..."): ring again a little later
            f, depth = frame, 0
            while f is not None and depth < 4:
                if f.f_code.co_name in _NO_RAISE:
                    signal.setitimer(signal.ITIMER_REAL, 0.05)
                    return
                f, depth = f.f_back, depth + 1
            raise self.timed_out()

        old = signal.signal(signal.SIGALRM, ring)
        # a little after the deadline: a cooperative check, which knows the sizes,
        # usually comes first; the alarm catches work that never checks
        signal.setitimer(signal.ITIMER_REAL,
                         max(1e-3, self.deadline - time.monotonic() + _ALARM_GRACE))
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


def _sizes(info: Callable[[], dict] | None) -> dict:
    if info is None:
        return {}
    try:
        return dict(info())
    except LimitExceeded:  # sizes are a courtesy: never let them hide the real error
        return {}


def _num(x: float | None) -> str:
    """``5`` rather than ``5.0``; ``0.5`` stays."""
    if x is None:
        return "?"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


#: no limit at all: the default of the fixpoint idiom
NO_LIMITS = Limits()

_CURRENT: contextvars.ContextVar["Limits | None"] = contextvars.ContextVar(
    "symbolic_limits", default=None)


def current() -> Limits:
    """The limits set by the innermost :func:`using` block, else new empty ones.

    :func:`symbolic.engines.make_engine` takes them when given no ``limits``: so
    every command of the command line obeys ``--timeout`` and ``--max-memory``
    without passing them along."""
    lim = _CURRENT.get()
    return lim if lim is not None else Limits()


@contextlib.contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Make ``limits`` the default of engines built inside the block."""
    token = _CURRENT.set(limits)
    try:
        yield limits
    finally:
        _CURRENT.reset(token)
