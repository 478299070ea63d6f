"""Calls of builtin functions in expressions: evaluated now when every argument
is constant, expanded into IR when ``abs``, ``min``, ``max``, ``int``, ``sum``
or ``count`` range over state expressions (:data:`~.builtins.STATE_BUILTINS`).

:class:`BuiltinCalls` is a base class of :class:`~.exprs.ExprChecker`, apart
because calls are a job of their own; its methods use the checker's ``scope``,
``expr``, ``value``, ``state``, ``expect``, ``to_ir``, ``is_constant``,
``domain``, ``comprehension`` and, for a call of a parameterised set,
``_inline``.

>>> from symbolic.lang.exprs import ExprChecker
>>> from symbolic.lang.parser import parse_formula_text
>>> from symbolic.lang.scope import EMPTY, Scope
>>> ExprChecker(Scope()).expr(parse_formula_text("xor(3, 5) + max({2, 7})"), EMPTY)
Known(value=13, type=IntT())
"""

from __future__ import annotations

from .. import ir
from ..errors import RangeError, SymbolicError, WrongType
from . import ast
from .builtins import BUILTINS, STATE_BUILTINS
from .core import CheckerCore
from .scope import Ctx
from .types import BOOL, INT, Known, LoadValue, Sym, TupleT, Type, Typed, article, known, make_set

__all__ = ["BuiltinCalls"]


class BuiltinCalls(CheckerCore):
    """Checks calls of builtins (a base of :class:`~.exprs.ExprChecker`)."""

    def _call(self, node: ast.Call, ctx: Ctx) -> Typed:
        """A call: of a set (inlined), or of a builtin."""
        n = node.name
        if ctx.is_local(n):
            raise WrongType(f"'{n}' is a bound name, not a function", node.span)
        if n == "does":
            return self._does(node, ctx)
        e = self.scope.entries.get(n)
        if e is not None:
            if e.definition is None:
                raise WrongType(f"'{n}' is a {e.kind}, not a function or a set", node.span)
            return self._inline(e.definition, node.args, node, ctx)
        b = BUILTINS.get(n)
        if b is None:
            raise self.scope.unknown_name(n, node.span, ctx, functions=True)
        if len(node.args) > 1 and isinstance(node.args[-1], ast.Generator):
            # the grammar reads f(a, e for x in D) for a display's join(sep, ...)
            raise WrongType(
                f"a generator 'e for x in D' must be the only argument of {n}", node.args[-1].span
            )
        if n in STATE_BUILTINS and not self.is_constant(node, ctx):
            return self._state_builtin(node, ctx)
        if n == "len" and len(node.args) == 1 and not self.is_constant(node, ctx):
            t = self.expr(node.args[0], ctx)  # a bound tuple: its length is in its type
            if isinstance(t.type, TupleT):
                return Known(len(t.type.items), INT)
        args: list[LoadValue] = []
        for a in node.args:
            if isinstance(a, ast.Generator):
                args.append(tuple(self.comprehension(a.elem, a.clauses, ctx)))
            else:
                args.append(self.value(a, ctx, what=f"an argument of {n}").value)
        try:
            out = b.call(tuple(args))
        except SymbolicError as err:
            raise type(err)(err.message, err.span or node.span) from None
        if isinstance(out, frozenset):
            out = make_set(out, node.span)
        return known(out)

    def _does(self, node: ast.Call, ctx: Ctx) -> Typed:
        """``does(p, a)`` outside a concurrent game's updates (the model checker
        overrides this there)."""
        raise WrongType(
            "does(p, action) may appear only in the updates of a concurrent game", node.span
        )

    def _state_builtin(self, node: ast.Call, ctx: Ctx) -> Typed:
        """``abs``, ``min``, ``max``, ``int``, ``sum``, ``count`` over state expressions."""
        n, args = node.name, node.args
        if n in ("sum", "count"):
            if len(args) != 1 or not isinstance(args[0], ast.Generator):
                raise WrongType(
                    f"{n}(...) over state expressions needs a generator, "
                    f"as in {n}(k[i] for i in 1..n)",
                    node.span,
                )
            return self._sym_sum(args[0], ctx, n == "count")
        if any(isinstance(a, ast.Generator) for a in args):
            raise WrongType(
                f"{n}(... for ...) needs constant elements; over state "
                f"expressions list the arguments: {n}(a, b)",
                node.span,
            )
        parts = [self.expr(a, ctx) for a in args]
        if n == "int":
            if len(parts) != 1:
                raise WrongType("int(b) takes 1 argument", node.span)
            if parts[0].type == INT:
                return parts[0]
            self.expect(parts[0], BOOL, args[0].span, "in int(...)")
            if isinstance(parts[0], Known):  # folded, e.g. int(false and k[1] > 0)
                assert isinstance(parts[0].value, bool)  # as its type says
                return Known(int(parts[0].value), INT)
            return Sym(ir.Ite(parts[0].expr, ir.Const(1), ir.Const(0), node.span), INT)
        for p, a in zip(parts, args):
            self.expect(p, INT, a.span, f"in {n}(...)")
        irs = [self.to_ir(p, a.span) for p, a in zip(parts, args)]
        if n == "abs":
            if len(irs) != 1:
                raise WrongType("abs(n) takes 1 argument", node.span)
            x = irs[0]
            return Sym(ir.Ite(ir.Binary("<", x, ir.Const(0)), ir.Unary("-", x), x, node.span), INT)
        if n in ("min", "max"):
            if len(irs) < 2:
                raise WrongType(
                    f"{n}(a, b, ...) over state expressions needs at least two arguments", node.span
                )
            cmp = "<=" if n == "min" else ">="
            out = irs[0]
            for x in irs[1:]:
                out = ir.Ite(ir.Binary(cmp, out, x), out, x, node.span)
            return Sym(out, INT)
        raise AssertionError(n)

    def _sym_sum(self, gen: ast.Generator, ctx: Ctx, counting: bool) -> Typed:
        """``sum(e for x in D if c)`` / ``count(...)`` over state expressions, as IR Sum."""
        fn = "count" if counting else "sum"

        def build(i: int, ctx: Ctx) -> tuple[ir.Expr, Type | None]:
            if i == len(gen.clauses):
                t = self.expr(gen.elem, ctx)
                if counting:
                    self.expect(t, BOOL, gen.elem.span, "in count(...)")
                elif t.type not in (INT, BOOL):
                    raise WrongType(
                        f"sum(...) adds ints (or counts bools), got {article(t.type)}",
                        gen.elem.span,
                    )
                return self.to_ir(t, gen.elem.span), t.type
            c = gen.clauses[i]
            if isinstance(c, ast.ForClause):
                ctx.check_unbound(c.var)
                values, elem = self.domain(c.domain, ctx, c.var.name)
                if len(set(values)) != len(values):
                    raise RangeError(
                        f"{fn} over a tuple with repeated values: iterate over its indices instead",
                        c.domain.span,
                    )
                if not values:
                    return ir.Const(0), INT
                body, _ = build(
                    i + 1, ctx.bind(c.var.name, Sym(ir.Name(c.var.name, c.var.span), elem))
                )
                return ir.Sum(c.var.name, values, body, gen.span), INT
            if isinstance(c, ast.IfClause):
                cond = self.state(c.cond, ctx, BOOL, "as a condition")
                body, typ = build(i + 1, ctx)
                zero = ir.Const(False if typ == BOOL else 0)
                return ir.Ite(cond, body, zero, c.span), typ
            raise AssertionError(c)

        out, typ = build(0, ctx)
        if typ == BOOL:  # a lone condition (no for clause left): count it
            out = ir.Ite(out, ir.Const(1), ir.Const(0))
        return Sym(out, INT)
