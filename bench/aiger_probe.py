"""What bounds the safety solver on a circuit: ``python bench/aiger_probe.py FILE [--limit S]``.

Runs :func:`symbolic.aiger.safety.solve_safety` (the solver of ``symbolic aiger``) on
one file under a CPU limit and prints one JSON line per stage: the gates built (CPU
seconds since the start, live nodes), then each iteration (its CPU seconds, live nodes,
Z's nodes), then the answer; a run the limit stops ends with its last line, so the
stage that takes the time (the gates or the fixpoint) and the nodes at that point show.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic.aiger import read_aiger  # noqa: E402
from symbolic.aiger.safety import POLICIES, default_names, solve_safety  # noqa: E402


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--limit", type=int, default=60, help="CPU seconds (0: the caller's)")
    p.add_argument("--backend", default="cudd")
    p.add_argument("--policy", default="adapt", choices=sorted(POLICIES), help="reordering")
    p.add_argument("--order", default="file", choices=["file", "dfs"], help="initial order")
    p.add_argument("--merge", action="store_true", help="merge corresponding latches first")
    args = p.parse_args(argv)
    if args.limit > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (args.limit, args.limit + 5))
    name = Path(args.file).name
    t0 = time.process_time()
    c = read_aiger(args.file)
    head = {"file": name, "latches": len(c.latches), "inputs": len(c.inputs)}
    head.update(ands=len(c.and_lhs), read_s=round(time.process_time() - t0, 2))
    print(json.dumps(head), flush=True)

    def trace(stage: str, figures: dict) -> None:
        print(json.dumps({"stage": stage, **figures}), flush=True)

    r = solve_safety(
        c,
        *default_names(c),
        backend=args.backend,
        policy=args.policy,
        order=args.order,
        trace=trace,
        merge=args.merge,
    )
    answer = "REAL" if r.realizable else "UNREAL"
    done = {"answer": answer, "iterations": r.iterations, "merged": r.merged}
    print(json.dumps(done), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
