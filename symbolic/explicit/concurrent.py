"""The explicit engine of a concurrent game: every joint action enumerated.

At each position c (index i of the domain) the engine lists, once, the enabled
action indices of each player (A_p(c), the action instances whose guard holds)
and, for every enabled joint action a, δ(c, a): the active updates are those
whose ``when`` holds at (c, a); the successors are the positions c' where every
active ``then`` holds and every slot primed by no active ``then`` keeps its
value (the primed slots are enumerated over their ranges: the plain
definition). Then

    pre(J, Z) = { c | ∃ a_J ∈ A_J(c) ∀ a_{−J} ∈ A_{−J}(c) : ∅ ≠ δ(c, a) ⊆ Z }

is evaluated by looping over the joint actions (:class:`ExplicitConcurrentGame`).

>>> from symbolic.ir import Action, BoolType, ConcurrentGame, Space, Update, Var, VarDecl
>>> sp = Space((VarDecl("done", BoolType()), VarDecl("same", BoolType())))
>>> play = [Action(p, f"play({s})", ~Var("done")) for p in (1, 2) for s in (0, 1)]
>>> rest = [Action(p, "rest", Var("done")) for p in (1, 2)]
>>> g = ConcurrentGame("pennies", sp, (1, 2), tuple(play + rest), ())
>>> g = ConcurrentGame("pennies", sp, (1, 2), g.actions, (Update(
...     Var("done", primed=True) & Var("same", primed=True).eq(
...         g.does(1, "play(0)").eq(g.does(2, "play(0)"))), ~Var("done")),))
>>> G = ExplicitConcurrentGame(g)
>>> from symbolic.api import DeadEnds
>>> same = G.from_expr(Var("same"))
>>> G.pre({1}, same, dead_ends=DeadEnds.VACUOUS).tuples()     # done: the position stays
[(1, 1)]
>>> G.pre({1, 2}, same, dead_ends=DeadEnds.VACUOUS).tuples()  # together they match
[(0, 0), (0, 1), (1, 1)]
"""
from __future__ import annotations

import itertools
from typing import Iterable

from ..api import MoveRelation, PositionSet
from ..concurrent import ConcurrentEngine
from ..errors import WrongType
from ..ir import ConcurrentGame
from ..limits import Limits
from ..validate import check_concurrent_game
from .engine import ExplicitRelation
from .interp import BOOL, compile_expr, type_name
from .sets import DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets

__all__ = ["ExplicitConcurrentGame"]


class ExplicitConcurrentGame(ExplicitSets, ConcurrentEngine):
    """A :class:`~symbolic.ir.ConcurrentGame` by enumeration (module docstring)."""

    def __init__(self, game: ConcurrentGame, *, max_positions: int = DEFAULT_MAX_POSITIONS,
                 limits: Limits | None = None):
        check_concurrent_game(game)
        super().__init__(game.space, game.invariant, max_positions=max_positions, limits=limits)
        self.game = game
        self._guards = {p: [self._bool(a.guard, game.space, f"the guard of {a.label!r}")
                            for a in game.actions_of(p)] for p in game.players}
        joint = game.joint_space
        self._updates = [(self._bool(u.when, joint, "an update's condition"),
                          compile_expr(u.then, joint)) for u in game.updates]
        for (_, then), u in zip(self._updates, game.updates):
            if then.type != BOOL:
                raise WrongType(f"an update must be bool, got {type_name(then.type)}",
                                getattr(u.then, "span", u.span))
        self._table: list | None = None  # per position: (enabled per player, {a: succ})

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<ExplicitConcurrentGame {self.game.name!r}: {n} positions>"

    @staticmethod
    def _bool(e, space, what: str):
        c = compile_expr(e, space)
        if c.type != BOOL:
            raise WrongType(f"{what} must be bool, got {type_name(c.type)}",
                            getattr(e, "span", None))
        return c.fn

    # ---------------------------------------------------------------- δ(c, a)

    def enabled(self, c: tuple) -> tuple[tuple[int, ...], ...]:
        """(A_p(c))_p in player order, as action indices."""
        return tuple(tuple(k for k, g in enumerate(self._guards[p]) if g(c, None))
                     for p in self.game.players)

    def joint_successors(self, c: tuple, a: tuple[int, ...]) -> frozenset:
        """δ(c, a) for a joint action ``a`` (action indices in player order)."""
        state = c + a
        active = [then for when, then in self._updates if when(state, None)]
        primed = sorted(set().union(*(t.primed for t in active)))
        slots = self.space.slots
        ranges = [slots[s].type.values() for s in primed]
        out = set()
        buf = list(state)
        for vals in itertools.product(*ranges):
            for s, v in zip(primed, vals):
                buf[s] = v
            nxt = tuple(buf)
            cand = nxt[:len(c)]
            if self._is_position(cand) and all(t.fn(state, nxt) for t in active):
                out.add(cand)
        return frozenset(out)

    def _build(self) -> list:
        if self._table is None:
            with self.limits.stage("building δ(c, a) (explicit, concurrent)"):
                dom = self._domain()
                table = []
                for i, c in enumerate(dom):
                    if not i & 255:
                        self.limits.check(f"position {i} of {len(dom)}")
                    en = self.enabled(c)
                    moves = {a: frozenset(self._index[t] for t in self.joint_successors(c, a))
                             for a in itertools.product(*en)}
                    table.append((en, moves))
                self._table = table
        return self._table

    # ---------------------------------------------------------------- the pre-image

    def _pre(self, J: frozenset, target: PositionSet, strict: bool) -> ExplicitSet:
        table = self._build()
        z = set(self._indices(self._own(target)))
        players = self.game.players
        mine = [k for k, p in enumerate(players) if p in J]
        theirs = [k for k, p in enumerate(players) if p not in J]
        out = []
        for i, (en, moves) in enumerate(table):
            if any(not e for e in en):  # a dead end
                if not strict and all(en[k] for k in mine):
                    out.append(i)
                continue
            for aj in itertools.product(*(en[k] for k in mine)):
                if all(self._forces(moves, mine, aj, theirs, ao, z)
                       for ao in itertools.product(*(en[k] for k in theirs))):
                    out.append(i)
                    break
        return self._from_indices(out)

    @staticmethod
    def _forces(moves, mine, aj, theirs, ao, z) -> bool:
        a = [0] * (len(mine) + len(theirs))
        for k, v in zip(mine, aj):
            a[k] = v
        for k, v in zip(theirs, ao):
            a[k] = v
        succ = moves[tuple(a)]
        return bool(succ) and succ <= z

    # ---------------------------------------------------------------- the graph

    def _succ_of(self, i: int) -> frozenset:
        return frozenset().union(*self._build()[i][1].values())

    def successors(self, pos) -> ExplicitSet:
        """δ(c) = ⋃_a δ(c, a)."""
        c = self._position(pos)
        self._build()
        return self._from_indices(self._succ_of(self._index[c]))

    def post(self, source: PositionSet) -> ExplicitSet:
        return self._from_indices(j for i in self._indices(self._own(source))
                                  for j in self._succ_of(i))

    def moves_between(self, source: PositionSet, target: PositionSet) -> MoveRelation:
        dom = self._domain()
        t = set(self._indices(self._own(target)))
        return ExplicitRelation(self, frozenset(
            (dom[i], dom[j]) for i in self._indices(self._own(source))
            for j in self._succ_of(i) if j in t))

    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        out: dict[int, int] = {}
        for i in self._indices(self._own(source)):
            d = len(self._succ_of(i))
            out[d] = out.get(d, 0) + 1
        return out

    def transitions(self, pos) -> list[tuple[tuple[str, ...], tuple]]:
        """δ(c) labelled by joint action: (action labels in player order, successor)."""
        c = self._position(pos)
        labels = [self.game.action_labels(p) for p in self.game.players]
        return [(tuple(labels[k][v] for k, v in enumerate(a)), t)
                for a in itertools.product(*self.enabled(c))
                for t in sorted(self.joint_successors(c, a))]

    def joint_moves(self, pos) -> dict[tuple[int, ...], frozenset]:
        """{a: δ(c, a)} over the enabled joint actions a (index tuples in player order)."""
        c = self._position(pos)
        return {a: self.joint_successors(c, a) for a in itertools.product(*self.enabled(c))}
