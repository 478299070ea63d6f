"""The transition-relation parts of the symbolic engines: δ in named parts
(:class:`DeltaParts`), the relational products taken over them (:class:`Products`),
and the key of a coalition's pre-images (:class:`Coalition`).

Notation as in :mod:`symbolic.bdd.engine`: x the current bits, x' the next bits,
δ(x, x') = ⋁_i S_i(x) ∧ R_i(x, x'), each part R_i with an optional source factor
S_i (``true`` when none), a conjunct that mentions no next bit and is kept out of the
relational products.

>>> from symbolic.bdd.managers import make_manager
>>> m = make_manager("autoref")
>>> m.declare(["x", "x'"])
>>> d = DeltaParts(m, [("flip", m.iff(m.var("x'"), m.not_(m.var("x"))))], {}, {"x'"})
>>> m.is_true(d.has_successor()), len(d.grouped())
(True, 1)
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

__all__ = ["Coalition", "DeltaParts", "Products"]

# A relational product is one backend call, which holds the GIL: neither Ctrl-C nor the
# alarm of --timeout acts before it returns. Once the product of a part of δ has taken
# longer than this, that part is split by the first slot its moves change
# (:meth:`Products.split`), and later products run piece by piece: on Nim
# (cudd) a piece by changed heap takes a fraction of the whole product. Measured in CPU
# seconds (wall time triggered it on any loaded machine), and into at most _PIECES
# pieces: each piece's product reads all of τ', so many pieces cost more than one
# product (Connect Four's backward pass, one piece per cell; figures in bench/journal,
# issue 33).
_SPLIT_AFTER = 1.0
_PIECES = 4


class Coalition(NamedTuple):
    """What every pre-image of a coalition J reads, built once per J by an engine's
    ``_coalition``: ``turn`` = T_J (the positions where J moves), ``others`` = D ∧ ¬T_J,
    and the moves of J (``ours``) and of the others (``theirs``) in the engine's own
    form (:meth:`DeltaParts.restricted` groups for the relational engine, the moves'
    substitutions for the composing GDL one)."""

    turn: Any
    others: Any
    ours: list
    theirs: list


class DeltaParts:
    """δ in parts: ``parts`` [(name, R)], ``sources`` {name: S} (a part without one has
    S = true), over the next bits ``next_set``. The parts are fixed once made: the
    conjunctions and the groupings below are computed on first use and kept."""

    __slots__ = (
        "manager",
        "parts",
        "sources",
        "next_set",
        "_full",
        "_whole",
        "_grouped",
        "_has_succ",
    )

    def __init__(self, manager, parts: list, sources: dict, next_set):
        self.manager = manager
        self.parts = parts
        self.sources = sources
        self.next_set = next_set
        self._full: list | None = None
        self._whole = None
        self._grouped: list | None = None
        self._has_succ = None

    def full(self) -> list[tuple[str, Any]]:
        """[(name, S ∧ R)]: the parts whose disjunction is δ."""
        if self._full is None:
            m = self.manager
            self._full = [
                (name, r if name not in self.sources else m.and_(self.sources[name], r))
                for name, r in self.parts
            ]
        return self._full

    def whole(self):
        """δ(x, x') as one BDD."""
        if self._whole is None:
            self._whole = self.manager.disj(r for _, r in self.full())
        return self._whole

    def grouped(self) -> list[tuple[Any, list]]:
        """[(S, [R, …])]: the parts grouped by their source factor S (``true`` when
        none), so that δ = ⋁ S ∧ ⋁ R."""
        if self._grouped is None:
            groups: dict = {}
            true = self.manager.true
            for name, r in self.parts:
                groups.setdefault(self.sources.get(name, true), []).append(r)
            self._grouped = list(groups.items())
        return self._grouped

    def restricted(self, t) -> list[tuple[Any, list]]:
        """:meth:`grouped` with each R ∧ t, the empty ones dropped (δ cut to the
        sources t, e.g. to a mover's turn: each relational product is then smaller)."""
        m = self.manager
        out = []
        for s, rs in self.grouped():
            rs = [u for u in (m.and_(r, t) for r in rs) if not m.is_false(u)]
            if rs:
                out.append((s, rs))
        return out

    def has_successor(self):
        """∃x'. δ = ⋁_(S, Rs) S ∧ ∃x'. ⋁ Rs: the positions with a successor."""
        if self._has_succ is None:
            m = self.manager
            self._has_succ = m.disj(
                m.and_(s, m.exist(m.disj(rs), self.next_set)) for s, rs in self.grouped()
            )
        return self._has_succ


class Products:
    """The relational products ∃x'. (r ∧ τ') and ∀x'. (r → τ') of an engine's manager
    over its next bits, each part r split into pieces once a product on it proved slow
    (:data:`_SPLIT_AFTER`), so that Ctrl-C and the time limit act between pieces.
    ``pieces`` maps each part split to its pieces."""

    __slots__ = ("manager", "encoder", "slots", "pieces")

    def __init__(self, manager, encoder, slots: int):
        self.manager = manager
        self.encoder = encoder
        self.slots = slots
        self.pieces: dict = {}

    def exists(self, r, target_next):
        """∃x'. (r ∧ τ'): one backend call, or one per piece of ``r``."""
        m = self.manager
        return self._by_pieces(r, target_next, m.and_exists, m.disj)

    def forall(self, r, target_next):
        """∀x'. (r → τ'), piece by piece once r was split."""
        m = self.manager
        return self._by_pieces(r, target_next, m.implies_forall, m.conj)

    def _by_pieces(self, r, target_next, product, combine):
        """product(r, τ', x') whole, or combined over the pieces of r once a call on r
        proved slow; oxidd's products are interrupted where they run (a worker
        thread), so they are never split."""
        m, q = self.manager, self.encoder.next_set
        pieces = self.pieces.get(r)
        if pieces is not None:
            return combine(product(p, target_next, q) for p in pieces)
        t0 = time.process_time()
        u = product(r, target_next, q)
        if time.process_time() - t0 > _SPLIT_AFTER and not m.interruptible_products:
            self.pieces[r] = self.split(r)
        return u

    def split(self, r) -> list:
        """Pieces of the relation r whose disjunction is r, disjoint, one per slot s that
        some move of r changes first: r ∧ x'_s ≠ x_s ∧ ⋀_{t before s} x'_t = x_t, slots
        changed by every move of r (a turn variable) skipped; and r ∧ ⋀_s x'_s = x_s;
        then consecutive pieces merged into at most :data:`_PIECES`."""
        m, enc = self.manager, self.encoder
        pieces, rest = [], r
        for i in range(self.slots):
            kept = m.and_(rest, enc.frame([i]))
            if m.is_false(kept) or kept == rest:  # every move changes it, or none does
                continue
            pieces.append(m.diff(rest, kept))
            rest = kept
        if not m.is_false(rest):
            pieces.append(rest)
        size = -(-len(pieces) // _PIECES)  # consecutive pieces merged: at most _PIECES
        return [m.disj(pieces[i : i + size]) for i in range(0, len(pieces), size)]
