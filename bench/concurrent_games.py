"""Concurrent games on the symbolic engine: the action bits below or above the
position bits, and the universal half of Good skipped (T a function on enabled
joint actions) or computed. Every query of each model; the sets must agree.

    python bench/concurrent_games.py [--quick]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic import atl  # noqa: E402
from symbolic.bdd.concurrent import ACTION_ORDERS, SymbolicConcurrentGame  # noqa: E402
from symbolic.model import load_model  # noqa: E402

CASES = [
    ("race.game", {"N": 200, "M": 6}),
    ("race.game", {"N": 1000, "M": 3}),
    ("rps.game", {"R": 60}),
]
QUICK = [("race.game", {"N": 20, "M": 3}), ("rps.game", {"R": 5})]


def run(name: str, params: dict) -> None:
    m = load_model(ROOT / "models" / name, params)
    sizes = None
    for order in ACTION_ORDERS:
        for skip in (True, False):
            t0 = time.perf_counter()
            G = SymbolicConcurrentGame(m.game, actions=order)
            if not skip:
                G.deterministic = False
            ev = atl.Evaluator(G, m.definitions)
            got = [len(ev(q.formula)) for q in m.queries]
            t = time.perf_counter() - t0
            if sizes is not None and got != sizes:
                print(f"MISMATCH {name} {params} {order}: {got} != {sizes}")
            sizes = got
            half = "skipped" if skip and G.deterministic else "computed"
            print(
                f"| {name[:-5]} {params} | {order} | {half} | {G.bdd_sizes()['T']} | {t:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    print("| model | action bits | universal half | T nodes | build + queries s |")
    print("| --- | --- | --- | ---: | ---: |")
    for name, params in QUICK if "--quick" in sys.argv else CASES:
        run(name, params)
