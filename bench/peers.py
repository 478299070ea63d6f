"""Benchmark peers: minimal hand-written ``dd.cudd`` scripts and ``omega`` (fol).

Each function computes the same set as the project's query of its family and
returns ``{"count", "iterations", "t_build", "t_fix", "peak_nodes"}``. The
hand-written scripts are the floor for Python + CUDD: one manager, reordering
off, the layout that measured best (bench/README.md), one relational product
(``and_exists``) per part and per step, no checks.

Layouts: variables MSB first, each current bit followed by its next bit;
ENS Nim: turn first, then the columns from the last to the first ("j, k[n],
…, k[1]", 5–10× faster than "j, k[1], …, k[n]" on Nim(3, 4, 63, 6));
classic Nim and the subtraction game: bit-sliced (bits of equal weight of all
heaps side by side).
"""

from __future__ import annotations

import time

from symbolic.seeds.games import ens_rules


# ---------------------------------------------------------------- dd.cudd helpers


class _Bits:
    """A dd.cudd manager with unsigned integer variables x (current) and x' (next)."""

    def __init__(self, layout):
        """``layout``: the (name, width) pairs, in the order of levels; ``sliced`` lists
        are [(name, width), ...] whose bits interleave by weight."""
        from dd import cudd

        self.cudd = cudd
        self.b = cudd.BDD()
        self.b.configure(reordering=False)
        self.widths = dict(layout)

    def declare(self, names):
        self.b.declare(*names)
        self.cur = [n for n in names if not n.endswith("'")]
        self.ren = {n: n + "'" for n in self.cur}
        self.qn = set(self.ren.values())

    def slot_order(self, slots):
        return [
            f"{s}_{k}{p}" for s in slots for k in reversed(range(self.widths[s])) for p in ("", "'")
        ]

    def sliced_order(self, slots):
        top = max(self.widths[s] for s in slots)
        return [
            f"{s}_{k}{p}"
            for k in reversed(range(top))
            for s in slots
            if k < self.widths[s]
            for p in ("", "'")
        ]

    def bits(self, s, primed=False):
        p = "'" if primed else ""
        return [self.b.var(f"{s}_{k}{p}") for k in range(self.widths[s])]

    def xor(self, u, v):
        return self.b.apply("xor", u, v)

    def eq(self, s, v, primed=False):
        u = self.b.true
        for k, x in enumerate(self.bits(s, primed)):
            u &= x if (v >> k) & 1 else ~x
        return u

    def le(self, s, v, primed=False):
        """value(s) ≤ v (LSB first recursion)."""
        u = self.b.true
        for k, x in enumerate(self.bits(s, primed)):
            u = (~x | u) if (v >> k) & 1 else (~x & u)
        return u

    def same(self, s):
        u = self.b.true
        for x, y in zip(self.bits(s), self.bits(s, True)):
            u &= ~self.xor(x, y)
        return u

    def minus_const(self, s, d):
        """s' = s − d ∧ s ≥ d, by a ripple borrow (LSB first)."""
        b = self.b
        u, borrow = b.true, b.false
        for k, (x, y) in enumerate(zip(self.bits(s), self.bits(s, True))):
            dk = b.true if (d >> k) & 1 else b.false
            diff = self.xor(self.xor(x, dk), borrow)
            u &= ~self.xor(y, diff)
            borrow = (~x & (dk | borrow)) | (x & dk & borrow)
        return u & ~borrow

    def peak(self):
        return self.b.statistics()["peak_nodes"]


def _attractor(B: _Bits, parts_j, parts_n, tj, tn, has, target, stay):
    """μX. target ∪ (stay ∧ ((T_J ∧ ∃x'.δ_J ∧ X') ∪ (T_¬J ∧ ¬∃x'.δ_¬J ∧ ¬X')))."""
    cudd, b = B.cudd, B.b
    x, it = target, 0
    while True:
        xn = b.let(B.ren, x)
        ex = b.false
        for r in parts_j:
            ex |= cudd.and_exists(r, xn, B.qn)
        esc = b.false
        nxn = ~xn
        for r in parts_n:
            esc |= cudd.and_exists(r, nxn, B.qn)
        new = x | (stay & ((tj & ex) | (tn & ~esc)))
        if new == x:
            return x, it
        x, it = new, it + 1


# ---------------------------------------------------------------- families


def hand_ens(N, n, K, r, u0, J=(1,)):
    """F_J of ENS Nim(N, n, K, r): μX. (T_¬J ∧ stuck) ∪ (has ∧ pre_J(X)); layout j, k[n], …, k[1]."""
    t0 = time.perf_counter()
    wj, wk = max(1, (N - 1).bit_length()), max(1, K.bit_length())
    cols = [f"k{i}" for i in range(1, n + 1)]
    B = _Bits([("j", wj)] + [(c, wk) for c in cols])
    B.declare(B.slot_order(["j"] + cols[::-1]))
    b = B.b
    dom = B.le("j", N - 1)
    for c in cols:
        dom &= B.le(c, K)
    step = b.false
    for j in range(N):
        step |= B.eq("j", j) & B.eq("j", (j + 1) % N, True)
    sub = {}
    delta = b.false
    for d in ens_rules(n, r, u0):
        u = step
        for c, dc in zip(cols, d):
            if (c, dc) not in sub:
                sub[c, dc] = B.minus_const(c, dc)
            u &= sub[c, dc]
        delta |= u
    delta &= dom
    tj = b.false
    for p in J:
        tj |= B.eq("j", p - 1)
    tj &= dom
    tn = dom & ~tj
    has = b.exist(B.qn, delta)
    t1 = time.perf_counter()
    x, it = _attractor(B, [delta & tj], [delta & tn], tj, tn, has, tn & ~has, has)
    t2 = time.perf_counter()
    return {
        "count": int(x.count(nvars=len(B.cur))),
        "iterations": it,
        "t_build": t1 - t0,
        "t_fix": t2 - t1,
        "peak_nodes": B.peak(),
    }


def _two_player_heaps(n, K, moves_of_heap, sliced=True):
    """Two players, n heaps 0..K; ``moves_of_heap(B, c)`` the relation of one heap's moves
    (the other heaps kept); the mover's winning region (opponent to move and stuck, reached)."""
    t0 = time.perf_counter()
    wk = max(1, K.bit_length())
    cols = [f"k{i}" for i in range(1, n + 1)]
    B = _Bits([("j", 1)] + [(c, wk) for c in cols])
    B.declare(B.slot_order(["j"]) + (B.sliced_order(cols) if sliced else B.slot_order(cols)))
    b = B.b
    dom = b.true
    for c in cols:
        dom &= B.le(c, K)
    flip = B.xor(B.bits("j")[0], B.bits("j", True)[0])
    keep = {c: B.same(c) for c in cols}
    delta = b.false
    for c in cols:
        u = moves_of_heap(B, c) & flip
        for o in cols:
            if o != c:
                u &= keep[o]
        delta |= u
    delta &= dom
    has = b.exist(B.qn, delta)
    t1 = time.perf_counter()
    total, its = b.false, 0
    for p in (0, 1):  # wins(1) ∪ wins(2) restricted to the mover: mover_wins
        tj = B.eq("j", p) & dom
        tn = dom & ~tj
        x, it = _attractor(B, [delta & tj], [delta & tn], tj, tn, has, tn & ~has, dom)
        total |= x & tj
        its += it
    t2 = time.perf_counter()
    return {
        "count": int(total.count(nvars=len(B.cur))),
        "iterations": its,
        "t_build": t1 - t0,
        "t_fix": t2 - t1,
        "peak_nodes": B.peak(),
    }


def hand_nim(n, K):
    """Classic Nim, n heaps 0..K, take any t ≥ 1 from one heap: |mover_wins|."""

    def take_any(B, c):
        b = B.b
        # c' < c: compare MSB first
        lt, eq = b.false, b.true
        for x, y in zip(reversed(B.bits(c)), reversed(B.bits(c, True))):
            lt |= eq & ~y & x
            eq &= ~B.xor(x, y)
        return lt

    return _two_player_heaps(n, K, take_any)


def hand_subtraction(K):
    """One heap 0..K, take 1..3: |mover_wins| (one iteration per match)."""

    def take13(B, c):
        u = B.b.false
        for t in (1, 2, 3):
            u |= B.minus_const(c, t)
        return u

    return _two_player_heaps(1, K, take13, sliced=False)


# ---------------------------------------------------------------- omega


def _omega_count(ctx, u, names) -> int:
    """|u| over the bits of the integer variables ``names`` (omega counts over the support)."""
    bits = [b for v in names for b in ctx.vars[v]["bitnames"]]
    return int(ctx.bdd.count(u, nvars=len(bits)))


def _omega_domain(ctx, ranges: dict):
    return ctx.add_expr(
        " /\\ ".join(f"{lo} <= {v} /\\ {v} <= {hi}" for v, (lo, hi) in ranges.items())
    )


def omega_nim(n, K):
    """Classic Nim through omega's first-order context (integers as bit fields)."""
    from omega.symbolic import fol

    t0 = time.perf_counter()
    ctx = fol.Context()
    ctx.bdd.configure(reordering=False)
    cols = [f"k{i}" for i in range(1, n + 1)]
    ctx.declare(j=(0, 1), **{c: (0, K) for c in cols}, **{f"{c}p": (0, K) for c in cols}, jp=(0, 1))
    moves = []
    for c in cols:
        keep = " /\\ ".join(f"{o}p = {o}" for o in cols if o != c) or "TRUE"
        moves.append(f"({c}p < {c} /\\ {keep})")
    any_move = " \\/ ".join(moves)
    ranges = {"j": (0, 1), **{c: (0, K) for c in cols}}
    dom = _omega_domain(ctx, ranges)
    ren = {c: f"{c}p" for c in cols}
    ren["j"] = "jp"
    delta = ctx.add_expr(f"(jp = 1 - j) /\\ ({any_move})") & dom & ctx.let(ren, dom)
    qn = set(ren.values())
    has = ctx.exist(qn, delta)
    t1 = time.perf_counter()
    total, its = ctx.false, 0
    for p in (0, 1):
        tj = ctx.add_expr(f"j = {p}") & dom
        tn = ctx.add_expr(f"j = {1 - p}") & dom
        x = tn & ~has
        while True:
            xn = ctx.let(ren, x)
            ex = ctx.exist(qn, delta & xn)
            esc = ctx.exist(qn, delta & ~xn)
            new = x | (dom & ((tj & ex) | (tn & ~esc)))
            if new == x:
                break
            x, its = new, its + 1
        total |= x & tj
    t2 = time.perf_counter()
    return {
        "count": _omega_count(ctx, total, ranges),
        "iterations": its,
        "t_build": t1 - t0,
        "t_fix": t2 - t1,
        "peak_nodes": ctx.bdd.statistics()["peak_nodes"],
    }


def omega_ens(N, n, K, r, u0, J=(1,)):
    """F_J of ENS Nim(N, n, K, r) through omega's fol context."""
    from omega.symbolic import fol

    t0 = time.perf_counter()
    ctx = fol.Context()
    ctx.bdd.configure(reordering=False)
    cols = [f"k{i}" for i in range(1, n + 1)]
    ctx.declare(j=(1, N), jp=(1, N), **{c: (0, K) for c in cols}, **{f"{c}p": (0, K) for c in cols})
    rules = []
    for d in ens_rules(n, r, u0):
        rules.append(
            "(" + " /\\ ".join(f"{c} >= {dc} /\\ {c}p = {c} - {dc}" for c, dc in zip(cols, d)) + ")"
        )
    turn = " \\/ ".join(f"(j = {p} /\\ jp = {p % N + 1})" for p in range(1, N + 1))
    any_rule = " \\/ ".join(rules) or "FALSE"
    ranges = {"j": (1, N), **{c: (0, K) for c in cols}}
    dom = _omega_domain(ctx, ranges)
    ren = {c: f"{c}p" for c in cols}
    ren["j"] = "jp"
    delta = ctx.add_expr(f"({turn}) /\\ ({any_rule})") & dom & ctx.let(ren, dom)
    qn = set(ren.values())
    has = ctx.exist(qn, delta)
    tj = ctx.add_expr(" \\/ ".join(f"j = {p}" for p in J)) & dom
    tn = ~tj & dom
    t1 = time.perf_counter()
    x, its = tn & ~has, 0
    while True:
        xn = ctx.let(ren, x)
        ex = ctx.exist(qn, delta & tj & xn)
        esc = ctx.exist(qn, delta & tn & ~xn)
        new = x | (has & ((tj & ex) | (tn & ~esc)))
        if new == x:
            break
        x, its = new, its + 1
    t2 = time.perf_counter()
    return {
        "count": _omega_count(ctx, x, ranges),
        "iterations": its,
        "t_build": t1 - t0,
        "t_fix": t2 - t1,
        "peak_nodes": ctx.bdd.statistics()["peak_nodes"],
    }


# ---------------------------------------------------------------- Connect Four


def hand_connect4(w, h, a=4):
    """Connect Four on w × h (a in a row): positions reachable from the empty board and
    who wins with perfect play, layer by layer (one layer per number of discs).

    No next-state bits: a cell holds 0 (empty), 1 or 2 in two bits (``hi``, ``lo``):
    1 = lo, 2 = hi; cells column-major from the bottom, ``hi`` above ``lo``. Dropping
    player p's disc into cell i changes that cell only, so the image of a set F is
    ∃cell_i. (F ∧ can_i) ∧ [cell_i = p] and the pre-image of a set W is
    can_i ∧ W[cell_i := p] (a cofactor), where can_i = cell i empty and the cell below
    it full (reachable boards have no hole). Play stops at a win or a full board
    (``over``): F_{k+1} = ⋃_i image_i(F_k ∖ over). Backward, for player p:
    W_k = F_k ∧ (win_p ∨ (¬over ∧ (p moves: ⋁_i pre_i(W_{k+1});
    else: ¬⋁_i pre_i(F_{k+1} ∖ W_{k+1})))).
    """
    from dd import cudd

    t0 = time.perf_counter()
    b = cudd.BDD()
    b.configure(reordering=False)
    cells = [(col, r) for col in range(w) for r in range(h)]
    names = [f"c{col}_{r}_{x}" for col, r in cells for x in ("hi", "lo")]
    b.declare(*names)
    hi = {(col, r): b.var(f"c{col}_{r}_hi") for col, r in cells}
    lo = {(col, r): b.var(f"c{col}_{r}_lo") for col, r in cells}

    def is_(cell, p):
        return (
            (lo[cell] & ~hi[cell])
            if p == 1
            else (hi[cell] & ~lo[cell])
            if p == 2
            else (~lo[cell] & ~hi[cell])
        )

    lines = (
        [[(col + t, r) for t in range(a)] for col in range(w - a + 1) for r in range(h)]
        + [[(col, r + t) for t in range(a)] for col in range(w) for r in range(h - a + 1)]
        + [
            [(col + t, r + t) for t in range(a)]
            for col in range(w - a + 1)
            for r in range(h - a + 1)
        ]
        + [
            [(col + t, r - t) for t in range(a)]
            for col in range(w - a + 1)
            for r in range(a - 1, h)
        ]
    )
    win = {}
    for p in (1, 2):
        u = b.false
        for line in lines:
            v = b.true
            for cell in line:
                v &= is_(cell, p)
            u |= v
        win[p] = u
    full = b.true
    for col in range(w):
        full &= ~is_((col, h - 1), 0)
    over = win[1] | win[2] | full
    can = {
        (col, r): is_((col, r), 0) & (b.true if r == 0 else ~is_((col, r - 1), 0))
        for col, r in cells
    }
    bits = {cell: [f"c{cell[0]}_{cell[1]}_hi", f"c{cell[0]}_{cell[1]}_lo"] for cell in cells}
    value = {
        (cell, p): {bits[cell][0]: p == 2, bits[cell][1]: p == 1} for cell in cells for p in (1, 2)
    }
    empty = b.true
    for cell in cells:
        empty &= is_(cell, 0)
    t1 = time.perf_counter()
    layers = [empty]
    while True:  # forward, one layer per disc
        k = len(layers) - 1
        p = 1 if k % 2 == 0 else 2
        src = layers[-1] & ~over
        nxt = b.false
        for cell in cells:
            nxt |= b.exist(bits[cell], src & can[cell]) & is_(cell, p)
        if nxt == b.false:
            break
        layers.append(nxt)
    count = sum(int(f.count(nvars=len(names))) for f in layers)
    winner = "draw"
    for q in (1, 2):  # backward, one pass per layer
        won = b.false
        for k in reversed(range(len(layers))):
            p = 1 if k % 2 == 0 else 2
            target = won if p == q else (layers[k + 1] & ~won if k + 1 < len(layers) else b.false)
            pre = b.false
            for cell in cells:
                pre |= can[cell] & b.let(value[cell, p], target)
            step = pre if p == q else ~pre
            won = layers[k] & (win[q] | (~over & step))
        if won != b.false:  # layer 0 is the empty board alone
            winner = str(q)
    t2 = time.perf_counter()
    return {
        "count": count,
        "winner": winner,
        "iterations": 2 * len(layers),
        "t_build": t1 - t0,
        "t_fix": t2 - t1,
        "peak_nodes": b.statistics()["peak_nodes"],
    }


def connect4_lines(w, h, a=4):
    """The lines of ``a`` cells of a w × h board (rows, columns, both diagonals), as
    lists of (column, row) cells."""
    return (
        [[(col + t, r) for t in range(a)] for col in range(w - a + 1) for r in range(h)]
        + [[(col, r + t) for t in range(a)] for col in range(w) for r in range(h - a + 1)]
        + [
            [(col + t, r + t) for t in range(a)]
            for col in range(w - a + 1)
            for r in range(h - a + 1)
        ]
        + [
            [(col + t, r - t) for t in range(a)]
            for col in range(w - a + 1)
            for r in range(a - 1, h)
        ]
    )


def connect4_wins(m, lines, disc):
    """{p: ⋁_lines ⋀_cells disc(cell, p)} on the oxidd manager ``m``."""
    win = {}
    for p in (1, 2):
        u = m.false()
        for line in lines:
            v = m.true()
            for c in line:
                v &= disc(c, p)
            u |= v
        win[p] = u
    return win


def connect4_table(layers, sizes, win, pre, count, F, *, solve=True, log=None):
    """The ply-by-ply rows [k, win, draw, loss] of the forward ``layers`` (player 1
    moves on even layers): for each player q, from the last layer down,
    W_k = F_k ∧ ((win_q ∧ dead) ∨ (¬dead ∧ step)), dead = win of the previous mover,
    step = pre(p, W_{k+1}) when q moves, else ¬pre(p, F_{k+1} ∖ W_{k+1});
    ``pre(n, p, target)`` the positions of layer n where p has a move into target.
    The layers may sit on alternating bit sets (bench/peers_compact.py): layer n on set
    n mod len(win), ``win[s][p]`` p's lines on set s (one set: ``win = [{1: .., 2: ..}]``)."""
    t2 = time.perf_counter()
    rows = [[n, 0, 0, 0] for n in range(len(layers))]
    if not solve:
        return rows
    for q in (1, 2):
        won = F
        for n in reversed(range(len(layers))):
            p, wn = 1 if n % 2 == 0 else 2, win[n % len(win)]
            if n + 1 < len(layers):
                target = won if p == q else layers[n + 1] & ~won
                step = pre(n, p, target) if p == q else ~pre(n, p, target)
            else:
                step = F  # full boards: no move, a draw unless a line
            dead = F if n == 0 else wn[3 - p]
            won = layers[n] & ((wn[q] & dead) | (~dead & step))
            rows[n][1 if p == q else 3] += count(won)
        if log:
            log(f"player {q} solved, {time.perf_counter() - t2:.1f} s")
    for row, size in zip(rows, sizes):
        row[2] = size - row[1] - row[3]
    return rows


def plain_connect4(w, h, a=4, *, threads=1, cache_log2=22, nodes_log2=28, solve=True, log=None):
    """Connect Four on w × h (a in a row) written directly on oxidd, the best encoding
    found (bench/README.md, levers): the positions reachable from the empty board, one
    BDD per layer, and (``solve``) the player to move's win / draw / loss counts per
    layer. Returns the layer rows and timings.

    Encoding (Edelkamp & Kissmann): two bits per cell, ``o`` (occupied) and ``k``
    (colour: player 2's disc), empty cells with k = 0; cells column by column from the
    bottom, ``o`` before ``k``. No next-state bits: dropping p's disc into cell i
    changes that cell only, so image_i(F) = (∃o_i k_i. F ∧ can_i) ∧ o_i ∧ [k_i = p] and
    pre_i(W) = can_i ∧ ∃o_i k_i. (W ∧ o_i ∧ [k_i = p]), with can_i = ¬o_i ∧ o_below.
    Terminal positions are removed per layer: a layer k ≥ 1 holds only boards where the
    previous mover may have a line (reachable boards), so F_{k+1} = ⋃_i image_i(F_k ∖
    win_prev) and a full board has no move. Backward, for each player q:
    W_k = F_k ∧ (win_q ∨ (¬win_prev ∧ (q moves: ⋁_i pre_i(W_{k+1});
    else: ¬⋁_i pre_i(F_{k+1} ∖ W_{k+1})))).
    """
    import resource
    import oxidd.bcdd as ob  # complement edges, as the project's backend
    from oxidd.util import BooleanOperator

    AND = BooleanOperator.AND
    t0 = time.perf_counter()
    m = ob.BCDDManager(1 << nodes_log2, 1 << cache_log2, threads)
    cells = [(col, r) for col in range(w) for r in range(h)]
    m.add_vars(2 * len(cells))
    idx = {cell: 2 * i for i, cell in enumerate(cells)}
    o = {c: m.var(idx[c]) for c in cells}
    k = {c: m.var(idx[c] + 1) for c in cells}
    T, F = m.true(), m.false()

    def disc(c, p):
        return o[c] & (k[c] if p == 2 else ~k[c])

    win = connect4_wins(m, connect4_lines(w, h, a), disc)
    can = {(col, r): ~o[col, r] & ~k[col, r] & (T if r == 0 else o[col, r - 1]) for col, r in cells}
    cube = {c: o[c] & k[c] for c in cells}
    empty = T
    for c in cells:
        empty &= ~o[c] & ~k[c]

    def mover(layer):
        return 1 if layer % 2 == 0 else 2

    def alive(layer, f):
        return f if layer == 0 else f & ~win[3 - mover(layer)]

    t1 = time.perf_counter()
    layers = [empty]
    while True:
        n = len(layers) - 1
        p = mover(n)
        src = alive(n, layers[-1])
        nxt = F
        for c in cells:
            nxt |= src.apply_exists(AND, can[c], cube[c]) & disc(c, p)
        if not nxt.satisfiable():
            break
        layers.append(nxt)
        if log:
            log(f"layer {n + 1}: {nxt.node_count()} nodes, {time.perf_counter() - t1:.1f} s")
    nvars = 2 * len(cells)
    sizes = [int(f.sat_count(nvars)) for f in layers]
    t2 = time.perf_counter()

    def pre(p, target):
        out = F
        for c in cells:
            out |= can[c] & target.apply_exists(AND, disc(c, p), cube[c])
        return out

    rows = connect4_table(
        layers,
        sizes,
        [win],
        lambda n, p, target: pre(p, target),
        lambda f: int(f.sat_count(nvars)),
        F,
        solve=solve,
        log=log,
    )
    t3 = time.perf_counter()
    return {
        "count": sum(sizes),
        "layers": [tuple(r) for r in rows],
        "winner": ("1" if rows[0][1] else "draw" if rows[0][2] else "2"),
        "iterations": 2 * len(layers),
        "t_build": t1 - t0,
        "t_reach": t2 - t1,
        "t_fix": t3 - t1,
        "peak_nodes": m.num_inner_nodes(),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def relational_connect4(
    w, h, a=4, *, threads=1, cache_log2=22, nodes_log2=28, solve=True, log=None
):
    """The same table as :func:`plain_connect4` (same encoding, same per-layer terminal
    test, one BDD per layer), but the moves as one transition relation per player over
    current and next bits, as the project's engine does: each cell's bits o, o', k, k'
    side by side; δ_p = ⋁_i can_i ∧ o_i' ∧ [k_i' = p] ∧ frame_{≠i}; image
    (∃x. F ∧ δ_p)[x' := x], pre-image ∃x'. δ_p ∧ W[x := x']. One relational product per
    layer and step instead of one cofactor per cell (bench/README.md, levers: 1.5×
    faster on 5 × 4)."""
    import resource
    import oxidd.bcdd as ob  # complement edges, as the project's backend
    from oxidd.util import BooleanOperator

    AND = BooleanOperator.AND
    t0 = time.perf_counter()
    m = ob.BCDDManager(1 << nodes_log2, 1 << cache_log2, threads)
    cells = [(col, r) for col in range(w) for r in range(h)]
    m.add_vars(4 * len(cells))
    base = {c: 4 * i for i, c in enumerate(cells)}
    o = {c: m.var(base[c]) for c in cells}
    o2 = {c: m.var(base[c] + 1) for c in cells}
    k = {c: m.var(base[c] + 2) for c in cells}
    k2 = {c: m.var(base[c] + 3) for c in cells}
    T, F = m.true(), m.false()

    def conj(fs):
        u = T
        for f in fs:
            u &= f
        return u

    cur, nxt = (
        conj(list(o.values()) + list(k.values())),
        conj(list(o2.values()) + list(k2.values())),
    )
    to_cur = ob.BCDDFunction.make_substitution(
        [(base[c] + 1, o[c]) for c in cells] + [(base[c] + 3, k[c]) for c in cells]
    )
    to_nxt = ob.BCDDFunction.make_substitution(
        [(base[c], o2[c]) for c in cells] + [(base[c] + 2, k2[c]) for c in cells]
    )

    def disc(c, p):
        return o[c] & (k[c] if p == 2 else ~k[c])

    win = connect4_wins(m, connect4_lines(w, h, a), disc)
    same = {c: o2[c].equiv(o[c]) & k2[c].equiv(k[c]) for c in cells}
    delta = {}
    for p in (1, 2):
        u = F
        for c in cells:
            col, r = c
            can = ~o[c] & ~k[c] & (T if r == 0 else o[col, r - 1])
            eff = o2[c] & (k2[c] if p == 2 else ~k2[c])
            u |= can & eff & conj(same[d] for d in cells if d != c)
        delta[p] = u
    empty = conj(~o[c] & ~k[c] for c in cells)

    def mover(n):
        return 1 if n % 2 == 0 else 2

    t1 = time.perf_counter()
    layers = [empty]
    while True:
        n = len(layers) - 1
        p = mover(n)
        src = layers[-1] if n == 0 else layers[-1] & ~win[3 - p]
        img = src.apply_exists(AND, delta[p], cur).substitute(to_cur)
        if not img.satisfiable():
            break
        layers.append(img)
        if log:
            log(f"layer {n + 1}: {img.node_count()} nodes, {time.perf_counter() - t1:.1f} s")
    nvars = 2 * len(cells)

    def count(f):  # 4 variables per cell, the next ones free
        return int(f.sat_count(4 * len(cells))) >> nvars

    sizes = [count(f) for f in layers]
    t2 = time.perf_counter()
    rows = connect4_table(
        layers,
        sizes,
        [win],
        lambda n, p, target: delta[p].apply_exists(AND, target.substitute(to_nxt), nxt),
        count,
        F,
        solve=solve,
        log=log,
    )
    t3 = time.perf_counter()
    return {
        "count": sum(sizes),
        "layers": [tuple(r) for r in rows],
        "winner": ("1" if rows[0][1] else "draw" if rows[0][2] else "2"),
        "iterations": 2 * len(layers),
        "t_build": t1 - t0,
        "t_reach": t2 - t1,
        "t_fix": t3 - t1,
        "peak_nodes": m.num_inner_nodes(),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
