"""Chomp revisité (internship report on Hackendot and Chomp, sections 2.4 and 3.3):
the nimbers of the boards, and a verdict on each of the report's claims and
conjectures, under both readings of a move (models/chomp.game, parameter edge).

The nimbers come from an engine on models/chomp.game with an M × M board
(every subset of it is a position): the n × m tablet is the board whose rows
1..n and columns 1..m are full and the rest empty. A claim is checked on every
tablet (or board) of the M × M board it speaks about; a verdict says whether
it held on all of them, or gives the first counterexample.

>>> boards = board_nimbers(2, edge=True, engine="explicit")
>>> tablet_nimbers(boards, 2)
{(1, 1): 1, (1, 2): 2, (2, 1): 2, (2, 2): 0}
>>> [v.verdict for v in verdicts(boards, 2) if v.claim.key == "bar"]
['holds']
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Callable

from ..engines import make_engine
from ..arguments import need, need_int, need_iterable, need_mapping
from ..errors import ArgumentTypeError, QueryError
from ..analysis.grundy import layered_nimbers, mex_nimbers
from ..model import load_model

__all__ = [
    "Claim",
    "CLAIMS",
    "Verdict",
    "board_nimbers",
    "tablet_nimbers",
    "verdicts",
    "components",
    "MAX_SIZE",
    "tablet",
    "rectangle",
]

#: the largest board side the verdicts enumerate (2^16 boards at 4 × 4)
MAX_SIZE = 4

MODEL = resources.files("symbolic") / "models" / "chomp.game"


def board_nimbers(
    size: int, edge: bool, engine: str = "symbolic", backend: str = "auto"
) -> dict[frozenset, int]:
    """{set of present squares (r, c), 1-based: nimber} for every board of the
    size × size model, player 1 to move (the nimber does not depend on who moves)."""
    _size(size)
    need(edge, bool, "edge")
    need(engine, str, "the engine kind")
    need(backend, str, "the backend")
    with resources.as_file(MODEL) as path:
        model = load_model(path, {"R": size, "C": size, "edge": edge})
    eng = make_engine(model.game, engine, backend)
    if engine == "explicit":
        table = mex_nimbers(eng)
    else:
        table = layered_nimbers(eng).table()
    cells = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    return {
        frozenset(sq for sq, bit in zip(cells, pos[1:]) if bit): g
        for pos, g in table.items()
        if pos[0] == 1
    }


def _size(size) -> int:
    """``size`` when it is a board side the verdicts handle, else a SymbolicError."""
    need_int(size, "the board size")
    if not 1 <= size <= MAX_SIZE:
        raise QueryError(f"board size must be 1..{MAX_SIZE}, got {size}")
    return size


def _board(board, what: str = "a board") -> frozenset:
    """``board`` as a frozenset of squares (r, c) of ints, else ArgumentTypeError."""
    squares = frozenset(need_iterable(board, what))
    for sq in squares:
        if not (
            isinstance(sq, tuple)
            and len(sq) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in sq)
        ):
            raise ArgumentTypeError(
                f"{what}: a square is a pair (row, column) of ints, got {sq!r:.40}"
            )
    return squares


def _boards(boards, size: int) -> dict[frozenset, int]:
    """``boards`` (as :func:`board_nimbers` gives them) checked: a mapping from boards
    to nimbers holding at least every tablet of the size × size board."""
    need_mapping(boards, "the boards (board_nimbers(size, edge))")
    for b, g in boards.items():
        _board(b, "a board of the boards")
        need_int(g, "a board's nimber", low=0)
    missing = [
        (n, m) for n in range(1, size + 1) for m in range(1, size + 1) if tablet(n, m) not in boards
    ]
    if missing:
        raise QueryError(
            f"the boards lack the {missing[0][0]} × {missing[0][1]} tablet: pass "
            f"the boards of board_nimbers({size}, edge)"
        )
    return boards


def tablet(n: int, m: int) -> frozenset:
    """The full n × m board (rows 1..n, columns 1..m)."""
    need_int(n, "the rows", low=0)
    need_int(m, "the columns", low=0)
    return frozenset((r, c) for r in range(1, n + 1) for c in range(1, m + 1))


def tablet_nimbers(boards: dict[frozenset, int], size: int) -> dict[tuple[int, int], int]:
    """{(n, m): nimber of the n × m tablet} for 1 ≤ n, m ≤ size."""
    _boards(boards, _size(size))
    return {(n, m): boards[tablet(n, m)] for n in range(1, size + 1) for m in range(1, size + 1)}


def components(board: frozenset) -> list[frozenset]:
    """The connected components of a board (squares sharing a side).

    >>> sorted(map(sorted, components(frozenset({(1, 1), (1, 2), (3, 3)}))))
    [[(1, 1), (1, 2)], [(3, 3)]]
    """
    return _components(_board(board))


def _components(board: frozenset) -> list[frozenset]:
    """:func:`components` of a board already checked."""
    left, out = set(board), []
    while left:
        todo = [left.pop()]
        comp = set(todo)
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in left:
                    left.remove(nb)
                    comp.add(nb)
                    todo.append(nb)
        out.append(frozenset(comp))
    return out


def rectangle(comp: frozenset) -> tuple[int, int] | None:
    """(rows, columns) when ``comp`` is a full rectangle, else None (also when empty)."""
    return _rectangle(_board(comp, "a component"))


def _rectangle(comp: frozenset) -> tuple[int, int] | None:
    """:func:`rectangle` of a component already checked."""
    if not comp:
        return None
    rows = {r for r, _ in comp}
    cols = {c for _, c in comp}
    n, m = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
    return (n, m) if len(comp) == n * m else None


@dataclass(frozen=True)
class Claim:
    """One claim of the report about tablets: where it says it, what it says,
    and what it predicts for an n × m tablet (None: it says nothing there)."""

    key: str
    where: str
    text: str
    predict: Callable[[int, int], int | None]
    about: str = "nimber"  # or "winner": the prediction is 1 (mover wins) / 0


def _first(n, m):
    return 1 if n % 2 or m % 2 else 0


def _odd_wins(n, m):
    return 1 if n % 2 or m % 2 else 0


def _bar(n, m):
    return max(n, m) if min(n, m) == 1 else None


def _two_by_two(n, m):
    return 0 if (n, m) == (2, 2) else None


def _two_by_even(n, m):
    return 0 if (n == 2 and m % 2 == 0) or (m == 2 and n % 2 == 0) else None


def _odd_side(n, m):
    if min(n, m) < 2 or not (n % 2 or m % 2):
        return None
    return 1 if (n + m) % 2 else 2


def _otherwise(n, m):
    if min(n, m) == 1 or _two_by_even(n, m) is not None:
        return None
    return 1 if (n % 2 or m % 2) and (n + m) % 2 else 2


CLAIMS = (
    Claim(
        "first",
        "3.3, first conjecture (dropped by the authors)",
        "nimber(n × m) = 1 if n or m is odd, else 0",
        _first,
    ),
    Claim(
        "odd-wins",
        "2.4, first idea",
        "the player to move wins on n × m iff n or m is odd",
        _odd_wins,
        "winner",
    ),
    Claim("bar", "2.4 and 3.3, 'prouvé'", "nimber(1 × m) = nimber(m × 1) = m", _bar),
    Claim("2x2", "3.3, 'prouvé'", "nimber(2 × 2) = 0", _two_by_two),
    Claim("2x2m", "2.4, 'prouvé'", "nimber(2 × 2m) = nimber(2m × 2) = 0", _two_by_even),
    Claim(
        "odd-side",
        "3.3, 'non prouvé'",
        "n × m (n, m ≥ 2) with n or m odd: nimber 1 if n + m is odd, else 2",
        _odd_side,
    ),
    Claim(
        "otherwise",
        "2.4, conjecture",
        "any other tablet (not 1 × m, not 2 × 2m): nimber 1 if n or m is odd and n + m "
        "is odd, else 2",
        _otherwise,
    ),
)

#: the claim about boards with several components (2.4), checked on boards: as
#: written, and on the friendliest reading (components sharing no row and no
#: column, so that no move touches two of them)
COMPONENTS_CLAIMS = (
    (
        "components",
        "2.4",
        "a board whose connected components are rectangles r_i × c_i "
        "has the nimber of the (Σ r_i) × (Σ c_i) tablet",
        False,
    ),
    (
        "components-apart",
        "2.4, friendliest reading",
        "the same, for components that share no row and no column",
        True,
    ),
)


@dataclass(frozen=True)
class Verdict:
    """What the boards say about one claim: ``verdict`` is "holds" (on all
    ``checked`` cases), "false" (with ``counterexample``) or "untested"."""

    claim: Claim
    verdict: str
    checked: int
    counterexample: str | None = None


def verdicts(boards: dict[frozenset, int], size: int) -> list[Verdict]:
    """A verdict for each claim of :data:`CLAIMS`, then the components claims, on
    the tablets and boards of the size × size board."""
    tablets = tablet_nimbers(boards, size)  # checks both
    out = []
    for claim in CLAIMS:
        checked, bad = 0, None
        for (n, m), g in tablets.items():
            p = claim.predict(n, m)
            if p is None:
                continue
            checked += 1
            got = int(g != 0) if claim.about == "winner" else g
            if got != p and bad is None:
                said = (
                    ("the mover wins" if p else "the mover loses")
                    if claim.about == "winner"
                    else f"nimber {p}"
                )
                bad = f"{n} × {m} has nimber {g}; the claim says {said}"
        out.append(
            Verdict(claim, "untested" if not checked else "false" if bad else "holds", checked, bad)
        )
    split = _split_into_rectangles(boards)
    for key, where, text, apart in COMPONENTS_CLAIMS:
        out.append(
            _components_verdict(
                boards, split, tablets, size, Claim(key, where, text, lambda n, m: None), apart
            )
        )
    return out


def _split_into_rectangles(
    boards,
) -> list[tuple[frozenset, list[frozenset], list[tuple[int, int]]]]:
    """(board, components, their shapes) for each board of two components or more, every
    one a rectangle, smallest boards first (the boards were checked by :func:`_boards`)."""
    out = []
    for board in sorted(boards, key=lambda b: (len(b), sorted(b))):
        comps = _components(board)
        if len(comps) < 2:
            continue
        shapes = [s for s in map(_rectangle, comps) if s is not None]
        if len(shapes) == len(comps):
            out.append((board, comps, shapes))
    return out


def _components_verdict(boards, split, tablets, size, claim: Claim, apart: bool) -> Verdict:
    checked, bad = 0, None
    for board, comps, shapes in split:
        if apart:
            rows = [{r for r, _ in c} for c in comps]
            cols = [{c for _, c in cc} for cc in comps]
            if sum(map(len, rows)) != len(set().union(*rows)) or sum(map(len, cols)) != len(
                set().union(*cols)
            ):
                continue
        n, m = sum(s[0] for s in shapes), sum(s[1] for s in shapes)
        if n > size or m > size:
            continue
        checked += 1
        if boards[board] != tablets[(n, m)] and bad is None:
            bad = (
                f"the board {{{', '.join(f'({r},{c})' for r, c in sorted(board))}}} has "
                f"nimber {boards[board]}; the {n} × {m} tablet has {tablets[(n, m)]}"
            )
    return Verdict(claim, "untested" if not checked else "false" if bad else "holds", checked, bad)
