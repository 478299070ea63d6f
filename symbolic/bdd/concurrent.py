"""The symbolic engine of a concurrent game: actions as BDD variables.

Each player p's action index is a bit-vector act_p (the action variable of the
joint space, :meth:`symbolic.ir.ConcurrentGame.action_var`), declared in the
same manager as the position bits x, x'. The engine builds once

- A_p(x, act_p) = ⋁_k (act_p = k ∧ guard_k(x)): p's enabled actions;
- T(x, act, x') = D ∧ D' ∧ ⋀_u (when_u → then_u) ∧ ⋀_s (keep_s → x_s' = x_s),
  keep_s = ¬⋁ {when_u | then_u primes s} (the frame rule, per update);

and computes the concurrent pre-image (:mod:`symbolic.concurrent`) as

    Good(x, act) = ∃x'. (T ∧ Z')  [∧ ¬∃x'. (T ∧ ¬Z')  unless T is a function]
    pre(J, Z)    = D ∧ ∃act_J. (A_J ∧ ¬∃act_{−J}. (A_{−J} ∧ ¬Good))  [∧ alive, STRICT]

where A_J = ⋀_{p ∈ J} A_p and alive = ⋀_p ∃act_p. A_p. When T is
deterministic on enabled joint actions (checked once: no next bit can be both 0
and 1 at one (x, act) with every A_p true: pre reads Good only there),
∃x'. T ∧ Z' already says ∅ ≠ δ(c, a) ⊆ Z and the universal half is skipped.
``actions="below"`` (default) declares the action bits after the position bits,
``"above"`` moves them to the top of the order (see docs/concurrent.md for
the measurements).
"""

from __future__ import annotations

import itertools

from ..api import PositionSet
from ..concurrent import ConcurrentEngine
from ..errors import QueryError, RangeError
from ..ir import ConcurrentGame, Var
from ..limits import Limits
from ..validate import check_concurrent_game
from .encode import Encoder
from .contract import Node
from .forward import BddRelation, SymbolicMoves, out_degrees
from .sets import BddSet, SymbolicSets

__all__ = ["SymbolicConcurrentGame", "ACTION_ORDERS", "Extension", "JointActions", "JointForward"]

ACTION_ORDERS = ("below", "above")


class Extension:
    """A view of a manager whose ``declare`` skips the names already declared: the
    joint space's encoder then shares the position bits and adds the action bits."""

    def __init__(self, manager):
        self._m = manager

    def declare(self, names, *args, **kwargs) -> None:
        known = set(self._m.names)
        self._m.declare([n for n in names if n not in known], *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._m, name)


class JointActions:
    """The concurrent pre-image part of the symbolic concurrent engines: each player's
    action bits ``bits[p]`` and enabled actions ``enabled[p]`` = A_p(x, act_p), the
    relation ``trans`` = T(x, act, x'), and ``alive`` = ⋀_p ∃act_p. A_p (given, or
    computed). With a Good(x, act) of the engine's own making,

        pre(J) = W ∧ ∃act_J. (A_J ∧ ¬∃act_{−J}. (A_{−J} ∧ ¬Good))   [∧ alive, strict]

    over the positions W (the domain, or a layer). ``trans`` may be a function that
    builds T: then it is built when first read (an engine whose pre-images compose
    never reads it)."""

    __slots__ = ("manager", "players", "bits", "enabled", "_trans", "alive")

    def __init__(self, manager, players, bits: dict, enabled: dict, trans, alive=None):
        self.manager = m = manager
        self.players = tuple(players)
        self.bits = bits
        self.enabled = enabled
        self._trans = trans
        self.alive = (
            m.conj(m.exist(a, bits[p]) for p, a in enabled.items()) if alive is None else alive
        )

    @property
    def trans(self):
        """T(x, act, x'), built on first reading when given as a function."""
        if callable(self._trans):
            self._trans = self._trans()
        return self._trans

    @property
    def built(self) -> bool:
        """Whether T is built (not a function still to call)."""
        return not callable(self._trans)

    def all_bits(self) -> frozenset:
        """The action bits of every player."""
        return frozenset().union(*self.bits.values())

    def pre(self, J: frozenset, good, within, strict: bool, enabled: dict | None = None):
        """pre(J) as a BDD (class docstring), with the A_p of ``enabled`` when given (A_p
        cut to a layer)."""
        m = self.manager
        enabled = self.enabled if enabled is None else enabled
        mine = [p for p in self.players if p in J]
        theirs = [p for p in self.players if p not in J]
        their_bits = frozenset().union(*(self.bits[p] for p in theirs))
        escape = m.and_exists(m.conj(enabled[p] for p in theirs), m.not_(good), their_bits)
        my_bits = frozenset().union(*(self.bits[p] for p in mine))
        u = m.and_exists(m.conj(enabled[p] for p in mine), m.not_(escape), my_bits)
        u = m.and_(u, within)
        if strict:
            u = m.and_(u, self.alive)
        return u

    def step(self):
        """δ(x, x') = ∃act. (⋀_p A_p ∧ T)."""
        m = self.manager
        return m.and_exists(m.conj(self.enabled.values()), self.trans, self.all_bits())


class JointForward(SymbolicMoves):
    """The forward operators of a symbolic concurrent engine (a base of its class): they
    read the engine's ``actions`` (:class:`JointActions`) and its sets' ``manager``,
    ``encoder``, ``space`` and ``_domain``."""

    #: the players' actions and the transition relation T, built by the engine
    actions: JointActions

    def successors(self, pos) -> BddSet:
        """δ(c) = ⋃_a δ(c, a)."""
        m, enc = self.manager, self.encoder
        c = self.space.check_position(pos)
        cube = enc.position_cube(c)
        if m.is_false(m.and_(cube, self._domain)):
            raise RangeError(f"{c} is not a position: the invariant is false there")
        nxt = m.and_exists(self.actions.step(), cube, enc.current_set)
        return BddSet._make(self, m.rename(nxt, enc.to_current))

    def post(self, source: PositionSet) -> BddSet:
        """post(S) = (∃x. S ∧ δ)[x' := x]."""
        m, enc = self.manager, self.encoder
        u = m.and_exists(self.actions.step(), self._node_of(source), enc.current_set)
        return BddSet._make(self, m.rename(u, enc.to_current))

    def moves_between(self, source: PositionSet, target: PositionSet) -> BddRelation:
        """δ ∧ S(x) ∧ T(x')."""
        m, enc = self.manager, self.encoder
        t = m.rename(self._node_of(target), enc.to_next)
        return BddRelation(self, m.and_(self.actions.step(), m.and_(self._node_of(source), t)))

    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        """{k: |{c ∈ S | |δ(c)| = k}|} (:func:`symbolic.bdd.forward.out_degrees`)."""
        return out_degrees(self, source)


class SymbolicConcurrentGame(JointForward, SymbolicSets, ConcurrentEngine):
    """A :class:`~symbolic.ir.ConcurrentGame` as BDDs (module docstring): its sets (the
    base :class:`SymbolicSets`) and its joint actions (:class:`JointActions`, ``actions``)."""

    game: ConcurrentGame

    def __init__(
        self,
        game: ConcurrentGame,
        backend: str = "auto",
        *,
        order: str = "auto",
        actions: str = "below",
        max_memory: int | None = None,
        limits: Limits | None = None,
    ):
        if actions not in ACTION_ORDERS:
            raise QueryError(
                f"unknown action order {actions!r}: the choices are {list(ACTION_ORDERS)}"
            )
        check_concurrent_game(game)
        super().__init__(
            game.space, backend, game.invariant, order=order, max_memory=max_memory, limits=limits
        )
        self.game = game
        m = self.manager
        self.joint = Encoder(game.joint_space, Extension(m), order)
        base = len(game.space.slots)
        bits = {p: frozenset(self.joint.cur[base + k]) for k, p in enumerate(game.players)}
        if actions == "above":
            acts = [b for p in game.players for b in sorted(bits[p])]
            m.reorder(acts + [n for n in m.names if n not in set(acts)])
        with self.limits.stage("building the actions and the transition relation"):
            enabled = {p: self._actions_of(p) for p in game.players}
            self.actions = JointActions(m, game.players, bits, enabled, self._transition())
            # pre reads Good only where every player's action is enabled
            self.deterministic = self._is_function(
                m.and_(self.actions.trans, m.conj(enabled.values()))
            )

    def __repr__(self) -> str:
        return (
            f"<SymbolicConcurrentGame {self.game.name!r} {self.manager.backend}: "
            f"{len(self.manager.names)} BDD variables>"
        )

    # ---------------------------------------------------------------- building

    def _actions_of(self, p: int):
        """A_p(x, act_p) = ⋁_k (act_p = k ∧ guard_k(x)) ∧ D."""
        m, enc = self.manager, self.joint
        act = enc.integer(Var(self.game.action_var(p)))
        return m.and_(
            self._domain,
            m.disj(
                m.and_(enc.int_equals(act, k), self.encoder.boolean(a.guard, care=self._domain))
                for k, a in enumerate(self.game.actions_of(p))
            ),
        )

    def _transition(self) -> Node:
        """T(x, act, x') (module docstring)."""
        m, enc = self.manager, self.joint
        T = m.and_(self._domain, self.domain_next())
        writers: dict[int, list] = {}
        for u in self.game.updates:
            self.limits.check("an update")
            when = enc.boolean(u.when)
            T = m.and_(T, m.implies(when, enc.boolean(u.then, primed=True)))
            for s in enc.primed_slots(u.then):
                writers.setdefault(s, []).append(when)
        for s in range(len(self.game.space.slots)):
            keep = m.not_(m.disj(writers.get(s, ())))
            T = m.and_(T, m.implies(keep, enc.frame([s])))
        return T

    def _is_function(self, T) -> bool:
        """No (x, act) has two successors: for each next bit b, ∃x'. T ∧ b' and
        ∃x'. T ∧ ¬b' are disjoint."""
        m, q = self.manager, self.encoder.next_set
        for b in self.encoder.next_bits:
            v = m.var(b)
            one, zero = m.exist(m.and_(T, v), q), m.exist(m.diff(T, v), q)
            if not m.is_false(m.and_(one, zero)):
                return False
        return True

    # ---------------------------------------------------------------- the pre-image

    def _good(self, target: PositionSet):
        """Good(x, act): ∅ ≠ δ(x, act) ⊆ Z."""
        m, q = self.manager, self.encoder.next_set
        z = m.rename(self._node_of(target), self.encoder.to_next)
        good = m.and_exists(self.actions.trans, z, q)
        if not self.deterministic:
            good = m.diff(good, m.and_exists(self.actions.trans, m.not_(z), q))
        return good

    def _pre(self, J: frozenset, target: PositionSet, strict: bool) -> BddSet:
        """pre(J, Z) over the domain (:meth:`JointActions.pre`)."""
        return BddSet._make(self, self.actions.pre(J, self._good(target), self._domain, strict))

    # ---------------------------------------------------------------- the graph

    def joint_moves(self, pos) -> dict[tuple[int, ...], frozenset]:
        """{a: δ(c, a)} over the enabled joint actions a (index tuples in player order)."""
        m, enc = self.manager, self.encoder
        c = self.space.check_position(pos)
        cube = m.and_(enc.position_cube(c), self._domain)
        enabled = []
        for p in self.game.players:
            act = self.joint.integer(Var(self.game.action_var(p)))
            enabled.append(
                [
                    (k, self.joint.int_equals(act, k))
                    for k in range(len(self.game.actions_of(p)))
                    if not m.is_false(
                        m.and_(self.actions.enabled[p], m.and_(cube, self.joint.int_equals(act, k)))
                    )
                ]
            )
        out = {}
        for combo in itertools.product(*enabled):
            sel = m.conj([cube] + [u for _, u in combo])
            nxt = m.rename(
                m.exist(m.and_(self.actions.trans, sel), enc.current_set | self.actions.all_bits()),
                enc.to_current,
            )
            out[tuple(k for k, _ in combo)] = frozenset(BddSet._make(self, nxt).tuples())
        return out

    def bdd_sizes(self) -> dict:
        """Node counts of the domain, each player's A_p and T."""
        m = self.manager
        out = {"domain": m.size(self._domain), "T": m.size(self.actions.trans)}
        out.update({f"A_{p}": m.size(a) for p, a in self.actions.enabled.items()})
        return out
