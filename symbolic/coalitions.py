"""Coalition expressions of ATL formulas and the sets of players they denote.

A coalition is built from literals (``{1, 2}``, ``{j}`` with ``j`` an int
parameter), ``players`` (all of them), coalition parameters (``J``), union,
intersection and difference; :func:`coalition_value` evaluates one under the
players of a game and the parameters' bindings. :mod:`symbolic.atl` re-exports
every name.

>>> sorted(coalition_value(CoalitionOp("|", CoalitionRef("J"), CoalitionLit(("j",))), (1, 2, 3), {"J": frozenset({1}), "j": 3}))
[1, 3]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

from .errors import Span, UnknownName, UnknownPlayer, WrongType

__all__ = [
    "AllPlayers",
    "Binding",
    "Coalition",
    "CoalitionLit",
    "CoalitionOp",
    "CoalitionRef",
    "coalition_value",
]


def _span():
    return field(default=None, compare=False, repr=False)


class Coalition:
    """Base of coalition expressions (they evaluate to a frozenset of player ids)."""

    __slots__ = ()


@dataclass(frozen=True)
class CoalitionLit(Coalition):
    """``{1, 2}`` or ``{j}``: members are player ids or names of int parameters."""

    members: tuple[Union[int, str], ...]
    span: Span | None = _span()


@dataclass(frozen=True)
class AllPlayers(Coalition):
    """``players``: every player of the game."""

    span: Span | None = _span()


@dataclass(frozen=True)
class CoalitionRef(Coalition):
    """A coalition parameter ``J`` (an int parameter ``j`` reads as ``{j}``)."""

    name: str
    span: Span | None = _span()


@dataclass(frozen=True)
class CoalitionOp(Coalition):
    """``A | B`` (op ``"|"``), ``A & B`` (``"&"``) or ``A \\ B`` (``"\\\\"``)."""

    op: str
    left: Coalition
    right: Coalition
    span: Span | None = _span()


# --------------------------------------------------------------------------- evaluation

Binding = Union[int, frozenset]


def coalition_value(
    c: Coalition, players: tuple[int, ...], env: Mapping[str, Binding]
) -> frozenset:
    """The set of player ids a coalition expression denotes.

    >>> sorted(coalition_value(CoalitionOp("\\\\", AllPlayers(), CoalitionLit((2,))), (1, 2, 3), {}))
    [1, 3]
    """
    rule = _COALITION.get(type(c))
    if rule is None:
        raise AssertionError(c)
    return rule(c, players, env)


def _lit(c: CoalitionLit, players, env) -> frozenset:
    out = set()
    for m in c.members:
        if isinstance(m, str):
            v = _lookup(env, m, c.span)
            if not isinstance(v, int):
                raise WrongType(f"{m!r} is a coalition, not a player id", c.span)
            out.add(v)
        else:
            out.add(m)
    unknown = sorted(out - set(players))
    if unknown:
        raise UnknownPlayer(unknown, players, c.span)
    return frozenset(out)


def _ref(c: CoalitionRef, players, env) -> frozenset:
    v = _lookup(env, c.name, c.span)
    return frozenset([v]) if isinstance(v, int) else v


_SET_OPS = {"|": frozenset.__or__, "&": frozenset.__and__, "\\": frozenset.__sub__}


def _op(c: CoalitionOp, players, env) -> frozenset:
    op = _SET_OPS.get(c.op)
    if op is None:
        raise AssertionError(c.op)
    return op(coalition_value(c.left, players, env), coalition_value(c.right, players, env))


_COALITION = {
    CoalitionLit: _lit,
    AllPlayers: lambda c, players, env: frozenset(players),
    CoalitionRef: _ref,
    CoalitionOp: _op,
}


def _lookup(env, name, span):
    try:
        return env[name]
    except KeyError:
        raise UnknownName(f"unknown coalition or player parameter {name!r}", span) from None
