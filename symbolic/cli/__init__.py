"""The ``symbolic`` command line: one module per command.

Errors a user can cause print ``FILE:LINE:COL: error: ...`` (or a plain
message) on stderr and exit with status 2; a disagreement between engines
under ``--engine both`` exits with status 1.

Adding a command: write ``symbolic/cli/NAME.py`` with ``register(sub)`` (see
:mod:`symbolic.cli.common`) and list the module in ``COMMANDS``.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ..errors import SymbolicError
from . import (check, chocolate, chomp, ens2005, execute, gdl, hackendot, nimbers, play, show,
               simulate, strategy, successors, tictactoe, values)

#: the command modules, in the order ``symbolic --help`` lists them
COMMANDS = (check, show, successors, ens2005, strategy, execute, tictactoe, values, chocolate,
            play, simulate, nimbers, hackendot, chomp, gdl)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="symbolic",
        description="Solve finite multi-player turn-based games and ATL queries with BDDs.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "limit", 0) < 0:
        parser.error("--limit must be >= 0")
    try:
        return args.func(args)
    except SymbolicError as err:
        # located errors already read FILE:LINE:COL: error: ...
        print(str(err) if err.span is not None else f"symbolic: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("symbolic: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
