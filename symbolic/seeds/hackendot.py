"""Hackendot on forests given as Dyck words, and Ulehla's method as the
internship report on Hackendot and Chomp describes it (sections 2.2, 2.3, 3.2).

A forest is a :class:`Forest`: its nodes are numbered 0, 1, ... in the
preorder of the Dyck word, and ``parent[v]`` is the parent of node v (None
for a root). Hackendot: a move picks a node and removes it with all its
ancestors (the path up to its root); whoever removes the last node wins.

Ulehla's method, in the report's words turned into definitions:

* colouring: a node is *white* when none of its children is white (a leaf is
  white), *black* otherwise — the kernel of the forest seen as a graph;
* rip(f) = the parity of the number of white roots of f;
* l(f) = f without its white nodes ("dénoyauter"); f⁰ = f, fⁱ⁺¹ = l(fⁱ), until
  the empty forest fⁿ;
* the criterion: the player to move wins when rip(fⁱ) = 1 for some i;
* the winning move: from the last forest fᵏ with rip(fᵏ) = 1, start from its
  white roots; going back down the sequence, at each forest fⁱ look at the
  candidates and their children in fⁱ and keep the first whose removal (with
  its path to the root of fⁱ) makes rip(fⁱ) = 0 (the report's Algorithms 3–4).

Three points where the report is open or inconsistent are parameters
(:class:`Reading`): whether the criterion counts rip(f⁰) (the report says "i
between 1 and n", and its Algorithm 3 stops its loop at k > 0); where the
children of a removed white node go in l(f) (to the roots, or to their nearest
surviving ancestor); and what the move search asks of a candidate's result
(Algorithm 4 tests rip = 0 on the current forest only, the prose asks for "a
sequence of rips equal to 0"). ``LITERAL`` is the report as written;
``CORRECTED`` counts f⁰, reattaches to the ancestor and tests the whole
sequence. The tests (tests/test_hackendot.py) check every combination against
the nimbers: only ``CORRECTED`` gets both the criterion and the move right.

>>> f = Forest.from_word("((())())")
>>> f.parent
(None, 0, 1, 0)
>>> [int(w) for w in colours(f)]                 # node 2 and node 3 are leaves
[0, 0, 1, 1]
>>> [rip(g) for g in sequence(f, CORRECTED)]     # f0, f1, f2, f3 (empty)
[0, 0, 1, 0]
>>> wins(f, CORRECTED), ulehla_value(f, CORRECTED), nimber(f)
(True, 4, 4)
>>> winning_move(f, CORRECTED), nimber(f.remove_path(winning_move(f, CORRECTED)))
(1, 0)
>>> wins(Forest.from_word("()"), LITERAL)        # one node: the mover takes it and wins
False
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..arguments import need, need_int, need_iterable
from ..errors import ArgumentTypeError, ArgumentValueError, QueryError
from ..limits import MAX_NESTING

#: how to reattach the children of removed nodes, and how a move is checked
REATTACH = ("roots", "ancestor")
MOVE_CHECKS = ("rip", "sequence")

__all__ = [
    "Forest",
    "Reading",
    "LITERAL",
    "CORRECTED",
    "READINGS",
    "colours",
    "rip",
    "strip_kernel",
    "sequence",
    "rips",
    "wins",
    "winning_move",
    "ulehla_value",
    "nimber",
    "all_dyck",
    "random_dyck",
]


@dataclass(frozen=True)
class Forest:
    """A forest on the nodes ``nodes`` (sorted; preorder of the original word), each
    with its parent (None for a root). Parents always precede their children."""

    nodes: tuple[int, ...]
    parents: tuple[int | None, ...]

    def __post_init__(self) -> None:
        need(self.nodes, tuple, "the nodes")
        need(self.parents, tuple, "the parents")
        if len(self.nodes) != len(self.parents):
            raise ArgumentValueError(
                f"a forest has one parent per node: {len(self.nodes)} "
                f"nodes, {len(self.parents)} parents"
            )
        seen: set = set()
        for v, p in zip(self.nodes, self.parents):
            if not isinstance(v, int) or isinstance(v, bool) or v in seen:
                raise ArgumentTypeError(f"the nodes are distinct ints, got {v!r:.40}")
            if p is not None and p not in seen:
                raise ArgumentValueError(f"node {v}: its parent {p!r:.40} is not a node before it")
            seen.add(v)

    @staticmethod
    def from_word(word: str) -> "Forest":
        """The forest of a Dyck word: each matched pair is a node, the pairs directly
        inside it are its children.

        >>> Forest.from_word("()(())").parent
        (None, None, 1)
        """
        need(word, str, "the word")
        parent: list[int | None] = []
        stack: list[int] = []
        for pos, ch in enumerate(word):
            if ch == "(":
                parent.append(stack[-1] if stack else None)
                stack.append(len(parent) - 1)
            elif ch == ")":
                if not stack:
                    raise QueryError(
                        f"not a Dyck word: unbalanced ')' at position {pos} of {word!r}"
                    )
                stack.pop()
            elif not ch.isspace():
                raise QueryError(f"not a Dyck word: unexpected {ch!r} in {word!r}")
        if stack:
            raise QueryError(f"not a Dyck word: unbalanced '(' in {word!r}")
        return Forest(tuple(range(len(parent))), tuple(parent))

    @property
    def parent(self) -> tuple[int | None, ...]:
        """The parents in node order (for a forest on 0..n-1: indexed by node)."""
        return self.parents

    def parent_of(self) -> dict[int, int | None]:
        return dict(zip(self.nodes, self.parents))

    def __len__(self) -> int:
        return len(self.nodes)

    def roots(self) -> list[int]:
        return [v for v, p in zip(self.nodes, self.parents) if p is None]

    def _node(self, v) -> int:
        if v not in self.nodes:
            raise QueryError(
                f"node {v!r:.40} is not in the forest (nodes: {list(self.nodes)[:20]})"
            )
        return v

    def children(self, v: int) -> list[int]:
        self._node(v)
        return [c for c, p in zip(self.nodes, self.parents) if p == v]

    def path(self, v: int) -> set[int]:
        """v and its ancestors in this forest."""
        self._node(v)
        par = self.parent_of()
        out = set()
        node: int | None = v
        while node is not None:
            out.add(node)
            node = par[node]
        return out

    def without(self, removed: set[int], reattach: str) -> "Forest":
        """The forest without ``removed``; a child of a removed node goes to its
        nearest surviving ancestor (``"ancestor"``) or becomes a root (``"roots"``)."""
        removed = set(need_iterable(removed, "the removed nodes"))
        _choice(reattach, REATTACH, "reattach")
        par = self.parent_of()
        nodes, parents = [], []
        for v, p in zip(self.nodes, self.parents):
            if v in removed:
                continue
            if reattach == "ancestor":
                while p is not None and p in removed:
                    p = par[p]
            elif reattach == "roots":
                p = None if p in removed else p
            else:
                raise AssertionError(reattach)
            nodes.append(v)
            parents.append(p)
        return Forest(tuple(nodes), tuple(parents))

    def remove_path(self, v: int) -> "Forest":
        """The Hackendot move at v: v and all its ancestors go. (Every child of a
        removed node then has no surviving ancestor: it becomes a root.)"""
        return self.without(self.path(v), "roots")  # path checks v

    def word(self) -> str:
        """The Dyck word of this forest (its nodes in order).

        >>> Forest.from_word("(()())()").word()
        '(()())()'
        """
        kids: dict[int | None, list[int]] = {}
        for v, p in zip(self.nodes, self.parents):
            kids.setdefault(p, []).append(v)
        out: list[str] = []
        stack: list[int | None] = list(reversed(kids.get(None, [])))
        while stack:  # preorder without recursion (deep words)
            top = stack.pop()
            if top is None:
                out.append(")")
                continue
            out.append("(")
            stack.append(None)
            stack.extend(reversed(kids.get(top, [])))
        return "".join(out)


@dataclass(frozen=True)
class Reading:
    """How to read the three points where the report is open or inconsistent (see
    the module docstring)."""

    name: str
    count_start: bool  # does rip(f⁰) count in the criterion and the move search?
    reattach: str  # l(f): children of a removed white node go to "roots" or "ancestor"
    move_check: str  # a candidate move must zero "rip" of fⁱ, or the whole "sequence"

    def __post_init__(self) -> None:
        need(self.name, str, "the reading's name")
        need(self.count_start, bool, "count_start")
        _choice(self.reattach, REATTACH, "reattach")
        _choice(self.move_check, MOVE_CHECKS, "move_check")


def _choice(value, choices: tuple, what: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ArgumentValueError(f"{what} is one of {', '.join(choices)}, got {value!r:.40}")
    return value


def _forest(f, *reading) -> Forest:
    """``f`` when it is a :class:`Forest` (and the ``reading`` given a :class:`Reading`)."""
    need(f, Forest, "the forest", hint=" (Forest.from_word(word))")
    for r in reading:
        need(r, Reading, "the reading (LITERAL, CORRECTED or READINGS[name])")
    return f


LITERAL = Reading("literal", count_start=False, reattach="roots", move_check="rip")
CORRECTED = Reading("corrected", count_start=True, reattach="ancestor", move_check="sequence")
#: the readings the tests compare, literal first: each fix alone, the two fixes of
#: the criterion together, and all three
READINGS = {
    r.name: r
    for r in (
        LITERAL,
        Reading("start", count_start=True, reattach="roots", move_check="rip"),
        Reading("ancestor", count_start=False, reattach="ancestor", move_check="rip"),
        Reading("start+ancestor", count_start=True, reattach="ancestor", move_check="rip"),
        CORRECTED,
    )
}


def colours(f: Forest) -> list[bool]:
    """white[i] for the i-th node of f: white iff no child is white (leaves are white).

    >>> colours(Forest.from_word("(())()"))
    [False, True, True]
    """
    _forest(f)
    index = {v: i for i, v in enumerate(f.nodes)}
    white = [True] * len(f)
    for i in range(len(f) - 1, -1, -1):  # children come after their parent
        p = f.parents[i]
        if white[i] and p is not None:
            white[index[p]] = False
    return white


def rip(f: Forest) -> int:
    """Root imparity: the parity of the number of white roots."""
    w = colours(f)
    return sum(1 for i, p in enumerate(f.parents) if p is None and w[i]) % 2


def strip_kernel(f: Forest, reattach: str) -> Forest:
    """l(f): f without its white nodes."""
    w = colours(f)
    return f.without({v for v, white in zip(f.nodes, w) if white}, reattach)


def sequence(f: Forest, reading: Reading) -> list[Forest]:
    """[f⁰, f¹, ..., fⁿ] with fⁱ⁺¹ = l(fⁱ) and fⁿ empty."""
    _forest(f, reading)
    out = [f]
    while len(out[-1]):
        out.append(strip_kernel(out[-1], reading.reattach))
    return out


def rips(f: Forest, reading: Reading) -> list[int]:
    """[rip(f⁰), ..., rip(fⁿ)] (the report's binary "nimber" of f)."""
    return [rip(g) for g in sequence(f, reading)]


def wins(f: Forest, reading: Reading) -> bool:
    """Ulehla's criterion: some rip(fⁱ) = 1 (from i = 1 unless ``count_start``)."""
    _forest(f, reading)
    r = rips(f, reading)
    return any(r[0 if reading.count_start else 1 :])


def winning_move(f: Forest, reading: Reading) -> int | None:
    """The report's Algorithms 3–4: the node to play, or None when the criterion
    says the player to move loses (the report then plays any node).

    A candidate is tried on a fresh copy of fⁱ each time (the pseudo-code
    removes candidates from the same forest one after the other)."""
    forests = sequence(f, reading)
    first = 0 if reading.count_start else 1
    k = next((i for i in range(len(forests) - 1, first - 1, -1) if rip(forests[i])), None)
    if k is None:
        return None
    fk = forests[k]
    white = colours(fk)
    possible = [v for v, p, w in zip(fk.nodes, fk.parents, white) if p is None and w]
    for i in range(k, -1, -1):
        fi = forests[i]
        candidates = list(possible)
        for v in possible:
            candidates.extend(c for c in fi.children(v) if c not in candidates)
        chosen = next((c for c in candidates if _zeroes(fi.remove_path(c), reading)), None)
        possible = [chosen] if chosen is not None else candidates
    return possible[0] if possible else None


def _zeroes(f: Forest, reading: Reading) -> bool:
    """The move search's test of a candidate's result: rip(f) = 0 (Algorithm 4 as
    written), or every rip of its sequence 0 (the report's prose: "a nimber equal
    to 0, i.e. a sequence of rips equal to 0")."""
    if reading.move_check == "rip":
        return rip(f) == 0
    if reading.move_check == "sequence":
        return not any(rips(f, reading))
    raise AssertionError(reading.move_check)


def ulehla_value(f: Forest, reading: Reading) -> int:
    """Σ rip(fⁱ)·2ⁱ: the rips read as a binary number, f⁰ the lowest bit (under
    ``CORRECTED`` the tests find it equal to the nimber on every forest tried).

    >>> ulehla_value(Forest.from_word("((())())"), CORRECTED)
    4
    """
    return sum(r << i for i, r in enumerate(rips(f, reading)))


def nimber(f: Forest) -> int:
    """The Sprague–Grundy value of the Hackendot position f (mex over all moves).

    A move removes a path to a root of one tree only, so f is the disjoint sum
    of its trees and g(f) = g(T₁) ⊕ ... ⊕ g(Tₖ) (Sprague–Grundy); each tree's
    value is the mex recursion on its sets of present nodes, run with an
    explicit stack (a tree may be thousands of nodes deep).

    >>> nimber(Forest.from_word("()" * 10_000)), nimber(Forest.from_word("()()()"))
    (0, 1)
    >>> nimber(Forest.from_word("((())())"))
    4
    """
    f = _forest(f)
    total = 0
    for tree in _trees(f):
        total ^= _tree_nimber(tree)
    return total


def _trees(f: Forest) -> list[list[tuple[int, int | None]]]:
    """The trees of f, each as its (node index, parent index) pairs in preorder."""
    index = {v: i for i, v in enumerate(f.nodes)}
    root_of: list[int] = []
    trees: dict[int, list] = {}
    for i, p in enumerate(f.parents):
        r = i if p is None else root_of[index[p]]
        root_of.append(r)
        trees.setdefault(r, []).append((i, None if p is None else index[p]))
    return list(trees.values())


def _tree_nimber(tree: list[tuple[int, int | None]]) -> int:
    """g of one tree by memoized mex over its sets of present nodes (bit masks)."""
    local = {i: k for k, (i, _) in enumerate(tree)}
    paths: list[int] = []
    for k, (_, p) in enumerate(tree):  # a parent precedes its children
        paths.append((1 << k) | (0 if p is None else paths[local[p]]))
    memo: dict[int, int] = {0: 0}
    stack = [(1 << len(tree)) - 1]
    while stack:
        present = stack[-1]
        if present in memo:
            stack.pop()
            continue
        after = [present & ~paths[k] for k in range(len(tree)) if present >> k & 1]
        pending = [a for a in after if a not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        seen = {memo[a] for a in after}
        n = 0
        while n in seen:
            n += 1
        memo[present] = n
    return memo[(1 << len(tree)) - 1]


def all_dyck(size: int):
    """Every Dyck word with ``size`` pairs (a forest of ``size`` nodes), in
    lexicographic order ('(' before ')').

    >>> list(all_dyck(3))
    ['((()))', '(()())', '(())()', '()(())', '()()()']
    """
    # recursive, one level per letter; beyond a few dozen pairs there are too many anyway
    need_int(size, "the size", low=0, high=MAX_NESTING // 4)

    def gen(opened: int, closed: int, prefix: str):
        if closed == size:
            yield prefix
            return
        if opened < size:
            yield from gen(opened + 1, closed, prefix + "(")
        if closed < opened:
            yield from gen(opened, closed + 1, prefix + ")")

    return gen(0, 0, "")


def random_dyck(size: int, rng: random.Random) -> str:
    """A Dyck word with ``size`` pairs, derived from the report's grammar
    S → () | ()S | (S) | (S)S, each applicable rule equally likely and, for
    (S)S, the split of the size drawn uniformly.

    >>> random_dyck(5, random.Random(1)).count("(")
    5
    """
    need_int(size, "the size")
    need(rng, random.Random, "rng")
    if size < 1:
        raise QueryError(f"a forest from the grammar has at least one node, got {size}")
    out: list[str] = []
    # a stack of what is left to write: text, or the size of an S to derive
    # (iterative: deep words would overflow Python's recursion)
    pending: list[str | int] = [size]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        n = item
        rules = ["()"] if n == 1 else ["()S", "(S)"] + (["(S)S"] if n >= 3 else [])
        rule = rng.choice(rules)
        if rule == "()":
            out.append("()")
        elif rule == "()S":
            out.append("()")
            pending.append(n - 1)
        elif rule == "(S)":
            out.append("(")
            pending.extend([")", n - 1])
        else:
            inner = rng.randint(1, n - 2)
            out.append("(")
            pending.extend([n - 1 - inner, ")", inner])
    return "".join(out)
