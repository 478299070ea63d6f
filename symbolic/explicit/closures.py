"""The closures the explicit engine's compiler (:mod:`.interp`) builds expressions from.

Each compiled node is a function ``fn(s, n)`` of the current and next value vectors.
The tables below give one closure per operator and operand shape, so that evaluating
``a + 1`` is one call of ``lambda s, n: a(s, n) + 1`` rather than a generic
``op(a(s, n), b(s, n))`` with an extra call per node; ``s[i] == c`` reads its slot in
the comparison's own closure.

>>> _BIN_FC["+"](lambda s, n: s[0], 1)((41,), None)
42
>>> _READ_FC["<"](0, False, 3)((2,), None), _READ_FC[_FLIP["<"]](0, True, 3)(None, (2,))
(True, False)
"""

from __future__ import annotations

from typing import Any, Callable

__all__: list[str] = []


def _const_fn(v):
    return lambda s, n: v


def _raiser(cls, message, span):
    # A fresh exception per call: evaluation errors are raised lazily, only at
    # the positions (and in the branches) where evaluation reaches them.
    def fn(s, n):
        raise cls(message, span)

    return fn


def _floordiv(a, b):
    return a // b


def _mod(a, b):
    return a % b


# Specialised closures: generic op(a(s, n), b(s, n)) would cost an extra call per node.
_BIN_FF = {
    "+": lambda a, b: lambda s, n: a(s, n) + b(s, n),
    "-": lambda a, b: lambda s, n: a(s, n) - b(s, n),
    "*": lambda a, b: lambda s, n: a(s, n) * b(s, n),
    "==": lambda a, b: lambda s, n: a(s, n) == b(s, n),
    "!=": lambda a, b: lambda s, n: a(s, n) != b(s, n),
    "<": lambda a, b: lambda s, n: a(s, n) < b(s, n),
    "<=": lambda a, b: lambda s, n: a(s, n) <= b(s, n),
    ">": lambda a, b: lambda s, n: a(s, n) > b(s, n),
    ">=": lambda a, b: lambda s, n: a(s, n) >= b(s, n),
    "and": lambda a, b: lambda s, n: a(s, n) and b(s, n),
    "or": lambda a, b: lambda s, n: a(s, n) or b(s, n),
    "implies": lambda a, b: lambda s, n: (not a(s, n)) or b(s, n),
    "iff": lambda a, b: lambda s, n: a(s, n) == b(s, n),
}
_BIN_FC = {  # right operand a compile-time constant c
    "+": lambda a, c: lambda s, n: a(s, n) + c,
    "-": lambda a, c: lambda s, n: a(s, n) - c,
    "*": lambda a, c: lambda s, n: a(s, n) * c,
    "//": lambda a, c: lambda s, n: a(s, n) // c,
    "%": lambda a, c: lambda s, n: a(s, n) % c,
    "==": lambda a, c: lambda s, n: a(s, n) == c,
    "!=": lambda a, c: lambda s, n: a(s, n) != c,
    "<": lambda a, c: lambda s, n: a(s, n) < c,
    "<=": lambda a, c: lambda s, n: a(s, n) <= c,
    ">": lambda a, c: lambda s, n: a(s, n) > c,
    ">=": lambda a, c: lambda s, n: a(s, n) >= c,
}
_BIN_CF = {  # left operand a compile-time constant c
    "+": lambda c, b: lambda s, n: c + b(s, n),
    "-": lambda c, b: lambda s, n: c - b(s, n),
    "*": lambda c, b: lambda s, n: c * b(s, n),
    "==": lambda c, b: lambda s, n: c == b(s, n),
    "!=": lambda c, b: lambda s, n: c != b(s, n),
    "<": lambda c, b: lambda s, n: c < b(s, n),
    "<=": lambda c, b: lambda s, n: c <= b(s, n),
    ">": lambda c, b: lambda s, n: c > b(s, n),
    ">=": lambda c, b: lambda s, n: c >= b(s, n),
}


# An int slot compared with a constant, in one closure (s[i] == c, not a(s, n) == c).
_READ_FC: dict[str, Callable[[int, bool, Any], Callable]] = {
    "==": lambda i, p, c: (lambda s, n: n[i] == c) if p else (lambda s, n: s[i] == c),
    "!=": lambda i, p, c: (lambda s, n: n[i] != c) if p else (lambda s, n: s[i] != c),
    "<": lambda i, p, c: (lambda s, n: n[i] < c) if p else (lambda s, n: s[i] < c),
    "<=": lambda i, p, c: (lambda s, n: n[i] <= c) if p else (lambda s, n: s[i] <= c),
    ">": lambda i, p, c: (lambda s, n: n[i] > c) if p else (lambda s, n: s[i] > c),
    ">=": lambda i, p, c: (lambda s, n: n[i] >= c) if p else (lambda s, n: s[i] >= c),
}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _all_fn(fs):
    def fn(s, n):
        for f in fs:
            if not f(s, n):
                return False
        return True

    return fn


def _any_fn(fs):
    def fn(s, n):
        for f in fs:
            if f(s, n):
                return True
        return False

    return fn


def _sum_fn(fs):
    def fn(s, n):
        total = 0
        for f in fs:
            total += f(s, n)  # a true bool adds 1, and 0 + True is the int 1
        return total

    return fn


def _read(slot, is_bool, primed):
    if primed:
        return (lambda s, n: n[slot] != 0) if is_bool else (lambda s, n: n[slot])
    return (lambda s, n: s[slot] != 0) if is_bool else (lambda s, n: s[slot])
