"""What every command of the command line shares: model arguments, loading,
queries, and the printing of positions.

A command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` to a function ``args -> exit status``; :mod:`symbolic.cli` lists
the modules in ``COMMANDS``. Errors are raised as :class:`SymbolicError` and
turned into messages and exit statuses in one place, :func:`symbolic.cli.main`,
their hints spelled as this command line's flags (:func:`error_text`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Sequence

from .. import atl
from ..analysis.layered import LAYERED_MODES
from ..api import GameEngine, PositionSet, SetEngine
from ..arguments import is_loaded_instance
from ..engines import SymbolicSets
from ..engines import ENGINES, ORDERS, PARTITIONS, make_engine
from ..errors import QueryError, SymbolicError
from ..ir import ConcurrentGame
from ..lang.comments import division_warnings
from ..limits import int_text, parse_int, short_text
from ..limits import current as current_limits
from ..model import Model, load_model, parse_formula
from .basics import (
    FLAGS,
    backend_arg,
    error_text,
    flag_words,
    int_arg,
    json_arg,
    json_text,
    limit_args,
    threads_arg,
)

__all__ = [
    "FLAGS",
    "flag_words",
    "error_text",
    "parse_param",
    "params_of",
    "load",
    "int_arg",
    "threads_arg",
    "limit_args",
    "model_args",
    "backend_arg",
    "engine_arg",
    "json_arg",
    "limit_arg",
    "layered_arg",
    "NOT_ANSWERED",
    "is_concurrent",
    "refuse_concurrent",
    "note_work",
    "ENGINE_CHOICES",
    "engine_kinds",
    "build_engine",
    "tuning",
    "build_engines",
    "backend_text",
    "title_text",
    "engine_text",
    "queries_of",
    "count_text",
    "value_text",
    "position_text",
    "parse_position",
    "parse_assignments",
    "json_text",
    "shown_positions",
]


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
    with current_limits().stage(f"reading the model {args.model}"):
        try:
            model = load_model(args.model, params_of(args.param))
        except SymbolicError as err:  # `k // 2` may be why: say so before the error
            _division_warnings_of(err)
            raise
    # a GDL description's warnings (symbolic.gdl.ground); GDL is loaded only for one
    if is_loaded_instance(model.game, "symbolic.gdl.game", "GdlGame"):
        for text in getattr(model.game, "program").warnings:
            print(text, file=sys.stderr)
    for text in division_warnings(model.text, model.source):  # `k // 2`: a comment
        print(text, file=sys.stderr)
    return model


def _division_warnings_of(err: SymbolicError) -> None:
    """The :func:`division_warnings` of the model file an error points into, on stderr."""
    where = err.span.file if err.span is not None else ""
    if where.endswith(".game") and os.path.isfile(where):
        with open(where, encoding="utf-8-sig", errors="replace") as f:
            for text in division_warnings(f.read(), where):
                print(text, file=sys.stderr)


def model_args(sp: argparse.ArgumentParser) -> None:
    """The arguments of every command that reads a model: MODEL, -p, the
    symbolic engine's tuning (--backend, --order, --partition) and the limits
    (--timeout, --max-memory, --quiet; see :func:`limit_args`)."""
    limit_args(sp)
    sp.add_argument(
        "model",
        metavar="MODEL",
        help="a model file, or the name of a shipped model (`symbolic models` lists them)",
    )
    sp.add_argument(
        "-p",
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="override a parameter of the model (repeatable)",
    )
    backend_arg(sp)
    sp.add_argument(
        "--order",
        choices=ORDERS,
        default="auto",
        help="bit order of the symbolic engine: sliced (bits of equal "
        "significance side by side), slots (variable after variable) or "
        "auto (sliced unless many ranges are not powers of two; on a GDL game, "
        "the fluents' order that explores further in 5 CPU s: by name, or on "
        "their arguments from the last; any other choice keeps them by name)",
    )
    sp.add_argument(
        "--partition",
        choices=PARTITIONS,
        default="moves",
        help="keep the transition relation as one BDD per move (default) or as one monolithic BDD",
    )


def engine_arg(sp, choices: Sequence[str] = ENGINES, help: str | None = None) -> None:
    """``--engine``: one of ``choices`` (:data:`ENGINES`, or :data:`ENGINE_CHOICES` where
    the command cross-checks both), default symbolic."""
    sp.add_argument("--engine", choices=choices, default="symbolic", help=help)


def limit_arg(sp, what: str, default: int) -> None:
    """``--limit N``: show at most N ``what`` (0: all)."""
    sp.add_argument(
        "--limit",
        type=int_arg(0),
        default=default,
        metavar="N",
        help=f"show at most N {what} (0: all; default {default})",
    )


def layered_arg(sp, help: str) -> None:
    """``--layered auto|on|off``: solve one layer at a time (``help`` says over what)."""
    sp.add_argument("--layered", choices=LAYERED_MODES, default="auto", help=help)


#: the exit status of a request the engines cannot answer as asked (a strategy to verify or
#: draw from a start that is not won); the same as a verification that fails
NOT_ANSWERED = 1


def is_concurrent(game=None, engine=None) -> bool:
    """True for a concurrent game (:class:`symbolic.ir.ConcurrentGame`), or an engine that
    reads its game as concurrent (a GDL game where several roles choose at once)."""
    return isinstance(game, ConcurrentGame) or (engine is not None and engine.concurrent)


def refuse_concurrent(what: str, game=None, engine=None) -> None:
    """QueryError ``WHAT is not supported for concurrent games`` when :func:`is_concurrent`:
    a command that needs a player to move at each position says so before any work.

    >>> from symbolic.model import load_model
    >>> refuse_concurrent("values", load_model("pennies").game)
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: values is not supported for concurrent games (every player chooses an action at every position, nobody has the turn)
    """
    if is_concurrent(game, engine):
        raise QueryError(
            f"{what} is not supported for concurrent games (every player "
            f"chooses an action at every position, nobody has the turn)"
        )


def note_work(args, layered: bool | None = None) -> None:
    """Tell the request's limits, before any engine is made, how the command solves:
    by layers (``layered``, or ``--layered on``), else by fixpoints; oxidd's apply cache
    is sized for it (:meth:`symbolic.limits.Limits.expect_work`)."""
    if layered is None:
        layered = getattr(args, "layered", None) == "on"
    current_limits().expect_work("layers" if layered else "fixpoints")


#: ``--engine`` with ``both``: either engine, or both to cross-check them (exit 1 on any
#: difference)
ENGINE_CHOICES = ENGINES + ("both",)


def engine_kinds(choice: str) -> list[str]:
    """The engines an ``--engine`` choice names, the one whose answer is printed first:
    ``both`` is symbolic then explicit (``none``, hackendot's: no engine).

    >>> engine_kinds("both")
    ['symbolic', 'explicit']
    """
    return [] if choice == "none" else ["symbolic", "explicit"] if choice == "both" else [choice]


def build_engine(
    game,
    kind: str,
    backend: str = "auto",
    *,
    order: str = "auto",
    partition: str = "moves",
    check: bool = True,
    refuse: str | None = None,
    **extra,
) -> GameEngine:
    """:func:`symbolic.engines.make_engine` as every command calls it: ``kind`` for ``game``
    (``extra``: its other keywords). A command ``refuse`` that needs a player to move
    refuses an engine that reads the game as concurrent (:func:`refuse_concurrent`: a GDL
    game where several roles choose at once); then the explicit engine, built lazily,
    refuses a space beyond its limit before any enumeration (TooManyPositions), unless
    ``check`` is False (a command that may look at a few positions only).

    >>> from symbolic.model import load_model
    >>> build_engine(load_model("nim").game, "explicit").kind
    'explicit'
    """
    eng = make_engine(game, kind, backend, order=order, partition=partition, **extra)
    if refuse is not None:
        refuse_concurrent(refuse, engine=eng)
    if check and kind == "explicit":
        eng.check_size()
    return eng


def tuning(args) -> dict:
    """The symbolic engine's tuning read from :func:`model_args`'s arguments
    (``--backend``, ``--order``, ``--partition``), as keywords of :func:`build_engine`."""
    return {"backend": args.backend, "order": args.order, "partition": args.partition}


def build_engines(model: Model, args) -> tuple[list[str], dict, dict[str, float]]:
    """The engines ``--engine`` asks for (:func:`engine_kinds`), built with
    :func:`tuning`, and the seconds each took. The explicit engine is built first
    (lazily, no enumeration yet) and its size checked, so that a space beyond its limit
    is refused before the symbolic engine runs."""
    kinds = engine_kinds(args.engine)
    engines, timings = {}, {}
    for kind in sorted(kinds, key=lambda k: k != "explicit"):
        t0 = time.perf_counter()
        engines[kind] = build_engine(model.game, kind, **tuning(args))
        timings[kind] = time.perf_counter() - t0
    return kinds, engines, timings


def backend_text(engine: SetEngine, asked: str) -> str:
    """The backend a symbolic engine runs on (what ``--backend auto`` chose), else ``asked``."""
    return engine.backend if isinstance(engine, SymbolicSets) else asked


def title_text(model: Model) -> str:
    """The first line of a command's text answer: the model's name and its parameters.

    ``Nim(n, K) [n=3, K=7]``; a model without parameters prints its name alone.
    """
    shown = ", ".join(f"{k}={value_text(v)}" for k, v in model.params.items())
    return model.name + (f" [{shown}]" if shown else "")


def engine_text(args, symbolic: SetEngine | None) -> str:
    """The engine line of a text answer: ``engine: symbolic (cudd)``, with the backend
    that ``--backend auto`` chose where the ``symbolic`` engine runs."""
    if args.engine == "explicit" or symbolic is None:
        return f"engine: {args.engine}"
    return f"engine: {args.engine} ({backend_text(symbolic, args.backend)})"


def queries_of(model: Model, texts: Sequence[str] | None) -> list[tuple[str, atl.Formula]]:
    """``(text, formula)`` for each ``--query TEXT``, else the model's own queries."""
    if texts:
        return [(t, parse_formula(t, model)) for t in texts]
    if not model.queries:
        raise QueryError(f"{model.source}: the model declares no query; pass --query TEXT")
    return [(q.text, q.formula) for q in model.queries]


def count_text(ps: PositionSet) -> str:
    """The exact number of positions of ``ps``, however large (never ``len``)."""
    return int_text(ps.count())


def value_text(v) -> str:
    """A parameter or slot value as the command line prints it, exact for any int."""
    if isinstance(v, int) and not isinstance(v, bool):
        return int_text(v)
    return str(v)


def position_text(space, pos: tuple) -> str:
    """A position as the command line prints (and reads) it: ``j=1, k[1]=3``."""
    return ", ".join(f"{s.label}={value_text(v)}" for s, v in zip(space.slots, pos))


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
    shown = short_text(text)
    values = parse_assignments(space, text)
    missing = [l for l in labels if l not in values]
    if missing:
        some = ", ".join(missing[:12]) + (", ..." if len(missing) > 12 else "")
        raise QueryError(f"position {shown}: no value for {some}")
    try:
        return space.check_position(tuple(values[l] for l in labels))
    except SymbolicError as err:
        raise QueryError(f"position {shown}: {err}") from None


def parse_assignments(space, text: str) -> dict[str, int]:
    """``LABEL=VALUE, ...`` (some slots, each at most once) as ``{label: value}``;
    :func:`parse_position` then asks for every slot. Values are integers in
    ASCII digits (:func:`symbolic.limits.parse_int`) or true/false.

    >>> from symbolic.ir import IntType, Space, VarDecl
    >>> parse_assignments(Space((VarDecl("j", IntType(1, 2)),)), "j = 2")
    {'j': 2}
    """
    labels = [s.label for s in space.slots]
    known = set(labels)
    shown = short_text(text)
    values: dict[str, int] = {}
    for item in text.split(","):
        label, sep, value = item.partition("=")
        label, value = label.replace(" ", ""), value.strip()
        if not sep or not label:
            raise QueryError(
                f"position {shown}: expected LABEL=VALUE, got {short_text(item.strip())}"
            )
        if label not in known:
            some = ", ".join(labels[:12]) + (", ..." if len(labels) > 12 else "")
            raise QueryError(
                f"position {shown}: unknown {short_text(label)} (the slots are {some})"
            )
        if label in values:
            raise QueryError(f"position {shown}: {label} is given twice")
        low = value.lower()
        if low in ("true", "false"):
            values[label] = int(low == "true")
        else:
            values[label] = parse_int(value, f"position {shown}: {label}")
    return values


def shown_positions(ps: PositionSet, limit: int) -> list[tuple]:
    """The ``limit`` smallest positions of ``ps`` (0: all), found without listing
    the rest (:meth:`PositionSet.take`), as a stage of the request's limits: on a space
    of many bits each position costs BDD operations over all of them."""
    what = "all the positions" if limit == 0 else f"the {limit} smallest positions"
    with current_limits().stage(f"listing {what}"):
        return ps.tuples() if limit == 0 else list(ps.take(limit))
