"""``symbolic draw``: pictures (SVG or PNG) of a set, the values or the nimbers as a
grid over two variables, of a position as a board, or of a strategy as a graph
(:mod:`symbolic.pictures`, which imports matplotlib only when it draws).

The variables a grid does not vary take the values given by ``--at`` (some
slots, ``'j=1, k[3]=0'``), the others the value every position of the model's set
``initial`` agreeing with them gives (:func:`symbolic.cli.positions.fixed_slots`,
the one ``--at`` reader); a slot left without a value is named in the error. A board
or a strategy without ``--at`` starts from ``initial`` (its first position, a board). Without ``-o`` the picture
is written to ``MODEL-WHAT.svg`` in the current directory (WHAT: set, values,
nimbers, board or strategy); the path is printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from .. import atl, pictures
from ..analysis.grundy import layered_nimbers
from ..analysis.play import drawer
from ..analysis.strategy import strategy_for
from ..analysis.values import two_player_values
from ..errors import QueryError
from ..limits import current as current_limits, int_text, parse_int, short_text
from ..model import parse_formula
from ..pictures.cells import without_keys
from ..pictures.figure import FORMATS, MAX_INCHES
from .positions import fixed_slots, read_position
from .common import (
    NOT_ANSWERED,
    build_engine,
    engine_arg,
    int_arg,
    load,
    model_args,
    position_text,
    refuse_concurrent,
    tuning,
)

__all__ = ["MODES", "NotWon", "cmd_draw", "register", "named", "axis", "size", "picture_args"]

MODES = ("query", "values", "nimbers", "board", "strategy")


def _pictures():
    """:mod:`symbolic.pictures`, once matplotlib and networkx are known to be
    installed (they are imported only when a picture is drawn)."""
    missing = [m for m in ("matplotlib", "networkx") if importlib.util.find_spec(m) is None]
    if missing:
        raise QueryError(
            f"symbolic draw needs {' and '.join(missing)}, dependencies of symbolic: "
            "reinstall it (pip install . in its checkout)"
        )
    return pictures


def _base(model, engine) -> tuple | None:
    """The first position of the model's ``initial`` set (None without one)."""
    if "initial" not in model.definitions:
        return None
    return atl.evaluate(engine, model.formula("initial"), model.definitions).first()


def _position(model, engine, args) -> tuple:
    """``--at``, read by :func:`symbolic.cli.positions.read_position` (slots left out
    completed from ``initial``), else the first position of ``initial``."""
    if args.at is not None:
        return read_position(model, engine, args.at)
    base = _base(model, engine)
    return read_position(model, engine, "") if base is None else base


def named(model) -> str:
    """The model's name with its parameters' values: ``chocolate(m=10, n=7, i=7, j=3)``."""
    name = model.name.split("(")[0].strip() or Path(model.source or "model").stem
    values = ", ".join(f"{k}={v}" for k, v in model.params.items())
    return f"{name}({values})" if values else name


def axis(text: str, flag: str) -> tuple[str, tuple[int, int] | None]:
    """``VAR`` or ``VAR=LO..HI`` (a window of the axis) as (VAR, None or (LO, HI)).

    >>> axis("k[1]=0..50", "--x"), axis("l", "--x")
    (('k[1]', (0, 50)), ('l', None))
    """
    var, sep, window = text.partition("=")
    var = var.replace(" ", "")
    if not sep:
        return var, None
    lo, dots, hi = window.strip().partition("..")
    try:
        if not dots:
            raise ValueError(window)
        return var, (parse_int(lo.strip()), parse_int(hi.strip()))
    except (ValueError, QueryError):
        raise QueryError(
            f"{flag} {short_text(text)}: expected VAR or VAR=LO..HI (e.g. 'k[1]=0..50')"
        ) from None


def _grid(model, engine, args, mode: str):
    pics = _pictures()
    if args.x is None or args.y is None:
        raise QueryError("a grid needs the two variables it varies: --x VAR --y VAR")
    (x, xw), (y, yw) = axis(args.x, "--x"), axis(args.y, "--y")
    at = fixed_slots(model, engine, args.at, free=(x, y))
    base = None  # every slot but the axes is in at
    windows = {"x_window": xw, "y_window": yw}
    if mode == "query":
        ps = atl.evaluate(engine, parse_formula(args.query, model), model.definitions)
        title = args.title or f"{named(model)}: {args.query}"
        return pics.set_grid(ps, x, y, at, base, title=title, **windows)
    if mode == "values":
        title = args.title or f"{named(model)}: values"
        return pics.values_grid(two_player_values(engine), x, y, at, base, title, **windows)
    title = args.title or f"{named(model)}: nimbers"
    return pics.nimbers_grid(layered_nimbers(engine), x, y, at, base, title, **windows)


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
        if render is not None and max(map(len, without_keys(render(c)).splitlines())) <= 12:
            return render(c)  # the graph leaves out a key of cell numbers beside a board
        if len(labels) <= 4:
            return "\n".join(f"{a}={v}" for a, v in zip(labels, c))
        return ",".join(map(str, c))

    heading = args.title or f"{named(model)}: {args.strategy}"
    return pics.strategy_graph(strategy, start, args.max_nodes, label, heading)


class NotWon(QueryError):
    """``draw --strategy`` from a start the coalition does not win (exit 1, not 2)."""


def _output(args, what: str) -> Path:
    """The picture's file: ``-o FILE`` (a name, not empty), else ``MODEL-WHAT.svg``,
    which must not exist unless --force is given."""
    if args.output is None:
        out = Path(f"{Path(args.model).stem}-{what}.svg")
        if out.exists() and not args.force:
            raise QueryError(
                f"{out} exists: give -o {out} (or --force) to overwrite it, or another -o FILE"
            )
        return out
    if not args.output.strip():
        raise QueryError("-o needs a file name (.svg, .png or .pdf), got an empty one")
    out = Path(args.output)
    if out.suffix.lower().lstrip(".") not in FORMATS:  # before any work
        raise QueryError(f"{out}: a picture is written as .svg, .png or .pdf")
    return out


def size(text: str) -> tuple[float, float]:
    """``WxH`` in inches (``8x5``, ``6.5x4``).

    >>> size("8x5"), size("6.5 x 4")
    ((8.0, 5.0), (6.5, 4.0))
    """
    w, sep, h = text.lower().partition("x")
    try:
        if not sep or not text.isascii():
            raise ValueError(text)
        width, height = float(w.strip()), float(h.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT in inches, e.g. 8x5, got {short_text(text)}"
        ) from None
    if not (0 < width <= MAX_INCHES and 0 < height <= MAX_INCHES):
        raise argparse.ArgumentTypeError(
            f"the width and height must be above 0 and at most {MAX_INCHES} inches, got {text}"
        )
    return width, height


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
                pos = _position(model, engine, args)
                picture = _pictures().board(model, engine, pos, args.title or named(model))
            elif mode == "strategy":
                picture = _strategy(model, engine, args)
            else:
                picture = _grid(model, engine, args, mode)
    except NotWon as err:
        print(f"symbolic: {err.message}", file=sys.stderr)
        return NOT_ANSWERED
    if args.size is not None:
        picture.resize(*args.size)
    with lim.stage(f"writing the picture to {out}"):
        print(picture.save(out, dpi=args.dpi))
    return 0


def picture_args(d) -> None:
    """The options of the picture itself: --force, --title, --size, --dpi."""
    d.add_argument(
        "--force",
        action="store_true",
        help="overwrite MODEL-WHAT.svg when it exists (without -o)",
    )
    d.add_argument(
        "--title",
        metavar="TEXT",
        help="the picture's title (default: the model with its parameters and what is drawn; "
        "a board or a strategy keeps its legend below it)",
    )
    d.add_argument(
        "--size",
        type=size,
        metavar="WxH",
        help="the picture's width and height in inches, e.g. 8x5 (default: from its content)",
    )
    d.add_argument(
        "--dpi",
        type=int_arg(10, 1200),
        metavar="N",
        help="a PNG's resolution in dots per inch (default 100; SVG and PDF are vectors)",
    )


def register(sub) -> None:
    d = sub.add_parser(
        "draw",
        help="a picture (SVG/PNG/PDF) of a set, values, nimbers, a board or a strategy",
        description="Draw a set of positions (--query), the +k/-k values (--values) or the "
        "nimbers (--nimbers) as a coloured grid over two variables (--x, --y), "
        "a position as a board with the value of each move (--board; models "
        "with a display), or a strategy as a graph (--strategy). Variables not "
        "varied take their --at value, else the value the model's set 'initial' "
        "fixes. Writes -o FILE (.svg, .png or .pdf), else "
        "MODEL-WHAT.svg, which it does not overwrite without --force, and prints the path.",
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
    d.add_argument(
        "--x",
        metavar="VAR[=LO..HI]",
        help="the variable along the horizontal axis, all its values or those from LO to HI "
        "(a window, e.g. 'k[1]=0..50'; an axis shows at most 100 values)",
    )
    d.add_argument(
        "--y",
        metavar="VAR[=LO..HI]",
        help="the variable along the vertical axis (as --x)",
    )
    d.add_argument(
        "--at",
        metavar="POSITION",
        help="values of the other variables, e.g. 'j=1, k[3]=0'; a slot left out "
        "takes the value the model's set 'initial' fixes (the board: the first "
        "initial position)",
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
        help="the picture file, SVG, PNG or PDF by its suffix (.svg, .png, .pdf; default: "
        "MODEL-WHAT.svg); an existing FILE is overwritten",
    )
    picture_args(d)
    d.set_defaults(func=cmd_draw)
