"""What the parts of the expression checker use of it, declared once.

:class:`~.exprs.ExprChecker` is assembled from parts, each a base class with a job
of its own (:class:`~.operators.OperatorChecks`, :class:`~.binders.BinderChecks`,
:class:`~.calls.BuiltinCalls`); a part calls the checker's core methods
(``expr``, ``value``, ``state``, ``expect``, ``to_ir``, ...) and its sibling
parts' methods. :class:`CheckerCore`, the base of every part, declares those
methods and fields for the type checker; it defines nothing at run time (the
methods live in :class:`~.exprs.ExprChecker` and the parts).

>>> from symbolic.lang.exprs import ExprChecker
>>> issubclass(ExprChecker, CheckerCore), [m for m in vars(CheckerCore) if not m.startswith("__")]
(True, [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["CheckerCore"]

if TYPE_CHECKING:
    from .. import atl, ir
    from ..errors import Span
    from . import ast
    from .scope import Ctx, Scope
    from .types import Known, Sym, Type, Typed


class CheckerCore:
    """The checker as its parts see it: declared here, defined by
    :class:`~.exprs.ExprChecker` and its parts."""

    if TYPE_CHECKING:
        scope: Scope
        #: bindings that constant comprehensions and quantifiers may still visit
        _bindings: list[int]

        # ExprChecker
        def expr(self, node: ast.Expr, ctx: Ctx) -> Typed: ...
        def expect(self, t: Typed, want: Type, span: Span, what: str = "") -> None: ...
        def to_ir(self, t: Typed, span: Span) -> ir.Expr: ...
        def state(self, node: ast.Expr, ctx: Ctx, want: Type | None, what: str = "") -> ir.Expr: ...
        def value(
            self, node: ast.Expr, ctx: Ctx, want: Type | None = None, what: str = ""
        ) -> Known: ...
        def int_value(self, node: ast.Expr, ctx: Ctx, what: str) -> int: ...
        def is_constant(self, node: ast.Expr, ctx: Ctx) -> bool: ...
        def skip(self, node: ast.Expr, ctx: Ctx) -> None: ...
        def _inline(self, d: atl.Definition, args: tuple, node: ast.Expr, ctx: Ctx) -> Sym: ...

        # BinderChecks
        def domain(self, node: ast.Expr, ctx: Ctx, var: str) -> tuple[tuple, Type | None]: ...
        def comprehension(
            self, elem: ast.Expr, clauses: tuple[ast.Clause, ...], ctx: Ctx
        ) -> list: ...
