"""A strategy as a graph picture: positions as nodes, the strategy's moves bold,
the other players' moves thin, laid out by networkx (no Graphviz).

The graph is that of :func:`symbolic.analysis.strategy.to_dot`: the positions met
by plays from the start when the coalition follows the strategy's table
(:meth:`~symbolic.analysis.strategy.Strategy.outcome`), the coalition's chosen
move at each of its positions outside the goal (bold), every move of the others
there (thin). Nodes are placed in rows by their distance from the start (a
breadth-first search along those edges); when there are more than ``max_nodes``
positions, the first ``max_nodes`` met by that search are drawn, and the title
says how many were left out. A node shows its label without the numbers a board
drawing writes beside its rows (:func:`.cells.without_keys`). The coalition's positions are squares, the
others' circles; the goal's are green, the start's grey.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from ..api import PositionSet, check_set
from ..arguments import need, need_int
from ..errors import QueryError
from ..analysis.strategy import Strategy
from .cells import without_keys
from .figure import MAX_INCHES, Picture, new_figure, set_title

__all__ = ["FONT", "strategy_graph"]

GOAL, START, PLAIN = "#9ae6b4", "#cbd5e0", "#ffffff"
#: the labels' font size, in points
FONT = 7


def _edges(strategy: Strategy, reached: PositionSet):
    """{c: [(c', bold)]}: the chosen move at the coalition's live positions, every
    move at the others' (as in to_dot)."""
    e = strategy.engine
    table = strategy.table(reached)
    mine = e.turn_set(strategy.objective.coalition)
    live = strategy.region - strategy.objective.goal
    out = {}
    for c in (reached & live).tuples():
        if c in mine:
            out[c] = [(table[c], True)] if c in table else []
        else:
            out[c] = [(d, False) for d in e.successors(c).tuples()]
    return out


def _bfs(starts: list[tuple], edges: dict, limit: int) -> dict[tuple, int]:
    """{position: distance from the start} for the first ``limit`` positions met."""
    depth = {s: 0 for s in starts[:limit]}
    queue = deque(depth)
    while queue and len(depth) < limit:
        c = queue.popleft()
        for d, _ in edges.get(c, ()):
            if d not in depth and len(depth) < limit:
                depth[d] = depth[c] + 1
                queue.append(d)
    return depth


def _untangle(place: dict, nodes: list, depth: dict, drawn: list) -> None:
    """Reorder each row by the mean abscissa of the nodes that lead to it (the
    barycenter heuristic: fewer crossing edges), row after row from the start."""
    parents: dict[int, list[int]] = {}
    for i, j, _ in drawn:
        if depth[nodes[i]] < depth[nodes[j]]:
            parents.setdefault(j, []).append(i)
    for r in range(1, max(depth.values(), default=0) + 1):
        row = [i for i, c in enumerate(nodes) if depth[c] == r]
        xs = sorted(place[i][0] for i in row)

        def bary(i):
            ps = parents.get(i, [])
            return sum(place[p][0] for p in ps) / len(ps) if ps else float("inf")

        for i, x in zip(sorted(row, key=lambda i: (bary(i), i)), xs):
            place[i] = (x, place[i][1])


def _places(nodes: list, depth: dict, drawn: list, labels: dict):
    """(node index -> (x, y) in inches, the nodes' box (width, height), the rows'
    distance): each box holds the longest label (monospace, :data:`FONT` points),
    the rows in networkx's order, a box and a gap apart."""
    import networkx as nx

    G = nx.DiGraph()
    for i, c in enumerate(nodes):
        G.add_node(i, layer=depth[c])
    G.add_edges_from((i, j) for i, j, _ in drawn)
    xy = nx.multipartite_layout(G, subset_key="layer", align="horizontal", scale=1) if nodes else {}
    rows = max(depth.values(), default=0) + 1
    lines = [t.split("\n") for t in labels.values()] or [[""]]
    bw = max(0.5, max(len(x) for ls in lines for x in ls) * 0.602 * FONT / 72 + 0.16)
    bh = max(0.4, max(len(ls) for ls in lines) * 1.25 * FONT / 72 + 0.14)
    gap_x, gap_y = bw + 0.35, bh + 0.55
    place = {}
    for r in range(rows):
        row = sorted((i for i in xy if depth[nodes[i]] == r), key=lambda i: (xy[i][0], i))
        for k, i in enumerate(row):
            place[i] = ((k - (len(row) - 1) / 2) * gap_x, -r * gap_y)
    return place, (bw, bh), gap_y


def _arrows(ax, place: dict, shapes: dict, drawn: list) -> None:
    """The edges, from node box to node box: the coalition's bold, the others' thin."""
    from matplotlib.patches import FancyArrowPatch

    for i, j, bold in drawn:
        arrow = FancyArrowPatch(
            place[i],
            place[j],
            arrowstyle="-|>",
            mutation_scale=9,
            patchA=shapes[i],
            patchB=shapes[j],
            shrinkA=1,
            shrinkB=1,
            linewidth=2.4 if bold else 0.6,
            color="black" if bold else "#718096",
        )
        arrow.set_gid(f"{'move' if bold else 'reply'}_{i}_{j}")
        ax.add_patch(arrow)


def strategy_graph(
    strategy: Strategy,
    start: PositionSet,
    max_nodes: int = 40,
    label: Callable[[tuple], str] | None = None,
    heading: str | None = None,
) -> Picture:
    """The strategy from ``start`` as a graph picture (module docstring).

    ``heading`` goes above the title. SVG ids: ``node_I`` for the I-th position of
    ``facts["nodes"]``, ``move_I_J`` for a bold edge (the strategy's move),
    ``reply_I_J`` for a thin one.
    """
    need(strategy, Strategy, "the strategy", hint=" (symbolic.analysis.strategy.strategy_for)")
    check_set(strategy.engine, start, "the start")
    need_int(max_nodes, "max_nodes", low=1)
    need(heading, str, "the heading", none=True)
    if label is not None and not callable(label):
        raise QueryError(
            f"label must be a function position -> text or None, got {str(label)[:40]!r}"
        )
    from matplotlib.patches import Ellipse, Rectangle

    e = strategy.engine
    reached = strategy.outcome(start)
    edges = _edges(strategy, reached)
    starts = (start & strategy.region).tuples()
    depth = _bfs(starts, edges, max(1, max_nodes))
    nodes = sorted(depth, key=lambda c: (depth[c], c))
    index = {c: i for i, c in enumerate(nodes)}
    drawn = [
        (index[c], index[d], bold) for c in nodes for d, bold in edges.get(c, ()) if d in index
    ]
    rows = max(depth.values(), default=0) + 1
    text = label or (lambda c: ",".join(map(str, c)))
    labels = {c: without_keys(str(text(c))) for c in nodes}  # a board, not its key
    place, (bw, bh), gap_y = _places(nodes, depth, drawn, labels)
    _untangle(place, nodes, depth, drawn)
    xs = [p[0] for p in place.values()] or [0]
    x0, x1 = min(xs) - 0.7 * bw - 0.1, max(xs) + 0.7 * bw + 0.1
    y0, y1 = -(rows - 1) * gap_y - 0.7 * bh - 0.1, 0.7 * bh + 0.1
    # one unit of the drawing is an inch: the labels (in points) fit their boxes
    fig = new_figure(min(max(x1 - x0 + 0.6, 3.6), MAX_INCHES), min(y1 - y0 + 1.3, MAX_INCHES))
    ax = fig.add_subplot()
    mine = e.turn_set(strategy.objective.coalition)
    goal, first = strategy.objective.goal, set(starts)
    shapes = {}
    for c in nodes:
        i = index[c]
        x, y = place[i]
        colour = GOAL if c in goal else START if c in first else PLAIN
        shape = (
            Rectangle((x - bw / 2, y - bh / 2), bw, bh, facecolor=colour, edgecolor="black")
            if c in mine
            else Ellipse((x, y), bw * 1.3, bh * 1.3, facecolor=colour, edgecolor="black")
        )
        shape.set_gid(f"node_{i}")
        ax.add_patch(shape)
        shapes[i] = shape
        ax.text(x, y, labels[c], ha="center", va="center", fontsize=FONT, family="monospace")
    _arrows(ax, place, shapes, drawn)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.axis("off")
    J = ", ".join(map(str, sorted(strategy.objective.coalition)))
    total = reached.count()
    title = (
        f"strategy of {{{J}}} ({strategy.objective.kind}): bold its moves, thin the "
        f"others'\n{len(nodes)} of {total} positions"
        + (f" drawn ({total - len(nodes)} more not shown)" if total > len(nodes) else "")
    )
    if not starts:
        title += f"\n(the start's {start.count()} position(s) are not won: nothing to draw)"
    if heading is not None:
        title = f"{heading}\n{title}"
    set_title(fig, ax.set_title(title, fontsize=9), title)
    return Picture(fig, {"title": title, "nodes": nodes, "edges": drawn, "total": total})
