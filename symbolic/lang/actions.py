"""Concurrent games in the model language: ``concurrent``, ``action``, ``update``, ``does``.

A model that declares ``concurrent`` (instead of ``turn``) has no ``move``; each
``action PLAYERS NAME(p in D, ...) when GUARD`` gives every player of PLAYERS (a
player id or a set of ids, e.g. ``players``) one action instance per parameter
valuation, labelled ``NAME(v, ...)`` (``NAME`` alone without parameters), enabled
where GUARD holds. ``update [when COND] then E1; E2`` constrain the next position
where COND holds; COND and the effects may test the joint action with
``does(p, NAME(v, ...))`` (``does(p, NAME)`` without parameters). They are checked
once every action is known, and give a :class:`symbolic.ir.ConcurrentGame`.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from math import prod

from .. import ir
from ..errors import ModelError, RangeError, Span, UnknownName, WrongType
from . import ast
from .binders import flat_binders
from .builtins import canonical_key
from .core import CheckerCore
from .scope import EMPTY, Ctx
from .types import BOOL, INT, Sym, known

__all__ = ["ActionDecls", "action_label"]


def action_label(name: str, values: tuple) -> str:
    """``play(0)``, ``bid(2, true)``; ``rest`` without parameters."""
    if not values:
        return name
    shown = ["true" if v is True else "false" if v is False else str(v) for v in values]
    return f"{name}({', '.join(shown)})"


class ActionDecls(CheckerCore):
    """The concurrent declarations (a base of :class:`~.decls.ModelChecker`)."""

    concurrent_span: Span | None = None
    #: the game of the actions, once every declaration is read (``does`` needs it)
    joint: ir.ConcurrentGame | None = None
    # the model checker's, read here
    turn: ir.Expr | None
    moves: list[ir.Move]
    description: str

    def _concurrent_decl(self, d: ast.ConcurrentDecl) -> None:
        if self.concurrent_span is not None:
            raise ModelError("'concurrent' is declared twice", d.span)
        self.concurrent_span = d.span
        self.actions: list[ir.Action] = []
        self.update_decls: list[ast.UpdateDecl] = []
        self.instances: dict[tuple[int, str], list[tuple[tuple, str]]] = {}
        self.params: dict[tuple[int, str], list[tuple[str, tuple]]] = {}

    def _require_concurrent(self, d: ast.Decl, what: str) -> None:
        if self.concurrent_span is None:
            raise ModelError(
                f"{what} belongs to a concurrent game: declare 'concurrent' before it", d.span
            )

    def _action_decl(self, d: ast.ActionDecl) -> None:
        self._require_concurrent(d, "an action")
        who = self.value(d.players, EMPTY, what="the players of an action").value
        who = (who,) if isinstance(who, int) and not isinstance(who, bool) else who
        if not isinstance(who, (tuple, frozenset)) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in who
        ):
            raise WrongType(
                "the players of an action are a player id or a set of them", d.players.span
            )
        players = self.scope.require_players(d.players.span)
        if not who:
            raise RangeError(
                "an action of no player: expected a player id or a non-empty "
                f"set of them (players: {', '.join(map(str, players))})",
                d.players.span,
            )
        for p in sorted(who):
            if p not in players:
                raise RangeError(
                    f"{p} is not a player (players: {', '.join(map(str, players))})",
                    d.players.span,
                )
        ctx, names, domains = EMPTY, [], []
        for ident, dom in flat_binders(d.params):
            ctx.check_unbound(ident)
            values, elem = self.domain(dom, ctx, ident.name)
            names.append(ident.name)
            domains.append(tuple(sorted(set(values), key=canonical_key)))
            ctx = ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem))
        guard = (
            ir.TRUE
            if d.guard is None
            else self.state(d.guard, ctx, BOOL, "as the guard of an action (after 'when')")
        )
        for values in itertools.product(*domains):
            g = ir.substitute(guard, dict(zip(names, values)))
            label = action_label(d.name.name, values)
            for p in sorted(who):
                self.actions.append(ir.Action(p, label, g, d.span))
                self.instances.setdefault((p, d.name.name), []).append((values, label))
        for p in who:
            self.params.setdefault((p, d.name.name), list(zip(names, domains)))

    def _update_decl(self, d: ast.UpdateDecl) -> None:
        self._require_concurrent(d, "an update")
        self.update_decls.append(d)

    def concurrent_game(self, name: str, space: ir.Space, invariant: ir.Expr) -> ir.ConcurrentGame:
        """The game once every declaration is read: the updates checked now."""
        if self.turn is not None:
            raise ModelError(
                "a concurrent game has no 'turn' (every player moves at once)", self.concurrent_span
            )
        if self.moves:
            raise ModelError("a concurrent game has actions, not moves", self.moves[0].span)
        players = self.scope.players
        assert players is not None  # the model checker asks for them first
        for p in players:
            if not any(a.player == p for a in self.actions):
                raise ModelError(
                    f"player {p} has no action: declare one with 'action {p} NAME'",
                    self.concurrent_span,
                )
        shell = ir.ConcurrentGame(
            name, space, players, tuple(self.actions), (), invariant, self.description
        )
        self.joint = shell
        updates = []
        for d in self.update_decls:
            when = (
                ir.TRUE
                if d.guard is None
                else self.state(
                    d.guard, EMPTY, BOOL, "as the condition of an update (after 'when')"
                )
            )
            then = ir.conj(
                self.state(
                    e,
                    replace(EMPTY, primes=True),
                    BOOL,
                    "as the effect of an update (after 'then')",
                )
                for e in d.effects
            )
            updates.append(ir.Update(then, when, d.span))
        return ir.ConcurrentGame(
            name,
            space,
            players,
            shell.actions,
            tuple(updates),
            invariant,
            self.description,
        )

    def _does(self, node: ast.Call, ctx: Ctx):
        """``does(p, a(v, ...))``: the atom "player p plays that action"; ``p`` and the
        arguments may read names bound by quantifiers (each instance they reach is checked
        now: one outside the action's domain is an error, as ``does(1, a(5))`` is)."""
        if self.joint is None:
            raise WrongType(
                "does(p, action) may appear only in the updates of a concurrent game", node.span
            )
        if len(node.args) != 2:
            raise WrongType("does takes a player and an action: does(p, name(v, ...))", node.span)
        who, act = node.args
        if not isinstance(act, (ast.Name, ast.Call)):
            raise WrongType("the second argument of does is an action: name(v, ...)", act.span)
        self._check_instances(node, ctx)
        if self.is_constant(who, ctx):
            p = self.value(who, ctx, what="the player of does").value
            return Sym(self._does_of(p, act, node, ctx), BOOL)
        # a player read from bound names: one disjunct per player having that action
        pe = self.state(who, ctx, None, "as the player of does")
        return Sym(
            ir.disj(
                pe.eq(ir.Const(q)) & self._does_of(q, act, node, ctx)
                for q in self.scope.require_players(node.span)
                if (q, act.name) in self.instances
            ),
            BOOL,
        )

    def _does_of(self, p, act: ast.Expr, node: ast.Call, ctx: Ctx) -> ir.Expr:
        """``does(p, act)`` for a known player ``p``."""
        game = self.joint
        assert game is not None  # _does checked it
        if isinstance(act, ast.Name):
            return game.does(p, act.name, node.span)
        assert isinstance(act, ast.Call)
        if all(self.is_constant(a, ctx) for a in act.args):
            values = tuple(self.value(a, ctx, what="an action argument").value for a in act.args)
            return game.does(p, action_label(act.name, values), node.span)
        # arguments that read bound names: one disjunct per instance of the action
        found = [
            (vals, label)
            for vals, label in self.instances.get((p, act.name), ())
            if len(vals) == len(act.args)
        ]
        if not found:
            game.does(p, act.name, node.span)  # the error: no such action
        # each argument has the type of its parameter's values (found by the fuzzer: a bool
        # given for an int parameter reached the engines unlocated)
        wants = [
            BOOL if isinstance(v, bool) else INT if isinstance(v, int) else None
            for v in found[0][0]
        ]
        args = [
            self.state(a, ctx, want, "as an action argument") for a, want in zip(act.args, wants)
        ]
        return ir.disj(
            ir.conj(
                [game.does(p, label, node.span)] + [a.eq(ir.Const(v)) for a, v in zip(args, vals)]
            )
            for vals, label in found
        )

    def _check_instances(self, node: ast.Call, ctx: Ctx, limit: int = 10_000) -> None:
        """Where ``does(p, a(t, ...))`` reads only names bound by quantifiers (whose values
        are known), a located error for the first binding naming no instance."""
        bound = sorted(
            {
                n.name
                for a in node.args
                for n in ast.walk(a)
                if isinstance(n, ast.Name) and n.name in ctx.domains
            }
        )
        if not bound or prod(len(ctx.domains[n]) for n in bound) > limit:
            return
        who, act = node.args
        assert isinstance(act, (ast.Name, ast.Call))  # _does checked it
        parts = [who] + (list(act.args) if isinstance(act, ast.Call) else [])
        for values in itertools.product(*(ctx.domains[n] for n in bound)):
            inner = ctx
            for n, v in zip(bound, values):
                inner = inner.bind(n, known(v))
            if not all(self.is_constant(x, inner) for x in parts):
                return  # reads the state too: not decidable now
            p = self.value(who, inner, what="the player of does").value
            label = (
                act.name
                if isinstance(act, ast.Name)
                else action_label(
                    act.name,
                    tuple(self.value(a, inner, what="an action argument").value for a in act.args),
                )
            )
            if not isinstance(p, int) or (p, act.name) not in self.instances:
                where = ", ".join(f"{n} = {_shown(v)}" for n, v in zip(bound, values))
                who_has = sorted(q for q, a in self.instances if a == act.name)
                raise UnknownName(
                    f"with {where}: player {_shown(p)} has no action "
                    f"'{act.name}' (players with one: "
                    f"{', '.join(map(str, who_has)) or 'none'})",
                    node.span,
                )
            if any(lb == label for _, lb in self.instances[(p, act.name)]):
                continue
            where = ", ".join(f"{n} = {_shown(v)}" for n, v in zip(bound, values))
            doms = "; ".join(f"{n} in {_domain_text(d)}" for n, d in self.params[(p, act.name)])
            raise RangeError(
                f"with {where}: player {p} has no action '{label}' (the "
                f"parameters of '{act.name}': {doms or 'none'})",
                node.span,
            )


def _shown(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def _domain_text(values: tuple) -> str:
    """``0..2`` for a range of ints, else ``{a, b, ...}`` (at most 8 shown)."""
    if (
        values
        and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        and list(values) == list(range(values[0], values[0] + len(values)))
    ):
        return f"{values[0]}..{values[-1]}"
    shown = ", ".join(map(_shown, values[:8])) + (", ..." if len(values) > 8 else "")
    return "{" + shown + "}"
