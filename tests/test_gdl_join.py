"""symbolic.gdl.join against the grounder it replaced (kept here as the reference).

The reference is ground.py's join before issue 36: a depth-first nested loop over
the body (ground literals first, then the one with the fewest unbound variables),
fixpoints re-running every rule until nothing changes. The ground program of
:func:`symbolic.gdl.ground.ground` must be the same, field by field, with either:
on every ``tests/gdl/*.kif``, every game shipped in ``symbolic/models/gdl`` and a
sample of small games of the GGP corpus when it is present; and the new join
must give the same atoms and bindings as the reference on random small Datalog
programs (recursion, negation of a lower relation, distinct, compound terms).
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.errors import ModelError
from symbolic.gdl import ground as G
from symbolic.gdl.join import Facts, fixpoint, solutions
from symbolic.gdl.kif import parse_kif
from symbolic.gdl.rules import Rule, read_rules, variables

from .conftest import ROOT

HERE = Path(__file__).resolve().parent

# --------------------------------------------------------------------------- the reference


def _subst(t, b):
    if not b:
        return t
    if t.__class__ is str:
        return b.get(t, t)
    return tuple([x if x.__class__ is str and x not in b else _subst(x, b) for x in t])


def _match(pattern, term, b):
    if pattern.__class__ is str:
        if pattern[:1] == "?":
            v = b.get(pattern)
            if v is None:
                b = dict(b)
                b[pattern] = term
                return b
            return b if v == term else None
        return b if pattern == term else None
    if not isinstance(term, tuple) or len(term) != len(pattern):
        return None
    for p, t in zip(pattern, term):
        b = _match(p, t, b)
        if b is None:
            return None
    return b


class RefDb(G._Db):
    """The old database over :class:`G._Db` (whose ``sets`` and ``derive`` the
    reference uses, not its indexes): its scans, by the first argument when bound."""

    def __init__(self, written: int = 0):
        super().__init__(written)
        self.by_first: dict = defaultdict(lambda: defaultdict(list))

    def add(self, name, args) -> bool:
        if not super().add(name, args):
            return False
        self.by_first[name][args[0] if args else None].append(args)
        return True

    def scan(self, name, pattern, b):
        pattern = _subst(pattern, b)
        if not variables(pattern):
            if pattern in self.sets.get(name, ()):
                yield b
            return
        if pattern and not variables(pattern[0]):
            atoms = list(self.by_first.get(name, {}).get(pattern[0], ()))
        else:
            atoms = list(self.sets.get(name, ()))
        for args in atoms:
            nb = _match(pattern, args, b)
            if nb is not None:
                yield nb


def ref_solve(body, db, b, decided):
    """The old ``_solve``: every binding of ``body`` (one per instance, none projected)."""
    if not body:
        yield b
        return
    best, best_score = None, None
    for i, lit in enumerate(body):
        if lit[0] == "pos":
            score = (1, len(variables(_subst(lit[1][1], b))))
        else:
            if variables(_subst(lit[1:], b)):
                continue
            score = (0, 0)
        if best_score is None or score < best_score:
            best, best_score = i, score
    assert best is not None, body
    lit, rest = body[best], body[:best] + body[best + 1 :]
    kind = lit[0]
    if kind == "distinct":
        if _subst(lit[1], b) != _subst(lit[2], b):
            yield from ref_solve(rest, db, b, decided)
    elif kind == "same":
        if _subst(lit[1], b) == _subst(lit[2], b):
            yield from ref_solve(rest, db, b, decided)
    elif kind == "neg":
        name, args = lit[1]
        if not decided(name) or not db.has(name, _subst(args, b)):
            yield from ref_solve(rest, db, b, decided)
    else:
        name, args = lit[1]
        for nb in db.scan(name, args, b):
            yield from ref_solve(rest, db, nb, decided)


def ref_fixpoint(rules, db, decided, derive) -> None:
    """The old naive fixpoint: every rule over every atom until a round adds nothing."""
    changed = True
    while changed:
        before = db.count
        for r in rules:
            for b in list(ref_solve(r.body, db, {}, decided)):
                derive(r, _subst(r.head[1], b))
        changed = db.count > before


def ref_static_db(rules, deps, dyn):
    level = G.strata(deps, [n for n in deps if n not in dyn], rules)
    db = RefDb(max((G.term_depth(t) for r in rules for t in G._terms_of(r)), default=1))
    static_rules = [r for r in rules if r.head[0] not in dyn]
    exact = lambda name: name not in dyn  # noqa: E731
    for stratum in sorted(set(level.values())):
        todo = [r for r in static_rules if level[r.head[0]] == stratum]
        for r in todo:
            if not r.body:
                db.derive(r.head[0], r.head[1], r)
        todo = [r for r in todo if r.body]
        ref_fixpoint(todo, db, exact, lambda r, head: db.derive(r.head[0], head, r))
    return db


def ref_possible(dyn_rules, db, dyn) -> None:
    exact = lambda name: name not in dyn  # noqa: E731
    for f in list(db.sets.get("init", ())):
        db.add("true", f)

    def derive(r, head):
        if db.derive(r.head[0], head, r):
            if r.head[0] == "next":
                db.add("true", head)
            elif r.head[0] == "legal":
                db.add("does", head)

    ref_fixpoint(dyn_rules, db, exact, derive)


def ref_instances(dyn_rules, db, dyn) -> dict:
    exact = lambda name: name not in dyn  # noqa: E731
    ground_rules: dict = defaultdict(set)
    for r in dyn_rules:
        for b in ref_solve(r.body, db, {}, exact):
            body = []
            ok = True
            for lit in r.body:
                if lit[0] in ("distinct", "same"):
                    continue
                name, args = lit[1]
                g = (name, _subst(args, b))
                if name not in dyn:
                    if lit[0] == "neg" and db.has(*g):
                        ok = False
                    continue
                if lit[0] == "neg" and not db.has(*g):
                    continue
                body.append((lit[0], g))
            if ok:
                ground_rules[(r.head[0], _subst(r.head[1], b))].add(
                    tuple(sorted(set(body), key=repr))
                )
    return ground_rules


def reference_ground(rules, filename="<string>"):
    """:func:`G.ground` with the reference join in place of :mod:`symbolic.gdl.join`."""
    saved = G._static_db, G._possible, G._instances
    G._static_db, G._possible, G._instances = ref_static_db, ref_possible, ref_instances
    try:
        return G.ground(rules, filename)
    finally:
        G._static_db, G._possible, G._instances = saved


def both(text: str, name: str):
    """(new, reference) ground programs of ``text``, or the two errors' texts."""
    rules = read_rules(parse_kif(text, name))
    out = []
    for f in (G.ground, reference_ground):
        try:
            out.append(f(rules, name))
        except ModelError as e:
            out.append(("error", str(e)))
    return out


# --------------------------------------------------------------------------- whole games

KIFS = sorted((HERE / "gdl").glob("*.kif")) + sorted(
    (ROOT / "symbolic" / "models" / "gdl").glob("*.kif")
)


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_same_ground_program_as_the_reference(path):
    new, ref = both(path.read_text(), path.name)
    assert new == ref
    assert not isinstance(new, tuple) and new.rules  # a game, not two equal errors


#: the GGP corpus: $SYMBOLIC_GGP_CORPUS, else beside the checkout or beside its parent
#: (worktrees), as bench/ggp_corpus.py finds it
GGP = next(
    (
        d
        for d in [Path(os.environ.get("SYMBOLIC_GGP_CORPUS", "/nonexistent"))]
        + [
            base / "shared" / "corpus" / "ggp-repository"
            for base in (ROOT.parent, ROOT.parent.parent)
        ]
        if d.is_dir()
    ),
    Path("/nonexistent"),
)

#: small corpus games the reference grounds in about a second or less: turn-based and
#: simultaneous, recursive helper relations (succ/plus/less), compound fluents
CORPUS_SAMPLE = (
    "buttons",
    "ticTacToe",
    "gt_prisoner",
    "nim1",
    "blocks",
    "hanoi",
    "kitten_escapes_from_fire",
    "maze",
    "roshambo2",
    "ruleDepthLinear",
    "pearls",
    "lightsOn",
)


@pytest.mark.skipif(not GGP.is_dir(), reason="the GGP corpus is not beside the checkout")
@pytest.mark.parametrize("name", CORPUS_SAMPLE)
def test_same_ground_program_on_corpus_games(name):
    path = GGP / f"{name}.kif"
    if not path.exists():
        pytest.skip(f"{name}.kif is not in this corpus")
    new, ref = both(path.read_text(), path.name)
    assert new == ref


def test_a_deep_term_is_refused_by_both():
    """A rule building ever deeper terms: both refuse it with the same located error."""
    text = """(role a) (succ 0 1) (<= (succ ?x (f ?x)) (succ ?y ?x))
      (init (c 0)) (<= (legal a go) (true (c 0))) (<= terminal (true (c 1)))"""
    new, ref = both(text, "deep.kif")
    assert new[0] == ref[0] == "error"
    assert "ever deeper terms" in new[1] and "ever deeper terms" in ref[1]


# --------------------------------------------------------------------------- random Datalog

CONSTANTS = ("a", "b", "c")
EDB = {"e": 2, "u": 1}  # relations given by facts
IDB = {"p": 2, "q": 1, "r": 2}  # relations given by rules, in this order of strata
VARS = ("?x", "?y", "?z", "?w")


def terms(depth: int = 1):
    leaf = st.sampled_from(CONSTANTS + VARS)
    if depth == 0:
        return leaf
    return st.one_of(leaf, st.tuples(st.just("f"), terms(depth - 1)))


def ground_terms():
    return st.one_of(
        st.sampled_from(CONSTANTS), st.tuples(st.just("f"), st.sampled_from(CONSTANTS))
    )


@st.composite
def programs(draw):
    """Facts of e and u, and rules for p, q, r: positive literals over any relation
    up to the rule's own (recursion), a negation of a relation strictly before it
    (stratified), a distinct; a head over the positive literals' variables (safe)."""
    facts = [
        Rule((name, tuple(draw(ground_terms()) for _ in range(n))), ())
        for name, n in EDB.items()
        for _ in range(draw(st.integers(0, 6)))
    ]
    names = list(EDB) + list(IDB)
    rules = []
    for k, (head, arity) in enumerate(IDB.items()):
        for _ in range(draw(st.integers(1, 3))):
            upto = names[: len(EDB) + k + 1]
            body = [
                ("pos", (rel, tuple(draw(terms()) for _ in range(ARITY[rel]))))
                for rel in draw(st.lists(st.sampled_from(upto), min_size=1, max_size=3))
            ]
            bound = sorted(set().union(*(variables(lit[1]) for lit in body)))
            pick = st.sampled_from(bound + list(CONSTANTS)) if bound else st.sampled_from(CONSTANTS)
            if bound and draw(st.booleans()):
                body.append(("distinct", draw(pick), draw(pick)))
            if bound and draw(st.booleans()):
                rel = draw(st.sampled_from(names[: len(EDB) + k]))
                body.append(("neg", (rel, tuple(draw(pick) for _ in range(ARITY[rel])))))
            rules.append(Rule((head, tuple(draw(pick) for _ in range(arity))), tuple(body)))
    return facts, rules


ARITY = {**EDB, **IDB}


def evaluate(facts, rules, db, run) -> None:
    """The facts, then each relation's rules to a fixpoint, relation by relation."""
    for f in facts:
        db.add(*f.head)
    for name in IDB:
        run([r for r in rules if r.head[0] == name], db, lambda n: True, _add(db))


def _add(db):
    return lambda r, args: db.add(r.head[0], args)


@settings(max_examples=75, deadline=None)
@given(programs(), st.sets(st.sampled_from(VARS)))
def test_random_programs_same_atoms_and_bindings(program, keep):
    facts, rules = program
    new, ref = Facts(), RefDb()
    evaluate(facts, rules, new, fixpoint)
    evaluate(facts, rules, ref, ref_fixpoint)
    assert {n: set(s) for n, s in new.sets.items()} == {n: set(s) for n, s in ref.sets.items()}
    for r in rules:  # the bindings of each body over the final atoms, projected on keep
        want = keep & variables(r.body)
        got = {tuple(sorted(b.items())) for b in solutions(r.body, new, lambda n: True, want)}
        exp = {
            tuple(sorted((v, b[v]) for v in want))
            for b in ref_solve(r.body, ref, {}, lambda n: True)
        }
        assert got == exp, r
