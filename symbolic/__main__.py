"""``python -m symbolic`` and the ``symbolic`` command: the command line.

:func:`main` imports the command line itself, so that a Ctrl-C during the imports (a
second or more on a busy machine) ends with the status and message of any other
interruption (130, "symbolic: interrupted"), not a traceback: until the command line
installs its own handler, Ctrl-C ends the process at once (there is nothing to clean up
yet), whichever import it lands in. A Ctrl-C while Python itself starts (``site`` and the
``.pth`` files, then the launcher's import of this module: milliseconds to tens of
milliseconds), is still Python's own (docs/limits.md measures it), unless the parent
started the command with SIGINT blocked (``env --block-signal=INT symbolic ...``):
:func:`main` unblocks it once its handler is installed, and one sent before acts then.
"""

import os
import sys

import _signal  # the C module: importing ``signal`` itself (enums) takes a while


def _interrupted(signum, frame) -> None:
    """Ctrl-C before the command line runs: the one-line message and status 130, now."""
    try:
        os.write(2, b"symbolic: interrupted\n")
    finally:
        os._exit(130)


def main() -> None:
    # only where Ctrl-C would raise KeyboardInterrupt (not where the shell ignores it)
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _interrupted)
        # a Ctrl-C that the parent held back (SIGINT blocked from the start, so that
        # none meets Python while it starts) acts from here, through the handler above
        _signal.pthread_sigmask(_signal.SIG_UNBLOCK, [_signal.SIGINT])
    try:
        from .cli import console
    except KeyboardInterrupt:  # pragma: no cover - the handler above comes first
        print("symbolic: interrupted", file=sys.stderr)
        sys.stderr.flush()
        os._exit(130)
    console()


if __name__ == "__main__":
    main()
