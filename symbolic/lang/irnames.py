"""Names inside IR expressions, as the checker needs them: the state variable an
expression reads, its free bound names, and the substitution of bound names
(the inlining of a parameterised set).

>>> e = ir.Quant("exists", "i", (1, 2), ir.Name("i") + ir.Name("j") > ir.Var("x"))
>>> mentions_state(e), sorted(free_names(e))
('x', ['j'])
"""
from __future__ import annotations

import itertools
from typing import Mapping

from .. import ir


def mentions_state(e: ir.Expr) -> str | None:
    """The first state variable ``e`` reads, if any."""
    for n in ir.walk(e):
        if isinstance(n, ir.Var):
            return n.name
        if isinstance(n, ir.Elem):
            return n.array
    return None


def free_names(e: ir.Expr) -> set[str]:
    """The :class:`ir.Name` nodes of ``e`` not bound by a quantifier or sum inside it."""
    out: set[str] = set()

    def go(n, bound):
        if isinstance(n, ir.Name):
            if n.name not in bound:
                out.add(n.name)
            return
        if isinstance(n, (ir.Quant, ir.Sum)):
            go(n.body, bound | {n.var})
            return
        for c in ir.children(n):
            go(c, bound)

    go(e, frozenset())
    return out


def substitute_exprs(e: ir.Expr, env: Mapping[str, ir.Expr]) -> ir.Expr:
    """``e`` with free ``Name`` nodes replaced by expressions, renaming binders
    that would capture a free name of a replacement.

    >>> substitute_exprs(ir.Name("j") + 1, {"j": ir.Var("x")})
    Binary(op='+', left=Var(name='x', primed=False), right=Const(value=1))
    """
    if not env:
        return e
    if isinstance(e, ir.Name):
        return env.get(e.name, e)
    if isinstance(e, (ir.Const, ir.Var)):
        return e
    if isinstance(e, ir.Elem):
        return ir.Elem(e.array, substitute_exprs(e.index, env), e.primed, e.span)
    if isinstance(e, ir.Item):
        return ir.Item(substitute_exprs(e.base, env), substitute_exprs(e.index, env), e.span)
    if isinstance(e, ir.Unary):
        return ir.Unary(e.op, substitute_exprs(e.arg, env), e.span)
    if isinstance(e, ir.Binary):
        return ir.Binary(e.op, substitute_exprs(e.left, env), substitute_exprs(e.right, env),
                         e.span)
    if isinstance(e, ir.Ite):
        return ir.Ite(substitute_exprs(e.cond, env), substitute_exprs(e.then, env),
                      substitute_exprs(e.other, env), e.span)
    if isinstance(e, (ir.Quant, ir.Sum)):
        inner = {k: v for k, v in env.items() if k != e.var}
        var, body = e.var, e.body
        captured = set().union(*(free_names(v) for v in inner.values())) if inner else set()
        if var in captured:
            taken = captured | free_names(body)
            var = next(f"{e.var}_{i}" for i in itertools.count(1) if f"{e.var}_{i}" not in taken)
            body = substitute_exprs(body, {e.var: ir.Name(var)})
        body = substitute_exprs(body, inner)
        if isinstance(e, ir.Quant):
            return ir.Quant(e.kind, var, e.domain, body, e.span)
        return ir.Sum(var, e.domain, body, e.span)
    raise AssertionError(e)
