"""A board's figure from its :class:`~.cells.Layout`: one square per cell with its
grid line, column numbers above each block, row numbers left of a grid, the
slot indices in the cells' corners, the moves' values as badges inside their
cells, the text of the drawing around them.

A cell is :data:`CELL` inches wide; a badge is sized to fit inside its cell, so
two badges never meet (each move has its own cell, :func:`.cells.place`).
"""

from __future__ import annotations

from .cells import Layout
from .figure import new_figure, set_title

__all__ = ["CELL", "HEAD", "ADVANCE", "draw_board"]

WIN, LOSS, DRAW = "#2b6cb0", "#c53030", "#718096"
#: a cell's side, in inches
CELL = 0.42
#: the extra height (in cells) above a block, for its column numbers
HEAD = 0.6
#: the fill of a '#' cell (a square of a bar), and the grid lines
FULL, LINE = "#d9b38c", "#4a5568"
#: the font sizes of a cell's character and of the numbers, in cell heights
GLYPH, SMALL = 0.55, 0.22
#: a monospace character's advance, in em (DejaVu Sans Mono)
ADVANCE = 0.602


def _value_text(v: int | None) -> str:
    return "=" if v is None else (f"+{v}" if v > 0 else str(v))


def _rows(lay: Layout) -> dict[int, float]:
    """The top (in cells, downwards from 0) of each line of the drawing."""
    starts = {first for first, _, _, _ in lay.blocks}
    out, y = {}, 0.0
    for r in range(lay.rows):
        if r in starts:
            y += HEAD
        out[r] = y
        y += 1
    return out


def _text_units(text: str, size: float) -> float:
    """The width of ``text`` in monospace at ``size`` points, in cells."""
    return len(text) * ADVANCE * size / 72 / CELL


def draw_board(lay: Layout, moves, numbers: dict, title: str):
    """The matplotlib figure of a board (module docstring); ``moves`` are
    :class:`~.board.MoveValue` with their cells, ``numbers`` {cell: slot index}."""
    top = _rows(lay)
    glyph, text_size = GLYPH * CELL * 72, 0.42 * CELL * 72
    unplaced = [m for m in moves if m.cell is None]
    height = top[lay.rows - 1] + 1 + (1.2 if unplaced else 0)
    left = max(
        [0.0] + [_text_units(t.text, text_size) - t.col for t in lay.texts if t.align == "right"]
    )
    right = max(
        [float(lay.width())]
        + [t.col + _text_units(t.text, text_size) for t in lay.texts if t.align == "left"]
        + [1.2 * len(unplaced)]
    )
    grid_rows = any(g for *_, g in lay.blocks)
    left += 0.6 if grid_rows else 0.2
    right += 0.2
    w, h = (left + right) * CELL, height * CELL
    fig = new_figure(max(w + 0.3, 4.2), h + 1.0)
    ax = fig.add_subplot()
    _cells(ax, lay, top, moves, numbers)
    _numbers(ax, lay, top)
    for t in lay.texts:
        ax.text(
            t.col,
            -top[t.row] - 0.5,
            t.text,
            ha=t.align,
            va="center",
            fontsize=text_size,
            family="monospace",
        )
    for i, m in enumerate(unplaced):
        _badge(ax, 1.2 * i + 0.6, -height + 0.6, m, f"move_unplaced_{i}", glyph)
    ax.set_xlim(-left, right)
    ax.set_ylim(-height - 0.1, 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    set_title(fig, fig.suptitle(title, fontsize=9), title)
    return fig


def _cells(ax, lay: Layout, top: dict, moves, numbers: dict) -> None:
    """Each cell: its square, its slot index, its badge or else its character."""
    from matplotlib.patches import Rectangle

    glyph, small = GLYPH * CELL * 72, SMALL * CELL * 72
    values = {m.cell: m for m in moves if m.cell is not None}
    for c in lay.cells:
        x, y = c.col, -top[c.row] - 1
        fill = FULL if c.char == "#" else "white"
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=fill, edgecolor=LINE, linewidth=0.8))
        if (c.row, c.col) in numbers:
            ax.text(
                x + 0.06,
                y + 0.94,
                numbers[(c.row, c.col)],
                ha="left",
                va="top",
                fontsize=small,
                color="#718096",
            )
        if (c.row, c.col) in values:
            _badge(ax, x + 0.5, y + 0.45, values[(c.row, c.col)], f"move_{c.row}_{c.col}", glyph)
        elif c.char not in ".#":
            ax.text(
                x + 0.5,
                y + 0.45,
                c.char,
                ha="center",
                va="center",
                fontsize=glyph,
                family="monospace",
            )


def _numbers(ax, lay: Layout, top: dict) -> None:
    """The column numbers above each block, the row numbers left of a grid."""
    small = SMALL * CELL * 72
    for first, n, columns, grid in lay.blocks:
        for k in range(columns):
            ax.text(
                k + 0.5,
                -top[first] + 0.1,
                str(k + 1),
                ha="center",
                va="bottom",
                fontsize=small * 1.2,
                color="#4a5568",
            )
        if grid:
            for i, r in enumerate(range(first, first + n)):
                ax.text(
                    -0.15,
                    -top[r] - 0.5,
                    str(i + 1),
                    ha="right",
                    va="center",
                    fontsize=small * 1.2,
                    color="#4a5568",
                )


def _badge(ax, x: float, y: float, move, gid: str, glyph: float) -> None:
    """A move's value in a rounded box that fits inside a cell."""
    text = _value_text(move.value)
    colour = DRAW if move.value is None else WIN if move.value > 0 else LOSS
    # bold DejaVu Sans: at most 0.72 em per character, the box's pad 0.15 em each side
    size = min(0.6 * glyph, 0.8 * CELL * 72 / (0.72 * len(text) + 0.3))
    t = ax.text(
        x,
        y,
        text,
        ha="center",
        va="center",
        fontsize=size,
        color="white",
        fontweight="bold",
        bbox={"boxstyle": "round,pad=0.15", "facecolor": colour, "edgecolor": colour},
    )
    t.set_gid(gid)
