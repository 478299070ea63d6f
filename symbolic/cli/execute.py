"""``symbolic execute``: the play where each player follows a given memoryless
strategy (the reachability-games TD, Q4), with an error on an illegal move."""
from __future__ import annotations

import json
from pathlib import Path

from .. import atl
from ..engines import ENGINES, make_engine
from ..errors import QueryError
from ..model import parse_formula
from ..analysis.strategy import execute
from .common import load, model_args, parse_position, position_text


def _position(space, value, where: str) -> tuple:
    """A position of a strategy file: a dict by slot label, a position text, or for a
    one-variable model (an arena) the bare value (``{"0": 1, "2": 3}``, the TD's form)."""
    try:
        if isinstance(value, dict):
            return space.check_position(tuple(value[s.label] for s in space.slots))
        if len(space.slots) == 1 and (isinstance(value, int) or str(value).lstrip("-").isdigit()):
            return space.check_position((int(value),))
        if isinstance(value, str):
            return parse_position(space, value)
    except (KeyError, TypeError, ValueError) as err:
        raise QueryError(f"{where}: {value!r} is not a position ({err})") from None
    raise QueryError(f"{where}: {value!r} is not a position")


def load_table(path: str, space) -> dict[tuple, tuple]:
    """A strategy file: the JSON of ``symbolic strategy --json`` (its ``moves``), or
    an object {position: next position} (positions as the CLI prints them, or bare
    state numbers for an arena)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise QueryError(f"cannot read the strategy file {path}: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise QueryError(f"{path}:{err.lineno}:{err.colno}: invalid JSON: {err.msg}") from None
    if isinstance(doc, dict) and isinstance(doc.get("moves"), list):
        items = [(m.get("from"), m.get("to")) if isinstance(m, dict) else (m, None)
                 for m in doc["moves"]]
    elif isinstance(doc, dict):
        items = list(doc.items())
    else:
        kind = ("an array" if isinstance(doc, list) else "a string" if isinstance(doc, str)
                 else "true or false" if isinstance(doc, bool) else "null" if doc is None
                 else "a number")
        raise QueryError(f"{path}: expected a JSON object (a strategy), got {kind}")
    return {_position(space, a, path): _position(space, b, path) for a, b in items}


def cmd_execute(args) -> int:
    model = load(args)
    engine = make_engine(model.game, args.engine, args.backend, order=args.order,
                         partition=args.partition)
    sp = model.game.space
    tables = {}
    for item in args.strategy or ():
        player, sep, path = item.partition("=")
        if not sep or not player.strip().isdigit():
            raise QueryError(f"--strategy expects PLAYER=FILE, got {item!r}")
        p = int(player)
        if p not in model.game.players:
            raise QueryError(f"unknown player {p}: the players are {list(model.game.players)}")
        tables[p] = load_table(path, sp)
    ev = atl.Evaluator(engine, model.definitions)
    if (args.start is None) == (args.at is None):
        raise QueryError("give the start as --from SET (one position) or as --at POSITION")
    if args.at is not None:
        start = parse_position(sp, args.at)
    else:
        starts = ev(parse_formula(args.start, model))
        if len(starts) != 1:
            raise QueryError(f"--from {args.start}: {len(starts)} positions, the play needs "
                             f"exactly one (use --at POSITION)")
        start = starts.first()
    stop = ev(parse_formula(args.stop, model)) if args.stop else engine.empty()
    play = execute(engine, start, tables, stop, max_moves=args.max_moves)
    end = ("goal" if play[-1] in stop else
           "loop" if play[-1] in play[:-1] else
           "dead end" if engine.successors(play[-1]).is_empty() else "move limit")
    if args.json:
        print(json.dumps({"play": [sp.as_dict(c) for c in play], "end": end}))
        return 0
    for n, c in enumerate(play):
        print(f"{n:4d}  {position_text(sp, c)}")
    print(f"end: {end} after {len(play) - 1} move(s)")
    return 0


def register(sub) -> None:
    e = sub.add_parser("execute", help="play given strategies from a start (illegal moves "
                                       "are errors)",
                       description="Play from one start position where each player follows "
                                   "a memoryless strategy read from a JSON file (the output "
                                   "of 'symbolic strategy --json', or {position: next}); "
                                   "stop at --stop, at a dead end, or when a position comes "
                                   "back. A move outside δ, or none where the player must "
                                   "move, is an error.")
    model_args(e)
    e.add_argument("--strategy", action="append", metavar="PLAYER=FILE",
                   help="the strategy of a player (repeatable)")
    e.add_argument("--from", dest="start", metavar="SET", help="a set holding one position")
    e.add_argument("--at", metavar="POSITION", help="the start position, 'x=1, y=2'")
    e.add_argument("--stop", metavar="SET", help="stop on reaching this set (e.g. 'Obj1 or Obj2')")
    e.add_argument("--max-moves", type=int, metavar="N", help="stop after N moves")
    e.add_argument("--engine", choices=ENGINES, default="symbolic")
    e.add_argument("--json", action="store_true", help="print one JSON document")
    e.set_defaults(func=cmd_execute)
