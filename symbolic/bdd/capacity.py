"""How much each BDD backend can hold: memory caps and bounds on the number of variables.

The bounds are measured (the figures are in bench/journal/, issues 23, 32 and 33);
:meth:`symbolic.bdd.base.BaseManager.require_variables` checks them before declaring any
variable, so that a space too large for a backend is refused with its size, not met by a
failure deep inside the backend.

>>> cudd_variable_bound(500 * 2**20)[0]
62848
>>> autoref_variable_bound(2**20)[:1], autoref_node_cap(2**20)
((2048,), 2048)
"""

from __future__ import annotations

from ..limits import RECURSION_LIMIT

__all__ = [
    "default_memory_cap",
    "cudd_variable_bound",
    "autoref_variable_bound",
    "autoref_node_cap",
    "CUDD_MAX_VARIABLES",
    "AUTOREF_MAX_VARIABLES",
    "AUTOREF_BYTES_PER_NODE",
    "OXIDD_THREAD_ADDRESS_SPACE",
    "OXIDD_BYTES_PER_VARIABLE",
    "grow_main_stack",
    "address_space_left",
]

# The number of variables each backend can declare, checked before declaring them
# (BaseManager.require_variables). CUDD numbers variables below CUDD_MAXINDEX = 2^31 − 1 on
# 64-bit machines (cudd.h: (DdHalfWord) ~0 >> 1, also the index of the constants).
CUDD_MAX_VARIABLES = 2**31 - 1
# Long before that index, memory binds: each variable costs CUDD a unique subtable and
# per-level arrays. Measured by declaring variables one by one until add_var failed
# under a cap (dd 0.6.0, CUDD 3.0): a little under 8 KiB each beyond the start-up
# tables. So the bound is (cap − 9 MiB) / 8 KiB, a little below where CUDD fails. Under
# small caps CUDD still sets up its minimal tables, which held the same thousand
# variables whatever the cap, hence a floor of 1 000. Without --max-memory the cap is
# default_memory_cap().
CUDD_BYTES_PER_VARIABLE = 8 << 10
CUDD_BASE_BYTES = 9 << 20
CUDD_MIN_VARIABLES = 1000
# autoref has no index bound (Python ints), but its operations recurse once per level:
# under symbolic's recursion limit (limits.RECURSION_LIMIT = 4 400 frames), a relational
# product, rename and count over n current/next pairs raised RecursionError from
# n = 2 203 pairs (4 406 variables) on, and passed at 2 164 (bisection, 2025). A
# margin of 1 000 frames stays for the callers' own recursion.
AUTOREF_MAX_VARIABLES = RECURSION_LIMIT - 1000
# Its memory is its node table: measured as
# the growth of the resident size while building BDDs of 30 000 to 225 000 nodes
# (tools: /proc/self/statm), 460–540 bytes per node. Every variable is a node, and the
# node table is capped at cap / AUTOREF_BYTES_PER_NODE nodes (see DdManager._made).
AUTOREF_BYTES_PER_NODE = 512


# Each oxidd worker thread reserves 1 GiB of address space for its stack (oxidd 0.13: a
# process's VmSize grows by that much per thread of its manager). Under ``ulimit -v`` a pool that cannot reserve it ends the process (a Rust
# panic, "could not build thread pool", exit 134), so the stacks are counted first.
OXIDD_THREAD_ADDRESS_SPACE = 1 << 30


# What a variable costs on oxidd beyond its node of the store: its level in oxidd's
# manager (about 500 bytes) and the engine's own objects per bit (up to 2 KiB each in
# all, on arrays of tens of thousands of slots). So a memory cap binds on oxidd too (a
# large array once peaked far above its --max-memory).
OXIDD_BYTES_PER_VARIABLE = 2 << 10
# oxidd's operations recurse once per level, in the calling thread when the manager has
# one worker: under the usual 8 MiB stack, an 80 000-variable conjunction chain passed
# and a 120 000-variable one crashed the process (SIGSEGV), so at most 100 bytes a level.
# grow_main_stack lets the main thread's stack grow further, to 128 MiB: Linux keeps at
# least that much free below it (more would meet other mappings), and child processes
# inherit the limit as their threads' default stack size, so no more is asked. The bound
# counts 140 bytes a level.
OXIDD_STACK_BYTES_PER_LEVEL = 140
#: the stack the main thread is let grow to (grow_main_stack)
MAIN_STACK = 128 << 20


def grow_main_stack() -> int:
    """Raise the soft stack limit (``ulimit -s``) of this process to 128 MiB, or its hard
    limit, and return the bytes the main thread's stack may be counted on to reach:
    oxidd's operations recurse once per BDD level in the calling thread.

    >>> grow_main_stack() >= 8 << 20
    True
    """
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        want = MAIN_STACK if hard == resource.RLIM_INFINITY else min(hard, MAIN_STACK)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_STACK, (want, hard))
            soft = want
    except (ImportError, ValueError, OSError):  # not POSIX, or not allowed
        return 8 << 20
    return MAIN_STACK if soft == resource.RLIM_INFINITY else min(soft, MAIN_STACK)


def default_memory_cap() -> int:
    """CUDD's memory cap in bytes when none is given: 3/4 of the physical memory,
    and half of the address-space limit (``ulimit -v``) if one is set.

    Without a cap CUDD grows its tables until ``malloc`` fails, and then its
    allocator prints "CUDD: out of memory" and ends the process (exit 1): with
    a cap below that point, CUDD returns NULL instead and :class:`OutOfMemory`
    is raised.
    """
    from dd import _utils

    caps = []
    total = _utils.total_memory()
    if total:
        caps.append(total * 3 // 4)
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            caps.append(soft // 2)
    except (ImportError, ValueError, OSError):  # not POSIX
        pass
    return min(caps) if caps else 2**33


def address_space_left() -> int | None:
    """Bytes of address space this process may still map under ``ulimit -v``, or
    None without such a limit (or off Linux): oxidd's allocations past it end the
    process (a Rust abort), so its store and cache are sized to fit inside, and ``--backend auto``
    takes CUDD when little is left."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError, IndexError):
        return None
    return max(0, soft - used)


def _mb(n: int) -> str:
    """Bytes as MB (2**20, as --max-memory counts), rounded down."""
    return f"{n >> 20} MB"


def cudd_variable_bound(cap: int) -> tuple[int, str, bool]:
    """(n, why, by_memory) for a CUDD manager capped at ``cap`` bytes."""
    n = max(CUDD_MIN_VARIABLES, (cap - CUDD_BASE_BYTES) // CUDD_BYTES_PER_VARIABLE)
    if n >= CUDD_MAX_VARIABLES:
        return CUDD_MAX_VARIABLES, "CUDD's variable indices stop there", False
    return (
        n,
        (
            f"CUDD takes about {CUDD_BYTES_PER_VARIABLE >> 10} KiB per variable, "
            f"so a memory cap of {_mb(cap)} holds {n}"
        ),
        True,
    )


def autoref_node_cap(cap: int) -> int:
    """The most nodes an autoref manager capped at ``cap`` bytes may hold."""
    return max(1, cap // AUTOREF_BYTES_PER_NODE)


def autoref_variable_bound(cap: int) -> tuple[int, str, bool]:
    """(n, why, by_memory) for an autoref manager capped at ``cap`` bytes."""
    nodes = autoref_node_cap(cap)
    if nodes < AUTOREF_MAX_VARIABLES:
        return (
            nodes,
            (
                f"autoref takes about {AUTOREF_BYTES_PER_NODE} bytes per node and "
                f"each variable is a node, so a memory cap of {_mb(cap)} holds "
                f"{nodes}"
            ),
            True,
        )
    return (
        AUTOREF_MAX_VARIABLES,
        (
            f"autoref recurses once per variable, and Python's "
            f"stack holds {AUTOREF_MAX_VARIABLES} levels"
        ),
        False,
    )
