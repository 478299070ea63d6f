"""Resource limits of one request: a time budget, a memory cap, and where the work is.

A :class:`Limits` object travels with a request: the command line builds one
from ``--timeout`` and ``--max-memory``, and the Python API passes one to
:func:`symbolic.engines.make_engine` (``limits=``). The engines name their
stage (``building δ: move take, valuation 3 of 600``; ``until, iteration 57``)
and call :meth:`Limits.check` between units of work (each fixpoint iteration,
each move valuation, each quantifier instance of the BDD compiler); past the
deadline it raises :class:`~symbolic.errors.LimitExceeded`, whose message says
which limit and at which stage. It also says how many threads the BDD engine may
use (``--threads``: oxidd's worker threads; one by default, at most the usable cores:
several can hang on shared cores, docs/limits.md). The memory cap is CUDD's own
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
import os
import re
import signal
import sys
import threading
import time
from typing import Callable, Iterator

from .errors import BadLimit, BadLimitType, LimitExceeded, QueryError

__all__ = [
    "Limits",
    "NO_LIMITS",
    "MAX_NESTING",
    "MAX_EXPANDED_NESTING",
    "MAX_TIMEOUT",
    "MAX_MEMORY_MB",
    "ensure_recursion_headroom",
    "megabytes",
    "int_text",
    "size_text",
    "is_int_text",
    "parse_int",
    "short_text",
    "current",
    "using",
    "process_started",
    "deferred_interrupts",
    "MAX_THREADS",
    "usable_cores",
    "threads_above_cores",
]

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

#: the longest timeout (seconds, about 31 years): the alarm of Limits.enforced
#: cannot be set much further (the platform's time_t), and no request needs more
MAX_TIMEOUT = 10**9

#: the largest memory cap (MB): 2**43 MB is 2**63 bytes, what the BDD backends'
#: C interfaces can hold
MAX_MEMORY_MB = 2**43

#: the most worker threads a BDD engine may ever be given; :func:`usable_cores` binds first
MAX_THREADS = 1024
#: the smallest and largest apply cache an oxidd manager may be given (``--cache-bits E``:
#: 2^E entries of 11 bytes; 2^30 takes 11.8 GB)
CACHE_BITS_RANGE = (10, 30)
#: the kinds of work a request may announce (:meth:`Limits.expect_work`)
WORKS = ("fixpoints", "layers")


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask where the platform has one).

    >>> usable_cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity masks on this platform
        return max(1, os.cpu_count() or 1)


def threads_above_cores(n: int) -> str:
    """The message refusing ``n`` worker threads on fewer usable cores."""
    cores = usable_cores()
    return (
        f"{n} threads asked for, but this process may run on {cores} "
        f"core{'s' if cores > 1 else ''}: at most {cores}"
    )


#: an integer as the command line writes it: ASCII digits only (``int()`` would
#: also read Arabic-Indic or full-width digits, and ``1_000``)
_INT_TEXT = re.compile(r"[+-]?[0-9]+")

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
    if -(10**4000) < n < 10**4000:
        return str(n)
    chunk = 10**4000
    sign, n = ("-", -n) if n < 0 else ("", n)
    parts = []
    while n:
        n, r = divmod(n, chunk)
        parts.append(str(r).zfill(4000))
    return sign + "".join(reversed(parts)).lstrip("0")


def size_text(n: int) -> str:
    """A count for a message: exact up to 30 digits, else its magnitude (a space
    of 2**40000 positions is not worth 12 042 digits of an error message).

    >>> size_text(10 ** 6), size_text(2 ** 40000)
    ('1000000', 'about 1.5e12041 (a number of 12042 digits)')
    """
    t = int_text(n)
    digits = len(t.lstrip("-"))
    if digits <= 30:
        return t
    lead = t.lstrip("-")
    return f"about {t[: len(t) - digits]}{lead[0]}.{lead[1]}e{digits - 1} (a number of {digits} digits)"


def is_int_text(text: str) -> bool:
    """Whether ``text`` is an integer written with ASCII digits (an optional sign,
    no blanks, no ``_``): the one reading of integers from the command line,
    ``-p`` values, positions and strategy files.

    >>> is_int_text("-12"), is_int_text("\u0663"), is_int_text("1_000"), is_int_text(" 1")
    (True, False, False, False)
    """
    return isinstance(text, str) and _INT_TEXT.fullmatch(text) is not None


def parse_int(text: str, what: str = "") -> int:
    """The integer written in ``text`` (:func:`is_int_text`, surrounding blanks
    allowed, at most :data:`MAX_INT_DIGITS` digits); QueryError naming ``what``
    otherwise.

    >>> parse_int(" 42 ", "--at j")
    42
    >>> parse_int("\u0663", "--at j")
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: --at j: expected an integer (ASCII digits 0-9), got '\u0663'
    """
    t = text.strip() if isinstance(text, str) else text
    where = f"{what}: " if what else ""
    if not is_int_text(t):
        raise QueryError(f"{where}expected an integer (ASCII digits 0-9), got {short_text(text)}")
    digits = len(t.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise QueryError(
            f"{where}an integer of {digits} digits, at most {MAX_INT_DIGITS} are allowed"
        )
    return int(t)


def short_text(text, width: int = 60) -> str:
    """``repr(text)`` cut to about ``width`` characters (a hostile input may be
    a megabyte long: messages quote its start and say how long it is).

    >>> short_text("x" * 1000, 10)
    "'xxxxxxxxxx…' (1000 characters)"
    """
    if not isinstance(text, str):
        text = str(text) if not isinstance(text, int) else int_text(text)
    if len(text) <= width:
        return repr(text)
    head = repr(text[:width])
    return f"{head[:-1]}…{head[-1]} ({len(text)} characters)"


def _number_text(value) -> str:
    """A limit's value in a message (an int of any size, a float)."""
    if isinstance(value, int) and not isinstance(value, bool):
        t = int_text(value)
        return t if len(t) <= 30 else f"{t[:12]}... ({len(t)} digits)"
    return repr(value)


def _typed(value) -> str:
    """A wrong limit in a message: its type and its repr, cut to 60 characters."""
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 60 else shown[:60] + '…'}"


def _whole(name: str, value, low: int, high: int) -> int | None:
    """``value`` as an integer in low..high, None for None; BadLimit / BadLimitType
    otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadLimitType(f"{name} must be an integer or None, got {_typed(value)}")
    if not low <= value <= high:
        raise BadLimit(f"{name} must be between {low} and {high}, got {_number_text(value)}")
    return value


def _positive(name: str, value, unit: str, most: int) -> float | None:
    """``value`` as a positive finite number at most ``most``, None for None;
    BadLimit / BadLimitType otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadLimitType(f"{name} must be a number of {unit} or None, got {_typed(value)}")
    # compared as given: float(10**400) would overflow
    if not (value > 0 and (isinstance(value, int) or math.isfinite(value))):
        raise BadLimit(f"{name} must be a positive number of {unit}, got {_number_text(value)}")
    if value > most:
        raise BadLimit(f"{name} must be at most {int_text(most)} {unit}, got {_number_text(value)}")
    return value


def megabytes(n: float) -> int:
    """Bytes in ``n`` MB (1 MB = 2**20 bytes here, as ``--max-memory`` counts).

    >>> megabytes(1.5)
    1572864
    """
    return int(n * 2**20)


class Limits:
    """The limits of one request and the stage its work has reached.

    ``timeout``: seconds from the construction of this object, or from ``started`` (a
    :func:`time.monotonic` value in the past, e.g. :func:`process_started`) when given
    (None: no limit).
    ``max_memory``: MB (2**20 bytes) that the BDD manager may use (None: symbolic's
    default cap, a share of the machine's memory). ``threads``: oxidd's worker threads,
    at most :func:`usable_cores` (None: one, :attr:`worker_threads`). ``cache_bits``: oxidd's apply cache holds
    2^cache_bits entries (None: by the rule of
    :func:`symbolic.bdd.oxidd_sizing.cache_entries` and :meth:`expect_work`).
    ``progress``: a callable
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

    def __init__(
        self,
        *,
        timeout: float | None = None,
        max_memory: float | None = None,
        threads: int | None = None,
        cache_bits: int | None = None,
        progress: Callable[[str, dict], None] | None = None,
        started: float | None = None,
    ):
        self.timeout = _positive("timeout", timeout, "seconds", MAX_TIMEOUT)
        self.max_memory = _positive("max_memory", max_memory, "MB", MAX_MEMORY_MB)
        self.threads = _whole("threads", threads, 1, MAX_THREADS)
        if self.threads is not None and self.threads > usable_cores():
            raise BadLimit(threads_above_cores(self.threads))
        self.cache_bits = _whole("cache_bits", cache_bits, *CACHE_BITS_RANGE)
        self.work: str | None = None  # see expect_work
        if progress is not None and not callable(progress):
            raise BadLimitType(f"progress must be callable or None, got {progress!r}")
        self.progress = progress
        # the command line counts from the process's start (process_started): the
        # user's seconds include the imports
        self.started = time.monotonic() if started is None else min(started, time.monotonic())
        self.deadline = None if self.timeout is None else self.started + self.timeout
        self._stages: list[str] = []
        self._left = ""  # the last outermost stage left (see where)
        self._stopped: LimitExceeded | None = None  # the first timeout raised (see timed_out)
        self._detail = ""
        self._info: Callable[[], dict] | None = None  # the sizes of the last detail
        self._next_refresh = self.started + _REFRESH
        self._budgets: list[tuple[float, type[Exception]]] = []  # :meth:`budget`'s
        # what the command finished so far (LimitExceeded.solved), for the watchdog too
        self.solved: Callable[[], list] | None = None

    def __repr__(self) -> str:
        return f"Limits(timeout={self.timeout!r}, max_memory={self.max_memory!r})"

    def expect_work(self, work: str) -> None:
        """Say, before the engine is made, how this request will solve: ``"fixpoints"``
        (iterated over whole sets: ``check``, ``values``, ``strategy``, ``nimbers``) or
        ``"layers"`` (``values --by-layer``, ``--layered on``). oxidd's apply cache is
        sized for it (:func:`symbolic.bdd.oxidd_sizing.cache_entries`) unless
        ``cache_bits`` is given; a request that says nothing gets the cache of layers,
        which is also the cheaper one to allocate."""
        if work not in WORKS:
            raise BadLimit(f"the work must be one of {', '.join(WORKS)}, got {work!r}")
        self.work = work

    @property
    def worker_threads(self) -> int:
        """The threads a BDD engine may use: ``threads``, or one when it is None. Not
        the cores by default: oxidd 0.13's workers can spin for good beside another busy
        process (bench/journal/2026-11-26-issue-32.md), so several threads are asked for, never
        assumed."""
        return 1 if self.threads is None else self.threads

    @property
    def max_memory_bytes(self) -> int | None:
        """The memory cap in bytes, or None."""
        return None if self.max_memory is None else megabytes(self.max_memory)

    # ------------------------------------------------------------------ stages

    @contextlib.contextmanager
    def stage(self, text: str) -> Iterator["Limits"]:
        """Name the work done inside the ``with`` block (stages nest)."""
        self._stages.append(text)
        saved, self._detail = (self._detail, self._info), ""
        self._info = None
        try:
            yield self
        finally:
            self._stages.pop()
            self._detail, self._info = saved
            if not self._stages:
                self._left = text

    def where(self) -> str:
        """The current stage, outermost first, with the last detail given to :meth:`check`;
        between two stages, the last one left (``between two stages, after reading the
        model``); ``starting`` before the first.

        >>> lim = Limits()
        >>> lim.where()
        'starting'
        >>> with lim.stage("reading the model"):
        ...     pass
        >>> lim.where()
        'between two stages, after reading the model'
        """
        parts = list(self._stages)
        text = " › ".join(parts)
        if self._detail:
            text = f"{text}: {self._detail}" if text else self._detail
        if text:
            return text
        return f"between two stages, after {self._left}" if self._left else "starting"

    def elapsed(self) -> float:
        """Seconds since this object was made."""
        return time.monotonic() - self.started

    @contextlib.contextmanager
    def budget(self, seconds: float, error: type[Exception]) -> Iterator["Limits"]:
        """Within the block, :meth:`check` raises ``error()`` past ``seconds`` of CPU: a try
        that may be abandoned (:mod:`symbolic.gdl.order_probe`); the deadline, which the
        watchdog watches, is unchanged."""
        self._budgets.append((time.process_time() + seconds, error))
        try:
            yield self
        finally:
            self._budgets.pop()

    def budget_left(self) -> tuple[float, type[Exception]] | None:
        """(CPU seconds left, error) of the first :meth:`budget` to end (None: none)."""
        if not self._budgets:
            return None
        spent, error = min(self._budgets, key=lambda b: b[0])
        return spent - time.process_time(), error

    # ------------------------------------------------------------------ checks

    def check(self, detail: str | None = None, info: Callable[[], dict] | None = None) -> None:
        """Record ``detail`` (e.g. ``"iteration 57"``) and raise
        :class:`~symbolic.errors.LimitExceeded` if the time is up. ``info`` is
        called only when progress is shown or the limit is hit: it returns sizes
        (``{"positions": n, "nodes": k}``) too costly to compute at every step.
        Without ``detail`` the last one stays, with its ``info`` (a check from inside
        one step, e.g. oxidd's worker thread during a product, names the sizes of the
        step's operand: a fixpoint's rounds are long enough to end there)."""
        if detail is not None:
            self._detail, self._info = detail, info
        elif info is None:
            info = self._info
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise self.timed_out(info)
        if self._budgets:
            cpu = time.process_time()
            for spent, error in self._budgets:  # the outermost first: it ends every inner try
                if cpu > spent:
                    raise error()
        if self.progress is not None and now >= self._next_refresh:
            self._next_refresh = now + _REFRESH
            self.progress(self.where(), _sizes(info))

    def timed_out(self, info: Callable[[], dict] | None = None) -> LimitExceeded:
        """The error to raise when the time is up, naming the stage and the sizes.

        Outside every stage once a timeout was raised, the first one again: the stages
        are left as that error unwinds them, and the watchdog (:mod:`symbolic.cli.watchdog`),
        asking while the main thread frees a large structure, must name the stage that
        was running, not a gap between stages."""
        if self._stopped is not None and not self._stages:
            return self._stopped
        sizes = _sizes(info)
        where = self.where()
        if sizes:
            where += " (" + ", ".join(f"{v} {k}" for k, v in sizes.items()) + ")"
        err = LimitExceeded(
            f"time limit of {_num(self.timeout)} s reached while {where}", "timeout", where
        )
        if self._stopped is None:
            self._stopped = err
        return err

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
        deadline = self.deadline
        if (
            deadline is None
            or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
        ):
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
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, deadline - time.monotonic() + _ALARM_GRACE))
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


def process_started() -> float:
    """The :func:`time.monotonic` value of this process's start (Linux: from
    ``/proc/self/stat``; elsewhere, now): the command line's ``--timeout`` counts from
    there, the imports included.

    >>> 0 <= time.monotonic() - process_started() < 3600
    True
    """
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / ticks
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0 <= age < 3600 else now


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Within the block, Ctrl-C (SIGINT) raises KeyboardInterrupt as usual, except in a
    finaliser or a gc callback, where Python would only print it ("Exception ignored
    in ...") and go on: there the signal is sent again 50 ms later. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum, frame):
        f, depth = frame, 0
        while f is not None and depth < 4:
            if f.f_code.co_name in _NO_RAISE:
                threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
                return
            f, depth = f.f_back, depth + 1
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, ring)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


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
    "symbolic_limits", default=None
)


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
