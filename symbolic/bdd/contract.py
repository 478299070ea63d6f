"""The contract of a BDD manager: what every backend keeps, and nothing of how.

As ``dd/_abc.py`` specifies dd's managers, this module names the types and lists the
methods the symbolic engine calls, each with its semantics in one line; the classes
implementing it are siblings: :class:`~symbolic.bdd.backend.DdManager` (``dd.cudd`` and
``dd.autoref``) and :class:`~symbolic.bdd.oxidd_backend.OxiddManager`, made by name with
:func:`symbolic.bdd.managers.make_manager`, sharing
:class:`~symbolic.bdd.base.BaseManager` (the part written on the contract's primitives).

Promises every implementation keeps (``tests/test_bdd_backend.py`` runs them on each
backend): level i is the i-th declared name and dynamic reordering stays off (except
inside a ``reordering()`` block, where CUDD and autoref sift as their node tables grow, every
node keeping its function; the levels are read anew after it); nodes are
canonical (equal functions are equal nodes, compared with ``==``); counts are exact
Python ints; a node of another manager given to a method raises
:class:`~symbolic.errors.EngineMismatch`, and running out of memory raises
:class:`~symbolic.errors.OutOfMemory`, never the backend's own error.

>>> from symbolic.bdd.managers import make_manager
>>> isinstance(make_manager("autoref"), Manager)
True
"""

from __future__ import annotations

from typing import (
    Any,
    Callable,
    ContextManager,
    Iterable,
    Iterator,
    Mapping,
    Protocol,
    Sequence,
    TypeAlias,
    runtime_checkable,
)

from ..limits import Limits

__all__ = [
    "BACKENDS",
    "Node",
    "Level",
    "VariableName",
    "Assignment",
    "Renaming",
    "Substitution",
    "VariableBound",
    "Manager",
]

#: the backend names, one per way of keeping the contract (the default first)
BACKENDS = ("cudd", "autoref", "oxidd")

#: a BDD node ("function"): opaque, combined only through its manager's methods
Node: TypeAlias = Any
#: a variable's position in the order: 0 for the first declared (the root side)
Level: TypeAlias = int
#: a variable, by its declared name
VariableName: TypeAlias = str
#: a value for each of some variables (a cube, a cofactor, a model)
Assignment: TypeAlias = Mapping[VariableName, bool]
#: a variable for each of some variables, substituted simultaneously
Renaming: TypeAlias = Mapping[VariableName, VariableName]
#: a function (node) for each of some variables, substituted simultaneously
Substitution: TypeAlias = Mapping[VariableName, Node]
#: (n, why, by_memory): at most n variables fit, the reason in words, and whether the
#: memory cap is what binds (a larger cap would hold more)
VariableBound: TypeAlias = tuple[int, str, bool]


@runtime_checkable
class Manager(Protocol):
    """One BDD manager, never global: its variables, nodes and operations on them."""

    #: the backend's name, one of :data:`BACKENDS`
    backend: str
    #: the stage and time limits its errors name (a :class:`~symbolic.limits.Limits`)
    limits: Limits
    #: True when a long relational product can be interrupted (Ctrl-C, the time limit)
    #: while it runs; False: the engine splits slow products and checks between pieces
    interruptible_products: bool

    # ------------------------------------------------------------------ variables

    @property
    def names(self) -> tuple[VariableName, ...]:
        """All declared variables, by level."""

    def level(self, name: VariableName) -> Level:
        """The level of variable ``name``."""

    def var(self, name: VariableName) -> Node:
        """The node of variable ``name``."""

    def variable_bound(self) -> VariableBound:
        """How many variables this manager can declare in all, and why no more."""

    def require_variables(self, count: int, what: str) -> None:
        """Raise TooManyVariables unless ``count`` more variables fit (``what`` needs them)."""

    def declare(self, names: Sequence[VariableName], what: str = "this request") -> None:
        """Declare ``names`` as new variables at the next levels, in this order."""

    def reorder(self, names: Sequence[VariableName]) -> None:
        """Move the variables to the levels of ``names`` (a permutation), keeping functions."""

    def reordering(self) -> ContextManager[bool]:
        """A block where the backend may sift the order itself; yields whether it can."""

    def sift(self) -> bool:
        """One pass of the backend's sifting now, where it has one; whether it ran."""

    def sift_growth(self, ratio: float) -> bool:
        """Let sifting stop moving a variable once the BDDs grow past ``ratio``; whether it can."""

    def reordering_seconds(self) -> float:
        """Seconds the backend's reorderings took in this manager (0.0: none, or uncounted)."""

    def cpu_limit(self, seconds: float | None) -> bool:
        """Stop the backend's operations ``seconds`` of CPU from now (None: at the deadline)."""

    # ------------------------------------------------------------------ boolean algebra

    @property
    def true(self) -> Node:
        """The constant true."""

    @property
    def false(self) -> Node:
        """The constant false."""

    def const(self, value: bool) -> Node:
        """The constant ``value``."""

    def is_true(self, u: Node) -> bool:
        """u ≡ true."""

    def is_false(self, u: Node) -> bool:
        """u ≡ false."""

    def check(self, u: Node) -> Node:
        """``u`` if it is a node of this manager, else raise EngineMismatch."""

    def not_(self, u: Node) -> Node:
        """¬u."""

    def and_(self, u: Node, v: Node) -> Node:
        """u ∧ v."""

    def or_(self, u: Node, v: Node) -> Node:
        """u ∨ v."""

    def diff(self, u: Node, v: Node) -> Node:
        """u ∧ ¬v."""

    def xor(self, u: Node, v: Node) -> Node:
        """u ⊕ v."""

    def iff(self, u: Node, v: Node) -> Node:
        """u ↔ v."""

    def implies(self, u: Node, v: Node) -> Node:
        """u → v."""

    def ite(self, c: Node, u: Node, v: Node) -> Node:
        """If c then u else v."""

    def conj(self, nodes: Iterable[Node]) -> Node:
        """The conjunction of ``nodes`` (true when empty)."""

    def disj(self, nodes: Iterable[Node], check: Callable[[], None] | None = None) -> Node:
        """The disjunction of ``nodes`` (false when empty), calling ``check()`` before each ∨."""

    def cube(self, assignment: Assignment) -> Node:
        """The conjunction of the literals ``name`` (True) and ``¬name`` (False)."""

    # ------------------------------------------------------------------ quantifiers, substitution

    def exist(self, u: Node, qvars: Iterable[VariableName]) -> Node:
        """∃qvars. u."""

    def forall(self, u: Node, qvars: Iterable[VariableName]) -> Node:
        """∀qvars. u."""

    def and_exists(self, u: Node, v: Node, qvars: Iterable[VariableName]) -> Node:
        """The relational product ∃qvars. (u ∧ v)."""

    def implies_forall(self, u: Node, v: Node, qvars: Iterable[VariableName]) -> Node:
        """The dual relational product ∀qvars. (u → v)."""

    def rename(self, u: Node, mapping: Renaming) -> Node:
        """u with each variable x replaced by mapping[x], simultaneously."""

    def restrict(self, u: Node, assignment: Assignment) -> Node:
        """The cofactor u[x := assignment[x]]."""

    def compose(self, u: Node, mapping: Substitution) -> Node:
        """u with each variable x replaced by the function mapping[x], simultaneously."""

    def support(self, u: Node) -> set[VariableName]:
        """The variables ``u`` depends on."""

    # ------------------------------------------------------------------ counting, enumeration

    def branch(self, u: Node) -> tuple[VariableName, Node, Node] | None:
        """(the root variable v of u, u[v := false], u[v := true]); None for a constant."""

    def exact_count(self, u: Node, nvars: int) -> int:
        """The exact number of models of ``u`` over ``nvars`` variables including its support."""

    def assignments(
        self, u: Node, bits: Sequence[VariableName]
    ) -> Iterator[dict[VariableName, bool]]:
        """Each assignment to exactly ``bits`` (a superset of the support) satisfying u, once."""

    # ------------------------------------------------------------------ sizes, housekeeping

    def node_count(self) -> int:
        """The nodes the whole manager holds (live and not yet collected)."""

    def size(self, u: Node) -> int:
        """The nodes of ``u``'s diagram, its terminal included."""

    def shared_size(self, nodes: Sequence[Node]) -> int:
        """The distinct nodes reachable from ``nodes`` (shared ones counted once)."""

    def collect_garbage(self, now: bool = False) -> None:
        """Free dead nodes when the backend wants it (a hint), or at once with ``now``."""

    def copy_from(self, u: Node) -> Node:
        """The node of this manager with the function of ``u``, a node of any backend's manager."""
