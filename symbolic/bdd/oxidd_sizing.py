"""How large an oxidd manager's apply cache and node store may be: by the space, the
work announced, the memory cap, the deadline and the address space left.

oxidd allocates its apply cache once, when the manager is made, holding Python's lock;
its worker threads each reserve address space for their stacks, and it aborts the
process when an allocation or its thread pool fails. So the sizes are chosen here,
before :class:`~symbolic.bdd.oxidd_backend.OxiddManager` asks for them.

>>> cache_entries(9, 16 << 30).bit_length() - 1
16
"""

from __future__ import annotations

import time

from ..errors import Hint, OutOfMemory
from ..limits import Limits
from .capacity import OXIDD_THREAD_ADDRESS_SPACE

__all__ = [
    "cache_entries",
    "cache_in_time",
    "BYTES_PER_CACHE_ENTRY",
    "fit_address_space",
    "BIG_CACHE_BITS",
    "CACHE_MIN_SECONDS",
    "SMALL_CACHE_BITS",
]

#: apply-cache entries, allocated at once: a larger cache costs every process its memory
#: at start-up, a smaller one made the large ENS Nim fixpoints several times slower
#: (bench/journal/2026-11-23-issue-9-rounds-1-2.md, "Another BDD package: oxidd")
_CACHE = 1 << 22
#: bytes per apply-cache entry (measured: 2^22 entries asked for 44 564 480 bytes)
BYTES_PER_CACHE_ENTRY = 11
#: the smallest cache: small spaces get four entries a value vector, at least this
SMALL_CACHE_BITS = 16
#: the cache of iterated fixpoints on large spaces (see cache_entries)
_BIG_CACHE = 1 << 26
#: the cache of every other request on large spaces: layered solves, short commands
_LARGE_CACHE = 1 << 24
#: above this many bits of value vectors, the big cache (if the memory cap allows it)
BIG_CACHE_BITS = 36
#: seconds a request must have left for the big cache, and for the large one: oxidd
#: allocates its cache holding Python's lock, when neither Ctrl-C nor the deadline can act
#: (the larger the cache, the longer; bench/journal/2026-11-26-issue-32.md)
CACHE_MIN_SECONDS = {_BIG_CACHE: 60, _LARGE_CACHE: 10}


def cache_entries(
    space_bits: int | None, cap: int, bits: int | None = None, work: str | None = None
) -> int:
    """The apply-cache entries of a manager for a space of 2^space_bits value vectors
    under a memory cap of ``cap`` bytes: 2^bits when ``bits`` is given (``--cache-bits``),
    else 4 entries a vector on a small space (at least 2^16), 2^22 up to 2^36 vectors and, above, the largest of 2^26 (for ``work`` =
    ``"fixpoints"`` only) and 2^24 whose bytes fit 16 times in the cap (else 2^22).
    oxidd's cache cannot grow after the manager is made. An iterated fixpoint recomputes
    products over sets that change little from one step to the next, and a large cache
    keeps the previous step's results (ENS Nim's large fixpoints ran several times
    faster with 2^26 entries than with 2^22). A layered solve meets each set once, so a
    larger cache only costs the processor's caches (Connect Four 6 × 5's table was slower
    with 2^26 than with 2^24). And a large cache takes seconds to allocate, a cost a
    short command does not recover: so only the commands that run fixpoints ask for it
    (figures: bench/journal/2026-11-25-issue-22-round-5.md; :meth:`Limits.expect_work
    <symbolic.limits.Limits.expect_work>`).

    >>> [cache_entries(41, 16 << 30, None, "fixpoints").bit_length() - 1,
    ...  cache_entries(41, 16 << 30).bit_length() - 1, cache_entries(32, 16 << 30).bit_length() - 1]
    [26, 24, 22]
    >>> [cache_entries(9, 16 << 30).bit_length() - 1, cache_entries(19, 16 << 30).bit_length() - 1]
    [16, 21]
    >>> [cache_entries(41, 8 << 30, None, "fixpoints").bit_length() - 1,
    ...  cache_entries(41, 16 << 30, 20).bit_length() - 1]
    [24, 20]
    """
    if bits is not None:
        return 1 << bits
    if space_bits is not None and space_bits + 2 < _CACHE.bit_length() - 1:
        # a small space: four entries a value vector, at least 2^16 (2^22 took 34 ms to
        # allocate, more than a small game's whole solve)
        return 1 << max(SMALL_CACHE_BITS, space_bits + 2)
    if space_bits is not None and space_bits > BIG_CACHE_BITS:
        sizes = (_BIG_CACHE, _LARGE_CACHE) if work == "fixpoints" else (_LARGE_CACHE,)
        for entries in sizes:
            if cap >= 16 * BYTES_PER_CACHE_ENTRY * entries:
                return entries
    return _CACHE


def cache_in_time(cache: int, deadline: float | None) -> int:
    """The cache entries, ``--cache-bits`` or not, that a request may allocate before its
    deadline: half as many until the time left is what :data:`CACHE_MIN_SECONDS` asks for
    them (10 s above 2^22 entries, 60 s above 2^24, and 60 s per 2^26 above 2^26). oxidd
    allocates its cache holding Python's lock, when the deadline cannot act.

    >>> [cache_in_time(1 << b, time.monotonic() + 30).bit_length() - 1 for b in (26, 25, 23)]
    [24, 24, 23]
    >>> cache_in_time(1 << 26, time.monotonic() + 5).bit_length() - 1
    22
    >>> [cache_in_time(1 << 30, t).bit_length() - 1 for t in (None, time.monotonic() + 400)]
    [30, 28]
    """
    if deadline is None:
        return cache
    left = deadline - time.monotonic()
    while cache > _CACHE and left < _seconds_for(cache):
        cache >>= 1
    return cache


def _seconds_for(cache: int) -> float:
    if cache > _BIG_CACHE:
        return CACHE_MIN_SECONDS[_BIG_CACHE] * cache / _BIG_CACHE
    return CACHE_MIN_SECONDS[_BIG_CACHE if cache > _LARGE_CACHE else _LARGE_CACHE]


#: the smallest address space (bytes) a manager needs beside its threads' stacks
_MIN_HEAP = 64 << 20


def fit_address_space(
    left: int | None, threads: int, cache: int, cap: int, limits: Limits
) -> tuple[int, int]:
    """(cache entries, memory cap) of a manager with ``threads`` workers when ``left``
    bytes of address space remain (None: no ``ulimit -v``): each worker reserves
    :data:`~symbolic.bdd.capacity.OXIDD_THREAD_ADDRESS_SPACE` for its stack, the cache
    takes at most a quarter of the rest, the store half. Too little left is an
    :class:`OutOfMemory` naming the threads, before oxidd would abort the process.

    >>> fit_address_space(None, 2, 1 << 22, 1 << 30, Limits())
    (4194304, 1073741824)
    >>> fit_address_space(3 << 30, 2, 1 << 22, 4 << 30, Limits())[1] >> 20
    468
    """
    if left is None:
        return cache, cap
    stacks = threads * OXIDD_THREAD_ADDRESS_SPACE
    rest = left - stacks
    if rest < _MIN_HEAP:
        fewer = ("ask for fewer ", Hint("lower", "threads"), ", ") if threads > 1 else ()
        raise OutOfMemory(
            (
                f"the address space left under ulimit -v ({left >> 20} MB) is too small for "
                f"oxidd's {threads} worker thread{'s' if threads > 1 else ''} (each reserves "
                f"{OXIDD_THREAD_ADDRESS_SPACE >> 20} MB for its stack) and its node store: ",
                *fewer,
                "raise ulimit -v or use ",
                Hint("choose", "backend", ("cudd",)),
            ),
            stage=limits.where(),
        )
    cache = max(
        1 << 10, min(cache, 1 << max(0, (rest // (4 * BYTES_PER_CACHE_ENTRY)).bit_length() - 1))
    )
    return cache, min(cap, max(0, rest // 2 - cache * BYTES_PER_CACHE_ENTRY))
