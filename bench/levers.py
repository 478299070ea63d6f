"""The levers of issue 9 that are not kept, measured side by side (``python bench/levers.py``).

For each case, the project's until fixpoint (SymbolicGame.until, order ``auto``,
cudd) is run once as the reference, then once per variant on a fresh engine; every
variant's result must be the same BDD (``MISMATCH`` otherwise). CPU seconds of the
fixpoint only (engine construction and the layout probe excluded), and the ratio to
the reference. Variants:

- ``frontier``: only the positions added by the previous step feed the pre-images
  (the ∃ part exactly; the ∀ part checked only on the candidates, the positions of
  the others with a successor just added), as in frontier-based BDD reachability;
- ``dynamic``: CUDD's dynamic reordering (sifting) on during the fixpoint;
- ``sift-once``: one sifting pass after δ, then off;
- ``cache``: CUDD's computed table allowed to grow to 2^22 entries;

Chaining moves inside an iteration is not measured: every shipped family alternates
movers, so a position added through one part's pre-image is never the target of
another part's pre-image in the same step (its predecessors belong to the other side).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic.api import DeadEnds  # noqa: E402
from symbolic.bdd import SymbolicGame  # noqa: E402
from symbolic.model import load_model, parse_state_expr  # noqa: E402

MODELS = ROOT / "symbolic" / "models"

#: (label, model, params, coalition, target: the other side to move and stuck)
CASES = [
    (
        "ENS Nim(3, 4, 63, 6) F({1})",
        "ens2005.game",
        {"N": 3, "n": 4, "K": 63, "r": 6, "u0": 0},
        {1},
        "j != 1 and stuck",
    ),
    (
        "ENS Nim(3, 4, 127, 6) F({1})",
        "ens2005.game",
        {"N": 3, "n": 4, "K": 127, "r": 6, "u0": 0},
        {1},
        "j != 1 and stuck",
    ),
    (
        "classic Nim, 4 heaps 0..63, wins(1)",
        "nim.game",
        {"n": 4, "K": 63},
        {1},
        "j = 2 and not exists i in 1..n: k[i] > 0",
    ),
    (
        "classic Nim, 5 heaps 0..63, wins(1)",
        "nim.game",
        {"n": 5, "K": 63},
        {1},
        "j = 2 and not exists i in 1..n: k[i] > 0",
    ),
    (
        "one heap, take 1-3, K = 10^4, wins(1)",
        "subtraction.game",
        {"K": 10_000},
        {1},
        "j = 2 and k = 0",
    ),
]
QUICK = [0, 2, 4]


def frontier_until(eng: SymbolicGame, J, target):
    """μX. τ ∪ pre(J, X) with frontier sets: the first step is the full pre (it
    holds the others' dead ends, VACUOUS); then with Δ the positions just added,
    new = (T_J ∧ ∃x'. δ_J ∧ Δ') ∪ (C ∧ ¬∃x'. (δ_¬J ∧ C) ∧ ¬X'), C = ∃x'. δ_¬J ∧ Δ',
    minus X. Returns (X, iterations)."""
    m, enc = eng.manager, eng.encoder
    key = eng._coalition(J)
    tj, pj, pn = key.turn, key.ours, key.theirs
    x = target.node
    new = m.diff(eng._pre_node(key, x, DeadEnds.VACUOUS), x)
    x = m.or_(x, new)
    n = 1
    while not m.is_false(new):
        n += 1
        dn = m.rename(new, enc.to_next)
        # the parts come grouped by source factor S (SymbolicGame._coalition, a Coalition)
        ex = m.and_(tj, eng._exists_node(pj, dn))
        cand = m.diff(eng._exists_node(pn, dn), x)
        fa = m.false
        if not m.is_false(cand):
            xn = m.rename(x, enc.to_next)
            esc = eng._exists_node([(m.and_(s, cand), rs) for s, rs in pn], m.not_(xn))
            fa = m.diff(cand, esc)
        new = m.diff(m.or_(ex, fa), x)
        x = m.or_(x, new)
    return x, n


def run_case(model: str, params: dict, J: set, target: str, variant: str) -> dict:
    m = load_model(MODELS / model, params)
    eng = SymbolicGame(m.game, "cudd")
    tau = eng.from_expr(parse_state_expr(target, m))
    eng.settle_layout()
    bdd = eng.manager.bdd
    if variant == "sift-once":
        from dd import cudd

        cudd.reorder(bdd)
    elif variant == "dynamic":
        bdd.configure(reordering=True)
    elif variant == "cache":
        bdd.configure(max_cache_hard=1 << 22)
    t = time.process_time()
    if variant == "frontier":
        node, its = frontier_until(eng, J, tau)
    else:
        fx = eng.until(J, eng.positions(), tau, dead_ends=DeadEnds.VACUOUS)
        node, its = fx.result.node, fx.iterations
    dt = time.process_time() - t
    bdd.configure(reordering=False)
    with warnings.catch_warnings():  # dd warns that 'mem' changed units; unused here
        warnings.simplefilter("ignore")
        peak = bdd.statistics()["peak_live_nodes"]
    return {"cpu": dt, "iterations": its, "count": eng.wrap(node).count(), "peak": peak}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the small cases only")
    args = ap.parse_args(argv)
    variants = ["frontier", "dynamic", "sift-once", "cache"]
    print("| case | variant | fixpoint CPU s | iterations | peak nodes | count | CPU / plain |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for i, (label, model, params, J, target) in enumerate(CASES):
        if args.quick and i not in QUICK:
            continue
        ref = run_case(model, params, J, target, "plain")
        print(
            f"| {label} | plain | {ref['cpu']:.2f} | {ref['iterations']} | {ref['peak']} "
            f"| {ref['count']} | 1.00× |",
            flush=True,
        )
        for v in variants:
            r = run_case(model, params, J, target, v)
            same = "" if r["count"] == ref["count"] else " MISMATCH"
            print(
                f"| {label} | {v} | {r['cpu']:.2f} | {r['iterations']} | {r['peak']} "
                f"| {r['count']}{same} | {r['cpu'] / max(ref['cpu'], 1e-3):.2f}× |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
