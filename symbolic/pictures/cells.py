"""The cells of a model's drawing (the text its ``display`` writes), and the cell
where each move's value goes: the board's layout, no matplotlib.

**Cells.** The drawing is read line by line, each line as blank-separated words.
A *board line* is a line whose every word is a *board word*: no lower-case
letter, no digit, none of ``( ) : , ;`` (``O . X``, ``..##X##..``); each of its
characters is a cell, and the cells of consecutive board lines form a block
whose columns are the distinct character columns it uses (so ``O . X`` is three
adjacent cells). In any other line, a word of at least one character none of
which is a letter, a digit or ``( ) : , ;`` (the matches ``|||`` of ``heap 1:
||| (3)``) is a run of cells, the words before and after it are text; a line
without such a word is text (``player 1 to move``). A line of as many numbers as a
board block above it has columns (``1 2 3 4`` under Connect Four's board: the
columns' numbers a text board shows) is left out, and so are the numbers beside a
board line, as many as its cells (``. O .    4 5 6``: tic-tac-toe's key of the cells'
numbers): the picture numbers rows and columns itself.

**Where a move's value goes.** A move c → c' *acts on* the cells whose
character differs between the drawings of c and c'. Each move is given one cell
it acts on, no two moves the same cell: the moves with the fewest such cells
choose first; a move takes, among its free cells, the one acted on by the fewest
moves (the cut of a chocolate bar, the last match taken from a heap), then the
one nearest to the middle of its cells. A move whose cells are all taken (or
which changes no cell) has none: its value is listed beside the board.

>>> lay = layout("O . X\\n. . .\\nX to move")
>>> [(c.row, c.col, c.char) for c in lay.cells][:3], lay.texts[-1]
([(0, 0, 'O'), (0, 1, '.'), (0, 2, 'X')], Text(row=2, col=0.0, text='X to move', align='left'))
>>> place(lay, "O . X\\n. . .", ["O . X\\nO . .", "O O X\\n. . ."])
[(1, 0), (0, 1)]
>>> layout("O . X\\n1 2 3\\nX to move").texts
(Text(row=1, col=0.0, text='X to move', align='left'),)
>>> layout("O . X    1 2 3\\nX to move") == layout("O . X\\nX to move")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..arguments import need, need_iterable

__all__ = ["TEXTY", "Cell", "Text", "Layout", "layout", "without_keys", "acted_on", "place"]

#: characters that make a word text, not a board
TEXTY = set("():,;")


@dataclass(frozen=True)
class Cell:
    """A cell of the drawing: row ``row`` and column ``col`` of the board (a block's
    columns are numbered from 0 at its left), the character ``char``, the
    position ``at`` = (line, character column) in the drawing's text, and the
    ``block`` (consecutive lines of cells) it belongs to."""

    row: int
    col: int
    char: str
    at: tuple[int, int]
    block: int


@dataclass(frozen=True)
class Text:
    """A piece of text of the drawing at row ``row``: ``align`` "left" starts it at
    board column ``col``, "right" ends it there."""

    row: int
    col: float
    text: str
    align: str


@dataclass(frozen=True)
class Layout:
    """The cells and the texts of a drawing, and each block's rows and columns
    (``blocks[b] = (first row, rows, columns, is a grid of board lines)``)."""

    cells: tuple[Cell, ...]
    texts: tuple[Text, ...]
    blocks: tuple[tuple[int, int, int, bool], ...]
    rows: int

    def width(self) -> int:
        """The number of board columns (0 without cells)."""
        return max((c.col + 1 for c in self.cells), default=0)


def _board_word(word: str) -> bool:
    return not any(ch.islower() or ch.isdigit() or ch in TEXTY for ch in word)


def _run_word(word: str) -> bool:
    return not any(ch.isalnum() or ch in TEXTY for ch in word)


def _kinds(lines: list[str]) -> list[str]:
    """'grid', 'mixed' (text with a run of cells) or 'text', line by line."""
    out = []
    for line in lines:
        words = line.split()
        if words and all(map(_board_word, words)):
            out.append("grid")
        elif any(map(_run_word, words)):
            out.append("mixed")
        else:
            out.append("text")
    return out


def _column_numbers(line: str, blocks: list, row: int) -> bool:
    """True when ``line`` (at ``row``) is the column numbers of the board block ending
    just above it: as many numbers as its columns."""
    words = line.split()
    if not blocks or not all(w.isdigit() for w in words):
        return False
    first, rows, columns, grid = blocks[-1]
    return grid and first + rows == row and len(words) == columns


def _without_key(line: str) -> str:
    """``line`` without the numbers after its board words when there are as many of
    them as of board words (``. O .    4 5 6`` -> ``. O .``); else ``line``."""
    words = list(re.finditer(r"\S+", line))
    n = len(words) // 2
    if n == 0 or len(words) != 2 * n:
        return line
    board, key = words[:n], words[n:]
    if all(_board_word(w.group()) for w in board) and all(w.group().isdigit() for w in key):
        return line[: key[0].start()].rstrip()
    return line


def without_keys(drawing: str) -> str:
    """``drawing`` without the numbers beside its board lines (:func:`_without_key`):
    the board alone, as a strategy graph's node shows it.

    >>> without_keys("O . X    1 2 3\\nX to move")
    'O . X\\nX to move'
    """
    return "\n".join(_without_key(line) for line in need(drawing, str, "the drawing").split("\n"))


def layout(drawing: str) -> Layout:
    """The :class:`Layout` of ``drawing`` (module docstring)."""
    lines = [_without_key(line) for line in need(drawing, str, "the drawing").splitlines()]
    lines = lines or [""]
    kinds = _kinds(lines)
    cells: list[Cell] = []
    texts: list[Text] = []
    blocks: list[tuple[int, int, int, bool]] = []
    skipped: list[int] = []
    r = 0
    while r < len(lines):
        kind = kinds[r]
        if kind == "text":
            if _column_numbers(lines[r], blocks, r):
                skipped.append(r)
            elif lines[r].strip():
                texts.append(Text(r, 0.0, lines[r].strip(), "left"))
            r += 1
            continue
        end = r
        while end < len(lines) and kinds[end] == kind:
            end += 1
        b = len(blocks)
        if kind == "grid":
            columns = sorted({c for line in lines[r:end] for c, ch in enumerate(line) if ch != " "})
            where = {c: i for i, c in enumerate(columns)}
            for i in range(r, end):
                cells += [
                    Cell(i, where[c], ch, (i, c), b) for c, ch in enumerate(lines[i]) if ch != " "
                ]
            blocks.append((r, end - r, len(columns), True))
        else:
            widest = 0
            for i in range(r, end):
                widest = max(widest, _mixed(lines[i], i, b, cells, texts))
            blocks.append((r, end - r, widest, False))
        r = end
    if not skipped:
        return Layout(tuple(cells), tuple(texts), tuple(blocks), len(lines))

    def up(row: int) -> int:  # the row once the skipped lines are gone (``at`` keeps the text's)
        return row - sum(s < row for s in skipped)

    return Layout(
        tuple(replace(c, row=up(c.row)) for c in cells),
        tuple(replace(t, row=up(t.row)) for t in texts),
        tuple((up(b[0]), *b[1:]) for b in blocks),
        len(lines) - len(skipped),
    )


def _mixed(line: str, row: int, block: int, cells: list, texts: list) -> int:
    """The cells (from column 0) and texts of a line with a run of cells; its width."""
    words = list(re.finditer(r"\S+", line))
    first = next(i for i, w in enumerate(words) if _run_word(w.group()))
    run = words[first]
    before = line[: run.start()].strip()
    after = line[run.end() :].strip()
    width = len(run.group())
    cells += [Cell(row, k, ch, (row, run.start() + k), block) for k, ch in enumerate(run.group())]
    if before:
        texts.append(Text(row, -0.25, before, "right"))
    if after:
        texts.append(Text(row, width + 0.25, after, "left"))
    return width


def acted_on(lay: Layout, before: str, after: str) -> list[Cell]:
    """The cells of ``lay`` (the layout of ``before``) whose character differs in
    ``after``."""
    a = after.splitlines()
    out = []
    for cell in lay.cells:
        r, c = cell.at
        line = a[r] if r < len(a) else ""
        if (line[c : c + 1] or " ") != cell.char:
            out.append(cell)
    return out


def place(lay: Layout, before: str, afters) -> list[tuple[int, int] | None]:
    """For each drawing in ``afters`` (a move's successor), the cell (row, column of
    the board) where its value goes, or None (module docstring)."""
    acts = [acted_on(lay, before, need(a, str, "a drawing")) for a in need_iterable(afters, "")]
    count: dict[tuple[int, int], int] = {}
    for cs in acts:
        for c in cs:
            count[(c.row, c.col)] = count.get((c.row, c.col), 0) + 1
    taken: set[tuple[int, int]] = set()
    out: list[tuple[int, int] | None] = [None] * len(acts)
    for i in sorted(range(len(acts)), key=lambda i: (len(acts[i]), i)):
        free = [(c.row, c.col) for c in acts[i] if (c.row, c.col) not in taken]
        if not free:
            continue
        mr = sum(r for r, _ in free) / len(free)
        mc = sum(c for _, c in free) / len(free)
        best = min(free, key=lambda rc: (count[rc], abs(rc[0] - mr) + abs(rc[1] - mc), rc))
        taken.add(best)
        out[i] = best
    return out
