"""BDDs of the ground atoms of a GDL game (the rules of :mod:`.ground` over an
engine's bits), the turn rule of :mod:`.turns` as BDDs, and each joint move's
transition relation: what :class:`~.symbolic.GdlSymbolicGame` builds from.

An atom is built over every state only while that stays small
(:meth:`RuleBdds.whole`: at most :data:`WHOLE_MAX` nodes at each step); the
engine reads the atoms within a set of states instead (:class:`Within`: a ∧ u,
the rule bodies and-ed into u literal by literal), so that ``terminal`` or the
legal moves of a game whose rules read many fluents (a line of five on a board,
a sum of three cells) are built on the states of a layer, never on all 2^n
(over every state, the BDD of "some line sums to 15" keeps, cell by cell, every
subset of the values seen: numbertictactoe's ``terminal`` did not end in 30 s).

>>> from ..model import load_model
>>> from ..engines import make_engine
>>> G = make_engine(load_model("gdl/ticTacToe").game)
>>> m, u = G.manager, G.positions().node
>>> inside = Within(G.rules, u)
>>> inside.atom(("terminal", ())) == m.and_(u, G.rules.atom(("terminal", ())))
True
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from ..ir import Var
from .build import DoesReads, checked, merged_parts, one_two, one_two_in_turn
from .game import GdlGame
from .turns import NOOP
from .within import Within

__all__ = [
    "CASE_DEPTH",
    "CASE_TESTS",
    "Negated",
    "PART_MAX",
    "PARTS_BUDGET",
    "RuleBdds",
    "WHOLE_MAX",
]

#: the most bits :meth:`RuleBdds.cases` splits a move's sources on
CASE_DEPTH = 6

#: the most bits :meth:`RuleBdds.cases` tests on a part in one round for being fixed there
#: (each test costs a pass over the part)
CASE_TESTS = 48

#: the most BDD nodes of an atom built over every state (and of each step of
#: its build): a larger one is read within each set of states instead
WHOLE_MAX = 4_000

#: :meth:`RuleBdds.whole_parts`: the most nodes of a part; of the parts together, or
#: of a step of :meth:`RuleBdds.whole_counts`, whatever the set they are read within
PART_MAX = 1 << 21
PARTS_BUDGET = 1 << 23


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
        self.fluent_of_bit = {b: f for f, b in self.bit.items()}
        # moves named noop first: usually every waiting role's forced move
        self.waiting_order = {
            r: sorted(self.prog.moves[r], key=lambda x: x != NOOP) for r in self.prog.roles
        }
        self.memo: dict = {}
        self.whole_memo: dict = {}
        self.parts_memo: dict = {}
        self.counts_memo: dict = {}
        self.does = DoesReads(self.prog)
        self._steps: dict = {}
        self._shifts: dict = {}
        self._no_cases: set = set()  # the joint moves :meth:`cases` gave up on

    def atom(self, atom, ctx=None):
        """The BDD of a ground atom over every state, whatever its size; ``ctx`` =
        (mover, move, forced) fixes ``does`` (memoized per role when the atom does
        not read the mover's move: :class:`~.build.DoesReads`). The engines read
        atoms :class:`Within` a set of states instead."""
        m = self.m
        if atom[0] in ("true", "does"):
            return self.leaf(atom, ctx)
        key = (atom, self.does.ctx_key(atom, ctx))
        hit = self.memo.get(key)
        if hit is None:
            ctx = key[1]
            hit = m.disj(self.body(b, ctx) for b in self.prog.rules.get(atom, ()))
            self.memo[key] = hit
        return hit

    def leaf(self, atom, ctx=None):
        """The BDD of ``(true f)`` (the current bit of f) or of ``(does r m)`` under the
        joint move ``ctx`` (a constant)."""
        name, args = atom
        if name == "true":
            return self.cur[args[0]]
        mover, move, forced = ctx
        return self.m.const(args[1] == (move if args[0] == mover else forced[args[0]]))

    def body(self, body, ctx=None):
        m = self.m
        return m.conj(
            self.atom(a, ctx) if kind == "pos" else m.not_(self.atom(a, ctx)) for kind, a in body
        )

    def whole(self, atom, ctx=None):
        """The BDD of a ground atom over every state when it and each step of its build
        (an and of a body, an or of bodies) stay within :data:`WHOLE_MAX` nodes and so
        do the atoms it reads; None otherwise (memoized either way)."""
        if atom[0] in ("true", "does"):
            return self.leaf(atom, ctx)
        key = (atom, self.does.ctx_key(atom, ctx))
        try:
            return self.whole_memo[key]
        except KeyError:
            pass
        hit = self.memo.get(key)
        if hit is None:
            hit = self._build_whole(atom, key[1])
        self.whole_memo[key] = hit
        return hit

    def _build_whole(self, atom, ctx):
        m = self.m
        out = m.false
        for body in self.prog.rules.get(atom, ()):
            b = self._whole_body(body, ctx)
            if b is None:
                return None
            out = m.or_(out, b)
            if m.size(out) > WHOLE_MAX:
                return None
        return out

    def _whole_body(self, body, ctx):
        """A rule body over every state while each step stays within :data:`WHOLE_MAX`
        nodes (and so do the atoms it reads), else None."""
        m = self.m
        b = m.true
        for kind, a in body:
            x = self.whole(a, ctx)
            if x is None:
                return None
            b = m.and_(b, x) if kind == "pos" else m.diff(b, x)
            if m.is_false(b):
                break
            if m.size(b) > WHOLE_MAX:
                return None
        return b

    def whole_parts(self, atom, cap: int):
        """(parts, rest): an atom not reading ``does`` as the disjunction of a few BDDs
        over every state (its bodies small there, merged by :func:`~.build.merged_parts`
        into parts of at most :data:`PART_MAX` nodes) and of the bodies that are not
        small (``rest``); None when the parts pass ``cap`` nodes together (at most
        :data:`PARTS_BUDGET`). Memoized, a failure with its cap: tried again only with
        twice that cap. peg's ``terminal`` = ¬moveable: 76 jumps, 781 984 nodes over
        every state, built once and and-ed with each layer in one step, against 76 ands
        and 75 ors of the layer's size."""

        def build(cap):
            m, small, rest = self.m, [], []
            for body in self.prog.rules.get(atom, ()):
                b = self._whole_body(body, None)
                if b is None:
                    rest.append(body)
                elif not m.is_false(b):
                    small.append(b)
            or_ = checked(m.limits.check, m.or_)
            parts = merged_parts(small, or_, m.size, min(PART_MAX, cap), cap)
            return None if parts is None else (parts, rest)

        return _attempt(self.parts_memo, atom, min(cap, PARTS_BUDGET), build)

    def legal(self, role, move):
        return self.atom(("legal", (role, move)))

    def counts(self, role, scope: "Within") -> tuple:
        """(≥ 1 legal move, ≥ 2 legal moves, exactly one legal move not named ``noop``)
        for ``role``, within ``scope`` (each legal move built there: over every state
        their disjunctions grow beyond any layer, cubicup's for 50 s)."""
        hit = scope.counts.get(role)
        if hit is not None:  # the engine asks again over its domain: the dead ends
            return hit
        m = self.m
        whole = self.whole_counts(role, scope.parts_cap()) if scope.large() else None
        if whole is not None:
            one, two = (m.and_(scope.u, x) for x in whole)
        else:
            legal = (scope.legal(role, mv) for mv in self.prog.moves[role])
            one, two = one_two([x for x in legal if not m.is_false(x)], m.or_, m.and_, m.false)
        busy = m.diff(one, two)
        if NOOP in self.prog.moves[role]:
            busy = m.diff(busy, scope.legal(role, NOOP))
        hit = scope.counts[role] = (one, two, busy)
        return hit

    def whole_counts(self, role, cap: int):
        """(≥ 1 legal move, ≥ 2 legal moves) of ``role`` over every state, when each legal
        move is small there (:meth:`whole`) and each step of
        :func:`~.build.one_two_in_turn` stays within ``cap`` nodes (at most
        :data:`PARTS_BUDGET`); else None (memoized as :meth:`whole_parts`). Read within
        a large set by one and each (peg: ≥ 2 of 76 jumps, 3 079 364 nodes), move by move."""

        def build(cap):
            m = self.m
            legal = [self.whole(("legal", (role, mv))) for mv in self.prog.moves[role]]
            if any(x is None for x in legal):
                return None

            def capped(op):
                def apply(a, b):
                    m.limits.check()
                    x = op(a, b)
                    if m.size(x) > cap:
                        raise _TooLarge
                    return x

                return apply

            with contextlib.suppress(_TooLarge):
                items = [x for x in legal if not m.is_false(x)]
                return one_two_in_turn(items, capped(m.or_), capped(m.and_), m.false)
            return None

        return _attempt(self.counts_memo, role, min(cap, PARTS_BUDGET), build)

    def turns(self, u, scope: "Within | None" = None) -> tuple[dict, object, object]:
        """({role: the states of u where it is the mover}, the states of u where several
        roles have a choice, the states of u where some role has no legal move), by the
        rule of :mod:`~.turns`; the legal moves read within ``scope`` (a set holding u;
        u itself when not given)."""
        m, roles = self.m, self.prog.roles
        if scope is None:
            scope = Within(self, u)
        one, choice, busy = {}, {}, {}
        for r in roles:
            o, t, b = self.counts(r, scope)
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

    def by_forced_moves(self, u, mover, scope: "Within"):
        """[(forced, u_forced)]: u split by the legal move of each role other than
        ``mover`` (``forced`` = {role: move}; the legal moves read within ``scope``, a
        set holding u); exact on turn-based states, where those roles have one legal
        move each (a state where one has several appears in each of its parts;
        :meth:`turns` reports such states first)."""
        m = self.m
        parts: list[tuple[dict, object]] = [({}, u)]
        for q in self.prog.roles:
            if q == mover:
                continue
            nxt = []
            for forced, v in parts:
                rest = v
                for x in self.waiting_order[q]:
                    if m.is_false(rest):
                        break
                    w = m.and_(v, scope.legal(q, x))
                    if not m.is_false(w):
                        nxt.append(({**forced, q: x}, w))
                        rest = m.diff(rest, w)
            parts = nxt
        return parts

    def _whole_step(self, role, move, forced) -> tuple:
        """(⋀ (f' ↔ next(f)) over the fluents whose ``next`` under the joint move is small
        over every state and not ``true(f)``, or None when that conjunction grows past
        :data:`WHOLE_MAX` nodes (snake's moves change every cell); its factors; those
        fluents {f: next(f)}; the other fluents: those whose ``next`` is read within a
        set of states), memoized."""
        ctx = (role, move, _Forced(forced))
        hit = self._steps.get(ctx)
        if hit is None:
            m = self.m
            changed, local = {}, []
            for f in self.prog.fluents:
                e = self.whole(("next", (f,)), ctx)
                if e is None:
                    local.append(f)
                elif e != self.cur[f]:
                    changed[f] = e
            iffs = [m.iff(self.nxt[f], e) for f, e in changed.items()]
            rel = m.true
            for x in iffs:
                rel = m.and_(rel, x)
                if m.size(rel) > WHOLE_MAX:  # and-ed from the sources on instead
                    rel = None
                    break
            hit = self._steps[ctx] = (rel, iffs, changed, tuple(local))
        return hit

    def step(self, role, move, forced, src, scope: "Within") -> tuple:
        """(rel, {f: next(f)}) of the joint move from the states of ``src`` (within
        ``scope``, a set holding them): the fluents it changes there with their next
        value, exact on ``src`` (the others keep theirs), and rel = ⋀ (f' ↔ next(f))
        over those fluents, to be and-ed with ``src``."""
        rel, iffs, whole, _ = self._whole_step(role, move, forced)
        m = self.m
        if rel is None:  # src ∧ each factor in turn: no BDD larger than the moves from src
            rel = src
            for x in iffs:
                m.limits.check()
                rel = m.and_(rel, x)
        changed = self.changes(role, move, forced, src, scope)
        extra = [m.iff(self.nxt[f], e) for f, e in changed.items() if f not in whole]
        return (m.conj([rel] + extra) if extra else rel), changed

    def changes(self, role, move, forced, src, scope: "Within") -> dict:
        """{f: next(f)} over the fluents the joint move changes on the states of ``src``
        (:meth:`step`'s, without its relation: what a pre-image composes)."""
        _, _, changed, local = self._whole_step(role, move, forced)
        if not local:
            return changed
        m = self.m
        ctx = (role, move, _Forced(forced))
        changed = dict(changed)
        for f in local:
            e = scope.atom(("next", (f,)), ctx)
            if m.and_(src, e) != m.and_(src, self.cur[f]):
                changed[f] = e
        return changed

    def shift(self, role, move, forced) -> tuple | None:
        """The joint move as a renaming, when it is one: every fluent f it changes gets
        either a constant or the value of another fluent g(f) it changes, g one-to-one
        (a pancake flip permutes the order atoms, a step counter shifts by one). Then
        its image from src is ∃x_L. src renamed x_g(f) → x'_f, and-ed with the constants
        x'_f = c, renamed x' → x (L: the changed fluents no f reads), with no relation
        built. (L's bits, {x_g(f): x'_f}, the cube of the constants over x', {x'_f: x_f}),
        or None (a fluent read within a set of states, a value that is not a plain
        fluent or constant, two fluents reading one), memoized."""
        ctx = (role, move, _Forced(forced))
        if ctx in self._shifts:
            return self._shifts[ctx]
        m = self.m
        _, _, changed, local = self._whole_step(role, move, forced)
        hit = None
        if not local:
            source = {self.cur[f]: f for f in changed}
            moved: dict = {}
            fixed: dict = {}
            for f, e in changed.items():
                g = source.get(e)
                if g is not None and self.bit[g] not in moved:
                    moved[self.bit[g]] = self.bit_next[f]
                elif m.is_false(e) or e == m.true:
                    fixed[self.bit_next[f]] = not m.is_false(e)
                else:
                    break
            else:
                lost = frozenset(self.bit[f] for f in changed) - moved.keys()
                back = {self.bit_next[f]: self.bit[f] for f in changed}
                hit = (lost, moved, m.cube(fixed), back)
        self._shifts[ctx] = hit
        return hit

    def cases(
        self, role, move, forced, src, max_depth: int = CASE_DEPTH, scope: Within | None = None
    ) -> list | None:
        """The joint move from ``src`` as a few renamings: src split by the values of a
        few bits into parts P where every fluent f the move changes gets, on each state
        of P, a constant or the value of one fluent (next(f) ≡ c or next(f) ≡ ±x_g on P).
        Each ``next`` is cofactored by the bits fixed on P: those split on, and those P
        implies (an invariant of the states, one blank on a board, holds on P). The bit
        split on is the one the most ``next`` not yet simple read, at most ``max_depth``
        deep. [(P, {f: True | False | g | Negated(g)})], f absent when unchanged on P;
        None when the move reads a fluent within a set (a ``next`` too large over every
        state) or a part is still not simple at the deepest split (then for every later
        src too: the move's ``next`` are the same from layer to layer): the move's
        relation is then and-ed into src instead. ``scope``: a set holding src, whose
        fixed bits (:meth:`~.within.Within.fixed`) are fixed on every part.

        eightPuzzle's (move 2 2): every cell's ``next`` reads whether some blank lies
        elsewhere; split on the blank bits of (2 2)'s neighbours, each part slides one
        tile (a renaming of 18 bits) and keeps the other 63."""
        ctx = (role, move, _Forced(forced))
        _, _, changed, local = self._whole_step(role, move, forced)
        if local or not changed or ctx in self._no_cases:
            return None
        out = self.split_cases(src, changed, max_depth, scope=scope)
        if out is None:  # not tried again: a move's next do not change from layer to layer
            self._no_cases.add(ctx)
        return out

    def split_cases(
        self, src, changed: dict, max_depth: int, also=frozenset(), scope: Within | None = None
    ) -> list | None:
        """:meth:`cases` of the functions ``changed`` ({f: next(f) as a BDD}) from src,
        splitting on fluent bits and on the bits ``also`` (a concurrent game's action
        bits, which the ``next`` read); ``scope`` as in :meth:`cases`."""
        m = self.m
        out: list = []
        todo: list = [(src, {}, {}, changed, {}, 0)]
        while todo:  # a part inherits its parent's simple values and open next
            part, fixed, simple, open_, new, depth = todo.pop()
            m.limits.check()
            simple, open_, fixed, read = self._classify(part, simple, open_, fixed, new, scope)
            if not open_:
                out.append((part, simple))
                continue
            var = self._split_bit(read, fixed, also)
            if depth >= max_depth or var is None:
                return None
            for value in (True, False):
                sub = m.and_(part, m.var(var) if value else m.not_(m.var(var)))
                if not m.is_false(sub):
                    todo.append(
                        (sub, {**fixed, var: value}, simple, open_, {var: value}, depth + 1)
                    )
        return out

    def _classify(self, part, simple: dict, open_: dict, fixed: dict, new: dict, scope) -> tuple:
        """(``simple`` with the values found simple on part, {f: next(f) cofactored, not
        simple}, the bits fixed on part: ``fixed``, ``new`` and those part implies among
        the bits the open ``next`` read, {bit: how many open ``next`` read it} (0 for the
        bits of the fluents the simple values read)): :meth:`cases`'s test of one part, cofactoring
        the ``open_`` ones by ``new`` and again while part implies more bits (a simple
        value stays true on part once cofactored). A bit fixed on ``scope`` (a set
        holding part, or None) is read there: once a layer, not once a move."""
        m = self.m
        fixed = {**fixed, **new}
        simple = dict(simple)
        while True:
            still: dict = {}
            for f, e in open_.items():
                e = m.restrict(e, new) if new else e
                value = self._simple(f, e)
                if value is None:
                    still[f] = e
                elif value is not f:
                    simple[f] = value
            open_ = still
            new = {}
            read: dict = {}
            for e in open_.values():
                for name in m.support(e):
                    read[name] = read.get(name, 0) + 1
            for v in simple.values():
                if _source(v) is not None:
                    read.setdefault(self.bit[_source(v)], 0)
            ask = sorted(read.keys() - fixed.keys(), key=lambda n: (-read[n], str(n)))
            ask = ask[:CASE_TESTS]  # the bits the most open next read first
            known = {} if scope is None else scope.fixed(ask)
            for name in ask:
                value = known.get(name)
                if value is not None:
                    new[name] = value
                    continue
                x = m.var(name)
                if m.is_false(m.diff(part, x)):
                    new[name] = True
                elif m.is_false(m.and_(part, x)):
                    new[name] = False
            if not new:
                return simple, open_, fixed, read
            fixed.update(new)
            for f, v in simple.items():  # a fluent fixed on part is a constant there
                g = _source(v)
                if g is not None and self.bit[g] in new:
                    simple[f] = new[self.bit[g]] != isinstance(v, Negated)

    def _simple(self, f, e):
        """f itself when e = next(f) is x_f, True / False when it is that constant, g or
        Negated(g) when it is x_g or ¬x_g; else None."""
        m = self.m
        if e == self.cur[f]:
            return f
        if m.is_false(e) or m.is_true(e):
            return m.is_true(e)
        hit = m.branch(e)
        if hit is None:
            return None
        name, low, high = hit
        g = self.fluent_of_bit.get(name)
        if g is None or not (m.is_false(low) or m.is_true(low)) or low == high:
            return None
        if m.is_true(high) and m.is_false(low):
            return g
        if m.is_false(high) and m.is_true(low):
            return Negated(g)
        return None

    def _split_bit(self, read: dict, fixed: dict, also=frozenset()):
        """The bit (a fluent's, or one of ``also``) that the most open ``next`` read
        (``read``: :meth:`_classify`'s counts; ties: the first by name), not yet in
        ``fixed``; None when they read none."""
        count = {
            name: n
            for name, n in read.items()
            if n and name not in fixed and (name in self.fluent_of_bit or name in also)
        }
        if not count:
            return None
        return min(count, key=lambda name: (-count[name], str(name)))

    def case_image(self, part, simple: dict):
        """The successors of the states of ``part`` where each changed fluent f takes
        ``simple[f]`` (:meth:`cases`): the sources renamed x_g → x'_f where g is
        itself changed and read once, the constants a cube, any other value (a fluent
        kept, read twice, or negated) an equivalence and-ed in first; then x' → x."""
        m = self.m
        moved: dict = {}
        fixed: dict = {}
        extra = []
        for f, v in simple.items():
            if v is True or v is False:
                fixed[self.bit_next[f]] = v
            elif not isinstance(v, Negated) and v in simple and self.bit[v] not in moved:
                moved[self.bit[v]] = self.bit_next[f]
            else:
                x = m.not_(self.cur[v.fluent]) if isinstance(v, Negated) else self.cur[v]
                extra.append(m.iff(self.nxt[f], x))
        q = part
        for x in extra:
            q = m.and_(q, x)
        lost = frozenset(self.bit[f] for f in simple) - moved.keys()
        q = m.and_(m.rename(m.exist(q, lost), moved), m.cube(fixed))
        return m.rename(q, {self.bit_next[f]: self.bit[f] for f in simple})

    def image_parts(self, role, move, forced, src, scope: "Within") -> tuple:
        """(src ∧ rel, quantified current bits, renaming x'_C → x_C) of the joint move
        from ``src`` (:meth:`step`): its image is ∃x_C. (src ∧ rel), renamed."""
        rel, changed = self.step(role, move, forced, src, scope)
        return (
            rel,
            frozenset(self.bit[f] for f in changed),
            {self.bit_next[f]: self.bit[f] for f in changed},
        )


def _source(value):
    """The fluent a simple value of :meth:`RuleBdds.cases` reads (g for g and Negated(g)),
    None for a constant."""
    if value is True or value is False:
        return None
    return value.fluent if isinstance(value, Negated) else value


@dataclass(frozen=True)
class Negated:
    """The value ¬x_g of a changed fluent on a part of :meth:`RuleBdds.cases`."""

    fluent: object


def _attempt(memo: dict, key, cap: int, build):
    """``build(cap)`` memoized under ``key``: a result kept, a failure (None) kept as
    its cap, and built again only for a cap twice as large (the sets a solution reads
    within grow layer after layer: the tries cost a geometric sum)."""
    hit = memo.get(key)
    if hit is not None and not isinstance(hit, int):
        return hit
    if hit is not None and cap < 2 * hit:
        return None
    out = build(cap)
    memo[key] = cap if out is None else out
    return out


class _TooLarge(Exception):
    """A step of :meth:`RuleBdds.whole_counts` passed its cap of nodes."""


class _Forced(dict):
    """The forced moves of a joint move, hashable (a memo key) and readable by role."""

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=repr)))
