"""``symbolic chomp``: nimbers of the Chomp revisité tablets and a verdict on each of
the report's claims, under each reading of a move."""

from __future__ import annotations

import sys
import time
from typing import Any

from ..seeds.chomp import MAX_SIZE, board_nimbers, tablet_nimbers, verdicts
from .output import emit
from .common import ENGINE_CHOICES, backend_arg, engine_arg, engine_kinds, int_arg, json_arg

__all__ = ["RULES", "cmd_chomp", "register"]

RULES = {"line": False, "edge": True}


def cmd_chomp(args) -> int:
    rules = list(RULES) if args.rule == "both" else [args.rule]
    kinds = engine_kinds(args.engine)
    doc: dict[str, dict[str, Any]] = {}
    status = 0
    for rule in rules:
        t0 = time.perf_counter()
        results = {k: board_nimbers(args.size, RULES[rule], k, args.backend) for k in kinds}
        seconds = time.perf_counter() - t0
        boards = results[kinds[0]]
        if args.engine == "both" and results["symbolic"] != results["explicit"]:
            status = 1
            w = next(b for b in boards if results["symbolic"][b] != results["explicit"].get(b))
            print(
                f"MISMATCH on board {sorted(w)} ({rule} rule): symbolic "
                f"{results['symbolic'][w]}, explicit {results['explicit'][w]}",
                file=sys.stderr,
            )
        tablets = tablet_nimbers(boards, args.size)
        vs = verdicts(boards, args.size)
        doc[rule] = {
            "tablets": {f"{n}x{m}": g for (n, m), g in tablets.items()},
            "claims": {
                v.claim.key: {
                    "where": v.claim.where,
                    "claim": v.claim.text,
                    "verdict": v.verdict,
                    "checked": v.checked,
                    "counterexample": v.counterexample,
                }
                for v in vs
            },
            "seconds": round(seconds, 2),
        }
    if args.json:
        emit(args, doc)
        return status
    for rule in rules:
        d = doc[rule]
        what = (
            "a move removes a whole row or column"
            if rule == "line"
            else "a move removes from a square to the edge, in one of 4 directions"
        )
        print(
            f"Chomp revisité, {rule} rule ({what}); boards up to {args.size} × {args.size}, "
            f"engine {args.engine}, {d['seconds']:.1f} s"
        )
        print("  nimbers of the n × m tablets (rows n, columns m):")
        print("       " + "".join(f"m={m:<3}" for m in range(1, args.size + 1)))
        for n in range(1, args.size + 1):
            print(
                f"    n={n} "
                + "".join(f"{d['tablets'][f'{n}x{m}']:<5}" for m in range(1, args.size + 1))
            )
        print("  claims:")
        for key, c in d["claims"].items():
            print(f"    [{c['verdict']}] {key} ({c['where']}): {c['claim']}")
            extra = (
                f"counterexample: {c['counterexample']}"
                if c["counterexample"]
                else f"{c['checked']} case(s) checked"
            )
            print(f"        {extra}")
        print()
    if args.engine == "both" and status == 0:
        print("symbolic and explicit agree on every board's nimber")
    return status


def register(sub) -> None:
    c = sub.add_parser(
        "chomp",
        help="Chomp revisité: tablet nimbers and verdicts on the report's claims",
        description="Nimbers of every board of models/chomp.game (an S × S board, every subset "
        "a position) under the whole-line rule and/or the to-the-edge rule, the "
        "n × m tablets' nimbers, and a verdict on each claim and conjecture of the "
        "report (sections 2.4 and 3.3), with a counterexample when one fails.",
    )
    c.add_argument(
        "--rule",
        choices=("line", "edge", "both"),
        default="both",
        help="line: a move removes a whole row or column (the model's default); "
        "edge: from the chosen square to the edge; both (default)",
    )
    c.add_argument(
        "--size",
        type=int_arg(),
        default=MAX_SIZE,
        metavar="S",
        help=f"board side, 1..{MAX_SIZE} (default {MAX_SIZE}): tablets up to S × S",
    )
    engine_arg(
        c, ENGINE_CHOICES, "symbolic (BDD layers), explicit (mex) or both (cross-check every board)"
    )
    backend_arg(c, "BDD backend of the symbolic engine")
    json_arg(c)
    c.set_defaults(func=cmd_chomp)
