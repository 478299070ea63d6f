"""Position spaces: the declared state variables, flattened into slots.

A position is a tuple with one int per slot (booleans as 0/1), slots in
declaration order, an array's elements in index order.

>>> s = Space((VarDecl("b", BoolType()), VarDecl("k", IntType(0, 3), IntType(1, 2))))
>>> s.as_dict((1, 3, 0))
{'b': 1, 'k[1]': 3, 'k[2]': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Union

from ..errors import ArgumentTypeError, ModelError, RangeError, Span, UnknownName, WrongType

__all__ = ["IntType", "BoolType", "Type", "VarDecl", "Slot", "Space"]


@dataclass(frozen=True)
class IntType:
    """Integers ``lo..hi`` inclusive."""

    lo: int
    hi: int

    def __post_init__(self):
        if self.lo > self.hi:
            raise RangeError(f"empty range {self.lo}..{self.hi}")

    def values(self) -> range:
        return range(self.lo, self.hi + 1)


@dataclass(frozen=True)
class BoolType:
    """Booleans, stored in positions as 0 (false) and 1 (true)."""

    lo: int = 0
    hi: int = 1

    def values(self) -> range:
        return range(0, 2)


Type = Union[IntType, BoolType]


@dataclass(frozen=True)
class VarDecl:
    """A state variable: a scalar (``index is None``) or an array indexed ``index.lo..index.hi``."""

    name: str
    type: Type
    index: IntType | None = None
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def is_array(self) -> bool:
        return self.index is not None


@dataclass(frozen=True)
class Slot:
    """One scalar cell of the position vector: a scalar variable or one array element."""

    var: str
    index: int | None
    type: Type

    @property
    def label(self) -> str:
        return self.var if self.index is None else f"{self.var}[{self.index}]"


@dataclass(frozen=True)
class Space:
    """The position space: declared variables, flattened into slots in declaration order.

    A position is a tuple with one int per slot (booleans as 0/1).

    >>> s = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, 3), IntType(1, 2))))
    >>> [sl.label for sl in s.slots]
    ['j', 'k[1]', 'k[2]']
    >>> s.size
    32
    """

    vars: tuple[VarDecl, ...]
    slots: tuple[Slot, ...] = field(init=False, compare=False, repr=False)
    _slot_of: dict = field(init=False, compare=False, repr=False)
    _decl: dict = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        slots, slot_of, decl = [], {}, {}
        for v in self.vars:
            if v.name in decl:
                raise ModelError(f"variable {v.name!r} declared twice", v.span)
            decl[v.name] = v
            if v.index is None:
                slot_of[(v.name, None)] = len(slots)
                slots.append(Slot(v.name, None, v.type))
            else:
                for i in v.index.values():
                    slot_of[(v.name, i)] = len(slots)
                    slots.append(Slot(v.name, i, v.type))
        object.__setattr__(self, "slots", tuple(slots))
        object.__setattr__(self, "_slot_of", slot_of)
        object.__setattr__(self, "_decl", decl)

    def decl(self, name: str) -> VarDecl:
        """The declaration of variable ``name``."""
        try:
            return self._decl[name]
        except KeyError:
            raise UnknownName(f"unknown variable {name!r}") from None

    def has_var(self, name: str) -> bool:
        return name in self._decl

    def slot_index(self, name: str, index: int | None = None) -> int:
        """Position of ``name`` (or ``name[index]``) in a position tuple."""
        d = self.decl(name)
        if (index is None) != (d.index is None):
            kind = "an array" if d.is_array else "a scalar"
            raise WrongType(f"variable {name!r} is {kind}")
        try:
            return self._slot_of[(name, index)]
        except KeyError:
            assert d.index is not None  # a scalar's one slot is always there
            raise RangeError(f"index {index} outside {name}[{d.index.lo}..{d.index.hi}]") from None

    @property
    def size(self) -> int:
        """Number of value vectors (before any invariant)."""
        n = 1
        for s in self.slots:
            n *= s.type.hi - s.type.lo + 1
        return n

    def check_position(self, pos) -> tuple:
        """Normalise ``pos`` (tuple, list or dict by label) to a tuple of ints, or raise
        RangeError (a value out of range, a wrong length) or ArgumentTypeError (a value
        that is not an int: a bool, a float, a string).

        >>> s = Space((VarDecl("b", BoolType()),))
        >>> s.check_position([1]), s.check_position({"b": 0})
        ((1,), (0,))
        >>> s.check_position((True,))
        Traceback (most recent call last):
        ...
        symbolic.errors.ArgumentTypeError: position (True,): True is not an int (values are never converted; a bool variable holds 0 or 1)
        """
        if isinstance(pos, dict):
            missing = [s.label for s in self.slots if s.label not in pos]
            extra = set(pos) - {s.label for s in self.slots}
            if missing or extra:
                raise RangeError(f"position {pos!r}: missing {missing}, unknown {sorted(extra)}")
            pos = tuple(pos[s.label] for s in self.slots)
        if isinstance(pos, (str, bytes)) or not isinstance(pos, Iterable):
            raise ArgumentTypeError(f"a position is a tuple, list or dict of ints, got {pos!r}")
        pos = tuple(pos)
        # a bool is refused too: booleans are stored as 0/1, and True is never read as 1
        bad = [v for v in pos if not isinstance(v, int) or isinstance(v, bool)]
        if bad:
            raise ArgumentTypeError(
                f"position {pos!r}: {bad[0]!r} is not an int (values are "
                f"never converted; a bool variable holds 0 or 1)"
            )
        if len(pos) != len(self.slots):
            raise RangeError(
                f"position {pos} has {len(pos)} values, expected {len(self.slots)} "
                f"({', '.join(s.label for s in self.slots)})"
            )
        for v, s in zip(pos, self.slots):
            if not s.type.lo <= v <= s.type.hi:
                raise RangeError(
                    f"position {pos}: {s.label} = {v} outside {s.type.lo}..{s.type.hi}"
                )
        return pos

    def as_dict(self, pos: tuple) -> dict:
        """``{label: value}`` for a position tuple."""
        return {s.label: v for s, v in zip(self.slots, pos)}
