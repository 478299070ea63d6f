"""Drawings: how a model draws a position as text (its ``display`` declaration).

A drawing is a small immutable tree built by the checker
(:mod:`symbolic.lang.display`) from the model's ``display`` expression; the
state is read only through IR expressions (:mod:`symbolic.ir`), which
:mod:`symbolic.explicit.display` evaluates with the explicit engine's
interpreter: no model text is ever evaluated.

Nodes: :class:`Text` (fixed text), :class:`Show` (an int or bool state
expression, written in decimal or true/false), :class:`Pick` (the i-th of
constant texts, i a state expression), :class:`Repeat` (a drawing n times),
:class:`Choose` (if-then-else on a boolean state expression), :class:`Concat`.

Definition: ``render(d, c)`` for a position c is
  Text(s) ↦ s;  Show(e) ↦ the decimal (true/false) of e(c);
  Pick(T, e) ↦ T[e(c)] (0-based; out of range: RangeError at e's span);
  Repeat(d, e) ↦ render(d, c) repeated max(e(c), 0) times;
  Choose(e, a, b) ↦ render(a, c) if e(c) else render(b, c);
  Concat(d₁, …, dₙ) ↦ the concatenation.

>>> from symbolic.ir import Var
>>> d = Concat((Text("k="), Show(Var("k")), Text(" "), Repeat(Text("|"), Var("k"))))
>>> exprs(d)
[Var(name='k', primed=False), Var(name='k', primed=False)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import Span
from .ir import Expr

__all__ = ["Drawing", "Text", "Show", "Pick", "Repeat", "Choose", "Concat", "exprs"]


class Drawing:
    """Base of the drawing nodes."""

    __slots__ = ()


def _span():
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Text(Drawing):
    """Fixed text."""

    text: str


@dataclass(frozen=True)
class Show(Drawing):
    """The value of an int or bool state expression."""

    expr: Expr


@dataclass(frozen=True)
class Pick(Drawing):
    """``options[index]`` (0-based), ``index`` an int state expression."""

    options: tuple[str, ...]
    index: Expr
    span: Span | None = _span()


@dataclass(frozen=True)
class Repeat(Drawing):
    """``part`` repeated ``count`` times (a negative count draws nothing)."""

    part: Drawing
    count: Expr


@dataclass(frozen=True)
class Choose(Drawing):
    """``then`` where ``cond`` holds, else ``other``."""

    cond: Expr
    then: Drawing
    other: Drawing


@dataclass(frozen=True)
class Concat(Drawing):
    """The parts one after the other."""

    parts: tuple[Drawing, ...]


def exprs(d: Drawing) -> list[Expr]:
    """The state expressions a drawing reads, in order (for validation)."""
    handler = _EXPRS.get(type(d))
    if handler is None:
        raise AssertionError(d)
    return handler(d)


#: drawing class -> its expressions (a handler takes a drawing of its key's class)
_EXPRS: dict[type[Drawing], Callable[[Any], list[Expr]]] = {
    Text: lambda d: [],
    Show: lambda d: [d.expr],
    Pick: lambda d: [d.index],
    Repeat: lambda d: exprs(d.part) + [d.count],
    Choose: lambda d: [d.cond] + exprs(d.then) + exprs(d.other),
    Concat: lambda d: [e for p in d.parts for e in exprs(p)],
}
