"""Expression checking: an AST expression to a typed load-time value or IR.

:class:`ExprChecker` resolves names against a :class:`~.scope.Scope`, checks
types, evaluates what is constant now (constant sub-expressions fold, constant
conditions short-circuit) and turns the rest into :mod:`symbolic.ir`: names,
indexing, operators, if-then-else, quantifiers and comprehensions over
constant domains, calls of builtins and of parameterised sets. Its
:meth:`~ExprChecker.expr` dispatches on the node class through
:data:`EXPR_HANDLERS`, which covers every :class:`~.ast.Expr` class.

>>> from symbolic.lang.parser import parse_formula_text
>>> from symbolic.lang.scope import EMPTY
>>> ExprChecker(Scope()).expr(parse_formula_text("sum(i * i for i in 1..3)"), EMPTY)
Known(value=14, type=IntT())
"""
from __future__ import annotations

import operator
from dataclasses import replace
from typing import Iterator

from .. import atl, ir
from ..errors import ModelError, RangeError, Span, SymbolicError, WrongType
from . import ast
from .builtins import BUILTINS, MAX_BINDINGS, MAX_ELEMENTS, canonical_key
from .calls import BuiltinCalls
from .scope import Ctx, Scope, arity_message, inlinable
from .types import (BOOL, INT, STR, Known, SetT, StrT, Sym, TupleT, Type, Typed, article,
                    compatible, ir_value, known, make_set, type_of, uniform, var_type)
from .vocabulary import FORMULA_FUNCTION_NAMES, LOGIC


def mentions_state(e: ir.Expr) -> str | None:
    """The first state variable ``e`` reads, if any (to name it in an error)."""
    for n in ir.walk(e):
        if isinstance(n, ir.Var):
            return n.name
        if isinstance(n, ir.Elem):
            return n.array
    return None


class ExprChecker(BuiltinCalls):
    """Checks expressions against the top-level names of a :class:`Scope`
    (calls of builtins: :class:`~.calls.BuiltinCalls`)."""

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
            reason = (f"it reads the state variable '{var}'" if var else
                      f"it depends on the bound name '{sorted(ir.free_names(t.expr))[0]}'"
                      if ir.free_names(t.expr) else "it is not constant")
            raise WrongType(f"{what or 'this'} must be a constant, but {reason}", node.span)
        if want is not None:
            self.expect(t, want, node.span, what)
        return t

    def int_value(self, node: ast.Expr, ctx: Ctx, what: str) -> int:
        """``node`` evaluated now as an int."""
        return self.value(node, ctx, INT, what).value

    # ------------------------------------------------------------------ constness

    def is_constant(self, node: ast.Expr, ctx: Ctx) -> bool:
        """True when ``node`` can be evaluated now (no state, move parameter,
        formula parameter, set or formula inside)."""
        inner = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Quantifier):
                inner.update(i.name for b in n.binders for i in b.names)
            elif isinstance(n, (ast.Generator, ast.SetComp)):
                inner.update(c.var.name for c in n.clauses if isinstance(c, ast.ForClause))
        for n in ast.walk(node):
            if isinstance(n, (ast.Strategic, ast.TurnOf)):
                return False
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
        for n in ast.walk(node):
            if isinstance(n, (ast.Strategic, ast.TurnOf)):
                return True
            if (isinstance(n, ast.Call) and n.name in FORMULA_FUNCTION_NAMES
                    and not ctx.is_local(n.name) and n.name not in self.scope.entries):
                return True
            if isinstance(n, (ast.Name, ast.Call)) and not ctx.is_local(n.name):
                e = self.scope.entries.get(n.name)
                if e is not None and e.definition is not None and not inlinable(e.definition):
                    return True
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
                        out.extend(self._var_mentions(e.decl, n, c))
                        continue
            if isinstance(n, ast.Quantifier):
                contexts = self._constant_bindings(flat_binders(n.binders), c)
                if contexts is not None:
                    stack.extend((n.body, inner) for inner in contexts)
                    continue
            stack.extend((child, c) for child in ast.expr_children(n)
                         if isinstance(child, ast.Expr))
        return out

    def _var_mentions(self, d: ir.VarDecl, n: ast.Name | ast.Index, ctx: Ctx) -> list[ir.Expr]:
        def same(v: ir.Expr) -> ir.Expr:
            return ir.Binary("==", v, v, n.span)
        if not d.is_array:
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
                return ([same(ir.Elem(d.name, ir.Const(i.value), True, n.span))]
                        if d.index.lo <= i.value <= d.index.hi else [])
            if isinstance(i, Sym) and i.type == INT:
                return [same(ir.Elem(d.name, i.expr, True, n.span))]
        return [same(ir.Elem(d.name, ir.Const(k), True, n.span))
                for k in range(d.index.lo, d.index.hi + 1)]

    def _constant_bindings(self, pairs, ctx: Ctx, limit: int = 10_000) -> list[Ctx] | None:
        """Every context binding ``pairs`` to constant values, or None when a
        domain is not constant (or there are more than ``limit`` bindings)."""
        contexts = [ctx]
        for ident, dom in pairs:
            try:
                values, _ = self.domain(dom, ctx, ident.name)
            except SymbolicError:
                return None
            contexts = [c.bind(ident.name, known(v)) for c in contexts for v in values]
            if len(contexts) > limit:
                return None
        return contexts

    def _literal(self, node: ast.IntLit | ast.BoolLit | ast.StrLit, ctx: Ctx) -> Typed:
        return known(node.value)

    def _players(self, node: ast.Players, ctx: Ctx) -> Typed:
        return known(frozenset(self.scope.require_players(node.span)))

    def _range(self, node: ast.Range, ctx: Ctx) -> Typed:
        lo = self.int_value(node.lo, ctx, "the lower bound of a range")
        hi = self.int_value(node.hi, ctx, "the upper bound of a range")
        if hi - lo + 1 > MAX_ELEMENTS:
            raise RangeError(f"the range {lo}..{hi} has {hi - lo + 1} values, more than the "
                             f"{MAX_ELEMENTS} a constant collection may hold", node.span)
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
        raise WrongType("an ATL formula cannot be used inside a state expression "
                        "(guards, effects, sets, turn, invariants and operands of "
                        "arithmetic or comparisons are state expressions)", node.span)

    def _lone_generator(self, node: ast.Generator, ctx: Ctx) -> Typed:
        raise WrongType("a generator 'e for x in D' can only be the argument of "
                        "sum, count, min, max, tuple, ...", node.span)

    # ------------------------------------------------------------------ names

    def _name(self, node: ast.Name, ctx: Ctx) -> Typed:
        n = node.name
        if n in ctx.bound:
            if node.primed:
                raise WrongType(f"'{n}' is a bound name; only state variables can be primed",
                                node.span)
            t = ctx.bound[n]
            return Sym(replace(t.expr, span=node.span), t.type) if isinstance(t, Sym) else t
        if n in ctx.fparams:
            fp = ctx.fparams[n]
            if node.primed:
                raise WrongType(f"'{n}' is a parameter; only state variables can be primed",
                                node.span)
            if fp.kind == "coalition":
                raise WrongType(f"'{n}' is a coalition parameter: use it inside <<...>>, "
                                f"turn(...) or as a coalition argument", node.span)
            fp.used_as_int = True
            return Sym(ir.Name(n, node.span), INT)
        e = self.scope.entries.get(n)
        if e is None:
            if n in BUILTINS:
                raise WrongType(f"'{n}' is a function: call it, as in {BUILTINS[n].signature}",
                                node.span)
            raise self.scope.unknown_name(n, node.span, ctx)
        if node.primed and e.kind != "var":
            raise WrongType(f"'{n}' is a {e.kind}; only state variables can be primed",
                            node.span)
        if e.kind in ("param", "const"):
            return known(e.value)
        if e.kind == "var":
            d = e.decl
            if d.is_array:
                raise WrongType(f"'{n}' is an array: index it, as in {n}[{d.index.lo}]",
                                node.span)
            self._check_prime(node, ctx)
            return Sym(ir.Var(n, node.primed, node.span), var_type(d))
        return self._inline(e.definition, (), node, ctx)

    def _check_prime(self, node: ast.Name, ctx: Ctx) -> None:
        if node.primed and not ctx.primes:
            raise WrongType(f"primed variable {node.name}' outside a move effect (after "
                            f"'then'): guards, sets and formulas see the current position only",
                            node.span)

    def _inline(self, d: atl.Definition, args: tuple, node: ast.Expr, ctx: Ctx) -> Sym:
        """A set used in a state expression: its body with the arguments substituted."""
        if not inlinable(d):
            raise WrongType(f"'{d.name}' is an ATL formula; it cannot be used inside a state "
                            f"expression (only sets can)", node.span)
        if len(args) != len(d.params):
            raise WrongType(arity_message(d, len(args), "set"), node.span)
        env = {}
        for (pname, _), a in zip(d.params, args):
            env[pname] = self.state(a, ctx, INT, f"for the parameter '{pname}' of {d.name}")
        return Sym(ir.substitute_exprs(d.body.expr, env), BOOL)

    # ------------------------------------------------------------------ indexing

    def _index(self, node: ast.Index, ctx: Ctx) -> Typed:
        base = node.base
        if isinstance(base, ast.Name) and not ctx.is_local(base.name):
            e = self.scope.entries.get(base.name)
            if e is not None and e.kind == "var":
                return self._element(e.decl, base, node, ctx)
        b = self.expr(base, ctx)
        i = self.expr(node.index, ctx)
        self.expect(i, INT, node.index.span, "as an index")
        if isinstance(b.type, SetT):
            raise WrongType("a set cannot be indexed (it has no order); use a tuple, "
                            "e.g. sorted(S)[i]", node.span)
        if not isinstance(b.type, TupleT):
            raise WrongType(f"cannot index {article(b.type)}", base.span)
        items = b.type.items
        if isinstance(i, Known):
            k = i.value
            if not 0 <= k < len(items):
                raise RangeError(f"index {k} is out of range for a tuple of length {len(items)}"
                                 f" (tuples are indexed from 0)", node.index.span)
            if isinstance(b, Known):
                return known(b.value[k])
            return Sym(ir.Item(b.expr, ir.Const(k, node.index.span), node.span), items[k])
        if not items:
            raise RangeError("cannot index an empty tuple", node.span)
        if any(not compatible(items[0], t) for t in items):
            raise WrongType(f"a tuple of mixed types {b.type} needs a constant index",
                            node.index.span)
        return Sym(ir.Item(self.to_ir(b, base.span), i.expr, node.span), items[0])

    def _element(self, d: ir.VarDecl, base: ast.Name, node: ast.Index, ctx: Ctx) -> Typed:
        if not d.is_array:
            raise WrongType(f"'{d.name}' is a scalar variable, not an array", node.span)
        self._check_prime(base, ctx)
        i = self.expr(node.index, ctx)
        self.expect(i, INT, node.index.span, "as an index")
        if isinstance(i, Known):
            if not d.index.lo <= i.value <= d.index.hi:
                raise RangeError(f"index {i.value} is outside {d.name}[{d.index.lo}..{d.index.hi}]",
                                 node.index.span)
            index = ir.Const(i.value, node.index.span)
        else:
            index = i.expr
            var = mentions_state(index)
            if base.primed and var:
                raise ModelError(f"the index of the primed element {d.name}'[...] must not "
                                 f"depend on the position (it reads '{var}'): use a quantifier, "
                                 f"as in forall i in {d.index.lo}..{d.index.hi}: "
                                 f"{d.name}'[i] = ...", node.index.span)
        return Sym(ir.Elem(d.name, index, base.primed, node.span), var_type(d))

    # ------------------------------------------------------------------ operators

    def _unary(self, node: ast.Unary, ctx: Ctx) -> Typed:
        a = self.expr(node.arg, ctx)
        want = {"-": INT, "not": BOOL}.get(node.op)
        if want is None:
            raise AssertionError(node.op)
        self.expect(a, want, node.arg.span, f"after '{node.op}'")
        if isinstance(a, Known):
            return Known(-a.value if node.op == "-" else not a.value, want)
        return Sym(ir.Unary(node.op, a.expr, node.span), want)

    def _binary(self, node: ast.Binary, ctx: Ctx) -> Typed:
        op = node.op
        if op in LOGIC:
            return self._logic(node, ctx)
        if op in ("in", "notin", "==", "!=") and isinstance(node.left, ast.TupleLit) \
                and not self.is_constant(node.left, ctx):
            return self._tuple_test(node, ctx)
        left = self.expr(node.left, ctx)
        right = self.expr(node.right, ctx)
        if op in ("==", "!="):
            return self._equality(node, left, right)
        if op in ("<", "<=", ">", ">="):
            self.expect(left, INT, node.left.span, f"before '{op}'")
            self.expect(right, INT, node.right.span, f"after '{op}'")
            return self._fold_or_build(node, op, left, right, BOOL)
        if op in ("in", "notin"):
            return self._membership(node, left, right)
        if op in ("+", "-", "*", "//", "%", "\\", "/"):
            return self._arith(node, left, right)
        raise AssertionError(op)

    def _fold_or_build(self, node: ast.Binary, op: str, left: Typed, right: Typed,
                       typ: Type) -> Typed:
        if isinstance(left, Known) and isinstance(right, Known):
            return Known(fold(op, left.value, right.value, node.span), typ)
        return Sym(ir.Binary(op, self.to_ir(left, node.left.span),
                             self.to_ir(right, node.right.span), node.span), typ)

    def _logic(self, node: ast.Binary, ctx: Ctx) -> Typed:
        op = node.op
        left = self.expr(node.left, ctx)
        if op in ("|", "&") and isinstance(left.type, SetT):
            right = self.value(node.right, ctx, what=f"the right operand of '{op}'")
            if not isinstance(right.type, SetT) or not compatible(left.type, right.type):
                hint = (" ('|' and '&' bind less tightly than comparisons: add parentheses)"
                        if right.type == BOOL else "")
                raise WrongType(f"cannot combine {article(left.type)} with "
                                f"{article(right.type)} by '{op}'{hint}", node.span)
            out = left.value | right.value if op == "|" else left.value & right.value
            return known(make_set(out, node.span))
        self.expect(left, BOOL, node.left.span, f"before '{op}'")
        canon = LOGIC[op]
        if isinstance(left, Known):  # constant conditions short-circuit, like Python
            if (canon == "and" and not left.value) or (canon == "or" and left.value):
                self.skip(node.right, ctx)
                return Known(left.value, BOOL)
            if canon == "implies" and not left.value:
                self.skip(node.right, ctx)
                return Known(True, BOOL)
            if canon in ("and", "or", "implies"):
                right = self.expr(node.right, ctx)
                self.expect(right, BOOL, node.right.span, f"after '{op}'")
                return right
        right = self.expr(node.right, ctx)
        self.expect(right, BOOL, node.right.span, f"after '{op}'")
        if isinstance(right, Known) and canon in ("and", "or"):
            if (canon == "and") == right.value:
                return left
            if not ctx.primes or not mentions_primed(left.expr):
                return Known(right.value, BOOL)
            # `x' = 0 or true` keeps x' in the IR: x is changed (the frame rule)
        return self._fold_or_build(node, canon, left, right, BOOL)

    def _equality(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        if not compatible(left.type, right.type):
            raise WrongType(f"cannot compare {article(left.type)} with "
                            f"{article(right.type)}", node.span)
        if isinstance(left, Known) and isinstance(right, Known):
            same = left.value == right.value
            return Known(same if node.op == "==" else not same, BOOL)
        if isinstance(left.type, (SetT, StrT)):
            raise WrongType(f"cannot compare {article(left.type)} in a state expression",
                            node.span)
        return self._fold_or_build(node, node.op, left, right, BOOL)

    def _membership(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        if isinstance(right, Sym) or not isinstance(right.type, (SetT, TupleT)):
            raise WrongType("the right side of 'in' must be a constant set, range or tuple",
                            node.right.span)
        values = right.value if isinstance(right.value, frozenset) else frozenset(right.value)
        elem = right.type.elem if isinstance(right.type, SetT) else uniform(right.type)
        if values and not compatible(left.type, elem):
            raise WrongType(f"cannot look for {article(left.type)} among "
                            f"values of type {elem}", node.span)
        negate = node.op == "notin"
        if isinstance(left, Known):
            return Known((left.value in values) != negate, BOOL)
        x = left.expr
        ordered = sorted(values, key=canonical_key)
        if left.type == INT and len(ordered) > 2 and ordered[-1] - ordered[0] == len(ordered) - 1:
            e = ir.Binary("and", ir.Binary("<=", ir.Const(ordered[0]), x, node.span),
                          ir.Binary("<=", x, ir.Const(ordered[-1]), node.span), node.span)
        else:
            e = ir.disj(ir.Binary("==", x, ir.Const(ir_value(v, node.span)), node.span)
                        for v in ordered)
        return Sym(ir.Unary("not", e, node.span) if negate else e, BOOL)

    def _tuple_test(self, node: ast.Binary, ctx: Ctx) -> Typed:
        """``(x, k[1]) in S`` or ``(x, y) == t`` with state items: item-wise equalities."""
        items = [self.expr(i, ctx) for i in node.left.items]
        right = self.value(node.right, ctx, what=f"the right side of '{node.op}'")
        if node.op in ("==", "!="):
            values = [right.value] if isinstance(right.type, TupleT) else None
        else:
            values = (sorted(right.value, key=canonical_key) if isinstance(right.type, SetT)
                      else list(right.value) if isinstance(right.type, TupleT) else None)
        if values is None:
            raise WrongType(f"expected a constant {'tuple' if node.op in ('==', '!=') else 'set'}"
                            f", got {article(right.type)}", node.right.span)
        left_type = TupleT(tuple(i.type for i in items))
        options = []
        for v in values:
            if not compatible(left_type, type_of(v)):
                raise WrongType(f"cannot compare {article(left_type)} with "
                                f"{article(type_of(v))}", node.span)
            options.append(ir.conj(ir.Binary("==", self.to_ir(t, a.span),
                                              ir.Const(ir_value(x, node.span)), node.span)
                                   for t, a, x in zip(items, node.left.items, v)))
        out = ir.disj(options)
        if node.op in ("!=", "notin"):
            out = ir.Unary("not", out, node.span)
        return Sym(out, BOOL)

    def _arith(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        op = node.op
        if op == "/":
            raise WrongType("'/' is not an operator here: integer (floor) division is "
                            "written div, the remainder mod or %", node.span)
        if isinstance(left.type, SetT) and op in ("-", "\\"):
            r = right
            if isinstance(r, Sym) or not isinstance(r.type, SetT) \
                    or not compatible(left.type, r.type):
                raise WrongType(f"cannot subtract {article(r.type)} from a set", node.span)
            return known(left.value - r.value)
        if op == "\\":
            raise WrongType(f"'\\' is set difference; got {article(left.type)}", node.span)
        if op == "+" and isinstance(left, Known) and isinstance(left.type, TupleT):
            if not (isinstance(right, Known) and isinstance(right.type, TupleT)):
                raise WrongType(f"cannot add {article(right.type)} to a tuple", node.span)
            return known(left.value + right.value)
        name = {"//": "div", "%": "mod"}.get(op, op)
        self.expect(left, INT, node.left.span, f"before '{name}'")
        self.expect(right, INT, node.right.span, f"after '{name}'")
        if op in ("//", "%"):
            if isinstance(right, Known) and right.value <= 0 and not isinstance(left, Known):
                raise RangeError(f"the divisor of {name} must be a positive constant, "
                                 f"got {right.value}", node.right.span)
            if isinstance(right, Sym) and mentions_state(right.expr):
                raise ModelError(f"the divisor of {name} must be a constant; here it reads "
                                 f"the state variable '{mentions_state(right.expr)}'",
                                 node.right.span)
        return self._fold_or_build(node, op, left, right, INT)

    def _ite(self, node: ast.IfThenElse, ctx: Ctx) -> Typed:
        c = self.expr(node.cond, ctx)
        self.expect(c, BOOL, node.cond.span, "as the condition")
        if isinstance(c, Known):  # a constant condition selects one branch
            self.skip(node.other if c.value else node.then, ctx)
            return self.expr(node.then if c.value else node.other, ctx)
        a = self.expr(node.then, ctx)
        b = self.expr(node.other, ctx)
        if not compatible(a.type, b.type):
            raise WrongType(f"the branches of if-then-else have different types: "
                            f"{a.type} and {b.type}", node.span)
        if a.type not in (INT, BOOL):
            raise WrongType(f"the branches of a state if-then-else must be ints or bools, "
                            f"not {article(a.type)}", node.span)
        return Sym(ir.Ite(c.expr, self.to_ir(a, node.then.span),
                          self.to_ir(b, node.other.span), node.span), a.type)

    # ------------------------------------------------------------------ binders

    def domain(self, node: ast.Expr, ctx: Ctx, var: str) -> tuple[tuple, Type | None]:
        """The values of a constant domain (sets in canonical order) and their type."""
        if not self.is_constant(node, ctx):
            t = self.expr(node, ctx)
            if isinstance(t, Sym):
                free = sorted(ir.free_names(t.expr))
                why = (f"it reads the state variable '{mentions_state(t.expr)}'"
                       if mentions_state(t.expr) else
                       f"it depends on the bound name '{free[0]}'" if free else "")
                raise WrongType(f"the domain of '{var}' must be a constant set, range or "
                                f"tuple, but {why}", node.span)
        d = self.value(node, ctx, what=f"the domain of '{var}'")
        if isinstance(d.type, SetT):
            return tuple(sorted(d.value, key=canonical_key)), d.type.elem
        if isinstance(d.type, TupleT):
            return d.value, (uniform(d.type) if d.value else None)
        if isinstance(d.type, StrT):
            return tuple(d.value), STR
        raise WrongType(f"the domain of '{var}' must be a set, range or tuple, "
                        f"got {article(d.type)}", node.span)

    def _quantifier(self, node: ast.Quantifier, ctx: Ctx) -> Typed:
        pairs = flat_binders(node.binders)
        if self.is_constant(node, ctx):
            return Known(self._const_quant(node.kind, pairs, node.body, ctx), BOOL)
        return self._sym_quant(node, pairs, ctx)

    def _const_quant(self, kind: str, pairs, body: ast.Expr, ctx: Ctx,
                     budget: list[int] | None = None, times: int = 1) -> bool:
        budget = self._bindings if budget is None else budget
        if not pairs:
            return self.value(body, ctx, BOOL, "as the quantifier's body").value
        (ident, dom), rest = pairs[0], pairs[1:]
        ctx.check_unbound(ident)
        values, _ = self.domain(dom, ctx, ident.name)
        if times > 0:  # counted up front, on the first run of each binder (see iterate)
            spend(budget, len(values) * times, dom.span)
        inner = [times * max(len(values), 1)]

        def run(v):
            out = self._const_quant(kind, rest, body, ctx.bind(ident.name, known(v)), budget,
                                    inner[0])
            inner[0] = 0  # later runs of the inner binders were counted already
            return out
        results = (run(v) for v in values)
        return all(results) if kind == "forall" else any(results)

    def _sym_quant(self, node: ast.Quantifier, pairs, ctx: Ctx) -> Typed:
        layers = []
        for ident, dom in pairs:
            ctx.check_unbound(ident)
            values, elem = self.domain(dom, ctx, ident.name)
            if not values:  # an empty domain: the body is never instantiated
                return Known(node.kind == "forall", BOOL)
            layers.append((ident.name, tuple(sorted(set(values), key=canonical_key))))
            ctx = ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem))
        body = self.expr(node.body, ctx)
        self.expect(body, BOOL, node.body.span, "as the quantifier's body")
        if isinstance(body, Known):
            return body
        out = body.expr
        for var, values in reversed(layers):
            out = ir.Quant(node.kind, var, values, out, node.span)
        return Sym(out, BOOL)

    def iterate(self, clauses: tuple[ast.Clause, ...], ctx: Ctx,
                budget: list[int] | None = None, times: int = 1,
                seen: set | None = None) -> Iterator[Ctx]:
        """The contexts binding a comprehension's variables, in order (constant
        domains). The bindings are counted up front: the first time a clause
        runs, its domain size times the number of times it will run (``times``)
        is taken from a budget of MAX_ELEMENTS, so a huge product fails at once."""
        budget = self._bindings if budget is None else budget
        seen = set() if seen is None else seen
        if not clauses:
            yield ctx
            return
        c, rest = clauses[0], clauses[1:]
        if isinstance(c, ast.ForClause):
            ctx.check_unbound(c.var)
            values, _ = self.domain(c.domain, ctx, c.var.name)
            if id(c) not in seen:
                seen.add(id(c))
                spend(budget, len(values) * times, c.domain.span)
            for v in values:
                yield from self.iterate(rest, ctx.bind(c.var.name, known(v)), budget,
                                        times * max(len(values), 1), seen)
        elif isinstance(c, ast.IfClause):
            if self.value(c.cond, ctx, BOOL, "as a comprehension condition").value:
                yield from self.iterate(rest, ctx, budget, times, seen)
        else:
            raise AssertionError(c)

    def comprehension(self, elem: ast.Expr, clauses: tuple[ast.Clause, ...], ctx: Ctx) -> list:
        """The values of ``elem`` for each binding of the clauses, in order."""
        return [self.value(elem, inner, what="a comprehension element").value
                for inner in self.iterate(clauses, ctx)]


#: node class -> the method checking it; a class missing here fails loudly in ``expr``
EXPR_HANDLERS = {
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


def spend(budget: list[int], n: int, span: Span) -> None:
    """Take ``n`` bindings from ``budget``; a located RangeError when it runs out."""
    budget[0] -= n
    if budget[0] < 0:
        raise RangeError(f"too many constant bindings: with this comprehension or quantifier "
                         f"the model visits more than {MAX_BINDINGS} (use smaller domains)",
                         span)


def mentions_primed(e: ir.Expr) -> bool:
    """True when the IR expression ``e`` reads a primed variable or element."""
    return any(isinstance(x, (ir.Var, ir.Elem)) and x.primed for x in ir.walk(e))


def flat_binders(binders: tuple[ast.Binder, ...]) -> list[tuple[ast.Ident, ast.Expr]]:
    """``x, y in D, z in E`` as ``[(x, D), (y, D), (z, E)]``."""
    return [(name, b.domain) for b in binders for name in b.names]


#: binary operators on load-time values, by canonical name (types already checked)
_FOLD = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne, "iff": operator.eq,
    "and": lambda a, b: a and b, "or": lambda a, b: a or b,
    "implies": lambda a, b: (not a) or b,
}


def fold(op: str, a, b, span: Span):
    """A binary operator applied to two load-time values (types already checked).

    >>> fold("//", -7, 2, None), fold("implies", False, False, None)
    (-4, True)
    """
    if op in ("//", "%"):
        if b == 0:
            raise RangeError(f"{'division' if op == '//' else 'modulo'} by zero", span)
        return a // b if op == "//" else a % b
    f = _FOLD.get(op)
    if f is None:
        raise AssertionError(op)
    return f(a, b)
