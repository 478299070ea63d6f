"""The explicit engines' game over position indices: δ as index arrays, and the turns.

Every explicit engine numbers its positions 0 … n−1 (its position index: the
lexicographic domain of :class:`~.sets.ExplicitSets` for a model, the explored
states for GDL) and keeps its game over those numbers in two parts, plain data
read by the counting algorithms of :mod:`~.attractor`:

- :class:`IndexedGraph`: the successor rows, the predecessor lists, the
  out-degrees and the dead ends (the positions without a successor);
- :class:`TurnTable`: the player to move at each position, the positions of
  each player and, cached per coalition J, the mask of the positions where J moves;
- :class:`JointTable`, for a concurrent game: the enabled actions of each player
  at each position and δ(c, a) for every enabled joint action a, and per
  coalition J the rows the concurrent pre-image reads.

>>> g = IndexedGraph.of([(1, 2), (2,), ()])
>>> g.pred, g.outdeg, g.dead, g.edge_count
([[], [0], [0, 1]], [2, 1, 0], [2], 3)
>>> t = TurnTable([1, 2, 1], (1, 2))
>>> t.by_player, list(t.mask(frozenset({1})))
({1: [0, 2], 2: [1]}, [1, 0, 1])
>>> moves = {(0, 0): frozenset({1}), (1, 0): frozenset({0, 1})}
>>> j = JointTable([JointEntry(((0, 1), (0,)), moves),
...                 JointEntry(((), (0,)), {})])  # position 1: player 1 has no action
>>> sorted(j.successors(0)), j.rows(frozenset({1}), (1, 2))
([0, 1], [((frozenset({1}),), (frozenset({0, 1}),)), False])
"""

from __future__ import annotations

import itertools
from typing import Callable, MutableSequence, NamedTuple, Sequence

__all__ = ["IndexedGraph", "TurnTable", "JointEntry", "JointTable"]


class IndexedGraph:
    """δ over position indices: ``succ[i]`` the successors of position i (sorted),
    ``pred[j]`` the positions with j among their successors, ``outdeg[i]`` = |succ[i]|,
    ``dead`` the positions without a successor, ascending. Any sequences of ints
    (lists and tuples for a model, compact ``array`` rows for GDL)."""

    __slots__ = ("succ", "pred", "outdeg", "dead")

    def __init__(self, succ: Sequence, pred: Sequence, outdeg: MutableSequence[int]):
        self.succ, self.pred, self.outdeg = succ, pred, outdeg
        self.dead = [i for i, d in enumerate(outdeg) if d == 0]

    @classmethod
    def of(cls, succ: list[tuple[int, ...]]) -> "IndexedGraph":
        """The graph of the successor rows ``succ``, its predecessor lists derived."""
        pred: list[list[int]] = [[] for _ in succ]
        for i, ss in enumerate(succ):
            for j in ss:
                pred[j].append(i)
        return cls(succ, pred, [len(ss) for ss in succ])

    def __len__(self) -> int:
        return len(self.outdeg)

    @property
    def edge_count(self) -> int:
        """Σ_i |succ[i]|."""
        return sum(self.outdeg)


class TurnTable:
    """t(c) over position indices: ``turns[i]`` the player to move at position i,
    ``by_player[p]`` the positions of player p (ascending; a turn that is no player
    is in none), :meth:`mask` the positions of a coalition as bytes."""

    __slots__ = ("turns", "by_player", "_masks")

    def __init__(
        self, turns: Sequence[int], players: Sequence[int], row: Callable[[], list] = list
    ):
        by_player = {p: row() for p in players}
        for i, t in enumerate(turns):
            if t in by_player:
                by_player[t].append(i)
        self.turns, self.by_player = turns, by_player
        self._masks: dict[frozenset, bytearray] = {}

    def mask(self, J: frozenset) -> bytearray:
        """mask[i] = 1 iff t(position i) ∈ J (cached per coalition)."""
        m = self._masks.get(J)
        if m is None:
            m = bytearray(len(self.turns))
            for p in J:
                for i in self.by_player[p]:
                    m[i] = 1
            self._masks[J] = m
        return m


class JointEntry(NamedTuple):
    """One position i of a :class:`JointTable`: ``enabled`` = A(i), the enabled action
    indices of each player (in player order), and ``moves`` = {a: δ(i, a)}, a frozenset
    of successor indices for every joint action a ∈ ∏ A(i)."""

    enabled: tuple[tuple[int, ...], ...]
    moves: dict[tuple[int, ...], frozenset]


class JointTable:
    """δ(c, a) over position indices: ``entries[i]``, the :class:`JointEntry` of position i."""

    __slots__ = ("entries", "_by_coalition")

    def __init__(self, entries: list[JointEntry]):
        self.entries = entries
        self._by_coalition: dict[frozenset, list] = {}

    def successors(self, i: int) -> frozenset:
        """δ(i) = ⋃_a δ(i, a)."""
        return frozenset().union(*self.entries[i].moves.values())

    def rows(self, J: frozenset, players: Sequence[int]) -> list:
        """Per position, for coalition J: at a dead end (some player without an action)
        whether every player of J has an action; else one row per a_J, the successor sets
        δ(c, a_J, a_−J) over every a_−J, rows holding an empty set left out (they never
        force). Built once per J."""
        cached = self._by_coalition.get(J)
        if cached is not None:
            return cached
        mine = [k for k, p in enumerate(players) if p in J]
        theirs = [k for k, p in enumerate(players) if p not in J]
        out: list = []
        a = [0] * len(players)
        for en, moves in self.entries:
            if any(not e for e in en):
                out.append(all(en[k] for k in mine))
                continue
            rows = []
            for aj in itertools.product(*(en[k] for k in mine)):
                for k, v in zip(mine, aj):
                    a[k] = v
                row = []
                for ao in itertools.product(*(en[k] for k in theirs)):
                    for k, v in zip(theirs, ao):
                        a[k] = v
                    row.append(moves[tuple(a)])
                if all(row):
                    rows.append(tuple(row))
            out.append(tuple(rows))
        self._by_coalition[J] = out
        return out
