"""Expression checking: an AST expression to a typed load-time value or IR.

:class:`ExprChecker` resolves names against a :class:`~.scope.Scope`, checks
types, evaluates what is constant now (constant sub-expressions fold, constant
conditions short-circuit) and turns the rest into :mod:`symbolic.ir`: names,
indexing, operators, if-then-else, quantifiers and comprehensions over
constant domains, calls of builtins and of parameterised sets. Its
:meth:`~ExprChecker.expr` dispatches on the node class through
:data:`EXPR_HANDLERS`, which covers every :class:`~.ast.Expr` class.

This module holds the checker's core (typed results, constness, dispatch, the
frame rule of skipped branches), names, literals and indexing; operators are
:class:`~.operators.OperatorChecks`, quantifiers and comprehensions
:class:`~.binders.BinderChecks`, calls :class:`~.calls.BuiltinCalls`, its
base classes.

>>> from symbolic.lang.parser import parse_formula_text
>>> from symbolic.lang.scope import EMPTY
>>> ExprChecker(Scope()).expr(parse_formula_text("sum(i * i for i in 1..3)"), EMPTY)
Known(value=14, type=IntT())
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from .. import atl, ir
from ..errors import ModelError, RangeError, Span, SymbolicError, WrongType
from . import ast
from .binders import BinderChecks, flat_binders
from .builtins import BUILTINS, MAX_BINDINGS, MAX_ELEMENTS
from .calls import BuiltinCalls
from .operators import OperatorChecks
from .scope import Ctx, Scope, arity_message, inlinable
from .types import (
    BOOL,
    INT,
    Known,
    SetT,
    Sym,
    TupleT,
    Type,
    Typed,
    article,
    compatible,
    ir_value,
    known,
    make_set,
    mentions_state,
    var_type,
)
from .vocabulary import FORMULA_FUNCTION_NAMES

__all__ = ["ExprChecker", "EXPR_HANDLERS"]


class ExprChecker(OperatorChecks, BinderChecks, BuiltinCalls):
    """Checks expressions against the top-level names of a :class:`Scope`
    (operators, binders and calls: its base classes)."""

    def __init__(self, scope: Scope):
        self.scope = scope
        # tautologies x' = x' for the primed variables of effect branches that a
        # constant condition skipped: see :meth:`skip`
        self._mentions: list[ir.Expr] = []
        # bindings that constant comprehensions and quantifiers may still visit, for
        # the whole model: each costs tens of microseconds, so this bounds the time
        self._bindings = [MAX_BINDINGS]

    # ------------------------------------------------------------------ typed results

    def expect(self, t: Typed, want: Type, span: Span, what: str = "") -> None:
        """A :class:`WrongType` unless ``t`` has type ``want``."""
        if not compatible(t.type, want):
            where = f" {what}" if what else ""
            raise WrongType(f"expected {article(want)}{where}, got {article(t.type)}", span)

    def to_ir(self, t: Typed, span: Span) -> ir.Expr:
        """A checked expression as IR (a known value becomes a constant)."""
        if isinstance(t, Known):
            return ir.Const(ir_value(t.value, span), span)
        return t.expr

    def state(self, node: ast.Expr, ctx: Ctx, want: Type | None, what: str = "") -> ir.Expr:
        """``node`` as an IR state expression of type ``want`` (None: int or bool)."""
        t = self.expr(node, ctx)
        if want is not None:
            self.expect(t, want, node.span, what)
        elif t.type not in (INT, BOOL):
            raise WrongType(f"expected an int or a bool, got {article(t.type)}", node.span)
        return self.to_ir(t, node.span)

    def value(self, node: ast.Expr, ctx: Ctx, want: Type | None = None, what: str = "") -> Known:
        """``node`` evaluated now; an error when it depends on the position."""
        t = self.expr(node, ctx)
        if isinstance(t, Sym):
            var = mentions_state(t.expr)
            reason = (
                f"it reads the state variable '{var}'"
                if var
                else f"it depends on the bound name '{sorted(ir.free_names(t.expr))[0]}'"
                if ir.free_names(t.expr)
                else "it is not constant"
            )
            raise WrongType(f"{what or 'this'} must be a constant, but {reason}", node.span)
        if want is not None:
            self.expect(t, want, node.span, what)
        return t

    def int_value(self, node: ast.Expr, ctx: Ctx, what: str) -> int:
        """``node`` evaluated now as an int."""
        v = self.value(node, ctx, INT, what).value
        assert isinstance(v, int)  # as its type says
        return v

    # ------------------------------------------------------------------ constness

    def is_constant(self, node: ast.Expr, ctx: Ctx) -> bool:
        """True when ``node`` can be evaluated now (no state, move parameter,
        formula parameter, set or formula inside)."""
        inner: set[str] = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Quantifier):
                inner.update(i.name for b in n.binders for i in b.names)
            elif isinstance(n, (ast.Generator, ast.SetComp)):
                inner.update(c.var.name for c in n.clauses if isinstance(c, ast.ForClause))
        for n in ast.walk(node):
            if isinstance(n, (ast.Strategic, ast.TurnOf)):
                return False
            if isinstance(n, ast.Call) and n.name == "does":
                return False  # it reads the joint action
            if isinstance(n, (ast.Name, ast.Call)) and n.name not in inner:
                if n.name in ctx.bound:
                    if isinstance(ctx.bound[n.name], Sym):
                        return False
                elif n.name in ctx.fparams:
                    return False
                else:
                    e = self.scope.entries.get(n.name)
                    if e is not None and e.kind in ("var", "set", "formula"):
                        return False
        return True

    def is_temporal(self, node: ast.Expr, ctx: Ctx) -> bool:
        """True when ``node`` needs ATL (strategic operators, turn(...), formulas)."""
        # one pass over the nodes in any order (the answer is an "any"), without a
        # generator or a tuple per node: it runs over every set body and formula
        entries = self.scope.entries
        stack: list[Any] = [node]
        pop = stack.pop
        while stack:
            n = pop()
            cls = n.__class__
            if cls is ast.Name or cls is ast.Call:
                if not ctx.is_local(n.name):
                    e = entries.get(n.name)
                    if e is None:
                        if cls is ast.Call and n.name in FORMULA_FUNCTION_NAMES:
                            return True
                    elif e.definition is not None and not inlinable(e.definition):
                        return True
            elif cls is ast.Strategic or cls is ast.TurnOf:
                return True
            ast.add_children(n, stack)
        return False

    # ------------------------------------------------------------------ dispatch

    def expr(self, node: ast.Expr, ctx: Ctx) -> Typed:
        """Check one expression: the handler of its class in :data:`EXPR_HANDLERS`."""
        handler = EXPR_HANDLERS.get(type(node))
        if handler is None:
            raise AssertionError(node)
        if not ctx.primes:
            return handler(self, node, ctx)
        mark = len(self._mentions)
        t = handler(self, node, ctx)
        if len(self._mentions) > mark and t.type == BOOL:
            # the nearest boolean node takes the mentions of the branches skipped
            # inside it (where the names they use are still bound)
            extra = self._mentions[mark:]
            del self._mentions[mark:]
            t = Sym(ir.conj([self.to_ir(t, node.span), *extra]), BOOL)
        return t

    # ------------------------------------------------------------------ the frame rule

    def skip(self, node: ast.Expr, ctx: Ctx) -> None:
        """Note the primed variables of ``node``, an effect branch that a constant
        condition skips unchecked, as changed.

        The frame rule is syntactic (docs/language.md): a variable primed anywhere
        in the effect is changed, whether or not its branch is taken. A branch
        dropped at load time (``if N > 1 then x' = 0 else true`` with N a
        parameter) must leave x as free as when N is a move parameter, so each
        primed ``x'`` or ``k'[i]`` in it becomes the tautology ``x' = x'``: true,
        and primed. An element whose index cannot be computed counts every
        element of its array.
        """
        if ctx.primes:
            self._mentions.extend(self._primed_mentions(node, ctx))

    def _primed_mentions(self, node: ast.Expr, ctx: Ctx) -> list[ir.Expr]:
        out: list[ir.Expr] = []
        stack = [(node, ctx)]
        while stack:  # a loop, not recursion: skipped branches may be deep
            n, c = stack.pop()
            if isinstance(n, (ast.Name, ast.Index)):
                base = n if isinstance(n, ast.Name) else n.base
                if isinstance(base, ast.Name) and base.primed and not c.is_local(base.name):
                    e = self.scope.entries.get(base.name)
                    if e is not None and e.kind == "var":
                        assert e.decl is not None  # a variable's entry has its declaration
                        out.extend(self._var_mentions(e.decl, n, c))
                        continue
            if isinstance(n, ast.Quantifier):
                contexts = self._constant_bindings(flat_binders(n.binders), c)
                if contexts is not None:
                    stack.extend((n.body, inner) for inner in contexts)
                    continue
            stack.extend(
                (child, c) for child in ast.expr_children(n) if isinstance(child, ast.Expr)
            )
        return out

    def _var_mentions(self, d: ir.VarDecl, n: ast.Name | ast.Index, ctx: Ctx) -> list[ir.Expr]:
        def same(v: ir.Expr) -> ir.Expr:
            return ir.Binary("==", v, v, n.span)

        if d.index is None:  # a scalar
            return [same(ir.Var(d.name, True, n.span))] if isinstance(n, ast.Name) else []
        if isinstance(n, ast.Index):
            mark = len(self._mentions)
            try:
                i = self.expr(n.index, replace(ctx, primes=False))
            except SymbolicError:
                i = None
            del self._mentions[mark:]
            if isinstance(i, Known) and isinstance(i.value, int):
                # an element outside the array primes nothing, as in a taken branch
                return (
                    [same(ir.Elem(d.name, ir.Const(i.value), True, n.span))]
                    if d.index.lo <= i.value <= d.index.hi
                    else []
                )
            if isinstance(i, Sym) and i.type == INT:
                return [same(ir.Elem(d.name, i.expr, True, n.span))]
        return [
            same(ir.Elem(d.name, ir.Const(k), True, n.span))
            for k in range(d.index.lo, d.index.hi + 1)
        ]

    def _literal(self, node: ast.IntLit | ast.BoolLit | ast.StrLit, ctx: Ctx) -> Typed:
        return known(node.value)

    def _players(self, node: ast.Players, ctx: Ctx) -> Typed:
        return known(frozenset(self.scope.require_players(node.span)))

    def _range(self, node: ast.Range, ctx: Ctx) -> Typed:
        lo = self.int_value(node.lo, ctx, "the lower bound of a range")
        hi = self.int_value(node.hi, ctx, "the upper bound of a range")
        if hi - lo + 1 > MAX_ELEMENTS:
            raise RangeError(
                f"the range {lo}..{hi} has {hi - lo + 1} values, more than the "
                f"{MAX_ELEMENTS} a constant collection may hold",
                node.span,
            )
        return Known(frozenset(range(lo, hi + 1)), SetT(INT))

    def _tuple_lit(self, node: ast.TupleLit, ctx: Ctx) -> Typed:
        items = [self.value(i, ctx, what="a tuple item") for i in node.items]
        return Known(tuple(i.value for i in items), TupleT(tuple(i.type for i in items)))

    def _set_lit(self, node: ast.SetLit, ctx: Ctx) -> Typed:
        items = [self.value(i, ctx, what="a set element") for i in node.items]
        return known(make_set((i.value for i in items), node.span))

    def _set_comp(self, node: ast.SetComp, ctx: Ctx) -> Typed:
        return known(make_set(self.comprehension(node.elem, node.clauses, ctx), node.span))

    def _formula_in_state(self, node: ast.TurnOf | ast.Strategic, ctx: Ctx) -> Typed:
        raise WrongType(
            "an ATL formula cannot be used inside a state expression "
            "(guards, effects, sets, turn, invariants and operands of "
            "arithmetic or comparisons are state expressions)",
            node.span,
        )

    def _lone_generator(self, node: ast.Generator, ctx: Ctx) -> Typed:
        raise WrongType(
            "a generator 'e for x in D' can only be the argument of "
            "sum, count, min, max, tuple, ...",
            node.span,
        )

    # ------------------------------------------------------------------ names

    def _name(self, node: ast.Name, ctx: Ctx) -> Typed:
        n = node.name
        if n in ctx.bound:
            if node.primed:
                raise WrongType(
                    f"'{n}' is a bound name; only state variables can be primed", node.span
                )
            t = ctx.bound[n]
            return Sym(replace(t.expr, span=node.span), t.type) if isinstance(t, Sym) else t
        if n in ctx.fparams:
            fp = ctx.fparams[n]
            if node.primed:
                raise WrongType(
                    f"'{n}' is a parameter; only state variables can be primed", node.span
                )
            if fp.kind == "coalition":
                raise WrongType(
                    f"'{n}' is a coalition parameter: use it inside <<...>>, "
                    f"turn(...) or as a coalition argument",
                    node.span,
                )
            fp.used_as_int = True
            return Sym(ir.Name(n, node.span), INT)
        e = self.scope.entries.get(n)
        if e is None:
            if n in BUILTINS:
                raise WrongType(
                    f"'{n}' is a function: call it, as in {BUILTINS[n].signature}", node.span
                )
            raise self.scope.unknown_name(n, node.span, ctx)
        if node.primed and e.kind != "var":
            raise WrongType(f"'{n}' is a {e.kind}; only state variables can be primed", node.span)
        if e.kind in ("param", "const"):
            return known(e.value)
        if e.kind == "var":
            d = e.decl
            assert d is not None  # a variable's entry has its declaration
            if d.index is not None:  # an array
                raise WrongType(f"'{n}' is an array: index it, as in {n}[{d.index.lo}]", node.span)
            self._check_prime(node, ctx)
            return Sym(ir.Var(n, node.primed, node.span), var_type(d))
        assert e.definition is not None  # the entry of a set or a formula has its definition
        return self._inline(e.definition, (), node, ctx)

    def _check_prime(self, node: ast.Name, ctx: Ctx) -> None:
        if node.primed and not ctx.primes:
            raise WrongType(
                f"primed variable {node.name}' outside a move effect (after "
                f"'then'): guards, sets and formulas see the current position only",
                node.span,
            )

    def _inline(self, d: atl.Definition, args: tuple, node: ast.Expr, ctx: Ctx) -> Sym:
        """A set used in a state expression: its body with the arguments substituted."""
        if not inlinable(d):
            raise WrongType(
                f"'{d.name}' is an ATL formula; it cannot be used inside a state "
                f"expression (only sets can)",
                node.span,
            )
        if len(args) != len(d.params):
            raise WrongType(arity_message(d, len(args), "set"), node.span)
        env = {}
        for (pname, _), a in zip(d.params, args):
            env[pname] = self.state(a, ctx, INT, f"for the parameter '{pname}' of {d.name}")
        assert isinstance(d.body, atl.Prop)  # inlinable says so
        return Sym(ir.substitute_exprs(d.body.expr, env), BOOL)

    # ------------------------------------------------------------------ indexing

    def _index(self, node: ast.Index, ctx: Ctx) -> Typed:
        base = node.base
        if isinstance(base, ast.Name) and not ctx.is_local(base.name):
            e = self.scope.entries.get(base.name)
            if e is not None and e.kind == "var":
                assert e.decl is not None  # a variable's entry has its declaration
                return self._element(e.decl, base, node, ctx)
        b = self.expr(base, ctx)
        i = self.expr(node.index, ctx)
        self.expect(i, INT, node.index.span, "as an index")
        if isinstance(b.type, SetT):
            raise WrongType(
                "a set cannot be indexed (it has no order); use a tuple, e.g. sorted(S)[i]",
                node.span,
            )
        if not isinstance(b.type, TupleT):
            raise WrongType(f"cannot index {article(b.type)}", base.span)
        items = b.type.items
        if isinstance(i, Known):
            k = i.value
            assert isinstance(k, int)  # as its type says
            if not 0 <= k < len(items):
                raise RangeError(
                    f"index {k} is out of range for a tuple of length {len(items)}"
                    f" (tuples are indexed from 0)",
                    node.index.span,
                )
            if isinstance(b, Known):
                assert isinstance(b.value, tuple)  # as its type says
                return known(b.value[k])
            return Sym(ir.Item(b.expr, ir.Const(k, node.index.span), node.span), items[k])
        if not items:
            raise RangeError("cannot index an empty tuple", node.span)
        if any(not compatible(items[0], t) for t in items):
            raise WrongType(
                f"a tuple of mixed types {b.type} needs a constant index", node.index.span
            )
        return Sym(ir.Item(self.to_ir(b, base.span), i.expr, node.span), items[0])

    def _element(self, d: ir.VarDecl, base: ast.Name, node: ast.Index, ctx: Ctx) -> Typed:
        if d.index is None:
            raise WrongType(f"'{d.name}' is a scalar variable, not an array", node.span)
        self._check_prime(base, ctx)
        i = self.expr(node.index, ctx)
        self.expect(i, INT, node.index.span, "as an index")
        index: ir.Expr
        if isinstance(i, Known):
            assert isinstance(i.value, int)  # as its type says
            if not d.index.lo <= i.value <= d.index.hi:
                raise RangeError(
                    f"index {i.value} is outside {d.name}[{d.index.lo}..{d.index.hi}]",
                    node.index.span,
                )
            index = ir.Const(i.value, node.index.span)
        else:
            index = i.expr
            var = mentions_state(index)
            if base.primed and var:
                raise ModelError(
                    f"the index of the primed element {d.name}'[...] must not "
                    f"depend on the position (it reads '{var}'): use a quantifier, "
                    f"as in forall i in {d.index.lo}..{d.index.hi}: "
                    f"{d.name}'[i] = ...",
                    node.index.span,
                )
        return Sym(ir.Elem(d.name, index, base.primed, node.span), var_type(d))


#: node class -> the method checking it; a class missing here fails loudly in ``expr``
#: (a method takes a node of its key's class)
EXPR_HANDLERS: dict[type[ast.Expr], Callable[[ExprChecker, Any, Ctx], Typed]] = {
    ast.IntLit: ExprChecker._literal,
    ast.BoolLit: ExprChecker._literal,
    ast.StrLit: ExprChecker._literal,
    ast.Name: ExprChecker._name,
    ast.Index: ExprChecker._index,
    ast.Unary: ExprChecker._unary,
    ast.Binary: ExprChecker._binary,
    ast.Range: ExprChecker._range,
    ast.IfThenElse: ExprChecker._ite,
    ast.Quantifier: ExprChecker._quantifier,
    ast.Call: BuiltinCalls._call,
    ast.TupleLit: ExprChecker._tuple_lit,
    ast.SetLit: ExprChecker._set_lit,
    ast.SetComp: ExprChecker._set_comp,
    ast.Players: ExprChecker._players,
    ast.TurnOf: ExprChecker._formula_in_state,
    ast.Strategic: ExprChecker._formula_in_state,
    ast.Generator: ExprChecker._lone_generator,
}
