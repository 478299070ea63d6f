"""Pictures of sets, values, nimbers, boards and strategies, drawn with matplotlib
(and laid out with networkx), never with a screen or a system Graphviz.

- :func:`~.grid.set_grid`, :func:`~.grid.values_grid`, :func:`~.grid.nimbers_grid`:
  a set of positions, the ±k two-player values or the Sprague–Grundy values as a
  coloured grid over two variables, the other variables fixed;
- :func:`~.board.board`: a position of a model with a ``display``, with the value
  of each legal move written where the move changes the drawing;
- :func:`~.graph.strategy_graph`: a strategy as a graph (its moves bold).

Each returns a :class:`~.figure.Picture`: ``svg()``, ``png()``, ``save(path)``, and
``_repr_svg_`` so that Jupyter shows it; ``facts`` holds what was drawn (the
cells and their values, the moves, the nodes and edges), which the tests read back
from the SVG. matplotlib is imported only when a picture is drawn, so importing
this package (and starting the command line) stays fast.
"""

from .board import board, move_values
from .figure import Picture
from .graph import strategy_graph
from .grid import Grid, grid_of, nimbers_grid, set_grid, values_grid

__all__ = [
    "Picture",
    "Grid",
    "grid_of",
    "set_grid",
    "values_grid",
    "nimbers_grid",
    "board",
    "move_values",
    "strategy_graph",
]
