"""Moves of the explicit engine: plans that list δ(c) by solving the effect's equations.

δ(c) is the union over moves m and parameter valuations v with guard(c): every
position c' with effect(c, c') where every slot not primed in the effect (at
v) keeps its value. A :class:`Plan` computes it without enumerating the whole
next-state space: the effect's conjuncts (``and`` and ``forall`` flattened) of
the form ``x' == e`` or ``e == x'`` (``iff`` for bools, bare ``b'`` and
``not b'``) give x' directly once e's primed slots are known; only the other
primed slots are enumerated over their ranges; each candidate is then kept iff
it is a position (range and invariant, decided by the caller's ``member``) and
the *whole* effect holds. The equations are only a shortcut: when one raises
(a value error of its right side), the plan falls back to plain enumeration,
so the effect's own lazy errors are the ones reported.

>>> from symbolic.ir import Space, VarDecl, IntType, Var, Move, Game, Const
>>> sp = Space((VarDecl("x", IntType(0, 3)), VarDecl("y", IntType(0, 3))))
>>> up = Move("up", effect=Var("x", True).eq(Var("x") + 1) & (Var("y", True) > Var("x", True)))
>>> [plan] = compile_moves(Game("g", sp, (1,), Const(1), (up,)))
>>> [(slot, fn is None) for slot, fn, *_ in plan.steps]   # x' solved, y' enumerated
[(0, False), (1, True)]
>>> sorted(successors([plan], (1, 0), lambda t: t))
[(2, 3)]
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, NamedTuple

from ..errors import SymbolicError, WrongType
from ..ir import (
    Binary,
    BoolType,
    Const,
    Elem,
    Expr,
    Game,
    Item,
    Ite,
    Name,
    Quant,
    Space,
    Sum,
    Unary,
    Var,
)
from .interp import BOOL, Fn, compile_expr, type_name

__all__ = [
    "Equation",
    "Step",
    "Plan",
    "PlanTable",
    "compile_moves",
    "source_key",
    "apply",
    "successors",
    "conjuncts",
    "equations",
    "max_successors",
]

#: ``member(t)``: a key for the position t (to collect), or None for a non-position
Member = Callable[[tuple], object]


class Equation(NamedTuple):
    """A way a conjunct of an effect fixes one primed slot: ``slot' == fn(c, next)``,
    whose right side reads the primed slots ``reads``."""

    slot: int
    fn: Fn
    reads: frozenset


class Step(NamedTuple):
    """How a plan fills one primed slot: by the equation ``fn(c, next)`` (its right side
    reads only slots filled earlier), or, ``fn`` None, by enumerating ``lo..hi``;
    ``is_bool``: a bool slot (the equation's value is made 0 or 1)."""

    slot: int
    fn: Fn | None
    lo: int
    hi: int
    is_bool: bool


class Plan:
    """One move at one parameter valuation, ready to apply to positions.

    ``steps`` fill the primed slots in order (each a :class:`Step`).
    ``ranges`` are the ranges of the ``primed`` slots, for the fallback.
    """

    __slots__ = (
        "move",
        "env",
        "guard",
        "effect",
        "primed",
        "ranges",
        "steps",
        "enumerates",
        "key",
    )

    def __init__(self, move, env, guard, effect, primed, ranges, steps, key=None):
        self.move, self.env, self.guard, self.effect = move, env, guard, effect
        self.primed, self.ranges, self.steps = primed, ranges, steps
        self.enumerates = any(st.fn is None for st in steps)
        #: (slot, value) when the guard can hold only where that slot holds that value
        #: (:func:`source_key`), else None
        self.key = key


def max_successors(plan: Plan) -> int:
    """An upper bound on the successors one plan gives a position: 1 when
    equations fix every primed slot, else the product of the enumerated ranges.

    >>> p = Plan("m", {}, None, None, (0,), ((0, 1, 2),), (Step(0, None, 0, 2, False),))
    >>> max_successors(p)
    3
    """
    out = 1
    for _, fn, lo, hi, _ in plan.steps:
        if fn is None:
            out *= hi - lo + 1
    return out


class _Fallback(Exception):
    """An equation's right side raised: redo this plan by plain enumeration."""


def compile_moves(game: Game) -> list[Plan]:
    """The plans of every move of ``game`` at every parameter valuation, in
    declaration order (then the order of the valuations); guards and effects
    are type-checked at every valuation, even those that can never fire."""
    plans = []
    space = game.space
    for m in game.moves:
        names = [p.name for p in m.params]
        for values in itertools.product(*(p.domain for p in m.params)):
            env = dict(zip(names, values))
            guard = compile_expr(m.guard, space, env)
            if guard.type != BOOL:
                raise WrongType(
                    f"the guard of move {m.name!r} must be bool, got {type_name(guard.type)}",
                    getattr(m.guard, "span", m.span),
                )
            effect = compile_expr(m.effect, space, env)
            if effect.type != BOOL:
                raise WrongType(
                    f"the effect of move {m.name!r} must be bool, got {type_name(effect.type)}",
                    getattr(m.effect, "span", m.span),
                )
            if guard.folded and not guard.value or effect.folded and not effect.value:
                continue  # checked for errors above, but never yields a successor
            primed = tuple(sorted(effect.primed))
            plans.append(
                Plan(
                    m.name,
                    env,
                    None if guard.folded else guard.fn,
                    effect.fn,
                    primed,
                    tuple(space.slots[s].type.values() for s in primed),
                    _solve(space, m.effect, env, effect.primed),
                    None if guard.folded else source_key(space, m.guard, env),
                )
            )
    return plans


def source_key(space: Space, guard: Expr, env: dict) -> tuple[int, int] | None:
    """(slot, value) when the first conjunct of ``guard`` (at the parameters ``env``) is
    ``x == k`` for a state variable x and a constant k: the move can fire only at
    positions holding k in x's slot. Only the first conjunct: ``and`` evaluates left to
    right, so where it is false nothing after it is evaluated, and skipping the move
    there hides no error.

    >>> from symbolic.ir import Space, VarDecl, IntType, Var, Name
    >>> sp = Space((VarDecl("s", IntType(0, 9)),))
    >>> source_key(sp, Var("s").eq(Name("e")) & (Var("s") > 1), {"e": 4})
    (0, 4)
    >>> source_key(sp, (Var("s") > 1) & Var("s").eq(Name("e")), {"e": 4}) is None
    True
    """
    first = guard
    while isinstance(first, Binary) and first.op == "and":
        first = first.left
    if not (isinstance(first, Binary) and first.op in ("==", "iff")):
        return None
    for x, k in ((first.left, first.right), (first.right, first.left)):
        if isinstance(x, Var) and not x.primed:
            value = compile_expr(k, space, env)
            if value.folded and isinstance(value.value, (bool, int)) and not value.primed:
                return space.slot_index(x.name), int(value.value)
    return None


class PlanTable:
    """The plans of a game, grouped by their :attr:`Plan.key`, so that the successors of
    a position try only the moves that can fire there (an arena of n states has one move
    per edge, each guarded by ``s == i``: n² guards evaluated without the table).

    >>> from symbolic.ir import Space, VarDecl, IntType, Var, Move, Game, Const
    >>> sp = Space((VarDecl("x", IntType(0, 3)),))
    >>> up = Move("up", guard=Var("x").eq(Const(1)), effect=Var("x", True).eq(Const(3)))
    >>> table = PlanTable(compile_moves(Game("g", sp, (1,), Const(1), (up,))))
    >>> table.successors((1,), lambda t: t), table.successors((2,), lambda t: t)
    ({(3,)}, set())
    """

    def __init__(self, plans: list[Plan]):
        self.plans = plans
        #: the plans without a key, tried at every position
        self.anywhere = [p for p in plans if p.key is None]
        #: slot → value → the plans keyed there
        self.keyed: dict[int, dict[int, list[Plan]]] = {}
        for p in plans:
            if p.key is not None:
                slot, value = p.key
                self.keyed.setdefault(slot, {}).setdefault(value, []).append(p)

    def successors(self, c: tuple, member: Member) -> set:
        """:func:`successors` of ``c`` by these plans."""
        out: set = set()
        _fire(self.anywhere, c, member, out)
        for slot, by_value in self.keyed.items():
            _fire(by_value.get(c[slot], ()), c, member, out)
        return out


# --------------------------------------------------------------------------- solving effects


def conjuncts(e: Expr, env: dict, out: list) -> None:
    """Flatten ``and`` and ``forall`` (binding its variable) into (expr, env) pairs."""
    rule = _CONJUNCTS.get(type(e))
    if rule is None:
        raise AssertionError(e)
    rule(e, env, out)


def _leaf(e: Expr, env: dict, out: list) -> None:
    out.append((e, env))


def _conj_binary(e: Binary, env: dict, out: list) -> None:
    if e.op != "and":
        return _leaf(e, env, out)
    conjuncts(e.left, env, out)
    conjuncts(e.right, env, out)


def _conj_quant(e: Quant, env: dict, out: list) -> None:
    if e.kind != "forall":
        return _leaf(e, env, out)
    for v in e.domain:
        conjuncts(e.body, {**env, e.var: v}, out)


#: each rule takes a node of its class
_CONJUNCTS: dict[type, Callable[[Any, dict, list], None]] = {
    Const: _leaf,
    Name: _leaf,
    Var: _leaf,
    Elem: _leaf,
    Item: _leaf,
    Unary: _leaf,
    Binary: _conj_binary,
    Ite: _leaf,
    Quant: _conj_quant,
    Sum: _leaf,
}


def _target(space: Space, e: Expr, env: dict) -> int | None:
    """The slot of a primed variable or primed array element with a known in-range index."""
    if isinstance(e, (Var, Elem)) and e.primed:
        c = compile_expr(e, space, env)
        if len(c.primed) == 1:  # an out-of-range constant index primes nothing
            return next(iter(c.primed))
    return None


def equations(space: Space, e: Expr, env: dict) -> list[Equation]:
    """The ways the conjunct ``e`` fixes one primed slot (each an :class:`Equation`)."""
    rule = _EQUATIONS.get(type(e))
    if rule is None:
        raise AssertionError(e)
    return rule(space, e, env)


def _no_equation(space, e, env) -> list[Equation]:
    return []


def _eq_binary(space: Space, e: Binary, env: dict) -> list[Equation]:
    out = []
    if e.op in ("==", "iff"):
        for tgt, val in ((e.left, e.right), (e.right, e.left)):
            slot = _target(space, tgt, env)
            if slot is not None:
                v = compile_expr(val, space, env)
                out.append(Equation(slot, v.fn, v.primed))
    return out


def _eq_bare(space: Space, e: Expr, env: dict) -> list[Equation]:
    """A bare bool b' means b' == true."""
    slot = _target(space, e, env)
    return [] if slot is None else [Equation(slot, lambda s, n: True, frozenset())]


def _eq_not(space: Space, e: Unary, env: dict) -> list[Equation]:
    """``not b'`` means b' == false."""
    slot = _target(space, e.arg, env) if e.op == "not" else None
    return [] if slot is None else [Equation(slot, lambda s, n: False, frozenset())]


#: each rule takes a node of its class
_EQUATIONS: dict[type, Callable[[Space, Any, dict], list[Equation]]] = {
    Const: _no_equation,
    Name: _no_equation,
    Var: _eq_bare,
    Elem: _eq_bare,
    Item: _no_equation,
    Unary: _eq_not,
    Binary: _eq_binary,
    Ite: _no_equation,
    Quant: _no_equation,
    Sum: _no_equation,
}


def _solve(space: Space, effect: Expr, env: dict, primed: frozenset) -> tuple[Step, ...]:
    """Order the primed slots: equations whose right side is computable, else enumeration."""
    conj: list = []
    conjuncts(effect, env, conj)
    eqs = [q for e, en in conj for q in equations(space, e, en)]
    slots = space.slots
    steps: list[Step] = []
    known: set[int] = set()
    todo = set(primed)
    while todo:
        ready = next((q for q in eqs if q.slot in todo and q.reads <= known), None)
        fn: Fn | None
        if ready is not None:
            slot, fn, _ = ready
            is_bool = isinstance(slots[slot].type, BoolType)
        else:
            # Nothing computable: enumerate one slot, preferably one an equation waits for.
            waited = sorted(d for q in eqs if q.slot in todo for d in q.reads if d in todo)
            slot, fn, is_bool = (waited[0] if waited else min(todo)), None, False
        t = slots[slot].type
        steps.append(Step(slot, fn, t.lo, t.hi, is_bool))
        known.add(slot)
        todo.discard(slot)
    return tuple(steps)


# --------------------------------------------------------------------------- successors


def apply(plan: Plan, c: tuple, member: Member, out: set) -> None:
    """Add member(c') to ``out`` for every successor c' of ``c`` by ``plan``.

    ``member(t)`` is a key for a position and None for a non-position; the
    guard has already been checked.
    """
    try:
        if plan.enumerates:
            _expand(plan, c, list(c), 0, member, out)
            return
        buf = list(c)
        for slot, fn, lo, hi, is_bool in plan.steps:
            try:
                v = fn(c, buf)
            except SymbolicError:
                raise _Fallback from None
            if is_bool:
                v = 1 if v else 0
            elif v < lo or v > hi:
                return  # a conjunct forces a value out of range: no successor
            buf[slot] = v
        _emit(plan, c, buf, member, out)
    except _Fallback:
        # The plain definition: every valuation of the primed slots, then the check.
        buf = list(c)
        for vals in itertools.product(*plan.ranges):
            for s, v in zip(plan.primed, vals):
                buf[s] = v
            _emit(plan, c, buf, member, out)


def _emit(plan: Plan, c: tuple, buf: list, member: Member, out: set) -> None:
    """Add the candidate ``buf`` to ``out`` if it is a position satisfying the effect."""
    t = tuple(buf)
    key = member(t)
    if key is not None and plan.effect(c, t):
        out.add(key)


def _expand(plan: Plan, c: tuple, buf: list, k: int, member: Member, out: set) -> None:
    if k == len(plan.steps):
        _emit(plan, c, buf, member, out)
        return
    slot, fn, lo, hi, is_bool = plan.steps[k]
    if fn is None:
        for v in range(lo, hi + 1):
            buf[slot] = v
            _expand(plan, c, buf, k + 1, member, out)
        return
    try:
        v = fn(c, buf)
    except SymbolicError:
        raise _Fallback from None
    if is_bool:
        v = 1 if v else 0
    elif v < lo or v > hi:
        return
    buf[slot] = v
    _expand(plan, c, buf, k + 1, member, out)


def successors(plans: list[Plan], c: tuple, member: Member) -> set:
    """{member(c') | c' ∈ δ(c)} ∖ {None}: every plan whose guard holds at ``c``, applied
    (:class:`PlanTable` tries only those that can fire at ``c``)."""
    out: set = set()
    _fire(plans, c, member, out)
    return out


def _fire(plans, c: tuple, member: Member, out: set) -> None:
    """Apply to ``c`` each of ``plans`` whose guard holds there, into ``out``."""
    for plan in plans:
        if plan.guard is None or plan.guard(c, None):
            apply(plan, c, member, out)
