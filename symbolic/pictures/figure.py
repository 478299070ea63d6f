"""A drawn picture: a matplotlib figure made without pyplot (so no screen and no
global backend: the SVG backend writes ``.svg``, Agg writes ``.png``), and the
facts it shows.

Every drawn element that a reader (or a test) may look for carries an SVG id
(matplotlib's ``gid``): ``cell_X_Y`` for a grid cell, ``move_R_C`` for a move's
value on a board, ``node_N``/``edge_N_M`` for a strategy graph; text stays text
(``svg.fonttype = none``) and ids are stable (``svg.hashsalt``).
"""

from __future__ import annotations

import io
import math
import os
from pathlib import Path

from ..arguments import need, need_mapping
from ..errors import ArgumentValueError, QueryError

__all__ = ["FORMATS", "LAYOUTS", "new_figure", "Picture"]

#: the file types :meth:`Picture.save` writes
FORMATS = ("svg", "png")
#: matplotlib's layout engines a figure may use (None: none)
LAYOUTS = ("constrained", "compressed", "tight", None)


def new_figure(width: float, height: float, layout: str | None = "constrained"):
    """A matplotlib ``Figure`` of ``width`` × ``height`` inches, outside pyplot
    (matplotlib is imported here, on first use)."""
    for size, what in ((width, "the width"), (height, "the height")):
        if not 0 < need(size, (int, float), what) < math.inf:
            raise ArgumentValueError(f"{what} must be a positive number of inches, got {size}")
    if layout not in LAYOUTS:
        raise ArgumentValueError(f"layout must be one of {LAYOUTS}, got {str(layout)[:40]!r}")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout=layout)


class Picture:
    """A figure and the facts it draws (a dict, see each drawing function).

    >>> from symbolic.pictures.figure import new_figure
    >>> fig = new_figure(1, 1)
    >>> p = Picture(fig, {"what": "nothing"})
    >>> p.svg().startswith("<?xml")
    True
    >>> p.save("picture.gif")
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: picture.gif: a picture is written as .svg or .png
    """

    def __init__(self, figure, facts: dict):
        from matplotlib.figure import Figure

        need(figure, Figure, "the figure", hint=" (new_figure(width, height))")
        facts = dict(need_mapping(facts, "the facts"))
        self.figure = figure
        self.facts = facts

    def _render(self, fmt: str) -> bytes:
        import matplotlib

        buf = io.BytesIO()
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "symbolic"}):
            self.figure.savefig(
                buf, format=fmt, metadata={"Date": None} if fmt == "svg" else None, dpi=100
            )
        return buf.getvalue()

    def svg(self) -> str:
        """The picture as SVG text."""
        return self._render("svg").decode("utf-8")

    def png(self) -> bytes:
        """The picture as PNG bytes (rendered by Agg)."""
        return self._render("png")

    def save(self, path) -> Path:
        """Write the picture to ``path``, as SVG or PNG by its suffix; the path."""
        p = Path(need(path, (str, os.PathLike), "the path"))
        fmt = p.suffix.lower().lstrip(".")
        if fmt not in FORMATS:
            raise QueryError(f"{p}: a picture is written as .svg or .png")
        data = self._render(fmt)
        try:
            p.write_bytes(data)
        except OSError as err:
            raise QueryError(f"{p}: cannot write the picture ({err.strerror})") from None
        return p

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<Picture: {self.facts.get('title', '')}>"
