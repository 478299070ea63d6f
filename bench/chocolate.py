"""Chocolate bar with the square of death: naive recursion, dynamic programming, symmetries and
layered BDD fixpoints, side by side.

Q6/Q7: the naive recursion (the text's recurrence, no table) on the 10 × 7 bar
with the square of death at (7, 3), then at (5, 3). Q8–Q13: a table of values
(dynamic programming), the same table keyed by the Q12 symmetry class (8
configurations, one entry), and the symbolic engine's layered attractors: two
attractors (``symbolic.analysis.values``, any two-player game) or one (the players'
symmetry, ``symbolic.seeds.chocolate``). Every method's value is checked equal to
the others' on each row.

    python bench/chocolate.py            # every row up to 40 x 40 (a few minutes)
    python bench/chocolate.py --quick    # small rows only
    python bench/chocolate.py --full     # also the naive recursion on the text's two
                                         # 10 x 7 instances (an hour or more)
    python bench/chocolate.py --q9       # Q9 by the table over symmetry classes,
                                         # against `symbolic chocolate` (minutes)
    python bench/chocolate.py --naive 10,7,7,3   # the naive row of one bar only
"""

from __future__ import annotations

import argparse
import sys
import time

from symbolic import ir
from symbolic.seeds.chocolate import HALF, MODEL, load_bar
from symbolic.engines import make_engine
from symbolic.model import load_model
from symbolic.analysis.values import ranks, recurrence_value, two_player_values

sys.setrecursionlimit(100_000)


def successors(s):
    """The distances (l, r, u, d) after each possible break."""
    for k in range(4):
        for v in range(s[k]):
            yield s[:k] + (v,) + s[k + 1 :]


def naive(s, calls):
    """The recurrence, recomputed at every call (Q5)."""
    calls[0] += 1
    return recurrence_value(naive(t, calls) for t in successors(s))


def naive_calls(s, memo):
    """The number of calls the naive recursion makes from ``s`` (counted with a table)."""
    c = memo.get(s)
    if c is None:
        c = memo[s] = 1 + sum(naive_calls(t, memo) for t in successors(s))
    return c


def table_values(s, table):
    """The recurrence with a table of computed values (Q8)."""
    v = table.get(s)
    if v is None:
        v = table[s] = recurrence_value(table_values(t, table) for t in successors(s))
    return v


def canonical(s):
    """One representative of the 8 configurations of Q12: swap left/right, up/down,
    and the two axes."""
    l, r, u, d = s
    a, b = (l, r) if l <= r else (r, l)
    c, e = (u, d) if u <= d else (d, u)
    return (a, b, c, e) if (a, b) <= (c, e) else (c, e, a, b)


def symmetric_values(s, table):
    """The recurrence with a table keyed by the symmetry class (Q13)."""
    key = canonical(s)
    v = table.get(key)
    if v is None:
        v = table[key] = recurrence_value(symmetric_values(t, table) for t in successors(key))
    return v


def bdd_values(m, n, i, j, one_attractor: bool):
    """(value of the whole bar with player 1 to move, shared BDD nodes of the layers)."""
    model = load_model(MODEL, {"m": m, "n": n, "i": i, "j": j})
    eng = make_engine(model.game, "symbolic", "cudd")
    start = (1, i, m - 1 - i, j, n - 1 - j)
    if one_attractor:
        R = ranks(eng, {1}, eng.deadlocks() & eng.turn_set({2}))
        k = R.rank(start)
        value = k if k is not None else -R.rank((2,) + start[1:])
        layers = R.layers
    else:
        V = two_player_values(eng)
        value = V.value(start)
        layers = list(V.by_value.values())
    return value, eng.manager.shared_size([x.node for x in layers])


def clock(f, *a):
    t0 = time.perf_counter()
    r = f(*a)
    return time.perf_counter() - t0, r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small rows only")
    ap.add_argument(
        "--full",
        action="store_true",
        help="also the naive recursion on the text's 10 x 7 instances and the tables on 100 x 100",
    )
    ap.add_argument(
        "--q9",
        action="store_true",
        help="only Q9: the table over symmetry classes against the BDD answer",
    )
    ap.add_argument(
        "--naive",
        action="append",
        metavar="M,N,I,J",
        default=[],
        help="run only the naive recursion (and the BDD) on these bars",
    )
    args = ap.parse_args()
    only = [tuple(int(x) for x in c.split(",")) for c in args.naive]
    if args.q9:
        return q9()

    print("Q6/Q7: naive recursion (no table) against the layered BDD fixpoint (cudd)")
    print(
        f"{'bar (m, n, i, j)':<22}{'(l, r, u, d)':<16}{'calls':>12}{'naive s':>10}"
        f"{'BDD s':>8}  value"
    )
    naive_rows = [(6, 5, 3, 2), (8, 5, 3, 2)]
    if not args.quick:
        naive_rows += [(7, 7, 4, 3), (8, 7, 5, 3)]
    if args.full:
        naive_rows += [(10, 7, 7, 3), (10, 7, 5, 3)]
    rate = None
    for m, n, i, j in only or naive_rows:
        s = (i, m - 1 - i, j, n - 1 - j)
        calls = [0]
        tn, v = clock(naive, s, calls)
        tb, (vb, _) = clock(bdd_values, m, n, i, j, True)
        assert v == vb, (s, v, vb)
        rate = tn / calls[0]
        print(f"{str((m, n, i, j)):<22}{str(s):<16}{calls[0]:>12,}{tn:>10.2f}{tb:>8.3f}  {v:+d}")
        sys.stdout.flush()
    if only:
        return 0
    if not args.full:
        print(
            "not run (--full): the text's instances; calls counted exactly, time estimated "
            f"at the last row's {rate * 1e6:.1f} us a call"
        )
        for m, n, i, j in [(10, 7, 7, 3), (10, 7, 5, 3)]:
            s = (i, m - 1 - i, j, n - 1 - j)
            c = naive_calls(s, {})
            print(f"{str((m, n, i, j)):<22}{str(s):<16}{c:>12,}{'~' + format(c * rate, '.0f'):>10}")

    print("\nQ8-Q13: table of values, table over the 8 symmetries (Q12), BDD layers")
    print(
        f"{'bar (m, n, i, j)':<22}{'table s':>9}{'entries':>11}{'sym s':>8}{'entries':>10}"
        f"{'2 attr s':>10}{'1 attr s':>10}{'BDD nodes':>11}  value"
    )
    rows = [(10, 7, 7, 3), (10, 7, 5, 3), (20, 20, 10, 10)]
    if not args.quick:
        rows += [(30, 30, 15, 15), (40, 40, 20, 20)]
    for m, n, i, j in rows:
        s = (i, m - 1 - i, j, n - 1 - j)
        plain, sym = {}, {}
        tp, vp = clock(table_values, s, plain)
        ts, vs = clock(symmetric_values, s, sym)
        t2, (v2, _) = clock(bdd_values, m, n, i, j, False)
        t1, (v1, nodes) = clock(bdd_values, m, n, i, j, True)
        assert vp == vs == v2 == v1, (s, vp, vs, v2, v1)
        print(
            f"{str((m, n, i, j)):<22}{tp:>9.2f}{len(plain):>11,}{ts:>8.2f}{len(sym):>10,}"
            f"{t2:>10.3f}{t1:>10.3f}{nodes:>11,}  {vp:+d}"
        )
        sys.stdout.flush()
    if not args.quick:
        big_bar()
    return 0


def q9():
    """Q9 recomputed by the table over symmetry classes, against ``symbolic chocolate``."""
    from symbolic.seeds.chocolate import answers

    tb, got = clock(answers)
    print(f"symbolic chocolate (Q9 and Q10): {tb:.2f} s, Q9 = {got['Q9']}")
    for key, (m, n, i, j) in (("a", (100, 100, 50, 50)), ("b", (100, 100, 48, 52))):
        table = {}
        t, v = clock(symmetric_values, (i, m - 1 - i, j, n - 1 - j), table)
        print(
            f"table by symmetry class {(m, n, i, j)}: {t:.1f} s, {len(table):,} entries, "
            f"value {v:+d}"
        )
        assert v == got["Q9"][key], (v, got["Q9"][key])
    return 0


def big_bar():
    """The bar of ``symbolic chocolate`` (Q9, Q10): two attractors against one, and the
    BDD nodes of the value layers over all positions against over one symmetry class
    representative each (what a quotient by Q12's symmetries would store)."""
    side = 2 * HALF + 1
    print(f"\nQ9/Q10 bar {side} x {side} (l, r, u, d in 0..{HALF}), cudd")
    model = load_bar(HALF)
    times = {}
    for label in ("two attractors", "one attractor"):
        t0 = time.perf_counter()
        eng = make_engine(model.game, "symbolic", "cudd")
        if label == "two attractors":
            V = two_player_values(eng)
            layers = [x.node for x in V.by_value.values()]
        else:
            R = ranks(eng, {1}, eng.deadlocks() & eng.turn_set({2}))
            layers = [x.node for x in R.layers]
        times[label] = time.perf_counter() - t0
        print(
            f"  {label:<16}{times[label]:>8.2f} s  {len(layers)} layers, "
            f"{eng.manager.shared_size(layers):,} BDD nodes"
        )
    l, r, u, d = (ir.Var(v) for v in "lrud")
    canon = eng.from_expr((l <= r) & (u <= d) & ((l < u) | (l.eq(u) & (r <= d))))
    m = eng.manager
    quotient = [m.and_(x, canon.node) for x in layers]
    print(
        f"  positions {R.attractor.count():,}, of which one per symmetry class "
        f"{(R.attractor & canon).count():,}"
    )
    print(
        f"  BDD nodes of the layers: all positions {m.shared_size(layers):,}, "
        f"class representatives only {m.shared_size(quotient):,}"
    )


if __name__ == "__main__":
    sys.exit(main())
