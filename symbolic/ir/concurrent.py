"""Concurrent games of the IR: every player chooses an action at once.

A :class:`ConcurrentGame` is a concurrent game structure (Alur, Henzinger and
Kupferman, "Alternating-time temporal logic", J. ACM 2002) over a space of
positions:

- each player p has a finite tuple of ground *action instances* (``Action``:
  a label such as ``play(0)`` and a guard over the current position); the
  enabled actions at c are A_p(c) = {a ∈ actions(p) | guard_a(c)}; a position
  where some player has no enabled action is a *dead end*;
- the joint action a = (a_p)_{p ∈ players} is read by the effect through one
  *action variable* per player (:meth:`ConcurrentGame.action_var`, an int
  holding the index of p's action among ``actions_of(p)``), so that
  ``does(p, a)`` is the atom ``action_var(p) == index(a)`` and every pass over
  IR expressions works unchanged on the *joint space* (the positions' slots
  followed by the action variables);
- the effect is a list of ``Update(when, then)``: at (c, a) the *active*
  updates are those whose ``when`` holds; δ(c, a) is the set of positions c'
  with every active ``then`` true at (c, a, c') and c'[s] = c[s] for every slot
  s primed in no active ``then`` (the frame rule of moves, per update);
  several updates conjoin.

For a coalition J the concurrent pre-image is

    pre(J, Z) = { c | ∃ a_J ∈ A_J(c) ∀ a_{−J} ∈ A_{−J}(c) : ∅ ≠ δ(c, a) ⊆ Z }

(a product over no player holds the one empty tuple), and ATL's ⟨⟨J⟩⟩○, U,
◇, □ and R are the usual fixpoints over it (:mod:`symbolic.concurrent`).

>>> from symbolic.ir import BoolType, Space, VarDecl, Var
>>> sp = Space((VarDecl("done", BoolType()), VarDecl("same", BoolType())))
>>> g = ConcurrentGame("pennies", sp, (1, 2),
...     tuple(Action(p, f"play({s})", ~Var("done")) for p in (1, 2) for s in (0, 1))
...     + tuple(Action(p, "rest", Var("done")) for p in (1, 2)), ())
>>> g.action_labels(2), g.action_var(2)
(('play(0)', 'play(1)', 'rest'), 'action@2')
>>> g.does(1, "rest").op
'=='
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable

from ..errors import ModelError, Span, UnknownName
from .exprs import TRUE, Const, Expr, Var
from .game import Game, check_players
from .spaces import IntType, Space, VarDecl

__all__ = ["Action", "Update", "ConcurrentGame", "ACTION_PREFIX"]

#: action variables are named ``action@<player>``: '@' cannot occur in a model's names
ACTION_PREFIX = "action@"


@dataclass(frozen=True)
class Action:
    """A ground action instance of ``player``: enabled where ``guard`` holds."""

    player: int
    label: str
    guard: Expr = TRUE
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Update:
    """Where ``when`` holds (over the position and the action variables), the
    next position satisfies ``then`` (over x, x' and the action variables)."""

    then: Expr
    when: Expr = TRUE
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ConcurrentGame:
    """A concurrent game ``(players, positions, A, δ)`` (module docstring)."""

    name: str
    space: Space
    players: tuple[int, ...]
    actions: tuple[Action, ...]
    updates: tuple[Update, ...]
    invariant: Expr = TRUE
    description: str = ""

    def __post_init__(self):
        check_players(self.name, self.players)
        for a in self.actions:
            if a.player not in self.players:
                raise ModelError(
                    f"action {a.label!r} of player {a.player}: not a player "
                    f"(players: {list(self.players)})",
                    a.span,
                )
        for p in self.players:
            labels = self.action_labels(p)
            if not labels:
                raise ModelError(f"game {self.name!r}: player {p} has no action")
            if len(self._index[p]) < len(labels):
                dup = sorted(n for n, k in Counter(labels).items() if k > 1)
                raise ModelError(
                    f"game {self.name!r}: actions of player {p} declared twice: {dup}",
                    self.actions_of(p)[labels.index(dup[0], 1)].span,
                )
        clash = [v.name for v in self.space.vars if v.name.startswith(ACTION_PREFIX)]
        if clash:
            raise ModelError(f"variable {clash[0]!r}: the prefix {ACTION_PREFIX!r} is reserved")

    coalition = Game.coalition

    @cached_property
    def _by_player(self) -> dict[int, tuple[Action, ...]]:
        """Each player's action instances, computed once (``does`` is called per instance)."""
        out: dict[int, list[Action]] = {}
        for a in self.actions:
            out.setdefault(a.player, []).append(a)
        return {p: tuple(v) for p, v in out.items()}

    @cached_property
    def _index(self) -> dict[int, dict[str, int]]:
        """{player: {label: its first index}}."""
        out: dict[int, dict[str, int]] = {}
        for p, acts in self._by_player.items():
            first: dict[str, int] = {}
            for k, a in enumerate(acts):
                first.setdefault(a.label, k)
            out[p] = first
        return out

    def actions_of(self, player: int) -> tuple[Action, ...]:
        """A player's action instances, in declaration order (index = position here)."""
        return self._by_player.get(player, ())

    def action_labels(self, player: int) -> tuple[str, ...]:
        return tuple(a.label for a in self.actions_of(player))

    @staticmethod
    def action_var(player: int) -> str:
        """The name of the variable holding ``player``'s action index in the joint space."""
        return f"{ACTION_PREFIX}{player}"

    def does(self, player: int, label: str, span: Span | None = None) -> Expr:
        """The atom "``player`` plays ``label``": action_var(player) == its index."""
        index = self._index.get(player, {}) if player in self.players else {}
        if label not in index:
            labels = self.action_labels(player) if player in self.players else ()
            raise UnknownName(
                f"player {player} has no action {label!r}"
                + (f" (its actions: {', '.join(labels)})" if labels else ""),
                span,
            )
        return Var(self.action_var(player), span=span).eq(Const(index[label]))

    @cached_property
    def joint_space(self) -> Space:
        """The position slots followed by one action variable per player (in player
        order): the space over which ``when`` and ``then`` are read."""
        extra = tuple(
            VarDecl(self.action_var(p), IntType(0, len(self.actions_of(p)) - 1))
            for p in self.players
        )
        return Space(tuple(self.space.vars) + extra)

    def joint_actions(self, players: Iterable[int]) -> list[tuple[int, ...]]:
        """Every tuple of action indices of ``players`` (in the given order)."""
        out: list[tuple[int, ...]] = [()]
        for p in players:
            out = [t + (k,) for t in out for k in range(len(self.actions_of(p)))]
        return out
