"""CUDD's own time limit, set on a dd.cudd manager: the backstop of ``--timeout``.

dd.cudd holds Python's global interpreter lock for the whole of a CUDD call, so
neither the cooperative checks nor the watchdog thread (:mod:`symbolic.cli.watchdog`)
can act inside one; one AND of a circuit's gates under dynamic reordering was measured
running for minutes past the deadline. CUDD itself can stop: past the time limit of
its manager (CPU milliseconds since the manager started, ``Cudd_SetTimeLimit``), its
operations and its reordering give up and return NULL, which dd raises, with the
manager's error code ``CUDD_TIMEOUT_EXPIRED``. dd does not wrap these functions;
they are called here through ctypes on the manager's pointer, read from the dd.cudd
object (the first field after Cython's vtable) and checked against a value the
manager was configured with before it is used, so another layout of dd turns the
limit off instead of reading a wrong address.

>>> import dd.cudd
>>> bdd = dd.cudd.BDD()
>>> _ = bdd.configure(max_memory=2**30)
>>> clock = attach(bdd, 2**30, 60.0)
>>> clock is not None, expired(clock)
(True, False)
"""

from __future__ import annotations

import ctypes

__all__ = ["attach", "expired"]

#: CUDD's ``Cudd_ErrorType`` value of an expired time limit (cudd.h)
CUDD_TIMEOUT_EXPIRED = 4

_lib: ctypes.CDLL | None = None


def _library(module_file: str) -> ctypes.CDLL:
    global _lib
    if _lib is None:
        lib = ctypes.CDLL(module_file)
        for name, res, args in (
            ("Cudd_SetTimeLimit", ctypes.c_ulong, [ctypes.c_void_p, ctypes.c_ulong]),
            ("Cudd_ReadElapsedTime", ctypes.c_ulong, [ctypes.c_void_p]),
            ("Cudd_ReadMaxMemory", ctypes.c_size_t, [ctypes.c_void_p]),
            ("Cudd_ReadErrorCode", ctypes.c_int, [ctypes.c_void_p]),
        ):
            getattr(lib, name).restype = res
            getattr(lib, name).argtypes = args
        _lib = lib
    return _lib


def attach(bdd, max_memory: int, seconds: float) -> int | None:
    """Set the time limit of the dd.cudd manager ``bdd`` (configured with
    ``max_memory`` bytes) to ``seconds`` from now; its pointer for :func:`expired`, or
    None when the manager cannot be reached (the limit is then not set)."""
    import dd.cudd

    try:
        lib = _library(dd.cudd.__file__)
    except (OSError, AttributeError):
        return None
    pointer = ctypes.c_void_p.from_address(id(bdd) + 3 * ctypes.sizeof(ctypes.c_void_p)).value
    if not pointer or lib.Cudd_ReadMaxMemory(pointer) != max_memory:
        return None
    limit = lib.Cudd_ReadElapsedTime(pointer) + max(0, int(seconds * 1000))
    lib.Cudd_SetTimeLimit(pointer, limit)
    return pointer


def expired(pointer: int) -> bool:
    """Did the manager at ``pointer`` (from :func:`attach`) stop on its time limit?"""
    assert _lib is not None, pointer
    return _lib.Cudd_ReadErrorCode(pointer) == CUDD_TIMEOUT_EXPIRED
