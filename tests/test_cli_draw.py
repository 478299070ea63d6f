"""``symbolic draw``: the requests it cannot answer are clear messages (an empty or
wrong -o, --max-nodes below 1, --at fixing an axis, a strategy from a start not won),
an empty drawing draws without a matplotlib warning, and a limit names the stage."""

from __future__ import annotations

import warnings

import pytest

from symbolic import pictures
from symbolic.cli import main
from symbolic.limits import current as current_limits

from .conftest import MODELS, run

NIM = str(MODELS / "nim.game")
TD = str(MODELS / "td_example.arena.json")

NO_INITIAL = """\
game "bare"
players 1, 2
var j : 1..2
var k : 0..3
turn j
move take when k > 0 then k' = k - 1; j' = 3 - j
"""


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--values", "--x", "k[1]", "--y", "k[2]", "-o", ""], "-o needs a file name"),
        (["--values", "--x", "k[1]", "--y", "k[2]", "-o", " "], "-o needs a file name"),
        (
            ["--values", "--x", "k[1]", "--y", "k[2]", "-o", "v.gif"],
            "written as .svg, .png or .pdf",
        ),
        (
            ["--values", "--x", "k[1]", "--y", "k[2]", "--at", "k[1]=2", "-o", "v.svg"],
            "k[1] is an axis of the grid: it cannot also be fixed (leave it out of --at)",
        ),
        (
            [
                "--query",
                "true",
                "--x",
                "k[1]",
                "--y",
                "k[2]",
                "--at",
                "k[2]=1, k[1]=0",
                "-o",
                "v.svg",
            ],
            "k[2] and k[1] are axes of the grid",
        ),
    ],
)
def test_requests_that_cannot_be_drawn_are_messages(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "draw", NIM, "-p", "n=2", *argv)
    assert status == 2 and out == "", (status, out, err)
    assert message in err, err
    assert list(tmp_path.iterdir()) == [], list(tmp_path.iterdir())


@pytest.mark.parametrize("n", ["-1", "0"])
def test_max_nodes_below_one_is_refused(n, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["draw", NIM, "--strategy", "wins(1)", "--max-nodes", n])
    assert exc.value.code == 2
    assert "--max-nodes: expected an integer >= 1" in capsys.readouterr().err


def test_a_model_without_initial_names_the_slots_to_fix(capsys, tmp_path):
    model = tmp_path / "bare.game"
    model.write_text(NO_INITIAL)
    status, _, err = run(
        capsys, "draw", str(model), "--strategy", "<<1>> <> k = 0", "-o", str(tmp_path / "s.svg")
    )
    assert status == 2, err
    assert err.strip() == (
        "symbolic: error: no position given: no value for j, k (the model declares no set "
        "'initial' to complete it from; give it with --at)"
    ), err
    status, _, err = run(
        capsys,
        "draw",
        str(model),
        "--query",
        "true",
        "--x",
        "k",
        "--y",
        "k",
        "-o",
        str(tmp_path / "s.svg"),
    )
    assert "--x and --y name the same variable" in err, err


def test_a_strategy_from_a_start_not_won_is_not_drawn(capsys, tmp_path):
    out_file = tmp_path / "s.svg"
    status, out, err = run(capsys, "draw", TD, "--strategy", "<<1>> <> Obj1", "-o", str(out_file))
    assert status == 1 and out == "", (status, out, err)
    assert err.strip() == (
        "symbolic: the start is not won at 1 of 1 position(s) (e.g. s=0): no strategy to draw"
    ), err
    assert not out_file.exists()
    status, out, err = run(
        capsys, "draw", TD, "--strategy", "<<1>> <> Obj1", "--from", "true", "-o", str(out_file)
    )
    assert status == 0 and out_file.exists(), (status, err)
    assert "note: the start is not won at 5 of 7 position(s)" in err, err
    status, _, err = run(
        capsys, "draw", TD, "--strategy", "<<1>> <> Obj1", "--from", "false", "-o", str(out_file)
    )
    assert status == 2 and "the start set is empty" in err, err


def test_an_empty_display_draws_an_empty_board_without_warnings(capsys, tmp_path):
    text = (MODELS / "nim.game").read_text()
    start = text.index("\ndisplay ")
    end = text.index('to move"', start) + len('to move"')
    model = tmp_path / "blank.game"
    model.write_text(text[:start] + '\ndisplay ""' + text[end:])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status, out, err = run(
            capsys, "draw", str(model), "-p", "n=2", "--board", "-o", str(tmp_path / "b.svg")
        )
    assert status == 0 and err == "", (status, err)
    assert (tmp_path / "b.svg").read_text().startswith("<?xml"), out


def test_each_stage_of_a_drawing_is_named(capsys, tmp_path, monkeypatch):
    seen = []

    class Picture:
        def save(self, path, dpi=None):
            seen.append(current_limits().where())
            return path

    def board(model, engine, pos, heading=None):
        seen.append(current_limits().where())
        return Picture()

    monkeypatch.setattr(pictures, "board", board)
    status, _, err = run(capsys, "draw", NIM, "-p", "n=2", "--board", "-o", "b.svg")
    assert status == 0, err
    assert seen == ["computing the board picture", "writing the picture to b.svg"], seen


def test_the_default_file_is_not_overwritten_without_force(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ("draw", NIM, "-p", "n=2", "--query", "true", "--x", "k[1]", "--y", "k[2]")
    assert run(capsys, *argv)[:2] == (0, "nim-set.svg\n")
    first = (tmp_path / "nim-set.svg").read_text()
    (tmp_path / "nim-set.svg").write_text("mine")
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and "nim-set.svg exists" in err and "--force" in err, err
    assert (tmp_path / "nim-set.svg").read_text() == "mine"
    assert run(capsys, *argv, "--force")[:2] == (0, "nim-set.svg\n")
    assert (tmp_path / "nim-set.svg").read_text() == first
    (tmp_path / "nim-set.svg").write_text("mine")
    assert run(capsys, *argv, "-o", "nim-set.svg")[:2] == (0, "nim-set.svg\n")  # -o: asked for
    assert (tmp_path / "nim-set.svg").read_text() == first


def test_title_size_dpi_and_format_by_suffix(capsys, tmp_path, monkeypatch):
    from PIL import Image

    monkeypatch.chdir(tmp_path)
    argv = ("draw", NIM, "-p", "n=2", "--nimbers", "--x", "k[1]", "--y", "k[2]")
    assert run(capsys, *argv, "--title", "Bouton's xor", "-o", "a.svg")[0] == 0
    svg = (tmp_path / "a.svg").read_text()
    assert "Bouton's xor" in svg.replace("&#39;", "'") and "Nim(n=2, K=7)" not in svg
    assert run(capsys, *argv, "-o", "b.svg")[0] == 0
    assert "Nim(n=2, K=7): nimbers" in (tmp_path / "b.svg").read_text()  # the values, not n, K
    assert run(capsys, *argv, "--size", "8x5", "--dpi", "50", "-o", "c.png")[0] == 0
    assert Image.open(tmp_path / "c.png").size == (400, 250)
    assert run(capsys, *argv, "--size", "8x5", "-o", "d.png")[0] == 0
    assert Image.open(tmp_path / "d.png").size == (800, 500)
    assert run(capsys, "draw", NIM, "-p", "n=3", "--board", "-o", "g.svg")[0] == 0
    assert "Nim(n=3, K=7)" in (tmp_path / "g.svg").read_text()
    assert run(capsys, "draw", NIM, "--board", "--title", "Three heaps", "-o", "h.svg")[0] == 0
    board_svg = (tmp_path / "h.svg").read_text()
    assert "Three heaps" in board_svg and "Nim(" not in board_svg and "to move" in board_svg
    assert run(capsys, *argv, "-o", "e.pdf")[0] == 0
    assert (tmp_path / "e.pdf").read_bytes()[:5] == b"%PDF-"
    for bad in ("8", "0x5", "8x500", "axb"):
        with pytest.raises(SystemExit):
            main([*argv, "--size", bad, "-o", "f.png"])
        assert "--size" in capsys.readouterr().err


def test_an_axis_window_draws_part_of_a_large_range(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ("draw", NIM, "-p", "n=2", "-p", "K=150", "--query", "not mover_wins")
    status, _, err = run(capsys, *argv, "--x", "k[1]", "--y", "k[2]", "-o", "a.svg")
    assert status == 2 and "k[1] takes 151 values" in err and "--x 'VAR=LO..HI'" in err, err
    status, _, err = run(
        capsys, *argv, "--x", "k[1]=100..149", "--y", "k[2] = 95..150", "-o", "b.svg"
    )
    assert status == 0, err
    from .test_pictures import SET_COLOUR, fill, groups

    cells = groups((tmp_path / "b.svg").read_text(), "cell_")
    assert len(cells) == 50 * 56
    blue = {tuple(map(int, k.split("_")[1:])) for k, g in cells.items() if fill(g) == SET_COLOUR}
    assert blue == {(a, a) for a in range(100, 150)}
    for bad, message in (("k[1]=5", "expected VAR or VAR=LO..HI"), ("k[1]=200..300", "holds none")):
        status, _, err = run(capsys, *argv, "--x", bad, "--y", "k[2]", "-o", "c.svg")
        assert status == 2 and message in err, err
