"""symbolic.pictures and ``symbolic draw``: the drawn facts, read back from the SVG
(one cell per grid point, the colours of the set's cells, the values written in the
cells, the moves on a board, the nodes and bold edges of a strategy), compared with
what the engines compute. No pixel is compared."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from symbolic import atl
from symbolic.analysis.grundy import layered_nimbers
from symbolic.analysis.strategy import strategy_for
from symbolic.analysis.values import two_player_values
from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import QueryError
from symbolic.model import load_model
from symbolic.pictures import board, set_grid, nimbers_grid, strategy_graph, values_grid
from symbolic.pictures.grid import OTHER_COLOUR, OUTSIDE, SET_COLOUR

from .conftest import MODELS

SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, prefix: str) -> dict[str, ET.Element]:
    """The SVG groups whose id starts with ``prefix``, by id."""
    root = ET.fromstring(svg)
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith(prefix)}


def fill(group: ET.Element) -> str | None:
    """The fill colour of a group's first path."""
    path = next(group.iter(f"{SVG}path"))
    m = re.search(r"fill: (#[0-9a-f]{6})", path.get("style", ""))
    return m.group(1) if m else None


def text(group: ET.Element) -> str:
    return "".join(t.text or "" for t in group.iter(f"{SVG}text"))


def nim(kind="symbolic", **params):
    m = load_model(MODELS / "nim.game", {"n": 2, **params})
    return m, make_engine(m.game, kind)


@pytest.mark.parametrize("kind", ["symbolic", "explicit"])
def test_nim_p_positions_grid_has_one_cell_per_point_in_the_set_colour(kind):
    m, e = nim(kind)
    P = atl.evaluate(e, m.formula("not mover_wins"), m.definitions)
    cells = groups(set_grid(P, "k[1]", "k[2]", {"j": 1}).svg(), "cell_")
    assert len(cells) == 8 * 8, sorted(cells)
    blue = {tuple(map(int, i.split("_")[1:])) for i, g in cells.items() if fill(g) == SET_COLOUR}
    grey = {i for i, g in cells.items() if fill(g) == OTHER_COLOUR}
    expected = {(a, b) for (j, a, b) in P.tuples() if j == 1}
    assert blue == expected == {(a, a) for a in range(8)}, (blue, expected)
    assert len(grey) == 64 - len(expected)


def test_ens2005_f1_grid_counts_match_the_engine():
    m = load_model(MODELS / "ens2005.game", {"K": 10})
    e = make_engine(m.game)
    F = atl.evaluate(e, m.formula("F({1})"), m.definitions)
    pic = set_grid(F, "k[1]", "k[2]", {"j": 1})
    cells = groups(pic.svg(), "cell_")
    drawn = sum(fill(g) == SET_COLOUR for g in cells.values())
    assert len(cells) == 121
    assert drawn == sum(1 for t in F.tuples() if t[0] == 1) == pic.facts["grid"].count(True)


def test_cells_outside_the_invariant_are_hatched_not_coloured():
    m = load_model(MODELS / "tictactoe.game")
    e = make_engine(m.game)
    legal = atl.evaluate(e, m.formula("legal"), m.definitions)
    at = {f"c[{i}]": 0 for i in range(3, 10)}
    g = set_grid(legal, "c[1]", "c[2]", at)
    grid = g.facts["grid"]
    # one O more than X at most: (2, 2) breaks the invariant, (1, 2) is balanced
    assert grid.cells[(2, 2)] == OUTSIDE and grid.cells[(1, 2)] is True
    cells = groups(g.svg(), "cell_")
    assert fill(cells["cell_2_2"]) is None or fill(cells["cell_2_2"]) == "#ffffff"


def test_chocolate_values_grid_writes_each_value_in_its_cell():
    m = load_model(MODELS / "chocolate.game")
    e = make_engine(m.game)
    V = two_player_values(e)
    base = atl.evaluate(e, m.formula("initial"), m.definitions).first()
    svg = values_grid(V, "l", "u", {}, base).svg()
    labels = groups(svg, "label_")
    assert len(groups(svg, "cell_")) == 8 * 4 == len(labels)
    for l in range(8):
        for u in range(4):
            v = V.value((1, l, 2, u, 3))
            assert text(labels[f"label_{l}_{u}"]) == (f"+{v}" if v > 0 else str(v)), (l, u, v)


def test_nimbers_grid_is_the_xor_of_the_heaps():
    m, e = nim("explicit", K=5)
    labels = groups(nimbers_grid(layered_nimbers(e), "k[1]", "k[2]", {"j": 2}).svg(), "label_")
    assert {k: int(text(g)) for k, g in labels.items()} == {
        f"label_{a}_{b}": a ^ b for a in range(6) for b in range(6)
    }


def test_grid_errors_name_the_variables():
    m, e = nim()
    with pytest.raises(QueryError, match="fix j"):
        set_grid(e.positions(), "k[1]", "k[2]")
    with pytest.raises(QueryError, match="no variable 'k'"):
        set_grid(e.positions(), "k", "j")


@pytest.mark.parametrize("kind", ["symbolic", "explicit"])
def test_tictactoe_board_shows_every_legal_move_with_its_value(kind):
    m = load_model(MODELS / "tictactoe.game")
    e = make_engine(m.game, kind)
    pos = (1, 0, 0, 2, 1, 0, 0, 0, 2)  # O, X, O on the board, X in a corner
    pic = board(m, e, pos)
    moves = groups(pic.svg(), "move_")
    succ = e.successors(pos).tuples()
    assert len(moves) == len(succ) == 5
    for mv in pic.facts["moves"]:
        cell = [i for i in range(9) if mv.target[i] != pos[i]][0]  # the cell played
        r, c = mv.cell  # the board's row and column, numbered from 0
        assert (r, c) == divmod(cell, 3), (mv, cell)
        assert text(moves[f"move_{r}_{c}"]) == ("=" if mv.value is None else f"{mv.value:+d}")
    # O wins in 3 moves by playing c[2] or c[3] (two threats), elsewhere a draw
    played = {
        [i for i in range(9) if mv.target[i] != pos[i]][0] + 1: mv.value
        for mv in pic.facts["moves"]
    }
    assert played == {2: 3, 3: 3, 6: None, 7: None, 8: None}, played


def test_connect4_board_writes_the_value_on_the_landing_cell():
    m = load_model(MODELS / "connect4.game", {"w": 4, "h": 3, "a": 3})
    e = make_engine(m.game)
    pos = (1, 2, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0)
    pic = board(m, e, pos)
    cells = {mv.cell: mv.value for mv in pic.facts["moves"]}
    assert len(cells) == 4 and cells[(2, 2)] == 1  # column 3 completes O O O: +1
    assert len(groups(pic.svg(), "move_")) == 4


def test_board_needs_a_display():
    m = load_model(MODELS / "ens2005.game")
    m2 = load_model(MODELS / "subtraction_set.game")
    assert m2.display is None
    with pytest.raises(QueryError, match="no display"):
        board(m2, make_engine(m2.game), make_engine(m2.game).positions().first())
    assert m.display is not None


def test_strategy_graph_nodes_and_bold_edges_are_the_strategy_table():
    m, e = nim(K=3)
    s = strategy_for(e, m.formula("wins(1)"), m.definitions)
    start = e.singleton((1, 3, 2))
    pic = strategy_graph(s, start)
    svg = pic.svg()
    nodes = pic.facts["nodes"]
    reached = s.outcome(start)
    assert set(nodes) == set(reached.tuples()) and len(groups(svg, "node_")) == len(nodes)
    bold = {
        (nodes[int(a)], nodes[int(b)]) for a, b in (k.split("_")[1:] for k in groups(svg, "move_"))
    }
    table = s.table(reached)
    assert bold == {(c, d) for c, d in table.items() if c not in s.objective.goal}
    thin = {
        (nodes[int(a)], nodes[int(b)]) for a, b in (k.split("_")[1:] for k in groups(svg, "reply_"))
    }
    assert thin == {
        (c, d)
        for c in reached.tuples()
        if c[0] == 2 and c in s.region and c not in s.objective.goal
        for d in e.successors(c).tuples()
    }


def test_strategy_graph_keeps_at_most_max_nodes_and_says_so():
    m, e = nim(K=5)
    s = strategy_for(e, m.formula("wins(1)"), m.definitions)
    pic = strategy_graph(s, e.singleton((1, 5, 4)), max_nodes=7)
    assert len(pic.facts["nodes"]) == 7 < pic.facts["total"]
    assert f"{pic.facts['total'] - 7} more not shown" in pic.facts["title"]


def test_cli_draw_writes_the_default_file_and_prints_its_path(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert (
        main(
            [
                "draw",
                str(MODELS / "nim.game"),
                "-p",
                "n=2",
                "--query",
                "not mover_wins",
                "--x",
                "k[1]",
                "--y",
                "k[2]",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == "nim-set.svg\n"
    cells = groups((tmp_path / "nim-set.svg").read_text(), "cell_")
    assert sum(fill(g) == SET_COLOUR for g in cells.values()) == 8
    assert (
        main(
            [
                "draw",
                str(MODELS / "tictactoe.game"),
                "--board",
                "--at",
                "c[5]=2, c[1]=1",
                "-o",
                "b.png",
            ]
        )
        == 0
    )
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    assert (
        main(
            [
                "draw",
                str(MODELS / "nim.game"),
                "-p",
                "n=2",
                "-p",
                "K=3",
                "--strategy",
                "wins(1)",
                "--at",
                "k[2]=1",
                "-o",
                "s.svg",
            ]
        )
        == 0
    )
    assert groups((tmp_path / "s.svg").read_text(), "move_")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--values", "--x", "k[1]"], "--x VAR --y VAR"),
        (["--query", "true", "--x", "k[1]", "--y", "k[9]"], "no variable 'k[9]'"),
        (["--board", "-o", "x.gif"], "written as .svg, .png or .pdf"),
        (["--board", "--at", "q=1"], "unknown 'q'"),
    ],
)
def test_cli_draw_errors_are_messages(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["draw", str(MODELS / "nim.game"), "-p", "n=2", *argv]) == 2
    assert message in capsys.readouterr().err


# --- what a reader sees: badges apart, text inside the figure (measured on the drawing) ---


def drawn_texts(fig) -> list:
    """Every text the figure draws: its titles, the texts of its axes, their labels
    and tick labels when the axis is shown, its legends'."""
    texts = list(fig.texts) + ([fig._suptitle] if fig._suptitle else [])
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        if ax.axison:
            texts += [ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels()]
    for legend in fig.legends:
        texts += legend.get_texts()
    return [t for t in texts if t.get_visible() and t.get_text()]


def measured(pic, r=None):
    """(figure box, [(text artist, its box)], renderer) in pixels, after the layout
    (``r``: a renderer of the picture already laid out)."""
    from symbolic.pictures.figure import renderer

    r = renderer(pic.figure) if r is None else r
    return pic.figure.bbox, [(t, t.get_window_extent(r)) for t in drawn_texts(pic.figure)], r


def badge_boxes(pic, r=None):
    """The boxes (pixels) of the move badges of a board picture (``r``: as
    :func:`measured`'s)."""
    from matplotlib.text import Text

    from symbolic.pictures.figure import renderer

    r = renderer(pic.figure) if r is None else r
    badges = [t for t in pic.figure.findobj(Text) if (t.get_gid() or "").startswith("move_")]
    return [t.get_bbox_patch().get_window_extent(r) for t in badges]


def meet(a, b) -> bool:
    """Two boxes share some area (touching edges do not)."""
    return max(a.x0, b.x0) < min(a.x1, b.x1) and max(a.y0, b.y0) < min(a.y1, b.y1)


def inside(box, outer, slack=1.0) -> bool:
    return (
        box.x0 >= outer.x0 - slack
        and box.y0 >= outer.y0 - slack
        and box.x1 <= outer.x1 + slack
        and box.y1 <= outer.y1 + slack
    )


def busiest(engine, sample=400):
    """The first position with the most moves among the first ``sample`` of the engine."""
    best, most = None, -1
    for i, p in enumerate(engine.positions()):
        if i >= sample:
            break
        n = engine.successors(p).count()
        if n > most:
            best, most = p, n
    return best


#: every shipped model with a display (its parameters) and the positions the seeds draw
BOARDS = [
    ("chocolate.game", {}, [None]),
    ("chocolate.game", {"m": 5, "n": 4, "i": 2, "j": 1}, [(1, 2, 2, 1, 2)]),
    ("connect4.game", {"w": 4, "h": 3, "a": 3}, [None, (1, 2, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0)]),
    # the same board in the compact encoding: columns (O, X | O | - | X), markers above
    (
        "connect4-compact.game",
        {"w": 4, "h": 3, "a": 3},
        [None, (0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0)],
    ),
    ("ens2005.game", {"K": 10}, [None]),
    ("nim.game", {"n": 3, "K": 7}, [None, (1, 3, 5, 7), (1, 7, 7, 7)]),
    ("nim.game", {"n": 2}, [None]),
    ("subtraction.game", {}, [None]),
    (
        "tictactoe.game",
        {},
        [None, (0,) * 9, (1, 2, 0, 0, 0, 0, 0, 0, 0), (1, 0, 0, 2, 1, 0, 0, 0, 2)],
    ),
]


def test_every_shipped_model_with_a_display_is_in_the_board_list():
    shipped = sorted(p.name for p in MODELS.glob("*.game") if load_model(p).display is not None)
    assert shipped == sorted({name for name, _, _ in BOARDS})


@pytest.mark.parametrize("name, params, positions", BOARDS, ids=lambda v: str(v)[:30])
def test_no_two_badges_of_a_board_meet_and_each_is_in_the_figure(name, params, positions):
    m = load_model(MODELS / name, params)
    e = make_engine(m.game)
    initial = atl.evaluate(e, m.formula("initial"), m.definitions).first()
    for pos in [initial, busiest(e)] + [p for p in positions if p is not None]:
        pic = board(m, e, pos)
        fig, texts, r = measured(pic)
        boxes = badge_boxes(pic, r)
        moves = pic.facts["moves"]
        assert len(boxes) == len(moves) == e.successors(pos).count(), (name, pos)
        assert len({mv.cell for mv in moves if mv.cell is not None}) == sum(
            mv.cell is not None for mv in moves
        )
        clash = [(i, j) for i in range(len(boxes)) for j in range(i) if meet(boxes[i], boxes[j])]
        assert not clash, (name, pos, clash, [moves[i].cell for c in clash for i in c])
        out = [t.get_text() for t, box in texts if not inside(box, fig)]
        assert not out, (name, pos, out)
        pic.resize(3, 2.5)  # smaller than drawn: the badges shrink with their cells
        boxes = badge_boxes(pic)
        clash = [(i, j) for i in range(len(boxes)) for j in range(i) if meet(boxes[i], boxes[j])]
        assert not clash, ("3x2.5", name, pos, clash)


def test_a_move_s_badge_sits_on_a_cell_the_move_changes():
    m = load_model(MODELS / "chocolate.game")
    e = make_engine(m.game)
    pos = atl.evaluate(e, m.formula("initial"), m.definitions).first()  # (1, 7, 2, 3, 3)
    pic = board(m, e, pos)
    cells = {mv.target: mv.cell for mv in pic.facts["moves"]}
    assert len(set(cells.values())) == len(cells) == 15 and None not in cells.values()
    _, l, r, u, d = pos
    for (_, l2, r2, u2, d2), (row, col) in cells.items():
        # the bar's columns 0..9, the square of death in column i = 7, row j = 3
        if l2 != l:  # broken off on the left: the badge on the last column taken
            assert (row, col) == (3, 7 - l2 - 1), (l2, row, col)
        elif r2 != r:
            assert (row, col) == (3, 7 + r2 + 1), (r2, row, col)
        elif u2 != u:
            assert (row, col) == (3 - u2 - 1, 7), (u2, row, col)
        else:
            assert (row, col) == (3 + d2 + 1, 7), (d2, row, col)
    # the winning break, +11, is shown (it was hidden under others on one corner)
    assert [mv.value for mv in pic.facts["moves"]].count(11) == 1


def test_a_board_has_grid_lines_and_numbers():
    m = load_model(MODELS / "tictactoe.game")
    e = make_engine(m.game)
    pic = board(m, e, (1, 2, 0, 0, 0, 0, 0, 0, 0))
    fig, texts, _ = measured(pic)
    words = [t.get_text() for t, _ in texts]
    # columns 1..3 above, rows 1..3 left, the slot c[k]'s index k in each cell's corner
    assert sorted(w for w in words if w.isdigit()) == sorted(
        ["1", "2", "3"] * 2 + [str(k) for k in range(1, 10)]
    )
    from matplotlib.patches import Rectangle

    squares = [p for p in pic.figure.axes[0].patches if isinstance(p, Rectangle)]
    assert len(squares) == 9 and all(p.get_edgecolor()[3] > 0 for p in squares)


def nim_pictures():
    m, e = nim(K=1)
    lost = atl.evaluate(e, m.formula("not mover_wins"), m.definitions)
    long = "not mover_wins and not (k[1] = 0 and k[2] = 0) or initial and mover_wins"
    s = strategy_for(e, m.formula("wins(1)"), m.definitions)
    choc = load_model(MODELS / "chocolate.game")
    ce = make_engine(choc.game)
    base = atl.evaluate(ce, choc.formula("initial"), choc.definitions).first()
    n5 = load_model(MODELS / "nim.game", {"n": 2, "K": 5})
    e5 = make_engine(n5.game)
    s5 = strategy_for(e5, n5.formula("wins(1)"), n5.definitions)
    return [
        set_grid(lost, "k[1]", "k[2]", {"j": 1}, title=long),
        set_grid(lost, "k[1]", "k[2]", {"j": 1}, title="x" * 90),
        values_grid(
            two_player_values(ce),
            "l",
            "u",
            {},
            base,
            title="chocolate(m=10, n=7, i=7, j=3): values",
        ),
        nimbers_grid(layered_nimbers(e), "k[1]", "k[2]", {"j": 2}, title=long),
        strategy_graph(s, e.singleton((1, 1, 1))),
        strategy_graph(s5, e5.singleton((1, 5, 4)), heading=long),
        board(m, e, (1, 1, 1)),
    ]


def test_no_text_of_a_picture_is_clipped_by_the_figure():
    for pic in nim_pictures():
        fig, texts, _ = measured(pic)
        out = [(t.get_text(), tuple(box.bounds)) for t, box in texts if not inside(box, fig)]
        assert not out, (pic.facts["title"], tuple(fig.bounds), out)
        pic.resize(3, 3)
        fig, texts, _ = measured(pic)
        out = [t.get_text() for t, box in texts if not inside(box, fig)]
        assert not out, ("3x3", pic.facts["title"], out)


def test_strategy_labels_fit_in_their_nodes():
    from matplotlib.patches import Ellipse, Rectangle

    m = load_model(MODELS / "ens2005.game", {"K": 6})  # no small drawing: labels are tuples
    e = make_engine(m.game)
    s = strategy_for(e, m.formula("F({1})"), m.definitions)
    start = (s.region & e.turn_set({1})).first()
    labels = lambda c: "\n".join(f"{sl.label}={v}" for sl, v in zip(e.space.slots, c))  # noqa: E731
    for pic in (
        strategy_graph(s, e.singleton(start)),
        strategy_graph(s, e.singleton(start), label=labels),
    ):
        fig, texts, r = measured(pic)
        nodes = [p for p in pic.figure.axes[0].patches if isinstance(p, (Ellipse, Rectangle))]
        assert len(nodes) == len(pic.facts["nodes"])
        words = [(t, box) for t, box in texts if t.get_fontfamily() == ["monospace"]]
        assert len(words) == len(nodes)
        for (t, box), node in zip(words, nodes):
            assert inside(box, node.get_window_extent(r), slack=0.5), (t.get_text(), box, node)


def test_a_strategy_graph_shows_a_board_without_its_cells_numbers():
    from symbolic.analysis.play import drawer

    m = load_model(MODELS / "tictactoe.game")
    e = make_engine(m.game)
    s = strategy_for(e, m.formula("forces_win(1)"), m.definitions)
    start = (1, 2, 0, 0, 1, 0, 0, 0, 2)
    render = drawer(m.display, m.space, str)
    assert "    1 2 3" in render(start)  # the text board numbers its cells beside its rows
    pic = strategy_graph(s, e.singleton(start), label=render)
    fig, texts, r = measured(pic)
    labels = [t.get_text() for t, _ in texts if t.get_fontfamily() == ["monospace"]]
    assert len(labels) == len(pic.facts["nodes"]) > 1
    for label, c in zip(labels, pic.facts["nodes"]):
        rows = render(c).split("\n")
        assert label.split("\n") == [row.split("    ")[0] for row in rows[:3]] + rows[3:]
