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
The primed slots an active update fixes by an equation (``x' == e``, also under
``G implies ...`` where G holds at (c, a), as in ``does(1, take(t)) implies a' = a - t``)
take that one value instead of their whole range; every candidate is still checked
against every active ``then``. Before building its table the engine bounds it: the
value vectors times the joint actions (the product of the players' action counts)
may not exceed ``max_edges`` (the turn-based engine's edge limit), else
:class:`~symbolic.errors.TooManyPositions` — or, when evaluating every guard at every
value vector is cheap (:data:`COUNT_BUDGET`), the enabled joint actions are counted
exactly before the table is built, and refused past the limit.

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
from math import prod
from typing import Callable, NamedTuple

from ..api import MoveRelation, PositionSet
from ..arguments import need_int
from ..concurrent import ConcurrentEngine
from ..errors import SymbolicError, TooManyPositions, WrongType
from ..ir import Binary, BoolType, ConcurrentGame, Expr, Space, has_primes
from ..limits import Limits
from ..validate import check_concurrent_game
from .engine import DEFAULT_MAX_EDGES, ExplicitRelation
from .graph import JointEntry, JointTable
from .interp import BOOL, Compiled, Fn, compile_expr, type_name
from .moves import conjuncts, equations
from .sets import DEFAULT_MAX_POSITIONS, ExplicitSet, ExplicitSets

__all__ = ["ExplicitConcurrentGame", "COUNT_BUDGET", "CompiledUpdate"]

#: guard evaluations (value vectors times action instances) the engine may spend to count
#: its table exactly when the declared bound (value vectors times joint actions) exceeds
#: its limit (a turn-based game read as concurrent: one mover per position)
COUNT_BUDGET = 10_000_000


class CompiledUpdate(NamedTuple):
    """An update of the game, compiled over the joint space (position + joint action):
    ``when(state, None)`` says whether it applies, ``then`` constrains the next position."""

    when: Fn
    then: Compiled


class ExplicitConcurrentGame(ExplicitSets, ConcurrentEngine):
    """A :class:`~symbolic.ir.ConcurrentGame` by enumeration (module docstring): the
    position index and sets of :class:`~.sets.ExplicitSets`, δ(c, a) in a
    :class:`~.graph.JointTable`, every ATL operator through the pre-image
    (:class:`~symbolic.concurrent.ConcurrentEngine`)."""

    game: ConcurrentGame

    def __init__(
        self,
        game: ConcurrentGame,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        max_edges: int = DEFAULT_MAX_EDGES,
        limits: Limits | None = None,
    ):
        check_concurrent_game(game)
        super().__init__(game.space, game.invariant, max_positions=max_positions, limits=limits)
        self.game = game
        self.max_edges = need_int(max_edges, "max_edges", low=1)
        self._guards = {
            p: [
                self._bool(a.guard, game.space, f"the guard of {a.label!r}")
                for a in game.actions_of(p)
            ]
            for p in game.players
        }
        joint = game.joint_space
        self._updates = [
            CompiledUpdate(
                self._bool(u.when, joint, "an update's condition"), compile_expr(u.then, joint)
            )
            for u in game.updates
        ]
        for (_, then), u in zip(self._updates, game.updates):
            if then.type != BOOL:
                raise WrongType(
                    f"an update must be bool, got {type_name(then.type)}",
                    getattr(u.then, "span", u.span),
                )
        self._fixers = [_fixers(u.then, joint) for u in game.updates]
        self._table: JointTable | None = None  # δ(c, a), built by _build()

    def __repr__(self) -> str:
        n = "?" if self._dom is None else len(self._dom)
        return f"<ExplicitConcurrentGame {self.game.name!r}: {n} positions>"

    def table_bound(self) -> int:
        """An upper bound on the entries of the table δ(c, a), known before any
        enumeration: the value vectors times the joint actions (every player's
        action instances multiplied)."""
        return self.space.size * prod(len(self.game.actions_of(p)) for p in self.game.players)

    def check_size(self) -> None:
        """TooManyPositions when the positions or the table of joint actions may be
        too many to enumerate (the turn-based engine's edge limit bounds the table)."""
        super().check_size()
        bound = self.table_bound()
        # past the limit, the table is counted exactly (every guard at every position)
        # when that costs at most COUNT_BUDGET guard evaluations, else refused now
        if bound > self.max_edges and self.space.size * len(self.game.actions) > COUNT_BUDGET:
            joint = bound // max(self.space.size, 1)
            raise TooManyPositions(
                f"joint-action limit reached: the game may have up to {bound} pairs (position, "
                f"joint action) ({self.space.size} value vectors times {joint} joint actions), "
                f"more than the explicit engine's limit of {self.max_edges}: use the symbolic "
                "engine",
                limit="edges",
                stage="before enumerating the joint actions",
            )

    def _enabled_all(self, dom: list) -> list:
        """A_p(c) for every position, the table's entries counted (TooManyPositions
        past ``max_edges`` when the declared bound did not settle it)."""
        enabled = []
        for i, c in enumerate(dom):
            if not i & 1023:
                self.limits.check(f"enabled actions: position {i} of {len(dom)}")
            enabled.append(self.enabled(c))
        if self.table_bound() > self.max_edges:
            total = sum(prod(map(len, en)) for en in enabled)
            if total > self.max_edges:
                raise TooManyPositions(
                    f"joint-action limit reached: the game has {total} pairs (position, "
                    f"enabled joint action), more than the explicit engine's limit of "
                    f"{self.max_edges}: use the symbolic engine",
                    limit="edges",
                    stage="before building the joint actions",
                )
        return enabled

    @staticmethod
    def _bool(e, space, what: str) -> Fn:
        c = compile_expr(e, space)
        if c.type != BOOL:
            raise WrongType(
                f"{what} must be bool, got {type_name(c.type)}", getattr(e, "span", None)
            )
        return c.fn

    # ---------------------------------------------------------------- δ(c, a)

    def enabled(self, c: tuple) -> tuple[tuple[int, ...], ...]:
        """(A_p(c))_p in player order, as action indices."""
        return tuple(
            tuple(k for k, g in enumerate(self._guards[p]) if g(c, None)) for p in self.game.players
        )

    def joint_successors(self, c: tuple, a: tuple[int, ...]) -> frozenset:
        """δ(c, a) for a joint action ``a`` (action indices in player order)."""
        state = c + a
        on = [k for k, (when, _) in enumerate(self._updates) if when(state, None)]
        active = [self._updates[k].then for k in on]
        primed = sorted(set().union(*(t.primed for t in active)))
        slots = self.space.slots
        fixed = self._fixed(state, on)
        if fixed is None:
            return frozenset()
        ranges = [(fixed[s],) if s in fixed else slots[s].type.values() for s in primed]
        out = set()
        buf = list(state)
        for vals in itertools.product(*ranges):
            for s, v in zip(primed, vals):
                buf[s] = v
            nxt = tuple(buf)
            cand = nxt[: len(c)]
            if self._is_position(cand) and all(t.fn(state, nxt) for t in active):
                out.add(cand)
        return frozenset(out)

    def _fixed(self, state: tuple, on: list[int]) -> dict[int, int] | None:
        """{slot: its value} for the primed slots the active updates ``on`` fix by an
        equation at ``state`` (c + a); None when one forces a value out of range (then
        no successor). An equation that raises is skipped (the candidates then cover
        the slot's range, and the update's own check reports or rejects)."""
        fixed: dict[int, int] = {}
        slots = self.space.slots
        for k in on:
            for guard, slot, fn in self._fixers[k]:
                if slot in fixed:
                    continue
                try:
                    if guard is not None and not guard(state, None):
                        continue
                    v = fn(state, None)
                except SymbolicError:
                    continue
                t = slots[slot].type
                if isinstance(t, BoolType):
                    v = 1 if v else 0
                elif not t.lo <= v <= t.hi:
                    return None
                fixed[slot] = v
        return fixed

    def _build(self) -> JointTable:
        """The table of δ(c, a) (built once, after the size checks)."""
        if self._table is None:
            with self.limits.stage("building δ(c, a) (explicit, concurrent)"):
                dom = self._domain()
                index = self._position_index()
                table = []
                for i, (c, en) in enumerate(zip(dom, self._enabled_all(dom))):
                    if not i & 255:
                        self.limits.check(f"position {i} of {len(dom)}")
                    moves = {
                        a: frozenset(index[t] for t in self.joint_successors(c, a))
                        for a in itertools.product(*en)
                    }
                    table.append(JointEntry(en, moves))
                self._table = JointTable(table)
        return self._table

    # ---------------------------------------------------------------- the pre-image

    def _pre(self, J: frozenset, target: PositionSet, strict: bool) -> ExplicitSet:
        z = set(self._indices(self._own(target)))
        forces = z.issuperset
        out = []
        for i, rows in enumerate(self._build().rows(J, self.game.players)):
            if isinstance(rows, bool):  # a dead end: True when every player of J can act
                if rows and not strict:
                    out.append(i)
                continue
            for row in rows:
                if all(map(forces, row)):
                    out.append(i)
                    break
        return self._from_indices(out)

    # ---------------------------------------------------------------- the graph

    def _succ_of(self, i: int) -> frozenset:
        return self._build().successors(i)

    def successors(self, pos) -> ExplicitSet:
        """δ(c) = ⋃_a δ(c, a)."""
        c = self._position(pos)
        self._build()
        return self._from_indices(self._succ_of(self._position_index()[c]))

    def post(self, source: PositionSet) -> ExplicitSet:
        return self._from_indices(
            j for i in self._indices(self._own(source)) for j in self._succ_of(i)
        )

    def moves_between(self, source: PositionSet, target: PositionSet) -> MoveRelation:
        dom = self._domain()
        t = set(self._indices(self._own(target)))
        return ExplicitRelation(
            self,
            frozenset(
                (dom[i], dom[j])
                for i in self._indices(self._own(source))
                for j in self._succ_of(i)
                if j in t
            ),
        )

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
        return [
            (tuple(labels[k][v] for k, v in enumerate(a)), t)
            for a in itertools.product(*self.enabled(c))
            for t in sorted(self.joint_successors(c, a))
        ]

    def joint_moves(self, pos) -> dict[tuple[int, ...], frozenset]:
        """{a: δ(c, a)} over the enabled joint actions a (index tuples in player order)."""
        c = self._position(pos)
        return {a: self.joint_successors(c, a) for a in itertools.product(*self.enabled(c))}


def _fixers(then: Expr, joint: Space) -> list[tuple]:
    """The equations of an update's ``then`` that fix one primed slot from the current
    position and the joint action alone: (guard or None, slot, value fn), with ``and``
    and ``forall`` flattened and ``G implies ...`` (G reading no primed slot) guarded."""
    out: list[tuple] = []
    todo: list[tuple] = []
    conjuncts(then, {}, todo)
    stack: list[tuple[Expr, dict, Callable | None]] = [(e, env, None) for e, env in reversed(todo)]
    while stack:
        e, env, guard = stack.pop()
        if isinstance(e, Binary) and e.op == "implies" and not has_primes(e.left):
            g = compile_expr(e.left, joint, env).fn
            both = g if guard is None else (lambda s, n, a=guard, b=g: a(s, n) and b(s, n))
            inner: list[tuple] = []
            conjuncts(e.right, env, inner)
            stack.extend((x, en, both) for x, en in reversed(inner))
            continue
        out.extend((guard, slot, fn) for slot, fn, reads in equations(joint, e, env) if not reads)
    return out
