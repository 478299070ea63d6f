"""Copying a BDD between managers of any backends, by Shannon expansion.

``copy_function(u, target)`` rebuilds ``u`` (a ``dd.cudd``, ``dd.autoref`` or oxidd
node) in ``target`` (any :class:`~symbolic.bdd.contract.Manager` declaring the same
variable names): f = ite(x, f|x=1, f|x=0), memoized over the nodes of ``u``. The
managers use it when no native copy exists (to or from oxidd). It imports no backend,
so both backend modules can use it.

>>> from symbolic.bdd.managers import make_manager
>>> a, b = make_manager("autoref"), make_manager("autoref")
>>> a.declare(["x", "y"]); b.declare(["y", "x"])
>>> u = copy_function(a.diff(a.var("x"), a.var("y")), b)
>>> b.exact_count(u, 2), b.support(u) == {"x", "y"}
(1, True)
"""

from __future__ import annotations

from .contract import Manager, Node

__all__ = ["copy_function"]


def copy_function(u: Node, target: Manager) -> Node:
    """``u`` (a dd.cudd, dd.autoref or oxidd node) rebuilt in ``target`` by Shannon
    expansion over its nodes, memoized: f = ite(x, f|x=1, f|x=0)."""
    memo: dict = {}
    # told apart by their interface, so that this module imports no backend
    oxidd_source = hasattr(u, "node_var")

    def parts(f):
        """(variable name or None for a constant, value, high, low) of node f."""
        if oxidd_source:
            v = f.node_var()
            if v is None:
                return None, f.valid(), None, None
            return f.manager.var_name(v), None, f.cofactor_true(), f.cofactor_false()
        if f.var is None:
            return None, f == f.bdd.true, None, None
        return f.var, None, f.high if not f.negated else ~f.high, f.low if not f.negated else ~f.low

    stack = [u]
    while stack:
        f = stack[-1]
        key = f if oxidd_source else int(f)
        if key in memo:
            stack.pop()
            continue
        name, value, hi, lo = parts(f)
        if name is None:
            memo[key] = target.const(bool(value))
            stack.pop()
            continue
        kh, kl = (hi, lo) if oxidd_source else (int(hi), int(lo))
        pending = [c for c, k in ((hi, kh), (lo, kl)) if k not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[key] = target.ite(target.var(name), memo[kh], memo[kl])
    return memo[u if oxidd_source else int(u)]
