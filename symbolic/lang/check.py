"""AST to IR: name resolution, constant evaluation and type checking.

One :class:`Checker` walks the declarations of a model in source order
(a name must be declared before it is used), evaluates parameters and
constants once, and turns state expressions into :mod:`symbolic.ir`
expressions and formulas into :mod:`symbolic.atl` nodes.

Every expression is checked into either a :class:`Known` value (computed now:
constant sub-expressions fold) or a :class:`Sym` IR expression (it depends on
the position, on a move parameter or on a bound name); both carry a type:
``int``, ``bool``, ``string``, tuple types and set types. Sets exist only at
load time: in IR they appear as quantifier and move-parameter domains
(sorted tuples) or are expanded (``x in S``).

>>> from symbolic.lang.parser import parse_model_text
>>> m = check_model(parse_model_text("players 1, 2\\nvar x : 0..3\\nturn 1 + x % 2"), "<s>")
>>> m.game.turn
Binary(op='+', left=Const(value=1), right=Binary(op='%', left=Var(name='x', primed=False), right=Const(value=2)))
"""
from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Mapping, Union

from .. import atl, ir
from ..errors import ModelError, UnknownName, RangeError, Span, SymbolicError, WrongType
from . import ast
from .builtins import BUILTINS, STATE_BUILTINS, canonical_key

# --------------------------------------------------------------------------- types


class Type:
    """Base of the checker's types."""
    __slots__ = ()


@dataclass(frozen=True)
class IntT(Type):
    def __str__(self):
        return "int"


@dataclass(frozen=True)
class BoolT(Type):
    def __str__(self):
        return "bool"


@dataclass(frozen=True)
class StrT(Type):
    def __str__(self):
        return "string"


@dataclass(frozen=True)
class TupleT(Type):
    """A tuple with the given item types."""
    items: tuple[Type, ...]

    def __str__(self):
        if len(self.items) > 4:
            return f"{len(self.items)}-tuple"
        return "(" + ", ".join(map(str, self.items)) + ("," if len(self.items) == 1 else "") + ")"


@dataclass(frozen=True)
class SetT(Type):
    """A finite set; ``elem`` is None for the empty set."""
    elem: Type | None

    def __str__(self):
        return "set" if self.elem is None else f"set of {self.elem}"


INT, BOOL, STR = IntT(), BoolT(), StrT()


def type_of(v) -> Type:
    """The type of a load-time value.

    >>> str(type_of((1, True))), str(type_of(frozenset({2, 3})))
    ('(int, bool)', 'set of int')
    """
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return STR
    if isinstance(v, tuple):
        return TupleT(tuple(type_of(x) for x in v))
    if isinstance(v, frozenset):
        return SetT(_common_type((type_of(x) for x in v), None))
    raise AssertionError(v)


def _compatible(a: Type | None, b: Type | None) -> bool:
    """Same type, where the element type of an empty set matches anything."""
    if a is None or b is None or a == b:
        return True
    if isinstance(a, SetT) and isinstance(b, SetT):
        return _compatible(a.elem, b.elem)
    if isinstance(a, TupleT) and isinstance(b, TupleT):
        return len(a.items) == len(b.items) and all(map(_compatible, a.items, b.items))
    return False


def _common_type(types, span: Span | None) -> Type | None:
    out = None
    for t in types:
        if out is None:
            out = t
        elif not _compatible(out, t):
            raise WrongType(f"a set's elements must all have the same type: "
                             f"found {out} and {t}", span)
        elif isinstance(out, SetT) and out.elem is None:
            out = t
    return out


def make_set(values, span: Span | None) -> frozenset:
    """A set value, checking that its elements share one type."""
    out = frozenset(values)
    _common_type((type_of(v) for v in out), span)
    return out


def exported_value(v):
    """A load-time value for ``Model.consts``: like :func:`ir_value`, strings allowed."""
    if isinstance(v, str):
        return v
    if isinstance(v, tuple):
        return tuple(exported_value(x) for x in v)
    if isinstance(v, frozenset):
        return tuple(exported_value(x) for x in sorted(v, key=canonical_key))
    return ir_value(v, None)


def ir_value(v, span: Span | None):
    """A load-time value as an IR constant value (sets become sorted tuples)."""
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, tuple):
        return tuple(ir_value(x, span) for x in v)
    if isinstance(v, frozenset):
        return tuple(ir_value(x, span) for x in sorted(v, key=canonical_key))
    if isinstance(v, str):
        raise WrongType("a string cannot be used in a state expression", span)
    raise AssertionError(v)


# --------------------------------------------------------------------------- checked values

@dataclass(frozen=True)
class Known:
    """A value computed at load time."""
    value: object
    type: Type


@dataclass(frozen=True)
class Sym:
    """An IR expression (depends on the position, a move parameter or a bound name)."""
    expr: ir.Expr
    type: Type


Typed = Union[Known, Sym]


def _known(v) -> Known:
    return Known(v, type_of(v))


# --------------------------------------------------------------------------- environment

@dataclass
class Entry:
    """A top-level name: ``kind`` is param, const, var, set or formula."""
    kind: str
    span: Span
    value: object = None            # params and consts
    decl: ir.VarDecl | None = None  # variables
    definition: atl.Definition | None = None  # sets and formulas


@dataclass
class Env:
    """The names visible at the top level, filled in declaration order."""
    entries: dict[str, Entry] = field(default_factory=dict)
    declared: dict[str, tuple[str, Span]] = field(default_factory=dict)  # every top-level name
    players: tuple[int, ...] | None = None

    def visible(self) -> list[str]:
        return list(self.entries)


@dataclass
class FormulaParam:
    """A parameter of a formula being checked, and how it has been used."""
    name: str
    kind: str | None  # declared kind ("int" | "coalition") or None to infer
    span: Span
    used_as_int: bool = False


@dataclass(frozen=True)
class Ctx:
    """What an expression may see besides the top level: bound names, formula
    parameters, and whether primed variables are allowed."""
    bound: Mapping[str, Typed] = field(default_factory=dict)
    fparams: Mapping[str, FormulaParam] = field(default_factory=dict)
    primes: bool = False

    def bind(self, name: str, t: Typed) -> "Ctx":
        return replace(self, bound={**self.bound, name: t})


EMPTY = Ctx()

_LOGIC = {"and": "and", "&": "and", "or": "or", "|": "or", "implies": "implies", "iff": "iff"}
_COALITION_OPS = {"|": "|", "or": "|", "+": "|", "&": "&", "and": "&", "\\": "\\", "-": "\\"}
_KINDS = {"int": "int", "player": "int", "coalition": "coalition"}


def _mentions_state(e: ir.Expr) -> str | None:
    """The first state variable ``e`` reads, if any."""
    for n in ir.walk(e):
        if isinstance(n, ir.Var):
            return n.name
        if isinstance(n, ir.Elem):
            return n.array
    return None


def _free_names(e: ir.Expr) -> set[str]:
    out: set[str] = set()

    def go(n, bound):
        if isinstance(n, ir.Name):
            if n.name not in bound:
                out.add(n.name)
            return
        if isinstance(n, (ir.Quant, ir.Sum)):
            go(n.body, bound | {n.var})
            return
        for c in ir.children(n):
            go(c, bound)

    go(e, frozenset())
    return out


def substitute_exprs(e: ir.Expr, env: Mapping[str, ir.Expr]) -> ir.Expr:
    """``e`` with free ``Name`` nodes replaced by expressions, renaming binders
    that would capture a free name of a replacement.

    >>> substitute_exprs(ir.Name("j") + 1, {"j": ir.Var("x")})
    Binary(op='+', left=Var(name='x', primed=False), right=Const(value=1))
    """
    if not env:
        return e
    if isinstance(e, ir.Name):
        return env.get(e.name, e)
    if isinstance(e, (ir.Const, ir.Var)):
        return e
    if isinstance(e, ir.Elem):
        return ir.Elem(e.array, substitute_exprs(e.index, env), e.primed, e.span)
    if isinstance(e, ir.Item):
        return ir.Item(substitute_exprs(e.base, env), substitute_exprs(e.index, env), e.span)
    if isinstance(e, ir.Unary):
        return ir.Unary(e.op, substitute_exprs(e.arg, env), e.span)
    if isinstance(e, ir.Binary):
        return ir.Binary(e.op, substitute_exprs(e.left, env), substitute_exprs(e.right, env),
                         e.span)
    if isinstance(e, ir.Ite):
        return ir.Ite(substitute_exprs(e.cond, env), substitute_exprs(e.then, env),
                      substitute_exprs(e.other, env), e.span)
    if isinstance(e, (ir.Quant, ir.Sum)):
        inner = {k: v for k, v in env.items() if k != e.var}
        var, body = e.var, e.body
        captured = set().union(*(_free_names(v) for v in inner.values())) if inner else set()
        if var in captured:
            taken = captured | _free_names(body)
            var = next(f"{e.var}_{i}" for i in itertools.count(1) if f"{e.var}_{i}" not in taken)
            body = substitute_exprs(body, {e.var: ir.Name(var)})
        body = substitute_exprs(body, inner)
        if isinstance(e, ir.Quant):
            return ir.Quant(e.kind, var, e.domain, body, e.span)
        return ir.Sum(var, e.domain, body, e.span)
    raise AssertionError(e)


def _inlinable(d: atl.Definition) -> bool:
    """A definition usable inside state expressions: a state predicate with int parameters."""
    return isinstance(d.body, atl.Prop) and all(k == "int" for _, k in d.params)


# --------------------------------------------------------------------------- the checker

class Checker:
    """Checks expressions and formulas against an :class:`Env`."""

    def __init__(self, env: Env):
        self.env = env

    # ------------------------------------------------------------------ helpers

    def _expect(self, t: Typed, want: Type, span: Span, what: str = "") -> None:
        if not _compatible(t.type, want):
            where = f" {what}" if what else ""
            raise WrongType(f"expected {_article(want)}{where}, got {_article(t.type)}", span)

    def _to_ir(self, t: Typed, span: Span) -> ir.Expr:
        if isinstance(t, Known):
            return ir.Const(ir_value(t.value, span), span)
        return t.expr

    def state(self, node: ast.Expr, ctx: Ctx, want: Type | None, what: str = "") -> ir.Expr:
        """``node`` as an IR state expression of type ``want`` (None: int or bool)."""
        t = self.expr(node, ctx)
        if want is not None:
            self._expect(t, want, node.span, what)
        elif t.type not in (INT, BOOL):
            raise WrongType(f"expected an int or a bool, got {_article(t.type)}", node.span)
        return self._to_ir(t, node.span)

    def value(self, node: ast.Expr, ctx: Ctx, want: Type | None = None, what: str = "") -> Known:
        """``node`` evaluated now; an error when it depends on the position."""
        t = self.expr(node, ctx)
        if isinstance(t, Sym):
            var = _mentions_state(t.expr)
            reason = (f"it reads the state variable '{var}'" if var else
                      f"it depends on the bound name '{sorted(_free_names(t.expr))[0]}'"
                      if _free_names(t.expr) else "it is not constant")
            raise WrongType(f"{what or 'this'} must be a constant, but {reason}", node.span)
        if want is not None:
            self._expect(t, want, node.span, what)
        return t

    def _int_value(self, node, ctx, what) -> int:
        return self.value(node, ctx, INT, what).value

    def _unknown(self, name: str, span: Span, ctx: Ctx, functions: bool = False) -> UnknownName:
        if name in self.env.declared and name not in self.env.entries:
            kind, where = self.env.declared[name]
            return UnknownName(f"'{name}' is used before its declaration as a {kind} "
                              f"(line {where.line}); declare it earlier", span)
        pool = list(ctx.bound) + list(ctx.fparams) + self.env.visible()
        if functions:
            pool += list(BUILTINS)
        msg = f"unknown {'function' if functions else 'name'} '{name}'"
        return UnknownName(msg + _did_you_mean(name, pool), span)

    def _bind_check(self, ident: ast.Ident, ctx: Ctx) -> None:
        """A bound name may hide a top-level name, not another bound name."""
        n = ident.name
        if n in ctx.bound or n in ctx.fparams:
            raise UnknownName(f"'{n}' is already bound here; choose another name", ident.span)

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
                    e = self.env.entries.get(n.name)
                    if e is not None and e.kind in ("var", "set", "formula"):
                        return False
        return True

    def is_temporal(self, node: ast.Expr, ctx: Ctx) -> bool:
        """True when ``node`` needs ATL (strategic operators, turn(...), formulas)."""
        for n in ast.walk(node):
            if isinstance(n, (ast.Strategic, ast.TurnOf)):
                return True
            if isinstance(n, (ast.Name, ast.Call)) and n.name not in ctx.bound \
                    and n.name not in ctx.fparams:
                e = self.env.entries.get(n.name)
                if e is not None and e.definition is not None and not _inlinable(e.definition):
                    return True
        return False

    # ------------------------------------------------------------------ expressions

    def expr(self, node: ast.Expr, ctx: Ctx) -> Typed:
        """Check one expression (exhaustive over node kinds)."""
        if isinstance(node, ast.IntLit):
            return Known(node.value, INT)
        if isinstance(node, ast.BoolLit):
            return Known(node.value, BOOL)
        if isinstance(node, ast.StrLit):
            return Known(node.value, STR)
        if isinstance(node, ast.Name):
            return self._name(node, ctx)
        if isinstance(node, ast.Index):
            return self._index(node, ctx)
        if isinstance(node, ast.Unary):
            return self._unary(node, ctx)
        if isinstance(node, ast.Binary):
            return self._binary(node, ctx)
        if isinstance(node, ast.Range):
            lo = self._int_value(node.lo, ctx, "the lower bound of a range")
            hi = self._int_value(node.hi, ctx, "the upper bound of a range")
            return Known(frozenset(range(lo, hi + 1)), SetT(INT))
        if isinstance(node, ast.IfThenElse):
            return self._ite(node, ctx)
        if isinstance(node, ast.Quantifier):
            return self._quantifier(node, ctx)
        if isinstance(node, ast.Call):
            return self._call(node, ctx)
        if isinstance(node, ast.TupleLit):
            items = [self.value(i, ctx, what="a tuple item") for i in node.items]
            return Known(tuple(i.value for i in items), TupleT(tuple(i.type for i in items)))
        if isinstance(node, ast.SetLit):
            items = [self.value(i, ctx, what="a set element") for i in node.items]
            return _known(make_set((i.value for i in items), node.span))
        if isinstance(node, ast.SetComp):
            values = self._comprehension(node.elem, node.clauses, ctx)
            return _known(make_set(values, node.span))
        if isinstance(node, ast.Players):
            return _known(frozenset(self._players(node.span)))
        if isinstance(node, (ast.TurnOf, ast.Strategic)):
            raise WrongType("an ATL formula cannot be used inside a state expression "
                             "(guards, effects, sets, turn, invariants and operands of "
                             "arithmetic or comparisons are state expressions)", node.span)
        if isinstance(node, ast.Generator):
            raise WrongType("a generator 'e for x in D' can only be the argument of "
                             "sum, count, min, max, tuple, ...", node.span)
        raise AssertionError(node)

    def _players(self, span: Span) -> tuple[int, ...]:
        if self.env.players is None:
            raise UnknownName("'players' is used before the players declaration", span)
        return self.env.players

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
        e = self.env.entries.get(n)
        if e is None:
            if n in BUILTINS:
                raise WrongType(f"'{n}' is a function: call it, as in {BUILTINS[n].signature}",
                                 node.span)
            raise self._unknown(n, node.span, ctx)
        if node.primed and e.kind != "var":
            raise WrongType(f"'{n}' is a {e.kind}; only state variables can be primed",
                             node.span)
        if e.kind in ("param", "const"):
            return _known(e.value)
        if e.kind == "var":
            d = e.decl
            if d.is_array:
                raise WrongType(f"'{n}' is an array: index it, as in {n}[{d.index.lo}]",
                                 node.span)
            self._check_prime(node, ctx)
            return Sym(ir.Var(n, node.primed, node.span), _var_type(d))
        return self._inline(e.definition, (), node, ctx)

    def _check_prime(self, node: ast.Name, ctx: Ctx) -> None:
        if node.primed and not ctx.primes:
            raise WrongType(f"primed variable {node.name}' outside a move effect (after "
                             f"'then'): guards, sets and formulas see the current position only",
                             node.span)

    def _inline(self, d: atl.Definition, args: tuple, node: ast.Expr, ctx: Ctx) -> Sym:
        kind = "set" if _inlinable(d) else "formula"
        if not _inlinable(d):
            raise WrongType(f"'{d.name}' is an ATL formula; it cannot be used inside a state "
                             f"expression (only sets can)", node.span)
        if len(args) != len(d.params):
            raise WrongType(_arity_message(d, len(args), kind), node.span)
        env = {}
        for (pname, _), a in zip(d.params, args):
            env[pname] = self.state(a, ctx, INT, f"for the parameter '{pname}' of {d.name}")
        body = substitute_exprs(d.body.expr, env)
        return Sym(body, BOOL)

    def _index(self, node: ast.Index, ctx: Ctx) -> Typed:
        base = node.base
        if isinstance(base, ast.Name) and base.name not in ctx.bound \
                and base.name not in ctx.fparams:
            e = self.env.entries.get(base.name)
            if e is not None and e.kind == "var":
                return self._element(e.decl, base, node, ctx)
        b = self.expr(base, ctx)
        i = self.expr(node.index, ctx)
        self._expect(i, INT, node.index.span, "as an index")
        if isinstance(b.type, SetT):
            raise WrongType("a set cannot be indexed (it has no order); use a tuple, "
                             "e.g. sorted(S)[i]", node.span)
        if not isinstance(b.type, TupleT):
            raise WrongType(f"cannot index {_article(b.type)}", base.span)
        items = b.type.items
        if isinstance(i, Known):
            k = i.value
            if not 0 <= k < len(items):
                raise RangeError(f"index {k} is out of range for a tuple of length {len(items)}"
                                 f" (tuples are indexed from 0)", node.index.span)
            if isinstance(b, Known):
                return _known(b.value[k])
            return Sym(ir.Item(b.expr, ir.Const(k, node.index.span), node.span), items[k])
        if not items:
            raise RangeError("cannot index an empty tuple", node.span)
        if any(not _compatible(items[0], t) for t in items):
            raise WrongType(f"a tuple of mixed types {b.type} needs a constant index",
                             node.index.span)
        return Sym(ir.Item(self._to_ir(b, base.span), i.expr, node.span), items[0])

    def _element(self, d: ir.VarDecl, base: ast.Name, node: ast.Index, ctx: Ctx) -> Typed:
        if not d.is_array:
            raise WrongType(f"'{d.name}' is a scalar variable, not an array", node.span)
        self._check_prime(base, ctx)
        i = self.expr(node.index, ctx)
        self._expect(i, INT, node.index.span, "as an index")
        if isinstance(i, Known):
            if not d.index.lo <= i.value <= d.index.hi:
                raise RangeError(f"index {i.value} is outside {d.name}[{d.index.lo}..{d.index.hi}]",
                                 node.index.span)
            index = ir.Const(i.value, node.index.span)
        else:
            index = i.expr
            var = _mentions_state(index)
            if base.primed and var:
                raise ModelError(f"the index of the primed element {d.name}'[...] must not "
                                 f"depend on the position (it reads '{var}'): use a quantifier, "
                                 f"as in forall i in {d.index.lo}..{d.index.hi}: "
                                 f"{d.name}'[i] = ...", node.index.span)
        return Sym(ir.Elem(d.name, index, base.primed, node.span), _var_type(d))

    def _unary(self, node: ast.Unary, ctx: Ctx) -> Typed:
        a = self.expr(node.arg, ctx)
        if node.op == "-":
            self._expect(a, INT, node.arg.span, "after '-'")
            if isinstance(a, Known):
                return Known(-a.value, INT)
            return Sym(ir.Unary("-", a.expr, node.span), INT)
        if node.op == "not":
            self._expect(a, BOOL, node.arg.span, "after 'not'")
            if isinstance(a, Known):
                return Known(not a.value, BOOL)
            return Sym(ir.Unary("not", a.expr, node.span), BOOL)
        raise AssertionError(node.op)

    def _binary(self, node: ast.Binary, ctx: Ctx) -> Typed:
        op = node.op
        if op in _LOGIC:
            return self._logic(node, ctx)
        if op in ("in", "notin", "==", "!=") and isinstance(node.left, ast.TupleLit) \
                and not self.is_constant(node.left, ctx):
            return self._tuple_test(node, ctx)
        left = self.expr(node.left, ctx)
        right = self.expr(node.right, ctx)
        if op in ("==", "!="):
            return self._equality(node, left, right)
        if op in ("<", "<=", ">", ">="):
            self._expect(left, INT, node.left.span, f"before '{op}'")
            self._expect(right, INT, node.right.span, f"after '{op}'")
            return self._fold_or_build(node, op, left, right, BOOL)
        if op in ("in", "notin"):
            return self._membership(node, left, right)
        if op in ("+", "-", "*", "//", "%", "\\", "/"):
            return self._arith(node, left, right)
        raise AssertionError(op)

    def _fold_or_build(self, node, op, left: Typed, right: Typed, typ: Type) -> Typed:
        if isinstance(left, Known) and isinstance(right, Known):
            return Known(_apply(op, left.value, right.value, node.span), typ)
        return Sym(ir.Binary(op, self._to_ir(left, node.left.span),
                             self._to_ir(right, node.right.span), node.span), typ)

    def _logic(self, node: ast.Binary, ctx: Ctx) -> Typed:
        op = node.op
        left = self.expr(node.left, ctx)
        if op in ("|", "&") and isinstance(left.type, SetT):
            right = self.value(node.right, ctx, what=f"the right operand of '{op}'")
            if not isinstance(right.type, SetT) or not _compatible(left.type, right.type):
                hint = (" ('|' and '&' bind less tightly than comparisons: add parentheses)"
                        if right.type == BOOL else "")
                raise WrongType(f"cannot combine {_article(left.type)} with "
                                 f"{_article(right.type)} by '{op}'{hint}", node.span)
            out = left.value | right.value if op == "|" else left.value & right.value
            return _known(make_set(out, node.span))
        self._expect(left, BOOL, node.left.span, f"before '{op}'")
        canon = _LOGIC[op]
        if isinstance(left, Known):  # constant conditions short-circuit, like Python
            if (canon == "and" and not left.value) or (canon == "or" and left.value):
                return Known(left.value, BOOL)
            if canon == "implies" and not left.value:
                return Known(True, BOOL)
            if canon in ("and", "or", "implies"):
                right = self.expr(node.right, ctx)
                self._expect(right, BOOL, node.right.span, f"after '{op}'")
                return right
        right = self.expr(node.right, ctx)
        self._expect(right, BOOL, node.right.span, f"after '{op}'")
        if isinstance(right, Known) and canon in ("and", "or"):
            if (canon == "and") == right.value:
                return left
            return Known(right.value, BOOL)
        return self._fold_or_build(node, canon, left, right, BOOL)

    def _equality(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        if not _compatible(left.type, right.type):
            raise WrongType(f"cannot compare {_article(left.type)} with "
                             f"{_article(right.type)}", node.span)
        if isinstance(left, Known) and isinstance(right, Known):
            same = left.value == right.value
            return Known(same if node.op == "==" else not same, BOOL)
        if isinstance(left.type, (SetT, StrT)):
            raise WrongType(f"cannot compare {_article(left.type)} in a state expression",
                             node.span)
        return self._fold_or_build(node, node.op, left, right, BOOL)

    def _membership(self, node: ast.Binary, left: Typed, right: Typed) -> Typed:
        if isinstance(right, Sym) or not isinstance(right.type, (SetT, TupleT)):
            raise WrongType("the right side of 'in' must be a constant set, range or tuple",
                             node.right.span)
        values = right.value if isinstance(right.value, frozenset) else frozenset(right.value)
        elem = right.type.elem if isinstance(right.type, SetT) else _uniform(right.type)
        if values and not _compatible(left.type, elem):
            raise WrongType(f"cannot look for {_article(left.type)} among "
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
                             f", got {_article(right.type)}", node.right.span)
        left_type = TupleT(tuple(i.type for i in items))
        options = []
        for v in values:
            if not _compatible(left_type, type_of(v)):
                raise WrongType(f"cannot compare {_article(left_type)} with "
                                 f"{_article(type_of(v))}", node.span)
            options.append(ir.conj(ir.Binary("==", self._to_ir(t, a.span),
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
                    or not _compatible(left.type, r.type):
                raise WrongType(f"cannot subtract {_article(r.type)} from a set", node.span)
            return _known(left.value - r.value)
        if op == "\\":
            raise WrongType(f"'\\' is set difference; got {_article(left.type)}", node.span)
        if op == "+" and isinstance(left, Known) and isinstance(left.type, TupleT):
            if not (isinstance(right, Known) and isinstance(right.type, TupleT)):
                raise WrongType(f"cannot add {_article(right.type)} to a tuple", node.span)
            return _known(left.value + right.value)
        name = {"//": "div", "%": "mod"}.get(op, op)
        self._expect(left, INT, node.left.span, f"before '{name}'")
        self._expect(right, INT, node.right.span, f"after '{name}'")
        if op in ("//", "%"):
            if isinstance(right, Known) and right.value <= 0 and not isinstance(left, Known):
                raise RangeError(f"the divisor of {name} must be a positive constant, "
                                 f"got {right.value}", node.right.span)
            if isinstance(right, Sym) and _mentions_state(right.expr):
                raise ModelError(f"the divisor of {name} must be a constant; here it reads "
                                 f"the state variable '{_mentions_state(right.expr)}'",
                                 node.right.span)
        return self._fold_or_build(node, op, left, right, INT)

    def _ite(self, node: ast.IfThenElse, ctx: Ctx) -> Typed:
        c = self.expr(node.cond, ctx)
        self._expect(c, BOOL, node.cond.span, "as the condition")
        if isinstance(c, Known):  # a constant condition selects one branch
            return self.expr(node.then if c.value else node.other, ctx)
        a = self.expr(node.then, ctx)
        b = self.expr(node.other, ctx)
        if not _compatible(a.type, b.type):
            raise WrongType(f"the branches of if-then-else have different types: "
                             f"{a.type} and {b.type}", node.span)
        if a.type not in (INT, BOOL):
            raise WrongType(f"the branches of a state if-then-else must be ints or bools, "
                             f"not {_article(a.type)}", node.span)
        return Sym(ir.Ite(c.expr, self._to_ir(a, node.then.span),
                          self._to_ir(b, node.other.span), node.span), a.type)

    # ------------------------------------------------------------------ binders

    def domain(self, node: ast.Expr, ctx: Ctx, var: str) -> tuple[tuple, Type | None]:
        """The values of a constant domain (sets in canonical order) and their type."""
        if not self.is_constant(node, ctx):
            t = self.expr(node, ctx)
            if isinstance(t, Sym):
                free = sorted(_free_names(t.expr))
                why = (f"it reads the state variable '{_mentions_state(t.expr)}'"
                       if _mentions_state(t.expr) else
                       f"it depends on the bound name '{free[0]}'" if free else "")
                raise WrongType(f"the domain of '{var}' must be a constant set, range or "
                                 f"tuple, but {why}", node.span)
        d = self.value(node, ctx, what=f"the domain of '{var}'")
        if isinstance(d.type, SetT):
            return tuple(sorted(d.value, key=canonical_key)), d.type.elem
        if isinstance(d.type, TupleT):
            return d.value, (_uniform(d.type) if d.value else None)
        if isinstance(d.type, StrT):
            return tuple(d.value), STR
        raise WrongType(f"the domain of '{var}' must be a set, range or tuple, "
                         f"got {_article(d.type)}", node.span)

    def _flat_binders(self, binders: tuple[ast.Binder, ...]) -> list[tuple[ast.Ident, ast.Expr]]:
        return [(name, b.domain) for b in binders for name in b.names]

    def _quantifier(self, node: ast.Quantifier, ctx: Ctx) -> Typed:
        pairs = self._flat_binders(node.binders)
        if self.is_constant(node, ctx):
            return Known(self._const_quant(node.kind, pairs, node.body, ctx), BOOL)
        return self._sym_quant(node, pairs, ctx)

    def _const_quant(self, kind, pairs, body, ctx) -> bool:
        if not pairs:
            return self.value(body, ctx, BOOL, "as the quantifier's body").value
        (ident, dom), rest = pairs[0], pairs[1:]
        self._bind_check(ident, ctx)
        values, _ = self.domain(dom, ctx, ident.name)
        results = (self._const_quant(kind, rest, body, ctx.bind(ident.name, _known(v)))
                   for v in values)
        return all(results) if kind == "forall" else any(results)

    def _sym_quant(self, node: ast.Quantifier, pairs, ctx: Ctx) -> Typed:
        layers = []
        for ident, dom in pairs:
            self._bind_check(ident, ctx)
            values, elem = self.domain(dom, ctx, ident.name)
            if not values:  # an empty domain: the body is never instantiated
                return Known(node.kind == "forall", BOOL)
            layers.append((ident.name, tuple(sorted(set(values), key=canonical_key))))
            ctx = ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem))
        body = self.expr(node.body, ctx)
        self._expect(body, BOOL, node.body.span, "as the quantifier's body")
        if isinstance(body, Known):
            return body
        out = body.expr
        for var, values in reversed(layers):
            out = ir.Quant(node.kind, var, values, out, node.span)
        return Sym(out, BOOL)

    def iterate(self, clauses, ctx: Ctx) -> Iterator[Ctx]:
        """The contexts binding a comprehension's variables, in order (constant domains)."""
        if not clauses:
            yield ctx
            return
        c, rest = clauses[0], clauses[1:]
        if isinstance(c, ast.ForClause):
            self._bind_check(c.var, ctx)
            values, _ = self.domain(c.domain, ctx, c.var.name)
            for v in values:
                yield from self.iterate(rest, ctx.bind(c.var.name, _known(v)))
        elif isinstance(c, ast.IfClause):
            if self.value(c.cond, ctx, BOOL, "as a comprehension condition").value:
                yield from self.iterate(rest, ctx)
        else:
            raise AssertionError(c)

    def _comprehension(self, elem: ast.Expr, clauses, ctx: Ctx) -> list:
        return [self.value(elem, inner, what="a comprehension element").value
                for inner in self.iterate(clauses, ctx)]

    def _sym_sum(self, gen: ast.Generator, ctx: Ctx, counting: bool) -> Typed:
        """``sum(e for x in D if c)`` / ``count(...)`` over state expressions, as IR Sum."""
        fn = "count" if counting else "sum"

        def build(i: int, ctx: Ctx) -> tuple[ir.Expr, Type]:
            if i == len(gen.clauses):
                t = self.expr(gen.elem, ctx)
                if counting:
                    self._expect(t, BOOL, gen.elem.span, "in count(...)")
                elif t.type not in (INT, BOOL):
                    raise WrongType(f"sum(...) adds ints (or counts bools), got "
                                     f"{_article(t.type)}", gen.elem.span)
                return self._to_ir(t, gen.elem.span), t.type
            c = gen.clauses[i]
            if isinstance(c, ast.ForClause):
                self._bind_check(c.var, ctx)
                values, elem = self.domain(c.domain, ctx, c.var.name)
                if len(set(values)) != len(values):
                    raise RangeError(f"{fn} over a tuple with repeated values: iterate over "
                                     f"its indices instead", c.domain.span)
                if not values:
                    return ir.Const(0), INT
                body, _ = build(i + 1, ctx.bind(c.var.name,
                                                Sym(ir.Name(c.var.name, c.var.span), elem)))
                return ir.Sum(c.var.name, values, body, gen.span), INT
            if isinstance(c, ast.IfClause):
                cond = self.state(c.cond, ctx, BOOL, "as a condition")
                body, typ = build(i + 1, ctx)
                zero = ir.Const(False if typ == BOOL else 0)
                return ir.Ite(cond, body, zero, c.span), typ
            raise AssertionError(c)

        out, typ = build(0, ctx)
        if typ == BOOL:  # a lone condition (no for clause left): count it
            out = ir.Ite(out, ir.Const(1), ir.Const(0))
        return Sym(out, INT)

    # ------------------------------------------------------------------ calls

    def _call(self, node: ast.Call, ctx: Ctx) -> Typed:
        n = node.name
        if n in ctx.bound or n in ctx.fparams:
            raise WrongType(f"'{n}' is a bound name, not a function", node.span)
        e = self.env.entries.get(n)
        if e is not None:
            if e.definition is None:
                raise WrongType(f"'{n}' is a {e.kind}, not a function or a set", node.span)
            return self._inline(e.definition, node.args, node, ctx)
        b = BUILTINS.get(n)
        if b is None:
            raise self._unknown(n, node.span, ctx, functions=True)
        if n in STATE_BUILTINS and not self.is_constant(node, ctx):
            return self._state_builtin(node, ctx)
        if n == "len" and len(node.args) == 1 and not self.is_constant(node, ctx):
            t = self.expr(node.args[0], ctx)  # a bound tuple: its length is in its type
            if isinstance(t.type, TupleT):
                return Known(len(t.type.items), INT)
        args = []
        for a in node.args:
            if isinstance(a, ast.Generator):
                args.append(tuple(self._comprehension(a.elem, a.clauses, ctx)))
            else:
                args.append(self.value(a, ctx, what=f"an argument of {n}").value)
        try:
            out = b.call(tuple(args))
        except SymbolicError as err:
            raise type(err)(err.message, err.span or node.span) from None
        if isinstance(out, frozenset):
            out = make_set(out, node.span)
        return _known(out)

    def _state_builtin(self, node: ast.Call, ctx: Ctx) -> Typed:
        n, args = node.name, node.args
        if n in ("sum", "count"):
            if len(args) != 1 or not isinstance(args[0], ast.Generator):
                raise WrongType(f"{n}(...) over state expressions needs a generator, "
                                 f"as in {n}(k[i] for i in 1..n)", node.span)
            return self._sym_sum(args[0], ctx, n == "count")
        if any(isinstance(a, ast.Generator) for a in args):
            raise WrongType(f"{n}(... for ...) needs constant elements; over state "
                             f"expressions list the arguments: {n}(a, b)", node.span)
        parts = [self.expr(a, ctx) for a in args]
        if n == "int":
            if len(parts) != 1:
                raise WrongType("int(b) takes 1 argument", node.span)
            if parts[0].type == INT:
                return parts[0]
            self._expect(parts[0], BOOL, args[0].span, "in int(...)")
            return Sym(ir.Ite(parts[0].expr, ir.Const(1), ir.Const(0), node.span), INT)
        for p, a in zip(parts, args):
            self._expect(p, INT, a.span, f"in {n}(...)")
        irs = [self._to_ir(p, a.span) for p, a in zip(parts, args)]
        if n == "abs":
            if len(irs) != 1:
                raise WrongType("abs(n) takes 1 argument", node.span)
            x = irs[0]
            return Sym(ir.Ite(ir.Binary("<", x, ir.Const(0)), ir.Unary("-", x), x, node.span),
                       INT)
        if n in ("min", "max"):
            if len(irs) < 2:
                raise WrongType(f"{n}(a, b, ...) over state expressions needs at least two "
                                 f"arguments", node.span)
            cmp = "<=" if n == "min" else ">="
            out = irs[0]
            for x in irs[1:]:
                out = ir.Ite(ir.Binary(cmp, out, x), out, x, node.span)
            return Sym(out, INT)
        raise AssertionError(n)

    # ------------------------------------------------------------------ formulas

    def formula(self, node: ast.Expr, ctx: Ctx) -> atl.Formula:
        """``node`` as an ATL formula; state sub-formulas become :class:`atl.Prop`."""
        ref = self._as_ref(node, ctx)
        if ref is not None:
            return ref
        if not self.is_temporal(node, ctx):
            t = self.expr(node, ctx)
            self._expect(t, BOOL, node.span, "as a formula")
            if isinstance(t, Known):
                return atl.Truth(t.value, node.span)
            return atl.Prop(t.expr, node.span)
        if isinstance(node, ast.Unary) and node.op == "not":
            return atl.Not(self.formula(node.arg, ctx), node.span)
        if isinstance(node, ast.Binary) and node.op in _LOGIC:
            return atl.BoolOp(_LOGIC[node.op], self.formula(node.left, ctx),
                              self.formula(node.right, ctx), node.span)
        if isinstance(node, ast.IfThenElse):
            c = self.formula(node.cond, ctx)
            return atl.BoolOp("or", atl.BoolOp("and", c, self.formula(node.then, ctx)),
                              atl.BoolOp("and", atl.Not(c), self.formula(node.other, ctx)),
                              node.span)
        if isinstance(node, ast.TurnOf):
            return atl.Turn(self.coalition(node.coalition, ctx, node.span), node.span)
        if isinstance(node, ast.Strategic):
            return self._strategic(node, ctx)
        if isinstance(node, ast.Quantifier):
            return self._expand_quantifier(node, self._flat_binders(node.binders), ctx)
        raise WrongType("an ATL formula cannot be used as a value here (only not, and, or, "
                         "implies, iff and if-then-else combine formulas)", node.span)

    def _strategic(self, node: ast.Strategic, ctx: Ctx) -> atl.Formula:
        J = self.coalition(node.coalition, ctx, node.span)
        args = [self.formula(a, ctx) for a in node.args]
        if node.op == "X":
            return atl.Next(J, args[0], node.span)
        if node.op == "U":
            return atl.Until(J, args[0], args[1], node.span)
        if node.op == "<>":
            return atl.Eventually(J, args[0], node.span)
        if node.op == "[]":
            return atl.Always(J, args[0], node.span)
        raise AssertionError(node.op)

    def _expand_quantifier(self, node: ast.Quantifier, pairs, ctx: Ctx) -> atl.Formula:
        """``forall j in players: Gagne(j)`` over formulas: a finite conjunction."""
        if not pairs:
            return self.formula(node.body, ctx)
        (ident, dom), rest = pairs[0], pairs[1:]
        self._bind_check(ident, ctx)
        values, _ = self.domain(dom, ctx, ident.name)
        op = "and" if node.kind == "forall" else "or"
        out: atl.Formula | None = None
        for v in values:
            f = self._expand_quantifier(node, rest, ctx.bind(ident.name, _known(v)))
            out = f if out is None else atl.BoolOp(op, out, f, node.span)
        return out if out is not None else atl.Truth(node.kind == "forall", node.span)

    def _as_ref(self, node: ast.Expr, ctx: Ctx) -> atl.Ref | None:
        """A bare use of a set or formula (``initial``, ``F({1})``) as an :class:`atl.Ref`."""
        if not isinstance(node, (ast.Name, ast.Call)):
            return None
        if isinstance(node, ast.Name) and node.primed:
            return None
        if node.name in ctx.bound or node.name in ctx.fparams:
            return None
        e = self.env.entries.get(node.name)
        if e is None or e.definition is None:
            return None
        d = e.definition
        args = node.args if isinstance(node, ast.Call) else ()
        if len(args) != len(d.params):
            raise WrongType(_arity_message(d, len(args), e.kind), node.span)
        out = []
        for (pname, kind), a in zip(d.params, args):
            if kind == "coalition":
                out.append(self.coalition((a,), ctx, a.span))
            elif isinstance(a, ast.Name) and not a.primed and a.name in ctx.fparams:
                self._name(a, ctx)  # records the int use, rejects coalitions
                out.append(ir.Name(a.name, a.span))
            else:
                t = self.expr(a, ctx)
                if isinstance(t, Known) and isinstance(t.value, (frozenset, tuple)) \
                        and len(t.value) == 1 and type_of(next(iter(t.value))) == INT:
                    t = _known(next(iter(t.value)))  # {1} passed for a player: 1
                self._expect(t, INT, a.span, f"for the parameter '{pname}' of {d.name}")
                if isinstance(t, Sym):
                    raise WrongType(f"the argument '{pname}' of {d.name} must be a constant "
                                     f"or a parameter of the enclosing formula", a.span)
                out.append(t.value)
        return atl.Ref(d.name, tuple(out), node.span)

    # ------------------------------------------------------------------ coalitions

    def coalition(self, members: tuple[ast.Expr, ...], ctx: Ctx, span: Span) -> atl.Coalition:
        """The union of coalition expressions (``<<1, 2>>``, ``<<J>>``, ``<<players \\ J>>``)."""
        if not members:
            return atl.CoalitionLit((), span)
        parts = [self._coalition_expr(m, ctx) for m in members]
        lits = [p for p in parts if isinstance(p, atl.CoalitionLit)]
        rest = [p for p in parts if not isinstance(p, atl.CoalitionLit)]
        if len(lits) > 1:
            merged = sorted(set().union(*(p.members for p in lits)),
                            key=lambda m: (isinstance(m, str), m if isinstance(m, str) else "",
                                           m if isinstance(m, int) else 0))
            lits = [atl.CoalitionLit(tuple(merged), span)]
        out = None
        for p in lits + rest:
            out = p if out is None else atl.CoalitionOp("|", out, p, span)
        return out

    def _coalition_expr(self, node: ast.Expr, ctx: Ctx) -> atl.Coalition:
        if isinstance(node, ast.Players):
            self._players(node.span)
            return atl.AllPlayers(node.span)
        if isinstance(node, ast.Name) and not node.primed and node.name in ctx.fparams:
            return atl.CoalitionRef(node.name, node.span)
        mentions = any(isinstance(n, ast.Name) and n.name in ctx.fparams for n in ast.walk(node))
        if mentions and isinstance(node, ast.Binary) and node.op in _COALITION_OPS:
            return atl.CoalitionOp(_COALITION_OPS[node.op], self._coalition_expr(node.left, ctx),
                                   self._coalition_expr(node.right, ctx), node.span)
        if mentions and isinstance(node, ast.SetLit):
            members = []
            for item in node.items:
                if isinstance(item, ast.Name) and not item.primed and item.name in ctx.fparams:
                    self._name(item, ctx)  # an int use; a coalition parameter is an error
                    members.append(item.name)
                else:
                    members.extend(self._player_ids(item, ctx))
            return atl.CoalitionLit(tuple(members), node.span)
        if mentions:
            raise WrongType("a coalition combines players, players, {...} lists and "
                             "parameters with |, + (union), & and \\ (difference)", node.span)
        return atl.CoalitionLit(self._player_ids(node, ctx), node.span)

    def _player_ids(self, node: ast.Expr, ctx: Ctx) -> tuple[int, ...]:
        v = self.value(node, ctx, what="a coalition")
        if v.type == INT:
            ids = (v.value,)
        elif isinstance(v.type, SetT) and v.type.elem in (INT, None):
            ids = tuple(sorted(v.value))
        elif isinstance(v.type, TupleT) and all(t == INT for t in v.type.items):
            ids = tuple(sorted(set(v.value)))
        else:
            raise WrongType(f"expected a coalition (a player or a set of players), got "
                             f"{_article(v.type)}", node.span)
        players = self._players(node.span)
        unknown = [p for p in ids if p not in players]
        if unknown:
            raise RangeError(f"{_plural(unknown, 'player')} {', '.join(map(str, unknown))} "
                             f"{'is' if len(unknown) == 1 else 'are'} not among the players "
                             f"{{{', '.join(map(str, players))}}}", node.span)
        return ids


# --------------------------------------------------------------------------- small helpers

def _apply(op: str, a, b, span: Span):
    """A binary operator on two load-time values (types already checked)."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("//", "%"):
        if b == 0:
            raise RangeError(f"{'division' if op == '//' else 'modulo'} by zero", span)
        return a // b if op == "//" else a % b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "and":
        return a and b
    if op == "or":
        return a or b
    if op == "implies":
        return (not a) or b
    if op == "iff":
        return a == b
    raise AssertionError(op)


def _uniform(t: TupleT) -> Type | None:
    if not t.items:
        return None
    first = t.items[0]
    if any(not _compatible(first, x) for x in t.items):
        return None
    return first


def _var_type(d: ir.VarDecl) -> Type:
    return BOOL if isinstance(d.type, ir.BoolType) else INT


def _article(t: Type | None) -> str:
    s = str(t)
    if isinstance(t, (TupleT,)) and not s[0].isdigit():
        return f"a tuple {s}"
    return ("an " if s[0] in "aeiou" else "a ") + s


def _plural(items, word: str) -> str:
    return word if len(items) == 1 else f"{word}s"


def _arity_message(d: atl.Definition, got: int, kind: str) -> str:
    names = ", ".join(p for p, _ in d.params)
    want = len(d.params)
    if want == 0:
        return f"{kind} '{d.name}' takes no arguments, got {got}"
    return (f"{kind} '{d.name}' takes {want} argument{'s' if want != 1 else ''} "
            f"({names}), got {got}")


def _did_you_mean(name: str, pool) -> str:
    pool = sorted(set(pool))
    lower = {p.lower(): p for p in pool}
    if name.lower() in lower and lower[name.lower()] != name:
        return f" (did you mean '{lower[name.lower()]}'?)"
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# --------------------------------------------------------------------------- declarations

_OVERRIDE_INT = re.compile(r"[+-]?\d+")


class ModelChecker(Checker):
    """Checks a whole model: declarations in order, then the game."""

    def __init__(self, tree: ast.ModelAst, filename: str, overrides: Mapping[str, object] | None,
                 text: str = ""):
        super().__init__(Env())
        self.tree = tree
        self.text = text
        self.filename = filename
        self.overrides = dict(overrides or {})
        self.name: str | None = None
        self.description = ""
        self.game_span: Span | None = None
        self.vars: list[ir.VarDecl] = []
        self.turn: ir.Expr | None = None
        self.invariants: list[ir.Expr] = []
        self.moves: list[ir.Move] = []
        self.queries: list = []
        self.definitions: dict[str, atl.Definition] = {}

    # --- the pass over declarations
    def run(self):
        self._collect_names()
        self._check_override_names()
        for d in self.tree.decls:
            self.declaration(d)
        return self._game()

    def _collect_names(self) -> None:
        declared = self.env.declared
        moves: dict[str, Span] = {}
        for d in self.tree.decls:
            for ident, kind in _declared_names(d):
                if kind == "move":
                    if ident.name in moves:
                        raise ModelError(f"move '{ident.name}' is already declared at line "
                                         f"{moves[ident.name].line}", ident.span)
                    moves[ident.name] = ident.span
                    continue
                if ident.name in declared:
                    k, where = declared[ident.name]
                    raise ModelError(f"'{ident.name}' is already declared at line {where.line} "
                                     f"(as a {k})", ident.span)
                declared[ident.name] = (kind, ident.span)

    def _override_span(self, name: str) -> Span:
        """A span in the text ``N=3, K=5`` showing the parameter overrides."""
        text, column, at = "", 1, 1
        for k, v in self.overrides.items():
            if text:
                text += ", "
            if k == name:
                at = len(text) + 1
            text += f"{k}={_show(v)}"
        column = at
        return Span("<params>", 1, column, text, len(name))

    def _check_override_names(self) -> None:
        params = [n for n, (k, _) in self.env.declared.items() if k == "param"]
        for name in self.overrides:
            if name not in params:
                hint = _did_you_mean(name, params)
                known = f"; the parameters are {', '.join(params)}" if params else \
                    "; this model has no parameters"
                raise UnknownName(f"unknown parameter '{name}'{hint}{known}",
                                 self._override_span(name))

    def declaration(self, d: ast.Decl) -> None:
        """Check one declaration (exhaustive over declaration kinds)."""
        if isinstance(d, ast.GameDecl):
            if self.name is not None:
                raise ModelError("the game is named twice", d.span)
            self.name, self.game_span = d.name, d.span
            if d.description is not None:
                self.description = d.description
        elif isinstance(d, ast.DescriptionDecl):
            self.description = (self.description + "\n" + d.text).strip()
        elif isinstance(d, ast.ParamDecl):
            self._param(d)
        elif isinstance(d, ast.ConstDecl):
            v = self.value(d.expr, EMPTY, what=f"the constant '{d.name.name}'")
            self.env.entries[d.name.name] = Entry("const", d.name.span, value=v.value)
        elif isinstance(d, ast.PlayersDecl):
            self._players_decl(d)
        elif isinstance(d, ast.VarDecl):
            self._var(d)
        elif isinstance(d, ast.TurnDecl):
            if self.turn is not None:
                raise ModelError("the turn is declared twice", d.span)
            self.turn = self.state(d.expr, EMPTY, INT, "for the player whose turn it is")
            if isinstance(self.turn, ir.Const) and self.env.players is not None \
                    and self.turn.value not in self.env.players:
                raise RangeError(f"turn {self.turn.value} is not a player", d.expr.span)
        elif isinstance(d, ast.InvariantDecl):
            self.invariants.append(self.state(d.expr, EMPTY, BOOL, "as an invariant"))
        elif isinstance(d, ast.MoveDecl):
            self.moves.append(self._move(d))
        elif isinstance(d, ast.SetDecl):
            self._set(d)
        elif isinstance(d, ast.FormulaDecl):
            self._formula_decl(d)
        elif isinstance(d, ast.QueryDecl):
            from ..model import Query
            self.queries.append(Query(d.text, self.formula(d.formula, EMPTY), d.span))
        else:
            raise AssertionError(d)

    def _param(self, d: ast.ParamDecl) -> None:
        name = d.name.name
        lo = hi = None
        want: Type | None = None
        if isinstance(d.type, ast.BoolSpec):
            want = BOOL
        elif isinstance(d.type, ast.RangeSpec):
            want = INT
            lo = self._int_value(d.type.lo, EMPTY, "a parameter bound")
            hi = self._int_value(d.type.hi, EMPTY, "a parameter bound")
            if lo > hi:
                raise RangeError(f"empty range {lo}..{hi} for the parameter '{name}'",
                                 d.type.span)
        elif isinstance(d.type, ast.ArraySpec):
            raise WrongType("a parameter is an int or a bool, not an array", d.type.span)
        elif d.type is not None:
            raise AssertionError(d.type)
        if name in self.overrides:
            span = self._override_span(name)
            default = self.value(d.default, EMPTY, what=f"the default of '{name}'")
            want = want or default.type
            raw = self.overrides[name]
            # a string parameter takes the override text as it is
            v = raw if want == STR and isinstance(raw, str) else \
                _override_value(name, raw, span)
            if type_of(v) != want:
                raise WrongType(f"parameter '{name}' is {_article(want)}, got "
                                 f"{_article(type_of(v))} ({_show(v)})", span)
        else:
            span = d.default.span
            t = self.value(d.default, EMPTY, what=f"the parameter '{name}'")
            if t.type not in (INT, BOOL, STR):
                raise WrongType(f"a parameter is an int, a bool or a string, not "
                                 f"{_article(t.type)}; use const for other values",
                                 d.default.span)
            if want is not None:
                self._expect(t, want, d.default.span, f"for the parameter '{name}'")
            v = t.value
        if lo is not None and not lo <= v <= hi:
            raise RangeError(f"parameter '{name}' = {v} is outside its declared range "
                             f"{lo}..{hi}", span)
        self.env.entries[name] = Entry("param", d.name.span, value=v)

    def _players_decl(self, d: ast.PlayersDecl) -> None:
        if self.env.players is not None:
            raise ModelError("the players are declared twice", d.span)
        ids: set[int] = set()
        for item in d.items:
            v = self.value(item, EMPTY, what="a player")
            if v.type == INT:
                ids.add(v.value)
            elif isinstance(v.type, SetT) and v.type.elem in (INT, None):
                ids.update(v.value)
            else:
                raise WrongType(f"players are ints (1..N, or a list), got {_article(v.type)}",
                                 item.span)
        if not ids:
            raise RangeError("the game has no players", d.span)
        self.env.players = tuple(sorted(ids))

    def _type(self, spec: ast.TypeSpec, what: str) -> ir.IntType | ir.BoolType:
        if isinstance(spec, ast.BoolSpec):
            return ir.BoolType()
        if isinstance(spec, ast.RangeSpec):
            lo = self._int_value(spec.lo, EMPTY, "a range bound")
            hi = self._int_value(spec.hi, EMPTY, "a range bound")
            if lo > hi:
                raise RangeError(f"empty range {lo}..{hi} for {what}", spec.span)
            return ir.IntType(lo, hi)
        if isinstance(spec, ast.ArraySpec):
            raise WrongType("arrays of arrays are not supported: use one array per row, "
                             "or index a flat array by i*width + j", spec.span)
        raise AssertionError(spec)

    def _var(self, d: ast.VarDecl) -> None:
        for ident in d.names:
            what = f"the variable '{ident.name}'"
            if isinstance(d.type, ast.ArraySpec):
                lo = self._int_value(d.type.lo, EMPTY, "an index bound")
                hi = self._int_value(d.type.hi, EMPTY, "an index bound")
                if lo > hi:
                    raise RangeError(f"empty index range {lo}..{hi} for the array "
                                     f"'{ident.name}'", d.type.span)
                decl = ir.VarDecl(ident.name, self._type(d.type.elem, what), ir.IntType(lo, hi),
                                  ident.span)
            else:
                decl = ir.VarDecl(ident.name, self._type(d.type, what), None, ident.span)
            self.vars.append(decl)
            self.env.entries[ident.name] = Entry("var", ident.span, decl=decl)

    def _move(self, d: ast.MoveDecl) -> ir.Move:
        ctx = EMPTY
        params = []
        for ident, dom in self._flat_binders(d.params):
            self._bind_check(ident, ctx)
            values, elem = self.domain(dom, ctx, ident.name)
            values = tuple(sorted(set(values), key=canonical_key))
            params.append(ir.Param(ident.name, values))
            ctx = ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem))
        if any(not p.domain for p in params):  # no instance: nothing to check
            return ir.Move(d.name.name, tuple(params), ir.FALSE, ir.TRUE, d.span)
        guard = ir.TRUE if d.guard is None else \
            self.state(d.guard, ctx, BOOL, "as the guard (after 'when')")
        effect = ir.conj(self.state(e, replace(ctx, primes=True), BOOL,
                                    "as the effect (after 'then')") for e in d.effects)
        return ir.Move(d.name.name, tuple(params), guard, effect, d.span)

    def _formals(self, formals, allowed: tuple[str, ...]) -> list[FormulaParam]:
        out, seen = [], set()
        for f in formals:
            n = f.name.name
            if n in seen:
                raise UnknownName(f"parameter '{n}' is listed twice", f.name.span)
            seen.add(n)
            self._bind_check(f.name, EMPTY)
            kind = None
            if f.kind is not None:
                kind = _KINDS.get(f.kind.name)
                if kind is None or kind not in allowed:
                    names = [k for k, v in _KINDS.items() if v in allowed]
                    raise WrongType(f"unknown parameter kind '{f.kind.name}': write "
                                     + (", ".join(names[:-1]) + " or " if len(names) > 1
                                        else "") + names[-1], f.kind.span)
            out.append(FormulaParam(n, kind, f.name.span))
        return out

    def _set(self, d: ast.SetDecl) -> None:
        params = self._formals(d.params, ("int",))
        ctx = EMPTY
        for p in params:
            ctx = ctx.bind(p.name, Sym(ir.Name(p.name, p.span), INT))
        if self.is_temporal(d.body, ctx):
            raise WrongType(f"the body of set '{d.name.name}' is an ATL formula; declare it "
                             f"with 'formula' instead", d.body.span)
        body = self.state(d.body, ctx, BOOL, f"as the body of set '{d.name.name}'")
        defn = atl.Definition(d.name.name, tuple((p.name, "int") for p in params),
                              atl.Prop(body, d.body.span), d.span)
        self.definitions[defn.name] = defn
        self.env.entries[defn.name] = Entry("set", d.name.span, definition=defn)

    def _formula_decl(self, d: ast.FormulaDecl) -> None:
        params = self._formals(d.params, ("int", "coalition"))
        ctx = Ctx(fparams={p.name: p for p in params})
        body = self.formula(d.body, ctx)
        kinds = tuple((p.name, p.kind or ("int" if p.used_as_int else "coalition"))
                      for p in params)
        defn = atl.Definition(d.name.name, kinds, body, d.span)
        self.definitions[defn.name] = defn
        self.env.entries[defn.name] = Entry("formula", d.name.span, definition=defn)

    # --- the result
    def _missing(self, what: str) -> ModelError:
        span = self.game_span or Span(self.filename, 1, 1, "")
        return ModelError(f"the model has no '{what}' declaration", span)

    def _game(self):
        from ..model import Model
        if self.env.players is None:
            raise self._missing("players")
        if self.turn is None:
            raise self._missing("turn")
        name = self.name or (Path(self.filename).stem if not self.filename.startswith("<")
                             else "game")
        game = ir.Game(name, ir.Space(tuple(self.vars)), self.env.players, self.turn,
                       tuple(self.moves), ir.conj(self.invariants), self.description)
        params = {n: e.value for n, e in self.env.entries.items() if e.kind == "param"}
        consts = {n: exported_value(e.value)
                  for n, e in self.env.entries.items() if e.kind == "const"}
        return Model(name=name, description=self.description, source=self.filename,
                     params=params, consts=consts, game=game,
                     definitions=dict(self.definitions), queries=tuple(self.queries),
                     text=self.text, scope=self.env)


def _declared_names(d: ast.Decl):
    """(identifier, kind) pairs a declaration introduces."""
    if isinstance(d, ast.ParamDecl):
        return [(d.name, "param")]
    if isinstance(d, ast.ConstDecl):
        return [(d.name, "const")]
    if isinstance(d, ast.VarDecl):
        return [(n, "var") for n in d.names]
    if isinstance(d, ast.SetDecl):
        return [(d.name, "set")]
    if isinstance(d, ast.FormulaDecl):
        return [(d.name, "formula")]
    if isinstance(d, ast.MoveDecl):
        return [(d.name, "move")]
    return []


def _show(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _override_value(name: str, v, span: Span):
    """A parameter override as an int or a bool (strings are read as literals)."""
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, str):
        s = v.strip()
        if s in ("true", "false"):
            return s == "true"
        if _OVERRIDE_INT.fullmatch(s):
            return int(s)
        raise WrongType(f"parameter '{name}': cannot read {v!r} as an int or a boolean", span)
    raise WrongType(f"parameter '{name}' must be an int or a bool, got "
                     f"{type(v).__name__}", span)


# --------------------------------------------------------------------------- entry points

def check_model(tree: ast.ModelAst, filename: str,
                params: Mapping[str, object] | None = None, text: str = ""):
    """The :class:`~symbolic.model.Model` of a parsed model file (``text`` is kept
    in the model for :meth:`~symbolic.model.Model.with_params`)."""
    return ModelChecker(tree, filename, params, text).run()


def check_formula(node: ast.Expr, scope: Env) -> atl.Formula:
    """A parsed formula checked against a model's names."""
    return Checker(scope).formula(node, EMPTY)


def check_state_expr(node: ast.Expr, scope: Env) -> ir.Expr:
    """A parsed boolean state expression checked against a model's names."""
    return Checker(scope).state(node, EMPTY, BOOL, "as a state expression")
