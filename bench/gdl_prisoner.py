"""gt_prisoner (the iterated prisoner's dilemma, simultaneous GDL) on the symbolic
engine: T over every state or built from the sources on, action bits above or below
the fluents'. One process per case: CPU seconds of building (explore + T) and of the
forced table, peak RSS, BDD sizes; the tables must agree.

    python bench/gdl_prisoner.py FILE   (gt_prisoner.kif of ggp-org's repository: not shipped)
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CASES = [("every state", "above"), ("every state", "below"), ("sources", "below")]


def case(path: str, relation: str, actions: str) -> dict:
    """One case in this process (see the module docstring)."""
    from symbolic.gdl import symbolic_concurrent
    from symbolic.gdl.solve import forced_values
    from symbolic.model import load_model

    if relation == "sources":
        symbolic_concurrent.FULL_T_MAX = 0
    m = load_model(path)
    t0 = time.process_time()
    G = symbolic_concurrent.GdlSymbolicConcurrentGame(m.game, actions=actions)
    t1 = time.process_time()
    table = [f["value"] for f in forced_values(m, G)]
    t2 = time.process_time()
    return {
        "build": round(t1 - t0, 2),
        "table": round(t2 - t1, 2),
        "values": table,
        "rss_MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "sizes": G.bdd_sizes(),
    }


if __name__ == "__main__":
    if sys.argv[1:2] == ["--case"]:
        print(json.dumps(case(*sys.argv[2:5])))
        sys.exit(0)
    path = sys.argv[1]
    print("| T | action bits | build CPU s | table CPU s | peak RSS | T nodes | table |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for relation, actions in CASES:
        out = subprocess.run(
            [sys.executable, __file__, "--case", path, relation, actions],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        r = json.loads(out)
        print(
            f"| {relation} | {actions} | {r['build']} | {r['table']} | {r['rss_MB']} MB | "
            f"{r['sizes']['T']} | {r['values']} |",
            flush=True,
        )
