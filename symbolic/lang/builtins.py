"""The library of constant functions of the model language.

Every builtin here takes and returns load-time values (``int``, ``bool``,
``tuple``, ``frozenset`` for sets, ``str``) and is evaluated once, when the
model is loaded; none of them ever sees a state variable. A few of them
(``abs``, ``min``, ``max``, ``sum``, ``count``, ``int``) also accept state
expressions: the checker expands those into IR itself
(:data:`STATE_BUILTINS`).

Errors are raised without a span; the checker adds the span of the call.

>>> BUILTINS["lcg"].call((0, 101, 269, 4890367, 3))
(0, 269, 27438)
>>> BUILTINS["xor"].call((3, 5, 6))
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import RangeError, WrongType

__all__ = [
    "STATE_BUILTINS",
    "Builtin",
    "kind_name",
    "canonical_key",
    "MAX_ELEMENTS",
    "MAX_BINDINGS",
    "MAX_POW_BITS",
    "lcg",
    "lcg_terms",
    "length",
    "minimum",
    "maximum",
    "absolute",
    "total",
    "count",
    "to_tuple",
    "sort",
    "int_range",
    "xor",
    "power",
    "to_int",
    "dyck",
    "int_set",
    "BUILTINS",
]

#: builtins the checker also expands over state expressions
STATE_BUILTINS = frozenset({"abs", "min", "max", "sum", "count", "int"})


@dataclass(frozen=True)
class Builtin:
    """A constant function: its name, arity bounds and implementation."""

    name: str
    func: Callable
    min_args: int
    max_args: int | None
    signature: str
    doc: str

    def call(self, args: tuple):
        """Apply to already evaluated arguments (arity is checked here)."""
        n = len(args)
        if n < self.min_args or (self.max_args is not None and n > self.max_args):
            raise WrongType(
                f"{self.signature} takes {_arity_text(self.min_args, self.max_args)}, got {n}"
            )
        return self.func(*args)


def _arity_text(lo: int, hi: int | None) -> str:
    if hi == lo:
        return f"{lo} argument{'s' if lo != 1 else ''}"
    if hi is None:
        return f"at least {lo} argument{'s' if lo != 1 else ''}"
    return f"{lo} to {hi} arguments"


# --------------------------------------------------------------------------- argument checks


def kind_name(v) -> str:
    """The language's name for the type of value ``v``.

    >>> kind_name(True), kind_name(3), kind_name((1,)), kind_name(frozenset())
    ('bool', 'int', 'tuple', 'set')
    """
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, tuple):
        return "tuple"
    if isinstance(v, frozenset):
        return "set"
    if isinstance(v, str):
        return "string"
    raise AssertionError(v)


def _int(v, fn: str, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise WrongType(f"{fn}: {what} must be an int, got {kind_name(v)}")
    return v


def _collection(v, fn: str) -> tuple:
    """The items of a tuple, set (in canonical order) or string."""
    if isinstance(v, tuple):
        return v
    if isinstance(v, frozenset):
        return tuple(sorted(v, key=canonical_key))
    if isinstance(v, str):
        return tuple(v)
    raise WrongType(f"{fn}: expected a tuple or a set, got {kind_name(v)}")


def canonical_key(v):
    """A sort key giving the canonical order of values (the IR's order of sets):
    booleans, then ints, then tuples (item by item), then sets, then strings.

    >>> sorted([(1, 2), 3, (0, 5)], key=canonical_key)
    [3, (0, 5), (1, 2)]
    """
    if isinstance(v, bool):
        return (0, int(v))
    if isinstance(v, int):
        return (1, v)
    if isinstance(v, tuple):
        return (2, tuple(canonical_key(x) for x in v))
    if isinstance(v, frozenset):
        return (3, tuple(sorted(canonical_key(x) for x in v)))
    if isinstance(v, str):
        return (4, v)
    raise AssertionError(v)


def _ints(args: tuple, fn: str) -> tuple[int, ...]:
    """``f(a, b, c)`` or ``f(collection)`` as a tuple of ints."""
    items = _collection(args[0], fn) if len(args) == 1 else args
    return tuple(_int(x, fn, "every item") for x in items)


#: the most values a constant collection (range, lcg sequence) may hold: beyond,
#: the model is refused with a located error, not a hang or a MemoryError
MAX_ELEMENTS = 10_000_000
#: the most bindings the constant comprehensions and quantifiers of one model may
#: visit in all (each costs tens of microseconds: this bounds the load time)
MAX_BINDINGS = 200_000
#: the most bits a constant integer made by pow may have (about 3 000 digits)
MAX_POW_BITS = 10_000


# --------------------------------------------------------------------------- the functions


def lcg(u0, a, c, m, count) -> tuple[int, ...]:
    """(u_0, ..., u_{count-1}) with u_{n+1} = (a*u_n + c) mod m (ENS 2005, section 1).

    >>> lcg(1, 101, 269, 4890367, 2)
    (1, 370)
    """
    u0, a, c, m, count = (
        _int(x, "lcg", w) for x, w in zip((u0, a, c, m, count), ("u0", "a", "c", "m", "count"))
    )
    if m <= 0:
        raise RangeError(f"lcg: the modulus must be positive, got {m}")
    if count > MAX_ELEMENTS:
        raise RangeError(
            f"lcg: {count} terms asked, more than the {MAX_ELEMENTS} a constant may hold"
        )
    return lcg_terms(u0, count, a, c, m)


def lcg_terms(u0: int, count: int, a: int, c: int, m: int) -> tuple[int, ...]:
    """The first ``count`` terms of u_{n+1} = (a·u_n + c) mod m: the one implementation
    of the ENS sequence (the builtin ``lcg`` and :func:`symbolic.seeds.games.lcg` call it).

    >>> lcg_terms(1, 2, 101, 269, 4890367)
    (1, 370)
    """
    if count < 0:
        raise RangeError(f"lcg: count must be >= 0, got {count}")
    out, u = [], u0
    for _ in range(count):
        out.append(u)
        u = (a * u + c) % m
    return tuple(out)


def length(v) -> int:
    """Number of items of a tuple, set or string."""
    return len(_collection(v, "len"))


def minimum(*args) -> int:
    """``min(a, b, ...)`` or ``min(collection)``."""
    items = _ints(args, "min")
    if not items:
        raise RangeError("min of an empty collection")
    return min(items)


def maximum(*args) -> int:
    """``max(a, b, ...)`` or ``max(collection)``."""
    items = _ints(args, "max")
    if not items:
        raise RangeError("max of an empty collection")
    return max(items)


def absolute(v) -> int:
    return abs(_int(v, "abs", "the argument"))


def total(v) -> int:
    """Sum of a collection of ints (a true boolean counts 1)."""
    out = 0
    for x in _collection(v, "sum"):
        if isinstance(x, bool):
            out += int(x)
        else:
            out += _int(x, "sum", "every item")
    return out


def count(v) -> int:
    """Number of true booleans in a collection."""
    items = _collection(v, "count")
    for x in items:
        if not isinstance(x, bool):
            raise WrongType(f"count: expected booleans, got {kind_name(x)}")
    return sum(1 for x in items if x)


def to_tuple(v) -> tuple:
    """The items of a collection as a tuple (sets in canonical order)."""
    return _collection(v, "tuple")


def sort(v) -> tuple:
    """The items of a collection, sorted, as a tuple."""
    return tuple(sorted(_collection(v, "sorted"), key=canonical_key))


def int_range(*args) -> tuple[int, ...]:
    """Python's ``range``: ``range(n)`` is (0, ..., n-1), ``range(a, b)`` is (a, ..., b-1)."""
    bounds = [_int(x, "range", "a bound") for x in args]
    return tuple(range(*bounds))


def xor(*args) -> int:
    """Bitwise exclusive or (the Nim sum) of ints: ``xor(a, b, ...)`` or ``xor(collection)``."""
    out = 0
    for x in _ints(args, "xor"):
        if x < 0:
            raise RangeError(f"xor of a negative number ({x})")
        out ^= x
    return out


def power(a, b) -> int:
    a, b = _int(a, "pow", "the base"), _int(b, "pow", "the exponent")
    if b < 0:
        raise RangeError(f"pow: negative exponent {b}")
    if abs(a) > 1 and b * (abs(a).bit_length() - 1) > MAX_POW_BITS:
        raise RangeError(
            f"pow({a}, {b}) would have more than {MAX_POW_BITS} bits (about "
            f"{MAX_POW_BITS * 3 // 10} digits), the most a constant may have"
        )
    return a**b


def to_int(v) -> int:
    """``int(b)``: 1 for true, 0 for false (ints pass unchanged)."""
    if isinstance(v, bool):
        return int(v)
    return _int(v, "int", "the argument")


def dyck(word) -> tuple[tuple[int, int], ...]:
    """The nodes of the forest a Dyck word describes, in preorder, as
    ``(open, close)`` positions (0-based) of their parentheses: node a is an
    ancestor of node d exactly when a's interval contains d's.

    >>> dyck("(()())")
    ((0, 5), (1, 2), (3, 4))
    """
    if not isinstance(word, str):
        raise WrongType(f"dyck: expected a string of parentheses, got {kind_name(word)}")
    stack: list[int] = []
    nodes: list[list[int]] = []  # [open, close] per node
    for pos, ch in enumerate(word):
        if ch == "(":
            stack.append(len(nodes))
            nodes.append([pos, -1])  # closed below (or the word is unbalanced)
        elif ch == ")":
            if not stack:
                raise RangeError(f"dyck: unbalanced ')' at position {pos} of {word!r}")
            nodes[stack.pop()][1] = pos
        elif not ch.isspace():
            raise RangeError(f"dyck: unexpected character {ch!r} in {word!r}")
    if stack:
        raise RangeError(f"dyck: unbalanced '(' in {word!r}")
    return tuple((o, c) for o, c in nodes)


def int_set(text) -> frozenset:
    """The set of the integers written in ``text``, separated by commas or spaces
    (a parameter such as ``-p 'S=1,3,4'`` read as a set).

    >>> sorted(int_set("1, 3,4"))
    [1, 3, 4]
    """
    if not isinstance(text, str):
        raise WrongType(f'ints: expected a string such as "1,3,4", got {kind_name(text)}')
    out = set()
    for item in text.replace(",", " ").split():
        if not item.lstrip("-").isdigit() or len(item) > 40:
            raise RangeError(f"ints: {item!r} in {text!r} is not an integer")
        out.add(int(item))
    return frozenset(out)


BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in (
        Builtin(
            "lcg",
            lcg,
            5,
            5,
            "lcg(u0, a, c, m, count)",
            "the tuple (u_0..u_{count-1}) of u_{n+1} = (a*u_n + c) mod m",
        ),
        Builtin("len", length, 1, 1, "len(collection)", "number of items"),
        Builtin("min", minimum, 1, None, "min(a, b, ...) or min(collection)", "smallest int"),
        Builtin("max", maximum, 1, None, "max(a, b, ...) or max(collection)", "largest int"),
        Builtin("abs", absolute, 1, 1, "abs(n)", "absolute value"),
        Builtin("sum", total, 1, 1, "sum(collection)", "sum of ints (true counts 1)"),
        Builtin("count", count, 1, 1, "count(collection of booleans)", "number of true items"),
        Builtin("tuple", to_tuple, 1, 1, "tuple(collection)", "the items as a tuple"),
        Builtin("sorted", sort, 1, 1, "sorted(collection)", "the items sorted, as a tuple"),
        Builtin("range", int_range, 1, 2, "range(n) or range(a, b)", "(a, ..., b-1) as a tuple"),
        Builtin("xor", xor, 1, None, "xor(a, b, ...) or xor(collection)", "bitwise xor (Nim sum)"),
        Builtin("pow", power, 2, 2, "pow(a, b)", "a to the power b"),
        Builtin("int", to_int, 1, 1, "int(b)", "1 if b else 0"),
        Builtin(
            "dyck",
            dyck,
            1,
            1,
            "dyck(word)",
            "(open, close) positions of the nodes of a Dyck word, in preorder",
        ),
        Builtin(
            "ints",
            int_set,
            1,
            1,
            "ints(text)",
            "the set of the integers written in text, separated by commas or spaces",
        ),
    )
}
