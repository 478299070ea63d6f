"""What every command's arguments and messages share, kept apart from
:mod:`symbolic.cli.common` so that loading them loads no engine: the limits' flags
(``--timeout``, ``--max-memory``, ...), integer arguments, ``--backend``, ``--json``,
exact JSON text, and errors spelled as this command line's flags.

:mod:`symbolic.cli` and the commands that answer without the engines (``symbolic aiger``'s
safety solver) import this module only; :mod:`symbolic.cli.common` re-exports its names.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from ..bdd.contract import BACKENDS
from ..errors import Hint, QueryError, SymbolicError, spelled
from ..limits import (
    CACHE_BITS_RANGE,
    MAX_MEMORY_MB,
    MAX_THREADS,
    MAX_TIMEOUT,
    parse_int,
    short_text,
    threads_above_cores,
    usable_cores,
)

__all__ = [
    "BACKEND_CHOICES",
    "FLAGS",
    "backend_arg",
    "error_text",
    "flag_words",
    "int_arg",
    "json_arg",
    "json_text",
    "limit_args",
    "threads_arg",
]

#: the ``--backend`` choices: ``auto`` and the backends
#: (:data:`symbolic.bdd.managers.BACKEND_CHOICES`, the same)
BACKEND_CHOICES = ("auto",) + BACKENDS


#: the flag of each setting a :class:`~symbolic.errors.Hint` may name (``start``: the
#: flag with its argument, as the advice to give a set reads)
FLAGS = {
    "max_memory": "--max-memory",
    "threads": "--threads",
    "cache_bits": "--cache-bits",
    "timeout": "--timeout",
    "backend": "--backend",
    "layered": "--layered",
    "at": "--at",
    "x": "--x",
    "y": "--y",
    "x_window": "--x 'VAR=LO..HI'",
    "y_window": "--y 'VAR=LO..HI'",
    "params": "-p",
    "start": "--from SET",
    "store": "--work-dir DIR",
    "engine": "--engine",
}


def flag_words(hint: Hint) -> str:
    """``hint`` as this command line's flags.

    >>> flag_words(Hint("give", "at", ("j", "k")))
    "--at 'j=..., k=...'"
    """
    return spelled(hint, FLAGS[hint.setting], " ", str, lambda v: f"{v}=...", "''")


def error_text(err: SymbolicError) -> str:
    """The message of ``err`` as the command line prints it: its hints as flags,
    after ``FILE:LINE:COL: error:`` when it is located (the caller adds ``symbolic:``
    otherwise)."""
    text = err.text(flag_words)
    return err.span.render(text) if err.span is not None else text


def _positive_number(what: str, most: int):
    """An argparse type: a positive number of ``what`` (ASCII text of a float), at most ``most``."""

    def read(text: str) -> float:
        try:
            if not text.isascii():
                raise ValueError(text)
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of {what}, got {short_text(text)}"
            ) from None
        if not (v > 0 and not math.isnan(v)):
            raise argparse.ArgumentTypeError(
                f"expected a positive number of {what}, got {short_text(text)}"
            )
        if v > most:
            raise argparse.ArgumentTypeError(
                f"expected at most {most} {what}, got {short_text(text)}"
            )
        return int(v) if v.is_integer() else v

    return read


def int_arg(low: int | None = None, high: int | None = None):
    """An argparse type: an integer in ASCII digits (:func:`symbolic.limits.parse_int`,
    the one reader of integers on the command line), at least ``low``, at most ``high``.

    >>> int_arg(0)("12")
    12
    >>> int_arg(0)("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer >= 0, got '-1'
    """

    def read(text: str) -> int:
        try:
            v = parse_int(text)
        except QueryError as err:
            raise argparse.ArgumentTypeError(err.message) from None
        if low is not None and v < low:
            raise argparse.ArgumentTypeError(
                f"expected an integer >= {low}, got {short_text(text)}"
            )
        if high is not None and v > high:
            raise argparse.ArgumentTypeError(
                f"expected an integer <= {high}, got {short_text(text)}"
            )
        return v

    read.__name__ = "integer"  # argparse names the type in some messages
    return read


def threads_arg(text: str) -> int:
    """An argparse type: ``--threads N``, an integer from 1 to the cores this process may
    run on (:func:`symbolic.limits.usable_cores`).

    >>> threads_arg("1")
    1
    """
    n = int_arg(1, MAX_THREADS)(text)
    if n > usable_cores():
        raise argparse.ArgumentTypeError(threads_above_cores(n))
    return n


threads_arg.__name__ = "integer"  # argparse names the type in some messages


def limit_args(sp: argparse.ArgumentParser, top: bool = False) -> None:
    """``--timeout S``, ``--max-memory MB`` and ``--quiet``: every command has
    them (:func:`symbolic.cli.main` applies them), and so does the top-level
    parser (``top``), so they may come before or after the command name."""
    d = None if top else argparse.SUPPRESS  # a subcommand's default must not hide the top's
    sp.add_argument(
        "--timeout",
        type=_positive_number("seconds", MAX_TIMEOUT),
        metavar="S",
        default=d,
        help="stop with exit status 3 after S seconds (from the start of the "
        "process), naming the stage reached",
    )
    sp.add_argument(
        "--max-memory",
        type=_positive_number("MB", MAX_MEMORY_MB),
        metavar="MB",
        default=d,
        help="cap the BDD manager's memory at MB megabytes (2^20 bytes) and the "
        "explicit engine's positions at MB*2^20/500; past it: exit status 3",
    )
    sp.add_argument(
        "--threads",
        type=threads_arg,
        metavar="N",
        default=d,
        help="worker threads of the oxidd backend, at most the usable cores "
        "(default: 1; several can hang on busy cores, docs/limits.md; "
        "CUDD and autoref use one)",
    )
    sp.add_argument(
        "--cache-bits",
        type=int_arg(*CACHE_BITS_RANGE),
        metavar="E",
        default=d,
        help="oxidd's apply cache holds 2^E entries of 11 bytes (default: 2^22; "
        "above 2^36 value vectors, 2^26 when check, values, strategy or "
        "nimbers solve by fixpoints, else 2^24: the sizes measured fastest)",
    )
    sp.add_argument(
        "--quiet",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="no progress line on stderr (it only shows on a terminal, after ~1 s)",
    )


def backend_arg(
    sp,
    help: str | None = "BDD backend of the symbolic engine (default: auto, "
    "i.e. oxidd above 2^20 value vectors when installed, else cudd: the faster "
    "of the two on the benchmarks)",
) -> None:
    """``--backend``: the BDD backend of the symbolic engine (default auto)."""
    sp.add_argument("--backend", choices=BACKEND_CHOICES, default="auto", help=help)


def json_arg(sp, help: str = "print one JSON document") -> None:
    """``--json``: the answer as one JSON document on stdout."""
    sp.add_argument("--json", action="store_true", help=help)


def json_text(doc) -> str:
    """``json.dumps(doc)``, exact for ints of any size (Python refuses to convert
    ints above 4300 digits to text unless told otherwise).

    >>> len(json_text({"count": 10 ** 5000}))
    5012
    """
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(doc)
    finally:
        sys.set_int_max_str_digits(old)
