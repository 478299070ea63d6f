"""``symbolic chocolate``: Q9 and Q10 of the chocolate-bar exercise."""

from __future__ import annotations

import time

from ..seeds.chocolate import HALF, BarValues, answers
from .output import emit
from .common import backend_arg, backend_text, json_arg

__all__ = ["cmd_chocolate", "register"]


def cmd_chocolate(args) -> int:
    t0 = time.perf_counter()
    values = BarValues(HALF, "symbolic", args.backend)
    doc = answers(values)
    elapsed = time.perf_counter() - t0
    if args.json:
        emit(args, doc, engine=values.engine)
        return 0
    side = 2 * HALF + 1
    print(
        f"chocolate bar: values from one layered attractor on a {side} x {side} "
        f"bar, distances l, r, u, d in 0..{HALF} ({backend_text(values.engine, args.backend)}, {elapsed:.2f} s)"
    )
    q9 = doc["Q9"]
    # each question restated in one line (our words), then its answer
    print(
        "Q9   the values of the 100 x 100 bar with the square of death at (50, 50) and at "
        "(48, 52) (+k: the player to move wins within k moves; -k: loses, holding out k)"
    )
    print(f"     value(100, 100, 50, 50) = {q9['a']:+d}")
    print(f"     value(100, 100, 48, 52) = {q9['b']:+d}")
    pairs = ", ".join(f"({i}, {j})" for i, j in doc["Q10"])
    print("Q10  every square of death (i, j) for which the 127 x 127 bar has the value 127")
    print(f"     (i, j) with value(127, 127, i, j) = 127: {pairs or 'none'}")
    return 0


def register(sub) -> None:
    c = sub.add_parser(
        "chocolate",
        help="the chocolate-bar exercise: Q9 and Q10",
        description="Values of the chocolate bar with the square of death "
        "(the French exercise): Q9, the values of (100, 100, 50, 50) and "
        "(100, 100, 48, 52); Q10, every (i, j) with value "
        "(127, 127, i, j) = 127. A configuration (m, n, i, j) is an "
        "m x n bar with the square of death in column i, row j.",
    )
    backend_arg(c, "BDD backend (default: auto, see symbolic check --help; autoref is far slower)")
    json_arg(c, 'print {"Q9": {"a": int, "b": int}, "Q10": [[i, j], ...]}')
    c.set_defaults(func=cmd_chocolate)
