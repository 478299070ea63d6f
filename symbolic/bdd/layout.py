"""The position bits of a space and their order in the BDD manager.

Positions: each slot s of the space with range lo..hi gets
w(s) = max(1, ⌈log2(hi − lo + 1)⌉) bits holding the unsigned number v − lo,
once for the current position (``x.k``) and once for the next one (``x.k'``).

Bit order (it decides speed, see ``notes-dd.md``), most significant bit first
and every current bit immediately followed by its next bit:

- ``"sliced"``: for each weight 2^k from the top, for each slot in declaration
  order, x.k then x.k'. Best for relations between slots of the same weight
  (sums, xor, subtraction games). But the domain (each slot ≤ its range) needs
  one bit of memory per slot whose range is not a power of two, across the
  slices: about 2^k nodes for k such slots.
- ``"slots"``: slot after slot, each MSB first. The domain is linear.
- ``"sliced-reversed"``, ``"slots-reversed"``: the same with each array's
  elements from the last index to the first (on ENS Nim, slots-reversed ran
  several times faster than slots: bench/journal/2026-11-26-issue-33-code-comments.md).
- ``"auto"`` (default): ``"sliced"`` unless more than :data:`AUTO_SLICED_MAX`
  slots have a range that is not a power of two; a game engine on CUDD then
  measures candidate layouts and may move its variables
  (:meth:`symbolic.bdd.probe.LayoutProbe._choose_layout`). Neither order wins
  everywhere: sliced is far faster on subtraction games over many heaps, slots on
  ENS Nim, whose δ is much smaller in slots (figures in bench/journal, issue 33).

:class:`BitLayout` declares the bits, encodes and decodes positions, and gives the
domain and frame BDDs; :class:`symbolic.bdd.encode.Encoder` adds the compilation of
expressions on top of it.

>>> from symbolic.ir import IntType, VarDecl
>>> from symbolic.bdd.managers import make_manager
>>> b = BitLayout(Space((VarDecl("x", IntType(0, 5)),)), make_manager("autoref"), "slots")
>>> b.order, b.decode({"x.2": True, "x.1": False, "x.0": True})
(('x.2', "x.2'", 'x.1', "x.1'", 'x.0', "x.0'"), (5,))
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..errors import QueryError
from ..ir import Space
from . import bitvec as bv
from .contract import Manager

__all__ = [
    "ORDERS",
    "CONCRETE_ORDERS",
    "AUTO_SLICED_MAX",
    "choose_order",
    "slot_sequence",
    "BitLayout",
]

ORDERS = ("auto", "sliced", "slots", "sliced-reversed", "slots-reversed")
CONCRETE_ORDERS = ORDERS[1:]
# Above this many slots with a non-power-of-two range, "auto" picks the slot
# order: each such slot costs the sliced order one bit of memory per slice (the
# domain and every relation with borrows grow as 2^k), and the measurements
# above show sliced winning only when ranges are (almost all) full.
AUTO_SLICED_MAX = 2


def choose_order(space: Space, order: str = "auto") -> str:
    """The concrete bit order for ``order`` on ``space``, without a game to probe:
    ``"auto"`` gives ``"sliced"`` or ``"slots"`` by the ragged-range rule (the game
    engine refines it by measurement, :mod:`symbolic.bdd.probe`)."""
    if order not in ORDERS:
        raise QueryError(f"unknown bit order {order!r}: the choices are {list(ORDERS)}")
    if order != "auto":
        return order
    ragged = sum(1 for s in space.slots if (s.type.hi - s.type.lo + 1) & (s.type.hi - s.type.lo))
    return "sliced" if ragged <= AUTO_SLICED_MAX else "slots"


def slot_sequence(space: Space, order: str) -> list[int]:
    """The slots in layout order: declaration order, except that a ``"-reversed"``
    order lays out each array's elements from the last index to the first.

    >>> from symbolic.ir import IntType, VarDecl
    >>> s = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, 3), IntType(1, 3))))
    >>> slot_sequence(s, "slots-reversed")
    [0, 3, 2, 1]
    """
    seq = list(range(len(space.slots)))
    if not order.endswith("-reversed"):
        return seq
    out: list[int] = []
    i = 0
    while i < len(seq):
        var = space.slots[i].var
        j = i
        while j < len(seq) and space.slots[j].var == var:
            j += 1
        out += seq[i:j][::-1] if space.slots[i].index is not None else seq[i:j]
        i = j
    return out


class BitLayout:
    """The bits of ``space`` declared in ``manager``, in bit order ``order``: the
    current bits x and the next bits x' of every slot, position tuples to and from
    assignments, the domain D(x) and the frames x'_s = x_s."""

    def __init__(self, space: Space, manager: Manager, order: str = "auto"):
        self.space = space
        self.m = manager
        self.bit_order = choose_order(space, order)
        slots = space.slots
        self.widths: tuple[int, ...] = tuple(
            max(1, (s.type.hi - s.type.lo).bit_length()) for s in slots
        )
        # refused before any name is made: an array of 10^6 slots needs millions
        bits = sum(self.widths)
        what = f"the position space ({len(slots)} slots, {bits} bits per position)"
        manager.require_variables(2 * bits, what)
        # cur[i][k] / nxt[i][k]: bit of weight 2^k of slot i
        self.cur: tuple[tuple[str, ...], ...] = tuple(
            tuple(f"{s.label}.{k}" for k in range(w)) for s, w in zip(slots, self.widths)
        )
        self.nxt: tuple[tuple[str, ...], ...] = tuple(
            tuple(f"{s.label}.{k}'" for k in range(w)) for s, w in zip(slots, self.widths)
        )
        self.slot_order: tuple[int, ...] = tuple(slot_sequence(space, self.bit_order))
        names = self.layout(self.bit_order, self.slot_order)
        manager.declare(names, what)
        self.order: tuple[str, ...] = tuple(names)
        current = [n for n in names if not n.endswith("'")]
        nxt = [self.to_next_name(n) for n in current]
        self.current_bits: tuple[str, ...] = tuple(current)
        self.next_bits: tuple[str, ...] = tuple(nxt)
        self.current_set = frozenset(current)
        self.next_set = frozenset(nxt)
        self.to_next: dict[str, str] = dict(zip(current, nxt))
        self.to_current: dict[str, str] = dict(zip(nxt, current))
        # bit name -> (slot, weight) for decoding assignments
        self._bit_info: dict[str, tuple[int, int]] = {
            self.cur[i][k]: (i, 1 << k) for i, w in enumerate(self.widths) for k in range(w)
        }
        self._los = [s.type.lo for s in slots]
        self._domain_cache: dict[bool, Any] = {}
        self._slot_frame: dict[int, Any] = {}
        self._frame_cache: dict[frozenset, Any] = {}

    # ------------------------------------------------------------------ layout

    @staticmethod
    def to_next_name(name: str) -> str:
        """The next-position bit of a current bit name: ``k[1].3`` → ``k[1].3'``."""
        return name + "'"

    def layout(self, kind: str, slot_order: Sequence[int]) -> list[str]:
        """The variable order of layout ``kind`` (``"slots…"``: slot after slot;
        ``"sliced…"``: weight after weight) with the slots taken in ``slot_order``;
        MSB first, each current bit followed by its next bit."""
        if kind.startswith("sliced"):
            pairs = [
                (i, k)
                for k in reversed(range(max(self.widths, default=0)))
                for i in slot_order
                if k < self.widths[i]
            ]
        else:
            pairs = [(i, k) for i in slot_order for k in reversed(range(self.widths[i]))]
        return [b for i, k in pairs for b in (self.cur[i][k], self.nxt[i][k])]

    def relayout(self, kind: str, slot_order: Sequence[int]) -> None:
        """Move every variable to the layout (``kind``, ``slot_order``), in place:
        existing BDDs keep their functions (CUDD's shuffle)."""
        if sorted(slot_order) != list(range(len(self.space.slots))):
            raise AssertionError(slot_order)
        order = self.layout(kind, slot_order)
        self.m.reorder(order)
        self.bit_order = kind
        self.slot_order = tuple(slot_order)
        self.order = tuple(order)
        self.current_bits = tuple(n for n in order if not n.endswith("'"))
        self.next_bits = tuple(self.to_next_name(n) for n in self.current_bits)

    # ------------------------------------------------------------------ positions

    def slot_bits(self, slot: int, primed: bool = False) -> tuple[str, ...]:
        """The bit names of ``slot``, LSB first."""
        return self.nxt[slot] if primed else self.cur[slot]

    def assignment(self, pos: Sequence[int], primed: bool = False) -> dict[str, bool]:
        """{bit: value} encoding the (range-checked) position tuple ``pos``."""
        names = self.nxt if primed else self.cur
        out: dict[str, bool] = {}
        for i, v in enumerate(pos):
            u = v - self._los[i]
            for k, n in enumerate(names[i]):
                out[n] = bool((u >> k) & 1)
        return out

    def position_cube(self, pos: Sequence[int], primed: bool = False):
        """The minterm of position ``pos`` over current (or next) bits."""
        return self.m.cube(self.assignment(pos, primed))

    def decode(self, assignment: Mapping[str, bool]) -> tuple:
        """The position tuple of a full assignment to the current bits."""
        vals = list(self._los)
        info = self._bit_info
        for n, b in assignment.items():
            if b:
                i, w = info[n]
                vals[i] += w
        return tuple(vals)

    def domain(self, primed: bool = False):
        """Every slot's value within its declared range: ⋀_s (bits_s ≤ hi_s − lo_s)."""
        if primed not in self._domain_cache:
            m = self.m
            parts = []
            for i, s in enumerate(self.space.slots):
                names = self.slot_bits(i, primed)
                bits = tuple(m.var(n) for n in names)
                parts.append(bv.ule_const(self.m, bits, s.type.hi - s.type.lo))
            self._domain_cache[primed] = m.conj(parts)
        return self._domain_cache[primed]

    def frame(self, slots: Iterable[int]):
        """⋀_{s ∈ slots} x_s' = x_s: the listed slots keep their value."""
        key = frozenset(slots)
        if key not in self._frame_cache:
            m = self.m
            for i in key:
                if i not in self._slot_frame:
                    self._slot_frame[i] = m.conj(
                        m.iff(m.var(c), m.var(n)) for c, n in zip(self.cur[i], self.nxt[i])
                    )
            self._frame_cache[key] = m.conj(self._slot_frame[i] for i in sorted(key))
        return self._frame_cache[key]

    def first_position(self, u) -> tuple | None:
        """The lexicographically smallest position (current bits) of ∃x'. u, or None.

        Slot by slot, most significant bit first, bit 0 is kept whenever the
        rest stays satisfiable: one cofactor per bit, no enumeration.
        """
        m = self.m
        if m.support(u) & self.next_set:
            u = m.exist(u, self.next_set)
        if m.is_false(u):
            return None
        fixed: dict[str, bool] = {}
        free = set(self.current_bits) - m.support(u)  # 0 keeps u: no cofactor needed
        for names in self.cur:
            for name in reversed(names):
                if name in free:
                    fixed[name] = False
                    continue
                v = m.restrict(u, {name: False})
                if m.is_false(v):
                    v = m.restrict(u, {name: True})
                    fixed[name] = True
                else:
                    fixed[name] = False
                u = v
        return self.decode(fixed)
