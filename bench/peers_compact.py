"""Connect Four's ply-by-ply table on oxidd in the compact encoding (Böck 2025).

The board of models/connect4-compact.game: each column has h+1 bits b[col, r], r = 0..h
from the bottom; the column's highest 1 is its marker, on the lowest empty cell (r = h:
the column is full); the bits below the marker are the discs (0 player 1, 1 player 2);
the bits above it are 0. Dropping a disc into a column changes that column's bits only.

The same table as bench/peers.py's ``relational_connect4`` (rows [k, win, draw, loss] of
the player to move per ply, a layer per number of discs, the terminal test per layer),
computed by one of four image schemes (``VARIANTS``); :func:`compact_connect4` is the
fastest measured. Run as a script to time them: ``python bench/peers_compact.py W H
[VARIANT ORDER [centre]]``.
"""

from __future__ import annotations

import sys
import time

from peers import connect4_lines, connect4_table  # bench/ is the script's directory

#: image schemes: cofactors per (column, marker) with no next bits; one relation per
#: column with the next bits interleaved; one relation per player (all columns, frame
#: included) with the next bits interleaved; two alternating sets of board bits
VARIANTS = ("cofactor", "column", "relation", "alternate")


def centre_out(w: int) -> list[int]:
    """The columns from the centre outward, as connect4-compact.game stores them with
    ``centre = 1``: the centre (the left one of two), then alternately right and left.

    >>> centre_out(7), centre_out(6)
    ([3, 4, 2, 5, 1, 6, 0], [2, 3, 1, 4, 0, 5])
    """
    c = (w - 1) // 2
    block = [2 * (col - c) - 1 if col > c else 2 * (c - col) for col in range(w)]
    return sorted(range(w), key=block.__getitem__)


class _Board:
    """The manager and the board's bits: ``sets`` copies of the w·(h+1) bits, interleaved
    bit by bit, the columns one after another (left to right, or from the centre
    outward: ``centre``), each from the bottom (or the top)."""

    def __init__(self, w, h, a, sets, top_first, threads, cache_log2, nodes_log2, centre=False):
        import oxidd.bcdd as ob  # complement edges, as the project's backend

        self.ob, self.w, self.h, self.a, self.sets = ob, w, h, a, sets
        self.m = ob.BCDDManager(1 << nodes_log2, 1 << cache_log2, threads)
        self.nbits = w * (h + 1)
        self.m.add_vars(sets * self.nbits)
        rows = range(h, -1, -1) if top_first else range(h + 1)
        cols = centre_out(w) if centre else range(w)
        pos = {(col, r): i for i, (col, r) in enumerate((c, r) for c in cols for r in rows)}
        self.idx = [{c: sets * i + s for c, i in pos.items()} for s in range(sets)]
        self.b = [{c: self.m.var(i) for c, i in ix.items()} for ix in self.idx]
        self.T, self.F = self.m.true(), self.m.false()

    def conj(self, fs):
        u = self.T
        for f in fs:
            u &= f
        return u

    def cube(self, s, bits):
        return self.conj(self.b[s][c] for c in bits)

    def column(self, col, lo=0):
        return [(col, r) for r in range(lo, self.h + 1)]

    def disc(self, s, col, r, p):
        b = self.b[s]
        occupied = self.F
        for j in range(r + 1, self.h + 1):
            occupied |= b[col, j]
        return occupied & (b[col, r] if p == 2 else ~b[col, r])

    def marker(self, s, col, m):
        """The column's marker is at row m (its lowest empty cell)."""
        return self.b[s][col, m] & self.conj(~self.b[s][col, j] for j in range(m + 1, self.h + 1))

    def after(self, s, col, m, p):
        """Bits m.. of the column once p's disc went onto row m."""
        b = self.b[s]
        up = self.conj(~b[col, j] for j in range(m + 2, self.h + 1))
        return (b[col, m] if p == 2 else ~b[col, m]) & b[col, m + 1] & up

    def move(self, s, t, col, p):
        """Set s → set t: p drops a disc into col (the column's bits only)."""
        u = self.F
        for m in range(self.h):
            same = self.conj(self.b[t][col, j].equiv(self.b[s][col, j]) for j in range(m))
            u |= self.marker(s, col, m) & self.after(t, col, m, p) & same
        return u

    def frame(self, s, t, col):
        """Every column but col is the same on sets s and t."""
        return self.conj(self.b[t][c].equiv(self.b[s][c]) for c in self.idx[0] if c[0] != col)

    def wins(self, s):
        lines = connect4_lines(self.w, self.h, self.a)
        return {
            p: _disj(self, (self.conj(self.disc(s, c, r, p) for c, r in ln) for ln in lines))
            for p in (1, 2)
        }

    def empty(self, s):
        return self.conj(self.marker(s, col, 0) for col in range(self.w))

    def count(self, f):  # the other sets' bits free
        return int(f.sat_count(self.sets * self.nbits)) >> ((self.sets - 1) * self.nbits)

    def subst(self, pairs):
        return self.ob.BCDDFunction.make_substitution([(i, self.m.var(j)) for i, j in pairs])


def _disj(B, fs):
    u = B.F
    for f in fs:
        u |= f
    return u


def _cofactor(B):
    """image(n, p, F), pre(n, p, W) by cofactors per (column, marker), no next bits."""
    from oxidd.util import BooleanOperator

    AND, cols, h = BooleanOperator.AND, range(B.w), B.h
    mk = {(c, m): B.marker(0, c, m) for c in cols for m in range(h)}
    cube = {(c, m): B.cube(0, B.column(c, m)) for c in cols for m in range(h)}
    aft = {(c, m, p): B.after(0, c, m, p) for c in cols for m in range(h) for p in (1, 2)}

    def image(n, p, f):
        return _disj(B, (f.apply_exists(AND, mk[k], cube[k]) & aft[k + (p,)] for k in mk))

    def pre(n, p, target):
        return _disj(B, (mk[k] & target.apply_exists(AND, aft[k + (p,)], cube[k]) for k in mk))

    return image, pre


def _column(B):
    """image, pre by one relation per (column, player) over that column's bits and their
    next bits (interleaved), the other columns untouched: no frame."""
    from oxidd.util import BooleanOperator

    AND, cols = BooleanOperator.AND, range(B.w)
    R = {(c, p): B.move(0, 1, c, p) for c in cols for p in (1, 2)}
    cur = {c: B.cube(0, B.column(c)) for c in cols}
    nxt = {c: B.cube(1, B.column(c)) for c in cols}
    up = {c: B.subst([(B.idx[1][x], B.idx[0][x]) for x in B.column(c)]) for c in cols}
    down = {c: B.subst([(B.idx[0][x], B.idx[1][x]) for x in B.column(c)]) for c in cols}

    def image(n, p, f):
        return _disj(B, (f.apply_exists(AND, R[c, p], cur[c]).substitute(up[c]) for c in cols))

    def pre(n, p, target):
        return _disj(
            B, (R[c, p].apply_exists(AND, target.substitute(down[c]), nxt[c]) for c in cols)
        )

    return image, pre


def _relation(B):
    """image, pre by one relation per player (every column's move and its frame) over
    current and next bits, renamed after each product (as relational_connect4)."""
    from oxidd.util import BooleanOperator

    AND, cols, allb = BooleanOperator.AND, range(B.w), list(B.idx[0])
    d = {p: _disj(B, (B.move(0, 1, c, p) & B.frame(0, 1, c) for c in cols)) for p in (1, 2)}
    cur, nxt = B.cube(0, allb), B.cube(1, allb)
    up = B.subst([(B.idx[1][x], B.idx[0][x]) for x in allb])
    down = B.subst([(B.idx[0][x], B.idx[1][x]) for x in allb])

    def image(n, p, f):
        return f.apply_exists(AND, d[p], cur).substitute(up)

    def pre(n, p, target):
        return d[p].apply_exists(AND, target.substitute(down), nxt)

    return image, pre


def _alternate(B):
    """image, pre with layer k on bit set k mod 2: ∃A. F(A) ∧ δ(A, B) is already on B, no
    renaming; one relation per (player, direction)."""
    from oxidd.util import BooleanOperator

    AND, cols, allb = BooleanOperator.AND, range(B.w), list(B.idx[0])
    d = {
        (p, s): _disj(B, (B.move(s, 1 - s, c, p) & B.frame(s, 1 - s, c) for c in cols))
        for p in (1, 2)
        for s in (0, 1)
    }
    cube = [B.cube(0, allb), B.cube(1, allb)]

    def image(n, p, f):
        return f.apply_exists(AND, d[p, n % 2], cube[n % 2])

    def pre(n, p, target):  # target on set (n + 1) mod 2, the result on set n mod 2
        return d[p, n % 2].apply_exists(AND, target, cube[(n + 1) % 2])

    return image, pre


SCHEMES = {"cofactor": _cofactor, "column": _column, "relation": _relation, "alternate": _alternate}


def compact_variant(
    w,
    h,
    a=4,
    *,
    variant="cofactor",
    top_first=False,
    centre=False,
    threads=1,
    cache_log2=22,
    nodes_log2=28,
    solve=True,
    log=None,
):
    """The ply-by-ply table of Connect Four in the compact encoding by the image scheme
    ``variant`` (``VARIANTS``), the bits of a column from the bottom (or ``top_first``),
    the columns left to right (or from the ``centre`` outward); the result dict of
    bench/peers.py's relational_connect4."""
    import resource

    t0 = time.perf_counter()
    sets = 1 if variant == "cofactor" else 2
    B = _Board(w, h, a, sets, top_first, threads, cache_log2, nodes_log2, centre)
    image, pre = SCHEMES[variant](B)
    win = [B.wins(s) for s in range(2 if variant == "alternate" else 1)]
    t1 = time.perf_counter()
    layers = [B.empty(0)]
    while True:
        n = len(layers) - 1
        p = 1 if n % 2 == 0 else 2  # the ply's parity gives the mover
        src = layers[-1] if n == 0 else layers[-1] & ~win[n % len(win)][3 - p]
        img = image(n, p, src)
        if not img.satisfiable():
            break
        layers.append(img)
        if log:
            log(f"layer {n + 1}: {img.node_count()} nodes, {time.perf_counter() - t1:.1f} s")
    sizes = [B.count(f) for f in layers]
    t2 = time.perf_counter()
    rows = connect4_table(layers, sizes, win, pre, B.count, B.F, solve=solve, log=log)
    t3 = time.perf_counter()
    return {
        "count": sum(sizes),
        "layers": [tuple(r) for r in rows],
        "winner": ("1" if rows[0][1] else "draw" if rows[0][2] else "2"),
        "iterations": 2 * len(layers),
        "t_build": t1 - t0,
        "t_reach": t2 - t1,
        "t_fix": t3 - t1,
        "peak_nodes": B.m.num_inner_nodes(),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def compact_connect4(w, h, a=4, *, threads=1, cache_log2=22, nodes_log2=28, solve=True, log=None):
    """Connect Four's ply-by-ply table on oxidd in the compact encoding, the fastest
    scheme measured: the layers on two alternating sets of board bits (``alternate``),
    the columns from the centre outward (as the model stores them by default).

    Layer k lies on bit set k mod 2 (the two sets interleaved bit by bit, the columns
    one after another, each column's bits from the bottom): the image ∃A. F_k(A) ∧
    δ_p(A, B) is F_{k+1} on B with no renaming, the pre-image ∃B. δ_p(A, B) ∧ W(B) is on
    A; δ_p = ⋁_col move_col,p ∧ frame_≠col, one BDD per player and direction. The ply's
    parity gives the mover; a layer's boards where the previous mover has a line are
    removed before its image, as in bench/peers.py's relational_connect4, whose result
    dict (and rows) this returns.

    Measured (CPU s, shared machine; the four schemes of ``compact_variant``, bottom-first
    / top-first within a column; one process each, relation and alternate on 5 × 4 the
    best of 2–3 in one process): 4 × 4: cofactor 0.33 / 0.16, column 0.19 / 0.13,
    relation 0.12 / 0.10, alternate 0.11 / 0.10; 5 × 4: cofactor 3.34 / 2.57, column
    2.22 / 2.18, relation 1.48 / 1.39, alternate 1.25 / 1.28. Bottom-first and top-first
    are within the noise for the relational schemes; bottom-first has the smaller layers
    (max 19 299 nodes against 19 861 on 5 × 4), so it is kept. Whole processes (user +
    system CPU s, peak RSS) against relational_connect4 (two bits a cell): 5 × 4: 1.8 s,
    174 MB against 4.1 s, 283 MB; 5 × 5: 25.2 s, 1.0 GB against 79.9 s, 2.7 GB.
    """
    return compact_variant(
        w,
        h,
        a,
        variant="alternate",
        top_first=False,
        centre=True,
        threads=threads,
        cache_log2=cache_log2,
        nodes_log2=nodes_log2,
        solve=solve,
        log=log,
    )


def _main(argv):
    """Time one variant: W H [VARIANT [bottom|top [centre]]]; prints CPU seconds and the
    rows."""
    w, h = int(argv[0]), int(argv[1])
    variant = argv[2] if len(argv) > 2 else "cofactor"
    top = len(argv) > 3 and argv[3] == "top"
    centre = len(argv) > 4 and argv[4] == "centre"
    c0 = time.process_time()
    r = compact_variant(w, h, variant=variant, top_first=top, centre=centre)
    cpu = time.process_time() - c0
    where = "centre-out" if centre else "left to right"
    print(f"{w}x{h} {variant} {'top' if top else 'bottom'} {where}: {cpu:.2f} s CPU, ", end="")
    print(f"{r['count']} positions, winner {r['winner']}, {r['rss_mb']:.0f} MB")
    print(r["layers"])


if __name__ == "__main__":
    _main(sys.argv[1:])
