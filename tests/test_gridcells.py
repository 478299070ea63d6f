"""symbolic.pictures.gridcells: a grid's cells in one artist draw what one rectangle
patch per cell drew, group for group, in SVG and in PNG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from symbolic.pictures.figure import Picture, new_figure
from symbolic.pictures.gridcells import EDGE_WIDTH, Cell, GridCells

SVG = "{http://www.w3.org/2000/svg}"

FACES = ["#2b6cb0", "#e2e8f0", "#fbd38d", "white"]


def _figure(cells: list[Cell], width: int, height: int, as_patches: bool):
    from matplotlib.patches import Rectangle

    fig = new_figure(2 + 0.4 * width, 2 + 0.4 * height)
    ax = fig.add_subplot()
    if as_patches:  # the drawing the artist replaces
        for c in cells:
            rect = Rectangle(
                (c.i, c.k),
                1,
                1,
                facecolor=c.face,
                edgecolor=c.edge,
                linewidth=EDGE_WIDTH,
                hatch="//" if c.hatched else None,
            )
            rect.set_gid(c.gid)
            rect.set_in_layout(False)
            ax.add_artist(rect)
    else:
        ax.add_artist(GridCells(cells))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    return Picture(fig, {})


def _cells_of(svg: str) -> dict[str, list[tuple[str, str]]]:
    """Each ``cell_`` group's paths: (d, style), the clip path's random name left out."""
    root = ET.fromstring(svg)
    return {
        g.get("id"): [
            (p.get("d"), re.sub(r"url\(#\w+\)", "url(#clip)", p.get("clip-path", "")))
            + (p.get("style"),)
            for p in g.iter(f"{SVG}path")
        ]
        for g in root.iter(f"{SVG}g")
        if g.get("id", "").startswith("cell_")
    }


@st.composite
def grids(draw):
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    cells = []
    for i in range(width):
        for k in range(height):
            if draw(st.booleans()) or not cells:
                hatched = draw(st.booleans())
                face = "white" if hatched else draw(st.sampled_from(FACES))
                edge = "#cbd5e0" if hatched else "#718096"
                cells.append(Cell(f"cell_{i}_{k}", i, k, face, edge, hatched))
    return cells, width, height


@settings(max_examples=4, deadline=None)
@given(grids())
def test_the_artist_draws_each_cell_as_its_rectangle_patch_did(grid):
    cells, width, height = grid
    patches = _figure(cells, width, height, as_patches=True)
    artist = _figure(cells, width, height, as_patches=False)
    drawn, expected = _cells_of(artist.svg()), _cells_of(patches.svg())
    assert drawn == expected, (set(drawn) ^ set(expected), cells)
    assert artist.png() == patches.png()


@pytest.mark.parametrize("hatched", [False, True])
def test_a_cell_is_one_group_of_its_id_holding_one_path(hatched):
    face = "white" if hatched else "#2b6cb0"
    pic = _figure([Cell("cell_7_3", 0, 0, face, "#718096", hatched)], 1, 1, as_patches=False)
    cells = _cells_of(pic.svg())
    assert list(cells) == ["cell_7_3"] and len(cells["cell_7_3"]) == 1, cells
    style = cells["cell_7_3"][0][2]
    assert ("url(#h" in style) == hatched and "stroke: #718096" in style, style
