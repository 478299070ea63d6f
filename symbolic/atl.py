"""ATL formulas (ENS 2005, section 4) and their evaluation on either engine.

A formula denotes a set of positions. With ``[[·]]`` the set a formula denotes
and every universal step taken with the ENS dead-end convention
(:attr:`DeadEnds.VACUOUS`):

- ``[[tour_J]] = {c | t(c) ∈ J}``, ``[[⊤]]`` = all positions, ``[[⊥]] = ∅``;
- ``¬ ∧ ∨ ⇒ ⇔`` are complement (within the positions), ∩, ∪, ...;
- ``[[⟨⟨J⟩⟩○F]] = pre(J, [[F]])``;
- ``[[⟨⟨J⟩⟩ F U G]] = until(J, [[F]], [[G]])`` (least fixpoint);
- ``⟨⟨J⟩⟩◇F = ⟨⟨J⟩⟩ ⊤ U F``;
- ``[[⟨⟨J⟩⟩□F]] = νZ. [[F]] ∩ pre(J, Z)`` (greatest fixpoint).

Coalitions are sets of player ids built from literals, ``players`` (all of
them), parameters, union and difference. Named sets and parameterised
definitions (F(J), Gagne(j)) are resolved through a table of
:class:`Definition` objects.

>>> F = Until(AllPlayers(), Truth(True), Turn(CoalitionLit((1,))))
>>> F.coalition
AllPlayers()
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

from . import ir
from .api import DeadEnds, GameEngine, PositionSet
from .errors import UnknownName, QueryError, Span, WrongType


def _span():
    return field(default=None, compare=False, repr=False)


# --------------------------------------------------------------------------- coalitions

class Coalition:
    """Base of coalition expressions (they evaluate to a frozenset of player ids)."""
    __slots__ = ()


@dataclass(frozen=True)
class CoalitionLit(Coalition):
    """``{1, 2}`` or ``{j}``: members are player ids or names of int parameters."""
    members: tuple[Union[int, str], ...]
    span: Span | None = _span()


@dataclass(frozen=True)
class AllPlayers(Coalition):
    """``players``: every player of the game."""
    span: Span | None = _span()


@dataclass(frozen=True)
class CoalitionRef(Coalition):
    """A coalition parameter ``J`` (an int parameter ``j`` reads as ``{j}``)."""
    name: str
    span: Span | None = _span()


@dataclass(frozen=True)
class CoalitionOp(Coalition):
    """``A | B`` (op ``"|"``), ``A & B`` (``"&"``) or ``A \\ B`` (``"\\\\"``)."""
    op: str
    left: Coalition
    right: Coalition
    span: Span | None = _span()


# --------------------------------------------------------------------------- formulas

class Formula:
    """Base of ATL formula nodes."""
    __slots__ = ()


@dataclass(frozen=True)
class Truth(Formula):
    """⊤ (``true``) or ⊥ (``false``)."""
    value: bool
    span: Span | None = _span()


@dataclass(frozen=True)
class Turn(Formula):
    """tour_J: it is the turn of a player of J."""
    coalition: Coalition
    span: Span | None = _span()


@dataclass(frozen=True)
class Prop(Formula):
    """A boolean state expression (no primed variables), e.g. ``k[1] >= k[2]``."""
    expr: ir.Expr
    span: Span | None = _span()


@dataclass(frozen=True)
class Ref(Formula):
    """A use of a named set or definition, with arguments (coalitions or ints)."""
    name: str
    args: tuple = ()
    span: Span | None = _span()


@dataclass(frozen=True)
class Not(Formula):
    arg: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class BoolOp(Formula):
    """``and``, ``or``, ``implies`` or ``iff`` of two formulas."""
    op: str
    left: Formula
    right: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class Next(Formula):
    """⟨⟨J⟩⟩○F."""
    coalition: Coalition
    arg: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class Until(Formula):
    """⟨⟨J⟩⟩ F U G."""
    coalition: Coalition
    left: Formula
    right: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class Eventually(Formula):
    """⟨⟨J⟩⟩◇F = ⟨⟨J⟩⟩ ⊤ U F."""
    coalition: Coalition
    arg: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class Always(Formula):
    """⟨⟨J⟩⟩□F, the greatest fixpoint νZ. F ∩ pre(J, Z)."""
    coalition: Coalition
    arg: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class Definition:
    """A named formula or set, maybe with parameters: ``F(J) = ...``.

    ``params`` are ``(name, kind)`` with kind ``"coalition"`` or ``"int"``.
    """
    name: str
    params: tuple[tuple[str, str], ...]
    body: Formula
    span: Span | None = _span()


def formula_children(f: Formula) -> tuple[Formula, ...]:
    """Direct sub-formulas (exhaustive over node kinds)."""
    if isinstance(f, (Truth, Turn, Prop, Ref)):
        return ()
    if isinstance(f, (Not, Next, Eventually, Always)):
        return (f.arg,)
    if isinstance(f, (BoolOp, Until)):
        return (f.left, f.right)
    raise AssertionError(f)


# --------------------------------------------------------------------------- evaluation

Binding = Union[int, frozenset]


def coalition_value(c: Coalition, players: tuple[int, ...], env: Mapping[str, Binding]) -> frozenset:
    """The set of player ids a coalition expression denotes.

    >>> sorted(coalition_value(CoalitionOp("\\\\", AllPlayers(), CoalitionLit((2,))), (1, 2, 3), {}))
    [1, 3]
    """
    if isinstance(c, CoalitionLit):
        out = set()
        for m in c.members:
            if isinstance(m, str):
                v = _lookup(env, m, c.span)
                if not isinstance(v, int):
                    raise WrongType(f"{m!r} is a coalition, not a player id", c.span)
                out.add(v)
            else:
                out.add(m)
        unknown = sorted(out - set(players))
        if unknown:
            raise QueryError(f"unknown player(s) {unknown}: the players are {list(players)}",
                             c.span)
        return frozenset(out)
    if isinstance(c, AllPlayers):
        return frozenset(players)
    if isinstance(c, CoalitionRef):
        v = _lookup(env, c.name, c.span)
        return frozenset([v]) if isinstance(v, int) else v
    if isinstance(c, CoalitionOp):
        a = coalition_value(c.left, players, env)
        b = coalition_value(c.right, players, env)
        if c.op == "|":
            return a | b
        if c.op == "&":
            return a & b
        if c.op == "\\":
            return a - b
        raise AssertionError(c.op)
    raise AssertionError(c)


def _lookup(env, name, span):
    try:
        return env[name]
    except KeyError:
        raise UnknownName(f"unknown coalition or player parameter {name!r}", span) from None


class Evaluator:
    """Evaluates formulas on one engine, memoising sub-formulas.

    ``definitions`` maps names to :class:`Definition` (named formulas, with or
    without parameters); ``sets`` maps names to ready :class:`PositionSet` objects
    of the same engine.
    """

    def __init__(self, engine: GameEngine, definitions: Mapping[str, Definition] | None = None,
                 sets: Mapping[str, PositionSet] | None = None):
        self.engine = engine
        self.definitions = dict(definitions or {})
        self.sets = dict(sets or {})
        self._memo: dict = {}
        self._active: set = set()

    def __call__(self, f: Formula, env: Mapping[str, Binding] | None = None) -> PositionSet:
        return self.eval(f, dict(env or {}))

    def eval(self, f: Formula, env: dict) -> PositionSet:
        key = (f, tuple(sorted(env.items())))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._eval(f, env)
            self._memo[key] = hit
        return hit

    def _J(self, c: Coalition, env) -> frozenset:
        return coalition_value(c, self.engine.game.players, env)

    def _eval(self, f: Formula, env: dict) -> PositionSet:
        E = self.engine
        V = DeadEnds.VACUOUS  # ATL follows the ENS text literally
        if isinstance(f, Truth):
            return E.positions() if f.value else E.empty()
        if isinstance(f, Turn):
            return E.turn_set(self._J(f.coalition, env))
        if isinstance(f, Prop):
            return E.from_expr(ir.substitute(f.expr, {k: v for k, v in env.items()
                                                      if isinstance(v, int)}))
        if isinstance(f, Ref):
            return self._ref(f, env)
        if isinstance(f, Not):
            return ~self.eval(f.arg, env)
        if isinstance(f, BoolOp):
            a, b = self.eval(f.left, env), self.eval(f.right, env)
            if f.op == "and":
                return a & b
            if f.op == "or":
                return a | b
            if f.op == "implies":
                return ~a | b
            if f.op == "iff":
                return (a & b) | (~a & ~b)
            raise AssertionError(f.op)
        if isinstance(f, Next):
            return E.pre(self._J(f.coalition, env), self.eval(f.arg, env), dead_ends=V)
        if isinstance(f, Until):
            return E.until(self._J(f.coalition, env), self.eval(f.left, env),
                           self.eval(f.right, env), dead_ends=V).result
        if isinstance(f, Eventually):
            return E.until(self._J(f.coalition, env), E.positions(),
                           self.eval(f.arg, env), dead_ends=V).result
        if isinstance(f, Always):
            return E.always(self._J(f.coalition, env), self.eval(f.arg, env),
                            dead_ends=V).result
        raise AssertionError(f)

    def _ref(self, f: Ref, env: dict) -> PositionSet:
        if f.name in env and not f.args:
            raise WrongType(f"{f.name!r} is a parameter, not a set or formula", f.span)
        if f.name in self.sets and not f.args:
            return self.sets[f.name]
        d = self.definitions.get(f.name)
        if d is None:
            known = sorted(set(self.sets) | set(self.definitions))
            raise UnknownName(f"unknown set or formula {f.name!r}"
                             + (f" (known: {', '.join(known)})" if known else ""), f.span)
        if len(f.args) != len(d.params):
            raise WrongType(f"{f.name} takes {len(d.params)} argument(s), got {len(f.args)}",
                             f.span)
        inner: dict = {}
        for (pname, kind), arg in zip(d.params, f.args):
            inner[pname] = self._argument(pname, kind, arg, env, f.span)
        key = (f.name, tuple(sorted(inner.items())))
        if key in self._active:
            raise WrongType(f"definition {f.name!r} refers to itself", f.span)
        self._active.add(key)
        try:
            return self.eval(d.body, inner)
        finally:
            self._active.discard(key)

    def _argument(self, pname, kind, arg, env, span) -> Binding:
        players = self.engine.game.players
        if kind == "coalition":
            if isinstance(arg, int):
                arg = CoalitionLit((arg,))
            if not isinstance(arg, Coalition):
                raise WrongType(f"argument {pname!r} must be a coalition", span)
            return self._J(arg, env)
        if kind == "int":
            if isinstance(arg, CoalitionRef) and isinstance(env.get(arg.name), int):
                return env[arg.name]
            if isinstance(arg, ir.Expr):
                arg = ir.const_value(ir.substitute(arg, {k: v for k, v in env.items()
                                                         if isinstance(v, int)}))
            if isinstance(arg, bool) or not isinstance(arg, int):
                raise WrongType(f"argument {pname!r} must be an integer", span)
            return arg
        raise AssertionError(kind)


def evaluate(engine: GameEngine, formula: Formula,
             definitions: Mapping[str, Definition] | None = None,
             sets: Mapping[str, PositionSet] | None = None) -> PositionSet:
    """The set of positions of ``engine``'s game satisfying ``formula``."""
    return Evaluator(engine, definitions, sets)(formula)
