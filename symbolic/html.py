"""How results show themselves in Jupyter (``_repr_html_``): a count and a small
table, never more than :data:`ROWS` rows, however large the set.

Works on any object with the methods used (duck typing), so that the core
imports nothing above it.

>>> print(table_html(["x"], [(1,), (2,)], 5, "a set of 5 positions"))
<div><b>a set of 5 positions</b><table><tr><th>x</th></tr><tr><td>1</td></tr><tr><td>2</td></tr></table><small>... 3 more</small></div>
"""

from __future__ import annotations

from html import escape

__all__ = ["ROWS", "table_html", "positions_html", "fixpoint_html", "counts_html"]

#: at most this many rows in a table
ROWS = 20


def table_html(headers, rows, total: int, caption: str) -> str:
    """A caption, a table of ``rows`` under ``headers``, and how many of ``total``
    rows were left out."""
    head = "".join(f"<th>{escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    more = total - len(rows)
    tail = f"<small>... {more} more</small>" if more > 0 else ""
    return f"<div><b>{escape(caption)}</b><table><tr>{head}</tr>{body}</table>{tail}</div>"


def positions_html(ps, caption: str | None = None) -> str:
    """A PositionSet: its exact count and its :data:`ROWS` smallest positions
    (found by ``take``, without listing the rest)."""
    n = ps.count()
    labels = [s.label for s in ps.engine.space.slots]
    what = caption or f"{ps.engine.kind} set of {n} position{'s' if n != 1 else ''}"
    return table_html(labels, list(ps.take(ROWS)), n, what)


def fixpoint_html(fp) -> str:
    """A Fixpoint: its result's table and the number of steps (and layers)."""
    layers = "" if fp.layers is None else f", {len(fp.layers)} layers kept"
    n = fp.result.count()
    return positions_html(
        fp.result,
        f"fixpoint after {fp.iterations} step"
        f"{'s' if fp.iterations != 1 else ''}{layers}: {n} positions",
    )


def counts_html(name: str, counts: dict, caption: str, extra: list | None = None) -> str:
    """A table ``name | positions`` of ``{value: count}`` (at most :data:`ROWS` rows),
    then ``extra`` rows."""
    rows = [(k, v) for k, v in counts.items()] + list(extra or [])
    return table_html([name, "positions"], rows[:ROWS], len(rows), caption)
