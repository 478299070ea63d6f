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
