"""``symbolic.gdl.build``'s terms of the ground atoms under a move: the bodies indexed per
mover (:meth:`~symbolic.gdl.build._Terms.split`) give the value the plain reading of the
ground program gives, on every state tried; the counts of items (at least one, at least
two) are the same by halves and one item at a time."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symbolic import ir
from symbolic.gdl.build import _Terms, one_two, one_two_in_turn
from symbolic.gdl.load import gdl_program

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KIFS = sorted((HERE / "gdl").glob("*.kif"))
CORPUS = [
    base / "shared" / "corpus" / "ggp-repository"
    for base in (ROOT.parent, ROOT.parent.parent)
    if (base / "shared" / "corpus" / "ggp-repository").is_dir()
]
#: turn-based corpus games whose next rules read the mover's move among many others
CORPUS_GAMES = ["knightThrough"]


def value(e, state: dict, seen: dict | None = None) -> bool:
    """``e`` (a bool, or an IR term of fluent variables, not, and, or) in ``state``; shared
    subterms once (``seen``, by identity)."""
    if isinstance(e, bool):
        return e
    seen = {} if seen is None else seen
    hit = seen.get(id(e))
    if hit is not None:
        return hit
    if isinstance(e, ir.Const):
        out = bool(e.value)
    elif isinstance(e, ir.Var):
        out = state[e.name]
    elif isinstance(e, ir.Unary):
        assert e.op == "not"
        out = not value(e.arg, state, seen)
    else:
        assert isinstance(e, ir.Binary) and e.op in ("and", "or"), e
        left = value(e.left, state, seen)
        out = (
            (left and value(e.right, state, seen))
            if e.op == "and"
            else (left or value(e.right, state, seen))
        )
    seen[id(e)] = out
    return out


def plain(prog, atom, ctx, state: dict, memo: dict) -> bool:
    """The value of ``atom`` in ``state`` when the mover plays ``ctx``'s move and every
    other role its legal move: every body of the ground program read, no index."""
    name, args = atom
    if name == "true":
        return state[args[0]]
    if name == "does":
        role, move = ctx
        if args[0] == role:
            return args[1] == move
        return plain(prog, ("legal", args), ctx, state, memo)
    key = (atom, ctx)
    if key not in memo:
        memo[key] = any(
            all(plain(prog, a, ctx, state, memo) == (kind == "pos") for kind, a in body)
            for body in prog.rules.get(atom, ())
        )
    return memo[key]


def check(prog, states: int, seed: int, moves: int | None = None) -> int:
    """Compare the terms of every ``next`` atom under every move with :func:`plain` on
    ``states`` random states (the initial one first), the first ``moves`` moves of each role
    (all when None); the number of comparisons."""
    var_of = {f: f"v{i}" for i, f in enumerate(prog.fluents)}
    terms = _Terms(prog, var_of)
    rnd = random.Random(seed)
    init = {f: f in prog.init for f in prog.fluents}
    samples = [init] + [{f: rnd.random() < 0.3 for f in prog.fluents} for _ in range(states)]
    memos: list[dict] = [{} for _ in samples]  # per state: (atom, move) → value
    seen: list[dict] = [{} for _ in samples]  # per state: id(term) → value
    names = [{var_of[g]: x for g, x in s.items()} for s in samples]
    n = 0
    for r in prog.roles:
        for m in list(prog.moves[r])[:moves]:
            for f in prog.fluents:
                e = terms.atom(("next", (f,)), (r, m))
                for s, memo, known, named in zip(samples, memos, seen, names):
                    assert value(e, named, known) == plain(prog, ("next", (f,)), (r, m), s, memo), (
                        r,
                        m,
                        f,
                    )
                    n += 1
    return n


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_next_terms_agree_with_the_plain_reading(path):
    prog = gdl_program(path.read_text(), str(path))
    assert check(prog, 12, 1) > 0


@pytest.mark.skipif(not CORPUS, reason="the GGP corpus is not beside the checkout")
@pytest.mark.parametrize("name", CORPUS_GAMES)
def test_next_terms_agree_on_corpus_games(name):
    path = CORPUS[0] / f"{name}.kif"
    prog = gdl_program(path.read_text(), str(path))
    assert check(prog, 1, 2, moves=4) > 0


def test_a_body_with_two_moves_of_the_mover_is_never_true():
    prog = gdl_program(
        "(role a) (init (s 0)) (<= (legal a x) (true (s 0))) (<= (legal a y) (true (s 0)))"
        "(<= (next (s 1)) (does a x) (does a y)) (<= (next (s 2)) (does a y))"
        "(<= terminal (true (s 1))) (<= terminal (true (s 2))) (<= (goal a 100) (true (s 1)))"
        "(<= (goal a 0) (true (s 2)))"
    )
    terms = _Terms(prog, {f: f"v{i}" for i, f in enumerate(prog.fluents)})
    s1 = next(f for f in prog.fluents if "1" in str(f))
    assert terms.atom(("next", (s1,)), ("a", "x")) is False
    assert terms.atom(("next", (s1,)), ("a", "y")) is False


@given(st.lists(st.integers(0, 255), max_size=12))
def test_counts_one_at_a_time_are_those_by_halves(items):
    """Items as sets of 8 points (bit masks): at least one, at least two of them."""
    want = one_two(items, int.__or__, int.__and__, 0)
    got = one_two_in_turn(items, int.__or__, int.__and__, 0)
    ones = sum(1 << p for p in range(8) if any(x >> p & 1 for x in items))
    twos = sum(1 << p for p in range(8) if sum(x >> p & 1 for x in items) >= 2)
    assert got == want == (ones, twos), (items, got, want)
