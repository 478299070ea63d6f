"""The measured choice of a symbolic game's variable layout (``order="auto"``).

The encoder's rule (:func:`symbolic.bdd.layout.choose_order`) looks only at the
ranges. On a game with more than :data:`PROBE_MIN_BITS` position bits, on CUDD or
oxidd, :class:`LayoutProbe` measures instead: the shared node count of δ's parts and
of the first attractor iterates in each candidate layout, computed on copies in a
scratch CUDD manager; the smallest layout wins and the game's variables move there
in place (one shuffle), before the first predecessor computation.

:class:`LayoutProbe` is a part of :class:`~symbolic.bdd.engine.SymbolicGame` (a base of
it, over :class:`~symbolic.bdd.turnbased.TurnBasedGame`): it reads the game's ``manager``,
``encoder``, ``space``, ``game``, ``limits``, ``transitions()``, ``_domain``, ``_turn_of``,
``_has_succ`` and ``_renamed``, and keeps ``order_probe`` and ``_layout_pending``, which the
game sets.
"""

from __future__ import annotations

from .contract import Manager
from .layout import slot_sequence
from .managers import make_manager
from .turnbased import TurnBasedGame

__all__ = [
    "PROBE_MIN_BITS",
    "PROBE_STEPS",
    "PROBE_MAX_BITS",
    "PROBE_MAX_NODES",
    "PROBE_SLICED_RAGGED",
    "PROBE_MARGIN",
    "LayoutProbe",
]

# order="auto" on a game with the cudd backend (autoref keeps encode.choose_order): the
# layout is chosen by measurement (LayoutProbe._choose_layout)
# on spaces of more than PROBE_MIN_BITS position bits, from PROBE_STEPS attractor
# iterates (stopping once one exceeds PROBE_MAX_NODES nodes); sliced layouts are
# candidates only with at most PROBE_SLICED_RAGGED ranges that are not powers of two.
PROBE_MIN_BITS = 20
# 16 steps, not 8: after 8 steps classic Nim measures slots smaller than sliced, yet
# sliced runs far faster; after 16 sliced is already smaller. With 8 steps a margin of 2
# was needed, which kept ENS Nim in sliced, ten times slower than in slots (figures in
# bench/journal, issue 33).
PROBE_STEPS = 16
#: beyond this many BDD variables the layout is not measured: each shuffle of the
#: scratch manager costs time that grows with the variables
PROBE_MAX_BITS = 512
# Shuffling costs about (nodes × variables²): above this many nodes in δ's parts and
# the probe sets together, the probe stops (δ alone above it: no choice, the
# encoder's rule stands): Connect Four's shuffles took longer than its solve.
PROBE_MAX_NODES = 20_000
PROBE_SLICED_RAGGED = 6
PROBE_MARGIN = 1.25


class LayoutProbe(TurnBasedGame):
    """The layout measurement of :class:`~symbolic.bdd.engine.SymbolicGame` (a base of it)."""

    # set by SymbolicGame: its renamed targets (a cache emptied by a new layout), the
    # measurements {candidate: node count}, and whether the measurement is still due
    _renamed: dict
    order_probe: dict[str, int]
    _layout_pending: bool

    @staticmethod
    def _probe_sets(m: Manager, parts: list, tp, dom, has, to_next, next_set, budget: int) -> list:
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
        out: list = []
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
        changed = [
            m.exact_count(m.diff(delta, enc.frame([i])), nbits) for i in range(len(space.slots))
        ]
        seqs = [
            tuple(slot_sequence(space, "slots")),
            tuple(slot_sequence(space, "slots-reversed")),
            tuple(sorted(range(len(space.slots)), key=lambda i: -changed[i])),
        ]
        ragged = sum(
            1 for sl in space.slots if (sl.type.hi - sl.type.lo + 1) & (sl.type.hi - sl.type.lo)
        )
        kinds = ["slots"] + (["sliced"] if ragged <= PROBE_SLICED_RAGGED else [])
        # one candidate per variable order: with one bit per slot (Connect Four's
        # compact model) the sliced layouts are the slot layouts, shuffled to for nothing
        out: list = []
        orders: set = set()
        for kind in kinds:
            for seq in seqs:
                order = tuple(enc.layout(kind, seq))
                if order not in orders:
                    orders.add(order)
                    out.append((kind, seq))
        return out

    def _choose_layout(self) -> dict[str, int]:
        """Measure, then choose the variable layout: the shared node count of δ's parts
        and of the probe sets (:meth:`_probe_sets`) in each candidate layout
        (:meth:`_layout_candidates`); the smallest wins, and this manager's
        variables move there in place (one shuffle). The measurements run on copies
        in a scratch manager that holds nothing else, so its shuffles are cheap.
        Returns {candidate name: node count} of the candidates measured to the end."""
        m, enc = self.manager, self.encoder
        if len(enc.order) > PROBE_MAX_BITS:
            return {}
        delta = self.transitions()
        in_parts = m.shared_size([r for _, r in delta.parts] + list(delta.sources.values()))
        if in_parts > PROBE_MAX_NODES:
            return {}
        candidates = self._layout_candidates()
        initial = (enc.bit_order, enc.slot_order)
        if len(candidates) < 2:
            return {}
        # the probe measures δ's parts with their source factors conjoined (S ∧ R): on
        # Connect Four's compact model (4 × 5) they hold 5.5 times the nodes of R and S
        # apart, and shuffling them took 12 s of a 3 s solve
        full = [r for _, r in delta.full()]
        if m.shared_size(full) > PROBE_MAX_NODES:
            return {}
        # CUDD measures for oxidd too: BDD sizes depend on the order, not the package,
        # and CUDD's shuffles and node counts are native (oxidd's would run in Python)
        scratch = make_manager("cudd")
        scratch.declare(enc.order)
        parts = [scratch.copy_from(r) for r in full]

        def layout(kind, seq):
            scratch.reorder(enc.layout(kind, seq))

        def measure(nodes):
            return {c: (layout(*c), scratch.shared_size(nodes))[1] for c in candidates}

        # the probe's fixpoint steps run in the layout where δ is smallest
        by_delta = measure(parts)
        layout(*min(candidates, key=by_delta.__getitem__))
        tp = scratch.copy_from(self._turn_of[self.game.players[0]])
        probe = self._probe_sets(
            scratch,
            parts,
            tp,
            scratch.copy_from(self._domain),
            scratch.copy_from(self._has_succ),
            enc.to_next,
            enc.next_set,
            PROBE_MAX_NODES - in_parts,
        )
        sizes = self._measure_bounded(candidates, by_delta, initial, layout, scratch, parts + probe)
        best = min(sizes, key=lambda c: (sizes[c], candidates.index(c)))  # first of the smallest
        # The probe sees only the first steps: the encoder's rule (candidates[0] or
        # its sliced twin) stands unless a candidate is PROBE_MARGIN times smaller
        # (on Nim, a layout measured within that margin could still run twice as slow).
        if initial in sizes and sizes[best] * PROBE_MARGIN > sizes[initial]:
            best = initial
        del parts, probe, tp
        enc.relayout(*best)
        self._renamed.clear()
        return {
            f"{kind}:{','.join(self.space.slots[i].label for i in seq)}": n
            for (kind, seq), n in sizes.items()
        }

    @staticmethod
    def _measure_bounded(candidates, by_delta, initial, layout, scratch, nodes) -> dict:
        """{candidate: shared size of ``nodes`` in its layout} for each candidate that can
        still be chosen, smallest δ first. A layout's size is at least its δ's
        (``by_delta``, a subset of ``nodes``), so a candidate whose δ alone exceeds the
        smallest size measured cannot be the smallest, and the initial layout cannot win
        under the margin once its δ exceeds :data:`PROBE_MARGIN` times that size: neither
        is shuffled to (shuffles to a large layout take most of the probe's time)."""
        sizes: dict = {}
        for c in sorted(candidates, key=lambda c: (by_delta[c], candidates.index(c))):
            if sizes:
                least = min(sizes.values())
                if by_delta[c] > (least * PROBE_MARGIN if c == initial else least):
                    continue
            layout(*c)
            sizes[c] = scratch.shared_size(nodes)
        return sizes

    def settle_layout(self) -> dict[str, int]:
        """Run the pending ``order="auto"`` measurement (:meth:`_choose_layout`) now, if
        any, and return :attr:`order_probe`. Every predecessor computation calls it
        first; sets made before stay valid (CUDD reorders in place)."""
        if self._layout_pending:
            self._layout_pending = False
            with self.limits.stage("choosing the variable order"):
                self.order_probe = self._choose_layout()
        return self.order_probe
