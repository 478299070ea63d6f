"""The ground atoms of a GDL game within a set of states u (:class:`Within`): a ∧ u,
read from the atom's BDD over every state when that is small
(:meth:`~.symbolic_rules.RuleBdds.whole`), from its parts over every state when u is
large (:meth:`~.symbolic_rules.RuleBdds.whole_parts`), else body by body, each and-ed
into u literal by literal, so that ``terminal`` or the legal moves of a game whose
rules read many fluents are never built over all 2^n states.

>>> from ..model import load_model
>>> from ..engines import make_engine
>>> G = make_engine(load_model("gdl/ticTacToe").game)
>>> m, u = G.manager, G.positions().node
>>> Within(G.rules, u).atom(("terminal", ())) == m.and_(u, G.rules.atom(("terminal", ())))
True
"""

from __future__ import annotations

__all__ = ["PARTS_FACTOR", "PARTS_FROM", "Within"]

#: the fewest nodes of a set within which an atom is read as its parts over every state
#: (:meth:`RuleBdds.whole_parts`) rather than body by body: on smaller sets the bodies
#: and-ed one by one cost less than the parts' build
PARTS_FROM = 50_000

#: the most nodes an atom's parts over every state may take, per node of the set it is
#: read within (:meth:`Within.parts_cap`)
PARTS_FACTOR = 4


class Within:
    """The ground atoms of a game within a set of states u: ``atom(a, ctx)`` is the BDD
    of a ∧ u, memoized per atom (and joint move). An atom small over every state
    (:meth:`RuleBdds.whole`) is and-ed with u; on a large u, so are the parts over
    every state of an atom of several small bodies (:meth:`RuleBdds.whole_parts`);
    any other is the disjunction of its bodies, each and-ed into u one literal at a
    time (stopping at ∅), the atoms they read taken within u in turn: no BDD spans
    more than u, the small atoms and the parts.
    Holds no engine (only the rules and u): an engine may keep one."""

    def __init__(self, rules, u):  # rules: a RuleBdds (which imports this module)
        self.rules, self.u = rules, u
        self.m = rules.m
        self.memo: dict = {}
        self.size: int | None = None  # of u, when asked
        self.fixed_bits: dict = {}  # :meth:`fixed`
        #: {role: :meth:`RuleBdds.counts` within u}
        self.counts: dict = {}

    def atom(self, atom, ctx=None):
        """a ∧ u for the ground atom a (``ctx`` fixes ``does``, as in :meth:`RuleBdds.atom`)."""
        name, args = atom
        m, rules = self.m, self.rules
        if name == "true":
            return m.and_(self.u, rules.cur[args[0]])
        if name == "does":
            mover, move, forced = ctx
            return self.u if args[1] == (move if args[0] == mover else forced[args[0]]) else m.false
        key = (atom, rules.does.ctx_key(atom, ctx))
        hit = self.memo.get(key)
        if hit is None:
            whole = rules.whole(atom, key[1])
            if whole is not None:
                hit = m.and_(self.u, whole)
            else:
                m.limits.check()
                hit = self._from_bodies(atom, key[1])
            self.memo[key] = hit
        return hit

    def _from_bodies(self, atom, ctx):
        """a ∧ u from a's rule bodies: on a large u, as its parts over every state
        (:meth:`RuleBdds.whole_parts`) each and-ed with u, and its other bodies read
        within u; else each body read within u."""
        m, rules = self.m, self.rules
        bodies = rules.prog.rules.get(atom, ())
        split = (
            rules.whole_parts(atom, self.parts_cap())
            if ctx is None and len(bodies) > 1 and self.large()
            else None
        )
        if split is None:
            return m.disj(self.body(b, ctx) for b in bodies)
        parts, rest = split
        return m.disj([m.and_(self.u, p) for p in parts] + [self.body(b, ctx) for b in rest])

    def _size(self) -> int:
        """u's nodes, counted once."""
        if self.size is None:
            self.size = self.m.size(self.u)
        return self.size

    def large(self) -> bool:
        """Whether u has :data:`PARTS_FROM` nodes or more."""
        return self._size() >= PARTS_FROM

    def parts_cap(self) -> int:
        """The most nodes an atom's parts over every state may take to be read within
        u (:data:`PARTS_FACTOR` × u's nodes): built once, they are worth a few times u."""
        return PARTS_FACTOR * self._size()

    def fixed(self, bits: list) -> dict:
        """{bit: True when every state of u has it set, False when none has, else None}
        for ``bits`` (memoized): those not known yet read from one projection of u onto
        them (∃ the other state bits), small where u is large (a counter's bits under
        a board's), instead of two passes over u a bit."""
        ask = [b for b in bits if b not in self.fixed_bits]
        if ask:
            m = self.m
            p = m.exist(self.u, set(self.rules.bit.values()) - set(ask))
            for b in ask:
                x = m.var(b)
                hit = None
                if m.is_false(m.diff(p, x)):
                    hit = True
                elif m.is_false(m.and_(p, x)):
                    hit = False
                self.fixed_bits[b] = hit
        return {b: self.fixed_bits[b] for b in bits}

    def body(self, body, ctx=None):
        """The states of u where every literal of ``body`` holds, and-ed one by one."""
        m, v = self.m, self.u
        for kind, a in body:
            if m.is_false(v):
                break
            x = self.atom(a, ctx)
            v = m.and_(v, x) if kind == "pos" else m.diff(v, x)
        return v

    def legal(self, role, move):
        """legal(role, move) ∧ u."""
        return self.atom(("legal", (role, move)))

    def not_terminal(self):
        """u ∖ terminal."""
        return self.m.diff(self.u, self.atom(("terminal", ())))
