"""Game IR: typed, immutable descriptions of position spaces, expressions and games.

This is the layer below text: the model-language front end and the Python
builder both produce these objects, and both engines consume them (the
symbolic engine compiles them to BDDs, the explicit engine interprets them).

Values are Python ``int``, ``bool`` and ``tuple`` (of values); constant sets
are tuples of distinct values in canonical (sorted) order.

Semantics (both engines implement exactly this):

- Types are int, bool and tuple. A bool variable reads as a bool; positions
  store it as 0/1. Arithmetic takes ints only (``Sum`` counts a true bool as 1).
  ``==``/``!=`` compare two ints, two bools or two constant tuples; ``< <= > >=``
  compare ints. Connectives and ``not`` take bools; ``Ite`` needs a bool
  condition and two branches of the same type.
- Arithmetic is exact over the integers (never modular). ``//`` and ``%``
  follow Python's floor semantics and need a right operand that is a positive
  constant once bound names are substituted; anything else is a ModelError.
- ``Elem(a, i)``: ``i`` is an int expression; a value of ``i`` outside the
  declared index range is a RangeError. ``Item(t, i)`` indexes a constant tuple
  from 0 to len − 1 (no negative indices).
- Value errors (an index out of range, a divisor that is not positive) count
  only where evaluation reaches them: ``and``, ``or``, ``implies``, ``if``,
  ``forall`` and ``exists`` stop early from left to right, so
  ``i >= 1 and a[i - 1] == 0`` is legal at i = 0. Type errors count everywhere.
- ``Quant`` and ``Sum`` range over a finite tuple of constants bound to a
  ``Name``; they are expanded, not encoded as state.
- Primed variables (``Var(.., primed=True)``, ``Elem(.., primed=True)``) may
  appear only in a move's ``effect``; a primed array element needs an index
  that is constant once quantifiers and parameters are substituted.
- Move semantics: for every valuation of the parameters (the product of their
  domains) at which ``guard`` holds in c, every position c' (in the domain:
  values in range and ``invariant`` true) with ``effect(c, c')`` true and
  c'[s] = c[s] for every slot s that is not primed anywhere in that
  valuation's ``effect`` is a successor. δ(c) is the union over moves.

The package has one module per responsibility, and re-exports every name here
(``from symbolic.ir import Space, VarDecl, IntType, Var``):

- :mod:`symbolic.ir.exprs`: expression nodes, the operator vocabulary, builders;
- :mod:`symbolic.ir.traversal`: children, walks, free names, substitution;
- :mod:`symbolic.ir.spaces`: types, variable declarations, slots, the space;
- :mod:`symbolic.ir.game`: moves and games;
- :mod:`symbolic.ir.outcome`: who has won when a play is over (normal, misère, win sets, goals);
- :mod:`symbolic.ir.concurrent`: concurrent games (actions, updates, the joint space).

>>> x = Var("x"); y = Var("y")
>>> e = (x * x + y * y).eq(Const(25))
>>> e.op
'=='
"""

from .exprs import (
    ARITH_OPS,
    BOOL_OPS,
    COMPARE_OPS,
    FALSE,
    QUANTIFIERS,
    TRUE,
    UNARY_OPS,
    Binary,
    Const,
    Elem,
    Expr,
    Item,
    Ite,
    Name,
    Quant,
    Sum,
    Unary,
    Value,
    Var,
    conj,
    conjuncts,
    const_value,
    disj,
    exists,
    forall,
    ite,
    op_text,
)
from .concurrent import ACTION_PREFIX, Action, ConcurrentGame, Update
from .game import Game, Move, Param
from .outcome import OUTCOME_CLASSES, GoalValues, MiserePlay, NormalPlay, OutcomeRule, WinSets
from .spaces import BoolType, IntType, Slot, Space, Type, VarDecl
from .traversal import (
    bound_var,
    children,
    expr_classes,
    free_names,
    has_primes,
    map_children,
    reads_state,
    substitute,
    substitute_exprs,
    walk,
)

__all__ = [
    # expressions
    "Value",
    "ARITH_OPS",
    "COMPARE_OPS",
    "BOOL_OPS",
    "UNARY_OPS",
    "QUANTIFIERS",
    "op_text",
    "Expr",
    "Const",
    "Name",
    "Var",
    "Elem",
    "Item",
    "Unary",
    "Binary",
    "Ite",
    "Quant",
    "Sum",
    "TRUE",
    "FALSE",
    "conj",
    "conjuncts",
    "disj",
    "forall",
    "exists",
    "ite",
    "const_value",
    # traversal
    "expr_classes",
    "children",
    "map_children",
    "bound_var",
    "walk",
    "has_primes",
    "reads_state",
    "free_names",
    "substitute",
    "substitute_exprs",
    # spaces
    "IntType",
    "BoolType",
    "Type",
    "VarDecl",
    "Slot",
    "Space",
    # games
    "Param",
    "Move",
    "Game",
    # outcomes
    "NormalPlay",
    "MiserePlay",
    "WinSets",
    "GoalValues",
    "OutcomeRule",
    "OUTCOME_CLASSES",
    # concurrent games
    "Action",
    "Update",
    "ConcurrentGame",
    "ACTION_PREFIX",
]
