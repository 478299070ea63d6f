"""symbolic.seeds.hackendot: Ulehla's method (as the report reads, and corrected) against
the nimbers, which the engines compute on models/hackendot.game.

What the tests establish (docs/analyses.md, "Hackendot"):
* the report as written (LITERAL) is wrong already on one node, "()";
* counting rip(f⁰) and reattaching the children of removed white nodes to their
  nearest surviving ancestor makes the criterion right (and Σ rip(fⁱ)·2ⁱ is the
  nimber), but Algorithm 4's move search, which tests rip = 0 on one forest of
  the sequence only, still picks losing moves (smallest case below);
* testing the whole rip sequence of the candidate's result, as the prose says,
  makes the move right on every forest tried (CORRECTED).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from symbolic.seeds import hackendot as H
from symbolic.errors import QueryError
from symbolic.explicit import ExplicitGame
from symbolic.analysis.grundy import layered_nimbers, mex_nimbers
from symbolic.model import load_model

from .conftest import MODELS, build_engine


# --------------------------------------------------------------------------- the pieces


def test_forest_from_word_and_back():
    f = H.Forest.from_word("(()(()))(())()")
    assert f.parent == (None, 0, 0, 2, None, 4, None)
    assert f.roots() == [0, 4, 6] and f.children(0) == [1, 2]
    assert f.word() == "(()(()))(())()"
    for bad in ("(()", "())", "(a)"):
        with pytest.raises(QueryError, match="Dyck"):
            H.Forest.from_word(bad)


def test_colouring_is_the_kernel():
    # a node is white iff none of its children is white; leaves are white
    f = H.Forest.from_word("((()))(()())")  # a path of 3, and a root with 2 leaves
    assert H.colours(f) == [True, False, True, False, True, True]
    assert H.rip(f) == 1  # roots: 0 white, 3 black


def test_strip_kernel_reattaches_by_the_reading():
    # path a-b-c: c white, b black, a white; removing a and c leaves b alone.
    f = H.Forest.from_word("(((()))())")  # 0 -> 1 -> 2 -> 3, and 0 -> 4
    assert H.colours(f) == [False, True, False, True, True]
    # white: 1, 3, 4; survivors 0 and 2; 2's parent 1 is removed
    assert H.strip_kernel(f, "ancestor").parents == (None, 0)
    assert H.strip_kernel(f, "roots").parents == (None, None)


def test_remove_path_is_the_hackendot_move():
    f = H.Forest.from_word("((())())")
    g = f.remove_path(2)  # node 2, its parent 1, the root 0 go
    assert g.nodes == (3,) and g.parents == (None,)
    with pytest.raises(QueryError):
        g.remove_path(0)


def test_random_dyck_follows_the_grammar():
    rng = random.Random(3)
    seen = set()
    for size in range(1, 30):
        for _ in range(20):
            w = H.random_dyck(size, rng)
            f = H.Forest.from_word(w)
            assert len(f) == size and f.word() == w
            seen.add((len(f.roots()) > 1, any(p is not None for p in f.parents)))
    assert seen == {(False, False), (False, True), (True, False), (True, True)}
    assert len(H.random_dyck(3000, rng)) == 6000  # no recursion limit
    with pytest.raises(QueryError):
        H.random_dyck(0, rng)


def test_all_dyck_counts_are_catalan():
    assert [sum(1 for _ in H.all_dyck(n)) for n in range(1, 9)] == [1, 2, 5, 14, 42, 132, 429, 1430]


# --------------------------------------------------------------------------- nimbers


@pytest.mark.parametrize(
    "word", ["()", "((())())", "(()(()))(())()", "(())(()())", "((()())(()))(()(()()))"]
)
def test_nimber_recursion_matches_both_engines_on_the_model(word):
    model = load_model(MODELS / "hackendot.game", {"word": word})
    start = (1,) + (0,) * model.consts["N"]
    f = H.Forest.from_word(word)
    expected = H.nimber(f)
    assert mex_nimbers(ExplicitGame(model.game))[start] == expected
    for kind in ("explicit", "cudd") + (("autoref",) if len(f) <= 7 else ()):
        assert layered_nimbers(build_engine(model.game, kind)).of(start) == expected, kind


def present_forest(f: H.Forest, gone: tuple) -> H.Forest:
    """The position of models/hackendot.game with removed flags ``gone`` as a forest."""
    nodes = [v for v in f.nodes if not gone[v]]
    return H.Forest(
        tuple(nodes),
        tuple(
            f.parents[v] if f.parents[v] is not None and not gone[f.parents[v]] else None
            for v in nodes
        ),
    )


@pytest.mark.parametrize("seed", range(6))
def test_corrected_method_on_every_position_of_random_forests(seed):
    # every position of the model is a forest: the engines' nimbers against
    # Σ rip(fⁱ)·2ⁱ, the criterion and the move of the corrected reading
    rng = random.Random(seed)
    word = H.random_dyck(rng.randint(5, 9), rng)
    model = load_model(MODELS / "hackendot.game", {"word": word})
    f = H.Forest.from_word(word)
    for kind in ("explicit", "cudd"):
        table = layered_nimbers(build_engine(model.game, kind)).table()
        for pos, g in table.items():
            sub = present_forest(f, pos[1:])
            assert H.ulehla_value(sub, H.CORRECTED) == g, (word, sub.word(), g)
            assert H.wins(sub, H.CORRECTED) == (g != 0), (word, sub.word())
            if g:
                m = H.winning_move(sub, H.CORRECTED)
                assert H.nimber(sub.remove_path(m)) == 0, (word, sub.word(), m)


# --------------------------------------------------------------------------- the readings


def failures(words, reading):
    """(criterion wrong, move wrong) forests under ``reading``."""
    crit, move = [], []
    for w in words:
        f = H.Forest.from_word(w)
        g = H.nimber(f)
        if H.wins(f, reading) != (g != 0):
            crit.append(w)
        if g:
            m = H.winning_move(f, reading)
            if m is None or H.nimber(f.remove_path(m)) != 0:
                move.append(w)
    return crit, move


def small_and_random_forests():
    words = [w for n in range(1, 8) for w in H.all_dyck(n)]  # all 625 of 1..7 nodes
    rng = random.Random(2016)
    return words + [H.random_dyck(rng.randint(8, 12), rng) for _ in range(300)]


@pytest.fixture(scope="module")
def forests():
    return small_and_random_forests()


def test_literal_reading_is_wrong_already_on_one_node(forests):
    crit, move = failures(forests, H.LITERAL)
    assert crit[0] == "()" and move[0] == "()"
    f = H.Forest.from_word("()")
    assert H.nimber(f) == 1 and not H.wins(f, H.LITERAL) and H.wins(f, H.CORRECTED)


@pytest.mark.parametrize("name", ["literal", "start", "ancestor"])
def test_each_fix_alone_leaves_the_criterion_wrong(forests, name):
    crit, _ = failures(forests, H.READINGS[name])
    assert crit, f"{name}: the criterion was right on all {len(forests)} forests"


def test_the_two_fixes_make_the_criterion_right_but_not_the_moves(forests):
    crit, move = failures(forests, H.READINGS["start+ancestor"])
    assert crit == []
    assert move, "Algorithm 4's one-forest test found a winning move everywhere"
    # the smallest forest where it fails, found by the exhaustive part
    assert move[0] == "((())((())))"
    f = H.Forest.from_word(move[0])
    m = H.winning_move(f, H.READINGS["start+ancestor"])
    assert H.nimber(f) != 0 and H.nimber(f.remove_path(m)) != 0


def test_corrected_reading_is_right_everywhere(forests):
    assert failures(forests, H.CORRECTED) == ([], [])
    for w in forests:
        f = H.Forest.from_word(w)
        assert H.ulehla_value(f, H.CORRECTED) == H.nimber(f), w


@pytest.mark.fuzz
def test_corrected_reading_on_thousands_of_random_forests():
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000"))
    rng = random.Random(1979)
    words = [H.random_dyck(rng.randint(1, 16), rng) for _ in range(n)]
    crit, move = failures(words, H.CORRECTED)
    print(
        f"\nUlehla (corrected) on {n} random forests of 1..16 nodes: "
        f"{len(crit)} criterion and {len(move)} move failures"
    )
    assert (crit, move) == ([], [])
    assert all(
        H.ulehla_value(H.Forest.from_word(w), H.CORRECTED) == H.nimber(H.Forest.from_word(w))
        for w in words
    )


def _plain_nimber(f):
    """The mex recursion over the whole forest, without the sum of trees (issue 23)."""
    from functools import lru_cache

    nodes = f.nodes
    index = {v: i for i, v in enumerate(nodes)}
    paths = [sum(1 << index[a] for a in f.path(v)) for v in nodes]

    @lru_cache(maxsize=None)
    def g(present):
        seen = {g(present & ~paths[i]) for i in range(len(nodes)) if present >> i & 1}
        return next(n for n in range(len(seen) + 1) if n not in seen)

    return g((1 << len(nodes)) - 1)


def test_the_nimber_of_a_forest_is_the_xor_of_its_trees_on_every_forest_up_to_8_nodes():
    for n in range(1, 9):
        for w in H.all_dyck(n):
            f = H.Forest.from_word(w)
            assert H.nimber(f) == _plain_nimber(f), w


def test_a_flat_forest_of_10000_pairs_and_a_deep_path_get_their_nimbers(capsys):
    # issue 23: both ended in "input nests too deeply" (the recursion ran over 2^n sets)
    from symbolic.cli import main

    assert main(["hackendot", "()" * 10_000, "--engine", "none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nimber"] == 0
    assert H.nimber(H.Forest.from_word("(" * 300 + ")" * 300)) == 300  # a path is a Nim heap
    assert H.Forest.from_word("(" * 5000 + ")" * 5000).word() == "(" * 5000 + ")" * 5000
