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

from ..arguments import need, need_int, need_mapping
from ..errors import ArgumentValueError, QueryError

__all__ = [
    "FORMATS",
    "LAYOUTS",
    "new_figure",
    "Picture",
    "wrapped",
    "set_title",
    "fit_titles",
    "renderer",
]

#: the file types :meth:`Picture.save` writes
FORMATS = ("svg", "png", "pdf")
#: the resolution of a PNG, in dots per inch, unless told otherwise
DPI = 100
#: a figure's width and height are at most this many inches
MAX_INCHES = 100
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

    return Figure(figsize=(width, height), layout=layout)  # type: ignore[arg-type]  # checked: one of LAYOUTS


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
    symbolic.errors.QueryError: picture.gif: a picture is written as .svg, .png or .pdf
    """

    def __init__(self, figure, facts: dict):
        from matplotlib.figure import Figure

        need(figure, Figure, "the figure", hint=" (new_figure(width, height))")
        facts = dict(need_mapping(facts, "the facts"))
        self.figure = figure
        self.facts = facts

    def _render(self, fmt: str, dpi: float | None = None) -> bytes:
        import matplotlib

        dpi = DPI if dpi is None else dpi
        if not 10 <= need(dpi, (int, float), "the resolution (dpi)") <= 1200:
            raise ArgumentValueError(f"the resolution must be 10 to 1200 dots per inch, got {dpi}")
        buf = io.BytesIO()
        meta = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "symbolic"}):
            # the constrained layout settles on the second pass (the first leaves a
            # wrapped title too little room)
            self.figure.draw_without_rendering()
            self.figure.savefig(buf, format=fmt, metadata=meta, dpi=dpi)
        return buf.getvalue()

    def svg(self) -> str:
        """The picture as SVG text."""
        return self._render("svg").decode("utf-8")

    def png(self, dpi: float | None = None) -> bytes:
        """The picture as PNG bytes (rendered by Agg), at ``dpi`` dots per inch (100)."""
        return self._render("png", dpi)

    def resize(self, width: float, height: float) -> "Picture":
        """Set the figure's size to ``width`` × ``height`` inches (its titles wrapped
        again to the new width, the texts of its drawing scaled as the drawing is when
        the figure is smaller than it was made); the picture itself."""
        for size, what in ((width, "the width"), (height, "the height")):
            if not 0 < need(size, (int, float), what) <= MAX_INCHES:
                raise ArgumentValueError(
                    f"{what} must be a number of inches above 0 and at most {MAX_INCHES},"
                    f" got {size}"
                )
        fig = self.figure
        natural = getattr(fig, "_symbolic_size", None) or tuple(fig.get_size_inches())
        fig._symbolic_size = natural
        fig.set_size_inches(width, height)
        # a drawing keeps its proportions: its texts shrink with it (never grow)
        scale = min(1.0, width / natural[0], height / natural[1])
        for ax in fig.axes:
            for t in ax.texts:
                t._symbolic_font = getattr(t, "_symbolic_font", None) or t.get_fontsize()
                t.set_fontsize(t._symbolic_font * scale)
        fit_titles(fig)
        return self

    def save(self, path, dpi: float | None = None) -> Path:
        """Write the picture to ``path``, as SVG, PNG or PDF by its suffix (``dpi``:
        the resolution of a PNG); the path."""
        p = Path(need(path, (str, os.PathLike), "the path"))
        fmt = p.suffix.lower().lstrip(".")
        if fmt not in FORMATS:
            raise QueryError(f"{p}: a picture is written as .svg, .png or .pdf")
        data = self._render(fmt, dpi)
        try:
            p.write_bytes(data)
        except OSError as err:
            raise QueryError(f"{p}: cannot write the picture ({err.strerror})") from None
        return p

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<Picture: {self.facts.get('title', '')}>"


def wrapped(text: str, width: int) -> str:
    r"""``text`` with each of its lines broken at blanks into lines of at most
    ``width`` characters (a longer word is broken too).

    >>> print(wrapped("values of chocolate(m=10, n=7)\n(mover=1)", 16))
    values of
    chocolate(m=10,
    n=7)
    (mover=1)
    """
    import textwrap

    need_int(width, "the width", low=1)
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_on_hyphens=False) or [""])
        for line in need(text, str, "the text").split("\n")
    )


def set_title(fig, artist, text: str) -> None:
    """Give ``artist`` (a title or a figure's suptitle) the text ``text``, wrapped to
    the figure's width (:func:`fit_titles` wraps it again when the figure is resized)."""
    artist._symbolic_text = need(text, str, "the title")
    fig._symbolic_titles = [*getattr(fig, "_symbolic_titles", []), artist]
    fit_titles(fig)


def fit_titles(fig) -> None:
    """Wrap every title set by :func:`set_title` so that its lines fit the figure's
    width (measured in the title's font: the widest character of a line sets its
    length in characters)."""
    width = fig.get_figwidth() * 72 * 0.94  # points, a margin either side
    for artist in getattr(fig, "_symbolic_titles", []):
        size = artist.get_fontsize()
        # DejaVu Sans: at most 0.62 em per character of these titles (letters, digits)
        per_line = max(8, int(width / (0.62 * size)))
        artist.set_text(wrapped(artist._symbolic_text, per_line))


def renderer(fig):
    """An Agg renderer of ``fig`` after its layout is done (to measure drawn text): the
    figure is laid out twice, as :meth:`Picture._render` does (the layout settles), with
    the renderer's drawing turned off (the boxes are the same; no pixel is made)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    r = FigureCanvasAgg(fig).get_renderer()
    with r._draw_disabled():
        fig.draw(r)
        fig.draw(r)
    return r
