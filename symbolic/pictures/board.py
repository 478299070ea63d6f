"""A position of a model with a ``display``, drawn as a board, with the value of
each legal move written where that move changes the drawing.

**The value of a move** c → c' for the player p to move at c, under the rules of
:class:`symbolic.analysis.outcome.Referee` (the game's declared outcome: ``win(p)`` sets, else normal
play) and the ranks of :class:`~symbolic.analysis.play.Planner` (fewest moves
to force the goal, the TD's attractor):

    value(c → c') = +(rank_{p}(c') + 1)   if p forces its goal from c'
                  = −(rank_O(c') + 1)     if the others O force theirs from c'
                  = None (a draw)         otherwise,

so +k: playing it, p wins within k moves (this one included); −k: p loses, at the
latest k moves from now; the best move has the largest value (+ before draws
before −, short wins and long defences first), and the position's own value
(:func:`position_value`) is that of its best move, as in ``symbolic values``.

**Where it is written.** The drawing of c' is compared with that of c,
character by character; the move's value goes on the first changed character
that no other move changes (the cell of tic-tac-toe, the landing cell of a disc
in Connect Four: the "to move" line changes for every move), else on its first
changed character.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..api import GameEngine, check_engine
from ..arguments import need, need_int, need_iterable
from ..errors import QueryError
from ..model import Model
from ..analysis.play import Planner, Referee, drawer
from .figure import Picture, new_figure

__all__ = [
    "UNIT",
    "MoveValue",
    "value_text",
    "position_value",
    "move_values",
    "place_moves",
    "board",
]

WIN, LOSS, DRAW = "#2b6cb0", "#c53030", "#718096"
#: the height of a line of the drawing, in inches
UNIT = 0.36


@dataclass(frozen=True)
class MoveValue:
    """A legal move: the successor, its value (None: a draw) and the cell
    (row, column of the drawing's text) where it is written (None without a drawing)."""

    target: tuple
    value: int | None
    cell: tuple[int, int] | None = None


def value_text(v: int | None) -> str:
    """+k, -k, 0, or '=' (a draw).

    >>> value_text(3), value_text(-2), value_text(None)
    ('+3', '-2', '=')
    """
    need_int(v, "the value", none=True)
    return "=" if v is None else (f"+{v}" if v > 0 else str(v))


def position_value(planner: Planner, pos: tuple, mover: int) -> int | None:
    """+rank of the mover's goal, −rank of the others' goal, or None (a draw)."""
    need(planner, Planner, "the planner")
    pos = planner.engine.space.check_position(pos)
    if need_int(mover, "the mover") not in planner.engine.game.players:
        raise QueryError(f"the mover {mover} is not a player of the game")
    me = frozenset({mover})
    r = planner.rank(me, pos)
    if r is not None:
        return r
    r = planner.rank(planner.opponents(me), pos)
    return None if r is None else -r


def move_values(engine: GameEngine, pos: tuple, planner: Planner | None = None) -> list[MoveValue]:
    """The value of every legal move at ``pos`` (module docstring), in the engines'
    order of successors.

    >>> from symbolic.seeds.games import subtraction
    >>> from symbolic.engines import make_engine
    >>> E = make_engine(subtraction(5), "explicit")    # take 1 to 3; stuck loses
    >>> [(m.target, m.value) for m in move_values(E, (1, 5))]
    [((2, 2), -2), ((2, 3), -2), ((2, 4), 3)]
    """
    if (
        need(planner, Planner, "the planner", none=True) is not None
        and planner.engine is not engine
    ):
        raise QueryError("the planner is one of another engine")
    pos = check_engine(engine).space.check_position(pos)
    if pos not in engine.positions():
        raise QueryError(f"{engine.space.as_dict(pos)} is not a position of the game")
    planner = planner or Planner(engine, Referee(engine))
    me = frozenset({planner.rules.mover(pos)})
    others = planner.opponents(me)
    out = []
    for s in engine.successors(pos).tuples():
        r = planner.rank(me, s)
        if r is not None:
            out.append(MoveValue(s, r + 1))
            continue
        r = planner.rank(others, s)
        out.append(MoveValue(s, None if r is None else -(r + 1)))
    return out


def _changes(before: str, after: str) -> list[tuple[int, int]]:
    a, b = before.splitlines(), after.splitlines()
    out = []
    for r in range(max(len(a), len(b))):
        la = a[r] if r < len(a) else ""
        lb = b[r] if r < len(b) else ""
        out += [
            (r, c)
            for c in range(max(len(la), len(lb)))
            if (la[c : c + 1] or " ") != (lb[c : c + 1] or " ")
        ]
    return out


def place_moves(render, pos: tuple, moves: list[MoveValue]) -> list[MoveValue]:
    """Each move with the cell of the drawing where its value is written."""
    if not callable(render):
        raise QueryError(f"render must be a function position -> text, got {str(render)[:40]!r}")
    for m in need_iterable(moves, "the moves"):
        need(m, MoveValue, "a move", hint=" (move_values(...))")
    here = render(pos)
    changed = [_changes(here, render(m.target)) for m in moves]
    seen: dict[tuple[int, int], int] = {}
    for ch in changed:
        for cell in ch:
            seen[cell] = seen.get(cell, 0) + 1
    out = []
    for m, ch in zip(moves, changed):
        own = [cell for cell in ch if seen[cell] == 1] or ch
        out.append(MoveValue(m.target, m.value, own[0] if own else None))
    return out


def board(model, engine: GameEngine, pos: tuple) -> Picture:
    """The picture of ``pos`` drawn by the model's ``display``, each legal move's
    value on its cell (SVG id ``move_R_C``: row R, column C of the drawing's text)."""
    need(model, Model, "the model", hint=" (symbolic.model.load_model(...))")
    check_engine(engine)
    if model.display is None:
        raise QueryError(
            f"{model.source}: the model has no display declaration, so its "
            f"positions cannot be drawn as boards"
        )
    render = drawer(model.display, engine.space, str)
    planner = Planner(engine, Referee(engine))
    pos = engine.space.check_position(pos)
    moves = place_moves(render, pos, move_values(engine, pos, planner))
    mover = planner.rules.mover(pos)
    value = position_value(planner, pos, mover)
    lines = render(pos).splitlines() or [""]  # an empty drawing is one empty line
    width = max(1, *map(len, lines))
    # a character cell is 0.6 × 1 line (UNIT inches), the font fills it, as on a terminal
    w, h = 0.6 * UNIT * width, UNIT * len(lines)
    fw, fh = max(w + 0.4, 3.6), h + 0.7
    fig = new_figure(fw, fh, layout=None)
    ax = fig.add_axes(((fw - w) / 2 / fw, 0.15 / fh, w / fw, h / fh))
    at = {m.cell: m for m in moves if m.cell is not None}
    size = 0.6 * UNIT * 72 / 0.602 * 0.85  # DejaVu Sans Mono advances 0.602 em
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if (r, c) in at or ch == " ":
                continue
            ax.text(
                0.6 * c + 0.3,
                -r - 0.5,
                ch,
                ha="center",
                va="center",
                family="monospace",
                fontsize=size,
            )
    for (r, c), m in at.items():
        colour = DRAW if m.value is None else WIN if m.value > 0 else LOSS
        t = ax.text(
            0.6 * c + 0.3,
            -r - 0.5,
            value_text(m.value),
            ha="center",
            va="center",
            fontsize=0.45 * size,
            color="white",
            fontweight="bold",
            bbox={"boxstyle": "round,pad=0.2", "facecolor": colour, "edgecolor": colour},
        )
        t.set_gid(f"move_{r}_{c}")
    ax.set_xlim(0, 0.6 * width)
    ax.set_ylim(-len(lines), 0)
    ax.set_aspect("equal")
    ax.axis("off")
    shown = "a draw" if value is None else value_text(value)
    title = f"player {mover} to move: {shown}\non each move: +k wins in k moves, -k loses, = draw"
    fig.suptitle(title, fontsize=8, y=1 - 0.05 / fh, va="top")
    return Picture(
        fig, {"title": title, "moves": moves, "value": value, "mover": mover, "text": render(pos)}
    )
