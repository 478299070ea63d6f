"""Moves by name with stable numbers (symbolic.cli.moves) and the one position reader
(symbolic.cli.positions), issue 34 item 1: names as the model writes them, numbers
from the model's full list of moves, the legal moves' targets equal to the engine's
successors, partial positions completed from ``initial``, missing slots named."""

from __future__ import annotations

import io
import itertools
import json

import pytest

from symbolic.cli import main
from symbolic.cli.moves import MoveNames
from symbolic.cli.positions import position_shower, read_position
from symbolic.engines import make_engine
from symbolic.errors import QueryError
from symbolic.model import load_model, parse_model

GDL_TTT = "gdl/ticTacToe"


def full_list(game) -> list[tuple[str, tuple]]:
    """Every (move, valuation) of the game in declaration order, written out here apart
    from MoveNames' mixed-radix arithmetic."""
    return [
        (m.name, values)
        for m in game.moves
        for values in itertools.product(*(p.domain for p in m.params))
    ]


def check_against_engine(model, names: MoveNames, pos: tuple) -> list:
    """The legal moves at ``pos``: their targets are the symbolic engine's successors,
    their numbers their places in :func:`full_list`."""
    eng = make_engine(model.game, "symbolic")
    legal = names.legal(pos)
    assert {m.target for m in legal} == set(eng.successors(pos).tuples())
    return legal


def test_connect_four_drops_are_named_by_their_column_and_keep_their_numbers():
    model = load_model("connect4")
    names = MoveNames(model)
    empty = (0,) * 12
    legal = check_against_engine(model, names, empty)
    every = full_list(model.game)
    assert names.total == len(every) == 4  # one move per column
    assert [(m.number, m.name) for m in legal] == [(col, f"drop({col})") for col in (1, 2, 3, 4)]
    # drop(2) lands at the bottom of column 2 (cell c[4]); drop(2) again lands on it
    after = legal[1].target
    assert after == (0, 0, 0, 1) + (0,) * 8
    legal2 = check_against_engine(model, names, after)
    assert [(m.number, m.name) for m in legal2] == [(col, f"drop({col})") for col in (1, 2, 3, 4)]
    assert legal2[1].target[3:6] == (1, 2, 0)
    # a full column has no move; the others keep their numbers
    full = (0, 0, 0, 1, 2, 1, 0, 0, 0, 2, 0, 0)
    legal3 = check_against_engine(model, names, full)
    assert [(m.number, m.name) for m in legal3] == [(1, "drop(1)"), (3, "drop(3)"), (4, "drop(4)")]


def test_nim_moves_do_what_their_names_say_and_keep_their_numbers_everywhere():
    model = load_model("nim", {"n": "2", "K": "3"})
    names = MoveNames(model)
    every = full_list(model.game)
    number_of: dict[str, int] = {}
    eng = make_engine(model.game, "explicit")
    for pos in eng.positions().tuples():
        j, k = pos[0], list(pos[1:])
        expect = {}
        for i, t in itertools.product((1, 2), (1, 2, 3)):
            if k[i - 1] >= t:  # the rule of Nim, written here
                after = k.copy()
                after[i - 1] -= t
                expect[f"take({i}, {t})"] = (3 - j, *after)
        legal = names.legal(pos)
        assert {m.name: m.target for m in legal} == expect, pos
        assert {m.target for m in legal} == set(eng.successors(pos).tuples())
        for m in legal:
            assert number_of.setdefault(m.name, m.number) == m.number  # stable
    assert sorted(number_of.values()) == list(range(1, len(every) + 1))
    assert all(
        every[n - 1] == ("take", tuple(int(x) for x in name[5:-1].split(", ")))
        for name, n in number_of.items()
    )


def test_gdl_moves_are_named_as_gdl_writes_them():
    model = load_model(GDL_TTT)
    names = MoveNames(model)
    eng = make_engine(model.game, "symbolic")
    start = read_position(model, eng, "")
    legal = check_against_engine(model, names, start)
    assert [m.name for m in legal] == [f"(mark {r} {c})" for r in (1, 2, 3) for c in (1, 2, 3)]
    moves = [mv.name for mv in model.game.moves]  # one IR move per role and move term
    assert [m.number for m in legal] == [
        moves.index(f"xplayer_mark_{r}_{c}") + 1 for r in (1, 2, 3) for c in (1, 2, 3)
    ]
    show = position_shower(model)
    assert (
        show(start)
        == " ".join(f"(cell {r} {c} b)" for r in (1, 2, 3) for c in (1, 2, 3))
        + " (control xplayer)"
    )
    assert show(legal[0].target).startswith("(cell 1 1 x) (cell 1 2 b) ")


def test_a_partial_position_is_completed_from_initial():
    nim = load_model("nim")
    assert read_position(nim, make_engine(nim.game, "symbolic"), "k[1]=3") == (1, 3, 7, 7)
    assert read_position(nim, None, "k[2]=0, j=2") == (2, 7, 0, 7)  # builds its engine
    c4 = load_model("connect4")
    assert read_position(c4, None, "c[1]=1") == (1,) + (0,) * 11
    ens = load_model("ens2005")
    eng = make_engine(ens.game, "explicit")
    # the initial positions agreeing with j=1, k[1]=3 all have k[2]=3
    assert read_position(ens, eng, "j=1, k[1]=3") == (1, 3, 3)


def test_missing_slots_are_named():
    ens = load_model("ens2005")
    with pytest.raises(
        QueryError, match=r"no value for j \(the positions of 'initial' do not agree on it"
    ):
        read_position(ens, None, "k[1]=3")
    bare = parse_model(
        "players 1, 2\nvar j : 1..2\nvar k : 0..3\nturn j\nmove m when k > 0 then k' = k - 1; j' = 3 - j\n"
    )
    with pytest.raises(QueryError, match=r"no value for k \(the model declares no set 'initial'"):
        read_position(bare, None, "j=1")
    c4 = load_model("connect4")
    with pytest.raises(QueryError, match="is not a position of the game"):
        read_position(c4, None, "c[2]=1")  # a disc over an empty cell


def run(capsys, *argv, stdin: str = ""):
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(list(argv))
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return status, out.out, out.err


def test_successors_json_names_each_successors_move(capsys):
    status, out, err = run(
        capsys, "successors", "nim", "-p", "n=2", "-p", "K=2", "--at", "k[2]=0", "--json"
    )
    assert status == 0, err
    doc = json.loads(out)
    assert doc["position"] == {"j": 1, "k[1]": 2, "k[2]": 0}
    pairs = sorted(zip(doc["moves"], (d["k[1]"] for d in doc["successors"])))
    assert pairs == [("take(1, 1)", 1), ("take(1, 2)", 0)]


def test_successors_of_a_gdl_state_show_true_fluents(capsys):
    status, out, err = run(capsys, "successors", GDL_TTT)
    assert status == 0, err
    first = out.splitlines()[0]
    assert first.startswith("(cell 1 1 b) ") and first.endswith(
        "(control xplayer)  (player 1 to move)"
    )
    assert "=0" not in out and "=1" not in out  # no slot dump
    assert "  2) (mark 1 1)  ->  (cell 1 1 x) " in out


def test_play_takes_at_and_start_alike_and_a_move_by_name(capsys):
    outs = [
        run(capsys, "play", "subtraction", "-p", "K=5", flag, "k=4", stdin="take(3)\nquit\n")
        for flag in ("--at", "--start")
    ]
    assert outs[0] == outs[1]
    status, out, err = outs[0]
    assert status == 0, err
    assert "|||| (4 left), player 1 to move" in out
    assert "player 1, your move> take(3)\n\n| (1 left), player 2 to move" in out
