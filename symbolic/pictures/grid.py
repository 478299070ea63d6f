"""Sets, values and nimbers as coloured grids over two variables.

For a space with slots s_1, ..., s_m, two of them x and y, and a value v_s for
every other slot s (the *fixed* slots), the grid of a function f on positions
is the table

    cell(a, b) = f(c_{a,b})   for a ∈ range(x), b ∈ range(y),

where c_{a,b} is the position with x = a, y = b and s = v_s elsewhere; a cell
whose c_{a,b} is not a position (an invariant excludes it) is drawn hatched and
holds :data:`OUTSIDE`. f is membership in a set (:func:`set_grid`), the ±k value
(:func:`values_grid`, :mod:`symbolic.analysis.values`) or the nimber
(:func:`nimbers_grid`, :mod:`symbolic.analysis.grundy`). x runs left to right,
y bottom to top.

>>> from symbolic.seeds.games import subtraction
>>> from symbolic.engines import make_engine
>>> from symbolic.analysis.grundy import layered_nimbers
>>> E = make_engine(subtraction(4), "explicit")       # slots j, k
>>> g = grid_of(layered_nimbers(E), "k", "j", {})
>>> [g.cells[(k, 1)] for k in g.xs]
[0, 1, 2, 3, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..api import PositionSet
from ..arguments import need, need_int, need_iterable, need_mapping
from ..errors import Hint, QueryError
from ..ir import Space
from ..analysis.grundy import Nimbers
from ..analysis.values import Values
from .figure import Picture, new_figure, set_title

__all__ = [
    "OUTSIDE",
    "MAX_AXIS",
    "DRAW_COLOUR",
    "Grid",
    "position_with",
    "grid_of",
    "draw_grid",
    "set_grid",
    "values_grid",
    "nimbers_grid",
]

#: the value of a cell whose point is not a position of the game
OUTSIDE = "not a position"
#: at most this many values along an axis
MAX_AXIS = 100
#: colours of a set's grid: in the set, not in it
SET_COLOUR, OTHER_COLOUR = "#2b6cb0", "#e2e8f0"
DRAW_COLOUR = "#a0a0a0"


@dataclass(frozen=True)
class Grid:
    """What a grid shows: ``kind`` ("set", "values" or "nimbers"), the axes' slot
    labels ``x``, ``y`` and their values ``xs``, ``ys``, the ``fixed`` slots, and
    ``cells[(a, b)]``: True/False (set), the value or None for a draw (values),
    the nimber (nimbers), or :data:`OUTSIDE`."""

    kind: str
    x: str
    y: str
    xs: tuple[int, ...]
    ys: tuple[int, ...]
    fixed: dict
    cells: dict

    def count(self, value) -> int:
        """How many cells hold ``value``."""
        return sum(v == value and type(v) is type(value) for v in self.cells.values())


def position_with(space, given: Mapping[str, int], base: tuple | None, free=()) -> dict:
    """{label: value} for every slot not in ``free``: ``given``, else ``base``'s value.

    QueryError naming the slots left without a value when ``base`` is None.

    >>> from symbolic.ir import IntType, Space, VarDecl
    >>> sp = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, 3), IntType(1, 2))))
    >>> position_with(sp, {"j": 2}, None, free=("k[1]", "k[2]"))
    {'j': 2}
    >>> position_with(sp, {}, None, free=("k[1]",))
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: fix j, k[2] (at={'j': ..., 'k[2]': ...}): the grid varies k[1] only, and no initial position gives the others
    >>> position_with(sp, {"k[1]": 0}, None, free=("k[1]", "k[2]"))
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: k[1] is an axis of the grid: it cannot also be fixed (leave it out of at)
    """
    need(space, Space, "the space")
    for label, value in need_mapping(given, "the fixed values (at)").items():
        need(label, str, "a slot label of at")
        need_int(value, f"the value of {label}")
    free = [need(f, str, "a free slot (a label)") for f in need_iterable(free, "the free slots")]
    if base is not None:
        base = space.check_position(base)
    labels = [s.label for s in space.slots]
    unknown = [k for k in given if k not in labels]
    if unknown:
        raise QueryError(f"unknown {', '.join(unknown)} (the slots are {', '.join(labels)})")
    axes = [k for k in given if k in free]
    if axes:
        raise QueryError(
            (
                f"{' and '.join(axes)} {'is an axis' if len(axes) == 1 else 'are axes'}"
                f" of the grid: {'it' if len(axes) == 1 else 'they'} cannot also be "
                f"fixed (leave {'it' if len(axes) == 1 else 'them'} out of ",
                Hint("omit", "at", tuple(axes)),
                ")",
            )
        )
    out, missing = {}, []
    for i, label in enumerate(labels):
        if label in free:
            continue
        if label in given:
            out[label] = given[label]
        elif base is not None:
            out[label] = base[i]
        else:
            missing.append(label)
    if missing:
        why = (
            f"the grid varies {' and '.join(free)} only, and no initial position gives the others"
            if free
            else "no initial position gives their values"
        )
        raise QueryError(
            (f"fix {', '.join(missing)} (", Hint("give", "at", tuple(missing)), f"): {why}")
        )
    return out


def _axis(space, label: str, window, which: str) -> tuple[int, ...]:
    """The values of slot ``label`` along an axis: its range, or the part of it
    inside ``window`` (LO, HI) when given; at most :data:`MAX_AXIS` of them."""
    slots = {s.label: s for s in space.slots}
    if label not in slots:
        raise QueryError(f"no variable {label!r} to draw along (the slots are {', '.join(slots)})")
    values = tuple(slots[label].type.values())
    if window is not None:
        lo, hi = need_iterable(window, f"the window of {label} (LO, HI)")
        need_int(lo, f"the low end of the window of {label}")
        need_int(hi, f"the high end of the window of {label}")
        kept = tuple(v for v in values if lo <= v <= hi)
        if not kept:
            raise QueryError(
                f"the window {lo}..{hi} of {label} holds none of its values "
                f"({values[0]}..{values[-1]})"
            )
        values = kept
    if len(values) > MAX_AXIS:
        raise QueryError(
            (
                f"{label} takes {len(values)} values; a grid axis holds at most "
                f"{MAX_AXIS}: draw a window of it (",
                Hint("choose", which),
                ") or make its range smaller (",
                Hint("lower", "params"),
                ")",
            )
        )
    return values


def grid_of(
    what,
    x: str,
    y: str,
    at: Mapping[str, int],
    base: tuple | None = None,
    x_window: tuple[int, int] | None = None,
    y_window: tuple[int, int] | None = None,
) -> Grid:
    """The :class:`Grid` of ``what`` (a PositionSet, Values or Nimbers) over
    slots ``x`` and ``y`` (their values from LO to HI only when a window (LO, HI)
    is given), the other slots from ``at`` (else from ``base``)."""
    need(x, str, "x (a slot label)")
    need(y, str, "y (a slot label)")
    if x == y:
        raise QueryError(
            (Hint("choose", "x"), " and ", Hint("choose", "y"), f" name the same variable {x!r}")
        )
    # a cell holds OUTSIDE, the class of its position (True for a set's member, else a
    # value or a nimber), or ``default`` for a position of the domain in no class
    classes: list[tuple[object, PositionSet]]
    default: object
    if isinstance(what, PositionSet):
        kind, engine, classes, default = "set", what.engine, [(True, what)], False
    elif isinstance(what, Values):
        kind, engine, default = "values", what.engine, None
        classes = sorted(what.by_value.items())
    elif isinstance(what, Nimbers):
        kind, engine, default = "nimbers", what.engine, None
        classes = list(enumerate(what.layers))
    else:
        raise QueryError(f"a grid draws a set of positions, values or nimbers, not {what!r}")
    space = engine.space
    xs, ys = _axis(space, x, x_window, "x_window"), _axis(space, y, y_window, "y_window")
    fixed = position_with(space, at, base, free=(x, y))
    labels = [s.label for s in space.slots]
    domain = engine.positions()
    points = {}
    for a in xs:
        for b in ys:
            pos = tuple(a if lab == x else b if lab == y else fixed[lab] for lab in labels)
            points[pos] = (a, b)
    inside = [p for p in points if p in domain]
    cells: dict[tuple, object] = {ab: OUTSIDE for ab in points.values()}
    for p in inside:
        cells[points[p]] = default
    plane = engine.from_tuples(inside)
    for value, members in classes:
        for p in (members & plane).tuples():
            cells[points[p]] = value
    return Grid(kind, x, y, xs, ys, fixed, cells)


def _text_colour(rgb) -> str:
    r, g, b = rgb[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def _colours(grid: Grid):
    """(cell -> fill colour, cell -> text or None, legend entries)."""
    from matplotlib import colormaps, colors

    fill: dict = {}
    text: dict = {}
    if grid.kind == "set":
        for ab, v in grid.cells.items():
            fill[ab] = None if v == OUTSIDE else SET_COLOUR if v else OTHER_COLOUR
        return fill, text
    numbers = [v for v in grid.cells.values() if isinstance(v, int)]
    if grid.kind == "values":
        top = max([abs(v) for v in numbers] + [1])
        cmap, norm = colormaps["RdBu"], colors.Normalize(-top, top)
    else:
        cmap, norm = colormaps["viridis"], colors.Normalize(0, max(numbers + [1]))
    for ab, v in grid.cells.items():
        if v == OUTSIDE:
            fill[ab] = None
        elif v is None:
            fill[ab], text[ab] = DRAW_COLOUR, "draw"
        else:
            fill[ab] = colors.to_hex(cmap(norm(v)))
            text[ab] = (f"+{v}" if v > 0 else str(v)) if grid.kind == "values" else str(v)
    return fill, text


def _fitting(text: str, side: float) -> float:
    """A font size (points) at which ``text`` fits a cell of ``side`` inches (9 at most)."""
    # DejaVu Sans digits and signs: 0.64 em at most; 85 % of the cell
    return max(2.0, min(9.0, 0.85 * side * 72 / (0.64 * len(text))))


def _step(values: tuple[int, ...], side: float, across: bool) -> int:
    """Label every k-th value of an axis, k the smallest that keeps the labels
    (8 points) apart: along x their width, along y their height."""
    wide = max(len(str(v)) for v in values) * 0.64 * 8 + 4 if across else 12
    k = 1
    while k * side * 72 < wide:
        k += 1
    return k


def draw_grid(grid: Grid, title: str) -> Picture:
    """The picture of ``grid``: one rectangle per cell (SVG id ``cell_A_B``), its
    number written in it (id ``label_A_B``) for values and nimbers."""
    need(grid, Grid, "the grid", hint=" (grid_of(...))")
    need(title, str, "the title")
    from matplotlib import colors
    from matplotlib.patches import Patch

    from .gridcells import Cell, GridCells

    nx_, ny = len(grid.xs), len(grid.ys)
    side = min(0.45, 11.5 / max(nx_, ny))  # a cell's side, in inches
    fig = new_figure(2.5 + side * nx_, 1.8 + side * ny)
    ax = fig.add_subplot()
    fill, text = _colours(grid)
    cells = []
    for i, a in enumerate(grid.xs):
        for k, b in enumerate(grid.ys):
            colour = fill[(a, b)]
            edge = "#718096" if colour else "#cbd5e0"
            cells.append(Cell(f"cell_{a}_{b}", i, k, colour or "white", edge, not colour))
            if (a, b) in text:
                t = ax.text(
                    i + 0.5,
                    k + 0.5,
                    text[(a, b)],
                    ha="center",
                    va="center",
                    fontsize=_fitting(text[(a, b)], side),
                    color=_text_colour(colors.to_rgb(colour)),
                )
                t.set_gid(f"label_{a}_{b}")
                # the limits are set below and the texts lie inside them: neither the
                # data limits nor the layout need to visit thousands of them one by one
                t.set_in_layout(False)
    # one artist for every cell (each still its own SVG group)
    ax.add_artist(GridCells(cells))
    ax.set_xlim(0, nx_)
    ax.set_ylim(0, ny)
    ax.set_aspect("equal")
    sx, sy = _step(grid.xs, side, True), _step(grid.ys, side, False)
    ax.set_xticks([i + 0.5 for i in range(0, nx_, sx)], [str(a) for a in grid.xs[::sx]])
    ax.set_yticks([k + 0.5 for k in range(0, ny, sy)], [str(b) for b in grid.ys[::sy]])
    ax.tick_params(length=0, labelsize=8)
    ax.set_xlabel(grid.x)
    ax.set_ylabel(grid.y)
    fixed = ", ".join(f"{k}={v}" for k, v in grid.fixed.items())
    full_title = title + (f"\n({fixed})" if fixed else "")
    set_title(fig, ax.set_title(full_title, fontsize=10), full_title)
    if grid.kind == "set":
        handles = [
            Patch(facecolor=SET_COLOUR, label="in the set"),
            Patch(facecolor=OTHER_COLOUR, label="not in it"),
        ]
        if grid.count(OUTSIDE):
            handles.append(
                Patch(facecolor="white", hatch="//", edgecolor="#cbd5e0", label="not a position")
            )
        fig.legend(
            handles=handles,
            loc="outside lower center",
            ncols=len(handles),
            fontsize=8,
            frameon=False,
        )
    colours = {ab: c for ab, c in fill.items() if c is not None}
    facts = {"title": full_title, "grid": grid, "colours": colours, "texts": text}
    return Picture(fig, facts)


def _check_drawn(what, kind, name: str, at, title, hint: str = "") -> None:
    """The checks of a grid's arguments: ``what`` of the kind drawn, ``at`` a mapping or
    None, ``title`` a string."""
    need(what, kind, name, hint=hint)
    if at is not None:
        need_mapping(at, "at")
    need(title, str, "the title")


def set_grid(
    ps: PositionSet,
    x: str,
    y: str,
    at: Mapping[str, int] | None = None,
    base: tuple | None = None,
    title: str = "a set of positions",
    x_window: tuple[int, int] | None = None,
    y_window: tuple[int, int] | None = None,
) -> Picture:
    """The set ``ps`` over slots ``x``, ``y`` (the others from ``at``, else
    ``base``): cells in the set in :data:`SET_COLOUR`, the others in
    :data:`OTHER_COLOUR`, non-positions hatched."""
    _check_drawn(ps, PositionSet, "set_grid: the set", at, title)
    g = grid_of(ps, x, y, at or {}, base, x_window, y_window)
    n = g.count(True)
    return draw_grid(g, f"{title}: {n} of {len(g.cells)} cells")


def values_grid(
    values: Values,
    x: str,
    y: str,
    at: Mapping[str, int] | None = None,
    base: tuple | None = None,
    title: str = "values",
    x_window: tuple[int, int] | None = None,
    y_window: tuple[int, int] | None = None,
) -> Picture:
    """The ±k values over ``x``, ``y``: blue the mover wins (+k), red the mover
    loses (−k, 0 at a dead end), grey a draw; the value written in each cell."""
    _check_drawn(
        values,
        Values,
        "values_grid: the values",
        at,
        title,
        " (symbolic.analysis.values.two_player_values(engine))",
    )
    return draw_grid(
        grid_of(values, x, y, at or {}, base, x_window, y_window),
        f"{title} (+k: the player to move wins in k moves; -k: loses)",
    )


def nimbers_grid(
    nimbers: Nimbers,
    x: str,
    y: str,
    at: Mapping[str, int] | None = None,
    base: tuple | None = None,
    title: str = "nimbers",
    x_window: tuple[int, int] | None = None,
    y_window: tuple[int, int] | None = None,
) -> Picture:
    """The Sprague–Grundy values over ``x``, ``y``, each written in its cell."""
    _check_drawn(
        nimbers,
        Nimbers,
        "nimbers_grid: the nimbers",
        at,
        title,
        " (symbolic.analysis.grundy.layered_nimbers(engine))",
    )
    return draw_grid(
        grid_of(nimbers, x, y, at or {}, base, x_window, y_window),
        f"{title} (Sprague-Grundy values)",
    )
