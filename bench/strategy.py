"""Benchmark: winning strategies as relations, symbolic (cudd) against explicit.

For each row: the time to build the rank-lowering strategy of player 1 for the
row's until formula (until with its layers, then one ``moves_between`` per layer),
the number of moves in the relation, its BDD size, the time to pick one move per
position (``MoveRelation.pick``) and to count player 1's positional strategies
(``out_degrees``). ``python bench/strategy.py [--quick] [--timeout S]``.
"""

from __future__ import annotations

import argparse
import math
import time

from symbolic.api import DeadEnds
from symbolic.bdd import SymbolicGame
from symbolic.explicit import ExplicitGame
from symbolic.seeds.games import nim_ens, subtraction
from symbolic.analysis.strategy import count_strategies, reach_strategy

from run import subtraction_heaps  # noqa: E402  (bench/ is the working directory's sibling)


def lose_of_2(e):
    """turn({2}) and <<1>> X false: player 2 to move and stuck."""
    return e.turn_set({2}) & e.deadlocks()


def measure(e, goal):
    t0 = time.perf_counter()
    s = reach_strategy(e, {1}, e.positions(), goal(e), DeadEnds.VACUOUS)
    moves = s.relation.count()
    t1 = time.perf_counter()
    picked = s.relation.pick().count()
    t2 = time.perf_counter()
    n = count_strategies(e, 1)
    t3 = time.perf_counter()
    size = e.manager.size(s.relation.node) if hasattr(s.relation, "node") else None
    return {
        "build": t1 - t0,
        "moves": moves,
        "picked": picked,
        "pick": t2 - t1,
        "count": t3 - t2,
        "digits": int(math.log10(n)) + 1,
        "nodes": size,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small rows only")
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args()
    rows = [
        ("ENS Nim(3,2,20,3)", lambda: nim_ens(3, 2, 20, 3, 0)),
        ("subtraction K=1000", lambda: subtraction(1000)),
        ("subtraction 3 heaps x 4 bits", lambda: subtraction_heaps(3, 4)),
        ("ENS Nim(3,3,20,6)", lambda: nim_ens(3, 3, 20, 6, 0)),
    ]
    if not args.quick:
        # 5 heaps x 5 bits: 0.13 s for the relation on cudd, but the count is a
        # number of 38 million digits, whose Python multiplication takes minutes
        rows += [("subtraction 4 heaps x 5 bits", lambda: subtraction_heaps(4, 5))]
    slow = False
    print(
        f"{'game':30} {'engine':9} {'moves':>10} {'BDD nodes':>10} {'build s':>8} "
        f"{'pick s':>8} {'count s':>8} {'#strategies':>12}"
    )
    for name, build in rows:
        g = build()
        ref = None
        for kind, make in (
            ("cudd", lambda: SymbolicGame(g)),
            ("explicit", lambda: ExplicitGame(g)),
        ):
            if kind == "explicit" and slow:
                print(f"{name:30} {kind:9} {'skipped':>10}")
                continue
            r = measure(make(), lose_of_2)
            if ref is not None and (r["moves"], r["picked"], r["digits"]) != ref:
                raise SystemExit(f"{name}: engines disagree: {r} vs {ref}")
            ref = (r["moves"], r["picked"], r["digits"])
            nodes = "-" if r["nodes"] is None else r["nodes"]
            print(
                f"{name:30} {kind:9} {r['moves']:>10} {nodes:>10} {r['build']:>8.3f} "
                f"{r['pick']:>8.3f} {r['count']:>8.3f} {'10^' + str(r['digits'] - 1):>12}",
                flush=True,
            )
            if kind == "explicit" and r["build"] + r["pick"] + r["count"] > args.timeout:
                slow = True


if __name__ == "__main__":
    main()
