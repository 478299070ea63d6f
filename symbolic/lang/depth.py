"""The depth of a checked set or formula body once the definitions it names are
expanded (what :mod:`.decls` bounds by :data:`~symbolic.limits.MAX_EXPANDED_NESTING`).

>>> from symbolic import atl, ir
>>> expanded_depth(atl.Prop(ir.Var("x") + 1 > 0), {}, {})  # Prop, >, +, x
4
"""

from __future__ import annotations

from typing import Mapping

from .. import atl, ir, nodes

__all__ = ["RECURSION_BOUND", "expanded_depth"]

#: how deep :func:`expanded_depth` recurses before it walks the rest iteratively
RECURSION_BOUND = 500


class _Deep(Exception):
    """The body is deeper than :data:`RECURSION_BOUND`: walk it iteratively."""


def expanded_depth(
    root: atl.Formula, depths: Mapping[str, int], memo: dict[int, tuple[object, int]]
) -> int:
    """The depth of a checked body: its ATL and IR nodes, a named formula it uses
    counting its own depth (``depths``). Linear in the nodes of the DAG (``memo``, by
    node id, is shared by the definitions; leaves are not memoized); recursive to
    :data:`RECURSION_BOUND` levels, iterative below (bodies may be deep).

    >>> f = atl.BoolOp("and", atl.Ref("g"), atl.Prop(ir.Var("x") + 1 > 0))
    >>> expanded_depth(f, {"g": 7}, {})  # and, the use of g, g's 7 levels
    9
    """
    get, kid_fields = memo.get, _KID_FIELDS

    def depth(node, level: int) -> int:
        names = kid_fields.get(node.__class__)
        if names is None:
            names = _kid_names(node)
        if not names:  # a leaf
            if isinstance(node, atl.Ref):
                return 1 + depths.get(node.name, 0)
            return 1
        got = get(id(node))
        if got is not None:
            return got[1]
        if level > RECURSION_BOUND:
            raise _Deep
        below = 0
        for name in names:
            d = depth(getattr(node, name), level + 1)
            if d > below:
                below = d
        if isinstance(node, atl.Ref):
            below = max(below, depths.get(node.name, 0))
        memo[id(node)] = (node, 1 + below)
        return 1 + below

    try:
        return depth(root, 0)
    except _Deep:
        return _iterative_depth(root, depths, memo)


def _iterative_depth(
    root: atl.Formula, depths: Mapping[str, int], memo: dict[int, tuple[object, int]]
) -> int:
    """:func:`expanded_depth` by an explicit stack (the same memo)."""
    stack: list = [root, None]  # a node then None: visit it; a node alone: finish it
    while stack:
        node = stack.pop()
        if node is None:
            node = stack.pop()
            if id(node) in memo:
                continue
            stack.append(node)
            for k in _kids(node):
                if id(k) not in memo:
                    stack.append(k)
                    stack.append(None)
            continue
        if id(node) in memo:
            continue
        below = 0
        for k in _kids(node):
            d = memo[id(k)][1]
            if d > below:
                below = d
        if isinstance(node, atl.Ref):
            below = max(below, depths.get(node.name, 0))
        memo[id(node)] = (node, 1 + below)
    return memo[id(root)][1]


def _kids(node) -> tuple:
    """The direct sub-nodes of an ATL or IR node (a proposition's is its expression)."""
    names = _KID_FIELDS.get(type(node))
    if names is None:
        names = _kid_names(node)
    return tuple([getattr(node, n) for n in names])


def _kid_names(node) -> tuple[str, ...]:
    """The names of the fields of ``node`` holding its direct sub-nodes (once per class)."""
    names = _KID_FIELDS[type(node)] = (
        ("expr",)
        if isinstance(node, atl.Prop)
        else nodes.child_fields(type(node), ir.Expr)
        if isinstance(node, ir.Expr)
        else nodes.child_fields(type(node), atl.Formula)
    )
    return names


_KID_FIELDS: dict[type, tuple[str, ...]] = {}
