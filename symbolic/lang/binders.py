"""Binders in expressions: the constant domains of quantifiers and
comprehensions, and the bindings they visit.

:class:`BinderChecks` is a base class of :class:`~.exprs.ExprChecker`; its
methods use the checker's ``expr``, ``value``, ``expect`` and ``is_constant``.
A quantifier over constant domains with a constant body is evaluated now, one
whose body reads the state becomes an :class:`~symbolic.ir.Quant`; a
comprehension is always evaluated now. The bindings visited now are counted
against :data:`~.builtins.MAX_BINDINGS` for the whole model (:func:`spend`).

>>> from symbolic.lang.exprs import ExprChecker
>>> from symbolic.lang.parser import parse_formula_text
>>> from symbolic.lang.scope import EMPTY, Scope
>>> ExprChecker(Scope()).expr(parse_formula_text("forall i in 1..3: i * i < 10"), EMPTY)
Known(value=True, type=BoolT())
>>> [(i.name, d.hi.value) for i, d in flat_binders(parse_formula_text(
...     "exists a, b in 1..2, c in 1..3: a < c").binders)]
[('a', 2), ('b', 2), ('c', 3)]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from .. import ir
from ..errors import RangeError, Span, SymbolicError, WrongType
from . import ast
from .builtins import MAX_BINDINGS, canonical_key
from .core import CheckerCore
from .scope import Ctx
from .types import (
    BOOL,
    STR,
    Known,
    SetT,
    StrT,
    Sym,
    TupleT,
    Type,
    Typed,
    article,
    known,
    mentions_state,
    uniform,
)

__all__ = ["BinderChecks", "spend", "mentions_primed", "flat_binders"]


class BinderChecks(CheckerCore):
    """Checks quantifiers and iterates comprehensions (a base of
    :class:`~.exprs.ExprChecker`)."""

    def domain(self, node: ast.Expr, ctx: Ctx, var: str) -> tuple[tuple, Type | None]:
        """The values of a constant domain (sets in canonical order) and their type."""
        if not self.is_constant(node, ctx):
            t = self.expr(node, ctx)
            if isinstance(t, Sym):
                free = sorted(ir.free_names(t.expr))
                why = (
                    f"it reads the state variable '{mentions_state(t.expr)}'"
                    if mentions_state(t.expr)
                    else f"it depends on the bound name '{free[0]}'"
                    if free
                    else ""
                )
                raise WrongType(
                    f"the domain of '{var}' must be a constant set, range or tuple, but {why}",
                    node.span,
                )
        d = self.value(node, ctx, what=f"the domain of '{var}'")
        if isinstance(d.type, SetT):
            assert isinstance(d.value, frozenset)  # as its type says
            return tuple(sorted(d.value, key=canonical_key)), d.type.elem
        if isinstance(d.type, TupleT):
            assert isinstance(d.value, tuple)  # as its type says
            return d.value, (uniform(d.type) if d.value else None)
        if isinstance(d.type, StrT):
            assert isinstance(d.value, str)  # as its type says
            return tuple(d.value), STR
        raise WrongType(
            f"the domain of '{var}' must be a set, range or tuple, got {article(d.type)}", node.span
        )

    def _quantifier(self, node: ast.Quantifier, ctx: Ctx) -> Typed:
        pairs = flat_binders(node.binders)
        if self.is_constant(node, ctx):
            return Known(self._const_quant(node.kind, pairs, node.body, ctx), BOOL)
        return self._sym_quant(node, pairs, ctx)

    def _const_quant(
        self,
        kind: str,
        pairs,
        body: ast.Expr,
        ctx: Ctx,
        budget: list[int] | None = None,
        times: int = 1,
    ) -> bool:
        budget = self._bindings if budget is None else budget
        if not pairs:
            holds = self.value(body, ctx, BOOL, "as the quantifier's body").value
            assert isinstance(holds, bool)  # as its type says
            return holds
        (ident, dom), rest = pairs[0], pairs[1:]
        ctx.check_unbound(ident)
        values, _ = self.domain(dom, ctx, ident.name)
        if times > 0:  # counted up front, on the first run of each binder (see iterate)
            spend(budget, len(values) * times, dom.span)
        inner = [times * max(len(values), 1)]

        def run(v):
            out = self._const_quant(
                kind, rest, body, ctx.bind(ident.name, known(v)), budget, inner[0]
            )
            inner[0] = 0  # later runs of the inner binders were counted already
            return out

        results = (run(v) for v in values)
        return all(results) if kind == "forall" else any(results)

    def _sym_quant(self, node: ast.Quantifier, pairs, ctx: Ctx) -> Typed:
        layers = []
        for ident, dom in pairs:
            ctx.check_unbound(ident)
            values, elem = self.domain(dom, ctx, ident.name)
            if not values:  # an empty domain: the body is never instantiated
                return Known(node.kind == "forall", BOOL)
            layers.append((ident.name, tuple(sorted(set(values), key=canonical_key))))
            ctx = replace(
                ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem)),
                domains={**ctx.domains, ident.name: layers[-1][1]},
            )
        body = self.expr(node.body, ctx)
        self.expect(body, BOOL, node.body.span, "as the quantifier's body")
        if isinstance(body, Known):
            return body
        out = body.expr
        for var, values in reversed(layers):
            out = ir.Quant(node.kind, var, values, out, node.span)
        return Sym(out, BOOL)

    def iterate(
        self,
        clauses: tuple[ast.Clause, ...],
        ctx: Ctx,
        budget: list[int] | None = None,
        times: int = 1,
        seen: set | None = None,
    ) -> Iterator[Ctx]:
        """The contexts binding a comprehension's variables, in order (constant
        domains). The bindings are counted up front: the first time a clause
        runs, its domain size times the number of times it will run (``times``)
        is taken from a budget of MAX_ELEMENTS, so a huge product fails at once."""
        budget = self._bindings if budget is None else budget
        seen = set() if seen is None else seen
        if not clauses:
            yield ctx
            return
        c, rest = clauses[0], clauses[1:]
        if isinstance(c, ast.ForClause):
            ctx.check_unbound(c.var)
            values, _ = self.domain(c.domain, ctx, c.var.name)
            if id(c) not in seen:
                seen.add(id(c))
                spend(budget, len(values) * times, c.domain.span)
            for v in values:
                yield from self.iterate(
                    rest, ctx.bind(c.var.name, known(v)), budget, times * max(len(values), 1), seen
                )
        elif isinstance(c, ast.IfClause):
            if self.value(c.cond, ctx, BOOL, "as a comprehension condition").value:
                yield from self.iterate(rest, ctx, budget, times, seen)
        else:
            raise AssertionError(c)

    def comprehension(self, elem: ast.Expr, clauses: tuple[ast.Clause, ...], ctx: Ctx) -> list:
        """The values of ``elem`` for each binding of the clauses, in order."""
        return [
            self.value(elem, inner, what="a comprehension element").value
            for inner in self.iterate(clauses, ctx)
        ]

    def _constant_bindings(self, pairs, ctx: Ctx, limit: int = 10_000) -> list[Ctx] | None:
        """Every context binding ``pairs`` to constant values, or None when a
        domain is not constant (or there are more than ``limit`` bindings)."""
        contexts = [ctx]
        for ident, dom in pairs:
            try:
                values, _ = self.domain(dom, ctx, ident.name)
            except SymbolicError:
                return None
            contexts = [c.bind(ident.name, known(v)) for c in contexts for v in values]
            if len(contexts) > limit:
                return None
        return contexts


def spend(budget: list[int], n: int, span: Span) -> None:
    """Take ``n`` bindings from ``budget``; a located RangeError when it runs out."""
    budget[0] -= n
    if budget[0] < 0:
        raise RangeError(
            f"too many constant bindings: with this comprehension or quantifier "
            f"the model visits more than {MAX_BINDINGS} (use smaller domains)",
            span,
        )


def mentions_primed(e: ir.Expr) -> bool:
    """True when the IR expression ``e`` reads a primed variable or element."""
    return any(isinstance(x, (ir.Var, ir.Elem)) and x.primed for x in ir.walk(e))


def flat_binders(binders: tuple[ast.Binder, ...]) -> list[tuple[ast.Ident, ast.Expr]]:
    """``x, y in D, z in E`` as ``[(x, D), (y, D), (z, E)]``."""
    return [(name, b.domain) for b in binders for name in b.names]
