"""BDDs of the ground atoms of a GDL game (the rules of :mod:`.ground` over an
engine's bits), the turn rule of :mod:`.turns` as BDDs, and each joint move's
transition relation: what :class:`~.symbolic.GdlSymbolicGame` builds from.
"""

from __future__ import annotations

from ..ir import Var
from .build import DoesReads, one_two
from .game import GdlGame
from .turns import NOOP

__all__ = ["RuleBdds"]


class RuleBdds:
    """BDDs of the ground atoms of a GDL game over an engine's bits, memoized per
    atom (and per joint move for the atoms that depend on ``does``).

    A joint move is ``ctx = (r, m, forced)``: the mover r plays m and every other
    role q plays ``forced[q]``. In a turn-based state each role other than the
    mover has exactly one legal move (:mod:`~.turns`), so a set of states splits
    into disjoint parts by the others' forced moves (:meth:`by_forced_moves`) and
    ``does`` is a constant in each part: the BDDs stay those of fixed moves."""

    def __init__(self, manager, encoder, game: GdlGame):
        self.m = manager
        self.prog = game.program
        names = game.names
        self.cur = {f: encoder.boolean(Var(names.var_of[f])) for f in self.prog.fluents}
        self.nxt = {
            f: encoder.boolean(Var(names.var_of[f], primed=True), primed=True)
            for f in self.prog.fluents
        }
        self.bit = {f: encoder.slot_bits(i)[0] for i, f in enumerate(self.prog.fluents)}
        self.bit_next = {f: encoder.slot_bits(i, True)[0] for i, f in enumerate(self.prog.fluents)}
        # moves named noop first: usually every waiting role's forced move
        self.waiting_order = {
            r: sorted(self.prog.moves[r], key=lambda x: x != NOOP) for r in self.prog.roles
        }
        self.memo: dict = {}
        self.does = DoesReads(self.prog)
        self._steps: dict = {}

    def atom(self, atom, ctx=None):
        """The BDD of a ground atom; ``ctx`` = (mover, move, forced) fixes ``does``
        (memoized per role when the atom does not read the mover's move:
        :class:`~.build.DoesReads`)."""
        name, args = atom
        m = self.m
        if name == "true":
            return self.cur[args[0]]
        if name == "does":
            mover, move, forced = ctx
            return m.const(args[1] == (move if args[0] == mover else forced[args[0]]))
        key = (atom, self.does.ctx_key(atom, ctx))
        hit = self.memo.get(key)
        if hit is None:
            ctx = key[1]
            hit = m.disj(self.body(b, ctx) for b in self.prog.rules.get(atom, ()))
            self.memo[key] = hit
        return hit

    def body(self, body, ctx=None):
        m = self.m
        return m.conj(
            self.atom(a, ctx) if kind == "pos" else m.not_(self.atom(a, ctx)) for kind, a in body
        )

    def body_within(self, body, u):
        """The states of u where every literal of ``body`` holds, and-ed one by one."""
        m = self.m
        for kind, a in body:
            if m.is_false(u):
                break
            x = self.atom(a)
            u = m.and_(u, x) if kind == "pos" else m.diff(u, x)
        return u

    def legal(self, role, move):
        return self.atom(("legal", (role, move)))

    def minus_terminal(self, u):
        """u ∧ ¬terminal, subtracting the bodies of ``terminal`` one by one (cheaper
        than building the whole terminal BDD when u is small)."""
        m = self.m
        for b in self.prog.rules.get(("terminal", ()), ()):
            if m.is_false(u):
                break
            u = m.diff(u, self.body(b))
        return u

    def counts(self, role) -> tuple:
        """(≥ 1 legal move, ≥ 2 legal moves, exactly one legal move not named ``noop``)
        for ``role``, over all states (memoized: built once, then intersected with
        each layer, cheaper than intersecting each legal move with the layer)."""
        key = ("counts", role)
        if key not in self.memo:
            m = self.m
            one, two = one_two(
                [self.legal(role, mv) for mv in self.prog.moves[role]], m.or_, m.and_, m.false
            )
            busy = m.diff(one, two)
            if NOOP in self.prog.moves[role]:
                busy = m.diff(busy, self.legal(role, NOOP))
            self.memo[key] = (one, two, busy)
        return self.memo[key]

    def turns(self, u) -> tuple[dict, object, object]:
        """({role: the states of u where it is the mover}, the states of u where several
        roles have a choice, the states of u where some role has no legal move), by the
        rule of :mod:`~.turns`."""
        m, roles = self.m, self.prog.roles
        one, choice, busy = {}, {}, {}
        for r in roles:
            o, t, b = self.counts(r)
            one[r], choice[r], busy[r] = m.and_(u, o), m.and_(u, t), m.and_(u, b)
        _, two_choose = one_two([choice[r] for r in roles], m.or_, m.and_, m.false)
        stuck = m.diff(u, m.conj(one[r] for r in roles))
        nobody = m.diff(u, m.disj(choice[r] for r in roles))
        movers, chose, busied = {}, m.false, m.false
        for r in roles:
            cases = [m.diff(choice[r], chose), m.diff(m.and_(nobody, busy[r]), busied)]
            chose, busied = m.or_(chose, choice[r]), m.or_(busied, busy[r])
            movers[r] = m.disj(cases)
        first = roles[0]
        movers[first] = m.or_(movers[first], m.diff(nobody, busied))
        return movers, two_choose, stuck

    def by_forced_moves(self, u, mover):
        """[(forced, u_forced)]: u split by the legal move of each role other than
        ``mover`` (``forced`` = {role: move}); exact on turn-based states, where those
        roles have one legal move each (a state where one has several appears in each
        of its parts; :meth:`turns` reports such states first)."""
        m = self.m
        parts = [({}, u)]
        for q in self.prog.roles:
            if q == mover:
                continue
            nxt = []
            for forced, v in parts:
                rest = v
                for x in self.waiting_order[q]:
                    if m.is_false(rest):
                        break
                    w = m.and_(v, self.legal(q, x))
                    if not m.is_false(w):
                        nxt.append(({**forced, q: x}, w))
                        rest = m.diff(rest, w)
            parts = nxt
        return parts

    def changed(self, role, move, forced) -> dict:
        """{fluent: BDD of next(f) under the joint move} for the fluents it does not keep."""
        ctx = (role, move, _Forced(forced))
        key = ("changed", ctx)
        if key not in self.memo:
            out = {}
            for f in self.prog.fluents:
                e = self.atom(("next", (f,)), ctx)
                if e != self.cur[f]:
                    out[f] = e
            self.memo[key] = out
        return self.memo[key]

    def step(self, role, move, forced):
        """(legal(r, m) ∧ rel, quantified current bits, renaming x'_C → x_C) of the
        joint move (see the module docstring)."""
        key = (role, move, _Forced(forced))
        hit = self._steps.get(key)
        if hit is None:
            m = self.m
            ch = self.changed(role, move, forced)
            rel = m.conj([self.legal(role, move)] + [m.iff(self.nxt[f], e) for f, e in ch.items()])
            hit = (
                rel,
                frozenset(self.bit[f] for f in ch),
                {self.bit_next[f]: self.bit[f] for f in ch},
            )
            self._steps[key] = hit
        return hit


class _Forced(dict):
    """The forced moves of a joint move, hashable (a memo key) and readable by role."""

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=repr)))
