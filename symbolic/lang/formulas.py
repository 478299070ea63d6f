"""Formula checking: an AST expression to an ATL formula of :mod:`symbolic.atl`.

A sub-formula without ATL in it is a state expression (an :class:`atl.Prop`,
checked by :class:`~.exprs.ExprChecker`); a bare use of a declared set or
formula is an :class:`atl.Ref`; the rest is structure — boolean connectives,
if-then-else, ``turn(J)``, the strategic operators and quantifiers expanded
over their finite domains — dispatched on the node class through
:data:`FORMULA_HANDLERS`. Coalitions (``<<1, 2>>``, ``<<J>>``,
``<<players \\ J>>``) are checked here too.

>>> from symbolic.lang.parser import parse_formula_text
>>> scope = Scope(players=(1, 2))
>>> FormulaChecker(scope).formula(parse_formula_text("<<1>> X not turn(2)"), EMPTY)
Next(coalition=CoalitionLit(members=(1,)), arg=Not(arg=Turn(coalition=CoalitionLit(members=(2,)))))
"""

from __future__ import annotations

from typing import Any, Callable

from .. import atl, ir
from ..errors import RangeError, Span, WrongType
from . import ast
from .binders import flat_binders
from .exprs import ExprChecker
from .scope import EMPTY, Ctx, Scope, arity_message
from .types import BOOL, INT, Known, SetT, Sym, TupleT, article, known, type_of
from .vocabulary import COALITION_OPERATORS, FORMULA_FUNCTION_NAMES, LOGIC

__all__ = [
    "STRATEGIC",
    "FORMULA_FUNCTIONS",
    "FormulaChecker",
    "FORMULA_HANDLERS",
    "check_formula",
    "check_state_expr",
]

#: canonical strategic operator -> its ATL constructor, called as ``f(J, *args, span)``
STRATEGIC: dict[str, Callable[..., atl.Formula]] = {
    "X": atl.Next,
    "U": atl.Until,
    "R": atl.Release,
    "<>": atl.Eventually,
    "[]": atl.Always,
}


#: functions on formulas, called like builtins: name -> its ATL constructor ``f(arg, span)``
#: (a set or formula the model declares under the same name takes precedence)
FORMULA_FUNCTIONS = {
    "reach": atl.Reach,
}
assert set(FORMULA_FUNCTIONS) == FORMULA_FUNCTION_NAMES, FORMULA_FUNCTIONS


class FormulaChecker(ExprChecker):
    """Checks ATL formulas (and, inherited, expressions) against a :class:`Scope`."""

    def formula(self, node: ast.Expr, ctx: Ctx) -> atl.Formula:
        """``node`` as an ATL formula; state sub-formulas become :class:`atl.Prop`."""
        ref = self._as_ref(node, ctx)
        if ref is not None:
            return ref
        if not self.is_temporal(node, ctx):
            t = self.expr(node, ctx)
            self.expect(t, BOOL, node.span, "as a formula")
            if isinstance(t, Known):
                assert isinstance(t.value, bool)  # as its type says
                return atl.Truth(t.value, node.span)
            return atl.Prop(t.expr, node.span)
        handler = FORMULA_HANDLERS.get(type(node))
        if handler is None:
            raise AssertionError(node)
        return handler(self, node, ctx)

    # ------------------------------------------------------------------ structure

    def _negation(self, node: ast.Unary, ctx: Ctx) -> atl.Formula:
        if node.op != "not":
            return self._value_not_formula(node, ctx)
        return atl.Not(self.formula(node.arg, ctx), node.span)

    def _connective(self, node: ast.Binary, ctx: Ctx) -> atl.Formula:
        if node.op not in LOGIC:
            return self._value_not_formula(node, ctx)
        return atl.BoolOp(
            LOGIC[node.op], self.formula(node.left, ctx), self.formula(node.right, ctx), node.span
        )

    def _formula_ite(self, node: ast.IfThenElse, ctx: Ctx) -> atl.Formula:
        if self.is_constant(node.cond, ctx):
            # a constant condition selects one branch, as in state expressions: the
            # other may name players that exist only for other parameter values
            k = self.value(node.cond, ctx, BOOL, "as the condition of 'if'")
            return self.formula(node.then if k.value else node.other, ctx)
        c = self.formula(node.cond, ctx)
        return atl.BoolOp(
            "or",
            atl.BoolOp("and", c, self.formula(node.then, ctx)),
            atl.BoolOp("and", atl.Not(c), self.formula(node.other, ctx)),
            node.span,
        )

    def _turn(self, node: ast.TurnOf, ctx: Ctx) -> atl.Formula:
        return atl.Turn(self.coalition(node.coalition, ctx, node.span), node.span)

    def _strategic(self, node: ast.Strategic, ctx: Ctx) -> atl.Formula:
        J = self.coalition(node.coalition, ctx, node.span)
        args = [self.formula(a, ctx) for a in node.args]
        make = STRATEGIC.get(node.op)
        if make is None:
            raise AssertionError(node.op)
        return make(J, *args, node.span)

    def _formula_quantifier(self, node: ast.Quantifier, ctx: Ctx) -> atl.Formula:
        return self._expand_quantifier(node, flat_binders(node.binders), ctx)

    def _expand_quantifier(self, node: ast.Quantifier, pairs, ctx: Ctx) -> atl.Formula:
        """``forall j in players: Gagne(j)`` over formulas: a finite conjunction."""
        if not pairs:
            return self.formula(node.body, ctx)
        (ident, dom), rest = pairs[0], pairs[1:]
        ctx.check_unbound(ident)
        values, _ = self.domain(dom, ctx, ident.name)
        op = "and" if node.kind == "forall" else "or"
        out: atl.Formula | None = None
        for v in values:
            f = self._expand_quantifier(node, rest, ctx.bind(ident.name, known(v)))
            out = f if out is None else atl.BoolOp(op, out, f, node.span)
        return out if out is not None else atl.Truth(node.kind == "forall", node.span)

    def _formula_call(self, node: ast.Call, ctx: Ctx) -> atl.Formula:
        """``reach(F)`` (see :data:`FORMULA_FUNCTIONS`); any other call is a value."""
        make = FORMULA_FUNCTIONS.get(node.name)
        if make is None or ctx.is_local(node.name):
            return self._value_not_formula(node, ctx)
        if len(node.args) != 1 or isinstance(node.args[0], ast.Generator):
            raise WrongType(
                f"{node.name} takes one formula, got {len(node.args)} argument(s)", node.span
            )
        return make(self.formula(node.args[0], ctx), node.span)

    def _value_not_formula(self, node: ast.Expr, ctx: Ctx) -> atl.Formula:
        """A value (sum, set, call...) with a formula inside."""
        raise WrongType(
            "an ATL formula cannot be used as a value here (only not, and, or, "
            "implies, iff and if-then-else combine formulas)",
            node.span,
        )

    # ------------------------------------------------------------------ references

    def _as_ref(self, node: ast.Expr, ctx: Ctx) -> atl.Ref | None:
        """A bare use of a set or formula (``initial``, ``F({1})``) as an :class:`atl.Ref`."""
        if not isinstance(node, (ast.Name, ast.Call)):
            return None
        if isinstance(node, ast.Name) and node.primed:
            return None
        if ctx.is_local(node.name):
            return None
        e = self.scope.entries.get(node.name)
        if e is None or e.definition is None:
            return None
        d = e.definition
        args = node.args if isinstance(node, ast.Call) else ()
        if len(args) != len(d.params):
            raise WrongType(arity_message(d, len(args), e.kind), node.span)
        out: list[atl.Coalition | ir.Name | int] = []
        for (pname, kind), a in zip(d.params, args):
            if kind == "coalition":
                out.append(self.coalition((a,), ctx, a.span))
            elif isinstance(a, ast.Name) and not a.primed and a.name in ctx.fparams:
                self._name(a, ctx)  # records the int use, rejects coalitions
                out.append(ir.Name(a.name, a.span))
            else:
                t = self.expr(a, ctx)
                if (
                    isinstance(t, Known)
                    and isinstance(t.value, (frozenset, tuple))
                    and len(t.value) == 1
                    and type_of(next(iter(t.value))) == INT
                ):
                    t = known(next(iter(t.value)))  # {1} passed for a player: 1
                self.expect(t, INT, a.span, f"for the parameter '{pname}' of {d.name}")
                if isinstance(t, Sym):
                    raise WrongType(
                        f"the argument '{pname}' of {d.name} must be a constant "
                        f"or a parameter of the enclosing formula",
                        a.span,
                    )
                assert isinstance(t.value, int)  # as its type says
                out.append(t.value)
        return atl.Ref(d.name, tuple(out), node.span, d)

    # ------------------------------------------------------------------ coalitions

    def coalition(self, members: tuple[ast.Expr, ...], ctx: Ctx, span: Span) -> atl.Coalition:
        """The union of coalition expressions (``<<1, 2>>``, ``<<J>>``, ``<<players \\ J>>``)."""
        if not members:
            return atl.CoalitionLit((), span)
        parts = [self._coalition_expr(m, ctx) for m in members]
        lits = [p for p in parts if isinstance(p, atl.CoalitionLit)]
        rest = [p for p in parts if not isinstance(p, atl.CoalitionLit)]
        if len(lits) > 1:
            merged = sorted(
                set().union(*(p.members for p in lits)),
                key=lambda m: (
                    isinstance(m, str),
                    m if isinstance(m, str) else "",
                    m if isinstance(m, int) else 0,
                ),
            )
            lits = [atl.CoalitionLit(tuple(merged), span)]
        out: atl.Coalition | None = None
        for p in lits + rest:
            out = p if out is None else atl.CoalitionOp("|", out, p, span)
        assert out is not None  # there are members
        return out

    def _coalition_expr(self, node: ast.Expr, ctx: Ctx) -> atl.Coalition:
        if isinstance(node, ast.Players):
            self.scope.require_players(node.span)
            return atl.AllPlayers(node.span)
        if isinstance(node, ast.Name) and not node.primed and node.name in ctx.fparams:
            return atl.CoalitionRef(node.name, node.span)
        mentions = any(isinstance(n, ast.Name) and n.name in ctx.fparams for n in ast.walk(node))
        if mentions and isinstance(node, ast.Binary) and node.op in COALITION_OPERATORS:
            return atl.CoalitionOp(
                COALITION_OPERATORS[node.op],
                self._coalition_expr(node.left, ctx),
                self._coalition_expr(node.right, ctx),
                node.span,
            )
        if mentions and isinstance(node, ast.SetLit):
            members: list[int | str] = []
            for item in node.items:
                if isinstance(item, ast.Name) and not item.primed and item.name in ctx.fparams:
                    self._name(item, ctx)  # an int use; a coalition parameter is an error
                    members.append(item.name)
                else:
                    members.extend(self._player_ids(item, ctx))
            return atl.CoalitionLit(tuple(members), node.span)
        if mentions:
            raise WrongType(
                "a coalition combines players, players, {...} lists and "
                "parameters with |, + (union), & and \\ (difference)",
                node.span,
            )
        return atl.CoalitionLit(self._player_ids(node, ctx), node.span)

    def _player_ids(self, node: ast.Expr, ctx: Ctx) -> tuple[int, ...]:
        v = self.value(node, ctx, what="a coalition")
        # each value as its type says
        ids: tuple[int, ...]
        if v.type == INT:
            assert isinstance(v.value, int)
            ids = (v.value,)
        elif isinstance(v.type, SetT) and v.type.elem in (INT, None):
            assert isinstance(v.value, frozenset)
            ids = tuple(sorted(v.value))
        elif isinstance(v.type, TupleT) and all(t == INT for t in v.type.items):
            assert isinstance(v.value, tuple)
            ids = tuple(sorted(set(v.value)))
        else:
            raise WrongType(
                f"expected a coalition (a player or a set of players), got {article(v.type)}",
                node.span,
            )
        players = self.scope.require_players(node.span)
        unknown = [p for p in ids if p not in players]
        if unknown:
            plural = "" if len(unknown) == 1 else "s"
            raise RangeError(
                f"player{plural} {', '.join(map(str, unknown))} "
                f"{'is' if len(unknown) == 1 else 'are'} not among the players "
                f"{{{', '.join(map(str, players))}}}",
                node.span,
            )
        return ids


#: node class -> the method checking it as a formula, once it is known to hold ATL
#: (a class missing here fails loudly in ``formula``); values with a formula inside
#: are errors (a method takes a node of its key's class)
FORMULA_HANDLERS: dict[type[ast.Expr], Callable[[FormulaChecker, Any, Ctx], atl.Formula]] = {
    ast.Unary: FormulaChecker._negation,
    ast.Binary: FormulaChecker._connective,
    ast.IfThenElse: FormulaChecker._formula_ite,
    ast.TurnOf: FormulaChecker._turn,
    ast.Strategic: FormulaChecker._strategic,
    ast.Quantifier: FormulaChecker._formula_quantifier,
    ast.Call: FormulaChecker._formula_call,
    **{
        cls: FormulaChecker._value_not_formula
        for cls in (
            ast.IntLit,
            ast.BoolLit,
            ast.StrLit,
            ast.Name,
            ast.Index,
            ast.Range,
            ast.TupleLit,
            ast.SetLit,
            ast.SetComp,
            ast.Players,
            ast.Generator,
        )
    },
}


def check_formula(node: ast.Expr, scope: Scope) -> atl.Formula:
    """A parsed formula checked against a model's names."""
    return FormulaChecker(scope).formula(node, EMPTY)


def check_state_expr(node: ast.Expr, scope: Scope) -> ir.Expr:
    """A parsed boolean state expression checked against a model's names."""
    return FormulaChecker(scope).state(node, EMPTY, BOOL, "as a state expression")
