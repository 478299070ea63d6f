"""Exact integer arithmetic on bit-vectors of BDDs (the symbolic engine's int terms).

An integer term is a :class:`BV`: two's-complement bits (least significant
first, each a BDD node of an explicit :class:`~symbolic.bdd.contract.Manager`)
together with an interval [lo, hi] that contains every value the term takes
inside the domain. Each operation computes its result interval first and
works modulo 2^W with W the smallest two's-complement width holding that
interval, so the modular result *is* the exact integer result: no
wrap-around can let an out-of-range value satisfy a constraint.

Every function takes the BDD manager explicitly, first (never a global one).

>>> from symbolic.bdd.managers import make_manager
>>> m = make_manager("autoref")
>>> m.declare(["x0", "x1"])
>>> x = BV((m.var("x0"), m.var("x1"), m.false), 0, 3)      # an unsigned 2-bit x
>>> y = sub(m, mul(m, x, x), const(m, 4))                  # x·x − 4 ∈ [−4, 5]
>>> y.lo, y.hi, len(y.bits)
(-4, 5, 4)
>>> m.is_true(m.iff(lt(m, y, const(m, 0)), lt(m, x, const(m, 2))))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .contract import Manager, Node

__all__ = [
    "signed_width",
    "BV",
    "const",
    "bool_to_int",
    "extend",
    "make",
    "add_bits",
    "add",
    "neg",
    "sub",
    "mul",
    "divmod_const",
    "mux",
    "ult",
    "ule_const",
    "lt",
    "eq",
]


def signed_width(lo: int, hi: int) -> int:
    """The least W ≥ 1 with −2^(W−1) ≤ lo and hi ≤ 2^(W−1) − 1.

    >>> [signed_width(lo, hi) for lo, hi in [(0, 0), (0, 1), (-1, 0), (-3, 5), (0, 14)]]
    [1, 2, 1, 4, 5]
    """

    def one(v: int) -> int:
        """Bits of v alone: magnitude bits plus the sign bit."""
        return (v if v >= 0 else ~v).bit_length() + 1

    return max(one(lo), one(hi))


@dataclass(frozen=True, slots=True)
class BV:
    """An integer term: ``bits`` (two's complement, LSB first) and a sound interval [lo, hi].

    ``lo == hi`` means the term is the constant ``lo`` (inside the domain).
    """

    bits: tuple
    lo: int
    hi: int

    @property
    def is_const(self) -> bool:
        """True when the term has a single value (inside the domain)."""
        return self.lo == self.hi


# --------------------------------------------------------------------------- arithmetic


def const(m: Manager, v: int) -> BV:
    """The constant ``v`` as a bit-vector of its minimal width."""
    W = signed_width(v, v)
    return BV(tuple(m.true if (v >> k) & 1 else m.false for k in range(W)), v, v)


def bool_to_int(m: Manager, b) -> BV:
    """1 if b else 0."""
    if m.is_true(b):
        return const(m, 1)
    if m.is_false(b):
        return const(m, 0)
    return BV((b, m.false), 0, 1)


def extend(bits: tuple, W: int) -> tuple:
    """``bits`` as W bits: truncated (exact modulo 2^W) or sign-extended."""
    n = len(bits)
    if n >= W:
        return bits[:W]
    return bits + (bits[-1],) * (W - n)


def make(m: Manager, bits: tuple, lo: int, hi: int) -> BV:
    """A bit-vector with interval [lo, hi], trimmed to the interval's width."""
    if lo > hi:
        raise AssertionError((lo, hi))
    if lo == hi:
        return const(m, lo)
    return BV(extend(bits, signed_width(lo, hi)), lo, hi)


def add_bits(m: Manager, a: tuple, b: tuple, W: int, carry=None) -> tuple:
    """a + b (+ carry) modulo 2^W by a ripple-carry adder (a, b already W bits)."""
    c = m.false if carry is None else carry
    out = []
    for k in range(W):
        x, y = a[k], b[k]
        xy = m.xor(x, y)
        out.append(m.xor(xy, c))
        if k + 1 < W:
            c = m.ite(xy, c, x)  # majority(x, y, c): x = y decides, else c
    return tuple(out)


def add(m: Manager, a: BV, b: BV) -> BV:
    """a + b, exact."""
    if a.is_const and b.is_const:
        return const(m, a.lo + b.lo)
    lo, hi = a.lo + b.lo, a.hi + b.hi
    W = signed_width(lo, hi)
    return make(m, add_bits(m, extend(a.bits, W), extend(b.bits, W), W), lo, hi)


def neg(m: Manager, a: BV) -> BV:
    """−a, exact."""
    return sub(m, const(m, 0), a)


def sub(m: Manager, a: BV, b: BV) -> BV:
    """a − b = a + ¬b + 1, exact."""
    if a.is_const and b.is_const:
        return const(m, a.lo - b.lo)
    lo, hi = a.lo - b.hi, a.hi - b.lo
    W = signed_width(lo, hi)
    nb = tuple(m.not_(x) for x in extend(b.bits, W))
    return make(m, add_bits(m, extend(a.bits, W), nb, W, m.true), lo, hi)


def mul(m: Manager, a: BV, b: BV) -> BV:
    """a · b, exact: shift-and-add modulo 2^W of the sign-extended operands
    (a·b ≡ a·(b mod 2^W) mod 2^W), W the width of the product's interval."""
    if a.is_const and b.is_const:
        return const(m, a.lo * b.lo)
    ends = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
    lo, hi = min(ends), max(ends)
    if lo == hi:
        return const(m, lo)
    if len(b.bits) > len(a.bits):
        a, b = b, a  # fewer multiplier bits, fewer additions
    W = signed_width(lo, hi)
    A, B = extend(a.bits, W), extend(b.bits, W)
    acc = None
    for i in range(W):
        bi = B[i]
        if m.is_false(bi):
            continue
        if m.is_true(bi):
            part = (m.false,) * i + A[: W - i]
        else:
            part = (m.false,) * i + tuple(m.and_(bi, x) for x in A[: W - i])
        acc = part if acc is None else add_bits(m, acc, part, W)
    if acc is None:
        return const(m, 0)
    return make(m, acc, lo, hi)


def divmod_const(m: Manager, a: BV, c: int) -> tuple[BV, BV]:
    """(a // c, a % c) with Python's floor semantics, for a constant c > 0.

    Powers of two are an arithmetic shift and the low bits; otherwise a is
    first made non-negative (a + t·c, t = ⌈−lo/c⌉) and divided by a restoring
    division circuit, then t is subtracted from the quotient.
    """
    if c <= 0:
        raise AssertionError(c)
    if a.is_const:
        return const(m, a.lo // c), const(m, a.lo % c)
    if c == 1:
        return a, const(m, 0)
    qlo, qhi = a.lo // c, a.hi // c
    rlo, rhi = (a.lo % c, a.hi % c) if qlo == qhi else (0, c - 1)
    if c & (c - 1) == 0:
        k = c.bit_length() - 1
        bits = a.bits
        q = bits[k:] if k < len(bits) else (bits[-1],)
        r = extend(bits, k) + (m.false,)
        return make(m, q, qlo, qhi), make(m, r, rlo, rhi)
    t = 0
    x = a
    if a.lo < 0:
        t = (-a.lo + c - 1) // c
        x = add(m, a, const(m, t * c))
    n = x.hi.bit_length()
    xb = extend(x.bits, n + 1)[:n]  # the value bits; the sign bit is 0 here
    mc = c.bit_length()
    cb = tuple(m.true if (c >> j) & 1 else m.false for j in range(mc + 1))
    r = (m.false,) * mc
    quotient = [m.false] * n
    for i in reversed(range(n)):
        cur = (xb[i],) + r  # 2r + x_i < 2c: mc + 1 bits
        ge = m.not_(ult(m, cur, cb))
        d = add_bits(m, cur, tuple(m.not_(y) for y in cb), mc + 1, m.true)
        r = tuple(m.ite(ge, d[j], cur[j]) for j in range(mc))  # < c: mc bits
        quotient[i] = ge
    qv = make(m, tuple(quotient) + (m.false,), x.lo // c, x.hi // c)
    if t:
        qv = sub(m, qv, const(m, t))
    return qv, make(m, r + (m.false,), rlo, rhi)


def mux(m: Manager, c, a: BV, b: BV) -> BV:
    """if c then a else b, for bit-vectors."""
    lo, hi = min(a.lo, b.lo), max(a.hi, b.hi)
    W = max(len(a.bits), len(b.bits))
    A, B = extend(a.bits, W), extend(b.bits, W)
    return make(m, tuple(m.ite(c, x, y) for x, y in zip(A, B)), lo, hi)


# --------------------------------------------------------------------------- comparisons


def ult(m: Manager, a: Sequence[Node], b: Sequence[Node]) -> Node:
    """a < b as unsigned numbers of the same width: from the LSB up, the
    highest differing bit decides (lt_k = if a_k ≠ b_k then b_k else lt_{k−1})."""
    lt = m.false
    for x, y in zip(a, b):
        lt = m.ite(m.xor(x, y), y, lt)
    return lt


def ule_const(m: Manager, bits: tuple, c: int):
    """bits ≤ c for unsigned ``bits`` and a constant c ≥ 0."""
    if c >= (1 << len(bits)) - 1:
        return m.true
    cb = tuple(m.true if (c >> j) & 1 else m.false for j in range(len(bits)))
    return m.not_(ult(m, cb, bits))


def lt(m: Manager, a: BV, b: BV):
    """a < b (signed): unsigned comparison with the sign bits flipped."""
    if a.hi < b.lo:
        return m.true
    if a.lo >= b.hi:
        return m.false
    W = max(len(a.bits), len(b.bits))
    A, B = list(extend(a.bits, W)), list(extend(b.bits, W))
    A[-1], B[-1] = m.not_(A[-1]), m.not_(B[-1])
    return ult(m, A, B)


def eq(m: Manager, a: BV, b: BV):
    """a = b: bitwise equality at a common width (disjoint intervals: false)."""
    if a.hi < b.lo or b.hi < a.lo:
        return m.false
    if a.is_const and b.is_const:
        return m.true  # overlapping constant intervals: same value
    W = max(len(a.bits), len(b.bits))
    if b.is_const:
        a, b = b, a
    A, B = extend(a.bits, W), extend(b.bits, W)
    if a.is_const and all(m.is_true(x) or m.is_false(x) for x in A):  # literals, no ↔
        return m.conj(y if m.is_true(x) else m.not_(y) for x, y in zip(A, B))
    return m.conj(m.iff(x, y) for x, y in zip(A, B))
