"""The one traversal idiom of symbolic's node trees (IR expressions, ATL formulas).

A node is a frozen dataclass; its *children* are the fields whose declared type
is the tree's base class (``left: Expr``), found once per class from
``dataclasses.fields``. So a new node class is traversed, mapped and
substituted by every generic pass without touching them, and passes written as
dispatch tables can check they cover :func:`concrete_classes`.

>>> from symbolic import ir
>>> child_fields(ir.Binary, ir.Expr)
('left', 'right')
>>> map_children(ir.Var("x") + 1, lambda c: ir.Const(2) if c == ir.Const(1) else c, ir.Expr)
Binary(op='+', left=Var(name='x', primed=False), right=Const(value=2))
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Callable, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["N", "child_fields", "children", "map_children", "concrete_classes"]

#: a node: an instance of a dataclass (the tree's base class declares ``__dataclass_fields__``)
N = TypeVar("N", bound="DataclassInstance")

_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(cls: type, base: type) -> tuple[str, ...]:
    """The names of the fields of node class ``cls`` that hold a ``base`` node."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        if not (dataclasses.is_dataclass(cls) and issubclass(cls, base)):
            raise AssertionError(cls)
        # annotations are strings under ``from __future__ import annotations``
        names = tuple(f.name for f in dataclasses.fields(cls) if f.type in (base.__name__, base))
        _CHILD_FIELDS[cls] = names
    return names


def children(node, base: type) -> tuple:
    """The direct sub-nodes of ``node``, in field order."""
    return tuple(getattr(node, n) for n in child_fields(type(node), base))


def map_children(node: N, f: Callable, base: type) -> N:
    """``node`` with ``f`` applied to each direct sub-node: a node of the same class
    with the same other fields (span included); ``node`` itself when nothing changed."""
    names = child_fields(type(node), base)
    if not names:
        return node
    new = {n: f(getattr(node, n)) for n in names}
    if all(new[n] is getattr(node, n) for n in names):
        return node
    return dataclasses.replace(node, **new)


def concrete_classes(base: type) -> tuple[type, ...]:
    """Every dataclass below ``base`` (the keys a dispatch table over it needs)."""
    out: list[type] = []
    todo: list[type] = list(base.__subclasses__())
    while todo:
        c = todo.pop(0)
        if dataclasses.is_dataclass(c):
            out.append(c)
        todo.extend(c.__subclasses__())
    return tuple(out)
