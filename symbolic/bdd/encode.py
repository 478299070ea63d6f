"""Bit-blasting of IR expressions into BDDs, over the bits of :class:`BitLayout`.

Integer terms are :class:`~symbolic.bdd.bitvec.BV` values, exact
two's-complement bit-vectors with a sound interval (:mod:`symbolic.bdd.bitvec`).

Terms are BDD nodes (bool), :class:`BV` (int) or Python tuples (constant
tuples). Results are only meaningful inside the domain (every slot's bits
within its range); callers conjoin the domain, as the engine does.

>>> from symbolic.ir import IntType, Space, Var, VarDecl
>>> from symbolic.bdd.managers import make_manager
>>> enc = Encoder(Space((VarDecl("x", IntType(0, 5)),)), make_manager("autoref"))
>>> u = enc.boolean(Var("x") * 2 > 7)
>>> sorted(enc.decode(a) for a in enc.m.assignments(enc.m.and_(u, enc.domain()), enc.current_bits))
[(4,), (5,)]
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Mapping

from ..errors import ModelError, RangeError, WrongType
from ..ir import (
    ARITH_OPS,
    BOOL_OPS,
    COMPARE_OPS,
    Binary,
    BoolType,
    Const,
    Elem,
    Expr,
    Ite,
    Item,
    Name,
    Quant,
    Space,
    Sum,
    Unary,
    Var,
    bound_var,
    children,
    free_names,
    op_text,
)
from . import bitvec as bv
from .contract import Manager
from .bitvec import BV
from .layout import AUTO_SLICED_MAX, CONCRETE_ORDERS, ORDERS, BitLayout, choose_order, slot_sequence
from .primed import PrimedSlots

__all__ = [
    "Encoder",
    "ORDERS",
    "CONCRETE_ORDERS",
    "AUTO_SLICED_MAX",
    "BitLayout",
    "choose_order",
    "slot_sequence",
]


def _span(e) -> Any:
    return getattr(e, "span", None)


def _type_name(t) -> str:
    if isinstance(t, BV):
        return "int"
    if isinstance(t, tuple):
        return "tuple"
    return "bool"


def _describe(e: Expr) -> str:
    """A short description of a node for error messages (no huge reprs)."""
    if isinstance(e, Var):
        return f"variable {e.name}{chr(39) if e.primed else ''}"
    if isinstance(e, Elem):
        return f"element of {e.array}{chr(39) if e.primed else ''}"
    if isinstance(e, Name):
        return f"name {e.name}"
    if isinstance(e, Const):
        return f"constant {e.value!r}"
    if isinstance(e, (Binary, Unary)):
        return f"operator {op_text(e.op)}"
    return type(e).__name__


class Encoder(PrimedSlots, BitLayout):
    """Declares the position bits of ``space`` in ``manager`` (in bit order ``order``,
    :class:`BitLayout`) and compiles expressions.

    ``compile(expr, env, primed=...)`` gives a term (BDD node for bool, :class:`BV`
    for int, tuple for constant tuples); ``boolean`` / ``integer`` also check the type.
    """

    def __init__(self, space: Space, manager: Manager, order: str = "auto"):
        super().__init__(space, manager, order)
        self.limits = manager.limits  # checked once per quantifier or sum instance
        self._slot_cache: dict[tuple[int, bool], Any] = {}
        # Compilation state: the conditions under which the node being compiled is
        # evaluated (short-circuits), and the value errors met so far.
        self._path: list = []
        self._errors: list = []
        # Inside ``closed_terms_kept()``, closed sub-expressions (no free name) are
        # compiled once: id(node) -> (node, term); the node is kept so that its id is
        # not reused. A move's guard `not over` is compiled once, not once per
        # parameter valuation. Outside it, nothing is kept (no BDD outlives its use).
        self._memo: dict[int, tuple[Expr, Any]] = {}
        self._memo_on = False
        self._closed: dict[int, tuple[Expr, bool]] = {}
        self._erring: dict[int, Expr] = {}  # closed nodes with possible value errors

    # ------------------------------------------------------------------ entry points

    def compile(
        self, e: Expr, env: Mapping[str, Any] | None = None, *, primed: bool = False, care=None
    ):
        """The term of ``e``, validated by :func:`symbolic.validate.check_expr`, with
        bound names from ``env``; ``primed`` says ``e`` may read the next bits (an effect).

        Value errors (an index outside its range, a divisor ≤ 0) are raised only
        if evaluation reaches them — and, or, implies, if, forall and exists
        stop as soon as their result is known, left to right — at some
        assignment of ``care`` (default: every slot in range, current and, with
        ``primed``, next; a callable giving the BDD is called only then). Type
        errors are always raised.
        """
        saved = (self._path, self._errors)
        self._path, self._errors = [], []
        try:
            t = self._c(e, dict(env or {}))
            errors = self._errors
        finally:
            self._path, self._errors = saved
        if errors:
            if callable(care):  # computed only when needed (it may be a large conjunction)
                care = care()
            if care is None:
                care = self.domain()
                if primed:
                    care = self.m.and_(care, self.domain(True))
            self._raise_reached(errors, care)
        return t

    def boolean(
        self, e: Expr, env: Mapping[str, Any] | None = None, *, primed: bool = False, care=None
    ):
        """The BDD of the bool expression ``e`` (WrongType for any other type)."""
        t = self.compile(e, env, primed=primed, care=care)
        if isinstance(t, (BV, tuple)):
            raise WrongType(f"expected a bool, got {_type_name(t)} ({_describe(e)})", _span(e))
        return t

    def try_boolean(self, e: Expr, env: Mapping[str, Any] | None = None):
        """The BDD of the bool expression ``e`` when its compilation meets no value error
        at any assignment of the bits (then where it is evaluated does not matter),
        else None; type errors raise as in :meth:`boolean`."""
        saved = (self._path, self._errors)
        self._path, self._errors = [], []
        try:
            t = self._c(e, dict(env or {}))
            clean = not self._errors
        finally:
            self._path, self._errors = saved
        if isinstance(t, (BV, tuple)):
            raise WrongType(f"expected a bool, got {_type_name(t)} ({_describe(e)})", _span(e))
        return t if clean else None

    def integer(
        self, e: Expr, env: Mapping[str, Any] | None = None, *, primed: bool = False, care=None
    ) -> BV:
        """The bit-vector of the int expression ``e`` (WrongType for any other type)."""
        t = self.compile(e, env, primed=primed, care=care)
        if not isinstance(t, BV):
            raise WrongType(f"expected an int, got {_type_name(t)} ({_describe(e)})", _span(e))
        return t

    def int_equals(self, t: BV, value: int):
        """The BDD of t = value."""
        return bv.eq(self.m, t, bv.const(self.m, value))

    def _raise_reached(self, errors: list, care) -> None:
        """Raise the first recorded value error whose condition meets ``care``."""
        m = self.m
        for cls, message, span, cond in errors:
            hit = m.and_(cond, care)
            if not m.is_false(hit):
                pos = self.first_position(hit)
                where = f" (at position {self.space.as_dict(pos)})" if pos else ""
                raise cls(message + where, span)

    def _record(self, cls, message: str, e: Expr, cond=None) -> None:
        """Note a value error of node ``e``, raised where ``cond`` holds on the current path."""
        m = self.m
        reach = m.conj(self._path) if self._path else m.true
        if cond is not None:
            reach = m.and_(reach, cond)
        if not m.is_false(reach):
            self._errors.append((cls, message, _span(e), reach))

    def _under(self, cond, e: Expr, env: dict):
        """Compile ``e`` as evaluated only where ``cond`` holds (a short-circuit branch)."""
        self._path.append(cond)
        try:
            return self._c(e, env)
        finally:
            self._path.pop()

    # ------------------------------------------------------------------ dispatch

    def _c(self, e: Expr, env: dict):
        f = _DISPATCH.get(type(e))
        if f is None:
            raise AssertionError(e)
        if (
            not self._memo_on
            or type(e) in _LEAVES
            or not self.is_closed(e)
            or id(e) in self._erring
        ):
            return f(self, e, env)
        hit = self._memo.get(id(e))
        if hit is not None:
            return hit[1]
        # A term does not depend on the path (short-circuit conditions) it is
        # compiled under; its value errors do. So the node is compiled under no
        # condition at all, and kept only if no value error is possible anywhere;
        # otherwise it is compiled again under the real path, which records its errors.
        path, n_errors = self._path, len(self._errors)
        self._path = []
        try:
            t = f(self, e, env)
        finally:
            self._path = path
        if len(self._errors) == n_errors:
            self._memo[id(e)] = (e, t)
            return t
        del self._errors[n_errors:]
        self._erring[id(e)] = e  # from now on compiled directly (no second attempt)
        return f(self, e, env)

    def is_closed(self, e: Expr) -> bool:
        """True when ``e`` has no free :class:`~symbolic.ir.Name` (its term does not
        depend on quantifier variables or move parameters), cached per node."""
        hit = self._closed.get(id(e))
        if hit is None:
            v = bound_var(e)
            closed = not isinstance(e, Name) and all(
                self.is_closed(c) or (v is not None and free_names(c) <= {v}) for c in children(e)
            )
            hit = self._closed[id(e)] = (e, closed)
        return hit[1]

    @contextlib.contextmanager
    def closed_terms_kept(self):
        """Within this block, every closed sub-expression is compiled once and its term
        reused (the game engine builds δ inside it); on leaving, the terms are
        forgotten (their BDDs can then be freed)."""
        outer = self._memo_on
        self._memo_on = True
        try:
            yield self
        finally:
            self._memo_on = outer
            if not outer:
                self._memo.clear()

    def _bool(self, e: Expr, env: dict, what: str = "", parent=None):
        t = self._c(e, env)
        if isinstance(t, (BV, tuple)):
            # the caret goes under the operand when it has a span, else its operator
            raise WrongType(
                f"{what or 'expected a bool'}: got {_type_name(t)} ({_describe(e)})",
                _span(e) or _span(parent),
            )
        return t

    def _int(self, e: Expr, env: dict, what: str = "", parent=None) -> BV:
        t = self._c(e, env)
        if not isinstance(t, BV):
            raise WrongType(
                f"{what or 'expected an int'}: got {_type_name(t)} ({_describe(e)})",
                _span(e) or _span(parent),
            )
        return t

    def _value(self, v, e: Expr):
        """The term of a constant value."""
        if isinstance(v, bool):
            return self.m.const(v)
        if isinstance(v, int):
            return bv.const(self.m, v)
        if isinstance(v, tuple):
            for x in v:
                self._value(x, e)  # only ints, bools and tuples inside
            return v
        raise WrongType(f"unsupported constant {v!r} of type {type(v).__name__}", _span(e))

    def _dummy(self, typ):
        """A placeholder term of type ``typ`` where evaluation raises (never observed)."""
        return self.m.false if isinstance(typ, BoolType) else bv.const(self.m, typ.lo)

    # ------------------------------------------------------------------ leaves

    def _const(self, e: Const, env: dict):
        return self._value(e.value, e)

    def _name(self, e: Name, env: dict):
        try:
            v = env[e.name]
        except KeyError:
            raise AssertionError(e) from None  # validation binds every name
        return self._value(v, e)

    def _var(self, e: Var, env: dict):
        return self.slot_term(self.space.slot_index(e.name), e.primed)

    def slot_term(self, slot: int, primed: bool = False):
        """The term of one slot: a node for a bool slot, a :class:`BV` for an int slot (cached)."""
        key = (slot, primed)
        t = self._slot_cache.get(key)
        if t is None:
            m = self.m
            s = self.space.slots[slot]
            bits = tuple(m.var(n) for n in self.slot_bits(slot, primed))
            if isinstance(s.type, BoolType):
                t = bits[0]
            else:
                lo, hi = s.type.lo, s.type.hi
                # the bits hold the unsigned value − lo: add lo back (exact)
                t = bv.make(m, bits + (m.false,), 0, hi - lo)
                if lo != 0:
                    t = bv.add(m, t, bv.const(m, lo))
            self._slot_cache[key] = t
        return t

    def _elem_slot_const(self, e: Elem, env: dict) -> int | None:
        """The slot of a primed element, whose index is constant (None: out of range)."""
        d = self.space.decl(e.array)
        if d.index is None:  # validated: an element of an array
            raise AssertionError(e.array)
        idx = self._int(e.index, env, f"the index of {e.array}'[..]", e)
        if not idx.is_const:
            raise AssertionError(e)  # validated: the index reads no state, so it folds
        if not d.index.lo <= idx.lo <= d.index.hi:
            return None
        return self.space.slot_index(e.array, idx.lo)

    def _elem(self, e: Elem, env: dict):
        d = self.space.decl(e.array)
        if d.index is None:  # validated: an element of an array
            raise AssertionError(e.array)
        lo, hi = d.index.lo, d.index.hi
        name = e.array + ("'" if e.primed else "")
        where = f"{name}[{lo}..{hi}]"
        idx = self._int(e.index, env, f"the index of {name}[..]", e)
        if e.primed and not idx.is_const:
            raise AssertionError(e)  # validated: the index reads no state, so it folds
        if idx.is_const:
            if not lo <= idx.lo <= hi:
                self._record(RangeError, f"index {idx.lo} outside {where}", e)
                return self._dummy(d.type)
            return self.slot_term(self.space.slot_index(e.array, idx.lo), e.primed)
        values = list(range(max(idx.lo, lo), min(idx.hi, hi) + 1))
        if idx.lo < lo or idx.hi > hi:
            m = self.m
            outside = m.or_(bv.lt(m, idx, bv.const(m, lo)), bv.lt(m, bv.const(m, hi), idx))
            self._record(RangeError, f"index outside {where}", e, outside)
        if not values:
            return self._dummy(d.type)
        terms = [self.slot_term(self.space.slot_index(e.array, v), False) for v in values]
        return self._select(idx, values, terms, e)

    def _select(self, idx: BV, values: list[int], terms: list, e: Expr):
        """if idx = v_0 then t_0 elif ... else t_last (idx takes only the listed values
        wherever the result is observed)."""
        kinds = {_type_name(t) for t in terms}
        if len(kinds) != 1 or "tuple" in kinds:
            raise WrongType(
                f"cannot select among values of types {sorted(kinds)} with a variable index",
                _span(e),
            )
        acc = terms[-1]
        for v, t in zip(reversed(values[:-1]), reversed(terms[:-1])):
            c = self.int_equals(idx, v)
            acc = bv.mux(self.m, c, t, acc) if isinstance(t, BV) else self.m.ite(c, t, acc)
        return acc

    def _item(self, e: Item, env: dict):
        base = self._c(e.base, env)
        if not isinstance(base, tuple):
            raise WrongType(f"only tuples can be indexed, got {_type_name(base)}", _span(e))
        idx = self._int(e.index, env, "a tuple index", e)
        n = len(base)
        if n == 0:
            raise RangeError("index into an empty tuple", _span(e))
        if idx.is_const and 0 <= idx.lo < n:
            return self._value(base[idx.lo], e)
        terms = [self._value(x, e) for x in base]
        kinds = {_type_name(t) for t in terms}
        if len(kinds) != 1:
            raise WrongType(
                f"a computed index into a tuple of {sorted(kinds)} has no single type", _span(e)
            )
        if idx.is_const:
            self._record(RangeError, f"tuple index {idx.lo} outside 0..{n - 1}", e)
            return terms[0]
        values = list(range(max(idx.lo, 0), min(idx.hi, n - 1) + 1))
        if idx.lo < 0 or idx.hi > n - 1:
            m = self.m
            outside = m.or_(bv.lt(m, idx, bv.const(m, 0)), bv.lt(m, bv.const(m, n - 1), idx))
            self._record(RangeError, f"tuple index outside 0..{n - 1}", e, outside)
        if not values:
            return terms[0]
        return self._select(idx, values, [terms[v] for v in values], e)

    # ------------------------------------------------------------------ operators

    def _unary(self, e: Unary, env: dict):
        if e.op == "-":
            return bv.neg(self.m, self._int(e.arg, env, "the operand of unary '-'", e))
        if e.op == "not":
            return self.m.not_(self._bool(e.arg, env, "the operand of 'not'", e))
        raise AssertionError(e.op)  # validation knows the operators

    def _binary(self, e: Binary, env: dict):
        op = e.op
        m = self.m
        if op in BOOL_OPS:
            a = self._bool(e.left, env, f"the left operand of {op_text(op)}", e)
            # and / or / implies evaluate their right operand only when the left
            # one does not decide: its value errors count only there.
            if op == "iff":
                b = self._c(e.right, env)
            else:
                b = self._under(m.not_(a) if op == "or" else a, e.right, env)
            if isinstance(b, (BV, tuple)):
                raise WrongType(
                    f"the right operand of {op_text(op)}: got {_type_name(b)} "
                    f"({_describe(e.right)})",
                    _span(e.right) or _span(e),
                )
            return getattr(m, _CONNECTIVES[op])(a, b)
        if op in COMPARE_OPS:
            a = self._c(e.left, env)
            b = self._c(e.right, env)
            ka, kb = _type_name(a), _type_name(b)
            if op in ("==", "!="):
                if ka != kb:
                    raise WrongType(
                        f"{op_text(op)} compares two ints, two bools or two tuples, "
                        f"got {ka} and {kb}",
                        _span(e),
                    )
                r = (
                    bv.eq(m, a, b)
                    if ka == "int"
                    else m.iff(a, b)
                    if ka == "bool"
                    else m.const(a == b)
                )
                return r if op == "==" else m.not_(r)
            if ka != "int" or kb != "int":
                raise WrongType(f"{op_text(op)} compares ints, got {ka} and {kb}", _span(e))
            swap, negate = _ORDERINGS[op]  # a <= b is not b < a, a > b is b < a, ...
            r = bv.lt(m, b, a) if swap else bv.lt(m, a, b)
            return m.not_(r) if negate else r
        if op in ARITH_OPS:
            a = self._int(e.left, env, f"the left operand of {op_text(op)}", e)
            b = self._int(e.right, env, f"the right operand of {op_text(op)}", e)
            if op in _RINGS:
                return _RINGS[op](m, a, b)
            if not b.is_const:
                raise AssertionError(e)  # validated: the divisor reads no state, so it folds
            if b.lo <= 0:
                self._record(
                    ModelError,
                    f"the right operand of {op_text(op)} must be a positive constant, got {b.lo}",
                    e.right if _span(e.right) else e,
                )
                return bv.const(m, 0)
            q, r = bv.divmod_const(m, a, b.lo)
            return q if op == "//" else r
        raise AssertionError(op)  # validation knows the operators

    def _ite(self, e: Ite, env: dict):
        m = self.m
        c = self._bool(e.cond, env, "the condition of 'if'", e)
        a = self._under(c, e.then, env)
        b = self._under(m.not_(c), e.other, env)
        ka, kb = _type_name(a), _type_name(b)
        if ka != kb:
            raise WrongType(f"the branches of 'if' have different types: {ka} and {kb}", _span(e))
        if m.is_true(c):
            return a
        if m.is_false(c):
            return b
        if ka == "tuple":
            raise WrongType("'if' between tuples needs a constant condition", _span(e))
        return bv.mux(self.m, c, a, b) if ka == "int" else m.ite(c, a, b)

    def _quant(self, e: Quant, env: dict):
        m = self.m
        forall = e.kind == "forall"
        acc = m.true if forall else m.false
        check = self.limits.check
        for v in e.domain:
            check()
            # Instance k is evaluated only where instances 1..k-1 did not decide.
            b = self._under(acc if forall else m.not_(acc), e.body, {**env, e.var: v})
            if isinstance(b, (BV, tuple)):
                raise WrongType(f"the body of {e.kind}: got {_type_name(b)}", _span(e))
            acc = m.and_(acc, b) if forall else m.or_(acc, b)
        return acc

    def _sum(self, e: Sum, env: dict):
        acc = bv.const(self.m, 0)
        check = self.limits.check
        for v in e.domain:
            check()
            t = self._c(e.body, {**env, e.var: v})
            if isinstance(t, tuple):
                raise WrongType("the body of sum must be int or bool, got tuple", _span(e))
            acc = bv.add(self.m, acc, t if isinstance(t, BV) else bv.bool_to_int(self.m, t))
        return acc


# The operators of symbolic.ir, by kind (tests/test_dispatch.py checks they
# cover ir's vocabulary): connectives, order comparisons as (swap, negate) of
# a < b, and the ring operations (// and % are divmod_const). The connectives are
# the manager's methods by name: each backend has its own.
_CONNECTIVES = {"and": "and_", "or": "or_", "implies": "implies", "iff": "iff"}
_ORDERINGS = {"<": (False, False), "<=": (True, True), ">": (True, False), ">=": (False, True)}
_RINGS = {"+": bv.add, "-": bv.sub, "*": bv.mul}

# Exhaustive dispatch over the expression node kinds. A class-level table of
# plain functions (not bound methods stored on the instance): a self-reference
# cycle would leave BDD nodes to the cycle collector, which may free the
# manager before its nodes.
_DISPATCH: dict[type, Callable[[Encoder, Any, dict], Any]] = {  # a node of each class
    Const: Encoder._const,
    Name: Encoder._name,
    Var: Encoder._var,
    Elem: Encoder._elem,
    Item: Encoder._item,
    Unary: Encoder._unary,
    Binary: Encoder._binary,
    Ite: Encoder._ite,
    Quant: Encoder._quant,
    Sum: Encoder._sum,
}

# Nodes compiled without the memo (their terms are cached elsewhere or trivial).
_LEAVES = (Const, Name, Var)
