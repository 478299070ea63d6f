"""Drawing positions: a :mod:`symbolic.display` evaluated at a position, its
state expressions read by this engine's interpreter (:mod:`.interp`).

The semantics is the one of :mod:`symbolic.display`'s docstring.

>>> from symbolic.display import Concat, Repeat, Show, Text
>>> from symbolic.ir import IntType, Space, Var, VarDecl
>>> sp = Space((VarDecl("k", IntType(0, 5)),))
>>> d = Concat((Text("k="), Show(Var("k")), Text(" "), Repeat(Text("|"), Var("k"))))
>>> render(d, sp, (3,))
'k=3 |||'
"""

from __future__ import annotations

from typing import Any, Callable

from ..display import Choose, Concat, Drawing, Pick, Repeat, Show, Text
from ..errors import RangeError
from ..ir import Expr, Space
from .interp import compile_expr

__all__ = ["Renderer", "render"]


class Renderer:
    """A drawing compiled once for a space; ``renderer(position)`` is its text.

    Each state expression is compiled by the interpreter
    (:func:`symbolic.explicit.interp.compile_expr`) when first met.
    """

    def __init__(self, drawing: Drawing, space: Space):
        self.drawing = drawing
        self.space = space
        self._fns: dict[int, Callable] = {}

    def value(self, e: Expr, pos: tuple):
        fn = self._fns.get(id(e))
        if fn is None:
            fn = self._fns[id(e)] = compile_expr(e, self.space).fn
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
            raise RangeError(
                f"index {i} is outside 0..{len(d.options) - 1} while drawing "
                f"the position {self.space.as_dict(pos)}",
                d.span,
            )
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
_DRAW: dict[type, Callable[[Renderer, Any, tuple, list], None]] = {
    Text: Renderer._text,
    Show: Renderer._show,
    Pick: Renderer._pick,
    Repeat: Renderer._repeat,
    Choose: Renderer._choose,
    Concat: Renderer._concat,
}


def render(drawing: Drawing, space: Space, pos) -> str:
    """The text of ``drawing`` at position ``pos`` (see :mod:`symbolic.display`)."""
    return Renderer(drawing, space)(pos)
