"""The dd implementation of the BDD manager contract: CUDD (``dd.cudd``) or autoref.

:class:`DdManager` keeps :class:`symbolic.bdd.contract.Manager` on one ``dd`` manager,
hiding the differences between ``dd.cudd`` and ``dd.autoref`` that matter to the
symbolic engine (see ``notes-dd.md``): fused relational product, exact model counting,
dynamic reordering off, memory exhaustion reported as
:class:`symbolic.errors.OutOfMemory`, and a check against mixing nodes of two managers
(:class:`symbolic.errors.EngineMismatch`). What every backend shares is
:class:`~symbolic.bdd.base.BaseManager`; the oxidd sibling is
:class:`~symbolic.bdd.oxidd_backend.OxiddManager`.

A node ("function") is whatever the backend returns; callers treat it as an
opaque value and combine nodes only through the manager's methods.

>>> m = DdManager("autoref")
>>> m.declare(["a", "b"])
>>> m.exact_count(m.or_(m.var("a"), m.var("b")), 2)
3
"""

from __future__ import annotations

import gc
import importlib
import sys
import time
import warnings
from typing import Iterable, Iterator, Sequence

from ..errors import OutOfMemory, QueryError
from ..limits import Limits
from . import capacity, cudd_clock
from .base import BaseManager, guarded
from .capacity import AUTOREF_BYTES_PER_NODE, default_memory_cap
from .contract import (
    BACKENDS,
    Assignment,
    Level,
    Node,
    Renaming,
    Substitution,
    VariableBound,
    VariableName,
)
from .transfer import copy_function

__all__ = ["BACKENDS", "DD_BACKENDS", "DdManager", "default_memory_cap", "unknown_backend"]

#: the backends of this class (oxidd is :class:`symbolic.bdd.oxidd_backend.OxiddManager`;
#: :func:`symbolic.bdd.managers.make_manager` picks the class by name)
DD_BACKENDS = ("cudd", "autoref")

# CUDD counts with doubles. Its counting recursion pushes complement edges
# down to the constants, so every intermediate value is a sub-count scaled by
# a power of two, never larger (in significant bits) than the final count:
# a result below 2**50 is exact. Anything larger is recounted exactly.
_FLOAT_EXACT_BELOW = 2**50


def _without_networkx(module: str):
    """Import ``module`` of dd with networkx held off: dd's ``_utils`` imports networkx
    when it loads, for its ``to_nx`` export only (which imports networkx again when
    called), and loading networkx is a large part of every command's start-up. A
    ``None`` in ``sys.modules`` makes that import fail (dd catches it); it is removed
    at once, so networkx stays importable (the pictures use it)."""
    held = "networkx" not in sys.modules
    if held:
        sys.modules["networkx"] = None  # type: ignore[assignment]
    try:
        return importlib.import_module(module)
    finally:
        if held and sys.modules.get("networkx", 0) is None:
            del sys.modules["networkx"]


_copy = _without_networkx("dd._copy")


# dd's managers protest when the cycle collector frees one in the same batch as
# some of its nodes (autoref: AssertionError in ``__del__``; cudd: "Still n nodes
# referenced" and a leak). That happens whenever an exception traceback keeps
# frames that hold nodes. So every backend manager stays reachable from this
# list until nothing else refers to it: its nodes are always freed first, and
# the manager itself goes by plain reference counting, after them.
_LIVE: list = []

#: the slots of a new CUDD manager's computed table (it grows from there)
CUDD_INITIAL_CACHE = 2**14


def _release_unused(*_ignored) -> None:
    """Drop the managers that no node, wrapper or :class:`DdManager` refers to any more."""
    if not _LIVE:
        return
    keep = []
    for bdd in _LIVE:
        # 3 references = this list, the loop variable, getrefcount's argument.
        # An autoref manager's inner BDD is also referenced by each of its
        # nodes: 3 = the wrapper's attribute, ``inner``, the argument.
        inner = getattr(bdd, "_bdd", None)
        if sys.getrefcount(bdd) > 3 or (inner is not None and sys.getrefcount(inner) > 3):
            keep.append(bdd)
        inner = None
    if len(keep) != len(_LIVE):
        _LIVE[:] = keep


gc.callbacks.append(lambda phase, info: _release_unused() if phase == "stop" else None)


def unknown_backend(backend) -> str:
    """The message for a backend name that is not one of :data:`BACKENDS`."""
    if backend in BACKENDS:
        return (
            f"the {backend} backend is not a dd manager: make it with "
            f"symbolic.bdd.make_manager({backend!r})"
        )
    return f"unknown BDD backend {backend!r}: the choices are {list(BACKENDS)}"


def _clock(bdd, cap: int, limits: Limits) -> int | None:
    """CUDD's own time limit (:mod:`.cudd_clock`), set when ``limits`` has a deadline: a
    second past it, so that the cooperative checks and the watchdog, which say where
    the run stopped, act first whenever CUDD lets them."""
    return None if limits.deadline is None else cudd_clock.attach(bdd, cap, _past_deadline(limits))


def _past_deadline(limits: Limits) -> float:
    """Seconds from now to a second past the deadline of ``limits`` (which has one)."""
    assert limits.deadline is not None, limits
    return limits.deadline - time.monotonic() + 1.0


def _is_oom(exc: BaseException) -> bool:
    """True when ``exc`` is how ``dd.cudd`` reports that CUDD ran out of memory.

    CUDD returns a NULL node; dd turns that into ``ValueError('... NULL
    pointer')`` in most wrappers, ``RuntimeError('CUDD appears to have run
    out of memory ...')`` in ``apply`` and ``count``, and ``RuntimeError('failed
    to add var "x"')`` when a new variable's tables cannot be allocated.
    """
    text = str(exc)
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, ValueError):
        return "NULL" in text
    if isinstance(exc, RuntimeError):
        return "out of mem" in text.lower() or text.startswith("failed to add var")
    return False


def _declaring(self, names) -> str:
    """What a failed declaration was doing, for its :class:`OutOfMemory` message."""
    return f"declaring {len(names)} BDD variables in the {self.backend} manager"


class DdManager(BaseManager):
    """The contract on one ``dd`` manager of backend ``"cudd"`` (fast, default) or
    ``"autoref"`` (pure Python); oxidd's sibling is made by
    :func:`symbolic.bdd.managers.make_manager`.

    Variables are declared once, in the order given: level i is the i-th name.
    Dynamic reordering is switched off so the order chosen by the encoder
    stays (it is what decides speed). ``max_memory`` (bytes) caps CUDD's memory
    (default: :func:`default_memory_cap`); exceeding it raises :class:`OutOfMemory`,
    whose message names the stage of ``limits`` (a :class:`symbolic.limits.Limits`).
    """

    def __init__(
        self, backend: str = "cudd", *, max_memory: int | None = None, limits: Limits | None = None
    ):
        if backend not in DD_BACKENDS:
            raise QueryError(unknown_backend(backend))
        super().__init__(backend, limits)
        self._cap = cap = default_memory_cap() if max_memory is None else int(max_memory)
        # autoref's node table, capped here (CUDD caps itself): None for CUDD
        self._node_cap: int | None = None
        if backend == "cudd":
            # imported on demand: dd.cudd is a C extension that a dd installed
            # without CUDD lacks, and autoref must work without it
            import dd.cudd as mod

            self._mod = mod
            # a small first cache, which CUDD grows as its hit rate warrants: dd's
            # default (2**18 slots) took 13 ms to allocate for each manager, most of
            # the cost of a small game (bench/README: manager start-up)
            self.bdd = mod.BDD(initial_cache_size=CUDD_INITIAL_CACHE)
            self.bdd.configure(reordering=False, max_memory=cap)
            self._clock = _clock(self.bdd, cap, self.limits)
        else:
            import dd.autoref as mod  # on demand, like dd.cudd above

            self._mod = mod
            self.bdd = mod.BDD()
            self.bdd.configure(reordering=False)
            self._node_cap = capacity.autoref_node_cap(cap)
        self._cudd = backend == "cudd"
        if not self._cudd:
            self._clock = None
        _release_unused()
        _LIVE.append(self.bdd)
        self._true = self.bdd.true
        self._false = self.bdd.false

    # ------------------------------------------------------------------ errors

    def owns(self, u: Node) -> bool:
        """True when ``u`` is a node of this manager."""
        return getattr(u, "bdd", None) is self.bdd

    def _out_of_memory(self, exc: BaseException) -> bool:
        return _is_oom(exc)

    def cpu_limit(self, seconds: float | None) -> bool:
        """CUDD's own time limit (:mod:`.cudd_clock`) ``seconds`` of CPU from now, or
        the deadline's again (None); a manager made inside a budget outlives it."""
        if not self._cudd:
            return False
        at = [] if self.limits.deadline is None else [_past_deadline(self.limits)]
        at += [] if seconds is None else [seconds]
        # no deadline and no budget: a limit out of reach (CUDD's stays set once set)
        self._clock = cudd_clock.attach(self.bdd, self._cap, min(at, default=1e9))
        return self._clock is not None

    def _sift_growth(self, ratio: float) -> bool:
        """CUDD's ``max_growth`` (:meth:`.BaseManager.sift_growth`); autoref has none."""
        if not self._cudd:
            return False
        self.bdd.configure(max_growth=float(ratio))
        return True

    def reordering_seconds(self) -> float:
        """CUDD's count of its reorderings' time (:meth:`.BaseManager.reordering_seconds`);
        autoref counts none."""
        if not self._cudd:
            return 0.0
        with warnings.catch_warnings():  # dd's note on a key read here ('mem')
            warnings.simplefilter("ignore", UserWarning)
            stats = self.bdd.statistics(exact_node_count=False)
        return float(stats["reordering_time"])

    def _translate(self, exc: BaseException, nodes, what: str | None):
        """The time limit (or the budget that ended) when CUDD stopped on its own
        (:mod:`.cudd_clock`), else as every backend translates its failures."""
        if self._cudd and self._clock is not None and cudd_clock.expired(self._clock):
            deadline, budget = self.limits.deadline, self.limits.budget_left()
            # CUDD's clock and Python's count CPU time a little differently
            if budget is not None and (deadline is None or time.monotonic() < deadline):
                return budget[1]()
            return self.limits.timed_out()
        return super()._translate(exc, nodes, what)

    def _made(self, u):
        """``u``, after holding autoref's node table to its cap (CUDD caps itself): past
        it, dead nodes are collected, and :class:`OutOfMemory` is raised if the live
        ones still exceed it. Called after every operation that allocates."""
        cap = self._node_cap
        if cap is not None and len(self.bdd) > cap:
            self.bdd.collect_garbage()
            if len(self.bdd) > cap:
                raise OutOfMemory(
                    self.limits.out_of_memory(
                        f"{len(self.bdd)} BDD nodes in the autoref manager, about "
                        f"{AUTOREF_BYTES_PER_NODE} bytes each, over its cap of {cap}"
                    ),
                    stage=self.limits.where(),
                )
        return u

    # ------------------------------------------------------------------ variables

    def variable_bound(self) -> VariableBound:
        """(n, why, by_memory): at most n variables fit in this manager, the reason in
        words, and whether the memory cap is what binds (a larger cap would hold more)."""
        if self._cudd:
            return capacity.cudd_variable_bound(self._cap)
        return capacity.autoref_variable_bound(self._cap)

    @guarded(what=_declaring)
    def _add_variables(self, names: list[VariableName]) -> None:
        self.bdd.declare(*names)
        self._made(None)

    @guarded()
    def _set_order(self, names: list[VariableName]) -> None:
        try:
            self.bdd.reorder({n: i for i, n in enumerate(names)})
        finally:
            self.bdd.configure(reordering=False)

    def _root_var(self, u) -> str:
        """The variable of u's root, as dd keeps it."""
        return u.var

    def _dynamic(self, on: bool) -> bool:
        """CUDD's group sifting or autoref's sifting, on or off."""
        self.bdd.configure(reordering=on)
        return True

    def _sift(self) -> bool:
        """CUDD's group sifting or autoref's sifting, once."""
        self.bdd.reorder(None)
        return True

    def level(self, name: VariableName) -> Level:
        """The level (position in the order) of variable ``name``."""
        return self.bdd.level_of_var(name)

    def var(self, name: VariableName) -> Node:
        """The node of variable ``name``."""
        return self.bdd.var(name)

    # ------------------------------------------------------------------ boolean algebra

    @property
    def true(self) -> Node:
        """The constant true."""
        return self._true

    @property
    def false(self) -> Node:
        """The constant false."""
        return self._false

    def not_(self, u: Node) -> Node:
        """¬u."""
        if not self.owns(u):  # complement edges: never allocates nor fails, so checked here
            raise self._mismatch(u)
        return ~u

    @guarded(2)
    def and_(self, u: Node, v: Node) -> Node:
        """u ∧ v."""
        return self._made(u & v)

    @guarded(2)
    def or_(self, u: Node, v: Node) -> Node:
        """u ∨ v."""
        return self._made(u | v)

    @guarded(2)
    def diff(self, u: Node, v: Node) -> Node:
        """u ∧ ¬v."""
        return self._made(u & ~v)

    @guarded(2)
    def xor(self, u: Node, v: Node) -> Node:
        """u ⊕ v."""
        return self._made(self.bdd.apply("xor", u, v))

    @guarded(2)
    def implies(self, u: Node, v: Node) -> Node:
        """u → v."""
        return self._made(~u | v)

    @guarded(3)
    def ite(self, c: Node, u: Node, v: Node) -> Node:
        """if c then u else v."""
        return self._made(self.bdd.ite(c, u, v))

    @guarded()
    def cube(self, assignment: Assignment) -> Node:
        """The conjunction of literals ``name`` (True) / ``¬name`` (False)."""
        return self._made(self.bdd.cube(dict(assignment)))

    # ------------------------------------------------------------------ quantifiers, renaming

    @guarded(1)
    def exist(self, u: Node, qvars: Iterable[VariableName]) -> Node:
        """∃qvars. u."""
        return self._made(self.bdd.exist(qvars, u))

    @guarded(1)
    def forall(self, u: Node, qvars: Iterable[VariableName]) -> Node:
        """∀qvars. u."""
        return self._made(self.bdd.forall(qvars, u))

    @guarded(2)
    def and_exists(self, u: Node, v: Node, qvars: Iterable[VariableName]) -> Node:
        """The relational product ∃qvars. (u ∧ v).

        CUDD fuses it (``Cudd_bddAndAbstract``); autoref has no correct fused
        form (its ``preimage`` needs adjacent renamed pairs), so it is ``∧`` then ``∃``.
        """
        if self._cudd:
            return self._mod.and_exists(u, v, qvars)
        return self._made(self.bdd.exist(qvars, u & v))

    @guarded(1)
    def rename(self, u: Node, mapping: Renaming) -> Node:
        """Substitute variables for variables: u[x := mapping[x]] (simultaneous)."""
        if not mapping:  # dd.cudd warns on an empty substitution (spaces without slots)
            return self.check(u)
        return self._made(self.bdd.let(mapping, u))

    @guarded(1)
    def restrict(self, u: Node, assignment: Assignment) -> Node:
        """The cofactor u[x := assignment[x]]."""
        if not assignment:
            return self.check(u)
        return self._made(self.bdd.let(dict(assignment), u))

    @guarded(1)
    def compose(self, u: Node, mapping: Substitution) -> Node:
        """Substitute functions for variables, simultaneously: u[x := mapping[x]].

        The pre-image of a set under a deterministic move whose successor is
        x' = σ(x) is X(σ(x)): one composition, with no primed variables or frame
        (CUDD's ``Cudd_bddVectorCompose`` through ``let``).

        >>> m = DdManager("autoref")
        >>> m.declare(["a", "b"])
        >>> u = m.compose(m.var("a"), {"a": m.not_(m.var("b"))})
        >>> m.exact_count(u, 2), m.support(u)
        (2, {'b'})
        """
        if not mapping:
            return self.check(u)
        for v in mapping.values():
            self.check(v)
        return self._made(self.bdd.let(dict(mapping), u))

    def support(self, u: Node) -> set[VariableName]:
        """The variables ``u`` depends on."""
        return set(self.bdd.support(u))

    # ------------------------------------------------------------------ counting, enumeration

    def exact_count(self, u: Node, nvars: int) -> int:
        """|{a ∈ B^nvars | u(a)}|: the exact number of models of ``u`` over ``nvars``
        variables that include its support, as a Python int."""
        self.check(u)
        if u == self._false:
            return 0
        if not self._cudd:
            return int(self.bdd.count(u, nvars))
        try:
            r = self.bdd.count(u, nvars)
        except RuntimeError:
            # beyond 2**1024 the double overflows, and dd then reports "CUDD out of
            # memory" too: the exact traversal below allocates nothing in CUDD
            r = None
        if r is not None and r < _FLOAT_EXACT_BELOW:
            return int(r)
        return self._count_cudd_exactly(u, nvars)

    def _count_cudd_exactly(self, u, nvars: int) -> int:
        """Exact model count by a memoized traversal of the CUDD node DAG.

        With levels of the support ranked 0..k-1 (constants at rank k),
        f(e) = models of edge e over the support variables of rank ≥ rank(e):
        f(1) = 1, f(0) = 0, f(e) = Σ_{c ∈ {hi, lo}} f(c)·2^(rank(c) − rank(e) − 1),
        where the children of a complemented edge are complemented (CUDD stores
        the regular node). The total is f(u)·2^rank(u)·2^(nvars − k).
        """
        bdd = self.bdd
        levels = sorted(bdd.level_of_var(v) for v in bdd.support(u))
        k = len(levels)
        if nvars < k:
            raise AssertionError(("nvars below the support size", nvars, k))
        rank = {lv: i for i, lv in enumerate(levels)}
        true = self._true
        memo: dict[int, tuple[int, int]] = {}  # int(edge) -> (models, rank)

        def leaf(e):
            """(1 or 0, rank k) for the constants."""
            return (1 if e == true else 0, k)

        def children(e):
            """The (high, low) edges of edge e, complemented with it."""
            hi, lo = e.high, e.low
            if e.negated:
                hi, lo = ~hi, ~lo
            return hi, lo

        # Iterative post-order: the DAG can be deeper than Python's recursion limit.
        stack = [u]
        while stack:
            e = stack[-1]
            key = int(e)
            if key in memo:
                stack.pop()
                continue
            if e.var is None:
                memo[key] = leaf(e)
                stack.pop()
                continue
            hi, lo = children(e)
            pending = [c for c in (hi, lo) if int(c) not in memo]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            r = rank[e.level]
            fh, rh = memo[int(hi)]
            fl, rl = memo[int(lo)]
            memo[key] = ((fh << (rh - r - 1)) + (fl << (rl - r - 1)), r)
        f, r = memo[int(u)]
        return (f << r) << (nvars - k)

    def assignments(
        self, u: Node, bits: Sequence[VariableName]
    ) -> Iterator[dict[VariableName, bool]]:
        """Every assignment to exactly ``bits`` (which must include the support of ``u``)
        that satisfies ``u``, each once, in no particular order."""
        self.check(u)
        care = set(bits)
        extra = self.support(u) - care
        if extra:
            raise AssertionError(("support outside the enumerated bits", sorted(extra)))
        # Reordering is off for good in this wrapper, so an abandoned cudd
        # pick_iter (which disables reordering) cannot change anything.
        return self.bdd.pick_iter(u, care_vars=care)

    # ------------------------------------------------------------------ sizes, housekeeping

    def node_count(self) -> int:
        """Nodes held by the whole manager (live and not yet collected)."""
        if self._cudd:
            with warnings.catch_warnings():  # dd warns about a unit change of another key
                warnings.simplefilter("ignore")
                return int(self.bdd.statistics()["n_nodes"])
        return len(self.bdd)

    def size(self, u: Node) -> int:
        """Number of BDD nodes of ``u`` (its DAG size)."""
        return len(u)

    def shared_size(self, nodes: Sequence[Node]) -> int:
        """Number of distinct BDD nodes reachable from ``nodes`` (sharing counted once)."""
        nodes = list(nodes)
        if not nodes:
            return 0
        if self._cudd:
            return self._mod.count_nodes(nodes)
        seen: set[int] = set()
        stack = [abs(n.node) for n in nodes]
        low = self.bdd._bdd._succ  # autoref: level, low, high of each node of the base BDD
        while stack:
            z = stack.pop()
            if z in seen:
                continue
            seen.add(z)
            _, lo, hi = low[z]
            if lo is not None:
                stack.append(abs(lo))
                stack.append(abs(hi))
        return len(seen)

    def collect_garbage(self, now: bool = False) -> None:
        """Free dead nodes (autoref needs it in long fixpoints; CUDD does it itself,
        ``now`` too: dd.cudd offers no call for it)."""
        if not self._cudd:
            self.bdd.collect_garbage()

    @guarded()
    def copy_from(self, u: Node) -> Node:
        """The node of this manager with the same function as ``u`` (a node of
        another manager that declares the same variable names)."""
        if self.owns(u):
            return u
        if not hasattr(u, "bdd"):  # an oxidd node: rebuilt by Shannon expansion
            return copy_function(u, self)
        return self._made(_copy.copy_bdd(u, self.bdd))
