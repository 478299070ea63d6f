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
from typing import Callable, Iterable, Iterator, Sequence

from ..errors import BadLimit, Hint, QueryError
from ..interrupts import kernel_ends_on_ctrl_c
from ..limits import Limits
from .base import BaseManager, guarded
from .capacity import (
    OXIDD_BYTES_PER_VARIABLE,
    OXIDD_STACK_BYTES_PER_LEVEL,
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
from .oxidd_sizing import (
    BYTES_PER_CACHE_ENTRY,
    cache_in_time,
    cache_entries,
    fit_address_space,
)
from .transfer import copy_function

__all__ = ["FLOAT_COUNT_MAX_VARIABLES", "OxiddManager", "OXIDD_MAX_VARIABLES"]

#: bytes per inner node assumed when sizing the node store from a memory cap
_BYTES_PER_NODE = 32
#: oxidd numbers variables with 32-bit integers (measured: ``add_vars(2**32)`` raises
#: OverflowError). Memory binds first: each declared variable takes one node of the
#: store, and declaring failed with DDMemoryError exactly when the store was full
#: (measured: a 1 MiB cap, 32 768 nodes, failed between 30 000 and 40 000 variables;
#: 4 MiB at 130 000–140 000; 16 MiB at 520 000–530 000).
OXIDD_MAX_VARIABLES = 2**32 - 1
#: relational products run in the calling thread when the manager holds fewer nodes, or
#: their operands together (a GDL engine's successors): a worker thread costs more per
#: call than a product of small BDDs takes
_DIRECT_BELOW, _DIRECT_OPERANDS = 1 << 16, 1 << 12


#: counts over at most this many variables are taken in floating point (exact_count):
#: a double holds every integer up to 2^53 exactly
FLOAT_COUNT_MAX_VARIABLES = 52

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
        if self.limits.cache_bits is not None and cache * BYTES_PER_CACHE_ENTRY > cap // 2:
            raise BadLimit(
                (
                    f"an apply cache of 2^{cache.bit_length() - 1} entries takes "
                    f"{cache * BYTES_PER_CACHE_ENTRY >> 20} MB, more than half the "
                    f"memory cap ({cap >> 20} MB): ask for fewer ",
                    Hint("lower", "cache_bits"),
                )
            )
        cache = cache_in_time(cache, self.limits.deadline)
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
        self._cube_orders: dict[tuple, list[VariableName]] = {}  # cube's, by levels
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
        self._cube_orders.clear()

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

    @guarded()
    def cube(self, assignment: Assignment) -> Node:
        """The conjunction of literals ``name`` (True) / ``¬name`` (False), built from the
        lowest level up: each step adds one node above the rest (no guarded call per literal)."""
        key = tuple(assignment)
        order = self._cube_orders.get(key)
        if order is None:  # an encoder's cubes name the same bits, in the same order
            if len(self._cube_orders) > 256:
                self._cube_orders.clear()
            order = self._cube_orders[key] = sorted(key, key=self.level, reverse=True)
        u = self._true
        for n in order:
            u = self._vars[n] & u if assignment[n] else ~self._vars[n] & u
        return u

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
        """The exact number of models of ``u`` over ``nvars`` variables: oxidd's count
        in doubles up to :data:`FLOAT_COUNT_MAX_VARIABLES` variables, else in big integers.

        Why the doubles are exact: the count of a node is c · 2^s, s the levels below it
        outside the support and c ≤ 2^n, n ≤ ``nvars`` the support's variables below it;
        sums, complements (2^L − x) and scalings by powers of two of such numbers are such
        numbers, and a double holds c · 2^s exactly for c ≤ 2^53. The doubles are
        faster (bench/README.md, Connect Four, round 6).

        >>> m = OxiddManager()
        >>> m.declare([f"x{i}" for i in range(60)])
        >>> u = m.or_(m.var("x0"), m.var("x51"))
        >>> m.exact_count(u, 52), m.exact_count(u, 60) == 3 * 2**58
        (3377699720527872, True)
        """
        self.check(u)
        if u == self._false:
            return 0
        if nvars <= FLOAT_COUNT_MAX_VARIABLES:
            return int(u.sat_count_float(nvars))
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
