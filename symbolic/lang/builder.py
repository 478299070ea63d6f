"""Parse tree to AST: one method per grammar rule builds the
:mod:`symbolic.lang.ast` node, with its span.

String literals are decoded here, ``a < b <= c`` becomes ``a < b and b <= c``,
and an integer literal of more than :data:`~symbolic.limits.MAX_INT_DIGITS`
digits is refused.

>>> from symbolic.lang.grammar import _parser
>>> tree = _parser().parse("0 < x <= 3", start="formula_start")
>>> ToAst(Source("0 < x <= 3", "f")).transform(tree).op
'and'
"""

from __future__ import annotations

import inspect

from lark import v_args
from lark.visitors import Transformer_NonRecursive

from ..errors import ParseError, Span
from ..limits import MAX_INT_DIGITS
from . import ast
from .source import Source, join_spans
from .vocabulary import OPERATORS, TEMPORAL

__all__ = ["ToAst"]


def _decode_string(raw: str) -> str:
    """The value of a string literal (``"..."`` or ``\"\"\"...\"\"\"``), escapes resolved."""
    if raw.startswith('"""'):
        body, long = raw[3:-3], True
    else:
        body, long = raw[1:-1], False
    out, i = [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    text = "".join(out)
    return inspect.cleandoc(text) if long else text


def _present(children) -> list:
    """Children without lark's ``None`` placeholders for absent optional parts."""
    return [c for c in children if c is not None]


@v_args(meta=True)
class ToAst(Transformer_NonRecursive):
    """Builds :mod:`symbolic.lang.ast` nodes from the lark tree (one method per rule)."""

    def __init__(self, source: Source):
        super().__init__()
        self.src = source

    def _span(self, meta) -> Span:
        return self.src.of_meta(meta)

    # --- tokens and small rules
    def ident(self, meta, children):
        tok = children[0]
        return ast.Ident(str(tok), self.src.of_token(tok))

    def string(self, meta, children):
        return _decode_string(str(children[0]))

    def _op(self, meta, children):
        if len(children) == 1:
            return str(children[0])
        return " ".join(str(c) for c in children)

    iff_op = implies_op = or_op = and_op = not_op = comp_op = add_op = mul_op = _op
    quant_op = prefix_temporal_op = infix_temporal_op = _op

    # --- declarations
    def start(self, meta, children):
        decls = []
        for c in children:
            decls.extend(c if isinstance(c, list) else [c])
        return ast.ModelAst(tuple(decls), self._span(meta))

    def formula_start(self, meta, children):
        return children[0]

    def game_decl(self, meta, children):
        name, description = children
        return ast.GameDecl(name, description, self._span(meta))

    def description_decl(self, meta, children):
        return ast.DescriptionDecl(children[0], self._span(meta))

    def param_decl(self, meta, children):
        return list(children)

    def param_item(self, meta, children):
        name, typ, default = children
        return ast.ParamDecl(name, typ, default, self._span(meta))

    def const_decl(self, meta, children):
        return list(children)

    def const_item(self, meta, children):
        name, expr = children
        return ast.ConstDecl(name, expr, self._span(meta))

    def players_decl(self, meta, children):
        return ast.PlayersDecl(tuple(children), self._span(meta))

    def var_decl(self, meta, children):
        *names, typ = children
        return ast.VarDecl(tuple(names), typ, self._span(meta))

    def bool_type(self, meta, children):
        return ast.BoolSpec(self._span(meta))

    def range_type(self, meta, children):
        lo, hi = children
        return ast.RangeSpec(lo, hi, self._span(meta))

    def array_type(self, meta, children):
        lo, hi, elem = children
        return ast.ArraySpec(lo, hi, elem, self._span(meta))

    def turn_decl(self, meta, children):
        return ast.TurnDecl(children[0], self._span(meta))

    def invariant_decl(self, meta, children):
        return ast.InvariantDecl(children[0], self._span(meta))

    def move_decl(self, meta, children):
        name, params, guard, effects = children
        return ast.MoveDecl(name, tuple(params or ()), guard, tuple(effects), self._span(meta))

    def concurrent_decl(self, meta, children):
        return ast.ConcurrentDecl(self._span(meta))

    def action_decl(self, meta, children):
        players, name, params, guard = children
        return ast.ActionDecl(players, name, tuple(params or ()), guard, self._span(meta))

    def update_decl(self, meta, children):
        guard, effects = children
        return ast.UpdateDecl(guard, tuple(effects), self._span(meta))

    def move_params(self, meta, children):
        return _present(children)

    def effect(self, meta, children):
        return _present(children)

    def set_decl(self, meta, children):
        name, formals, body = children
        return ast.SetDecl(name, tuple(formals or ()), body, self._span(meta))

    def formula_decl(self, meta, children):
        name, formals, body = children
        return ast.FormulaDecl(name, tuple(formals or ()), body, self._span(meta))

    def formals(self, meta, children):
        return _present(children)

    def formal(self, meta, children):
        name, kind = children
        return ast.Formal(name, kind, self._span(meta))

    def query_decl(self, meta, children):
        return list(children)

    def query_item(self, meta, children):
        text = self.src.text[meta.start_pos : meta.end_pos]
        return ast.QueryDecl(children[0], text, self._span(meta))

    def display_decl(self, meta, children):
        return ast.DisplayDecl(children[0], self._span(meta))

    def outcome_decl(self, meta, children):
        return ast.OutcomeDecl(children[0], self._span(meta))

    # --- expressions
    def binary(self, meta, children):
        left, op, right = children
        return ast.Binary(OPERATORS[op], left, right, self._span(meta))

    def unary(self, meta, children):
        op, arg = children
        return ast.Unary(OPERATORS[op], arg, self._span(meta))

    def neg(self, meta, children):
        return ast.Unary("-", children[0], self._span(meta))

    def compare(self, meta, children):
        """``a < b <= c`` is ``a < b and b <= c`` (Python's chained comparisons)."""
        operands, ops = children[0::2], children[1::2]
        parts = []
        for left, op, right in zip(operands, ops, operands[1:]):
            span = join_spans(left.span, right.span)
            parts.append(ast.Binary(OPERATORS[op], left, right, span))
        out = parts[0]
        for p in parts[1:]:
            out = ast.Binary("and", out, p, self._span(meta))
        return out

    def range(self, meta, children):
        lo, hi = children
        return ast.Range(lo, hi, self._span(meta))

    def index(self, meta, children):
        base, idx = children
        return ast.Index(base, idx, self._span(meta))

    def int_lit(self, meta, children):
        digits = str(children[0])
        if len(digits) > MAX_INT_DIGITS:
            raise ParseError(
                f"integer literal of {len(digits)} digits: at most {MAX_INT_DIGITS} are allowed",
                self._span(meta),
            )
        return ast.IntLit(int(digits), self._span(meta))

    def true_lit(self, meta, children):
        return ast.BoolLit(True, self._span(meta))

    def false_lit(self, meta, children):
        return ast.BoolLit(False, self._span(meta))

    def string_lit(self, meta, children):
        return ast.StrLit(children[0], self._span(meta))

    def name(self, meta, children):
        tok, prime = children
        return ast.Name(str(tok), prime is not None, self._span(meta))

    def call(self, meta, children):
        tok, args = children
        if args is None:
            args = ()
        elif isinstance(args, ast.Generator):
            args = (args,)
        return ast.Call(str(tok), tuple(args), self._span(meta))

    def args(self, meta, children):
        return list(children)

    def generator(self, meta, children):
        elem, clauses = children
        return ast.Generator(elem, tuple(clauses), self._span(meta))

    def first_and_generator(self, meta, children):
        """``f(a, e for x in D)``: an argument, then a generator (``join`` of a display)."""
        first, elem, clauses = children
        return [first, ast.Generator(elem, tuple(clauses), join_spans(elem.span, clauses[-1].span))]

    def comp_clauses(self, meta, children):
        return list(children)

    def comp_for(self, meta, children):
        var, domain = children
        return ast.ForClause(var, domain, self._span(meta))

    def comp_if(self, meta, children):
        return ast.IfClause(children[0], self._span(meta))

    def tuple_lit(self, meta, children):
        return ast.TupleLit(tuple(_present(children)), self._span(meta))

    def set_lit(self, meta, children):
        return ast.SetLit(tuple(_present(children)), self._span(meta))

    def set_comp(self, meta, children):
        elem, clauses = children
        return ast.SetComp(elem, tuple(clauses), self._span(meta))

    def players(self, meta, children):
        return ast.Players(self._span(meta))

    def turn_of(self, meta, children):
        return ast.TurnOf(tuple(_present(children)), self._span(meta))

    def quantifier(self, meta, children):
        kind, *binders, body = children
        return ast.Quantifier(OPERATORS[kind], tuple(binders), body, self._span(meta))

    def binder(self, meta, children):
        *names, domain = children
        return ast.Binder(tuple(names), domain, self._span(meta))

    def ite(self, meta, children):
        cond, then, other = children
        return ast.IfThenElse(cond, then, other, self._span(meta))

    # --- ATL
    def coalition(self, meta, children):
        return tuple(_present(children))

    def strategic_prefix(self, meta, children):
        coalition, op, arg = children
        return ast.Strategic(TEMPORAL[op], coalition, (arg,), self._span(meta))

    def strategic_infix(self, meta, children):
        coalition, left, op, right = children
        return ast.Strategic(TEMPORAL[op], coalition, (left, right), self._span(meta))
