"""Which slots an effect primes: the part of :class:`~symbolic.bdd.encode.Encoder`
that finds the next-position variables a move's effect constrains.

A slot is primed by ``x'`` (a variable) or ``a'[i]`` (an array element, its index
folded to a constant once quantifiers and sums are expanded); the answer is
syntactic, every branch of an ``if`` counts. The engines keep the other slots
unchanged (frame conditions).

>>> from symbolic.ir import IntType, Space, Var, VarDecl
>>> from symbolic.bdd.encode import Encoder
>>> from symbolic.bdd.managers import make_manager
>>> sp = Space((VarDecl("x", IntType(0, 3)), VarDecl("y", IntType(0, 3))))
>>> Encoder(sp, make_manager("autoref")).primed_slots(Var("y", primed=True).eq(Var("x")))
frozenset({1})
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..ir import (
    Binary,
    Const,
    Elem,
    Expr,
    Item,
    Ite,
    Name,
    Quant,
    Space,
    Sum,
    Unary,
    Var,
    children,
)

__all__ = ["PrimedSlots"]


class PrimedSlots:
    """The primed slots of an expression (a base of :class:`~symbolic.bdd.encode.Encoder`,
    whose ``_elem_slot_const`` folds a primed element's index)."""

    # the encoder's: its space, the path conditions and value errors of a compilation
    # (set aside here), and the slot of a primed element (None: its index out of range)
    space: Space
    _path: list
    _errors: list
    _elem_slot_const: Callable[[Elem, dict], int | None]

    def primed_slots(self, e: Expr, env: Mapping[str, Any] | None = None) -> frozenset[int]:
        """The slots primed anywhere in ``e`` once quantifiers and sums are expanded
        with ``env`` (syntactically: every branch counts; a primed element with a
        constant index outside the array primes nothing)."""
        out: set[int] = set()
        saved = (self._path, self._errors)
        self._path, self._errors = [], []
        try:
            self._primed(e, dict(env or {}), out)
        finally:  # value errors of indices are reported by the real compilation
            self._path, self._errors = saved
        return frozenset(out)

    def _primed(self, e: Expr, env: dict, out: set) -> None:
        rule = _PRIMED.get(type(e))
        if rule is None:
            raise AssertionError(e)
        rule(self, e, env, out)

    def _primed_none(self, e: Expr, env: dict, out: set) -> None:
        pass

    def _primed_children(self, e: Expr, env: dict, out: set) -> None:
        for c in children(e):
            self._primed(c, env, out)

    def _primed_var(self, e: Var, env: dict, out: set) -> None:
        if e.primed:
            out.add(self.space.slot_index(e.name))

    def _primed_elem(self, e: Elem, env: dict, out: set) -> None:
        self._primed(e.index, env, out)
        if e.primed:
            slot = self._elem_slot_const(e, env)
            if slot is not None:
                out.add(slot)

    def _primed_binder(self, e: Quant | Sum, env: dict, out: set) -> None:
        for v in e.domain:
            self._primed(e.body, {**env, e.var: v}, out)


# Which slots an effect primes, per node class (PrimedSlots.primed_slots).
_PRIMED: dict[type, Callable[[PrimedSlots, Any, dict, set], None]] = {  # a node of each class
    Const: PrimedSlots._primed_none,
    Name: PrimedSlots._primed_none,
    Var: PrimedSlots._primed_var,
    Elem: PrimedSlots._primed_elem,
    Item: PrimedSlots._primed_children,
    Unary: PrimedSlots._primed_children,
    Binary: PrimedSlots._primed_children,
    Ite: PrimedSlots._primed_children,
    Quant: PrimedSlots._primed_binder,
    Sum: PrimedSlots._primed_binder,
}
