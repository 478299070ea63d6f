"""The BDD-based ("symbolic") engine of symbolic.

- :class:`Manager` (``backend.py``): one ``dd`` manager, CUDD or autoref, behind one API.
- :class:`Encoder` (``encode.py``): position bits in bit-sliced order and the
  bit-blasting of IR expressions, on the exact two's-complement arithmetic of
  :class:`BV` (``bitvec.py``).
- :class:`SymbolicSets` / :class:`SymbolicGame` (``engine.py``): the
  :mod:`symbolic.api` engines, with :class:`BddSet` results.

>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> S = SymbolicSets(Space((VarDecl("x", IntType(0, 9)),)), backend="autoref")
>>> S.from_expr(Var("x") * Var("x") < 10).tuples()
[(0,), (1,), (2,), (3,)]
"""
from .backend import BACKENDS, Manager
from .bitvec import BV
from .encode import ORDERS, Encoder
from .engine import PARTITIONS, BddSet, SymbolicGame, SymbolicSets

__all__ = ["BACKENDS", "ORDERS", "PARTITIONS", "BV", "BddSet", "Encoder", "Manager",
           "SymbolicGame", "SymbolicSets"]
