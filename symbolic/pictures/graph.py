"""A strategy as a graph picture: positions as nodes, the strategy's moves bold,
the other players' moves thin, laid out by networkx (no Graphviz).

The graph is that of :func:`symbolic.analysis.strategy.to_dot`: the positions met
by plays from the start when the coalition follows the strategy's table
(:meth:`~symbolic.analysis.strategy.Strategy.outcome`), the coalition's chosen
move at each of its positions outside the goal (bold), every move of the others
there (thin). Nodes are placed in rows by their distance from the start (a
breadth-first search along those edges); when there are more than ``max_nodes``
positions, the first ``max_nodes`` met by that search are drawn, and the title
says how many were left out. The coalition's positions are squares, the
others' circles; the goal's are green, the start's grey.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from ..api import PositionSet, check_set
from ..arguments import need, need_int
from ..errors import QueryError
from ..analysis.strategy import Strategy
from .figure import Picture, new_figure

__all__ = ["strategy_graph"]

GOAL, START, PLAIN = "#9ae6b4", "#cbd5e0", "#ffffff"


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


def strategy_graph(
    strategy: Strategy,
    start: PositionSet,
    max_nodes: int = 40,
    label: Callable[[tuple], str] | None = None,
) -> Picture:
    """The strategy from ``start`` as a graph picture (module docstring).

    SVG ids: ``node_I`` for the I-th position of ``facts["nodes"]``, ``move_I_J`` for a
    bold edge (the strategy's move), ``reply_I_J`` for a thin one.
    """
    need(strategy, Strategy, "the strategy", hint=" (symbolic.analysis.strategy.strategy_for)")
    check_set(strategy.engine, start, "the start")
    need_int(max_nodes, "max_nodes", low=1)
    if label is not None and not callable(label):
        raise QueryError(
            f"label must be a function position -> text or None, got {str(label)[:40]!r}"
        )
    reached = strategy.outcome(start)
    edges = _edges(strategy, reached)
    starts = (start & strategy.region).tuples()
    depth = _bfs(starts, edges, max(1, max_nodes))
    nodes = sorted(depth, key=lambda c: (depth[c], c))
    index = {c: i for i, c in enumerate(nodes)}
    drawn = [
        (index[c], index[d], bold) for c in nodes for d, bold in edges.get(c, ()) if d in index
    ]
    place, rows, widest = _layout(nodes, depth, drawn)
    fig = new_figure(min(3 + 1.3 * widest, 18), min(2 + 1.2 * rows, 16))
    ax = fig.add_subplot()
    _draw_nodes(ax, strategy, nodes, place, set(starts), label)
    _draw_edges(ax, drawn, place)
    xs = [p[0] for p in place.values()] or [0]
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    ax.set_ylim(-(rows - 1) * 1.3 - 0.8, 0.8)
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
    ax.set_title(title, fontsize=9)
    return Picture(fig, {"title": title, "nodes": nodes, "edges": drawn, "total": total})


def _layout(nodes: list, depth: dict, drawn: list) -> tuple[dict, int, int]:
    """``(place, rows, widest)``: the (x, y) of each node index, one row per depth (the
    start at the top), and the number of rows and of nodes in the widest one."""
    import networkx as nx

    G = nx.DiGraph()
    for i, c in enumerate(nodes):
        G.add_node(i, layer=depth[c])
    G.add_edges_from((i, j) for i, j, _ in drawn)
    xy = nx.multipartite_layout(G, subset_key="layer", align="horizontal", scale=1) if nodes else {}
    rows = max(depth.values(), default=0) + 1
    widest = max((sum(1 for c in nodes if depth[c] == r) for r in range(rows)), default=1)
    sx = max(widest, 1) * 1.4
    place = {i: (x * sx, -depth[nodes[i]] * 1.3) for i, (x, _) in xy.items()}
    _untangle(place, nodes, depth, drawn)
    return place, rows, widest


def _draw_nodes(ax, strategy: Strategy, nodes: list, place: dict, first: set, label) -> None:
    """One shape per position: a square where the coalition moves, else a circle,
    coloured as a goal, a start or a plain position, with the position's label."""
    from matplotlib.patches import Circle, Rectangle

    mine = strategy.engine.turn_set(strategy.objective.coalition)
    goal = strategy.objective.goal
    text = label or (lambda c: ",".join(map(str, c)))
    for i, c in enumerate(nodes):
        x, y = place[i]
        colour = GOAL if c in goal else START if c in first else PLAIN
        shape = (
            Rectangle((x - 0.45, y - 0.4), 0.9, 0.8, facecolor=colour, edgecolor="black")
            if c in mine
            else Circle((x, y), 0.45, facecolor=colour, edgecolor="black")
        )
        shape.set_gid(f"node_{i}")
        ax.add_patch(shape)
        ax.text(x, y, text(c), ha="center", va="center", fontsize=6, family="monospace")


def _draw_edges(ax, drawn: list, place: dict) -> None:
    """The arrows: bold for the strategy's moves, thin for the others' replies."""
    from matplotlib.patches import FancyArrowPatch

    for i, j, bold in drawn:
        arrow = FancyArrowPatch(
            place[i],
            place[j],
            arrowstyle="-|>",
            mutation_scale=9,
            shrinkA=14,
            shrinkB=14,
            linewidth=2.4 if bold else 0.6,
            color="black" if bold else "#718096",
        )
        arrow.set_gid(f"{'move' if bold else 'reply'}_{i}_{j}")
        ax.add_patch(arrow)
