"""Rule-body joins for grounding: the bindings of a body over a set of ground atoms.

A body is a conjunction of literals (:mod:`.rules`): positive atoms, negated atoms,
``distinct`` and ``same``. :func:`solutions` gives the distinct bindings of the
variables a caller keeps, over the atoms of a :class:`Facts`:

- the positive literals are joined one at a time, set at a time, the next one
  being the one with the fewest candidate atoms for the rows so far (not the
  textual order); candidates come from an index on the literal's bound argument
  positions, constants nested inside compound arguments included;
- ``distinct``, ``same`` and the negations a caller calls decided are checked as
  soon as their variables are bound (a negation of an undecided relation is
  skipped: grounding over-approximates it);
- after each literal the rows are projected on the variables still needed (kept
  by the caller or read by a literal not joined yet) and duplicates dropped, so a
  variable that only links two literals does not multiply the rows (the helper
  relations of a hand-written rule split, made on the fly).

:func:`fixpoint` derives the heads of rules until nothing new appears,
semi-naively: after a first round over all atoms, a round evaluates only the rule
instances that use at least one atom added in the round before (that literal
over the new atoms, the literals written before it over the older ones, those
after it over all).

>>> from .kif import parse_kif
>>> from .rules import read_rules
>>> facts = Facts()
>>> for a, b in [("1", "2"), ("2", "3"), ("3", "4")]:
...     _ = facts.add("succ", (a, b))
>>> rules = read_rules(parse_kif('''(<= (less ?x ?y) (succ ?x ?y))
...   (<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))'''))
>>> fixpoint(rules, facts, lambda name: True, lambda r, args: facts.add(r.head[0], args))
>>> sorted(facts.sets["less"])
[('1', '2'), ('1', '3'), ('1', '4'), ('2', '3'), ('2', '4'), ('3', '4')]
>>> sorted(b["?x"] for b in solutions(rules[1].body, facts, lambda n: True, ("?x",)))
['1', '2']
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from operator import itemgetter
from typing import Any

from ..limits import current as current_limits
from .rules import Rule, variables

__all__ = ["Facts", "table", "solutions", "builder", "fixpoint"]

#: rows processed between two checks of the time limit
_CHECK_EVERY = 4096

#: rows sampled to estimate a literal's candidates (the estimate is scaled up)
_SAMPLE = 64

_serial = itemgetter(0)


def _shape(pattern):
    """The skeleton of a term or argument tuple: ``None`` for a leaf (constant or
    variable), a tuple of skeletons for a compound term."""
    if pattern.__class__ is str:
        return None
    return tuple(_shape(x) for x in pattern)


def _leaves(pattern, out: list) -> list:
    """The leaves of ``pattern`` (constants and variables), depth first."""
    if pattern.__class__ is str:
        out.append(pattern)
    else:
        for x in pattern:
            _leaves(x, out)
    return out


def _extract(shape, term, out: list) -> bool:
    """Append the leaves of ground ``term`` at the leaf positions of ``shape``;
    False when ``term`` does not have that skeleton (a constant where ``shape``
    has a compound, or another length)."""
    if shape is None:
        out.append(term)
        return True
    if term.__class__ is not tuple or len(term) != len(shape):
        return False
    for s, t in zip(shape, term):
        if not _extract(s, t, out):
            return False
    return True


class _Index:
    """The atoms of one relation that have a skeleton, by the values at some of
    its leaf positions: ``buckets[key]`` lists ``(serial, leaves)`` by serial."""

    def __init__(self, shape, bound: tuple):
        self.shape, self.bound = shape, bound
        self.buckets: dict[tuple, list] = {}

    def insert(self, serial: int, args: tuple) -> None:
        vals: list = []
        if _extract(self.shape, args, vals):
            key = tuple([vals[i] for i in self.bound])
            bucket = self.buckets.get(key)
            if bucket is None:
                self.buckets[key] = [(serial, tuple(vals))]
            else:
                bucket.append((serial, tuple(vals)))


class Facts:
    """Ground atoms by relation, each with a serial number (the order they came in).

    ``sets[name]`` maps the argument tuples of relation ``name`` to their serials;
    ``count`` is the number of atoms (the next serial). Indexes are built on first
    use by :func:`solutions` and kept up to date by :meth:`add`.

    >>> f = Facts()
    >>> f.add("p", ("a",)), f.add("p", ("a",)), f.has("p", ("a",)), f.count
    (True, False, True, 1)
    """

    def __init__(self) -> None:
        self.sets: dict[str, dict[tuple, int]] = {}
        self.count = 0
        self._indexes: dict[str, dict[tuple, _Index]] = {}

    def add(self, name: str, args: tuple) -> bool:
        """Add atom ``(name, args)``; False when it was there already."""
        s = self.sets.get(name)
        if s is None:
            s = self.sets[name] = {}
        elif args in s:
            return False
        serial = s[args] = self.count
        self.count += 1
        for index in self._indexes.get(name, {}).values():
            index.insert(serial, args)
        return True

    def has(self, name: str, args: tuple) -> bool:
        return args in self.sets.get(name, ())

    def index(self, name: str, shape, bound: tuple) -> _Index:
        """The index of relation ``name`` for skeleton ``shape`` keyed by the leaf
        positions ``bound`` (built from the atoms there the first time)."""
        by = self._indexes.setdefault(name, {})
        index = by.get((shape, bound))
        if index is None:
            index = by[(shape, bound)] = _Index(shape, bound)
            for args, serial in self.sets.get(name, {}).items():
                index.insert(serial, args)
        return index


def builder(term, cols: tuple) -> Callable[[tuple], Any]:
    """A function from a row (the values of the variables ``cols``) to ``term``
    with its variables replaced by their values.

    >>> builder(("cell", "?x", ("f", "?y"), "b"), ("?y", "?x"))(("1", "2"))
    ('cell', '2', ('f', '1'), 'b')
    """
    return _builder(term, {v: i for i, v in enumerate(cols)})


def _builder(term, col: dict) -> Callable[[tuple], Any]:
    if term.__class__ is str:
        if term[:1] == "?":
            i = col[term]
            return lambda row: row[i]
        return lambda row: term
    if not variables(term):
        return lambda row: term
    # the tuple picked out of row + constants + inner compound terms (C-level steps)
    consts = [x for x in term if x.__class__ is str and x[:1] != "?" or not variables(x)]
    inner = [_builder(x, col) for x in term if x.__class__ is not str and variables(x)]
    at, c, k = [], len(col), len(col) + len(consts)
    for x in term:
        if x.__class__ is str and x[:1] == "?":
            at.append(col[x])
        elif x.__class__ is str or not variables(x):
            at.append(c)
            c += 1
        else:
            at.append(k)
            k += 1
    pick, fixed = _picker(at), tuple(consts)
    if not inner:
        return lambda row: pick(row + fixed)
    if len(inner) == 1:
        (f,) = inner
        return lambda row: pick(row + fixed + (f(row),))
    return lambda row: pick(row + fixed + tuple([f(row) for f in inner]))


def _picker(positions: list) -> Callable[[tuple], tuple]:
    """``lambda t: tuple(t[i] for i in positions)``, fast."""
    if not positions:
        return lambda t: ()
    if len(positions) == 1:
        i = positions[0]
        return lambda t: (t[i],)
    return itemgetter(*positions)


class _Literal:
    """A positive literal about to be joined, given the variables bound so far."""

    def __init__(self, atom, facts: Facts, cols: tuple):
        self.name, args = atom
        leaves = _leaves(args, [])
        col = {v: i for i, v in enumerate(cols)}
        bound = [i for i, x in enumerate(leaves) if x[:1] != "?" or x in col]
        self.index = facts.index(self.name, _shape(args), tuple(bound))
        # the key from row + consts: a column for a bound variable, else a constant
        consts = [leaves[i] for i in bound if leaves[i] not in col]
        self.consts = tuple(consts)
        self.key_of = _picker(
            [
                col[leaves[i]] if leaves[i] in col else len(cols) + consts.index(leaves[i])
                for i in bound
            ]
        )
        self.new: list[str] = []  # the variables this literal binds, in leaf order
        self.take: list[int] = []  # their leaf positions
        self.equal: list[tuple[int, int]] = []  # a repeated new variable: equal leaves
        first: dict[str, int] = {}
        for i, x in enumerate(leaves):
            if x[:1] == "?" and x not in col:
                if x in first:
                    self.equal.append((first[x], i))
                else:
                    first[x] = i
                    self.new.append(x)
                    self.take.append(i)

    def estimate(self, rows: list) -> float:
        """The candidate atoms for ``rows`` (counted on a sample, scaled)."""
        sample = rows if len(rows) <= _SAMPLE else rows[:: len(rows) // _SAMPLE]
        buckets = self.index.buckets
        key_of, consts = self.key_of, self.consts
        n = sum(len(buckets.get(key_of(row + consts), ())) for row in sample)
        return n * len(rows) / len(sample)


class _Body:
    """A body split into the positive literals to join and the checks."""

    def __init__(self, body, decided: Callable[[str], bool], keep):
        self.positive = [(i, lit[1]) for i, lit in enumerate(body) if lit[0] == "pos"]
        # a check: (kind, literal, its variables); an undecided negation checks nothing
        self.checks = [
            (lit[0], lit, variables(lit[1:]))
            for lit in body
            if lit[0] in ("distinct", "same") or (lit[0] == "neg" and decided(lit[1][0]))
        ]
        for lit in body:
            if lit[0] not in ("pos", "neg", "distinct", "same"):
                raise AssertionError(f"unknown literal kind {lit[0]!r}")
        self.keep = set(keep)


def _check_rows(rows: list, cols: tuple, check, facts: Facts) -> list:
    """The rows that pass one check (its variables all in ``cols``)."""
    kind, lit, _ = check
    col = {v: i for i, v in enumerate(cols)}
    if kind == "neg":
        name, args = lit[1]
        s = facts.sets.get(name, ())
        build = _builder(args, col)
        return [row for row in rows if build(row) not in s]
    left, right = _builder(lit[1], col), _builder(lit[2], col)
    if kind == "distinct":
        return [row for row in rows if left(row) != right(row)]
    return [row for row in rows if left(row) == right(row)]


def _join(rows: list, cols: tuple, lit: _Literal, needed: set, window) -> tuple[tuple, list]:
    """Join ``rows`` with ``lit``'s atoms (those whose serial is in ``window``,
    ``(lo, hi)`` with None for no bound), projected on the ``needed`` variables."""
    wide = cols + tuple(lit.new)
    # a row out of row + leaves: the needed columns, then the needed new variables
    at = list(range(len(cols))) + [len(cols) + i for i in lit.take]
    pick = _picker([at[i] for i, v in enumerate(wide) if v in needed])
    equal, buckets, key_of, consts = lit.equal, lit.index.buckets, lit.key_of, lit.consts
    lo, hi = window
    out: dict = {}
    check = current_limits().check
    for n, row in enumerate(rows):
        if n % _CHECK_EVERY == _CHECK_EVERY - 1:
            check()
        bucket = buckets.get(key_of(row + consts))
        if not bucket:
            continue
        if lo is not None or hi is not None:
            a = 0 if lo is None else bisect_left(bucket, lo, key=_serial)
            b = len(bucket) if hi is None else bisect_left(bucket, hi, key=_serial)
            bucket = bucket[a:b]
        for _, vals in bucket:
            if equal and any(vals[p] != vals[q] for p, q in equal):
                continue
            out[pick(row + vals)] = None
    return tuple(v for v in wide if v in needed), list(out)


def _apply_checks(rows: list, cols: tuple, pending: list, facts: Facts) -> list:
    """Apply (and remove from ``pending``) the checks whose variables are bound."""
    bound = set(cols)
    for check in [c for c in pending if c[2] <= bound]:
        pending.remove(check)
        rows = _check_rows(rows, cols, check, facts)
    return rows


def _rows(body: _Body, facts: Facts, delta=None) -> tuple[tuple, list]:
    """(variables, rows) of ``body``'s solutions projected on ``body.keep``;
    ``delta = (i, lo, hi)`` takes the positive literal written ``i``-th over the
    atoms of serial ``lo <= s < hi``, those written before it over ``s < lo``."""
    cols: tuple = ()
    rows: list = [()]
    todo = list(body.positive)
    pending = list(body.checks)
    rows = _apply_checks(rows, cols, pending, facts)
    while todo and rows:
        if delta is not None and len(todo) == len(body.positive):
            pick = next(k for k, (i, _) in enumerate(todo) if i == delta[0])
            lit = _Literal(todo[pick][1], facts, cols)
        else:  # the literal with the fewest candidates, the first written on a tie
            lits = [_Literal(atom, facts, cols) for _, atom in todo]
            costs = [x.estimate(rows) for x in lits]
            pick = costs.index(min(costs))
            lit = lits[pick]
        i, _ = todo.pop(pick)
        needed = body.keep | set().union(*(variables(a) for _, a in todo))
        needed |= set().union(*(c[2] for c in pending))
        window: tuple = (None, None)
        if delta is not None:
            window = (
                (delta[1], delta[2])
                if i == delta[0]
                else (None, delta[1])
                if i < delta[0]
                else window
            )
        cols, rows = _join(rows, cols, lit, needed, window)
        rows = _apply_checks(rows, cols, pending, facts)
    if pending and rows:  # read_rules refuses unsafe rules: every check is reached
        raise AssertionError(pending)
    if not rows:  # stopped early: the variables may not all be bound
        return tuple(body.keep), []
    if len(cols) > len(body.keep):  # the variables of the last checks
        last = [i for i, v in enumerate(cols) if v in body.keep]
        project = _picker(last)
        cols, rows = tuple(cols[i] for i in last), list(dict.fromkeys(map(project, rows)))
    return cols, rows


def table(body, facts: Facts, decided: Callable[[str], bool], keep) -> tuple[tuple, list]:
    """``(variables, rows)``: the distinct values of the variables ``keep`` (in the
    order ``variables``) under which ``body`` holds over ``facts`` (see the module
    docstring); ``decided(name)`` says whether a negation of relation ``name`` is
    checked (its atoms known exactly) or skipped."""
    return _rows(_Body(body, decided, keep), facts)


def solutions(body, facts: Facts, decided: Callable[[str], bool], keep) -> Iterator[dict]:
    """The rows of :func:`table` as bindings ``{variable: value}``."""
    cols, rows = table(body, facts, decided, keep)
    for row in rows:
        yield dict(zip(cols, row))


def fixpoint(
    rules: list[Rule],
    facts: Facts,
    decided: Callable[[str], bool],
    derive: Callable[[Rule, tuple], object],
) -> None:
    """Call ``derive(rule, head arguments)`` for each head the ``rules`` derive over
    ``facts``, semi-naively (the module docstring), until a round adds nothing to
    ``facts``; ``derive`` adds the atoms (and may add others, or refuse with an error)."""
    bodies = [(r, _Body(r.body, decided, variables(r.head[1]))) for r in rules]

    def fire(rule: Rule, body: _Body, delta=None) -> None:
        cols, rows = _rows(body, facts, delta)
        build = builder(rule.head[1], cols)
        for row in rows:
            derive(rule, build(row))

    lo = 0
    hi = facts.count
    for rule, body in bodies:
        fire(rule, body)
    while facts.count > hi:
        lo, hi = hi, facts.count
        new = {name for name, s in facts.sets.items() if _has_serial_in(s, lo, hi)}
        for rule, body in bodies:
            for i, atom in body.positive:
                if atom[0] in new:
                    fire(rule, body, (i, lo, hi))


def _has_serial_in(s: dict, lo: int, hi: int) -> bool:
    """Whether a relation's atoms ``s`` (args → serial, in serial order) has one
    numbered ``lo <= n < hi``."""
    for n in reversed(s.values()):
        if n < lo:
            return False
        if n < hi:
            return True
    return False
