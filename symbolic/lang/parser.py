"""Text to AST: the entry points of the model language's parser.

:func:`parse_model_text` reads a whole model file, :func:`parse_formula_text`
one formula (or state expression): :mod:`.driver`'s fast run of the cached LALR
parser of :mod:`.grammar`; when that gives up (a syntax error, too deep a nesting,
a refused literal), the slow way: lark's parse tree, a nesting check, then
:mod:`.builder`'s tree-to-AST pass, whose errors are the ones reported. Syntax errors
become :class:`~symbolic.errors.ParseError` through :mod:`.syntax_errors`.

>>> m = parse_model_text('game "g"\\nplayers 1, 2', "g.game")
>>> [type(d).__name__ for d in m.decls]
['GameDecl', 'PlayersDecl']
>>> parse_formula_text("<<1>> X x > 0").op
'X'
>>> parse_formula_text("X and U").op  # names where no operator may stand
'and'
"""

from __future__ import annotations

import functools

from lark import Tree
from lark.exceptions import UnexpectedInput, VisitError

from ..errors import ParseError, SymbolicError
from ..limits import MAX_NESTING
from . import ast
from .builder import ToAst
from .driver import DECL_LEVELS, TOO_DEEP, Fallback, fast_parse
from .grammar import _parser
from .source import Source
from .syntax_errors import translate

__all__ = ["parse_model_text", "parse_formula_text"]


# --------------------------------------------------------------------------- entry points


def _check_nesting(tree: Tree, src: Source) -> None:
    """ParseError at the first construct nested more than :data:`MAX_NESTING`
    levels deep (operators, calls, brackets and ``X`` count; parentheses alone
    do not): every later pass is recursive. The walk itself is iterative."""
    limit = MAX_NESTING + DECL_LEVELS
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise ParseError(TOO_DEEP, src.of_meta(node.meta))
        # reversed: the first construct too deep in source order is the one reported
        stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))


@functools.lru_cache(maxsize=32)
def _parse(text: str, filename: str, start: str):
    # memoized: the AST is immutable, and a program that loads one model with several
    # parameter valuations (the ENS answer sheet: 15 loads) parses it once
    try:
        return fast_parse(_parser(), text, filename, start)
    except Fallback:
        pass  # not plain: read the slow way, whose errors are the ones reported
    src = Source(text, filename)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise translate(err, src) from None
    _check_nesting(tree, src)
    try:
        return ToAst(src).transform(tree)
    except VisitError as err:  # lark wraps what the rule methods raise
        if isinstance(err.orig_exc, SymbolicError):
            raise err.orig_exc from None
        raise


def parse_model_text(text: str, filename: str = "<string>") -> ast.ModelAst:
    """The AST of a whole model file, or a :class:`ParseError`."""
    return _parse(text, filename, "start")


def parse_formula_text(text: str, filename: str = "<formula>") -> ast.Expr:
    """The AST of one formula or state expression, or a :class:`ParseError`."""
    if not text.strip():
        raise ParseError("empty formula: expected an expression", Source(text, filename).span(1, 1))
    return _parse(text, filename, "formula_start")
