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

**Where it is written.** On a cell of the board the move acts on (its
drawing changes there), never on a cell given to another move: :mod:`.cells`
(the cell of tic-tac-toe, the landing cell of a disc in Connect Four, the cut of
a chocolate bar, the last match taken from a heap).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..api import GameEngine, check_engine
from ..arguments import need, need_int, need_iterable
from ..errors import QueryError, SymbolicError
from ..model import Model
from ..analysis.play import Planner, Referee, drawer
from .boarddraw import draw_board
from .cells import Layout, acted_on, layout, place
from .figure import Picture

__all__ = [
    "MoveValue",
    "value_text",
    "position_value",
    "move_values",
    "place_moves",
    "slot_numbers",
    "board",
]


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


def place_moves(render, pos: tuple, moves: list[MoveValue]) -> list[MoveValue]:
    """Each move with the cell (row, column of the board, :mod:`.cells`) where its
    value is written: one it acts on, never one given to another move (None: no
    such cell is left, the value is listed beside the board)."""
    if not callable(render):
        raise QueryError(f"render must be a function position -> text, got {str(render)[:40]!r}")
    for m in need_iterable(moves, "the moves"):
        need(m, MoveValue, "a move", hint=" (move_values(...))")
    here = render(pos)
    where = place(layout(here), here, [render(m.target) for m in moves])
    return [MoveValue(m.target, m.value, cell) for m, cell in zip(moves, where)]


def slot_numbers(render, space, pos: tuple, lay: Layout) -> dict[tuple[int, int], str]:
    """{cell: k} for the cells of a grid block each drawn by one array slot ``a[k]``
    alone (tic-tac-toe's c[1..9]): the cells whose drawing changes when that slot
    alone changes (from ``pos``; positions the display cannot draw are skipped)."""
    here = render(pos)
    by: dict[tuple[int, int], set[int]] = {}
    for i, slot in enumerate(space.slots):
        for v in [v for v in slot.type.values() if v != pos[i]][:2]:
            try:
                there = render(pos[:i] + (v,) + pos[i + 1 :])
            except SymbolicError:
                continue
            for c in acted_on(lay, here, there):
                by.setdefault((c.row, c.col), set()).add(i)
    out = {}
    for b, (_, _, _, grid) in enumerate(lay.blocks):
        mine = [c for c in lay.cells if c.block == b]
        slots = [by.get((c.row, c.col), set()) for c in mine]
        labels = [space.slots[next(iter(x))].label if len(x) == 1 else "" for x in slots]
        index = [re.fullmatch(r"\w+\[(\d+)\]", lab) for lab in labels]
        if grid and all(index) and len({lab for lab in labels}) == len(mine):
            out.update({(c.row, c.col): m.group(1) for c, m in zip(mine, index)})
    return out


def board(model, engine: GameEngine, pos: tuple, heading: str | None = None) -> Picture:
    """The picture of ``pos`` drawn by the model's ``display`` (:mod:`.cells`): its
    cells as squares with grid lines, the columns numbered above each block, the
    rows of a grid left of it, an array slot's index in the corner of the cell it
    draws, and each legal move's value as a badge on a cell it acts on (SVG id
    ``move_R_C``: row R, column C of the board; ``move_unplaced_I``: the I-th move
    without a cell, listed below). ``heading`` goes above the title."""
    need(model, Model, "the model", hint=" (symbolic.model.load_model(...))")
    check_engine(engine)
    need(heading, str, "the heading", none=True)
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
    lay = layout(render(pos))
    shown = "a draw" if value is None else value_text(value)
    title = f"player {mover} to move: {shown}\non each move: +k wins in k moves, -k loses, = draw"
    full = f"{heading}\n{title}" if heading else title
    fig = draw_board(lay, moves, slot_numbers(render, engine.space, pos, lay), full)
    return Picture(
        fig, {"title": full, "moves": moves, "value": value, "mover": mover, "text": render(pos)}
    )
