"""What the BDD backends share: the parts of the contract written on its primitives.

:class:`BaseManager` holds no backend's code. It keeps the declared variables (level i is
the i-th name, checked against the backend's bound before declaring any), derives the
operations that need no backend of their own (constants tests, ↔, the dual relational
product, balanced conjunctions and disjunctions), and owns the one error guard:
:func:`guarded`, which every backend operation goes through, so that a backend's failure
reaches the caller as :class:`~symbolic.errors.OutOfMemory` or
:class:`~symbolic.errors.EngineMismatch` in the same words on every backend. A backend
(:class:`~symbolic.bdd.backend.DdManager`, :class:`~symbolic.bdd.oxidd_backend.OxiddManager`)
implements the abstract primitives below and the rest of
:class:`~symbolic.bdd.contract.Manager`.

>>> from symbolic.bdd.managers import make_manager
>>> m = make_manager("autoref")
>>> m.declare(["a", "b"])
>>> m.is_true(m.conj([m.iff(m.var("a"), m.var("a")), m.true]))
True
"""

from __future__ import annotations

import abc
import contextlib
import functools
from typing import Any, Callable, Iterable, Sequence, TypeVar, cast

from ..errors import EngineMismatch, Hint, OutOfMemory, SymbolicError, TooManyVariables
from ..limits import Limits
from .contract import Level, Node, VariableBound, VariableName

__all__ = ["BaseManager", "guarded"]

#: a manager method
F = TypeVar("F", bound=Callable[..., Any])


def guarded(operands: int = 0, what: Callable[..., str] | None = None) -> Callable[[F], F]:
    """Decorate a manager method (one to three positional arguments, the first
    ``operands`` of them nodes) with the error guard: a failure inside is raised as
    :class:`OutOfMemory` when the backend says memory ran out (naming ``what(self,
    first argument)`` if given, else the manager's node count),
    as :class:`EngineMismatch` when an operand is not a node of this manager, else as it
    came; :class:`~symbolic.errors.SymbolicError` passes unchanged. A backend whose mixed
    operands cannot fail cleanly (:attr:`BaseManager.checks_operands_first`) has them
    checked before the call.

    >>> from symbolic.bdd.managers import make_manager
    >>> a, b = make_manager("autoref"), make_manager("autoref")
    >>> a.declare(["x"]); b.declare(["x"])
    >>> try:
    ...     a.or_(a.var("x"), b.var("x"))
    ... except EngineMismatch as e:
    ...     print(type(e).__name__, str(e).split(" (")[0])
    EngineMismatch a BDD node of another manager
    """

    def decorate(method: F) -> F:
        # Up to three positional arguments, no *args: a call through ``*args`` cost
        # the smallest operations more than the operation itself.
        @functools.wraps(method)
        def guarded_method(self, a, b=_ABSENT, c=_ABSENT):
            if self.checks_operands_first:
                for u in (a, b, c)[:operands]:
                    self.check(u)
            try:
                if b is _ABSENT:
                    return method(self, a)
                if c is _ABSENT:
                    return method(self, a, b)
                return method(self, a, b, c)
            except SymbolicError:
                raise
            except Exception as e:  # noqa: BLE001 - each backend has its own error types
                error = self._translate(
                    e, (a, b, c)[:operands], None if what is None else what(self, a)
                )
                if error is None:
                    raise
                raise error from e

        # it takes the method's arguments (one to three positional ones) and gives its result
        return cast(F, guarded_method)

    return decorate


#: an argument not given to a guarded method
_ABSENT = object()


class BaseManager(abc.ABC):
    """The part of every manager that is the same on each backend (see the module)."""

    #: False: a long backend call cannot be interrupted, so the engine splits slow
    #: relational products into pieces and checks the limits between them
    interruptible_products = False
    #: True for a backend that cannot report mixed managers itself (oxidd aborts the
    #: process): the guard checks the operands before each call, not after a failure
    checks_operands_first = False

    def __init__(self, backend: str, limits: Limits | None):
        self.backend = backend
        self.limits = limits if limits is not None else Limits()
        self._names: list[VariableName] = []

    def __repr__(self) -> str:
        return f"<Manager {self.backend} with {len(self._names)} variables>"

    # ------------------------------------------------------------------ the backend's primitives

    @abc.abstractmethod
    def owns(self, u: Node) -> bool:
        """True when ``u`` is a node of this manager."""

    @abc.abstractmethod
    def _out_of_memory(self, exc: BaseException) -> bool:
        """True when ``exc`` is how the backend reports that memory ran out."""

    @abc.abstractmethod
    def variable_bound(self) -> VariableBound:
        """(n, why, by_memory): at most n variables fit, why, and whether memory binds."""

    @abc.abstractmethod
    def _add_variables(self, names: list[VariableName]) -> None:
        """The backend's own declaration of new variables, at the next levels."""

    @abc.abstractmethod
    def _set_order(self, names: list[VariableName]) -> None:
        """The backend's own shuffle to the levels of ``names``."""

    @abc.abstractmethod
    def level(self, name: VariableName) -> Level:
        """The level of variable ``name``."""

    @property
    @abc.abstractmethod
    def true(self) -> Node:
        """The constant true."""

    @property
    @abc.abstractmethod
    def false(self) -> Node:
        """The constant false."""

    @abc.abstractmethod
    def not_(self, u: Node) -> Node:
        """¬u."""

    @abc.abstractmethod
    def and_(self, u: Node, v: Node) -> Node:
        """u ∧ v."""

    @abc.abstractmethod
    def or_(self, u: Node, v: Node) -> Node:
        """u ∨ v."""

    @abc.abstractmethod
    def xor(self, u: Node, v: Node) -> Node:
        """u ⊕ v."""

    @abc.abstractmethod
    def and_exists(self, u: Node, v: Node, qvars: Iterable[VariableName]) -> Node:
        """∃qvars. (u ∧ v)."""

    @abc.abstractmethod
    def node_count(self) -> int:
        """Nodes held by the whole manager."""

    # ------------------------------------------------------------------ errors

    def check(self, u: Node) -> Node:
        """Return ``u`` if it is a node of this manager, else raise :class:`EngineMismatch`."""
        if not self.owns(u):
            raise self._mismatch(u)
        return u

    def _mismatch(self, u: Node) -> EngineMismatch:
        return EngineMismatch(
            f"a BDD node of another manager (or not a node: "
            f"{type(u).__name__}) was given to {self!r}"
        )

    def _translate(
        self, exc: BaseException, nodes: Sequence, what: str | None
    ) -> SymbolicError | None:
        """The error to raise for a backend failure ``exc`` on operands ``nodes``
        (None: ``exc`` itself)."""
        if self._out_of_memory(exc):
            if what is None:
                what = f"{self.node_count()} BDD nodes in the {self.backend} manager"
            return OutOfMemory(self.limits.out_of_memory(what), stage=self.limits.where())
        for u in nodes:
            if not self.owns(u):
                return self._mismatch(u)
        return None

    # ------------------------------------------------------------------ variables

    @property
    def names(self) -> tuple[VariableName, ...]:
        """All declared variables, by level."""
        return tuple(self._names)

    def require_variables(self, count: int, what: str) -> None:
        """Raise :class:`TooManyVariables` unless ``count`` more variables fit (see
        :meth:`variable_bound`); ``what`` says what needs them, for the message."""
        total = len(self._names) + count
        bound, why, by_memory = self.variable_bound()
        if total > bound:
            other = "oxidd" if self.backend != "oxidd" else "cudd"
            advice = ("raise ", Hint("raise", "max_memory"), " or ") if by_memory else ()
            raise TooManyVariables(
                (
                    f"{what} needs {total} BDD variables, more than the {self.backend} backend "
                    f"can declare: {why}; ",
                    *advice,
                    "try ",
                    Hint("choose", "backend", (other,)),
                ),
                stage=self.limits.where(),
            )

    def declare(self, names: Sequence[VariableName], what: str = "this request") -> None:
        """Declare ``names`` as new variables at the next levels, in this order
        (:class:`TooManyVariables` when they do not fit, before declaring any)."""
        names = list(names)
        clash = sorted(set(names) & set(self._names))
        if clash or len(set(names)) != len(names):
            raise AssertionError(("variables declared twice", clash or names))
        self.require_variables(len(names), what)
        first = len(self._names)
        self._add_variables(names)
        self._names.extend(names)
        for i, n in enumerate(names):  # the contract's promise: level i is the i-th name
            if self.level(n) != first + i:
                raise AssertionError((n, self.level(n), first + i))

    def reorder(self, names: Sequence[VariableName]) -> None:
        """Move the declared variables to the levels of ``names`` (a permutation of
        them), keeping every node's function; dynamic reordering stays off.

        >>> from symbolic.bdd.managers import make_manager
        >>> m = make_manager("autoref")
        >>> m.declare(["a", "b"])
        >>> u = m.diff(m.var("a"), m.var("b"))
        >>> m.reorder(["b", "a"])
        >>> m.names, m.level("b"), m.exact_count(u, 2)
        (('b', 'a'), 0, 1)
        """
        names = list(names)
        if sorted(names) != sorted(self._names):
            raise AssertionError(("not a permutation of the variables", names))
        if names == self._names:
            return
        self._set_order(names)
        self._names = names
        for i, n in enumerate(names):
            if self.level(n) != i:
                raise AssertionError((n, self.level(n), i))

    @contextlib.contextmanager
    def reordering(self):
        """Dynamic reordering inside the block where the backend has it (its
        ``_dynamic``); off again after it, the names' levels read anew.

        >>> from symbolic.bdd.managers import make_manager
        >>> m = make_manager("autoref")
        >>> m.declare(["a", "b"])
        >>> with m.reordering() as on:
        ...     u = m.and_(m.var("a"), m.var("b"))
        >>> on, m.exact_count(u, 2), sorted(m.names)
        (True, 1, ['a', 'b'])
        """
        on = self._dynamic(True)
        try:
            yield on
        finally:
            if on:
                self._dynamic(False)
                self._names = sorted(self._names, key=self.level)

    def _dynamic(self, on: bool) -> bool:
        """Switch the backend's dynamic reordering (False: it has none)."""
        return False

    def sift_growth(self, ratio: float) -> bool:
        """Sifting (:meth:`sift`, :meth:`reordering`) stops moving a variable in one
        direction once the nodes grow past ``ratio`` times the smallest size it has met
        (Rudell's sifting bounded as CUDD bounds it: its ``max_growth``, 1.2 unless set
        here); False where the backend has no such bound (autoref, oxidd).

        >>> from symbolic.bdd.managers import make_manager
        >>> make_manager("autoref").sift_growth(1.1)
        False
        """
        if not ratio >= 1.0:
            raise AssertionError(ratio)
        return self._sift_growth(ratio)

    def _sift_growth(self, ratio: float) -> bool:
        """Bound the backend's sifting (False: it has no such bound)."""
        return False

    def reordering_seconds(self) -> float:
        """Seconds the backend's reorderings (dynamic, or :meth:`sift`) have taken in this
        manager so far: CUDD counts them; 0.0 where the backend has none or does not
        count them (autoref, oxidd).

        >>> from symbolic.bdd.managers import make_manager
        >>> make_manager("autoref").reordering_seconds()
        0.0
        """
        return 0.0

    def cpu_limit(self, seconds: float | None) -> bool:
        """Make the backend's own operations give up ``seconds`` of CPU from now, raising
        the error of the :meth:`~symbolic.limits.Limits.budget` running then (None: back
        to the deadline only); False where the backend has no such limit (CUDD has).

        >>> from symbolic.bdd.managers import make_manager
        >>> make_manager("autoref").cpu_limit(1.0)
        False
        """
        return False

    def sift(self) -> bool:
        """One pass of the backend's sifting now (Rudell's, as its dynamic reordering
        runs it), every node keeping its function; False where the backend has none.

        >>> from symbolic.bdd.managers import make_manager
        >>> m = make_manager("autoref")
        >>> m.declare(["a", "b", "c"])
        >>> u = m.or_(m.and_(m.var("a"), m.var("c")), m.var("b"))
        >>> m.sift(), m.exact_count(u, 3)
        (True, 5)
        """
        ran = self._sift()
        if ran:
            self._names = sorted(self._names, key=self.level)
        return ran

    def _sift(self) -> bool:
        """The backend's sifting pass (False: it has none)."""
        return False

    def branch(self, u):
        """(v, u[v := false], u[v := true]) for v the variable of u's root (the support's
        lowest level), None for a constant: one step of a walk down a BDD.

        >>> from symbolic.bdd.managers import make_manager
        >>> m = make_manager("autoref")
        >>> m.declare(["a", "b"])
        >>> v, low, high = m.branch(m.and_(m.var("a"), m.var("b")))
        >>> v, m.is_false(low), high == m.var("b"), m.branch(m.true)
        ('a', True, True, None)
        """
        if self.is_true(u) or self.is_false(u):
            return None
        v = self._root_var(u)
        return v, self.restrict(u, {v: False}), self.restrict(u, {v: True})

    @abc.abstractmethod
    def _root_var(self, u) -> str:
        """The variable of the root of a non-constant u."""

    # ------------------------------------------------------------------ derived operations

    def const(self, value: bool) -> Node:
        """The constant ``value``."""
        return self.true if value else self.false

    def is_true(self, u: Node) -> bool:
        """u ≡ true (canonical nodes: one comparison)."""
        return u == self.true

    def is_false(self, u: Node) -> bool:
        """u ≡ false."""
        return u == self.false

    def iff(self, u: Node, v: Node) -> Node:
        """u ↔ v, as ¬(u ⊕ v) (negation is free with complement edges)."""
        return self.not_(self.xor(u, v))

    def implies_forall(self, u: Node, v: Node, qvars: Iterable[VariableName]) -> Node:
        """∀qvars. (u → v) = ¬∃qvars. (u ∧ ¬v): the dual relational product (pre∀).
        Through the fused ∃ on every backend (negations are free with complement
        edges: CUDD and oxidd's BCDDs)."""
        return self.not_(self.and_exists(u, self.not_(v), qvars))

    def conj(self, nodes: Iterable[Node]) -> Node:
        """The conjunction of ``nodes`` (true when empty), combined pairwise as a balanced tree."""
        return _balanced(list(nodes), self.and_, self.true)

    def disj(self, nodes: Iterable[Node], check: Callable[[], None] | None = None) -> Node:
        """The disjunction of ``nodes`` (false when empty), combined as a balanced tree;
        ``check()``, when given, is called before each or (a time limit's check: the
        ors of large BDDs can each take long)."""
        op = self.or_
        if check is not None:

            def op(u, v):
                check()
                return self.or_(u, v)

        return _balanced(list(nodes), op, self.false)


def _balanced(items: list, op, unit):
    """``op`` folded over ``items`` as a balanced tree (``unit`` when empty)."""
    # A balanced reduction keeps intermediate BDDs small when many cubes or
    # clauses are combined (a left fold rebuilds a growing BDD n times).
    if not items:
        return unit
    while len(items) > 1:
        nxt = [op(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            nxt.append(items[-1])
        items = nxt
    return items[0]
