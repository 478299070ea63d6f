"""The explicit GDL engine's game graph, kept compact: states as ints, edges in arrays.

The reachable states of a GDL game are found breadth-first from ``init`` on the
compiled rules (:mod:`~.explicit_rules`: a state is an int whose bits are its fluents,
fluent 0 the highest, so that ints compare as the states' position tuples do). The
graph is then renumbered in that order, the order of the explicit engine's domain:

- ``states[i]``: the state of position i (sorted ints);
- ``movers[i]``: the index in ``prog.roles`` of the role to move at i (the nominal one
  at a terminal state, see :mod:`~.turns`);
- ``succ``: the successor indices of every position as :class:`Rows` (compressed
  rows: one flat ``array('i')`` of 4 bytes an edge, sorted within a row);
- ``layers``: how many states were first reached at each depth; ``frontier``: the
  positions of the last layer when a depth cut the exploration short (kept without
  successors);
- ``joint``: when the game is read as concurrent (every joint move of a non-terminal
  state followed, no turn rule), its joint moves as :class:`JointMoves`: per position
  the index of its A_r (the enabled move indices per role, shared by the positions
  that have the same) and δ(c, a) for every joint move a, in product order, as
  :class:`Rows` (4 bytes a joint move); None for a turn-based reading.

A set of positions is an int whose bit i stands for position i (:func:`bits_of`,
:func:`indices`): N/8 bytes a set, however many positions it holds. That is what
the engine costs per state: one int (its fluents), 4 bytes an edge each way, a few
bytes of tables (bench/journal/2026-11-24-issue-23-gdl.md has the figures).

>>> r = Rows.of([[1, 2], [], [0]])
>>> [list(r[i]) for i in range(len(r))], [list(p) for p in r.transposed()]
([[1, 2], [], [0]], [[2], [0], [0]])
>>> indices(bits_of([0, 9, 3], 12)), bin(bits_of([0, 9, 3], 12))
([0, 3, 9], '0b1000001001')
"""

from __future__ import annotations

import itertools
from array import array
from dataclasses import dataclass
from typing import Iterable, Sequence, overload

from ..errors import Hint, TooManyPositions
from ..limits import Limits
from .explicit_rules import CompiledRules
from .turns import mover

__all__ = ["JointMoves", "Rows", "StateGraph", "bits_of", "indices", "explore"]

#: the positions of the set bits of each byte
_BITS = [tuple(j for j in range(8) if b >> j & 1) for b in range(256)]


def bits_of(idx, n: int) -> int:
    """The int with bit i set for every i of ``idx`` (all below ``n``)."""
    buf = bytearray((n + 7) // 8)
    for i in idx:
        buf[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(buf, "little")


def indices(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``, ascending."""
    out: list[int] = []
    if bits:
        data = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
        for k, byte in enumerate(data):
            if byte:
                base = k << 3
                out.extend([base + j for j in _BITS[byte]])
    return out


class Rows(Sequence[array]):
    """Rows of ints in one flat ``array('i')``: row i is ``flat[start[i]:start[i + 1]]``
    (an array; a list of tuples would cost 8 bytes an entry and 40 a row more); a
    sequence of rows, as :class:`~symbolic.explicit.graph.IndexedGraph` reads them.

    >>> r = Rows.of([[1, 2], [], [0]])
    >>> len(r), list(r[0]), [list(x) for x in r[1:]]
    (3, [1, 2], [[], [0]])
    """

    __slots__ = ("start", "flat")

    def __init__(self, start: array, flat: array):
        self.start, self.flat = start, flat

    @classmethod
    def of(cls, rows) -> "Rows":
        start, flat = array("q", [0]), array("i")
        for row in rows:
            flat.extend(row)
            start.append(len(flat))
        return cls(start, flat)

    def __len__(self) -> int:
        return len(self.start) - 1

    @overload
    def __getitem__(self, i: int) -> array: ...

    @overload
    def __getitem__(self, i: slice) -> list[array]: ...

    def __getitem__(self, i):
        try:  # a row: the hot path, no test before it
            return self.flat[self.start[i] : self.start[i + 1]]
        except TypeError:  # a slice of rows (i + 1 fails)
            return [self[j] for j in range(*i.indices(len(self)))]

    def degrees(self) -> array:
        s = self.start
        return array("i", [s[i + 1] - s[i] for i in range(len(s) - 1)])

    def transposed(self) -> "Rows":
        """The rows of the reversed edges (row j: the i with j in row i, ascending)."""
        n, flat, start = len(self), self.flat, self.start
        count = array("q", bytes(8 * (n + 1)))
        for j in flat:
            count[j + 1] += 1
        for j in range(n):
            count[j + 1] += count[j]
        out = array("i", bytes(4 * len(flat)))
        fill = array("q", count)
        for i in range(n):
            for j in flat[start[i] : start[i + 1]]:
                out[fill[j]] = i
                fill[j] += 1
        return Rows(count, out)


@dataclass
class JointMoves:
    """The joint moves of a concurrent reading (the module docstring): position i has
    A(i) = ``kinds[kind[i]]`` (per role, its enabled move indices in ``prog.moves[r]``;
    ``kinds[0]`` = no move for anyone: a terminal state, a state of the frontier) and
    ``moves[i]``, δ(i, a) for a in ``itertools.product(*A(i))``, in that order."""

    kinds: list
    kind: array
    moves: Rows


@dataclass
class StateGraph:
    """The reachable states and their moves, in the domain order (the module docstring)."""

    states: list
    movers: bytes
    succ: Rows
    layers: list
    frontier: int  # a set of positions (bits)
    joint: JointMoves | None = None


def explore(
    rules: CompiledRules,
    turn_error,
    limit: int | None,
    limits: Limits,
    depth: int | None,
    concurrent: bool = False,
    stop_at_best: bool = False,
) -> StateGraph:
    """The :class:`StateGraph` of the states reachable from init in at most ``depth``
    moves (all when None; ``stop_at_best``: :func:`~.engine.check_stop_at_best`).
    ``turn_error(state, legal)`` raises the ModelError of a state not turn-based;
    ``concurrent`` reads every state as concurrent instead (no turn rule; the joint
    moves recorded). TooManyPositions beyond ``limit`` states, LimitExceeded when
    ``limits`` says time is up (checked every 64 states)."""
    prog, c = rules.prog, rules
    roles = prog.roles
    role_index = {r: k for k, r in enumerate(roles)}
    joint = _JointRecorder(prog) if concurrent else None
    states = [c.state_of(prog.init)]
    index = {states[0]: 0}
    movers = bytearray()
    start, flat = array("q", [0]), array("i")
    layers, begin = [1], 0
    best = prog.best_goal_atoms(roles[0]) if stop_at_best else None
    frontier: Sequence[int] = []
    with limits.stage("exploring the reachable states (explicit)"):
        while begin < len(states):
            end, cut = len(states), depth is not None and len(layers) > depth
            stop = best is not None and _holds_best(c, best, states[begin:end])
            rows: list[list[int]] = []
            for i in range(begin, end):
                if i % 64 == 0:
                    limits.check(f"{i} states expanded", lambda: {"positions": len(index)})  # noqa: F821 (before the del)
                v = c.state_vector(states[i])
                legal = c.legal(v)
                movers.append(role_index[mover(roles, legal)])
                row: list[int] = []
                succ: Iterable[int]
                if c.terminal(v) or stop:  # (stop: a non-terminal state left unexpanded)
                    succ, frontier = (), frontier if c.terminal(v) else range(begin, end)
                elif joint is not None:
                    succ = _joint_successors(c, v, [legal[r] for r in roles])
                else:
                    if sum(len(legal[r]) >= 2 for r in roles) >= 2:
                        turn_error(c.fluents_of(states[i]), legal)
                    succ = set(_joint_successors(c, v, [legal[r] for r in roles]))
                for t in succ:
                    j = index.get(t)
                    if j is None:
                        if limit is not None and len(index) >= limit:
                            raise _too_many(limit, limits)
                        j = index[t] = len(index)
                        if not cut:
                            states.append(t)
                    row.append(j)
                if joint is not None:
                    row = joint.add(legal, row, c.terminal(v))
                rows.append(row)
            if cut and len(index) > end:  # more states lie beyond: this layer is the frontier
                frontier = range(begin, end)
                rows = [[] for _ in rows]
                if joint is not None:
                    joint.clear(begin, end)
            for row in rows:
                flat.extend(row)
                start.append(len(flat))
            if len(states) > end:
                layers.append(len(states) - end)
            begin = end
    del index
    return _renumbered(
        states,
        movers,
        Rows(start, flat),
        layers,
        frontier,
        limits,
        None if joint is None else joint.done(),
    )


def _holds_best(c: CompiledRules, best: list, states) -> bool:
    """Whether one of ``states`` is terminal with one of the ``best`` goal atoms."""
    return any(c.terminal(c.state_vector(s)) and any(c.holds(a, s) for a in best) for s in states)


def _joint_successors(c: CompiledRules, v: int, legal: list) -> list:
    """δ(v, a) for every joint move a of ``itertools.product(*legal)``, in that order
    (:meth:`~.explicit_rules.CompiledRules.next_state` inlined: one call per state, not per
    joint move)."""
    n, mask, out = c.n, c.mask, []
    for moves in itertools.product(*legal):
        bodies, played, const, frame = c.of_moves(moves)
        w = v | played
        for h, pos, neg in bodies:
            if w & pos == pos and not w & neg:
                w |= h
        out.append(((w >> n) & mask) | const | (v & frame))
    return out


class _JointRecorder:
    """The :class:`JointMoves` of a concurrent exploration, in the order of discovery."""

    def __init__(self, prog):
        self.roles = prog.roles
        self.move_index = [{mv: k for k, mv in enumerate(prog.moves[r])} for r in prog.roles]
        none = tuple(() for _ in prog.roles)
        self.kinds, self.kind_of = [none], {none: 0}
        self.kind, self.start, self.flat = array("i"), array("q", [0]), array("i")

    def add(self, legal: dict, row: list, terminal: bool) -> list:
        """Record a state's A(c) and δ(c, a) (``row``, in product order); its distinct
        successors, ascending."""
        if terminal:
            self.kind.append(0)
        else:
            en = tuple(
                tuple(ix[mv] for mv in legal[r]) for r, ix in zip(self.roles, self.move_index)
            )
            k = self.kind_of.get(en)
            if k is None:
                k = self.kind_of[en] = len(self.kinds)
                self.kinds.append(en)
            self.kind.append(k)
        self.flat.extend(row)
        self.start.append(len(self.flat))
        return sorted(set(row))

    def clear(self, begin: int, end: int) -> None:
        """The states ``begin``..``end`` - 1 (the last ones recorded) are the frontier."""
        del self.flat[self.start[begin] :]
        del self.start[begin + 1 :]
        self.start.extend([len(self.flat)] * (end - begin))
        self.kind[begin:end] = array("i", bytes(4 * (end - begin)))

    def done(self) -> JointMoves:
        return JointMoves(self.kinds, self.kind, Rows(self.start, self.flat))


def _too_many(limit: int, limits: Limits) -> TooManyPositions:
    from ..explicit.sets import BYTES_PER_POSITION

    return TooManyPositions(
        (
            f"position limit reached: more than {limit} reachable states, the explicit "
            f"engine's limit (",
            Hint("raise", "max_memory"),
            f" raises or lowers it, at "
            f"{BYTES_PER_POSITION} bytes a state): use the symbolic engine",
        ),
        stage=limits.where(),
    )


def _renumbered(
    states: list,
    movers: bytearray,
    succ: Rows,
    layers: list,
    frontier: Sequence[int],
    limits: Limits,
    joint: JointMoves | None = None,
) -> StateGraph:
    """The graph found breadth-first, renumbered in the order of the states' ints."""
    n = len(states)
    with limits.stage("sorting the reachable states (explicit)"):
        order = sorted(range(n), key=states.__getitem__)
        rank = array("i", bytes(4 * n))
        for r, i in enumerate(order):
            rank[i] = r
        start, flat = array("q", [0]), array("i")
        old_start, old_flat = succ.start, succ.flat
        for k, i in enumerate(order):
            if k % 4096 == 0:
                limits.check(f"{k} of {n} states")
            flat.extend(sorted([rank[j] for j in old_flat[old_start[i] : old_start[i + 1]]]))
            start.append(len(flat))
        if joint is not None:
            joint = _renumbered_joint(joint, order, rank)
        return StateGraph(
            [states[i] for i in order],
            bytes(movers[i] for i in order),
            Rows(start, flat),
            layers,
            bits_of((rank[i] for i in frontier), n),
            joint,
        )


def _renumbered_joint(joint: JointMoves, order, rank: array) -> JointMoves:
    """``joint`` with its positions in ``order`` and its successors by ``rank``
    (a row keeps its product order)."""
    start, flat = array("q", [0]), array("i")
    old_start, old_flat = joint.moves.start, joint.moves.flat
    for i in order:
        flat.extend([rank[j] for j in old_flat[old_start[i] : old_start[i + 1]]])
        start.append(len(flat))
    return JointMoves(joint.kinds, array("i", [joint.kind[i] for i in order]), Rows(start, flat))
