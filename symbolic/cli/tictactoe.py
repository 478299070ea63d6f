"""``symbolic tictactoe``: the TD's tic-tac-toe questions (Q18–Q30)."""

from __future__ import annotations

import sys

from ..seeds.tictactoe import KEYS, answers
from .output import emit
from .common import ENGINE_CHOICES, backend_arg, engine_arg, engine_kinds, json_arg

__all__ = ["LABELS", "cmd_tictactoe", "register"]

LABELS = {
    "boards": "Q18 boards (each cell empty, O or X)",
    "legal": "Q22 legal boards",
    "reachable": "Q27 boards reached from the empty board",
    "attractor1": "Q28 player 1's attractor to its lines, among reached boards",
    "attractor2": "Q28 player 2's attractor to its lines, among reached boards",
    "winner": "Q29 winner from the empty board",
    "strategy1": "Q30 player 1's winning-strategy table (moves)",
    "strategy2": "Q30 player 2's winning-strategy table (moves)",
    "draw1": "Q30 player 1's keep-the-draw table from the empty board (moves)",
    "draw2": "Q30 player 2's keep-the-draw table from the empty board (moves)",
}


def cmd_tictactoe(args) -> int:
    kinds = engine_kinds(args.engine)
    results = {k: answers(k, args.backend) for k in kinds}
    main = results[kinds[0]]
    differ = [k for k in KEYS if len({str(r[k]) for r in results.values()}) > 1]
    if args.json:
        emit(args, main)
    else:
        for k in KEYS:
            v = main[k]
            print(f"{LABELS[k]}: {'nobody' if v is None else v}")
        if args.engine == "both" and not differ:
            print("symbolic and explicit engines agree")
    for k in differ:
        print(
            f"MISMATCH on {k}: " + ", ".join(f"{e} {r[k]}" for e, r in results.items()),
            file=sys.stderr,
        )
    return 1 if differ else 0


def register(sub) -> None:
    t = sub.add_parser(
        "tictactoe",
        help="the TD's tic-tac-toe questions (Q18-Q30)",
        description="Count the boards, legal boards and boards reached from "
        "the empty board, the players' attractors, the winner and "
        "the strategy tables, from models/tictactoe.game.",
    )
    engine_arg(t, ENGINE_CHOICES)
    backend_arg(t, None)
    json_arg(
        t,
        "one JSON object: boards, legal, reachable, attractor1, attractor2, "
        "winner (1, 2 or null), strategy1, strategy2, draw1, draw2",
    )
    t.set_defaults(func=cmd_tictactoe)
