"""The ``symbolic`` command line: one module per command.

``symbolic --version`` prints the version; ``symbolic`` alone prints the help (exit 0).

Exit statuses: 0 done; 1 a negative answer (the engines differ with ``--engine both``, a
``strategy --verify`` fails or its start is not won, ``draw --strategy`` from a start not
won); 2 bad input
(errors a user can cause print ``FILE:LINE:COL: error: ...`` or a plain
message on stderr); 3 a resource limit was reached (``--timeout``,
``--max-memory``, the explicit engine's position limit); 4 the output could
not be written (stdout full or closed; a closed pipe, ``| head -1``, ends
quietly with 0); 130 interrupted (Ctrl-C). Never a Python traceback for any
of these.

Every command takes ``--timeout S``, ``--max-memory MB`` and ``--quiet``
(before or after the command name): :func:`main` makes them the
:class:`symbolic.limits.Limits` of every engine the command builds, shows
progress on stderr when it is a terminal, and in ``--json`` mode holds the
command's output back until it has finished, so that an error never leaves
half a document on stdout (a limit reached prints instead a whole document
saying where the run stopped: :func:`symbolic.cli.output.stopped_document`).

Adding a command: write ``symbolic/cli/NAME.py`` with ``register(sub)`` (see
:mod:`symbolic.cli.common`) and list NAME in ``COMMANDS``. A run imports the module of
its command only (:func:`command_of`), so that ``symbolic aiger`` does not load the
model language's parser, GDL or the pictures' libraries.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import sys
from typing import Sequence

from .. import interrupts
from .. import limits as limits_mod
from ..errors import LimitExceeded, SymbolicError
from ..progress import progress_for
from .basics import error_text, limit_args
from .output import stopped_text
from .watchdog import Watchdog, enable as enable_watchdog

__all__ = ["COMMANDS", "build_parser", "command_of", "version", "main", "console"]

#: the commands, in the order ``symbolic --help`` lists them: command NAME is the
#: module ``symbolic.cli.NAME``, imported only when needed (:func:`build_parser`)
COMMANDS = (
    "models",
    "check",
    "show",
    "successors",
    "ens2005",
    "strategy",
    "execute",
    "tictactoe",
    "values",
    "layers",
    "chocolate",
    "play",
    "simulate",
    "nimbers",
    "hackendot",
    "chomp",
    "gdl",
    "aiger",
    "draw",
)

#: exit statuses
OK, MISMATCH, BAD_INPUT, LIMIT, NO_OUTPUT, INTERRUPTED = 0, 1, 2, 3, 4, 130


def command_of(argv: Sequence[str]) -> str | None:
    """The command that ``argv`` runs, when it is sure: the first word that is not an
    option of ``symbolic`` itself (nor the value of one), if it names a command; None
    otherwise (no command, ``--help``, a misspelt or abbreviated option: the whole
    parser then reads ``argv``, with every command's choices in its messages).

    >>> command_of(["--timeout", "5", "aiger", "x.aag"]), command_of(["--version"])
    ('aiger', None)
    """
    top = argparse.ArgumentParser(add_help=False)
    limit_args(top, top=True)
    valued = {s for a in top._actions if a.nargs != 0 for s in a.option_strings}
    flags = {s for a in top._actions if a.nargs == 0 for s in a.option_strings}
    words = iter(argv)
    for w in words:
        if w in valued:
            next(words, None)
        elif not (w in flags or (w.startswith("--") and w.split("=", 1)[0] in valued)):
            return w if w in COMMANDS else None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line: every command's, or command ``only``'s alone (its
    module the only one imported)."""
    p = argparse.ArgumentParser(
        prog="symbolic",
        description="Solve finite multi-player games, turn-based or concurrent (model files, "
        "GDL, AIGER), and their ATL questions with BDDs.",
        epilog="Exit statuses: 0 ok, 1 a negative answer (engines differ, a start not won), "
        "2 bad input, 3 limit reached, "
        "4 output not written, 130 interrupted.",
    )
    p.add_argument("--version", action=_Version, help="show the version and exit")
    limit_args(p, top=True)
    # no command: the help, on stdout, exit 0 (_run)
    sub = p.add_subparsers(dest="command", required=False, metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"{__name__}.{name}").register(sub)
    # every command takes the limits, whether it reads a model or not
    for sp in sub.choices.values():
        if not any(a.dest == "timeout" for a in sp._actions):
            limit_args(sp)
    return p


def version() -> str:
    """The installed distribution's version (pyproject.toml's), else ``unknown`` (a
    checkout imported without installing it).

    >>> version() != ""
    True
    """
    import importlib.metadata  # on use: loading it is a large part of a short run

    try:
        return importlib.metadata.version("symbolic")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    """``--version``: argparse's own, the version read only when asked (:func:`version`)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser._print_message(f"symbolic {version()}\n", sys.stdout)
        parser.exit()


def main(argv: Sequence[str] | None = None, started: float | None = None) -> int:
    """Run the command line ``argv``; ``started`` (a :func:`time.monotonic` value) is where
    ``--timeout`` counts from (default: now; the ``symbolic`` command: its process's start)."""
    shown, told = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Output(shown), _Output(told, lossy=True)
    try:
        status = _run(argv, started)
        try:
            sys.stdout.flush()
        except _OutputFailed as err:
            failed = _output_failed(err.error)
            return failed if status == OK else status  # an earlier error's status stays
        return status
    except KeyboardInterrupt:
        if interrupts.enabled():  # the command's process, which ends now (console)
            # an object the Ctrl-C left half-built (dd.autoref's Function before its
            # ``node``) reports its finaliser's error as the exception is cleared
            sys.unraisablehook = _ignore_unraisable
        print("symbolic: interrupted", file=sys.stderr)
        return INTERRUPTED
    except SystemExit:  # argparse: --help, or a refused option (its message is on stderr)
        _flush_output()
        raise
    except _OutputFailed as err:
        return _output_failed(err.error)
    finally:
        sys.stdout, sys.stderr = shown, told


def _ignore_unraisable(unraisable) -> None:
    """``sys.unraisablehook`` of a ``symbolic`` process ending on Ctrl-C: nothing."""


def console() -> None:
    """The ``symbolic`` command: :func:`main`, then the process's exit.

    Once :func:`main` has answered (and flushed stdout, reporting a failure there), the
    process leaves at once (``os._exit``): nothing runs after the answer, where no limit
    applies any more (freeing a large BDD manager at interpreter exit took seconds, while
    the user waits for the prompt; bench/journal/2026-11-26-issue-32.md).
    """
    _occupy_closed_streams()
    enable_watchdog()  # Ctrl-C and --timeout end this process even inside a backend call
    status = main(started=limits_mod.process_started())
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # closed, or None (no stream at all)
            pass
    os._exit(status)


def _run(argv: Sequence[str] | None, started: float | None = None) -> int:
    limits_mod.ensure_recursion_headroom()
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_of(argv))
    args = parser.parse_args(argv)
    if args.command is None:  # a bare `symbolic`: what it can do, not an error
        parser.print_help()
        return OK
    if (getattr(args, "limit", 0) or 0) < 0:
        parser.error("--limit must be >= 0")
    json_mode = bool(getattr(args, "json", False))
    progress = None
    try:
        progress = progress_for(args.quiet, json_mode)
        lim = limits_mod.Limits(
            timeout=args.timeout,
            max_memory=args.max_memory,
            threads=args.threads,
            cache_bits=args.cache_bits,
            progress=progress,
            started=started,
        )
        held = io.StringIO() if json_mode else None
        # --json: a run a limit ends still prints a document, saying where it stopped
        report = (lambda err: stopped_text(args, err)) if json_mode else None
        dog = Watchdog(lim, report)
        with limits_mod.using(lim), lim.enforced(), limits_mod.deferred_interrupts(), dog:
            if held is None:
                status = args.func(args)
            else:
                real, sys.stdout = sys.stdout, held
                try:
                    status = args.func(args)
                finally:
                    sys.stdout = real
        if progress is not None:
            progress.close()
            progress = None
        if held is not None:
            sys.stdout.write(held.getvalue())
        sys.stdout.flush()  # a closed pipe shows here, inside the handler of main
        return status
    except LimitExceeded as err:
        if interrupts.enabled():  # the command's process, which ends now (console)
            # the timeout's alarm raises wherever the main thread is, as Ctrl-C does: a
            # thread it caught starting reports its failure as the process ends
            sys.unraisablehook = _ignore_unraisable
        _close(progress)
        if json_mode:
            try:
                sys.stdout.write(stopped_text(args, err))
                sys.stdout.flush()  # before the message on stderr (2>&1 keeps the order)
            except _OutputFailed:
                pass  # the limit's status and message matter more than the document
        print(f"symbolic: {error_text(err)}", file=sys.stderr)
        return LIMIT
    except SymbolicError as err:
        _close(progress)
        # located errors already read FILE:LINE:COL: error: ...
        text = error_text(err)
        print(text if err.span is not None else f"symbolic: error: {text}", file=sys.stderr)
        return BAD_INPUT
    except MemoryError:
        _close(progress)
        print(
            "symbolic: out of memory (Python could not allocate more); --max-memory sets a cap",
            file=sys.stderr,
        )
        return LIMIT
    except RecursionError:
        _close(progress)
        print(
            f"symbolic: error: the input nests too deeply (at most "
            f"{limits_mod.MAX_NESTING} levels are supported)",
            file=sys.stderr,
        )
        return BAD_INPUT
    except BaseException:
        _close(progress)
        raise


def _close(progress) -> None:
    if progress is not None:
        try:
            progress.close()
        except Exception:  # noqa: BLE001 - the line is cosmetic, the error is not
            pass


class _OutputFailed(Exception):
    """stdout refused a write or a flush: ``error`` is its OSError (kept apart from
    the OSErrors of reading files, which are FileErrors)."""

    def __init__(self, error: OSError):
        super().__init__(error)
        self.error = error


class _Output:
    """stdout (stderr) as the commands see it during :func:`main`: the stream's own
    write and flush, an OSError of either raised as :class:`_OutputFailed` (``lossy``,
    for stderr: ignored, the run goes on). ``None`` (the stream was closed when the
    process started) refuses every write."""

    def __init__(self, stream, lossy: bool = False):
        self._stream = stream
        self._lossy = lossy

    def _call(self, name: str, *args):
        try:
            if self._stream is None:
                raise OSError(errno.EBADF, "standard output is closed")
            return getattr(self._stream, name)(*args)
        except (OSError, ValueError) as err:  # ValueError: a closed file object
            if self._lossy:
                return None
            raise _OutputFailed(
                err
                if isinstance(err, OSError)
                else OSError(errno.EBADF, "standard output is closed")
            ) from err

    def write(self, text: str) -> int:
        return self._call("write", text)

    def writelines(self, lines) -> None:
        self._call("writelines", lines)

    def flush(self) -> None:
        self._call("flush")

    def isatty(self) -> bool:
        return self._stream is not None and bool(self._stream.isatty())

    def __getattr__(self, name: str):
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _output_failed(error: OSError) -> int:
    """The end of a run whose output could not be written: quiet for a closed pipe
    (``| head -1``), else one line on stderr and :data:`NO_OUTPUT`."""
    _quiet_stdout()
    if isinstance(error, BrokenPipeError):
        return OK
    reason = error.strerror or str(error)
    print(f"symbolic: error: cannot write the output: {reason}", file=sys.stderr)
    return NO_OUTPUT


def _flush_output() -> None:
    """Flush stdout before a SystemExit leaves :func:`main`; a refusal leaves it
    pointing at /dev/null (the interpreter's last flush must not fail again)."""
    try:
        sys.stdout.flush()
    except _OutputFailed:
        _quiet_stdout()


def _occupy_closed_streams() -> None:
    """A stream closed when the process started (``>&-``, ``2>&-``) gets /dev/null
    on its descriptor, so that no file opened later takes that number; Python's
    ``sys.stdout`` stays None (:class:`_Output` refuses it), ``sys.stderr`` becomes
    /dev/null (messages are lost, exit statuses are not)."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # open after all (sys.stdout set to None by someone else)
        except OSError:
            pass
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
        except OSError:
            continue
        if name == "stderr":
            sys.stderr = open(fd, "w", closefd=False)  # noqa: SIM115 - lives as long as the process


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so that the interpreter's
    final flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


if __name__ == "__main__":  # pragma: no cover
    console()
