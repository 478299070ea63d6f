"""The traversal of IR expressions, and substitution of bound names.

One traversal idiom (symbolic.nodes): an expression's children are its dataclass fields that
hold an Expr (found once per class), so a new node kind is traversed, mapped
and substituted without touching the functions below. Binders (Quant, Sum)
bind ``var`` in their ``body``.

>>> [type(n).__name__ for n in walk(Var("x") + 1)]
['Binary', 'Var', 'Const']
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Callable, Iterator, Mapping

from .. import nodes
from .exprs import Const, Elem, Expr, Name, Quant, Sum, Value, Var, exists, forall, ite  # noqa: F401 (the doctests)

__all__ = [
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
]


def expr_classes() -> tuple[type, ...]:
    """Every concrete expression node class (the keys a pass's dispatch table needs).

    >>> [c.__name__ for c in expr_classes()][:3]
    ['Const', 'Name', 'Var']
    """
    return nodes.concrete_classes(Expr)


def children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``e``: its fields holding an :class:`Expr`.

    >>> children(ite(Var("b"), 1, Var("x")))
    (Var(name='b', primed=False), Const(value=1), Var(name='x', primed=False))
    """
    return nodes.children(e, Expr)


def map_children(e: Expr, f: Callable[[Expr], Expr]) -> Expr:
    """``e`` with ``f`` applied to each direct sub-expression: a node of the same
    class with the same other fields (span included); ``e`` itself when nothing changed.

    >>> map_children(Var("x") + 1, lambda c: Const(2) if c == Const(1) else c)
    Binary(op='+', left=Var(name='x', primed=False), right=Const(value=2))
    """
    return nodes.map_children(e, f, Expr)


def bound_var(e: Expr) -> str | None:
    """The name a binder (:class:`Quant`, :class:`Sum`) binds in its body, else None."""
    return e.var if isinstance(e, (Quant, Sum)) else None


def walk(e: Expr) -> Iterator[Expr]:
    """Every node of ``e``, parents before children.

    >>> [type(n).__name__ for n in walk(Var("x") + 1)]
    ['Binary', 'Var', 'Const']
    """
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def has_primes(e: Expr) -> bool:
    """True when ``e`` mentions a primed (next-state) variable."""
    return any(isinstance(n, (Var, Elem)) and n.primed for n in walk(e))


def reads_state(e: Expr) -> bool:
    """True when ``e`` mentions a state variable (current or primed).

    >>> reads_state(Name("i") + 1), reads_state(Elem("a", Name("i")))
    (False, True)
    """
    return any(isinstance(n, (Var, Elem)) for n in walk(e))


def free_names(e: Expr) -> set[str]:
    """The names of the :class:`Name` nodes of ``e`` not bound by an enclosing binder.

    >>> sorted(free_names(forall("i", (1, 2), lambda i: i < Name("n")) & Name("i").eq(0)))
    ['i', 'n']
    """
    if isinstance(e, Name):
        return {e.name}
    out: set[str] = set()
    for c in children(e):
        out |= free_names(c)
    v = bound_var(e)
    if v is not None:
        out.discard(v)
    return out


def substitute(e: Expr, env: Mapping[str, Value]) -> Expr:
    """``e`` with every free ``Name`` bound in ``env`` replaced by its constant.

    >>> substitute(Name("d") + Name("i"), {"i": 2})
    Binary(op='+', left=Name(name='d'), right=Const(value=2))
    """
    if not env:
        return e
    if isinstance(e, Name):
        return Const(env[e.name], e.span) if e.name in env else e
    v = bound_var(e)
    if v is not None and v in env:
        env = {k: x for k, x in env.items() if k != v}  # the binder shadows
    return map_children(e, lambda c: substitute(c, env))


def substitute_exprs(e: Expr, env: Mapping[str, Expr]) -> Expr:
    """``e`` with free ``Name`` nodes replaced by expressions, renaming binders
    that would capture a free name of a replacement.

    >>> substitute_exprs(Name("j") + 1, {"j": Var("x")})
    Binary(op='+', left=Var(name='x', primed=False), right=Const(value=1))
    >>> substitute_exprs(exists("i", (1, 2), lambda i: i < Name("j")), {"j": Name("i")}).body
    Binary(op='<', left=Name(name='i_1'), right=Name(name='i'))
    """
    if not env:
        return e
    if isinstance(e, Name):
        return env.get(e.name, e)
    if not isinstance(e, (Quant, Sum)):  # not a binder
        return map_children(e, lambda c: substitute_exprs(c, env))
    v = e.var
    inner = {k: x for k, x in env.items() if k != v}  # the binder shadows
    if not inner:
        return e
    body = e.body
    captured = set().union(*(free_names(x) for x in inner.values()))
    if v in captured:
        # a fresh name: not free in a replacement, in the body, nor about to be substituted
        taken = captured | free_names(body) | set(inner)
        fresh = next(f"{v}_{i}" for i in itertools.count(1) if f"{v}_{i}" not in taken)
        body = substitute_exprs(body, {v: Name(fresh)})
        v = fresh
    return dataclasses.replace(e, var=v, body=substitute_exprs(body, inner))
