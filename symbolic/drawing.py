"""Drawings: how a model draws a position as text (its ``display`` declaration).

A drawing is a small immutable tree built by the checker
(:mod:`symbolic.lang.drawing`) from the model's ``display`` expression; the
state is read only through IR expressions (:mod:`symbolic.ir`), evaluated by
the explicit engine's interpreter: no model text is ever evaluated.

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

>>> from symbolic.ir import IntType, Space, Var, VarDecl
>>> sp = Space((VarDecl("k", IntType(0, 5)),))
>>> d = Concat((Text("k="), Show(Var("k")), Text(" "), Repeat(Text("|"), Var("k"))))
>>> render(d, sp, (3,))
'k=3 |||'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .errors import RangeError, Span
from .ir import Expr, Space


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


_EXPRS: dict[type, Callable[[Drawing], list[Expr]]] = {
    Text: lambda d: [],
    Show: lambda d: [d.expr],
    Pick: lambda d: [d.index],
    Repeat: lambda d: exprs(d.part) + [d.count],
    Choose: lambda d: [d.cond] + exprs(d.then) + exprs(d.other),
    Concat: lambda d: [e for p in d.parts for e in exprs(p)],
}


class Renderer:
    """A drawing compiled once for a space; ``renderer(position)`` is its text.

    Each state expression is compiled by the explicit interpreter
    (:func:`symbolic.explicit.interp.compile_expr`) when first met.
    """

    def __init__(self, drawing: Drawing, space: Space):
        from .explicit.interp import compile_expr  # the one IR evaluator
        self.drawing = drawing
        self.space = space
        self._compile = compile_expr
        self._fns: dict[int, Callable] = {}

    def value(self, e: Expr, pos: tuple):
        fn = self._fns.get(id(e))
        if fn is None:
            fn = self._fns[id(e)] = self._compile(e, self.space).fn
        return fn(pos, None)

    def __call__(self, pos: tuple) -> str:
        pos = self.space.check_position(pos)
        out: list[str] = []
        self._draw(self.drawing, pos, out)
        return "".join(out)

    def _draw(self, d: Drawing, pos: tuple, out: list) -> None:
        handler = _DRAW.get(type(d))
        if handler is None:
            raise AssertionError(d)
        handler(self, d, pos, out)

    def _text(self, d: Text, pos, out):
        out.append(d.text)

    def _show(self, d: Show, pos, out):
        v = self.value(d.expr, pos)
        out.append(("true" if v else "false") if isinstance(v, bool) else str(v))

    def _pick(self, d: Pick, pos, out):
        i = self.value(d.index, pos)
        if not 0 <= i < len(d.options):
            raise RangeError(f"index {i} is outside 0..{len(d.options) - 1} while drawing "
                             f"the position {self.space.as_dict(pos)}", d.span)
        out.append(d.options[i])

    def _repeat(self, d: Repeat, pos, out):
        for _ in range(max(self.value(d.count, pos), 0)):
            self._draw(d.part, pos, out)

    def _choose(self, d: Choose, pos, out):
        self._draw(d.then if self.value(d.cond, pos) else d.other, pos, out)

    def _concat(self, d: Concat, pos, out):
        for p in d.parts:
            self._draw(p, pos, out)


#: drawing node class -> how it is drawn; a class missing here fails loudly
_DRAW = {
    Text: Renderer._text,
    Show: Renderer._show,
    Pick: Renderer._pick,
    Repeat: Renderer._repeat,
    Choose: Renderer._choose,
    Concat: Renderer._concat,
}


def render(drawing: Drawing, space: Space, pos) -> str:
    """The text of ``drawing`` at position ``pos`` (see the module docstring)."""
    return Renderer(drawing, space)(pos)
