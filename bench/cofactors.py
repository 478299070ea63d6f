"""Going past one machine, measured: the cofactors of a Connect Four layer by the
contents of its first columns (``python bench/cofactors.py W H [COLUMNS]``).

A layer F_k of the forward search (bench/peers.py's encoding: two bits per cell,
columns in order) splits by the contents of its first ``COLUMNS`` columns (each a
stack of 0..h discs: 2^(h+1) - 1 contents per column): F_k = ⋁_s [first columns = s]
∧ F_k|s. Each cofactor F_k|s is a set over the other columns only, and the image of
F_k is the union of the images of the cofactors: a process (or machine) per group of
contents can expand its part alone, a drop into the first columns moves the part to
another content (a message of one BDD). Printed per layer: the layer's nodes, the
number of non-empty cofactors, the largest one and the sum of their sizes.
"""

from __future__ import annotations

import itertools
import sys
import time

import oxidd.bdd as ob
from oxidd.util import BooleanOperator

from peers import connect4_lines, connect4_wins  # bench/ is the script's directory

AND = BooleanOperator.AND


def layers(w, h, a=4):
    """The forward layers of plain_connect4 (same encoding), kept with their manager."""
    m = ob.BDDManager(1 << 27, 1 << 22, 1)
    cells = [(c, r) for c in range(w) for r in range(h)]
    m.add_vars(2 * len(cells))
    o = {x: m.var(2 * i) for i, x in enumerate(cells)}
    k = {x: m.var(2 * i + 1) for i, x in enumerate(cells)}
    T, F = m.true(), m.false()

    def disc(x, p):
        return o[x] & (k[x] if p == 2 else ~k[x])

    win = connect4_wins(m, connect4_lines(w, h, a), disc)
    can = {(c, r): ~o[c, r] & ~k[c, r] & (T if r == 0 else o[c, r - 1]) for c, r in cells}
    cube = {x: o[x] & k[x] for x in cells}
    empty = T
    for x in cells:
        empty &= ~o[x] & ~k[x]
    out = [empty]
    while True:
        n = len(out) - 1
        p = 1 if n % 2 == 0 else 2
        src = out[-1] if n == 0 else out[-1] & ~win[3 - p]
        nxt = F
        for x in cells:
            nxt |= src.apply_exists(AND, can[x], cube[x]) & disc(x, p)
        if not nxt.satisfiable():
            return m, o, k, out
        out.append(nxt)


def column_contents(m, o, k, col, h):
    """The BDD of each content of column ``col``: a stack of j discs, colours as bits."""
    for j in range(h + 1):
        for colours in itertools.product((False, True), repeat=j):
            u = m.true()
            for r in range(h):
                if r < j:
                    u &= o[col, r] & (k[col, r] if colours[r] else ~k[col, r])
                else:
                    u &= ~o[col, r] & ~k[col, r]
            yield u


def main(argv):
    w, h = int(argv[1]), int(argv[2])
    ncols = int(argv[3]) if len(argv) > 3 else 1
    t0 = time.process_time()
    m, o, k, ls = layers(w, h)
    print(
        f"{w} x {h}: {len(ls)} layers in {time.process_time() - t0:.1f} s CPU; cofactors by "
        f"the first {ncols} column(s)"
    )
    print("| layer | nodes | cofactors | largest | sum of sizes | sum / nodes |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    parts = [m.true()]
    for c in range(ncols):
        parts = [p & s for p in parts for s in column_contents(m, o, k, c, h)]
    first_bits = []
    for c in range(ncols):
        for r in range(h):
            first_bits += [o[c, r], k[c, r]]
    q = m.true()
    for v in first_bits:
        q &= v
    for n, f in enumerate(ls):
        sizes = []
        for s in parts:
            u = f.apply_exists(AND, s, q)  # F ∧ [first columns = s], those bits removed
            if u.satisfiable():
                sizes.append(u.node_count())
        total = f.node_count()
        print(
            f"| {n} | {total} | {len(sizes)} | {max(sizes)} | {sum(sizes)} "
            f"| {sum(sizes) / total:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv)
