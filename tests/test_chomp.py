"""symbolic.seeds.chomp: Chomp revisité's board nimbers on both engines and both rules,
against a brute force in Python, and the verdicts on the report's claims."""

from __future__ import annotations

from functools import lru_cache

import pytest

from symbolic.seeds.chomp import board_nimbers, components, rectangle, tablet_nimbers, verdicts
from symbolic.errors import QueryError


def brute_nimbers(size: int, edge: bool) -> dict[frozenset, int]:
    """Every board of a size × size grid, by the mex rule over bit masks."""
    cells = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    bit = {sq: 1 << i for i, sq in enumerate(cells)}
    moves = []  # (the chosen square, what goes)
    for r, c in cells:
        if edge:
            lines = [
                [(r, x) for x in range(c, size + 1)],
                [(r, x) for x in range(1, c + 1)],
                [(y, c) for y in range(r, size + 1)],
                [(y, c) for y in range(1, r + 1)],
            ]
        else:
            lines = [[(r, x) for x in range(1, size + 1)], [(y, c) for y in range(1, size + 1)]]
        moves += [(bit[(r, c)], sum(bit[sq] for sq in line)) for line in lines]

    @lru_cache(maxsize=None)
    def g(board: int) -> int:
        seen = {g(board & ~gone) for need, gone in moves if board & need}
        n = 0
        while n in seen:
            n += 1
        return n

    return {
        frozenset(sq for sq in cells if mask & bit[sq]): g(mask) for mask in range(1 << len(cells))
    }


@pytest.mark.parametrize("edge", [False, True])
@pytest.mark.parametrize("engine", ["explicit", "symbolic"])
def test_board_nimbers_match_a_brute_force(engine, edge):
    assert board_nimbers(3, edge, engine) == brute_nimbers(3, edge)


def test_autoref_agrees_on_the_2x2_board():
    for edge in (False, True):
        assert board_nimbers(2, edge, "symbolic", "autoref") == brute_nimbers(2, edge)


def test_size_is_checked():
    with pytest.raises(QueryError, match="size"):
        board_nimbers(5, False)


def test_components_and_rectangles():
    board = frozenset({(1, 1), (1, 2), (2, 1), (2, 2), (4, 4), (3, 4)})
    comps = sorted(components(board), key=len)
    assert [rectangle(c) for c in comps] == [(2, 1), (2, 2)]
    assert rectangle(frozenset({(1, 1), (1, 2), (2, 1)})) is None


def verdict_map(size, edge):
    return {v.claim.key: v for v in verdicts(brute_nimbers(size, edge), size)}


def test_tablets_under_each_rule():
    line = tablet_nimbers(brute_nimbers(3, False), 3)
    edge = tablet_nimbers(brute_nimbers(3, True), 3)
    # whole lines: a bar goes in one move (or loses one square): 1, 2, 1
    assert [line[(1, m)] for m in (1, 2, 3)] == [1, 2, 1]
    # to the edge: a bar is a Nim heap
    assert [edge[(1, m)] for m in (1, 2, 3)] == [1, 2, 3]
    assert line[(3, 3)] == edge[(3, 3)] == 0


@pytest.mark.parametrize(
    "edge, holds",
    [
        (False, {"2x2", "2x2m"}),
        (True, {"bar", "2x2", "2x2m"}),
    ],
)
def test_verdicts_on_the_3x3_board(edge, holds):
    vs = verdict_map(3, edge)
    assert {k for k, v in vs.items() if v.verdict == "holds"} == holds
    assert {k for k, v in vs.items() if v.verdict == "false"} == set(vs) - holds
    for v in vs.values():
        assert (v.counterexample is None) == (v.verdict == "holds"), v
        assert v.checked > 0, v
    assert vs["odd-side"].counterexample == (
        "2 × 3 has nimber 2; the claim says nimber 1"
        if not edge
        else "3 × 3 has nimber 0; the claim says nimber 2"
    )


def test_verdicts_on_the_4x4_board_line_rule_symbolic():
    # the command's default size, on the symbolic engine (the 3 × 3 tests tie it
    # to the explicit engine and the brute force)
    vs = {v.claim.key: v for v in verdicts(board_nimbers(4, False), 4)}
    assert {k for k, v in vs.items() if v.verdict == "holds"} == {"2x2", "2x2m"}
    assert vs["2x2m"].checked == 3  # 2 × 2, 2 × 4, 4 × 2
