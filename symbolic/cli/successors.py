"""``symbolic successors``: δ(c), the positions one move away (ENS 2005, Q6)."""
from __future__ import annotations

import json

from ..engines import ENGINES, make_engine
from .common import load, model_args, parse_position, position_text


def cmd_successors(args) -> int:
    model = load(args)
    engine = make_engine(model.game, args.engine, args.backend, order=args.order,
                         partition=args.partition)
    sp = model.game.space
    c = engine.singleton(parse_position(sp, args.at)).first()  # refuses non-positions
    turn = next(p for p in model.game.players if c in engine.turn_set({p}))
    succ = engine.successors(c).tuples()
    if args.json:
        print(json.dumps({"position": sp.as_dict(c), "turn": turn,
                          "successors": [sp.as_dict(d) for d in succ]}))
        return 0
    print(f"{position_text(sp, c)}  (player {turn} to move)")
    print(f"{len(succ)} successor(s)" + (":" if succ else " (a dead end)"))
    for d in succ:
        print("    " + position_text(sp, d))
    return 0


def register(sub) -> None:
    s = sub.add_parser("successors", help="the positions one move away from a position",
                       description="List δ(c), the successors of one position c (ENS 2005, "
                                   "Q6), with the player to move.")
    model_args(s)
    s.add_argument("--at", metavar="POSITION", required=True,
                   help="the position, as the CLI prints it: 'j=1, k[1]=3, k[2]=3'")
    s.add_argument("--engine", choices=ENGINES, default="symbolic")
    s.add_argument("--json", action="store_true", help="print one JSON document")
    s.set_defaults(func=cmd_successors)
