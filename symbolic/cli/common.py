"""What every command of the command line shares: model arguments, loading,
queries, and the printing of positions.

A command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` to a function ``args -> exit status``; :mod:`symbolic.cli` lists
the modules in ``COMMANDS``. Errors are raised as :class:`SymbolicError` and
turned into messages and exit statuses in one place, :func:`symbolic.cli.main`.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .. import atl
from ..api import GameEngine, PositionSet
from ..engines import BACKENDS, ORDERS, PARTITIONS
from ..errors import QueryError
from ..model import Model, load_model, parse_formula


def parse_param(text: str) -> tuple[str, object]:
    """``NAME=VALUE``: the value stays text; the model reads it by the
    parameter's type (int, bool or string) and reports a mismatch in place.

    >>> parse_param("n=3")
    ('n', '3')
    """
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise QueryError(f"-p expects NAME=VALUE, got {text!r}")
    return name, value


def params_of(items: Sequence[str] | None) -> dict:
    """The ``-p NAME=VALUE`` options as a dict (the last one of a name wins)."""
    out: dict = {}
    for it in items or ():
        k, v = parse_param(it)
        out[k] = v
    return out


def load(args) -> Model:
    """The model named by ``args.model`` with the ``-p`` parameters."""
    return load_model(args.model, params_of(args.param))


def model_args(sp: argparse.ArgumentParser) -> None:
    """The arguments of every command that reads a model: MODEL, -p, and the
    symbolic engine's tuning (--backend, --order, --partition)."""
    sp.add_argument("model", metavar="MODEL", help="a model file (see models/)")
    sp.add_argument("-p", "--param", action="append", metavar="NAME=VALUE",
                    help="override a parameter of the model (repeatable)")
    sp.add_argument("--backend", choices=BACKENDS, default="cudd",
                    help="BDD backend of the symbolic engine (default: cudd)")
    sp.add_argument("--order", choices=ORDERS, default="auto",
                    help="bit order of the symbolic engine: sliced (bits of equal "
                         "significance side by side), slots (variable after variable) or "
                         "auto (sliced unless many ranges are not powers of two)")
    sp.add_argument("--partition", choices=PARTITIONS, default="moves",
                    help="keep the transition relation as one BDD per move (default) "
                         "or as one monolithic BDD")


def queries_of(model: Model, texts: Sequence[str] | None) -> list[tuple[str, atl.Formula]]:
    """``(text, formula)`` for each ``--query TEXT``, else the model's own queries."""
    if texts:
        return [(t, parse_formula(t, model)) for t in texts]
    if not model.queries:
        raise QueryError(f"{model.source}: the model declares no query; pass --query TEXT")
    return [(q.text, q.formula) for q in model.queries]


def evaluate_all(model: Model, queries, engine: GameEngine) -> list[PositionSet]:
    """Each query's set of positions, in order."""
    ev = atl.Evaluator(engine, model.definitions)
    out = []
    for i, (text, f) in enumerate(queries, 1):
        if sys.stderr.isatty():
            print(f"[{engine.kind}] query {i}/{len(queries)}: {text}", file=sys.stderr)
        out.append(ev(f))
    return out


def position_text(space, pos: tuple) -> str:
    """A position as the command line prints (and reads) it: ``j=1, k[1]=3``."""
    return ", ".join(f"{s.label}={v}" for s, v in zip(space.slots, pos))


def format_positions(space, ps: PositionSet, limit: int) -> list[str]:
    """At most ``limit`` positions of ``ps`` (0: all), one per line, then how
    many were left out."""
    tuples = ps.tuples()
    shown = tuples if limit == 0 else tuples[:limit]
    lines = ["    " + position_text(space, t) for t in shown]
    if len(shown) < len(tuples):
        lines.append(f"    ... ({len(tuples) - len(shown)} more; --limit 0 shows all)")
    return lines
