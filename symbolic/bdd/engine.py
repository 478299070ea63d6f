"""The symbolic engine: position sets as BDDs, δ as a partitioned BDD relation.

``SymbolicSets`` implements :class:`symbolic.api.SetEngine` and
``SymbolicGame`` implements :class:`symbolic.api.GameEngine` over one
:class:`~symbolic.bdd.backend.Manager` each (never a global one).

Notation: x are the current bits, x' the next bits, D(x) the domain (every
slot in range and the invariant), δ(x, x') = ⋁_i δ_i(x, x') the transition
relation split into parts (one per move, or one in all).

- pre∃(J, τ) = T_J(x) ∧ ⋁_i ∃x'. (δ_i ∧ τ[x := x'])          (relational product)
- pre∀(J, τ) = D ∧ ¬T_J ∧ ¬⋁_i ∃x'. (δ_i ∧ ¬τ[x := x'])   (its dual), and with
  ``DeadEnds.STRICT`` also ∧ ∃x'. δ.
"""
from __future__ import annotations

import itertools
from typing import Any, Iterable, Iterator

from .. import api
from ..api import (DeadEnds, Fixpoint, GameEngine, MoveRelation, PositionSet, SetEngine,
                   check_dead_ends)
from ..arguments import need, need_int, need_iterable
from ..errors import EngineMismatch, QueryError, RangeError
from ..ir import TRUE, Expr, Game, Space, conj, conjuncts
from ..limits import Limits
from ..validate import check_expr, check_game
from .backend import Manager
from .encode import Encoder, slot_sequence

PARTITIONS = ("moves", "monolithic")

# order="auto" on a game with the cudd backend (autoref keeps encode.choose_order): the
# layout is chosen by measurement (SymbolicGame._choose_layout)
# on spaces of more than PROBE_MIN_BITS position bits, from PROBE_STEPS attractor
# iterates (stopping once one exceeds PROBE_MAX_NODES nodes); sliced layouts are
# candidates only with at most PROBE_SLICED_RAGGED ranges that are not powers of two.
PROBE_MIN_BITS = 20
# 16 steps, not 8: after 8 steps classic Nim(4, 63) measures slots 575 nodes against
# sliced 752, yet sliced runs 45× faster; after 16 sliced is already smaller (1 271
# against 1 600). With 8 steps a margin of 2 was needed, which kept ENS Nim(3, 5, 63)
# in sliced (28 269 against 16 742 nodes), 207 s of fixpoint against 19 s in slots.
PROBE_STEPS = 16
#: beyond this many BDD variables the layout is not measured: each shuffle of the
#: scratch manager costs time that grows with the variables (0.6 s at 3 000 here)
PROBE_MAX_BITS = 512
# Shuffling costs about (nodes × variables²): above this many nodes in δ's parts and
# the probe sets together, the probe stops (δ alone above it: no choice, the
# encoder's rule stands). Connect Four 4 × 4: 8 shuffles of 45 000 nodes took 20 s.
PROBE_MAX_NODES = 20_000
PROBE_SLICED_RAGGED = 6
PROBE_MARGIN = 1.25

# autoref never frees dead nodes by itself; a collection every few fixpoint
# steps keeps its node table from growing with every iteration.
_AUTOREF_GC_EVERY = 16
# Renamed targets kept per game (a few nodes: bounded memory).
_RENAME_CACHE = 8


class BddSet(PositionSet):
    """A set of positions of one :class:`SymbolicSets` engine, held as a BDD over the
    current bits, always inside the engine's domain.

    ``BddSet(engine, node)`` checks that ``node`` belongs to the engine's manager
    and mentions only current bits, and intersects it with the domain.
    ``node`` is the BDD, for advanced use.
    """

    __slots__ = ("engine", "node")

    def __init__(self, engine: "SymbolicSets", node):
        if not isinstance(engine, SymbolicSets):
            raise EngineMismatch(f"not a symbolic engine: {engine!r}")
        m = engine.manager
        m.check(node)
        extra = m.support(node) - engine.encoder.current_set
        if extra:
            raise QueryError(
                f"a position set may only mention current bits, not {sorted(extra)[:5]}")
        self.engine = engine
        self.node = m.and_(node, engine._domain)

    @classmethod
    def _make(cls, engine: "SymbolicSets", node) -> "BddSet":
        """Wrap ``node`` (already inside the domain) without checks: the hot path."""
        s = object.__new__(cls)
        s.engine = engine
        s.node = node
        return s

    def count(self) -> int:
        """|S| as an exact Python int (``len`` cannot exceed sys.maxsize)."""
        e = self.engine
        return e.manager.exact_count(self.node, len(e.encoder.current_bits))

    def is_empty(self) -> bool:
        """S = ∅, by node comparison (no counting)."""
        return self.engine.manager.is_false(self.node)

    def _contains(self, pos: tuple) -> bool:
        e = self.engine
        return e.manager.is_true(e.manager.restrict(self.node, e.encoder.assignment(pos)))

    def tuples(self) -> list[tuple]:
        """All positions as tuples, sorted lexicographically (enumerates the set)."""
        e = self.engine
        dec = e.encoder.decode
        return sorted(dec(a) for a in e.manager.assignments(self.node, e.encoder.current_bits))

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.tuples())

    def first(self) -> tuple | None:
        """The lexicographically smallest position, found without enumerating the set."""
        return self.engine.encoder.first_position(self.node)

    def _take(self, n: int) -> Iterator[tuple]:
        """The n smallest positions, in order: the smallest, then the smallest of
        the rest without it, ... (a few BDD operations per position, none per
        position left out)."""
        e = self.engine
        m, enc = e.manager, e.encoder
        rest = self.node
        for _ in range(n):
            pos = enc.first_position(rest)
            if pos is None:
                return
            yield pos
            rest = m.diff(rest, enc.position_cube(pos))

    def _union(self, other: "BddSet") -> "BddSet":
        return BddSet._make(self.engine, self.engine.manager.or_(self.node, other.node))

    def _inter(self, other: "BddSet") -> "BddSet":
        return BddSet._make(self.engine, self.engine.manager.and_(self.node, other.node))

    def _diff(self, other: "BddSet") -> "BddSet":
        return BddSet._make(self.engine, self.engine.manager.diff(self.node, other.node))

    def __invert__(self) -> "BddSet":
        e = self.engine
        return BddSet._make(e, e.manager.diff(e._domain, self.node))

    def _same(self, other: "BddSet") -> bool:
        return self.node == other.node  # canonical BDDs: same function, same node

    def __repr__(self) -> str:
        n = self.count()
        shown = self.tuples()[:5] if n <= 10_000 else [self.first()]
        more = ", ..." if n > len(shown) else ""
        return (f"<{self.engine.kind} PositionSet of {n}: "
                f"{', '.join(map(str, shown))}{more}>")


class BddRelation(MoveRelation):
    """A set of moves of a :class:`SymbolicGame` as one BDD R(x, x') ⊆ δ."""

    __slots__ = ("engine", "node")

    def __init__(self, engine: "SymbolicGame", node):
        self.engine = engine
        self.node = node

    def count(self) -> int:
        """|R| exactly: R is a set of assignments to current and next bits."""
        e = self.engine
        return e.manager.exact_count(self.node, 2 * len(e.encoder.current_bits))

    def is_empty(self) -> bool:
        return self.engine.manager.is_false(self.node)

    def pairs(self) -> list[tuple[tuple, tuple]]:
        e = self.engine
        enc = e.encoder
        out = []
        for a in e.manager.assignments(self.node, enc.order):
            cur = enc.decode({b: v for b, v in a.items() if b in enc.current_set})
            nxt = enc.decode({enc.to_current[b]: v for b, v in a.items() if b in enc.next_set})
            out.append((cur, nxt))
        return sorted(out)

    def sources(self) -> BddSet:
        """∃x'. R."""
        e = self.engine
        return BddSet._make(e, e.manager.exist(self.node, e.encoder.next_set))

    def image(self, source: PositionSet) -> BddSet:
        """(∃x. R ∧ S)[x' := x]."""
        e = self.engine
        m, enc = e.manager, e.encoder
        u = m.and_exists(self.node, e._node_of(source), enc.current_set)
        return BddSet._make(e, m.rename(u, enc.to_current))

    def restrict(self, source: PositionSet) -> "BddRelation":
        e = self.engine
        return BddRelation(e, e.manager.and_(self.node, e._node_of(source)))

    def pick(self) -> "BddRelation":
        """The smallest successor of each source, bit by bit: the next bits in slot
        order, most significant first (values are stored as v − lo, so this is the
        lexicographic order of position tuples). At bit b, with B the bits from b on:
        R := R ∧ ¬(b ∧ ∃B. (R ∧ ¬b)) — keep b = 1 only where no choice has b = 0."""
        e = self.engine
        m, enc = e.manager, e.encoder
        bits = [enc.nxt[i][k] for i, w in enumerate(enc.widths) for k in reversed(range(w))]
        r = self.node
        for n, b in enumerate(bits):
            v = m.var(b)
            zero = m.exist(m.diff(r, v), bits[n:])
            r = m.diff(r, m.and_(v, zero))
        return BddRelation(e, r)

    def _union(self, other: "BddRelation") -> "BddRelation":
        return BddRelation(self.engine, self.engine.manager.or_(self.node, other.node))

    def _same(self, other: "BddRelation") -> bool:
        return self.node == other.node


class SymbolicSets(SetEngine):
    """Sets of positions of ``space`` as BDDs (ENS 2005, Q2–Q4).

    The domain D = {c | every slot in range} ∩ {c | invariant(c)}; every set,
    complement, count and enumeration lives inside D. ``order`` is the bit order
    (``"auto"``, ``"sliced"`` or ``"slots"``, see :mod:`symbolic.bdd.encode`).
    ``limits`` (:class:`symbolic.limits.Limits`) bounds time and memory;
    ``max_memory`` (bytes) overrides its memory cap.
    """

    kind = "symbolic"

    def __init__(self, space: Space, backend: str = "cudd", invariant: Expr = TRUE, *,
                 order: str = "auto", max_memory: int | None = None,
                 limits: Limits | None = None):
        self.space = need(space, Space, "the space (model.game.space)")
        need(invariant, Expr, "the invariant (a symbolic.ir expression)")
        self.limits = limits = need(limits, Limits, "limits", none=True) or Limits()
        # bytes, as CUDD counts them (a size_t)
        need_int(max_memory, "max_memory (bytes)", low=1, high=2 ** 64 - 1, none=True)
        if max_memory is None:
            max_memory = limits.max_memory_bytes
        self.manager = Manager(backend, max_memory=max_memory, limits=limits)
        self.encoder = Encoder(space, self.manager, order)
        self.invariant = invariant
        enc = self.encoder
        with limits.stage("building the domain"):
            self._domain = self.manager.and_(enc.domain(),
                                             enc.boolean(check_expr(invariant, space)))
        self._domain_next = None

    def __repr__(self) -> str:
        return (f"<SymbolicSets {self.manager.backend}: "
                f"{len(self.space.slots)} slots, {len(self.encoder.order)} BDD variables>")

    @property
    def backend(self) -> str:
        """The BDD backend name, ``"cudd"`` or ``"autoref"``."""
        return self.manager.backend

    def domain_next(self):
        """D(x'): the domain over the next bits (cached)."""
        if self._domain_next is None:
            self._domain_next = self.manager.rename(self._domain, self.encoder.to_next)
        return self._domain_next

    # ------------------------------------------------------------------ SetEngine

    def wrap(self, node) -> BddSet:
        """The position set of a BDD over current bits (intersected with the domain)."""
        return BddSet(self, node)

    def _node_of(self, s: PositionSet):
        """The BDD of a set of this engine (EngineMismatch for anything else)."""
        if not isinstance(s, BddSet) or s.engine is not self:
            raise EngineMismatch(
                f"{s!r} is not a set of this engine {self!r}: convert it first")
        return self.manager.check(s.node)

    def empty(self) -> BddSet:
        """∅."""
        return BddSet._make(self, self.manager.false)

    def positions(self) -> BddSet:
        """D: every position of the domain."""
        return BddSet._make(self, self._domain)

    def from_tuples(self, tuples: Iterable) -> BddSet:
        """The set of the listed positions; out-of-range values raise RangeError, and so
        do in-range vectors that violate the invariant (they are not positions)."""
        enc = self.encoder
        m = self.manager
        tuples = need_iterable(tuples, "from_tuples: the positions")
        cubes = [enc.position_cube(self.space.check_position(t)) for t in tuples]
        u = m.disj(cubes)
        self._require_inside(u)
        return BddSet._make(self, u)

    def _require_inside(self, u) -> None:
        outside = self.manager.diff(u, self._domain)
        if not self.manager.is_false(outside):
            bad = BddSet._make(self, outside).first()
            raise RangeError(f"{bad} is not a position: the invariant is false there")

    def _from_expr(self, expr: Expr, env: dict) -> BddSet:
        """{c ∈ D | expr(c)} for a bool expression over current variables; ``env``
        binds names (constants) used in ``expr``."""
        u = self.encoder.boolean(expr, env, care=self._domain)
        return BddSet._make(self, self.manager.and_(u, self._domain))

    def convert(self, other: PositionSet) -> BddSet:
        """The same positions as a set of this engine. Sets of another symbolic engine
        over the same space are copied node by node (no enumeration)."""
        if isinstance(other, BddSet) and other.engine is self:
            return other
        if other.engine.space != self.space:
            raise EngineMismatch("cannot convert between different position spaces")
        if isinstance(other, BddSet):
            u = self.manager.copy_from(other.node)
            self._require_inside(u)
            return BddSet._make(self, u)
        return self.from_tuples(other.tuples())

    def count(self, s: PositionSet) -> int:
        """|s| exactly (also for sets beyond sys.maxsize)."""
        return BddSet._make(self, self._node_of(s)).count()


class SymbolicGame(SymbolicSets, GameEngine):
    """A :class:`symbolic.ir.Game` as BDDs: turn sets, δ in parts, pre∃/pre∀, until, release.

    ``partition="moves"`` keeps one part of δ per move; ``"monolithic"`` one
    part in all (often faster with a good bit order, see notes-dd.md).
    """

    def __init__(self, game: Game, backend: str = "cudd", partition: str = "moves", *,
                 order: str = "auto", max_memory: int | None = None,
                 limits: Limits | None = None):
        if partition not in PARTITIONS:
            raise QueryError(f"unknown partition {partition!r}: the choices are {list(PARTITIONS)}")
        check_game(game)
        super().__init__(game.space, backend, game.invariant, order=order,
                         max_memory=max_memory, limits=limits)
        self.game = game
        self.partition = partition
        m, enc, limits = self.manager, self.encoder, self.limits
        with limits.stage("building the turn sets"):
            turn = enc.integer(game.turn, care=self._domain)
            self._turn_of = {p: m.and_(enc.int_equals(turn, p), self._domain)
                             for p in game.players}
            self._coalition_cache: dict[frozenset, tuple] = {}
            self.check_turns()
        with limits.stage("building δ"), enc.closed_terms_kept():
            moves, self._sources = [], {}
            for mv in game.moves:
                built = self._move_relation(mv)
                source, rel = built if isinstance(built, tuple) else (m.true, built)
                if not m.is_true(source):
                    self._sources[mv.name] = source
                moves.append((mv.name, rel))
            limits.check(f"{len(moves)} moves built")
            self._full_parts: dict = {}
            self._parts = moves
            if partition == "monolithic":
                self._parts = [("delta", m.disj(r for _, r in self.delta_parts()))]
                self._sources = {}
            self._delta = None
            self._has_succ = m.disj(m.and_(s, m.exist(m.disj(rs), enc.next_set))
                                    for s, rs in self._grouped(self._parts))
        self._renamed: dict = {}
        self._steps = 0
        self.order_probe: dict[str, int] = {}
        # measured lazily, before the first predecessor computation: a caller that
        # only asks for successors or counts (the ENS sheet's δ(c) on a 27-bit game:
        # 0.9 s of probing) never pays for it
        self._layout_pending = (order == "auto" and backend in ("cudd", "oxidd")
                                and len(enc.current_bits) > PROBE_MIN_BITS)

    # ------------------------------------------------------------------ layout choice

    @staticmethod
    def _probe_sets(m: Manager, parts: list, tp, dom, has, to_next, next_set,
                    budget: int) -> list:
        """The first :data:`PROBE_STEPS` iterates of the first player's attractor
        towards "an opponent to move and stuck" (the shape of every win query), in
        manager ``m``: X_0 = D ∧ ¬T_p ∧ ¬∃x'.δ,
        X_{i+1} = X_i ∪ ((T_p ∧ pre∃ X_i) ∪ (¬T_p ∧ pre∀ X_i)) ∧ ∃x'.δ.
        Without such positions, the backward closure of the dead ends instead.
        Stops once the iterates hold more than ``budget`` nodes in all."""
        tn = m.diff(dom, tp)
        dead = m.diff(dom, has)
        x = m.and_(dead, tn)
        if m.is_false(x):
            x, tp, tn = dead, dom, m.false
        # δ split by the mover once, as the engine does (SymbolicGame._coalition)
        pp = [u for u in (m.and_(r, tp) for r in parts) if not m.is_false(u)]
        pn = [u for u in (m.and_(r, tn) for r in parts) if not m.is_false(u)]
        out = []
        for _ in range(PROBE_STEPS):
            nx = m.rename(x, to_next)
            ex = m.disj(m.and_exists(r, nx, next_set) for r in pp)
            esc = m.disj(m.and_exists(r, m.not_(nx), next_set) for r in pn)
            new = m.or_(x, m.and_(m.or_(ex, m.diff(tn, esc)), has))
            if new == x:
                break
            if m.shared_size(out + [new]) > budget:
                break
            x = new
            out.append(x)
        return out

    def _layout_candidates(self) -> list[tuple[str, tuple[int, ...]]]:
        """Slot sequences (declaration order, arrays reversed, most often changed
        slot first) in the slot layout, and in the sliced layout when at most
        :data:`PROBE_SLICED_RAGGED` ranges are not powers of two (the sliced domain
        grows as 2^ragged)."""
        m, enc, space = self.manager, self.encoder, self.space
        delta = self.delta()
        nbits = 2 * len(enc.current_bits)
        changed = [m.exact_count(m.diff(delta, enc.frame([i])), nbits)
                   for i in range(len(space.slots))]
        seqs = [tuple(slot_sequence(space, "slots")), tuple(slot_sequence(space, "slots-reversed")),
                tuple(sorted(range(len(space.slots)), key=lambda i: -changed[i]))]
        ragged = sum(1 for sl in space.slots if (sl.type.hi - sl.type.lo + 1) & (sl.type.hi - sl.type.lo))
        kinds = ["slots"] + (["sliced"] if ragged <= PROBE_SLICED_RAGGED else [])
        out: list = []
        for kind in kinds:
            for seq in seqs:
                if (kind, seq) not in out:
                    out.append((kind, seq))
        return out

    def _choose_layout(self) -> dict[str, int]:
        """Measure, then choose the variable layout: the shared node count of δ's parts
        and of the probe sets (:meth:`_probe_sets`) in each candidate layout
        (:meth:`_layout_candidates`); the smallest wins, and this manager's
        variables move there in place (one shuffle). The measurements run on copies
        in a scratch manager that holds nothing else, so its shuffles are cheap.
        Returns {candidate name: node count}."""
        m, enc = self.manager, self.encoder
        if len(enc.order) > PROBE_MAX_BITS:
            return {}
        in_parts = m.shared_size([r for _, r in self._parts] + list(self._sources.values()))
        if in_parts > PROBE_MAX_NODES:
            return {}
        candidates = self._layout_candidates()
        initial = (enc.bit_order, enc.slot_order)
        if len(candidates) < 2:
            return {}
        # CUDD measures for oxidd too: BDD sizes depend on the order, not the package,
        # and CUDD's shuffles and node counts are native (oxidd's would run in Python)
        scratch = Manager("cudd")
        scratch.declare(enc.order)
        parts = [scratch.copy_from(r) for _, r in self.delta_parts()]

        def layout(kind, seq):
            scratch.reorder(enc.layout(kind, seq))

        def measure(nodes):
            return {c: (layout(*c), scratch.shared_size(nodes))[1] for c in candidates}

        # the probe's fixpoint steps run in the layout where δ is smallest
        by_delta = measure(parts)
        layout(*min(candidates, key=by_delta.__getitem__))
        tp = scratch.copy_from(self._turn_of[self.game.players[0]])
        probe = self._probe_sets(scratch, parts, tp, scratch.copy_from(self._domain),
                                 scratch.copy_from(self._has_succ), enc.to_next, enc.next_set,
                                 PROBE_MAX_NODES - in_parts)
        sizes = measure(parts + probe)
        best = min(candidates, key=sizes.__getitem__)  # first of the smallest: stable
        # The probe sees only the first steps: the encoder's rule (candidates[0] or
        # its sliced twin) stands unless a candidate is PROBE_MARGIN times smaller
        # (Nim with 6 heaps 0..15: sliced 0.9 s, slots 1.8 s, measured within 1.25×).
        if initial in sizes and sizes[best] * PROBE_MARGIN > sizes[initial]:
            best = initial
        del parts, probe, tp
        enc.relayout(*best)
        self._renamed.clear()
        return {f"{kind}:{','.join(self.space.slots[i].label for i in seq)}": n
                for (kind, seq), n in sizes.items()}

    # ------------------------------------------------------------------ construction

    def _move_relation(self, move) -> tuple:
        """(S, R) with δ_move = S ∧ R: S(x) = the conjunction of the guard's top-level
        conjuncts that depend on no parameter (compiled once), and
        R = D ∧ D' ∧ ⋁_{v ∈ params} rest_v ∧ effect_v ∧ frame_v, where rest_v is the
        conjunction of the other conjuncts and frame_v keeps every slot not primed in
        effect_v. S is kept out of the relational products (early quantification:
        it mentions no next bit): Connect Four's `not over` has 1.2·10⁶ nodes on
        6 × 5, and conjoining it into each of the 30 drops made δ too large to build.
        (A subclass may return one BDD δ_move instead of a pair.)

        The split changes the order of evaluation, so it is made only when neither
        part can meet a value error anywhere (:meth:`Encoder.try_boolean`);
        otherwise the whole guard is compiled with its short-circuit semantics."""
        m, enc = self.manager, self.encoder
        names = [p.name for p in move.params]  # distinct, with tuple domains (validated)
        all_slots = range(len(self.space.slots))
        both = m.and_(self._domain, self.domain_next())
        parts = conjuncts(move.guard)
        closed = [c for c in parts if enc.is_closed(c)]
        rest = conj(c for c in parts if not enc.is_closed(c))
        source = enc.try_boolean(conj(closed)) if closed else m.true
        if source is None:
            source, rest = m.true, move.guard
        rel = m.false
        total = 1
        for p in move.params:
            total *= len(p.domain)
        for k, values in enumerate(itertools.product(*(p.domain for p in move.params)), 1):
            self.limits.check(f"move {move.name}, valuation {k} of {total}",
                              lambda: {"BDD nodes": m.size(rel)})
            env = dict(zip(names, values))
            # The guard is evaluated at every position; the effect only at pairs
            # (c, c') of positions where the guard holds and the frame keeps the
            # unprimed slots: its value errors count there only. Both are
            # compiled at every valuation so that type errors always show.
            g = enc.try_boolean(rest, env)
            s = source
            if g is None:  # value errors: the whole guard, evaluated left to right
                g, s = enc.boolean(move.guard, env, care=self._domain), m.true
            primed = enc.primed_slots(move.effect, env)
            frame = enc.frame(i for i in all_slots if i not in primed)
            care = m.and_(m.and_(g, frame), both)
            eff = enc.boolean(move.effect, env, primed=True,
                              care=lambda: m.and_(care, s))
            rel = m.or_(rel, m.and_(eff, care if s is source else m.and_(care, s)))
        return source, rel

    # ------------------------------------------------------------------ relation access

    def delta(self):
        """δ(x, x'): the whole transition relation as one BDD over current and next bits."""
        if self._delta is None:
            self._delta = self.manager.disj(r for _, r in self.delta_parts())
        return self._delta

    def delta_parts(self) -> list[tuple[str, Any]]:
        """The parts (name, BDD) whose disjunction is δ (each S ∧ R of
        :meth:`_move_relation`, conjoined on first use)."""
        out = []
        for name, r in self._parts:
            s = self._sources.get(name)
            if s is None:
                out.append((name, r))
                continue
            hit = self._full_parts.get(name)
            if hit is None or hit[0] != r:
                hit = self._full_parts[name] = (r, self.manager.and_(s, r))
            out.append((name, hit[1]))
        return out

    def _grouped(self, parts) -> list[tuple[Any, list]]:
        """[(S, [R, …])]: the relation parts ``parts`` (name, R) grouped by their
        source factor S (``true`` when none), so that δ = ⋁ S ∧ ⋁ R."""
        groups: dict = {}
        for name, r in parts:
            groups.setdefault(self._sources.get(name, self.manager.true), []).append(r)
        return list(groups.items())

    def bdd_sizes(self) -> dict[str, Any]:
        """Node counts: the domain, each part of δ, δ as a whole, and all parts shared."""
        m = self.manager
        return {
            "backend": m.backend,
            "partition": self.partition,
            "variables": len(self.encoder.order),
            "domain": m.size(self._domain),
            "parts": {name: m.size(r) for name, r in self._parts},
            "parts_shared": m.shared_size([r for _, r in self._parts]),
            "source factors": {name: m.size(s) for name, s in self._sources.items()},
            "delta": m.size(self.delta()),
        }

    def settle_layout(self) -> dict[str, int]:
        """Run the pending ``order="auto"`` measurement (:meth:`_choose_layout`) now, if
        any, and return :attr:`order_probe`. Every predecessor computation calls it
        first; sets made before stay valid (CUDD reorders in place)."""
        if self._layout_pending:
            self._layout_pending = False
            with self.limits.stage("choosing the variable order"):
                self.order_probe = self._choose_layout()
        return self.order_probe

    def _coalition(self, coalition: Iterable[int]) -> tuple:
        """(T_J, D ∧ ¬T_J, parts ∧ T_J, parts ∧ ¬T_J) for a validated coalition J, cached:
        restricting δ to the mover once makes each relational product smaller. The
        parts are grouped by source factor (:meth:`_grouped`). Every pre∃, pre∀, pre
        and fixpoint starts here, so the layout is settled here."""
        J = self.game.coalition(coalition)
        self.settle_layout()
        hit = self._coalition_cache.get(J)
        if hit is None:
            m = self.manager

            def restricted(t):
                out = []
                for s, rs in self._grouped(self._parts):
                    rs = [u for u in (m.and_(r, t) for r in rs) if not m.is_false(u)]
                    if rs:
                        out.append((s, rs))
                return out
            tj = self._turn_node(J)
            tn = m.diff(self._domain, tj)
            hit = (tj, tn, restricted(tj), restricted(tn))
            self._coalition_cache[J] = hit
        return hit

    # ------------------------------------------------------------------ GameEngine

    def _turn_node(self, J: frozenset):
        """T_J = ⋁_{p ∈ J} [t = p] ∧ D."""
        return self.manager.disj(self._turn_of[p] for p in sorted(J))

    def turn_set(self, coalition: Iterable[int]) -> BddSet:
        """tour_J = {c ∈ D | t(c) ∈ J}."""
        J = self.game.coalition(coalition)
        hit = self._coalition_cache.get(J)
        return BddSet._make(self, hit[0] if hit is not None else self._turn_node(J))

    def successors(self, pos) -> BddSet:
        """δ(c) = {c' | δ(c, c')}: ∃x. (δ ∧ [x = c]), renamed back to current bits."""
        m, enc = self.manager, self.encoder
        c = self.space.check_position(pos)
        cube = enc.position_cube(c)
        if m.is_false(m.and_(cube, self._domain)):
            raise RangeError(f"{c} is not a position: the invariant is false there")
        nxt = m.disj(m.and_exists(r, m.and_(cube, s), enc.current_set)
                     for s, rs in self._grouped(self._parts) for r in rs)
        return BddSet._make(self, m.rename(nxt, enc.to_current))

    def _exists_node(self, groups, target_next):
        """⋁_(S, Rs) S ∧ ⋁_{R ∈ Rs} ∃x'. (R ∧ τ')."""
        m, q = self.manager, self.encoder.next_set
        return m.disj(m.and_(s, m.disj(m.and_exists(r, target_next, q) for r in rs))
                      for s, rs in groups)

    def _pre_exists_node(self, key, tnext):
        return self._exists_node(key[2], tnext)

    def _pre_forall_node(self, key, tnext, dead_ends: DeadEnds):
        """T_¬J ∧ ¬∃x'. (δ_¬J ∧ ¬τ') [∧ ∃x'. δ for STRICT]."""
        m = self.manager
        escape = self._exists_node(key[3], m.not_(tnext))
        u = m.diff(key[1], escape)
        if dead_ends is DeadEnds.STRICT:
            u = m.and_(u, self._has_succ)
        return u

    def _next(self, node):
        """τ[x := x'], remembering the last few renamings: ATL evaluation and the
        public pre∃ / pre∀ often rename the same target twice in a row."""
        cache = self._renamed
        hit = cache.get(node)
        if hit is None:
            hit = self.manager.rename(node, self.encoder.to_next)
            if len(cache) >= _RENAME_CACHE:
                cache.pop(next(iter(cache)))  # oldest first: dicts keep insertion order
            cache[node] = hit
        return hit

    def pre_exists(self, coalition: Iterable[int], target: PositionSet) -> BddSet:
        """pre∃(J, τ) = {c | t(c) ∈ J ∧ ∃c' ∈ δ(c). c' ∈ τ}."""
        key = self._coalition(coalition)
        t = self._node_of(target)
        return BddSet._make(self, self._pre_exists_node(key, self._next(t)))

    def pre_forall(self, coalition: Iterable[int], target: PositionSet, *,
                   dead_ends: DeadEnds) -> BddSet:
        """pre∀(J, τ) = {c | t(c) ∉ J ∧ ∀c' ∈ δ(c). c' ∈ τ} (STRICT: and δ(c) ≠ ∅)."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        t = self._node_of(target)
        return BddSet._make(self, self._pre_forall_node(key, self._next(t), dead_ends))

    def pre(self, coalition: Iterable[int], target: PositionSet, *,
            dead_ends: DeadEnds) -> BddSet:
        """pre(J, τ) = pre∃(J, τ) ∪ pre∀(J, τ), renaming τ once."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        return BddSet._make(self, self._pre_node(key, self._node_of(target), dead_ends))

    def _pre_node(self, key, t, dead_ends: DeadEnds):
        tn = self._next(t)
        return self.manager.or_(self._pre_exists_node(key, tn),
                                self._pre_forall_node(key, tn, dead_ends))

    def _tick(self) -> None:
        self._steps += 1
        if self._steps % _AUTOREF_GC_EVERY == 0:
            self.manager.collect_garbage()

    def until(self, coalition: Iterable[int], stay: PositionSet, target: PositionSet, *,
              dead_ends: DeadEnds, keep_layers: bool = False) -> Fixpoint:
        """until(J, σ, τ) = μX. τ ∪ (σ ∩ pre(J, X)): until_0 = τ,
        until_{n+1} = until_n ∪ (pre(J, until_n) ∩ σ) (ENS 2005, Q10)."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        m = self.manager
        sigma = self._node_of(stay)
        tau = self._node_of(target)

        def step(x: BddSet) -> BddSet:
            """X ↦ X ∪ (pre(J, X) ∩ σ)."""
            self._tick()
            new = m.and_(self._pre_node(key, x.node, dead_ends), sigma)
            return BddSet._make(self, m.or_(x.node, new))

        return api.least_fixpoint(step, BddSet._make(self, tau), keep_layers=keep_layers,
                                  limits=self.limits, name="computing until (least fixpoint)",
                                  sizes=self._sizes)

    def release(self, coalition: Iterable[int], left: PositionSet, right: PositionSet, *,
                dead_ends: DeadEnds) -> Fixpoint:
        """⟨⟨J⟩⟩ f R g = νZ. g ∩ (f ∪ pre(J, Z)), iterated from Z_0 = g (each step stays
        below g, so this reaches the same greatest fixpoint as starting from all positions)."""
        check_dead_ends(dead_ends)
        key = self._coalition(coalition)
        m = self.manager
        f = self._node_of(left)
        g = self._node_of(right)

        if m.is_false(f):  # ⟨⟨J⟩⟩□g: one conjunction per step
            def step(z: BddSet) -> BddSet:
                """Z ↦ g ∩ pre(J, Z)."""
                self._tick()
                return BddSet._make(self, m.and_(g, self._pre_node(key, z.node, dead_ends)))
        else:
            def step(z: BddSet) -> BddSet:
                """Z ↦ g ∩ (f ∪ pre(J, Z))."""
                self._tick()
                return BddSet._make(
                    self, m.and_(g, m.or_(f, self._pre_node(key, z.node, dead_ends))))

        return api.greatest_fixpoint(step, BddSet._make(self, g), limits=self.limits,
                                     name="computing release (greatest fixpoint)",
                                     sizes=self._sizes)

    def _sizes(self, s: BddSet) -> dict:
        """Sizes of a fixpoint approximation, for progress and limit messages."""
        return {"positions": s.count(), "BDD nodes": self.manager.size(s.node)}

    def post(self, source: PositionSet) -> BddSet:
        """post(S) = (∃x. S ∧ δ)[x' := x], part by part."""
        m, enc = self.manager, self.encoder
        s = self._node_of(source)
        u = m.disj(m.and_exists(r, src, enc.current_set)
                   for src, rs in ((m.and_(f, s), rs) for f, rs in self._grouped(self._parts))
                   for r in rs)
        return BddSet._make(self, m.rename(u, enc.to_current))

    def moves_between(self, source: PositionSet, target: PositionSet) -> BddRelation:
        """δ ∧ S(x) ∧ T(x')."""
        m = self.manager
        s, t = self._node_of(source), self._next(self._node_of(target))
        return BddRelation(self, m.disj(m.and_(r, m.and_(m.and_(f, s), t))
                                        for f, rs in self._grouped(self._parts) for r in rs))

    def out_degrees(self, source: PositionSet) -> dict[int, int]:
        """Peels δ ∧ S one successor at a time (:meth:`BddRelation.pick`): after k
        peelings, the sources left are the positions with more than k successors.
        As many rounds as the largest out-degree; no enumeration of positions."""
        s = self._node_of(source)
        rel = self.moves_between(BddSet._make(self, s), self.positions())
        out: dict[int, int] = {}
        left = BddSet._make(self, s)
        k = 0
        while True:
            more = rel.sources()
            n = (left - more).count()
            if n:
                out[k] = n
            if more.is_empty():
                return out
            left = more
            rel = BddRelation(self, self.manager.diff(rel.node, rel.pick().node))
            k += 1

    def deadlocks(self) -> BddSet:
        """Positions with no successor: D ∧ ¬∃x'. δ."""
        return BddSet._make(self, self.manager.diff(self._domain, self._has_succ))
