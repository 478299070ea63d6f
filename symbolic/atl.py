"""ATL formulas (ENS 2005, section 4) and their evaluation on either engine.

A formula denotes a set of positions. With ``[[·]]`` the set a formula denotes
and every universal step taken with one dead-end convention, a parameter of
the evaluation (ENS 2005 reads it :attr:`DeadEnds.VACUOUS`, the default):

- ``[[tour_J]] = {c | t(c) ∈ J}``, ``[[⊤]]`` = all positions, ``[[⊥]] = ∅``;
- ``¬ ∧ ∨ ⇒ ⇔`` are complement (within the positions), ∩, ∪, ...;
- ``[[⟨⟨J⟩⟩○F]] = pre(J, [[F]])``;
- ``[[⟨⟨J⟩⟩ F U G]] = until(J, [[F]], [[G]])`` = μX. [[G]] ∪ ([[F]] ∩ pre(J, X));
- ``[[⟨⟨J⟩⟩ F R G]] = release(J, [[F]], [[G]])`` = νZ. [[G]] ∩ ([[F]] ∪ pre(J, Z));
- ``[[reach(F)]]`` = μX. [[F]] ∪ post(X), the positions reachable from [[F]]
  (forward: the image fixpoint of the reachability-games TD);
- derived, built by constructor functions of the core nodes:
  ``⟨⟨J⟩⟩◇F = ⟨⟨J⟩⟩ ⊤ U F`` (:func:`Eventually`) and
  ``⟨⟨J⟩⟩□F = ⟨⟨J⟩⟩ ⊥ R F`` (:func:`Always`).

Under VACUOUS, ``⟨⟨J⟩⟩ F R G = ¬⟨⟨players ∖ J⟩⟩ (¬F) U (¬G)``, since
¬pre(J, ¬Y) = pre(players ∖ J, Y) with the vacuous ∀; under STRICT that
identity, hence the duality, fails at dead ends.

Coalitions are sets of player ids built from literals, ``players`` (all of
them), parameters, union and difference. Named sets and parameterised
definitions (F(J), Gagne(j)) are resolved through a table of
:class:`Definition` objects. The coalition nodes live in :mod:`symbolic.coalitions`
and are re-exported here.

>>> F = Until(AllPlayers(), Truth(True), Turn(CoalitionLit((1,))))
>>> F.coalition
AllPlayers()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping

from . import ir, nodes
from .api import DeadEnds, GameEngine, PositionSet, check_dead_ends, reachable
from .arguments import need

# the coalition nodes and their value, re-exported (a formula's coalitions are made of them)
from .coalitions import AllPlayers as AllPlayers
from .coalitions import Binding, Coalition, CoalitionLit, CoalitionRef, coalition_value
from .coalitions import CoalitionOp as CoalitionOp
from .errors import ArgumentTypeError, QueryError, Span, UnknownName, UnknownPlayer, WrongType

__all__ = [
    "Coalition",
    "CoalitionLit",
    "AllPlayers",
    "CoalitionRef",
    "CoalitionOp",
    "Formula",
    "Truth",
    "Turn",
    "Prop",
    "Ref",
    "Not",
    "BoolOp",
    "Next",
    "Until",
    "Release",
    "Reach",
    "Eventually",
    "Always",
    "describe",
    "Definition",
    "checked_against",
    "formula_classes",
    "formula_children",
    "map_formula_children",
    "Binding",
    "coalition_value",
    "Evaluator",
    "evaluate",
]


def _span():
    return field(default=None, compare=False, repr=False)


# --------------------------------------------------------------------------- formulas


class Formula:
    """Base of ATL formula nodes."""

    __slots__ = ()
    # declared, not assigned: every node class is a frozen dataclass
    __dataclass_fields__: ClassVar[dict[str, Any]]


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
    """A boolean state expression (no primed variables), e.g. ``k[1] >= k[2]``.

    ``space`` is the position space of the model it was checked against (None for
    a Prop built by hand, see :func:`checked_against`): evaluating it on an engine
    over another space is an error, not another game's answer.
    """

    expr: ir.Expr
    span: Span | None = _span()
    space: "ir.Space | None" = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Ref(Formula):
    """A use of a named set or definition, with arguments (coalitions or ints).

    ``target`` is the definition the checker resolved the name to (None for a Ref
    built by hand): evaluating the Ref with other definitions is an error.
    """

    name: str
    args: tuple = ()
    span: Span | None = _span()
    target: "Definition | None" = field(default=None, compare=False, repr=False)


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
class Release(Formula):
    """⟨⟨J⟩⟩ F R G, the dual of until: J keeps G true up to and including the
    first position where F holds, or forever; νZ. G ∩ (F ∪ pre(J, Z))."""

    coalition: Coalition
    left: Formula
    right: Formula
    span: Span | None = _span()


@dataclass(frozen=True)
class Reach(Formula):
    """reach(F): the positions reachable from [[F]] in zero or more moves,
    μX. [[F]] ∪ post(X) (forward, whoever moves; no coalition, no dead-end convention)."""

    arg: Formula
    span: Span | None = _span()


# Derived operators are constructors of core ones (as in pysmt): the
# evaluator and the engines only know Until and Release.


def Eventually(coalition: Coalition, arg: Formula, span: Span | None = None) -> Until:
    """⟨⟨J⟩⟩◇F = ⟨⟨J⟩⟩ ⊤ U F.

    >>> Eventually(AllPlayers(), Truth(False))
    Until(coalition=AllPlayers(), left=Truth(value=True), right=Truth(value=False))
    """
    return Until(coalition, Truth(True, span), arg, span)


def Always(coalition: Coalition, arg: Formula, span: Span | None = None) -> Release:
    """⟨⟨J⟩⟩□F = ⟨⟨J⟩⟩ ⊥ R F = νZ. F ∩ pre(J, Z).

    >>> Always(AllPlayers(), Truth(True)).left
    Truth(value=False)
    """
    return Release(coalition, Truth(False, span), arg, span)


#: each formula class in the words of the model language (messages never name a class)
_DESCRIPTIONS = {
    Truth: lambda f: f"the constant {'true' if f.value else 'false'}",
    Turn: lambda f: "a turn(...) test",
    Prop: lambda f: "a state expression",
    Ref: lambda f: f"the set '{f.name}'",
    Not: lambda f: "a negation 'not f'",
    BoolOp: lambda f: f"an '{f.op}' of two formulas",
    Next: lambda f: "a next-move formula <<J>> X f",
    Until: lambda f: "an until formula <<J>> f U g",
    Release: lambda f: "a release formula <<J>> f R g",
    Reach: lambda f: "a reach(f) formula",
}


def describe(f: Formula) -> str:
    """What kind of formula ``f`` is, as the model language writes it (for messages).

    >>> describe(BoolOp("and", Truth(True), Turn(AllPlayers())))
    "an 'and' of two formulas"
    """
    how = _DESCRIPTIONS.get(type(f))
    if how is None:
        raise AssertionError(f)
    return how(f)


@dataclass(frozen=True)
class Definition:
    """A named formula or set, maybe with parameters: ``F(J) = ...``.

    ``params`` are ``(name, kind)`` with kind ``"coalition"`` or ``"int"``;
    ``space``, as for :class:`Prop`, the space of the model that defines it.
    """

    name: str
    params: tuple[tuple[str, str], ...]
    body: Formula
    span: Span | None = _span()
    space: "ir.Space | None" = field(default=None, compare=False, repr=False)


def checked_against(f: Formula, space: ir.Space) -> Formula:
    """``f`` with each :class:`Prop` marked as checked against ``space`` (done by
    :func:`symbolic.model.parse_formula`).

    >>> x = ir.Space((ir.VarDecl("x", ir.IntType(0, 1)),))
    >>> checked_against(Not(Prop(ir.Var("x").eq(0))), x).arg.space is x
    True
    """
    if isinstance(f, Prop):
        return Prop(f.expr, f.span, space)
    return nodes.map_children(f, lambda c: checked_against(c, space), Formula)


def formula_classes() -> tuple[type, ...]:
    """Every concrete formula node class (the keys of a pass's dispatch table)."""
    return nodes.concrete_classes(Formula)


def formula_children(f: Formula) -> tuple[Formula, ...]:
    """The direct sub-formulas of ``f``: its fields holding a :class:`Formula`.

    >>> formula_children(Until(AllPlayers(), Truth(True), Turn(AllPlayers())))
    (Truth(value=True), Turn(coalition=AllPlayers()))
    """
    return nodes.children(f, Formula)


def map_formula_children(f: Formula, fn: Callable[[Formula], Formula]) -> Formula:
    """``f`` with ``fn`` applied to each direct sub-formula (same class, other fields
    and span kept); ``f`` itself when nothing changed.

    >>> map_formula_children(Not(Truth(True)), lambda g: Truth(not g.value))
    Not(arg=Truth(value=False))
    """
    return nodes.map_children(f, fn, Formula)


# --------------------------------------------------------------------------- evaluation


class Evaluator:
    """Evaluates formulas on one engine, memoising sub-formulas.

    ``definitions`` maps names to :class:`Definition` (named formulas, with or
    without parameters); ``sets`` maps names to ready :class:`PositionSet` objects
    of the same engine; ``dead_ends`` is the convention of every universal step
    (ENS 2005 reads ⟨⟨J⟩⟩○ with the vacuous ∀: :attr:`DeadEnds.VACUOUS`).
    """

    def __init__(
        self,
        engine: GameEngine,
        definitions: Mapping[str, Definition] | None = None,
        sets: Mapping[str, PositionSet] | None = None,
        dead_ends: DeadEnds = DeadEnds.VACUOUS,
    ):
        if not isinstance(engine, GameEngine):
            raise ArgumentTypeError(
                f"an Evaluator needs a game engine (make_engine), got {engine!r}"
            )
        if definitions is not None and not isinstance(definitions, Mapping):
            raise ArgumentTypeError(
                f"definitions must map names to Definitions (a model's "
                f".definitions), got {definitions!r}"
            )
        self.engine = engine
        self.definitions = dict(definitions or {})
        for name, d in self.definitions.items():
            need(d, Definition, f"definitions[{name!r}]")
            self._same_space(d.space, d.span)
        self.sets = dict(sets or {})
        self.dead_ends = check_dead_ends(dead_ends)
        self._memo: dict = {}
        self._active: set = set()

    def __call__(self, f: Formula, env: Mapping[str, Binding] | None = None) -> PositionSet:
        if not isinstance(f, Formula):
            hint = ": parse it first with model.formula(text)" if isinstance(f, str) else ""
            raise ArgumentTypeError(f"expected a Formula, got {f!r}{hint}")
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
        rule = _EVAL.get(type(f))
        if rule is None:
            raise AssertionError(f)
        return rule(self, f, env)

    # ---------------------------------------------------------------- rules, one per class

    def _truth(self, f: Truth, env: dict) -> PositionSet:
        return self.engine.positions() if f.value else self.engine.empty()

    def _turn(self, f: Turn, env: dict) -> PositionSet:
        J = self._J(f.coalition, env)
        if self.engine.concurrent:  # symbolic.concurrent.ConcurrentEngine
            raise QueryError(
                "turn(J) has no meaning on a concurrent game: every player "
                "chooses an action at every position",
                f.span,
            )
        return self.engine.turn_set(J)

    def _same_space(self, space: "ir.Space | None", span: Span | None) -> None:
        """QueryError when a formula or definition checked against ``space`` is
        evaluated on an engine over another space (another model's game)."""
        if space is not None and space is not self.engine.space and space != self.engine.space:
            raise QueryError(
                "this formula was checked against another model: evaluate it "
                "on an engine of that model's game (its positions are "
                f"{', '.join(s.label for s in space.slots)}; the engine's are "
                f"{', '.join(s.label for s in self.engine.space.slots)})",
                span,
            )

    def _prop(self, f: Prop, env: dict) -> PositionSet:
        self._same_space(f.space, f.span)
        return self.engine.from_expr(
            ir.substitute(f.expr, {k: v for k, v in env.items() if isinstance(v, int)})
        )

    def _not(self, f: Not, env: dict) -> PositionSet:
        return ~self.eval(f.arg, env)

    def _bool_op(self, f: BoolOp, env: dict) -> PositionSet:
        op = _CONNECTIVES.get(f.op)
        if op is None:
            raise AssertionError(f.op)
        return op(self.eval(f.left, env), self.eval(f.right, env))

    def _next(self, f: Next, env: dict) -> PositionSet:
        return self.engine.pre(
            self._J(f.coalition, env), self.eval(f.arg, env), dead_ends=self.dead_ends
        )

    def _until(self, f: Until, env: dict) -> PositionSet:
        return self.engine.until(
            self._J(f.coalition, env),
            self.eval(f.left, env),
            self.eval(f.right, env),
            dead_ends=self.dead_ends,
        ).result

    def _release(self, f: Release, env: dict) -> PositionSet:
        return self.engine.release(
            self._J(f.coalition, env),
            self.eval(f.left, env),
            self.eval(f.right, env),
            dead_ends=self.dead_ends,
        ).result

    def _reach(self, f: Reach, env: dict) -> PositionSet:
        return reachable(self.engine, self.eval(f.arg, env)).result

    @staticmethod
    def _same_definition(f: Ref, d: "Definition") -> None:
        """QueryError unless ``d`` is the definition ``f`` was checked against."""
        if f.target is not None and d is not f.target:
            raise QueryError(
                f"{f.name!r} was checked against another model's definitions: "
                f"evaluate a formula with the definitions of the model it was "
                f"parsed for",
                f.span,
            )

    def resolve(self, f: Formula, env: Mapping[str, Binding] | None = None) -> tuple[Formula, dict]:
        """``f`` with named formulas expanded at the top: ``(body, bindings)`` of the
        first node that is not a :class:`Ref` to a definition (a named set given as
        ``sets`` stays a Ref). Used to find the operator of a query (strategies)."""
        env = dict(env or {})
        seen = set()
        while isinstance(f, Ref) and f.name not in self.sets and f.name in self.definitions:
            d = self.definitions[f.name]
            self._same_definition(f, d)
            if len(f.args) != len(d.params):
                raise WrongType(
                    f"{f.name} takes {len(d.params)} argument(s), got {len(f.args)}", f.span
                )
            inner = {
                pname: self._argument(pname, kind, arg, env, f.span)
                for (pname, kind), arg in zip(d.params, f.args)
            }
            key = (f.name, tuple(sorted(inner.items())))
            if key in seen:
                raise WrongType(f"definition {f.name!r} refers to itself", f.span)
            seen.add(key)
            f, env = d.body, inner
        return f, env

    def coalition_of(self, c: Coalition, env: Mapping[str, Binding]) -> frozenset:
        """The players a coalition expression denotes under ``env``."""
        return self._J(c, dict(env))

    def _ref(self, f: Ref, env: dict) -> PositionSet:
        if f.name in env and not f.args:
            raise WrongType(f"{f.name!r} is a parameter, not a set or formula", f.span)
        if f.name in self.sets and not f.args:
            return self.sets[f.name]
        d = self.definitions.get(f.name)
        if d is None:
            known = sorted(set(self.sets) | set(self.definitions))
            raise UnknownName(
                f"unknown set or formula {f.name!r}"
                + (f" (known: {', '.join(known)})" if known else ""),
                f.span,
            )
        self._same_definition(f, d)
        if len(f.args) != len(d.params):
            raise WrongType(
                f"{f.name} takes {len(d.params)} argument(s), got {len(f.args)}", f.span
            )
        inner: dict = {}
        for (pname, kind), arg in zip(d.params, f.args):
            inner[pname] = self._argument(pname, kind, arg, env, f.span)
        key = (f.name, tuple(sorted(inner.items())))
        if key in self._active:
            raise WrongType(f"definition {f.name!r} refers to itself", f.span)
        self._active.add(key)
        try:
            return self.eval(d.body, inner)
        except UnknownPlayer as err:
            # a bad argument is the caller's mistake: report it where the call is written
            if f.span is None:
                raise
            raise UnknownPlayer(
                err.unknown, err.players, f.span, err.origin, (f.name,) + err.through
            ) from None
        finally:
            self._active.discard(key)

    def _argument(self, pname, kind, arg, env, span) -> Binding:
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
                arg = ir.const_value(
                    ir.substitute(arg, {k: v for k, v in env.items() if isinstance(v, int)})
                )
            if isinstance(arg, bool) or not isinstance(arg, int):
                raise WrongType(f"argument {pname!r} must be an integer", span)
            return arg
        raise AssertionError(kind)


_CONNECTIVES = {
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "implies": lambda a, b: ~a | b,
    "iff": lambda a, b: (a & b) | (~a & ~b),
}

# Exhaustive dispatch over the formula classes (plain functions, as in
# symbolic.bdd.encode): a class without a rule is an AssertionError.
#: formula class -> its rule (a rule takes a formula of its key's class)
_EVAL: dict[type[Formula], Callable[[Evaluator, Any, dict], PositionSet]] = {
    Truth: Evaluator._truth,
    Turn: Evaluator._turn,
    Prop: Evaluator._prop,
    Ref: Evaluator._ref,
    Not: Evaluator._not,
    BoolOp: Evaluator._bool_op,
    Next: Evaluator._next,
    Until: Evaluator._until,
    Release: Evaluator._release,
    Reach: Evaluator._reach,
}


def evaluate(
    engine: GameEngine,
    formula: Formula,
    definitions: Mapping[str, Definition] | None = None,
    sets: Mapping[str, PositionSet] | None = None,
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
) -> PositionSet:
    """The set of positions of ``engine``'s game satisfying ``formula``, every
    universal step taken with the convention ``dead_ends``."""
    return Evaluator(engine, definitions, sets, dead_ends)(formula)
