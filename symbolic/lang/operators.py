"""Operators in expressions: arithmetic, comparisons, membership, the logical
connectives and if-then-else, folded now when their operands are constant.

:class:`OperatorChecks` is a base class of :class:`~.exprs.ExprChecker`, apart
because operators are a job of their own (as calls are, in :mod:`.calls`); its
methods use the checker's ``expr``, ``value``, ``expect``, ``to_ir``,
``is_constant`` and ``skip``. Constant conditions short-circuit, like Python's
``and``/``or``, and the branches they skip keep their primed variables
(the frame rule, :meth:`~.exprs.ExprChecker.skip`).

>>> from symbolic.lang.exprs import ExprChecker
>>> from symbolic.lang.parser import parse_formula_text
>>> from symbolic.lang.scope import EMPTY, Scope
>>> ExprChecker(Scope()).expr(parse_formula_text("7 div 2 + (if 1 in {1} then 10 else 0)"), EMPTY)
Known(value=13, type=IntT())
"""

from __future__ import annotations

import operator

from .. import ir
from ..errors import ModelError, RangeError, Span, WrongType
from . import ast
from .builtins import canonical_key
from .core import CheckerCore
from .scope import Ctx
from .types import (
    BOOL,
    INT,
    Known,
    SetT,
    StrT,
    Sym,
    TupleT,
    Type,
    Typed,
    article,
    compatible,
    ir_value,
    known,
    make_set,
    mentions_state,
    type_of,
    uniform,
)
from .vocabulary import LOGIC

__all__ = ["OperatorChecks", "mentions_primed", "flat_binders", "fold"]


class OperatorChecks(CheckerCore):
    """Checks unary and binary operators and if-then-else (a base of
    :class:`~.exprs.ExprChecker`)."""

    def _unary(self, node: ast.Unary, ctx: Ctx) -> Typed:
        a = self.expr(node.arg, ctx)
        want = {"-": INT, "not": BOOL}.get(node.op)
        if want is None:
            raise AssertionError(node.op)
        self.expect(a, want, node.arg.span, f"after '{node.op}'")
        if isinstance(a, Known):
            assert isinstance(a.value, int)  # an int or a bool: checked just above
            return Known(-a.value if node.op == "-" else not a.value, want)
        return Sym(ir.Unary(node.op, a.expr, node.span), want)

    def _binary(self, node: ast.Binary, ctx: Ctx) -> Typed:
        op = node.op
        if op in LOGIC:
            return self._logic(node, ctx)
        if (
            op in ("in", "notin", "==", "!=")
            and isinstance(node.left, ast.TupleLit)
            and not self.is_constant(node.left, ctx)
        ):
            return self._tuple_test(node, ctx)
        left = self.expr(node.left, ctx)
        right = self.expr(node.right, ctx)
        if op in ("==", "!="):
            return self._equality(node, left, right)
        if op in ("<", "<=", ">", ">="):
            self.expect(left, INT, node.left.span, f"before '{op}'")
            self.expect(right, INT, node.right.span, f"after '{op}'")
            return self._fold_or_build(node, op, left, right, BOOL)
        if op in ("in", "notin"):
            return self._membership(node, left, right)
        if op in ("+", "-", "*", "//", "%", "\\", "/"):
            return self._arith(node, left, right)
        raise AssertionError(op)

    def _fold_or_build(
        self, node: ast.Binary, op: str, left: Typed, right: Typed, typ: Type
    ) -> Typed:
        if isinstance(left, Known) and isinstance(right, Known):
            return Known(fold(op, left.value, right.value, node.span), typ)
        return Sym(
            ir.Binary(
                op, self.to_ir(left, node.left.span), self.to_ir(right, node.right.span), node.span
            ),
            typ,
        )

    def _logic(self, node: ast.Binary, ctx: Ctx) -> Typed:
        op = node.op
        left = self.expr(node.left, ctx)
        if op in ("|", "&") and isinstance(left.type, SetT):
            right: Typed = self.value(node.right, ctx, what=f"the right operand of '{op}'")
            if not isinstance(right.type, SetT) or not compatible(left.type, right.type):
                hint = (
                    " ('|' and '&' bind less tightly than comparisons: add parentheses)"
                    if right.type == BOOL
                    else ""
                )
                raise WrongType(
                    f"cannot combine {article(left.type)} with "
                    f"{article(right.type)} by '{op}'{hint}",
                    node.span,
                )
            # sets exist at load time only
            assert isinstance(left, Known) and isinstance(right, Known)
            assert isinstance(left.value, frozenset) and isinstance(right.value, frozenset)
            out = left.value | right.value if op == "|" else left.value & right.value
            return known(make_set(out, node.span))
        self.expect(left, BOOL, node.left.span, f"before '{op}'")
        canon = LOGIC[op]
        if isinstance(left, Known):  # constant conditions short-circuit, like Python
            if (canon == "and" and not left.value) or (canon == "or" and left.value):
                self.skip(node.right, ctx)
                return Known(left.value, BOOL)
            if canon == "implies" and not left.value:
                self.skip(node.right, ctx)
                return Known(True, BOOL)
            if canon in ("and", "or", "implies"):
                right = self.expr(node.right, ctx)
                self.expect(right, BOOL, node.right.span, f"after '{op}'")
                return right
        right = self.expr(node.right, ctx)
        self.expect(right, BOOL, node.right.span, f"after '{op}'")
        if isinstance(right, Known) and canon in ("and", "or"):
            if (canon == "and") == right.value:
                return left
            assert isinstance(left, Sym)  # a known left operand of 'and'/'or' returned above
            if not ctx.primes or not mentions_primed(left.expr):
                return Known(right.value, BOOL)
            # `x' = 0 or true` keeps x' in the IR: x is changed (the frame rule)
        return self._fold_or_build(node, canon, left, right, BOOL)

    def _equality(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        if not compatible(left.type, right.type):
            raise WrongType(
                f"cannot compare {article(left.type)} with {article(right.type)}", node.span
            )
        if isinstance(left, Known) and isinstance(right, Known):
            same = left.value == right.value
            return Known(same if node.op == "==" else not same, BOOL)
        if isinstance(left.type, (SetT, StrT)):
            raise WrongType(f"cannot compare {article(left.type)} in a state expression", node.span)
        return self._fold_or_build(node, node.op, left, right, BOOL)

    def _membership(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        if isinstance(right, Sym) or not isinstance(right.type, (SetT, TupleT)):
            raise WrongType(
                "the right side of 'in' must be a constant set, range or tuple", node.right.span
            )
        assert isinstance(right.value, (frozenset, tuple))  # as its type says
        values = right.value if isinstance(right.value, frozenset) else frozenset(right.value)
        elem = right.type.elem if isinstance(right.type, SetT) else uniform(right.type)
        if values and not compatible(left.type, elem):
            raise WrongType(
                f"cannot look for {article(left.type)} among values of type {elem}", node.span
            )
        negate = node.op == "notin"
        if isinstance(left, Known):
            return Known((left.value in values) != negate, BOOL)
        x = left.expr
        ordered = sorted(values, key=canonical_key)
        e: ir.Expr
        if left.type == INT and len(ordered) > 2 and ordered[-1] - ordered[0] == len(ordered) - 1:
            e = ir.Binary(
                "and",
                ir.Binary("<=", ir.Const(ordered[0]), x, node.span),
                ir.Binary("<=", x, ir.Const(ordered[-1]), node.span),
                node.span,
            )
        else:
            e = ir.disj(
                ir.Binary("==", x, ir.Const(ir_value(v, node.span)), node.span) for v in ordered
            )
        return Sym(ir.Unary("not", e, node.span) if negate else e, BOOL)

    def _tuple_test(self, node: ast.Binary, ctx: Ctx) -> Typed:
        """``(x, k[1]) in S`` or ``(x, y) == t`` with state items: item-wise equalities."""
        tuple_lit = node.left
        assert isinstance(tuple_lit, ast.TupleLit)  # _binary sends tuple literals only
        items = [self.expr(i, ctx) for i in tuple_lit.items]
        right = self.value(node.right, ctx, what=f"the right side of '{node.op}'")
        rv = right.value
        values: list | None
        if node.op in ("==", "!="):
            values = [rv] if isinstance(right.type, TupleT) else None
        elif isinstance(right.type, SetT):
            assert isinstance(rv, frozenset)  # as its type says
            values = sorted(rv, key=canonical_key)
        elif isinstance(right.type, TupleT):
            assert isinstance(rv, tuple)  # as its type says
            values = list(rv)
        else:
            values = None
        if values is None:
            raise WrongType(
                f"expected a constant {'tuple' if node.op in ('==', '!=') else 'set'}"
                f", got {article(right.type)}",
                node.right.span,
            )
        left_type = TupleT(tuple(i.type for i in items))
        options = []
        for v in values:
            if not compatible(left_type, type_of(v)):
                raise WrongType(
                    f"cannot compare {article(left_type)} with {article(type_of(v))}", node.span
                )
            options.append(
                ir.conj(
                    ir.Binary(
                        "==", self.to_ir(t, a.span), ir.Const(ir_value(x, node.span)), node.span
                    )
                    for t, a, x in zip(items, tuple_lit.items, v)
                )
            )
        out = ir.disj(options)
        if node.op in ("!=", "notin"):
            out = ir.Unary("not", out, node.span)
        return Sym(out, BOOL)

    def _arith(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        op = node.op
        if op == "/":
            raise WrongType(
                "'/' is not an operator here: integer (floor) division is "
                "written div, the remainder mod or %",
                node.span,
            )
        if isinstance(left.type, SetT) and op in ("-", "\\"):
            r = right
            if (
                isinstance(r, Sym)
                or not isinstance(r.type, SetT)
                or not compatible(left.type, r.type)
            ):
                raise WrongType(f"cannot subtract {article(r.type)} from a set", node.span)
            # sets exist at load time only
            assert isinstance(left, Known) and isinstance(left.value, frozenset)
            assert isinstance(r.value, frozenset)
            return known(left.value - r.value)
        if op == "\\":
            raise WrongType(f"'\\' is set difference; got {article(left.type)}", node.span)
        if op == "+" and isinstance(left, Known) and isinstance(left.type, TupleT):
            if not (isinstance(right, Known) and isinstance(right.type, TupleT)):
                raise WrongType(f"cannot add {article(right.type)} to a tuple", node.span)
            assert isinstance(left.value, tuple) and isinstance(right.value, tuple)  # their types
            return known(left.value + right.value)
        name = {"//": "div", "%": "mod"}.get(op, op)
        self.expect(left, INT, node.left.span, f"before '{name}'")
        self.expect(right, INT, node.right.span, f"after '{name}'")
        if op in ("//", "%"):
            divisor = right.value if isinstance(right, Known) else None
            assert divisor is None or isinstance(divisor, int)  # checked just above
            if divisor is not None and divisor <= 0 and not isinstance(left, Known):
                raise RangeError(
                    f"the divisor of {name} must be a positive constant, got {divisor}",
                    node.right.span,
                )
            if isinstance(right, Sym) and mentions_state(right.expr):
                raise ModelError(
                    f"the divisor of {name} must be a constant; here it reads "
                    f"the state variable '{mentions_state(right.expr)}'",
                    node.right.span,
                )
        return self._fold_or_build(node, op, left, right, INT)

    def _ite(self, node: ast.IfThenElse, ctx: Ctx) -> Typed:
        c = self.expr(node.cond, ctx)
        self.expect(c, BOOL, node.cond.span, "as the condition")
        if isinstance(c, Known):  # a constant condition selects one branch
            self.skip(node.other if c.value else node.then, ctx)
            return self.expr(node.then if c.value else node.other, ctx)
        a = self.expr(node.then, ctx)
        b = self.expr(node.other, ctx)
        if not compatible(a.type, b.type):
            raise WrongType(
                f"the branches of if-then-else have different types: {a.type} and {b.type}",
                node.span,
            )
        if a.type not in (INT, BOOL):
            raise WrongType(
                f"the branches of a state if-then-else must be ints or bools, "
                f"not {article(a.type)}",
                node.span,
            )
        return Sym(
            ir.Ite(
                c.expr, self.to_ir(a, node.then.span), self.to_ir(b, node.other.span), node.span
            ),
            a.type,
        )


def mentions_primed(e: ir.Expr) -> bool:
    """True when the IR expression ``e`` reads a primed variable or element."""
    return any(isinstance(x, (ir.Var, ir.Elem)) and x.primed for x in ir.walk(e))


def flat_binders(binders: tuple[ast.Binder, ...]) -> list[tuple[ast.Ident, ast.Expr]]:
    """``x, y in D, z in E`` as ``[(x, D), (y, D), (z, E)]``."""
    return [(name, b.domain) for b in binders for name in b.names]


#: binary operators on load-time values, by canonical name (types already checked)
_FOLD = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
    "iff": operator.eq,
    "and": lambda a, b: a and b,
    "or": lambda a, b: a or b,
    "implies": lambda a, b: (not a) or b,
}


def fold(op: str, a, b, span: Span):
    """A binary operator applied to two load-time values (types already checked).

    >>> fold("//", -7, 2, None), fold("implies", False, False, None)
    (-4, True)
    """
    if op in ("//", "%"):
        if b == 0:
            raise RangeError(f"{'division' if op == '//' else 'modulo'} by zero", span)
        return a // b if op == "//" else a % b
    f = _FOLD.get(op)
    if f is None:
        raise AssertionError(op)
    return f(a, b)
