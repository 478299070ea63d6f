"""The ``simulate`` command: seeded games, the same on every engine, with
results that follow from the games' known answers."""

from __future__ import annotations

import json

import pytest

from symbolic.cli import main

from .conftest import MODELS, run as run_cli

NIM = str(MODELS / "nim.game")


def run(capsys, *argv):
    """``symbolic simulate ARGV...``: status, stdout, stderr (argparse's refusal of a bad
    option value as status 2)."""
    return run_cli(capsys, "simulate", *argv, exits=True)


def doc(capsys, *argv) -> dict:
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


def test_same_seed_same_output_and_another_seed_other_games(capsys):
    argv = (NIM, "--players", "optimal,random", "--games", "60", "--seed", "1", "--random-start")
    first, again = run(capsys, *argv), run(capsys, *argv)
    assert first == again
    other = doc(
        capsys, NIM, "--players", "optimal,random", "--games", "60", "--seed", "2", "--random-start"
    )
    assert (
        other["moves"] != doc(capsys, *argv)["moves"] or other["wins"] != doc(capsys, *argv)["wins"]
    )


@pytest.mark.parametrize(
    "model, argv",
    [
        ("nim.game", ["--players", "optimal,random", "-p", "K=5", "--random-start"]),
        ("nim.game", ["--players", "random,random", "-p", "n=2"]),
        ("subtraction.game", ["--players", "random,optimal", "--random-start"]),
        ("tictactoe.game", ["--players", "random,optimal", "--random-start", "--from", "legal"]),
        ("ens2005.game", ["--players", "optimal,random,random", "-p", "K=6", "--random-start"]),
    ],
)
def test_both_engines_give_the_same_results(capsys, model, argv):
    docs = [
        doc(capsys, str(MODELS / model), *argv, "--games", "40", "--seed", "7", "--engine", e)
        for e in ("symbolic", "explicit")
    ]
    assert docs[0].pop("engine") == "symbolic" and docs[1].pop("engine") == "explicit"
    assert docs[0].pop("backend") in ("cudd", "oxidd") and docs[1].pop("backend") is None
    assert docs[0] == docs[1]
    assert sum(docs[0]["wins"].values()) + docs[0]["draws"] >= 40


def test_optimal_first_player_wins_every_nim_game_from_the_full_heaps(capsys):
    """7 xor 7 xor 7 = 7 is not 0: the first player wins whatever the other does."""
    d = doc(capsys, NIM, "--players", "optimal,random", "--games", "50", "--seed", "3")
    assert d["start"] == {"j": 1, "k[1]": 7, "k[2]": 7, "k[3]": 7} and not d["random_start"]
    assert d["wins"] == {"1": 50, "2": 0} and d["draws"] == 0


def test_optimal_second_player_wins_from_zero_nim_sum(capsys):
    d = doc(
        capsys, NIM, "--players", "random,optimal", "-p", "n=2", "--games", "50", "--seed", "3"
    )  # two equal heaps: Nim sum 0, the second player wins
    assert d["wins"] == {"1": 0, "2": 50}


def test_in_nim_the_optimal_player_wins_every_game_it_can_win():
    """Bouton: player 1 can win from s exactly when (1 moves) == (Nim sum != 0)."""
    from functools import reduce
    from operator import xor

    from symbolic.cli.simulate import simulate
    from symbolic.engines import make_engine
    from symbolic.model import load_model

    m = load_model(NIM, {"K": 5})
    plays = []
    d = simulate(
        m,
        make_engine(m.game, "explicit"),
        {1: "optimal", 2: "random"},
        300,
        9,
        random_start=True,
        trace=lambda n, play: plays.append(play),
    )
    winnable = [
        p for p in plays if (p.positions[0][0] == 1) == (reduce(xor, p.positions[0][1:]) != 0)
    ]
    assert len(winnable) > 100
    assert all(p.outcome.winners == (1,) for p in winnable)
    assert d["wins"]["1"] >= len(winnable)


def test_optimal_tictactoe_players_always_draw(capsys):
    d = doc(
        capsys,
        str(MODELS / "tictactoe.game"),
        "--players",
        "optimal,optimal",
        "--games",
        "10",
        "--seed",
        "0",
    )
    assert d["rules"] == "win(p) sets" and d["draws"] == 10 and d["moves"]["min"] == 9


def test_optimal_never_loses_tictactoe_to_random(capsys):
    for kinds, me, other in (("optimal,random", "1", "2"), ("random,optimal", "2", "1")):
        d = doc(
            capsys,
            str(MODELS / "tictactoe.game"),
            "--players",
            kinds,
            "--games",
            "40",
            "--seed",
            "11",
        )
        assert d["wins"][other] == 0 and d["wins"][me] > 0, d


def test_the_move_cap_stops_games_as_draws(capsys):
    d = doc(
        capsys,
        str(MODELS / "subtraction.game"),
        "--players",
        "random,random",
        "--games",
        "5",
        "--max-moves",
        "2",
    )
    assert d["capped"] == 5 and d["draws"] == 5 and d["moves"]["max"] == 2


def test_no_game_played_has_no_move_counts(capsys):
    d = doc(capsys, NIM, "--players", "optimal,random", "--games", "0")
    assert d["games"] == 0 and d["wins"] == {"1": 0, "2": 0} and d["draws"] == 0, d
    assert d["moves"] == {"mean": None, "min": None, "max": None}, d
    status, out, _ = run(capsys, NIM, "--players", "optimal,random", "--games", "0")
    assert status == 0 and "moves per game: no game played" in out, out


def test_text_output_and_trace(capsys):
    status, out, err = run(
        capsys,
        NIM,
        "-p",
        "n=2",
        "-p",
        "K=2",
        "--players",
        "optimal,random",
        "--games",
        "2",
        "--seed",
        "4",
        "--trace",
        "1",
    )
    assert status == 0, err
    assert out.startswith("--- game 1\nheap 1: || (2)\nheap 2: || (2)\nplayer 1 to move\n")
    assert "--- game 2" not in out
    assert "player 1 (random)" not in out and "player 1 (optimal) plays" in out
    assert "\nplayer 2 (optimal): " not in out
    # a lost start (Nim sum 0): the longest defence takes one match, not two
    assert "player 1 (optimal) plays take(1, 1)\n" in out
    assert "player 1 (optimal): 2 wins\nplayer 2 (random): 0 wins\n" in out  # seed 4's luck


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--players", "optimal"], "--players gives 1 kind(s) for 2 players"),
        (["--players", "optimal,clever"], "unknown player kind 'clever'"),
        (["--players", "random,random", "--games", "-1"], "--games: expected an integer >= 0"),
        (["--players", "random,random", "--trace", "-1"], "--trace: expected an integer >= 0"),
        (
            ["--players", "random,random", "--max-moves", "-1"],
            "--max-moves: expected an integer >= 0",
        ),
        (["--players", "random,random", "--from", "false"], "no start position"),
    ],
)
def test_mistakes_exit_2_with_a_message(capsys, argv, words):
    status, out, err = run(capsys, NIM, *argv)
    assert status == 2 and words in err, err


def test_help(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--help"])
    assert info.value.code == 0 and "--random-start" in capsys.readouterr().out
