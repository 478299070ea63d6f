"""The oxidd implementation of the BDD manager contract (``backend="oxidd"``).

oxidd (a Rust BDD library with Python bindings, ``pip install oxidd``) computed the ENS
Nim fixpoints several times faster than CUDD in ``bench/oxidd_ens.py`` (bench/README.md).
:class:`OxiddManager` keeps :class:`symbolic.bdd.contract.Manager` on it, a sibling of
:class:`~symbolic.bdd.backend.DdManager` sharing :class:`~symbolic.bdd.base.BaseManager`,
so the symbolic engine runs on it unchanged: level i is the i-th declared name, exact
counts (oxidd counts with Python ints), a fused relational product (``apply_exists``), renamings as prepared
substitutions (cached: the engine renames with the same two maps all the time), and
:class:`~symbolic.errors.OutOfMemory` / :class:`~symbolic.errors.EngineMismatch` as for
the other backends. Its operations run on ``limits.worker_threads`` threads: one by
default, more when asked for (``--threads``, at most the usable cores). On idle cores
more threads save wall time for the same CPU time, but beside another busy process
oxidd 0.13's two workers can spin for good (bench/journal/2026-11-26-issue-32.md). Each
worker reserves 1 GiB of address space for its stack: under ``ulimit -v`` the threads
are counted before the manager is made, and a manager that does not fit is refused
(:class:`~symbolic.errors.OutOfMemory`), since oxidd aborts the process when its thread
pool cannot start.

The diagrams are oxidd's BCDDs (complement edges, as in CUDD): negation costs nothing.
With plain BDDs (``oxidd.bdd``) a negation copies its operand through the apply cache:
negating Connect Four 6 × 6's end-of-game test, far larger than the cache, did not end,
where BCDDs negate it for nothing and solve the tables faster
(bench/journal/2026-11-25-issue-22-round-3.md).

>>> m = OxiddManager()
>>> m.declare(["a", "b"])
>>> m.exact_count(m.or_(m.var("a"), m.var("b")), 2)
3
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable, Iterator, Sequence

from ..errors import BadLimit, Hint, OutOfMemory, QueryError
from ..interrupts import kernel_ends_on_ctrl_c
from ..limits import Limits
from .base import BaseManager, guarded
from .capacity import (
    OXIDD_BYTES_PER_VARIABLE,
    OXIDD_STACK_BYTES_PER_LEVEL,
    OXIDD_THREAD_ADDRESS_SPACE,
    address_space_left,
    default_memory_cap,
    grow_main_stack,
)
from .contract import (
    Assignment,
    Level,
    Node,
    Renaming,
    Substitution,
    VariableBound,
    VariableName,
)
from .transfer import copy_function

__all__ = [
    "OxiddManager",
    "cache_entries",
    "fit_address_space",
    "OXIDD_MAX_VARIABLES",
    "BIG_CACHE_BITS",
    "CACHE_MIN_SECONDS",
]

#: bytes per inner node assumed when sizing the node store from a memory cap
_BYTES_PER_NODE = 32
#: oxidd numbers variables with 32-bit integers (measured: ``add_vars(2**32)`` raises
#: OverflowError). Memory binds first: each declared variable takes one node of the
#: store, and declaring failed with DDMemoryError exactly when the store was full
#: (measured: a 1 MiB cap, 32 768 nodes, failed between 30 000 and 40 000 variables;
#: 4 MiB at 130 000–140 000; 16 MiB at 520 000–530 000).
OXIDD_MAX_VARIABLES = 2**32 - 1
#: apply-cache entries, allocated at once: a larger cache costs every process its memory
#: at start-up, a smaller one made the large ENS Nim fixpoints several times slower
#: (bench/journal/2026-11-23-issue-9-rounds-1-2.md, "Another BDD package: oxidd")
_CACHE = 1 << 22
#: bytes per apply-cache entry (measured: 2^22 entries asked for 44 564 480 bytes)
_BYTES_PER_CACHE_ENTRY = 11
#: relational products run in the calling thread when the manager holds fewer nodes, or
#: their operands together (a GDL engine's successors): a worker thread costs more per
#: call than a product of small BDDs takes
_DIRECT_BELOW, _DIRECT_OPERANDS = 1 << 16, 1 << 12
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
            if cap >= 16 * _BYTES_PER_CACHE_ENTRY * entries:
                return entries
    return _CACHE


def _cache_in_time(cache: int, deadline: float | None) -> int:
    """The cache entries, ``--cache-bits`` or not, that a request may allocate before its
    deadline: half as many until the time left is what :data:`CACHE_MIN_SECONDS` asks for
    them (10 s above 2^22 entries, 60 s above 2^24, and 60 s per 2^26 above 2^26). oxidd
    allocates its cache holding Python's lock, when the deadline cannot act.

    >>> [_cache_in_time(1 << b, time.monotonic() + 30).bit_length() - 1 for b in (26, 25, 23)]
    [24, 24, 23]
    >>> _cache_in_time(1 << 26, time.monotonic() + 5).bit_length() - 1
    22
    >>> [_cache_in_time(1 << 30, t).bit_length() - 1 for t in (None, time.monotonic() + 400)]
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
        1 << 10, min(cache, 1 << max(0, (rest // (4 * _BYTES_PER_CACHE_ENTRY)).bit_length() - 1))
    )
    return cache, min(cap, max(0, rest // 2 - cache * _BYTES_PER_CACHE_ENTRY))


#: no collection while the store holds fewer nodes than this (see collect_garbage)
_GC_FLOOR = 1 << 22


class OxiddManager(BaseManager):
    """The contract on one oxidd BCDD manager (see the module docstring)."""

    #: operands of two oxidd managers abort the process (a Rust panic), so the guard
    #: checks them before every operation, not only after a failure
    checks_operands_first = True
    #: relational products run in a worker thread (oxidd releases the GIL), so that
    #: Ctrl-C and the time limit act while one runs: the engine need not split them
    interruptible_products = True

    def __init__(
        self,
        backend: str = "oxidd",
        *,
        max_memory: int | None = None,
        limits: Limits | None = None,
        space_bits: int | None = None,
    ):
        if backend != "oxidd":
            raise AssertionError(backend)
        try:  # on demand: an optional dependency
            import oxidd.bcdd as ob
            from oxidd.util import BooleanOperator, DDMemoryError
        except ImportError:
            raise QueryError(
                "the oxidd backend needs the oxidd package (pip install oxidd)"
            ) from None
        super().__init__("oxidd", limits)
        self._ob = ob
        self._and_op = BooleanOperator.AND
        self._oom_types = (MemoryError, DDMemoryError)
        self._cap = cap = default_memory_cap() if max_memory is None else int(max_memory)
        cache = cache_entries(space_bits, cap, self.limits.cache_bits, self.limits.work)
        if self.limits.cache_bits is not None and cache * _BYTES_PER_CACHE_ENTRY > cap // 2:
            raise BadLimit(
                (
                    f"an apply cache of 2^{cache.bit_length() - 1} entries takes "
                    f"{cache * _BYTES_PER_CACHE_ENTRY >> 20} MB, more than half the "
                    f"memory cap ({cap >> 20} MB): ask for fewer ",
                    Hint("lower", "cache_bits"),
                )
            )
        cache = _cache_in_time(cache, self.limits.deadline)
        self.threads = self.limits.worker_threads
        # oxidd aborts the process when an allocation or its thread pool fails
        cache, cap = fit_address_space(address_space_left(), self.threads, cache, cap, self.limits)
        self._store = nodes = max(1 << 12, min(cap // _BYTES_PER_NODE, (1 << 32) - 2))
        self.cache_entries = cache
        with kernel_ends_on_ctrl_c():  # it holds Python's lock, for seconds
            self.bdd = ob.BCDDManager(nodes, cache, self.threads)
        self._stack = grow_main_stack()
        self._index: dict[str, int] = {}
        self._vars: dict[str, Node] = {}
        self._cubes: dict[frozenset, Node] = {}
        self._substitutions: dict[tuple, object] = {}
        self._cofactors: dict[tuple, object] = {}  # restrict's, apart: its keys vary more
        self._true = self.bdd.true()
        self._false = self.bdd.false()
        # a quarter of the store: below it, memory does not ask for a collection
        self._gc_floor = max(_GC_FLOOR, self._store // 4)
        self._gc_at = self._gc_floor

    # ------------------------------------------------------------------ errors

    def owns(self, u: Node) -> bool:
        """True when ``u`` is a function of this manager."""
        return isinstance(u, self._ob.BCDDFunction) and u.manager == self.bdd

    def _out_of_memory(self, exc: BaseException) -> bool:
        return isinstance(exc, self._oom_types)

    # ------------------------------------------------------------------ variables

    def variable_bound(self) -> VariableBound:
        """(n, why, by_memory): the stack, the memory cap or oxidd's numbering binds."""
        levels = self._stack // OXIDD_STACK_BYTES_PER_LEVEL
        held = self._cap // OXIDD_BYTES_PER_VARIABLE
        if levels < min(held, self._store, OXIDD_MAX_VARIABLES):
            return (
                levels,
                (
                    f"oxidd's operations recurse once per variable, and the stack "
                    f"holds {levels} levels"
                ),
                False,
            )
        if held < min(self._store, OXIDD_MAX_VARIABLES):
            return (
                held,
                (
                    f"oxidd and the engine take about {OXIDD_BYTES_PER_VARIABLE >> 10} "
                    f"KiB per variable, so a memory cap of {self._cap >> 20} MB holds "
                    f"{held}"
                ),
                True,
            )
        if self._store >= OXIDD_MAX_VARIABLES:
            return OXIDD_MAX_VARIABLES, "oxidd numbers variables with 32-bit integers", False
        return (
            self._store,
            (
                f"oxidd stores each variable as a node, and a memory cap of "
                f"{self._cap >> 20} MB makes a store of {self._store} nodes"
            ),
            True,
        )

    @guarded()
    def _add_variables(self, names: list[VariableName]) -> None:
        self.bdd.add_named_vars(names)
        for n in names:
            index = self.bdd.name_to_var(n)
            if index is None:  # oxidd knows every name just added
                raise AssertionError(n)
            self._index[n] = index
            self._vars[n] = self.bdd.var(index)

    @guarded()
    def _set_order(self, names: list[VariableName]) -> None:
        self.bdd.set_var_order([self._index[n] for n in names])

    def _root_var(self, u) -> str:
        """The variable of u's root node (one call: the support is a walk in Python)."""
        return self.bdd.var_name(u.node_var())

    def branch(self, u):
        """(v, u[v := false], u[v := true]) for v the variable of u's root, None for a
        constant: the root node's own cofactors (no substitution)."""
        if u == self._true or u == self._false:
            return None
        self.check(u)
        high, low = u.cofactors()
        return self._root_var(u), low, high

    def level(self, name: VariableName) -> Level:
        """The level of variable ``name``."""
        return self.bdd.var_to_level(self._index[name])

    def var(self, name: VariableName) -> Node:
        """The node of variable ``name`` (made once, when declared)."""
        return self._vars[name]

    # ------------------------------------------------------------------ boolean algebra

    @property
    def true(self) -> Node:
        """The constant true."""
        return self._true

    @property
    def false(self) -> Node:
        """The constant false."""
        return self._false

    @guarded(1)
    def not_(self, u: Node) -> Node:
        """¬u (a complement edge: nothing allocated)."""
        return ~u

    @guarded(2)
    def and_(self, u: Node, v: Node) -> Node:
        """u ∧ v."""
        return u & v

    @guarded(2)
    def or_(self, u: Node, v: Node) -> Node:
        """u ∨ v."""
        return u | v

    @guarded(2)
    def diff(self, u: Node, v: Node) -> Node:
        """u ∧ ¬v."""
        return u & ~v

    @guarded(2)
    def xor(self, u: Node, v: Node) -> Node:
        """u ⊕ v."""
        return u ^ v

    @guarded(2)
    def implies(self, u: Node, v: Node) -> Node:
        """u → v."""
        return ~u | v

    @guarded(3)
    def ite(self, c: Node, u: Node, v: Node) -> Node:
        """if c then u else v."""
        return c.ite(u, v)

    def cube(self, assignment: Assignment) -> Node:
        """The conjunction of literals ``name`` (True) / ``¬name`` (False)."""
        return self.conj(self._vars[n] if b else ~self._vars[n] for n, b in assignment.items())

    # ------------------------------------------------------------------ quantifiers, renaming

    def _cube_of(self, qvars: Iterable[str]):
        key = frozenset(qvars)
        hit = self._cubes.get(key)
        if hit is None:
            hit = self.conj(self._vars[n] for n in sorted(key, key=self.level))
            if len(self._cubes) > 64:
                self._cubes.clear()
            self._cubes[key] = hit
        return hit

    @guarded(1)
    def exist(self, u: Node, qvars: Iterable[VariableName]) -> Node:
        """∃qvars. u."""
        return u.exists(self._cube_of(qvars))

    @guarded(1)
    def forall(self, u: Node, qvars: Iterable[VariableName]) -> Node:
        """∀qvars. u."""
        return u.forall(self._cube_of(qvars))

    @guarded(2)
    def and_exists(self, u: Node, v: Node, qvars: Iterable[VariableName]) -> Node:
        """∃qvars. (u ∧ v), fused (``apply_exists``); in a worker thread when the manager
        and the operands are large (u, the relation in every caller, counted first)."""
        q = self._cube_of(qvars)
        if self.bdd.num_inner_nodes() >= _DIRECT_BELOW:
            left = _DIRECT_OPERANDS - u.node_count()
            if left <= 0 or v.node_count() >= left:
                return self._in_worker(lambda: u.apply_exists(self._and_op, v, q))
        return u.apply_exists(self._and_op, v, q)

    def _in_worker(self, fn: Callable[[], Node]) -> Node:
        """fn() computed in a daemon thread while this one waits, checking the limits
        every 0.1 s: a signal handler (Ctrl-C, the alarm of ``--timeout``) or
        :meth:`Limits.check` raises here at once. The abandoned call runs to its end
        in its thread, its result dropped (oxidd's operations hold the manager shared;
        a collection waits for them)."""
        box: list = []
        done = threading.Event()

        def work():
            try:
                box.append((True, fn()))
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                box.append((False, e))
            finally:
                done.set()

        threading.Thread(target=work, daemon=True, name="oxidd product").start()
        while not done.wait(0.1):
            self.limits.check()
        ok, value = box.pop()
        if not ok:
            try:
                raise value
            finally:
                del value  # the traceback holds this frame: no cycle error → frame → error
        return value

    @guarded(1)
    def rename(self, u: Node, mapping: Renaming) -> Node:
        """u[x := mapping[x]], through a prepared substitution (cached)."""
        if not mapping:
            return self.check(u)
        key = tuple(sorted(mapping.items()))
        sub = self._substitutions.get(key)
        if sub is None:
            sub = self._ob.BCDDFunction.make_substitution(
                [(self._index[x], self._vars[y]) for x, y in key]
            )
            if len(self._substitutions) > 64:
                self._substitutions.clear()
            self._substitutions[key] = sub
        return u.substitute(sub)

    @guarded(1)
    def compose(self, u: Node, mapping: Substitution) -> Node:
        """u[x := mapping[x]] for functions mapping[x], simultaneously."""
        if not mapping:
            return self.check(u)
        sub = self._ob.BCDDFunction.make_substitution(
            [(self._index[x], self.check(f)) for x, f in mapping.items()]
        )
        return u.substitute(sub)

    @guarded(1)
    def restrict(self, u: Node, assignment: Assignment) -> Node:
        """The cofactor u[x := assignment[x]], through a prepared substitution (cached
        apart from :meth:`rename`'s, whose few renamings its many cofactors would evict:
        the same cofactor of many functions builds it once)."""
        if not assignment:
            return self.check(u)
        key = tuple(sorted(assignment.items()))
        sub = self._cofactors.get(key)
        if sub is None:
            sub = self._ob.BCDDFunction.make_substitution(
                [(self._index[x], self._true if b else self._false) for x, b in key]
            )
            if len(self._cofactors) > 64:
                self._cofactors.clear()
            self._cofactors[key] = sub
        return u.substitute(sub)

    def _walk(self, roots) -> tuple[set, set]:
        """(the functions met walking down from ``roots``, their root variables): with
        complement edges f and ¬f share one node, so a node is met at most twice."""
        seen: set = set()
        found: set = set()
        stack = list(roots)
        while stack:
            f = stack.pop()
            v = f.node_var()
            if v is not None and f not in seen:
                seen.add(f)
                found.add(v)
                stack += f.cofactors()
        return seen, found

    def support(self, u: Node) -> set[VariableName]:
        """The variables ``u`` depends on (a walk in Python)."""
        self.check(u)
        return {self.bdd.var_name(v) for v in self._walk([u])[1]}

    # ------------------------------------------------------------------ counting, enumeration

    def exact_count(self, u: Node, nvars: int) -> int:
        """The exact number of models of ``u`` over ``nvars`` variables (oxidd counts exactly)."""
        self.check(u)
        if u == self._false:
            return 0
        return int(u.sat_count(nvars))

    def assignments(
        self, u: Node, bits: Sequence[VariableName]
    ) -> Iterator[dict[VariableName, bool]]:
        """Every assignment to exactly ``bits`` satisfying ``u``, each once."""
        self.check(u)
        care = list(bits)
        extra = self.support(u) - set(care)
        if extra:
            raise AssertionError(("support outside the enumerated bits", sorted(extra)))
        return self._enumerate(u, care)

    def _enumerate(self, u, care: list[str]) -> Iterator[dict[str, bool]]:
        # pick a cube, yield its expansion over the care bits, remove it, again
        rest = u
        while rest != self._false:
            cube = rest.pick_cube()
            fixed = {n: cube[self._index[n]] for n in care}
            free = [n for n, b in fixed.items() if b is None]
            for k in range(1 << len(free)):
                a = dict(fixed)
                for i, n in enumerate(free):
                    a[n] = bool((k >> i) & 1)
                yield a
            rest = self.diff(rest, self.cube({n: b for n, b in fixed.items() if b is not None}))

    # ------------------------------------------------------------------ sizes, housekeeping

    def node_count(self) -> int:
        """Inner nodes held by the whole manager."""
        return int(self.bdd.num_inner_nodes())

    def size(self, u: Node) -> int:
        """Number of BDD nodes of ``u``."""
        # inner nodes and the one terminal (complement edges), as CUDD counts
        return int(u.node_count())

    def shared_size(self, nodes: Sequence[Node]) -> int:
        """Number of distinct BDD nodes reachable from ``nodes``."""
        nodes = list(nodes)
        met = self._walk(nodes)[0]
        return len({frozenset((f, ~f)) for f in met}) + (1 if nodes else 0)

    def collect_garbage(self, now: bool = False) -> None:
        """Free dead nodes, only when memory asks for it (see below), or ``now``."""
        # The engine offers one at every fixpoint step and layer. A collection also
        # empties oxidd's apply cache, whose results the next products recompute (ENS
        # Nim and Connect Four ran slower when collecting often; figures in bench/journal,
        # issue 22's first rounds), so it runs only
        # once the store holds twice the nodes that survived the last one and a quarter
        # of the nodes the memory cap allows (at least 2^22): memory decides.
        if now or self.bdd.num_inner_nodes() > self._gc_at:
            self.bdd.gc()
            self._gc_at = max(self._gc_floor, 2 * self.bdd.num_inner_nodes())

    def copy_from(self, u: Node) -> Node:
        """The node of this manager with ``u``'s function: ``u`` of any backend over
        the same variable names (dd nodes by their ``var``/``low``/``high``)."""
        if self.owns(u):
            return u
        return copy_function(u, self)
