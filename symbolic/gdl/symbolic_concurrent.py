"""The symbolic engine of a simultaneous-move GDL game: each role's move as BDD variables.

Each role r gets an action bit-vector act_r (the action variable of
:meth:`symbolic.ir.ConcurrentGame.action_var`, an index into r's possible moves;
its bits are moved above the fluents' unless ``actions="below"``), and the
ground ``does(r, m)`` atoms are read as act_r = index(m); every ground atom that
reads ``does`` then has one BDD over (x, act)
(:class:`JointWithin`). With L the expanded non-terminal
positions (no frontier, not terminal):

    A_r(x, act_r) = L(x) ∧ ⋁_m (act_r = index(m) ∧ legal(r, m)(x))
    σ_f(x, act)   = next(f)(x, act)            (the successor is a function)
    T(x, act, x') = ⋀_f (x'_f ↔ σ_f(x, act))   over every state, when it has at
                    most FULL_T_MAX nodes; else ⋀_r A_r ∧ ⋀_f (x'_f ↔ σ_f)
                    built from the sources on (restricted to L)

T is read only together with the A_r (restricted to L), so both forms give the
same pre-images. The reachable states are found breadth-first as for a
turn-based game, with post(F) = (∃x, act. F ∧ ¬terminal ∧ ⋀_r A_r ∧ T)[x' := x]
(one relational product per layer when T is over every state) and no turn rule.
Then

    Good(x, act) = ∃x'. T ∧ Z'                          ("relational", the default)
                 or Z(σ(x, act))                        ("compose")
    pre(J, Z)    = D ∧ ∃act_J. (A_J ∧ ¬∃act_{−J}. (A_{−J} ∧ ¬Good))  [∧ alive, STRICT]

the formula of :class:`symbolic.bdd.concurrent.SymbolicConcurrentGame`: both engines
hold their A_r and T in a :class:`~symbolic.bdd.concurrent.JointActions` (``actions``),
which takes this pre-image on each engine's own Good, and share its forward operators
(:class:`~symbolic.bdd.concurrent.JointForward`). Both
forms of Good were measured on the simultaneous corpus
(bench/journal/2026-11-29-gdl-measurements.md, "Simultaneous-move games"). A terminal state, a frontier state and a state where
a role has no legal move are dead ends: some A_r is empty there.

>>> from ..model import load_model
>>> from ..api import DeadEnds
>>> m = load_model("tests/gdl/pennies.kif")
>>> G = GdlSymbolicConcurrentGame(m.game)
>>> match = G.atom_set(("goal", ("a", "100")))
>>> [len(G.pre(J, match, dead_ends=DeadEnds.VACUOUS)) for J in ({1}, {2}, {1, 2})]
[0, 0, 1]
"""

from __future__ import annotations

from .. import ir
from ..api import DeadEnds, PositionSet, ReachLayers
from ..bdd.concurrent import ACTION_ORDERS, Extension, JointActions, JointForward
from ..bdd.encode import Encoder
from ..bdd.sets import BddSet
from ..concurrent import ConcurrentEngine
from ..errors import QueryError
from ..limits import Limits
from .game import GdlGame
from .symbolic import GdlSymbolicGame
from .within import Within


class _TooLarge(Exception):
    """A joint atom's build over every state passed its cap (caught in the engine)."""


class JointWithin(Within):
    """:class:`~.symbolic_rules.Within` a set u of states, with ``does(r, m)`` read as
    act_r = index(m) (``does``: {(r, m): that BDD over the action bits}): the BDD over
    (x, act) of an atom within u. With ``cap``, :class:`_TooLarge` as soon as a body's
    conjunction passes ``cap`` nodes."""

    def __init__(self, rules, u, does: dict, cap: int | None = None):
        super().__init__(rules, u)
        self.does, self.cap = does, cap

    def atom(self, atom, ctx=None):
        """a ∧ u over (x, act) (``ctx`` is not read: every role's move is a variable)."""
        name, args = atom
        m = self.m
        if name == "does":
            return m.and_(self.u, self.does.get(args, m.false))
        joint = name != "true" and self.rules.does.reads(atom)
        if not joint and (name == "true" or self.cap is None):
            return super().atom(atom)
        key = (atom, "joint" if joint else None)
        hit = self.memo.get(key)
        if hit is _TooLarge:  # failed before: every atom reading it fails at once
            raise _TooLarge(self.cap)
        if hit is None:
            whole = None if joint else self.rules.whole(atom)
            if whole is not None:
                hit = m.and_(self.u, whole)
            else:
                m.limits.check()
                try:
                    hit = self._or([self.body(b) for b in self.rules.prog.rules.get(atom, ())])
                except _TooLarge:
                    self.memo[key] = _TooLarge
                    raise
            self.memo[key] = hit
        return hit

    def body(self, body, ctx=None):
        """The states and moves where every literal of ``body`` holds, within u."""
        return self.capped(super().body(body))

    def _or(self, items: list):
        """The disjunction of ``items`` as a balanced tree, each step capped."""
        m = self.m
        while len(items) > 1:
            pairs = range(0, len(items) - 1, 2)
            items = [self.capped(m.or_(items[i], items[i + 1])) for i in pairs] + (
                [items[-1]] if len(items) % 2 else []
            )
        return items[0] if items else m.false

    def capped(self, v):
        """v, or :class:`_TooLarge` when it has more than ``cap`` nodes."""
        if self.cap is not None and self.m.size(v) > self.cap:
            raise _TooLarge(self.cap)
        return v


#: the most bits (the roles' action bits, then fluents') the image splits a layer on
#: into joint moves that rename the state (:meth:`~.symbolic_rules.RuleBdds.split_cases`)
CASE_DEPTH = 14

__all__ = ["GdlSymbolicConcurrentGame", "GOODS", "JointWithin"]

#: the most BDD nodes of a step of an atom's build over every state (x, act): past it
#: the joint moves are built within each layer while exploring, then within the
#: positions (bomberman2p's went past 10⁸ nodes over every state)
JOINT_WHOLE_MAX = 200_000

#: the two forms of Good(x, act) (module docstring)
GOODS = ("compose", "relational")

#: the size (BDD nodes) above which T over every state is given up for T built
#: from the sources on (action bits above: gt_prisoner's is 26 577 nodes,
#: ticTacToe.kif's 3 774; below: 33 827 and 29 million)
FULL_T_MAX = 500_000


class GdlSymbolicConcurrentGame(ConcurrentEngine[BddSet], JointForward, GdlSymbolicGame):
    """:class:`~.symbolic.GdlSymbolicGame` read as a concurrent game (module docstring):
    its exploration, layers, frontier and atom sets; the concurrent pre-image and forward
    operators of its joint actions (``actions``, a
    :class:`~symbolic.bdd.concurrent.JointActions`)."""

    def __init__(
        self,
        game: GdlGame,
        backend: str = "cudd",
        *,
        order: str = "auto",
        max_memory: int | None = None,
        limits: Limits | None = None,
        depth: int | None = None,
        on_layer=None,
        good: str = "relational",
        actions: str = "above",
        fluent_order: str = "grounded",
    ):
        if good not in GOODS:
            raise QueryError(f"unknown form of Good {good!r}: the choices are {list(GOODS)}")
        if actions not in ACTION_ORDERS:
            raise QueryError(
                f"unknown action order {actions!r}: the choices are {list(ACTION_ORDERS)}"
            )
        super().__init__(
            game,
            backend,
            order=order,
            max_memory=max_memory,
            limits=limits,
            explore=False,
            depth=depth,
            fluent_order=fluent_order,
        )
        self.good = good
        m, prog = self.manager, game.program
        ids = game.names.role_id
        extra = tuple(
            ir.VarDecl(
                ir.ConcurrentGame.action_var(ids[r]), ir.IntType(0, max(1, len(prog.moves[r])) - 1)
            )
            for r in prog.roles
        )
        self.joint = Encoder(
            ir.Space(tuple(game.space.vars) + extra), Extension(m), self.encoder.bit_order
        )
        base = len(game.space.slots)
        bits = {ids[r]: frozenset(self.joint.cur[base + k]) for k, r in enumerate(prog.roles)}
        if actions == "above":
            acts = [b for r in prog.roles for b in sorted(bits[ids[r]])]
            m.reorder(acts + [n for n in m.names if n not in set(acts)])
        self._does = {}
        for k, r in enumerate(prog.roles):
            act = self.joint.integer(ir.Var(ir.ConcurrentGame.action_var(ids[r])))
            for i, mv in enumerate(prog.moves[r]):
                self._does[(r, mv)] = self.joint.int_equals(act, i)
        self._full = None
        with self.limits.stage("building the joint moves (symbolic, concurrent GDL)"):
            # each A_r and next(f) over every state, or None past the cap: then built
            # within each layer while exploring, and within the positions after
            self._whole_any, self._whole_next = self._whole_parts(JOINT_WHOLE_MAX)
        # {role id: A_r}, {bit: σ_f}, [x'_f ↔ σ_f]: over every state, or (None while
        # exploring) within the positions
        self._any, self._sigma, self._iffs = None, {}, []
        if self._whole_any is not None and None not in self._whole_next.values():
            self._any, self._sigma, self._iffs = self._joint_parts(m.true)
            self._full = self._full_relation()  # T over every state, or None when too large
        # until explored: no moves read (exploring reads them per layer or from _any)
        placeholder = {p: m.true for p in bits}
        self.actions = JointActions(m, game.players, bits, placeholder, m.false, m.true)
        self._layer_parts: dict = {}
        self._explore(depth, on_layer)

    def __repr__(self) -> str:
        return (
            f"<GdlSymbolicConcurrentGame {self.game.name!r} {self.manager.backend}: "
            f"{len(self.manager.names)} BDD variables>"
        )

    def _whole_parts(self, cap: int) -> tuple:
        """({role id: A_r} over every state, or None when one passes ``cap`` nodes in a
        step of its build; {f: next(f) over every state, or None when it passes it})."""
        m, prog = self.manager, self.game.program
        ids = self.game.names.role_id
        jw = JointWithin(self.rules, m.true, self._does, cap)
        try:
            any_: dict | None = {ids[r]: self._enabled(jw, r) for r in prog.roles}
        except _TooLarge:
            any_ = None
        nxt: dict = {}
        for f in prog.fluents:
            self.limits.check(f"next of {f!r}")
            try:
                nxt[f] = jw.capped(jw.atom(("next", (f,))))
            except _TooLarge:
                nxt[f] = None
        return any_, nxt

    def _enabled(self, jw: JointWithin, r):
        """A_r within ``jw``'s states: r's legal moves as its action bits."""
        m = self.manager
        return m.disj(
            m.and_(jw.atom(("does", (r, mv))), jw.legal(r, mv)) for mv in self.game.program.moves[r]
        )

    def _joint_parts(self, u) -> tuple:
        """({role id: A_r}, {bit: σ_f for the fluents f that a joint move may change},
        [x'_f ↔ σ_f for every f]) within the states u (module docstring): the parts built
        over every state where they are small, the others within u."""
        m, prog, rules = self.manager, self.game.program, self.rules
        ids = self.game.names.role_id
        jw = JointWithin(rules, u, self._does)
        any_ = self._whole_any
        if any_ is None:
            any_ = {ids[r]: self._enabled(jw, r) for r in prog.roles}
        sigma, iffs = {}, []
        for f in prog.fluents:
            self.limits.check(f"next of {f!r}")
            e = self._whole_next[f]
            if e is None:  # within u: unchanged when it is x_f on u
                e = jw.atom(("next", (f,)))
                if e != m.and_(u, rules.cur[f]):
                    sigma[rules.bit[f]] = e
            elif e != rules.cur[f]:
                sigma[rules.bit[f]] = e
            iffs.append(m.iff(rules.nxt[f], e))
        return any_, sigma, iffs

    def image(self, layer: BddSet) -> BddSet:
        """post(F): every joint move of the non-terminal states of F (no turn rule)."""
        m, enc = self.manager, self.encoder
        live = Within(self.rules, layer.node).not_terminal()
        self.limits.check("image of a layer (every joint move)")
        if self._any is None:  # the joint moves within the layer
            any_, sigma, iffs = self._joint_parts(live)
        else:
            any_, sigma, iffs = self._any, self._sigma, self._iffs
        src = m.conj([live] + list(any_.values()))
        acts = self.actions.all_bits()
        if self._full is not None:
            img = m.and_exists(src, self._full, enc.current_set | acts)
        else:
            changed = {self.rules.fluent_of_bit[b]: e for b, e in sigma.items()}
            cases = self.rules.split_cases(src, changed, CASE_DEPTH, acts)
            if cases is not None:  # each joint move's part a renaming of the state
                parts = (self.rules.case_image(p, simple) for p, simple in cases)
                img = m.exist(m.disj(parts, check=self.limits.check), acts)
                return BddSet._make(self, m.and_(img, self._domain))
            img = m.exist(self._relation(src, iffs), enc.current_set | acts)
        return BddSet._make(self, m.and_(m.rename(img, enc.to_current), self._domain))

    def _relation(self, src, iffs: list):
        """src(x, act) ∧ T(x, act, x'), and-ed one fluent at a time (``iffs``) from the
        sources: T alone is huge (29 million nodes for ticTacToe.kif, the bits of x, x'
        and act interleaved badly), T on the enabled moves of the reachable states small
        (10 504 nodes)."""
        m = self.manager
        for iff in iffs:
            self.limits.check()
            src = m.and_(src, iff)
        return src

    def _full_relation(self):
        """T_all(x, act, x') = ⋀_f (x'_f ↔ σ_f(x, act)) over every state, and-ed one
        fluent at a time, or None as soon as it exceeds :data:`FULL_T_MAX` nodes."""
        m, t = self.manager, self.manager.true
        with self.limits.stage("building T over every state"):
            for iff in self._iffs:
                self.limits.check()
                t = m.and_(t, iff)
                if m.size(t) > FULL_T_MAX:
                    return None
        return t

    def _restrict(self, node) -> None:
        """Make ``node`` (closed under δ) the domain; A_r restricted to its expanded
        non-terminal states."""
        m = self.manager
        self._set_domain(node)
        self._live = None
        live = self._expanded()
        if self._any is None:  # the joint moves within the expanded positions
            with self.limits.stage("building the joint moves within the positions"):
                self._any, self._sigma, self._iffs = self._joint_parts(live)
        enabled = {p: m.and_(live, a) for p, a in self._any.items()}
        self._layer_parts = {}
        if self._full is not None:
            trans = self._full  # the A_r (restricted) are and-ed wherever it is read
        else:  # built only for what lists moves: the pre-images then compose (_good)

            def trans():
                with self.limits.stage("building T on the enabled joint moves"):
                    return self._relation(m.conj(enabled.values()), self._iffs)

        self.actions = JointActions(m, self.game.players, self.actions.bits, enabled, trans)

    def _good(self, target: PositionSet):
        """Good(x, act): the joint move's successor is in the target (module docstring)."""
        m, enc = self.manager, self.encoder
        node = self._node_of(target)
        if self.good == "compose" or not self.actions.built:
            return self._composed(node)
        return m.and_exists(self.actions.trans, m.rename(node, enc.to_next), enc.next_set)

    def _composed(self, node):
        """Z(σ(x, act)) for Z = ``node``: Good by composition (T not read)."""
        return self.manager.compose(node, self._sigma) if self._sigma else node

    def _pre(self, J: frozenset, target: PositionSet, strict: bool) -> BddSet:
        """pre(J, Z) over the domain (:meth:`~symbolic.bdd.concurrent.JointActions.pre`)."""
        return BddSet._make(self, self.actions.pre(J, self._good(target), self._domain, strict))

    def layer_pre(self, J, reach: ReachLayers, k, ours, won, above, *, dead_ends: DeadEnds):
        """pre(J, U_{k+1}) ∩ F_k on a graded ``reach`` (the layered until): the sources
        restricted to layer k, T_k = T ∧ F_k (memoized), whose successors lie in
        F_{k+1}, so Good_k = ∃x'. T_k ∧ U'_{k+1}."""
        if not self._own_layer(reach, k):
            return super().layer_pre(J, reach, k, ours, won, above, dead_ends=dead_ends)
        m, enc = self.manager, self.encoder
        layer = reach.layers[k].node
        acts = self.actions
        hit = self._layer_parts.get(k)
        if hit is None:
            if self._full is not None:
                trans = acts.trans
            elif acts.built:
                trans = m.and_(acts.trans, layer)
            else:
                trans = None  # T not built: the pre-image composes (_good)
            hit = self._layer_parts[k] = (
                trans,
                {p: m.and_(a, layer) for p, a in acts.enabled.items()},
            )
        trans, enabled = hit
        if trans is None:
            good = self._composed(won.node)
        else:
            good = m.and_exists(trans, m.rename(won.node, enc.to_next), enc.next_set)
        return BddSet._make(self, acts.pre(J, good, layer, dead_ends is DeadEnds.STRICT, enabled))

    def deadlocks(self):
        """The positions without an enabled joint move (terminal, frontier, a role stuck):
        D ∖ ⋀_r ∃act_r. A_r, since every enabled joint move has its successor in D (σ is
        a function, D closed under it): no pre-image over D, which reads T."""
        return BddSet._make(self, self.manager.diff(self._domain, self.actions.alive))

    def bdd_sizes(self) -> dict:
        """Node counts of the domain, T and each role's A_r."""
        m = self.manager
        out = {
            "domain": m.size(self._domain),
            "T": m.size(self.actions.trans),
            "sigma": sum(m.size(e) for e in self._sigma.values()),
        }
        out.update({f"A_{p}": m.size(a) for p, a in self.actions.enabled.items()})
        return out
