"""``symbolic execute``: the play where each player follows a given memoryless
strategy (the reachability-games TD, Q4), with an error on an illegal move."""

from __future__ import annotations


from .. import atl, ir
from ..analysis.outcome import Referee
from ..errors import QueryError
from ..limits import is_int_text, short_text
from ..model import parse_formula
from ..analysis.strategy import IllegalMove, execute
from .moves import MoveNames
from .output import emit
from .positions import entry, position_shower, start_set
from .common import (
    build_engine,
    engine_arg,
    int_arg,
    json_arg,
    load,
    model_args,
    position_text,
    tuning,
)
from .strategy_file import load_table

__all__ = ["cmd_execute", "register"]


def cmd_execute(args) -> int:
    model = load(args)
    engine = build_engine(model.game, args.engine, **tuning(args), check=False)
    sp = model.game.space
    tables = {}
    for item in args.strategy or ():
        player, sep, path = item.partition("=")
        if not sep or not is_int_text(player.strip()) or len(player) > 20:
            raise QueryError(f"--strategy expects PLAYER=FILE, got {short_text(item)}")
        p = int(player)
        if p not in model.game.players:
            raise QueryError(f"unknown player {p}: the players are {list(model.game.players)}")
        tables[p] = load_table(path, sp)
    ev = atl.Evaluator(engine, model.definitions)
    starts = start_set(model, engine, args, note=" (one position)")
    if len(starts) != 1:
        raise QueryError(
            f"--from {args.start}: {len(starts)} positions, the play needs "
            f"exactly one (use --at POSITION)"
        )
    start = starts.first()
    stop = ev(parse_formula(args.stop, model)) if args.stop else engine.empty()
    names = MoveNames(model)
    try:
        play = execute(engine, start, tables, stop, max_moves=args.max_moves)
    except IllegalMove as err:
        raise QueryError(_illegal_text(err, sp, names)) from None
    end = (
        "goal"
        if play[-1] in stop
        else "loop"
        if play[-1] in play[:-1]
        else "dead end"
        if engine.successors(play[-1]).is_empty()
        else "move limit"
    )
    out = None
    if end == "dead end" and isinstance(model.game, ir.Game):  # the game's own outcome
        out = Referee(engine).result(play[-1])
    if args.json:
        doc: dict[str, object] = {
            "play": [sp.as_dict(c) for c in play],
            "moves": [names.between(c, d) for c, d in zip(play, play[1:])],
            "end": end,
        }
        if out is not None:
            doc["outcome"] = {
                "winners": list(out.winners),
                "losers": list(out.losers),
                "reason": out.reason,
            }
        emit(args, doc, model, engine)
        return 0
    show = position_shower(model)
    first = show(play[0])
    print(f"   0  {first}" if "\n" not in first else "   0\n" + _indented(first))
    for n, (c, d) in enumerate(zip(play, play[1:]), 1):
        print(entry(f"{n:4d}  {names.between(c, d)}", show(d)))
    verdict = (
        ""
        if out is None
        else (
            f": a draw ({out.reason})"
            if out.draw
            else f": player{'s' if len(out.winners) > 1 else ''} {', '.join(map(str, out.winners))} "
            f"won ({out.reason})"
        )
    )
    print(f"end: {end} after {len(play) - 1} move(s){verdict}")
    return 0


def _illegal_text(err: IllegalMove, space, names: MoveNames) -> str:
    """An illegal move of a strategy, its position by slots and the legal moves by
    name (the first 8 targets), as ``play`` names them."""
    if err.at is None:
        return str(err)
    legal = ", ".join(dict.fromkeys(names.names_of(err.at, err.legal)))
    at = position_text(space, err.at)
    if err.proposed is None:
        return f"player {err.player}'s strategy has no move at {at} (legal moves: {legal})"
    return (
        f"player {err.player}'s strategy plays {at} -> {position_text(space, err.proposed)}, "
        f"not a legal move (legal moves: {legal})"
    )


def _indented(text: str) -> str:
    return "\n".join("        " + line for line in text.split("\n"))


def register(sub) -> None:
    e = sub.add_parser(
        "execute",
        help="play given strategies from a start (illegal moves are errors)",
        description="Play from one start position where each player follows "
        "a memoryless strategy read from a JSON file (the output "
        "of 'symbolic strategy --json', or {position: next}); "
        "stop at --stop, at a dead end, or when a position comes "
        "back. A move outside δ, or none where the player must "
        "move, is an error.",
    )
    model_args(e)
    e.add_argument(
        "--strategy",
        action="append",
        metavar="PLAYER=FILE",
        help="the strategy of a player (repeatable)",
    )
    e.add_argument("--from", dest="start", metavar="SET", help="a set holding one position")
    e.add_argument(
        "--at",
        metavar="POSITION",
        help="the start position, 'x=1, y=2' (slots left out: from 'initial', where it fixes them)",
    )
    e.add_argument("--stop", metavar="SET", help="stop on reaching this set (e.g. 'Obj1 or Obj2')")
    e.add_argument("--max-moves", type=int_arg(0), metavar="N", help="stop after N moves")
    engine_arg(e)
    json_arg(e)
    e.set_defaults(func=cmd_execute)
