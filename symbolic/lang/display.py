"""Checking a ``display`` declaration: an AST text expression to a :mod:`symbolic.display`.

A display expression is text built from

- strings and constant text (``"O"``, a ``const`` string, ``MARK[2]``);
- ``str(e)``: an int or bool state expression, written out;
- ``T[e]``: the item of a constant tuple of strings ``T`` at an int state
  expression ``e`` (0-based);
- ``repeat(text, n)``: ``text`` n times, ``n`` an int state expression;
- ``join(sep, text for x in D ...)``: the texts of a comprehension over
  constant domains, separated by the constant string ``sep``;
- ``a + b`` (concatenation) and ``if c then a else b`` (``c`` a state condition).

Everything reading the position becomes IR (checked by the expression
checker as for guards and sets), so a drawing is evaluated from the IR, never
from text. A mistake is a located :class:`~symbolic.errors.WrongType`.

>>> from symbolic.lang.parser import parse_model_text
>>> from symbolic.lang.decls import check_model
>>> m = check_model(parse_model_text('players 1\\nvar k : 0..3\\nturn 1\\n'
...                                  'display "k=" + str(k) + " " + repeat("|", k)'), "<s>")
>>> from symbolic.explicit.display import render
>>> render(m.display, m.game.space, (2,))
'k=2 ||'
"""

from __future__ import annotations

from typing import Any, Callable

from .. import display as dr
from ..errors import WrongType
from . import ast
from .scope import Ctx
from .types import BOOL, INT, Known, StrT, TupleT, article

__all__ = ["DISPLAY_FUNCTIONS", "DrawingChecker", "DRAW_HANDLERS"]

#: the functions a display expression may call (they make text, so they are
#: not builtins of ordinary expressions)
DISPLAY_FUNCTIONS = ("str", "repeat", "join")

_EXPECTED = (
    "expected text in a display: a string, str(e), T[e] (T a constant tuple of "
    "strings), repeat(text, n), join(sep, text for x in D), text + text, or "
    "if c then text else text"
)


class DrawingChecker:
    """Turns display expressions into drawings, using an expression checker
    (:class:`~symbolic.lang.exprs.ExprChecker`) for every part that reads the state."""

    def __init__(self, checker):
        self.checker = checker

    def draw(self, node: ast.Expr, ctx: Ctx) -> dr.Drawing:
        """The drawing of the text expression ``node``."""
        c = self.checker
        if (
            isinstance(node, ast.Call)
            and node.name in DISPLAY_FUNCTIONS
            and not ctx.is_local(node.name)
            and node.name not in c.scope.entries
        ):
            return _CALLS[node.name](self, node, ctx)
        handler = DRAW_HANDLERS.get(type(node), DrawingChecker._other)
        return handler(self, node, ctx)

    def _other(self, node: ast.Expr, ctx: Ctx) -> dr.Drawing:
        """A constant text, or a located error saying what the expression is instead."""
        t = self.checker.expr(node, ctx)
        if isinstance(t, Known) and isinstance(t.value, str):
            return dr.Text(t.value)
        hint = " (write str(...) to show a number)" if t.type in (INT, BOOL) else ""
        raise WrongType(f"{_EXPECTED}; got {article(t.type)}{hint}", node.span)

    def _concat(self, node: ast.Binary, ctx: Ctx) -> dr.Drawing:
        if node.op != "+":
            raise WrongType(f"{_EXPECTED}; texts are joined with '+'", node.span)
        return _concat([self.draw(node.left, ctx), self.draw(node.right, ctx)])

    def _choose(self, node: ast.IfThenElse, ctx: Ctx) -> dr.Drawing:
        cond = self.checker.state(node.cond, ctx, BOOL, "as the condition of a display's if")
        return dr.Choose(cond, self.draw(node.then, ctx), self.draw(node.other, ctx))

    def _pick(self, node: ast.Index, ctx: Ctx) -> dr.Drawing:
        c = self.checker
        if not c.is_constant(node.base, ctx):
            return self._other(node, ctx)
        base = c.value(node.base, ctx, what="a tuple of texts indexed in a display")
        if not (
            isinstance(base.type, TupleT)
            and base.value
            and all(isinstance(t, StrT) for t in base.type.items)
        ):
            raise WrongType(
                f"a display indexes a constant tuple of strings, got {article(base.type)}",
                node.base.span,
            )
        index = c.state(node.index, ctx, INT, "as an index")
        return dr.Pick(tuple(base.value), index, node.span)

    # ------------------------------------------------------------------ functions

    def _arity(self, node: ast.Call, n: int, usage: str) -> None:
        if len(node.args) != n or (
            node.args and isinstance(node.args[0], ast.Generator) and n != 1
        ):
            raise WrongType(
                f"{node.name} takes {n} argument{'s' if n > 1 else ''}: {usage}", node.span
            )

    def _str(self, node: ast.Call, ctx: Ctx) -> dr.Drawing:
        self._arity(node, 1, "str(e) writes an int or bool")
        return dr.Show(self.checker.state(node.args[0], ctx, None))

    def _repeat(self, node: ast.Call, ctx: Ctx) -> dr.Drawing:
        self._arity(node, 2, "repeat(text, n)")
        count = self.checker.state(node.args[1], ctx, INT, "as the count of repeat")
        return dr.Repeat(self.draw(node.args[0], ctx), count)

    def _join(self, node: ast.Call, ctx: Ctx) -> dr.Drawing:
        self._arity(node, 2, "join(sep, text for x in D)")
        sep = self.checker.value(node.args[0], ctx, what="the separator of join")
        if not isinstance(sep.value, str):
            raise WrongType(
                f"the separator of join is a string, got {article(sep.type)}", node.args[0].span
            )
        gen = node.args[1]
        if isinstance(gen, ast.Generator):
            items = [self.draw(gen.elem, inner) for inner in self.checker.iterate(gen.clauses, ctx)]
        elif isinstance(gen, ast.TupleLit):
            items = [self.draw(item, ctx) for item in gen.items]
        else:
            raise WrongType(
                "join's second argument is 'text for x in D' or a tuple of texts", gen.span
            )
        parts: list[dr.Drawing] = []
        for i, item in enumerate(items):
            if i:
                parts.append(dr.Text(sep.value))
            parts.append(item)
        return _concat(parts)


def _concat(parts: list[dr.Drawing]) -> dr.Drawing:
    """One drawing for the parts: nested concatenations flattened, adjacent texts merged."""
    flat: list[dr.Drawing] = []
    for p in parts:
        for q in p.parts if isinstance(p, dr.Concat) else (p,):
            if isinstance(q, dr.Text) and flat and isinstance(flat[-1], dr.Text):
                flat[-1] = dr.Text(flat[-1].text + q.text)
            else:
                flat.append(q)
    return flat[0] if len(flat) == 1 else dr.Concat(tuple(flat))


#: display function -> the method drawing a call of it
_CALLS: dict[str, Callable[[DrawingChecker, ast.Call, Ctx], dr.Drawing]] = {
    "str": DrawingChecker._str,
    "repeat": DrawingChecker._repeat,
    "join": DrawingChecker._join,
}

#: expression class -> how it draws when it reads the state; every other class
#: is refused with a located message (a method takes a node of its key's class)
DRAW_HANDLERS: dict[type[ast.Expr], Callable[[DrawingChecker, Any, Ctx], dr.Drawing]] = {
    ast.Binary: DrawingChecker._concat,
    ast.IfThenElse: DrawingChecker._choose,
    ast.Index: DrawingChecker._pick,
}
