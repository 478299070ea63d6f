"""Checks of the Python API's arguments at the boundary, one helper per kind.

A public function checks what it is given before any work, so that a wrong
type ends in :class:`~symbolic.errors.ArgumentTypeError` (also a TypeError)
and an impossible value in :class:`~symbolic.errors.ArgumentValueError` (also
a ValueError), never in an AttributeError or a KeyError deep inside. Nothing is
converted: a bool is not an int here (``True`` is no count, position or size).

>>> need(3, int, "size")
3
>>> need(True, int, "size")
Traceback (most recent call last):
...
symbolic.errors.ArgumentTypeError: size must be an int, got bool True
>>> need_int(-1, "size", low=0)
Traceback (most recent call last):
...
symbolic.errors.ArgumentValueError: size must be at least 0, got -1
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Literal, overload

from .errors import ArgumentTypeError, ArgumentValueError
from .limits import MAX_INT_DIGITS

__all__ = ["need", "need_int", "need_iterable", "need_mapping", "type_text", "is_loaded_instance"]

#: the longest int (in decimal digits) an argument may hold, as in model text:
#: Python refuses to print longer ones, and no count, size or parameter is near it
MAX_DIGITS = MAX_INT_DIGITS


def is_loaded_instance(obj: object, module: str, name: str) -> bool:
    """``isinstance(obj, module.name)`` without importing ``module``: False while it
    is not loaded, since no instance of its classes exists then. The facades use it
    so that a model-file run does not import the GDL and AIGER front ends.

    >>> is_loaded_instance(3, "symbolic.no_such_module", "Game")
    False
    >>> is_loaded_instance(ArgumentTypeError("x"), "symbolic.errors", "SymbolicError")
    True
    """
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(obj, getattr(loaded, name))


def type_text(types) -> str:
    """``int``, ``int or str``: the names of ``types`` for a message."""
    types = types if isinstance(types, tuple) else (types,)
    return " or ".join(t.__name__ for t in types)


def _shown(value) -> str:
    text = f"{type(value).__name__} {value!r}" if value is not None else "None"
    return text if len(text) <= 80 else text[:77] + "..."


def need(value, types, what: str, *, none: bool = False, hint: str = ""):
    """``value`` when it is an instance of ``types`` (None too with ``none``), else
    ArgumentTypeError naming ``what``; a bool passes only if ``bool`` is listed."""
    if value is None and none:
        return value
    listed = types if isinstance(types, tuple) else (types,)
    if isinstance(value, listed) and (not isinstance(value, bool) or bool in listed):
        return value
    names = type_text(types)
    article = "an" if names[0].lower() in "aeiou" else "a"
    raise ArgumentTypeError(
        f"{what} must be {article} {names}{' or None' if none else ''}, got {_shown(value)}{hint}"
    )


@overload
def need_int(
    value, what: str, *, low: int | None = None, high: int | None = None, none: Literal[False] = ...
) -> int: ...


@overload
def need_int(
    value, what: str, *, low: int | None = None, high: int | None = None, none: bool
) -> int | None: ...


def need_int(
    value, what: str, *, low: int | None = None, high: int | None = None, none: bool = False
) -> int | None:
    """``value`` as an int (never a bool) within ``low..high``; ArgumentTypeError or
    ArgumentValueError otherwise (an int over :data:`MAX_DIGITS` digits too)."""
    if value is None and none:
        return None
    need(value, int, what, none=none)
    if not -(10**MAX_DIGITS) < value < 10**MAX_DIGITS:
        raise ArgumentValueError(f"{what} has more than {MAX_DIGITS} digits")
    if low is not None and value < low:
        raise ArgumentValueError(f"{what} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ArgumentValueError(f"{what} must be at most {high}, got {value}")
    return value


def need_iterable(value, what: str) -> list:
    """The items of ``value`` as a list: a collection, but not a string, bytes or a
    mapping (whose iteration would give characters or keys)."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(
            f"{what} must be a collection (a list, a set...), got {_shown(value)}"
        )
    return list(value)


def need_mapping(value, what: str) -> Mapping:
    """``value`` when it is a mapping, else ArgumentTypeError."""
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"{what} must be a mapping (a dict), got {_shown(value)}")
    return value
