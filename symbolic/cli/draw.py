"""``symbolic draw``: pictures (SVG or PNG) of a set, the values or the nimbers as a
grid over two variables, of a position as a board, or of a strategy as a graph
(:mod:`symbolic.pictures`, which imports matplotlib only when it draws).

The variables a picture does not vary take the values given by ``--at`` (some
slots, ``'j=1, k[3]=0'``), else their value in the first position (in the
engines' order) of the model's set ``initial``; a model without ``initial``
must fix them all, and the error names those left. Without ``-o`` the picture
is written to ``MODEL-WHAT.svg`` in the current directory (WHAT: set, values,
nimbers, board or strategy); the path is printed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from .. import atl, pictures
from ..analysis.grundy import layered_nimbers
from ..analysis.play import drawer
from ..analysis.strategy import strategy_for
from ..analysis.values import two_player_values
from ..errors import QueryError
from ..limits import current as current_limits, int_text
from ..model import parse_formula
from ..pictures.figure import FORMATS
from .common import (
    NOT_ANSWERED,
    build_engine,
    engine_arg,
    int_arg,
    load,
    model_args,
    parse_assignments,
    position_text,
    refuse_concurrent,
    tuning,
)

__all__ = ["MODES", "NotWon", "cmd_draw", "register"]

MODES = ("query", "values", "nimbers", "board", "strategy")


def _pictures():
    """:mod:`symbolic.pictures`, once matplotlib and networkx are known to be
    installed (they are imported only when a picture is drawn)."""
    missing = [m for m in ("matplotlib", "networkx") if importlib.util.find_spec(m) is None]
    if missing:
        raise QueryError(
            f"symbolic draw needs {' and '.join(missing)}: pip install 'symbolic[draw]'"
        )
    return pictures


def _base(model, engine) -> tuple | None:
    """The first position of the model's ``initial`` set (None without one)."""
    if "initial" not in model.definitions:
        return None
    return atl.evaluate(engine, model.formula("initial"), model.definitions).first()


def _position(model, engine, args) -> tuple:
    """``--at`` completed from :func:`_base` (every slot)."""
    space = model.game.space
    given = parse_assignments(space, args.at) if args.at else {}
    fixed = _pictures().grid.position_with(space, given, _base(model, engine))
    pos = space.check_position(fixed)
    if pos not in engine.positions():
        raise QueryError(f"{position_text(space, pos)} is not a position of the game")
    return pos


def _grid(model, engine, args, mode: str):
    pics = _pictures()
    if args.x is None or args.y is None:
        raise QueryError("a grid needs the two variables it varies: --x VAR --y VAR")
    at = parse_assignments(model.game.space, args.at) if args.at else {}
    base = _base(model, engine)
    if mode == "query":
        ps = atl.evaluate(engine, parse_formula(args.query, model), model.definitions)
        return pics.set_grid(ps, args.x, args.y, at, base, title=args.query)
    if mode == "values":
        return pics.values_grid(
            two_player_values(engine), args.x, args.y, at, base, title=f"{model.name}: values"
        )
    return pics.nimbers_grid(
        layered_nimbers(engine), args.x, args.y, at, base, title=f"{model.name}: nimbers"
    )


def _strategy(model, engine, args):
    pics = _pictures()
    formula = parse_formula(args.strategy, model)
    if args.start is not None:
        start = atl.evaluate(engine, parse_formula(args.start, model), model.definitions)
    elif args.at is not None or _base(model, engine) is None:
        start = engine.singleton(_position(model, engine, args))
    else:
        start = atl.evaluate(engine, model.formula("initial"), model.definitions)
    if start.is_empty():
        raise QueryError("the start set is empty: no position to draw a strategy from")
    with current_limits().stage("computing the strategy"):
        strategy = strategy_for(engine, formula, model.definitions)
    lost = start - strategy.region
    if not lost.is_empty():
        text = (
            f"the start is not won at {int_text(lost.count())} of "
            f"{int_text(start.count())} position(s) (e.g. "
            f"{position_text(model.game.space, lost.first())})"
        )
        if lost == start:
            raise NotWon(f"{text}: no strategy to draw")
        print(f"symbolic: note: {text}: drawn from the others", file=sys.stderr)
    labels = [s.label for s in model.game.space.slots]
    render = drawer(model.display, model.game.space, str) if model.display else None

    def label(c: tuple) -> str:
        if render is not None and max(map(len, render(c).splitlines())) <= 12:
            return render(c)
        if len(labels) <= 4:
            return "\n".join(f"{a}={v}" for a, v in zip(labels, c))
        return ",".join(map(str, c))

    return pics.strategy_graph(strategy, start, args.max_nodes, label)


class NotWon(QueryError):
    """``draw --strategy`` from a start the coalition does not win (exit 1, not 2)."""


def _output(args, what: str) -> Path:
    """The picture's file: ``-o FILE`` (a name, not empty), else ``MODEL-WHAT.svg``."""
    if args.output is None:
        return Path(f"{Path(args.model).stem}-{what}.svg")
    if not args.output.strip():
        raise QueryError("-o needs a file name (.svg or .png), got an empty one")
    out = Path(args.output)
    if out.suffix.lower().lstrip(".") not in FORMATS:  # before any work
        raise QueryError(f"{out}: a picture is written as .svg or .png")
    return out


def cmd_draw(args) -> int:
    mode = next(m for m in MODES if getattr(args, m) not in (None, False))
    what = "set" if mode == "query" else mode
    out = _output(args, what)
    model = load(args)
    if mode != "query":
        refuse_concurrent(f"draw --{mode}", model.game)
    lim = current_limits()
    with lim.stage("building the engine"):
        engine = build_engine(model.game, args.engine, **tuning(args), check=False)
    if mode != "query":
        refuse_concurrent(f"draw --{mode}", engine=engine)  # a GDL game read as concurrent
    try:
        with lim.stage(f"computing the {what} picture"):
            if mode == "board":
                picture = _pictures().board(model, engine, _position(model, engine, args))
            elif mode == "strategy":
                picture = _strategy(model, engine, args)
            else:
                picture = _grid(model, engine, args, mode)
    except NotWon as err:
        print(f"symbolic: {err.message}", file=sys.stderr)
        return NOT_ANSWERED
    with lim.stage(f"writing the picture to {out}"):
        print(picture.save(out))
    return 0


def register(sub) -> None:
    d = sub.add_parser(
        "draw",
        help="a picture (SVG/PNG) of a set, values, nimbers, a board or a strategy",
        description="Draw a set of positions (--query), the +k/-k values (--values) or the "
        "nimbers (--nimbers) as a coloured grid over two variables (--x, --y), "
        "a position as a board with the value of each move (--board; models "
        "with a display), or a strategy as a graph (--strategy). Variables not "
        "varied take their --at value, else their value in the first position "
        "of the model's set 'initial'. Writes MODEL-WHAT.svg unless -o is given "
        "and prints the path.",
    )
    model_args(d)
    what = d.add_mutually_exclusive_group(required=True)
    what.add_argument("--query", metavar="FORMULA", help="draw the set of this formula")
    what.add_argument("--values", action="store_true", help="draw the +k/-k values")
    what.add_argument("--nimbers", action="store_true", help="draw the Sprague-Grundy values")
    what.add_argument(
        "--board",
        action="store_true",
        help="draw the --at position with the value of each legal move",
    )
    what.add_argument(
        "--strategy",
        metavar="FORMULA",
        help="draw the strategy of this until/release formula as a graph",
    )
    d.add_argument("--x", metavar="VAR", help="the variable along the horizontal axis")
    d.add_argument("--y", metavar="VAR", help="the variable along the vertical axis")
    d.add_argument(
        "--at",
        metavar="POSITION",
        help="values of the other variables, e.g. 'j=1, k[3]=0' (default: "
        "those of the first initial position)",
    )
    d.add_argument(
        "--from",
        dest="start",
        metavar="SET",
        help="--strategy: the start set (default: --at, else the set initial)",
    )
    d.add_argument(
        "--max-nodes",
        type=int_arg(1),
        default=40,
        metavar="N",
        help="--strategy: draw at most N positions (default 40)",
    )
    engine_arg(d)
    d.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="the picture file, .svg or .png (default: MODEL-WHAT.svg)",
    )
    d.set_defaults(func=cmd_draw)
