"""The BDD-based ("symbolic") engine of symbolic.

The modules, from the bottom up:

- BDD managers: the contract :class:`Manager` (``contract.py``: its types and
  methods), kept by two sibling implementations sharing ``base.py`` (the error guard,
  the declared variables, the derived operations): ``backend.py`` on one ``dd``
  manager, CUDD or autoref, and ``oxidd_backend.py`` on oxidd;
  :func:`make_manager` (``managers.py``) makes one by backend name; ``transfer.py``
  copies a BDD between managers of any backends; ``capacity.py`` holds the measured
  memory caps and bounds on the number of variables of each backend.
- Bits: :class:`BV` (``bitvec.py``), exact two's-complement bit-vectors;
  ``layout.py``, the position bits of a space in bit-sliced or slot order
  (:class:`BitLayout`, :data:`ORDERS`); :class:`Encoder` (``encode.py``), the
  bit-blasting of IR expressions over that layout.
- Engines: :class:`SymbolicSets` and its :class:`BddSet` values (``sets.py``); the
  transition-relation parts (``relation.py``: δ in parts, relational products, the
  ``Coalition`` key of the pre-images); the base of the turn-based engines
  (``turnbased.py``: pre-images and fixpoints over declared hooks, with the forward
  operators of ``forward.py``: post, successors, moves between sets, out-degrees,
  :class:`BddRelation`); the game :class:`SymbolicGame` (``engine.py``: δ partitioned by
  move, relational pre-images, the layered step) with the measured choice of the variable
  layout (``probe.py``); the concurrent engine and its joint-action parts
  (``concurrent.py``).

>>> from symbolic.bdd import SymbolicSets
>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> S = SymbolicSets(Space((VarDecl("x", IntType(0, 9)),)), backend="autoref")
>>> S.from_expr(Var("x") * Var("x") < 10).tuples()
[(0,), (1,), (2,), (3,)]

The names are loaded on first use (PEP 562), so that a module that needs only a manager
(``symbolic.bdd.managers``: the AIGER safety solver) does not load the engines.
"""

TYPE_CHECKING = False  # True for type checkers (mypy treats the name so)

#: public name -> the module of this package that defines it
_HOME = {
    "BACKENDS": "contract",
    "Manager": "contract",
    "BV": "bitvec",
    "Encoder": "encode",
    "PARTITIONS": "engine",
    "BddRelation": "engine",
    "BddSet": "engine",
    "SymbolicGame": "engine",
    "SymbolicSets": "engine",
    "ORDERS": "layout",
    "BitLayout": "layout",
    "make_manager": "managers",
}

if TYPE_CHECKING:  # what a type checker sees; at run time __getattr__ loads
    from .bitvec import BV
    from .contract import BACKENDS, Manager
    from .encode import Encoder
    from .engine import PARTITIONS, BddRelation, BddSet, SymbolicGame, SymbolicSets
    from .layout import ORDERS, BitLayout
    from .managers import make_manager

__all__ = [
    "BACKENDS",
    "ORDERS",
    "PARTITIONS",
    "BV",
    "BddRelation",
    "BddSet",
    "BitLayout",
    "Encoder",
    "Manager",
    "SymbolicGame",
    "SymbolicSets",
    "make_manager",
]


def __getattr__(name: str) -> object:
    """Load a public name from its home module on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
