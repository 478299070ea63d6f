"""Splitting a layer into parts: its cofactors on the top K current bits of the BDD order.

A set F of positions is the disjoint union of its parts F ∧ [b_1..b_K = s] over the 2^K
assignments s of the K current bits nearest the root (:func:`top_bits`); each part is
a BDD below those bits, smaller than F (bench/README.md, "Going past one machine",
measures how much). A part is named by its key s, a tuple of K booleans; the parts a
move from part s can reach are found by :func:`keys_of` on the image of the part.

>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> e = make_engine(load_model("models/tictactoe.game").game, "symbolic", "cudd")
>>> parts = split_set(e, e.positions(), top_bits(e, 2))
>>> len(parts), sum(p.count() for _, p in parts) == e.positions().count()
(3, True)
"""

from __future__ import annotations

import itertools
import math

from ..bdd.sets import BddSet

__all__ = ["MAX_SPLIT", "PART_NODES", "top_bits", "split_set", "keys_of", "default_split"]

#: the most top bits a layer is split on (2^8 = 256 parts)
MAX_SPLIT = 8

#: below about this many nodes per part, a part is not worth a round trip to a worker
#: (the default split, :func:`default_split`)
PART_NODES = 2000


def top_bits(engine, k: int) -> tuple[str, ...]:
    """The ``k`` current bits of ``engine`` nearest the root of the BDD order.

    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> e = make_engine(load_model("nim").game, "symbolic", "cudd")
    >>> len(top_bits(e, 3))
    3
    """
    m = engine.manager
    bits = sorted(engine.encoder.current_bits, key=m.level)
    return tuple(bits[: max(0, min(k, len(bits)))])


def split_set(engine, s: BddSet, bits: tuple[str, ...]) -> list[tuple[tuple[bool, ...], BddSet]]:
    """The non-empty parts ``(key, s ∧ [bits = key])`` of ``s``, keys in order."""
    m = engine.manager
    out = []
    for key in itertools.product((False, True), repeat=len(bits)):
        node = m.and_(s.node, m.cube(dict(zip(bits, key)))) if bits else s.node
        if not m.is_false(node):
            out.append((key, BddSet._make(engine, node)))
    return out


def keys_of(engine, s: BddSet, bits: tuple[str, ...]) -> set[tuple[bool, ...]]:
    """The keys over ``bits`` of the non-empty parts of ``s``: the assignments of its
    projection ∃(other bits). s (a BDD over ``bits`` alone, at most 2^K paths)."""
    m = engine.manager
    others = [b for b in engine.encoder.current_bits if b not in set(bits)]
    proj = m.exist(s.node, others)
    return {tuple(a.get(b, False) for b in bits) for a in _all(m, proj, bits)}


def _all(m, node, bits):
    """Every assignment of ``bits`` that satisfies ``node`` (a BDD over them)."""
    if m.is_false(node):
        return []
    return list(m.assignments(node, bits))


def default_split(nodes: int, workers: int) -> int:
    """The top bits to split a layer of ``nodes`` BDD nodes on, for ``workers``
    workers: none below :data:`PART_NODES` nodes (one part), else enough for parts of
    about that size and at least two per worker, at most :data:`MAX_SPLIT`.

    >>> default_split(500, 2), default_split(5000, 2), default_split(10**6, 4)
    (0, 2, 8)
    """
    if nodes < PART_NODES:
        return 0
    by_size = math.ceil(math.log2(nodes / PART_NODES))
    by_workers = math.ceil(math.log2(2 * max(1, workers)))
    return min(MAX_SPLIT, max(by_size, by_workers))
