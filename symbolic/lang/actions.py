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

from .. import ir
from ..errors import ModelError, RangeError, WrongType
from . import ast
from .binders import flat_binders
from .builtins import canonical_key
from .scope import EMPTY, Ctx
from .types import BOOL, Sym

__all__ = ["ActionDecls", "action_label"]


def action_label(name: str, values: tuple) -> str:
    """``play(0)``, ``bid(2, true)``; ``rest`` without parameters."""
    if not values:
        return name
    shown = ["true" if v is True else "false" if v is False else str(v) for v in values]
    return f"{name}({', '.join(shown)})"


class ActionDecls:
    """The concurrent declarations (a base of :class:`~.decls.ModelChecker`)."""

    concurrent_span = None

    def _concurrent_decl(self, d: ast.ConcurrentDecl) -> None:
        if self.concurrent_span is not None:
            raise ModelError("'concurrent' is declared twice", d.span)
        self.concurrent_span = d.span
        self.actions: list[ir.Action] = []
        self.update_decls: list[ast.UpdateDecl] = []
        self.instances: dict[tuple[int, str], list[tuple[tuple, str]]] = {}

    def _require_concurrent(self, d: ast.Decl, what: str) -> None:
        if self.concurrent_span is None:
            raise ModelError(f"{what} belongs to a concurrent game: declare 'concurrent' "
                             f"before it", d.span)

    def _action_decl(self, d: ast.ActionDecl) -> None:
        self._require_concurrent(d, "an action")
        who = self.value(d.players, EMPTY, what="the players of an action").value
        who = (who,) if isinstance(who, int) and not isinstance(who, bool) else who
        if not isinstance(who, (tuple, frozenset)) or not all(
                isinstance(p, int) and not isinstance(p, bool) for p in who):
            raise WrongType("the players of an action are a player id or a set of them",
                            d.players.span)
        for p in sorted(who):
            if p not in self.scope.players:
                raise RangeError(f"{p} is not a player (players: "
                                 f"{', '.join(map(str, self.scope.players))})", d.players.span)
        ctx, names, domains = EMPTY, [], []
        for ident, dom in flat_binders(d.params):
            ctx.check_unbound(ident)
            values, elem = self.domain(dom, ctx, ident.name)
            names.append(ident.name)
            domains.append(tuple(sorted(set(values), key=canonical_key)))
            ctx = ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem))
        guard = ir.TRUE if d.guard is None else \
            self.state(d.guard, ctx, BOOL, "as the guard of an action (after 'when')")
        for values in itertools.product(*domains):
            g = ir.substitute(guard, dict(zip(names, values)))
            label = action_label(d.name.name, values)
            for p in sorted(who):
                self.actions.append(ir.Action(p, label, g, d.span))
                self.instances.setdefault((p, d.name.name), []).append((values, label))

    def _update_decl(self, d: ast.UpdateDecl) -> None:
        self._require_concurrent(d, "an update")
        self.update_decls.append(d)

    def concurrent_game(self, name: str, space: ir.Space, invariant: ir.Expr) -> ir.ConcurrentGame:
        """The game once every declaration is read: the updates checked now."""
        if self.turn is not None:
            raise ModelError("a concurrent game has no 'turn' (every player moves at once)",
                             self.concurrent_span)
        if self.moves:
            raise ModelError("a concurrent game has actions, not moves", self.moves[0].span)
        for p in self.scope.players:
            if not any(a.player == p for a in self.actions):
                raise ModelError(f"player {p} has no action: declare one with "
                                 f"'action {p} NAME'", self.concurrent_span)
        shell = ir.ConcurrentGame(name, space, self.scope.players, tuple(self.actions), (),
                                  invariant, self.description)
        self.joint = shell
        updates = []
        for d in self.update_decls:
            when = ir.TRUE if d.guard is None else \
                self.state(d.guard, EMPTY, BOOL, "as the condition of an update (after 'when')")
            then = ir.conj(self.state(e, replace(EMPTY, primes=True), BOOL,
                                      "as the effect of an update (after 'then')")
                           for e in d.effects)
            updates.append(ir.Update(then, when, d.span))
        return ir.ConcurrentGame(name, space, self.scope.players, shell.actions,
                                 tuple(updates), invariant, self.description)

    def _does(self, node: ast.Call, ctx: Ctx):
        """``does(p, a(v, ...))``: the atom "player p plays that action"."""
        game = getattr(self, "joint", None)
        if game is None:
            raise WrongType("does(p, action) may appear only in the updates of a concurrent "
                            "game", node.span)
        if len(node.args) != 2:
            raise WrongType("does takes a player and an action: does(p, name(v, ...))",
                            node.span)
        who, act = node.args
        p = self.value(who, ctx, what="the player of does").value
        if isinstance(act, ast.Name):
            return Sym(game.does(p, act.name, node.span), BOOL)
        if not isinstance(act, ast.Call):
            raise WrongType("the second argument of does is an action: name(v, ...)",
                            act.span)
        if all(self.is_constant(a, ctx) for a in act.args):
            values = tuple(self.value(a, ctx, what="an action argument").value
                           for a in act.args)
            return Sym(game.does(p, action_label(act.name, values), node.span), BOOL)
        # arguments that read bound names: one disjunct per instance of the action
        args = [self.state(a, ctx, None, "as an action argument") for a in act.args]
        found = [(vals, label) for vals, label in self.instances.get((p, act.name), ())
                 if len(vals) == len(args)]
        if not found:
            game.does(p, act.name, node.span)  # the error: no such action
        return Sym(ir.disj(ir.conj([game.does(p, label, node.span)]
                                   + [a.eq(ir.Const(v)) for a, v in zip(args, vals)])
                           for vals, label in found), BOOL)
