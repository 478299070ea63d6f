"""Ctrl-C inside a native call that holds Python's lock: the kernel ends the process.

Python runs its SIGINT handler in the main thread between two bytecodes, and the
``symbolic`` command's watchdog (:mod:`symbolic.cli.watchdog`) is a Python thread: both
need Python's lock. A native call that keeps the lock for seconds (oxidd's manager
constructor allocates its apply cache so) leaves neither able to act. Within
:func:`kernel_ends_on_ctrl_c`, SIGINT has its default disposition instead: a Ctrl-C ends
the process at once, killed by SIGINT (the shell shows status 130, as for any program
that Ctrl-C ends; there is no "symbolic: interrupted" line, no Python code can run to
write it: a helper process could, but it would hear only of a terminal's Ctrl-C, sent to
the whole process group, and could write after the shell's prompt). Only the
``symbolic`` command does this (:func:`enable`, called by
:func:`symbolic.cli.watchdog.enable`): the Python API leaves its caller's handler alone.

>>> with kernel_ends_on_ctrl_c() as switched:  # not enabled: the handler is left alone
...     switched
False
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

__all__ = ["enable", "enabled", "kernel_ends_on_ctrl_c"]

#: whether this process is the ``symbolic`` command (see enable)
_ENABLED = {"on": False}


def enable() -> None:
    """Let this process end itself on Ctrl-C and at its deadline: the ``symbolic``
    command's own (never the Python API's callers)."""
    _ENABLED["on"] = True


def enabled() -> bool:
    """Whether :func:`enable` was called in this process."""
    return _ENABLED["on"]


@contextlib.contextmanager
def kernel_ends_on_ctrl_c() -> Iterator[bool]:
    """Within the block, SIGINT kills the process (its default disposition), when this
    is the ``symbolic`` command, in the main thread, and SIGINT has a Python handler
    (not where it is ignored, as in a background job); yields whether it switched.

    SIGINT is blocked while the handler is switched, after Python has run the handler of
    one that arrived before: none is lost between the two (Python would only warn of a
    signal that found no handler). Leaving the block restores the handler; a SIGINT of
    the block has ended the process, so there is none to send again.
    """
    if not (enabled() and threading.current_thread() is threading.main_thread()):
        yield False
        return
    old = signal.getsignal(signal.SIGINT)
    if not callable(old):  # SIG_IGN, SIG_DFL, or a handler not installed from Python
        yield False
        return
    # the call that blocks runs the handler of a SIGINT already received (the usual
    # KeyboardInterrupt, from here); one arriving while blocked kills at the unblock
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield True
    finally:
        signal.signal(signal.SIGINT, old)
