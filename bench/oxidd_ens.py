"""ENS Nim F({1}) written by hand on oxidd (``pip install oxidd``): the same algorithm,
layout (j, k[n], …, k[1], MSB first, each bit next to its primed twin) and counts as
``bench/peers.py: hand_ens`` on dd.cudd, to measure what another BDD package would give.

    python bench/oxidd_ens.py N n K r u0 [threads]

Prints the build and fixpoint seconds (wall), the CPU seconds of the process, the
iterations and |F({1})|, which must equal the project's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import oxidd.bdd as ob  # noqa: E402
from oxidd.util import BooleanOperator  # noqa: E402

from symbolic.seeds.games import ens_rules  # noqa: E402


def solve(N: int, n: int, K: int, r: int, u0: int, threads: int = 1) -> dict:
    """μX. (T_¬1 ∧ stuck) ∪ (has ∧ ((T_1 ∧ ∃x'. δ ∧ X') ∪ (T_¬1 ∧ ¬∃x'. δ ∧ ¬X')))."""
    t0 = time.perf_counter()
    m = ob.BDDManager(1 << 26, 1 << 24, threads)
    wj, wk = max(1, (N - 1).bit_length()), max(1, K.bit_length())
    cols = [f"k{i}" for i in range(1, n + 1)]
    width = {"j": wj, **{c: wk for c in cols}}
    order = [
        f"{s}_{k}{p}"
        for s in ["j"] + cols[::-1]
        for k in reversed(range(width[s]))
        for p in ("", "'")
    ]
    m.add_named_vars(order)
    var = {name: m.var(i) for i, name in enumerate(order)}
    cur = [x for x in order if not x.endswith("'")]
    T, F = m.true(), m.false()

    def bits(s, primed=False):
        return [var[f"{s}_{k}{chr(39) if primed else ''}"] for k in range(width[s])]

    def eq(s, v, primed=False):
        u = T
        for k, x in enumerate(bits(s, primed)):
            u &= x if (v >> k) & 1 else ~x
        return u

    def le(s, v):
        u = T
        for k, x in enumerate(bits(s)):
            u = (~x | u) if (v >> k) & 1 else (~x & u)
        return u

    def minus_const(s, d):
        """s' = s − d ∧ s ≥ d (ripple borrow, LSB first)."""
        u, borrow = T, F
        for k, (x, y) in enumerate(zip(bits(s), bits(s, True))):
            dk = T if (d >> k) & 1 else F
            u &= ~(y ^ (x ^ dk ^ borrow))
            borrow = (~x & (dk | borrow)) | (x & dk & borrow)
        return u & ~borrow

    dom = le("j", N - 1)
    for c in cols:
        dom &= le(c, K)
    step = F
    for j in range(N):
        step |= eq("j", j) & eq("j", (j + 1) % N, True)
    delta = F
    for d in ens_rules(n, r, u0):
        u = step
        for c, dc in zip(cols, d):
            u &= minus_const(c, dc)
        delta |= u
    delta &= dom
    qn = T
    for x in cur:
        qn &= var[x + "'"]
    tj = eq("j", 0) & dom
    tn = dom & ~tj
    has = delta.exists(qn)
    to_next = ob.BDDFunction.make_substitution([(order.index(x), var[x + "'"]) for x in cur])
    pj, pn = delta & tj, delta & tn
    t1 = time.perf_counter()
    x, it = tn & ~has, 0
    while True:
        xn = x.substitute(to_next)
        ex = pj.apply_exists(BooleanOperator.AND, xn, qn)
        esc = pn.apply_exists(BooleanOperator.AND, ~xn, qn)
        new = x | (has & ((tj & ex) | (tn & ~esc)))
        if new == x:
            break
        x, it = new, it + 1
    t2 = time.perf_counter()
    return {
        "count": x.sat_count(len(order)) // 2 ** len(cur),
        "iterations": it,
        "t_build": t1 - t0,
        "t_fix": t2 - t1,
    }


if __name__ == "__main__":
    a = [int(v) for v in sys.argv[1:]]
    if len(a) not in (5, 6):
        sys.exit(__doc__)
    out = solve(*a)
    print(
        f"oxidd, {a[5] if len(a) > 5 else 1} thread(s), ENS Nim{tuple(a[:4])} u0={a[4]}: "
        f"build {out['t_build']:.2f} s, fixpoint {out['t_fix']:.2f} s (wall), "
        f"{time.process_time():.2f} s CPU, {out['iterations']} iterations, "
        f"F({{1}}) = {out['count']}"
    )
