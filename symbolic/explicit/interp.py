"""Direct evaluation of IR expressions on position tuples (the explicit engine's interpreter).

An expression is turned once into a tree of Python closures, one per node, and
the closures are then called on position tuples: ``fn(state, next_state)``.
This is still a direct interpretation of the IR (no text, no ``eval``/``exec``,
nothing shared with the BDD encoding); the closures only save re-dispatching on
node kinds at every position. Quantifiers and sums are unrolled over their
finite domains while compiling, so every bound ``Name`` is a constant by the
time a position is seen, exactly as symbolic.ir prescribes ("expanded, not encoded as
state").

Semantics (module docstring of :mod:`symbolic.ir`):

- values are ``int``, ``bool`` and ``tuple``; a bool slot reads as a bool
  (positions store 0/1); arithmetic is exact, ``//`` and ``%`` floor like Python;
- types are checked once, at compile time, on every node that is compiled
  (:class:`~symbolic.errors.WrongType` carrying the node's span), so a type
  error is reported even when the offending branch would never be evaluated;
- *value* errors are reported when evaluation reaches them, with the node's
  span: an array index outside the declared range or a tuple index outside
  ``0..len-1`` (:class:`~symbolic.errors.RangeError`), a divisor that is not
  positive (:class:`~symbolic.errors.ModelError`). ``and``, ``or``,
  ``implies``, ``if``, ``forall`` and ``exists`` evaluate left to right and stop
  as soon as the result is known, so ``i >= 1 and a[i] == 0`` is false, not an
  error, where ``i == 0`` and ``a`` is indexed from 1;
- *structural* errors (unknown variables, unbound names, primed variables
  outside a move's effect, a divisor or the index of a primed element that
  reads the state, ...) are found before, once, by :mod:`symbolic.validate`:
  the compiler expects validated IR (the engine validates every game and
  expression it is given, and :func:`evaluate` validates too). Only a tuple
  being indexed that is not a constant remains a ModelError at compile time.

>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> sp = Space((VarDecl("x", IntType(-5, 5)), VarDecl("y", IntType(0, 3))))
>>> evaluate(Var("x") // 2 + Var("y") % 3, (-5, 3), space=sp)
-3
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple

from ..errors import ModelError, RangeError, SymbolicError, WrongType
from ..ir import (
    ARITH_OPS,
    BOOL_OPS,
    COMPARE_OPS,
    Binary,
    BoolType,
    Const,
    Elem,
    Expr,
    Item,
    Ite,
    Name,
    Quant,
    Space,
    Sum,
    Unary,
    Value,
    Var,
    op_text,
)
from ..validate import check_expr
from .closures import (
    _const_fn,
    _raiser,
    _floordiv,
    _mod,
    _BIN_FF,
    _BIN_FC,
    _BIN_CF,
    _READ_FC,
    _FLIP,
    _all_fn,
    _any_fn,
    _sum_fn,
    _read,
)

__all__ = ["INT", "BOOL", "Compiled", "compile_expr", "evaluate", "value_type", "type_name"]

INT = "int"
BOOL = "bool"
# A type is INT, BOOL, or a Python tuple of types (the structure of a tuple value).

Fn = Callable[[tuple, object], Value]

_UNKNOWN = object()  # "no compile-time value" (None, 0 and False are values)


def value_type(v, span=None):
    """The type of a constant value: ``"int"``, ``"bool"`` or a tuple of element types.

    >>> value_type((1, True, (2, 3)))
    ('int', 'bool', ('int', 'int'))
    """
    t = type(v)
    if t is bool:
        return BOOL
    if t is int:
        return INT
    if t is tuple:
        return tuple(value_type(x, span) for x in v)
    raise WrongType(
        f"unsupported constant {v!r} ({t.__name__}): values are int, bool or tuple", span
    )


def type_name(t) -> str:
    """A readable name of a type, for error messages.

    >>> type_name(("int", ("bool",)))
    'tuple(int, tuple(bool))'
    """
    if isinstance(t, tuple):
        return f"tuple({', '.join(map(type_name, t))})"
    return t


class Compiled(NamedTuple):
    """A compiled expression.

    ``fn(state, next_state)`` evaluates it (``next_state`` may be None when the
    expression has no primed variable); ``type`` is its static type;
    ``primed`` the slots (indices into the position tuple) it reads primed;
    ``folded`` says the value is a compile-time constant, then held in ``value``;
    ``reads`` the slots it may read unprimed (an element at a computed index: the
    whole array); ``total`` says no evaluation of it can raise (no computed index,
    no division by a state-dependent or non-positive divisor).
    """

    fn: Fn
    type: object
    primed: frozenset
    folded: bool
    value: Value | None
    reads: frozenset = frozenset()
    total: bool = True


def compile_expr(expr: Expr, space: Space, env: Mapping[str, Value] | None = None) -> Compiled:
    """Compile ``expr``, validated by :func:`symbolic.validate.check_expr`, over
    ``space`` with the bound names ``env``. Raises WrongType for ill-typed
    expressions (see the module docstring).

    >>> from symbolic.ir import Space, VarDecl, IntType, Var
    >>> sp = Space((VarDecl("x", IntType(0, 9)),))
    >>> c = compile_expr(Var("x", primed=True).eq(Var("x") + 1), sp)
    >>> c.type, sorted(c.primed), c.fn((3,), (4,)), c.fn((3,), (5,))
    ('bool', [0], True, False)
    """
    comp = _Compiler(space)
    node = comp.compile(expr, dict(env or {}))
    return Compiled(
        node.fn,
        node.type,
        frozenset(comp.primed),
        node.value is not _UNKNOWN,
        None if node.value is _UNKNOWN else node.value,
        frozenset(comp.reads),
        comp.total,
    )


def evaluate(
    expr: Expr, state, next_state=None, env: Mapping[str, Value] | None = None, *, space: Space
) -> Value:
    """The value of ``expr`` at position ``state`` (and ``next_state`` for primed variables).

    Positions are tuples (or dicts by slot label) of ``space``; ``env`` binds
    names (quantifier variables, move parameters). Convenience entry point: it
    compiles on every call, the engine compiles once and calls ``fn``.

    >>> from symbolic.ir import Space, VarDecl, IntType, Var, Elem, Name, Sum, Const
    >>> sp = Space((VarDecl("a", IntType(0, 9), IntType(1, 3)),))
    >>> evaluate(Sum("i", (1, 2, 3), Elem("a", Name("i"))), (4, 5, 6), space=sp)
    15
    >>> evaluate(Elem("a", Name("k")), {"a[1]": 7, "a[2]": 0, "a[3]": 0}, env={"k": 1}, space=sp)
    7
    """
    s = space.check_position(state)
    n = None if next_state is None else space.check_position(next_state)
    check_expr(expr, space, env or {}, primed=next_state is not None)
    return compile_expr(expr, space, env).fn(s, n)


# --------------------------------------------------------------------------- node closures


class _Node:
    """A compiled node: closure, static type, whether it reads no state, folded value."""

    __slots__ = ("fn", "type", "static", "value", "read")

    def __init__(self, fn, typ, static, value=_UNKNOWN, read: tuple[int, bool] | None = None):
        self.fn, self.type, self.static, self.value = fn, typ, static, value
        self.read = read  # (slot, primed) when the node reads an int slot, and only that


def _connective(parts: list, neutral: bool) -> list:
    """The operands of ``and`` (``neutral`` True) or ``or`` that can matter, in order: a
    constant neutral one neither changes the result nor raises, and none after a constant
    absorbing one is ever evaluated."""
    kept = []
    for p in parts:
        if p.value is _UNKNOWN:
            kept.append(p)
        elif bool(p.value) != neutral:
            kept.append(p)
            break
    return kept


class _Compiler:
    """One compilation: the space, the slots met (primed, unprimed), whether every
    node met is total (cannot raise)."""

    def __init__(self, space: Space):
        self.space = space
        self.primed: set[int] = set()
        self.reads: set[int] = set()
        self.total = True

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _want(node, typ, e, what, parent=None):
        # The caret goes under the offending operand when it has a span, else
        # under the operator node.
        if node.type != typ:
            span = e.span if e.span is not None or parent is None else parent.span
            raise WrongType(f"{what} must be {typ}, got {type_name(node.type)}", span)

    # ---------------------------------------------------------------- dispatch

    def compile(self, e: Expr, env: dict) -> _Node:
        node = self._compile(e, env)
        if node.static and node.value is _UNKNOWN:
            # Fold state-free subtrees once (names are constants by now); a value
            # error found here stays lazy: it is raised only if evaluation gets there.
            try:
                v = node.fn(None, None)
            except SymbolicError:
                return node
            node = _Node(_const_fn(v), node.type, True, v)
        return node

    def _compile(self, e: Expr, env: dict) -> _Node:
        rule = _COMPILE.get(type(e))
        if rule is None:
            raise AssertionError(e)
        return rule(self, e, env)

    # ---------------------------------------------------------------- leaves

    def _const(self, e: Const, env) -> _Node:
        return _Node(_const_fn(e.value), value_type(e.value, e.span), True, e.value)

    def _name(self, e: Name, env) -> _Node:
        try:
            v = env[e.name]
        except KeyError:
            raise AssertionError(e) from None  # validation binds every name
        return _Node(_const_fn(v), value_type(v, e.span), True, v)

    # ---------------------------------------------------------------- state reads

    def _var(self, e: Var, env) -> _Node:
        d = self.space.decl(e.name)
        slot = self.space.slot_index(e.name)
        (self.primed if e.primed else self.reads).add(slot)
        is_bool = isinstance(d.type, BoolType)
        read = None if is_bool else (slot, e.primed)
        return _Node(_read(slot, is_bool, e.primed), BOOL if is_bool else INT, False, read=read)

    def _elem(self, e: Elem, env) -> _Node:
        d = self.space.decl(e.array)
        idx = self.compile(e.index, env)
        self._want(idx, INT, e.index, f"the index of {e.array}[..]", e)
        is_bool = isinstance(d.type, BoolType)
        typ = BOOL if is_bool else INT
        if d.index is None:  # validated: an element of an array
            raise AssertionError(e.array)
        lo, hi = d.index.lo, d.index.hi
        base = self.space.slot_index(e.array, lo)  # an array's slots are consecutive
        where = f"{e.array}{chr(39) if e.primed else ''}[{lo}..{hi}]"
        # A primed element's index reads no state (validated): it has a value, or
        # its evaluation raises wherever it is reached, as the generic read below does.
        if idx.value is not _UNKNOWN:
            i = idx.value
            if not lo <= i <= hi:
                self.total = False
                return _Node(_raiser(RangeError, f"index {i} outside {where}", e.span), typ, False)
            slot = base + (i - lo)
            (self.primed if e.primed else self.reads).add(slot)
            read = None if is_bool else (slot, e.primed)
            return _Node(_read(slot, is_bool, e.primed), typ, False, read=read)
        ifn, span, primed = idx.fn, e.span, e.primed
        self.total = False
        if not primed:
            self.reads.update(range(base, base + hi - lo + 1))

        def fn(s, n):
            i = ifn(s, n)
            if lo <= i <= hi:
                v = (n if primed else s)[base + i - lo]
                return v != 0 if is_bool else v
            raise RangeError(f"index {i} outside {where}", span)

        return _Node(fn, typ, False)

    def _item(self, e: Item, env) -> _Node:
        b = self.compile(e.base, env)
        k = self.compile(e.index, env)
        if not isinstance(b.type, tuple):
            raise WrongType(f"only tuples can be indexed, got {type_name(b.type)}", e.span)
        self._want(k, INT, e.index, "a tuple index", e)
        if not b.static:
            raise ModelError("only a constant tuple can be indexed", e.base.span or e.span)
        elems = b.type
        if k.value is not _UNKNOWN and 0 <= k.value < len(elems):
            typ = elems[k.value]
        elif elems and all(t == elems[0] for t in elems):
            typ = elems[0]
        elif not elems:
            raise RangeError("index into an empty tuple", e.span)
        else:
            raise WrongType(f"a computed index into {type_name(b.type)} has no single type", e.span)
        bf, kf, span = b.fn, k.fn, e.span
        self.total = self.total and k.value is not _UNKNOWN and 0 <= k.value < len(elems)

        def fn(s, n):
            t = bf(s, n)
            i = kf(s, n)
            if 0 <= i < len(t):
                return t[i]
            raise RangeError(f"tuple index {i} outside 0..{len(t) - 1}", span)

        return _Node(fn, typ, k.static)

    # ---------------------------------------------------------------- operators

    def _unary(self, e: Unary, env) -> _Node:
        a = self.compile(e.arg, env)
        af = a.fn
        if e.op == "-":
            self._want(a, INT, e.arg, "the operand of unary '-'", e)
            return _Node(lambda s, n: -af(s, n), INT, a.static)
        if e.op == "not":
            self._want(a, BOOL, e.arg, "the operand of 'not'", e)
            return _Node(lambda s, n: not af(s, n), BOOL, a.static)
        raise AssertionError(e.op)  # validation knows the operators

    def _chain(self, e: Binary, env) -> list[_Node]:
        """The operands of a chain ``a op b op c ...`` of one associative connective."""
        out: list[_Node] = []
        stack: list[Expr] = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, Binary) and x.op == e.op:
                stack.append(x.right)
                stack.append(x.left)
            else:
                node = self.compile(x, env)
                self._want(node, BOOL, x, f"an operand of {op_text(e.op)}", e)
                out.append(node)
        return out

    def _binary(self, e: Binary, env) -> _Node:
        op = e.op
        if op in ("and", "or"):
            parts = _connective(self._chain(e, env), op == "and")
            if not parts:
                return _Node(_const_fn(op == "and"), BOOL, True, op == "and")
            if len(parts) == 1:
                return parts[0]
            static = all(p.static for p in parts)
            if len(parts) == 2:
                return _Node(_BIN_FF[op](parts[0].fn, parts[1].fn), BOOL, static)
            fs = tuple(p.fn for p in parts)
            return _Node(_all_fn(fs) if op == "and" else _any_fn(fs), BOOL, static)
        a = self.compile(e.left, env)
        b = self.compile(e.right, env)
        static = a.static and b.static
        if op in ARITH_OPS:
            self._want(a, INT, e.left, f"the left operand of {op_text(op)}", e)
            self._want(b, INT, e.right, f"the right operand of {op_text(op)}", e)
            if op in ("//", "%"):
                return self._division(e, a, b)
            typ = INT
        elif op in COMPARE_OPS:
            if op in ("==", "!="):
                if not (
                    a.type == b.type in (INT, BOOL)
                    or isinstance(a.type, tuple)
                    and isinstance(b.type, tuple)
                ):
                    raise WrongType(
                        f"{op_text(op)} compares two ints, two bools or two tuples, got "
                        f"{type_name(a.type)} and {type_name(b.type)}",
                        e.span,
                    )
            else:
                self._want(a, INT, e.left, f"the left operand of {op_text(op)}", e)
                self._want(b, INT, e.right, f"the right operand of {op_text(op)}", e)
            typ = BOOL
        elif op in BOOL_OPS:
            self._want(a, BOOL, e.left, f"the left operand of {op_text(op)}", e)
            self._want(b, BOOL, e.right, f"the right operand of {op_text(op)}", e)
            typ = BOOL
        else:
            raise AssertionError(op)  # validation knows the operators
        if op in _READ_FC and b.value is not _UNKNOWN and a.read is not None:
            return _Node(_READ_FC[op](*a.read, b.value), typ, static)
        if op in _READ_FC and a.value is not _UNKNOWN and b.read is not None:
            return _Node(_READ_FC[_FLIP[op]](*b.read, a.value), typ, static)
        if b.value is not _UNKNOWN and op in _BIN_FC:
            return _Node(_BIN_FC[op](a.fn, b.value), typ, static)
        if a.value is not _UNKNOWN and op in _BIN_CF:
            return _Node(_BIN_CF[op](a.value, b.fn), typ, static)
        return _Node(_BIN_FF[op](a.fn, b.fn), typ, static)

    def _division(self, e: Binary, a: _Node, b: _Node) -> _Node:
        if b.value is _UNKNOWN:
            # The divisor reads no state (validated), so its own evaluation fails
            # (e.g. an index error, a division by 0): raise that, lazily.
            bf, af, op = b.fn, a.fn, (_floordiv if e.op == "//" else _mod)
            self.total = False
            return _Node(lambda s, n: op(af(s, n), bf(s, n)), INT, a.static)
        if b.value <= 0:
            self.total = False
            return _Node(
                _raiser(
                    ModelError,
                    f"the right operand of {op_text(e.op)} must be a positive "
                    f"constant, got {b.value}",
                    e.right.span or e.span,
                ),
                INT,
                False,
            )
        return _Node(_BIN_FC[e.op](a.fn, b.value), INT, a.static)

    def _ite(self, e: Ite, env) -> _Node:
        c = self.compile(e.cond, env)
        self._want(c, BOOL, e.cond, "the condition of 'if'", e)
        a = self.compile(e.then, env)
        b = self.compile(e.other, env)
        if a.type != b.type:
            raise WrongType(
                f"the branches of 'if' have different types: "
                f"{type_name(a.type)} and {type_name(b.type)}",
                e.span,
            )
        if c.value is not _UNKNOWN:  # both branches type-checked; only one is ever evaluated
            return a if c.value else b
        cf, af, bf = c.fn, a.fn, b.fn
        return _Node(
            lambda s, n: af(s, n) if cf(s, n) else bf(s, n),
            a.type,
            c.static and a.static and b.static,
        )

    def _bodies(self, e, env) -> list[_Node]:
        out = []
        for v in e.domain:
            value_type(v, e.span)
            inner = dict(env)
            inner[e.var] = v  # the binder shadows an outer name of the same spelling
            out.append(self.compile(e.body, inner))
        return out

    def _quant(self, e: Quant, env) -> _Node:
        bodies = self._bodies(e, env)
        for b in bodies:
            self._want(b, BOOL, e.body, f"the body of {e.kind}", e)
        neutral = e.kind == "forall"
        kept = _connective(bodies, neutral)
        if len(kept) == 1:
            return kept[0]
        fs = tuple(b.fn for b in kept)
        static = all(b.static for b in kept)
        return _Node(_all_fn(fs) if neutral else _any_fn(fs), BOOL, static)

    def _sum(self, e: Sum, env) -> _Node:
        bodies = self._bodies(e, env)
        for b in bodies:
            if b.type not in (INT, BOOL):
                raise WrongType(
                    f"the body of sum must be int or bool, got {type_name(b.type)}",
                    e.body.span or e.span,
                )
        return _Node(_sum_fn(tuple(b.fn for b in bodies)), INT, all(b.static for b in bodies))


# Exhaustive dispatch over the expression node classes (tests/test_dispatch.py
# checks that every class of symbolic.ir has a rule): each rule takes a node of its class.
_COMPILE: dict[type, Callable[[_Compiler, Any, dict], _Node]] = {
    Const: _Compiler._const,
    Name: _Compiler._name,
    Var: _Compiler._var,
    Elem: _Compiler._elem,
    Item: _Compiler._item,
    Unary: _Compiler._unary,
    Binary: _Compiler._binary,
    Ite: _Compiler._ite,
    Quant: _Compiler._quant,
    Sum: _Compiler._sum,
}
