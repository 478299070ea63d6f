"""A grid's cells as one matplotlib artist that draws each cell as a rectangle patch
would: in SVG a group per cell (its id ``cell_A_B``) holding one path, with the
patch's fill, edge, hatch and clip, but without an artist per cell.

A grid of n cells drawn as n :class:`matplotlib.patches.Rectangle` artists pays each
artist's transforms, clip boxes and bookkeeping when it is made and every time the
figure is drawn (three times for a saved picture: twice to lay it out, once to render
it); this artist takes every cell's corners to the display at once and draws the cells
in one loop, with one graphics context. The pictures are the same, byte for byte
(bench/README.md, the large grids).

>>> from symbolic.pictures.figure import new_figure
>>> fig = new_figure(2, 2)
>>> ax = fig.add_subplot()
>>> cells = GridCells([Cell("cell_0_0", 0, 0, "#2b6cb0", "#718096", False)])
>>> _ = ax.add_artist(cells)
>>> len(cells)
1
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import matplotlib
import numpy as np
from matplotlib import colors
from matplotlib.artist import Artist
from matplotlib.path import Path
from matplotlib.transforms import IdentityTransform

__all__ = ["Cell", "GridCells"]

#: the edge's width in points, as the cells were drawn as patches
EDGE_WIDTH = 0.5

_SQUARE = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1), (0, 0))


class Cell(NamedTuple):
    """A cell: its SVG id, its lower left corner (i, k) in data coordinates (its side
    is 1), its fill and edge colours, and whether it is hatched (``//``)."""

    gid: str
    i: int
    k: int
    face: str
    edge: str
    hatched: bool


class GridCells(Artist):
    """The cells of a grid, drawn in the axes' data coordinates above the axes'
    background and below the texts (a patch's z-order), out of the layout (they lie
    inside the axes' limits, which are set to hold them)."""

    zorder = 1

    def __init__(self, cells: Sequence[Cell]):
        super().__init__()
        self._looks = [
            (c.gid, colors.to_rgba(c.face), colors.to_rgba(c.edge), c.hatched) for c in cells
        ]
        # each cell's corners, closed, in data coordinates: (5 n, 2)
        self._corners = np.array(
            [(c.i + dx, c.k + dy) for c in cells for dx, dy in _CORNERS], dtype=float
        ).reshape(-1, 2)
        self.set_in_layout(False)

    def __len__(self) -> int:
        return len(self._looks)

    def draw(self, renderer) -> None:
        """Each cell as :meth:`matplotlib.patches.Patch.draw` draws a rectangle of
        these properties (solid edge, butt caps, mitred joins, antialiased), its
        corners taken to the display all at once."""
        if not self.get_visible():
            return
        if self.axes is None:  # drawn only once added to axes (ax.add_artist)
            raise AssertionError(self)
        corners = self.axes.transData.transform(self._corners)
        identity = IdentityTransform()
        hatch_width = matplotlib.rcParams["hatch.linewidth"]
        gc = renderer.new_gc()
        gc.set_linewidth(EDGE_WIDTH)
        gc.set_capstyle("butt")
        gc.set_joinstyle("miter")
        gc.set_antialiased(True)
        gc.set_dashes(0, None)
        if self.get_clip_on():  # the axes' box, as add_artist set it
            gc.set_clip_rectangle(self.get_clip_box())
            gc.set_clip_path(self.get_clip_path())
        for j, (gid, face, edge, hatched) in enumerate(self._looks):
            renderer.open_group("patch", gid)
            gc.set_hatch("//" if hatched else None)
            if hatched:
                gc.set_hatch_color(edge)
                gc.set_hatch_linewidth(hatch_width)
            gc.set_foreground(edge, isRGBA=True)
            square = Path(corners[5 * j : 5 * j + 5], _SQUARE)
            renderer.draw_path(gc, square, identity, face if face[3] else None)
            renderer.close_group("patch")
        gc.restore()
        self.stale = False
