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
from ..errors import QueryError, SymbolicError
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


def parse_position(space, text: str) -> tuple:
    """A position written as the command line prints it, ``j=1, k[1]=3, k[2]=3``
    (every slot once, in any order; booleans as true/false or 1/0), as a tuple.

    >>> from symbolic.ir import IntType, Space, VarDecl
    >>> sp = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, 3), IntType(1, 2))))
    >>> parse_position(sp, "k[2]=3, j=1, k[1]=0")
    (1, 0, 3)
    >>> parse_position(sp, "j=1")
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: position 'j=1': no value for k[1], k[2]
    """
    labels = [s.label for s in space.slots]
    values: dict[str, int] = {}
    for item in text.split(","):
        label, sep, value = item.partition("=")
        label, value = label.replace(" ", ""), value.strip()
        if not sep or not label:
            raise QueryError(f"position {text!r}: expected LABEL=VALUE, got {item.strip()!r}")
        if label not in labels:
            raise QueryError(f"position {text!r}: unknown {label!r} (the slots are "
                             f"{', '.join(labels)})")
        if label in values:
            raise QueryError(f"position {text!r}: {label} is given twice")
        low = value.lower()
        if low in ("true", "false"):
            values[label] = int(low == "true")
        elif value.lstrip("-").isdigit() and len(value) <= 40:
            values[label] = int(value)
        else:
            raise QueryError(f"position {text!r}: {label} = {value!r} is not an integer")
    missing = [l for l in labels if l not in values]
    if missing:
        raise QueryError(f"position {text!r}: no value for {', '.join(missing)}")
    try:
        return space.check_position(tuple(values[l] for l in labels))
    except SymbolicError as err:
        raise QueryError(f"position {text!r}: {err}") from None


def format_positions(space, ps: PositionSet, limit: int) -> list[str]:
    """At most ``limit`` positions of ``ps`` (0: all), one per line, then how
    many were left out."""
    tuples = ps.tuples()
    shown = tuples if limit == 0 else tuples[:limit]
    lines = ["    " + position_text(space, t) for t in shown]
    if len(shown) < len(tuples):
        lines.append(f"    ... ({len(tuples) - len(shown)} more; --limit 0 shows all)")
    return lines
