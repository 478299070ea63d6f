"""Plays (symbolic.analysis.play) and the ``play`` command: the rules of the end, the
solver's move choice (the same on every engine, optimal where it can win,
checked against Bouton's rule and against every reply), and a person playing
through a pipe."""

from __future__ import annotations

import io
import random
from functools import reduce
from operator import xor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.cli import main
from symbolic.model import load_model
from symbolic.analysis.play import (
    Planner,
    Referee,
    choose_move,
    random_player,
    run_play,
    solver_player,
)

from tests.conftest import ENGINE_KINDS, MODELS, build_engine
from tests.strategies import games


def setup(name: str, kind: str = "explicit", **params):
    m = load_model(MODELS / f"{name}.game", params)
    eng = build_engine(m.game, kind)
    rules = Referee(eng)
    return m, eng, rules, Planner(eng, rules)


def all_choices(name: str, kind: str, stride: int = 1, **params) -> dict:
    """The solver's move for the mover alone at every ``stride``-th position with a move."""
    m, eng, rules, planner = setup(name, kind, **params)
    out = {}
    for pos in (eng.positions() - eng.deadlocks()).tuples()[::stride]:
        out[pos] = choose_move(planner, pos, frozenset({rules.mover(pos)}))
    return out


# --------------------------------------------------------------------------- the move choice


@pytest.mark.parametrize(
    "name, params",
    [
        ("nim", {"n": 2, "K": 4}),
        ("subtraction", {"K": 12}),
        ("tictactoe", {}),
        ("ens2005", {"N": 3, "K": 5}),
    ],
)
def test_every_engine_chooses_the_same_moves(name, params):
    # tic-tac-toe: one board in 5, on the faster backend (the others: everything)
    kinds, stride = (ENGINE_KINDS, 1) if name != "tictactoe" else (("explicit", "cudd"), 5)
    choices = [all_choices(name, k, stride, **params) for k in kinds]
    for kind, c in zip(kinds[1:], choices[1:]):
        diff = [p for p in choices[0] if c.get(p) != choices[0][p]]
        assert not diff and set(c) == set(choices[0]), (
            kind,
            diff[:1],
            [choices[0][p] for p in diff[:1]],
            [c[p] for p in diff[:1]],
        )


def test_the_nim_solver_follows_boutons_rule():
    """Where the Nim sum is not 0 the solver moves to a position of Nim sum 0,
    and it takes the fewest moves (rank one less)."""
    m, eng, rules, planner = setup("nim", n=3, K=5)
    checked = 0
    for pos, nxt in all_choices("nim", "explicit", n=3, K=5).items():
        me = frozenset({rules.mover(pos)})
        if reduce(xor, pos[1:]):
            assert reduce(xor, nxt[1:]) == 0, (pos, nxt)
            assert planner.rank(me, nxt) == planner.rank(me, pos) - 1, (pos, nxt)
            checked += 1
        else:
            assert planner.rank(me, pos) is None, pos
    assert checked > 100


def test_inside_its_region_the_solver_wins_within_the_rank_against_every_reply():
    m, eng, rules, planner = setup("subtraction", K=10)
    players = (1, 2)

    def wins(pos, me, budget, last):
        succ = eng.successors(pos).tuples()
        if not succ:
            return rules.result(pos, last).winners == (me,)
        if budget == 0:
            return False
        mover = rules.mover(pos)
        if mover == me:
            return wins(choose_move(planner, pos, frozenset({me})), me, budget - 1, mover)
        return all(wins(s, me, budget - 1, mover) for s in succ)

    won = set()
    for pos in eng.positions():
        for me in players:
            r = planner.rank(frozenset({me}), pos)
            if r is not None:
                assert wins(pos, me, r, None), (pos, me, r)
                won.add((pos, me))
    # the known answer: the mover wins exactly when k is not a multiple of 4
    assert won == {((j, k), j if k % 4 else 3 - j) for j in players for k in range(11)}


def test_outside_its_region_the_solver_delays_the_loss():
    """At k = 4 (a loss) every move loses; the solver keeps the longest defence:
    the loss comes no sooner than against the best reply."""
    m, eng, rules, planner = setup("subtraction", K=12)
    for k in (4, 8, 12):
        pos = (1, k)
        nxt = choose_move(planner, pos, frozenset({1}))
        ranks = [planner.rank(frozenset({2}), s) for s in eng.successors(pos)]
        assert planner.rank(frozenset({2}), nxt) == max(ranks), (pos, nxt, ranks)


def test_tictactoe_optimal_players_draw_and_never_lose_to_random():
    m, eng, rules, planner = setup("tictactoe", "cudd")
    start = (0,) * 9
    best = {p: solver_player(planner, {p}) for p in (1, 2)}
    assert run_play(eng, rules, best, start, 20).outcome.draw
    rng = random.Random(5)
    for me in (1, 2):
        players = {p: best[p] if p == me else random_player(rng) for p in (1, 2)}
        for _ in range(20):
            out = run_play(eng, rules, players, start, 20).outcome
            assert out.draw or out.winners == (me,), out


# --------------------------------------------------------------------------- the rules


def test_rules_of_tictactoe_come_from_its_win_sets():
    m, eng, rules, planner = setup("tictactoe")
    assert rules.kind == "win(p) sets"
    o_wins = (1, 1, 1, 2, 2, 0, 0, 0, 0)
    full = (1, 2, 1, 1, 2, 2, 2, 1, 1)
    assert rules.result(o_wins, 1).winners == (1,)
    assert rules.result(full, 1).draw


def test_rules_of_normal_play_the_coalition_rule():
    """ENS 2005: the stuck player loses, every other player wins, whoever moved last."""
    m, eng, rules, planner = setup("ens2005", N=3, K=4)
    assert rules.kind == "normal play"
    stuck = (3, 0, 0)
    for last in (2, None):
        out = rules.result(stuck, last)
        assert (out.winners, out.losers) == ((1, 2), (3,)), out
    two_stuck = rules.result((2, 0, 0), 1)
    assert two_stuck.side_wins({3}) and two_stuck.side_wins({1})
    assert not two_stuck.side_wins({1, 2}), two_stuck


# --------------------------------------------------------------------------- the command


def play(capsys, monkeypatch, lines: str, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status = main(["play", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


SUB = str(MODELS / "subtraction.game")


@pytest.mark.parametrize("engine", ["symbolic", "explicit"])
def test_a_whole_game_through_a_pipe(capsys, monkeypatch, engine):
    status, out, err = play(
        capsys, monkeypatch, "3\n3\nk=0, j=1\nfoo\n1\n", SUB, "-p", "K=7", "--engine", engine
    )
    assert status == 0, err
    assert "||||||| (7 left), player 1 to move" in out
    assert "evaluation: you can still win (you can force it within 3 moves)" in out
    assert "The solver (player 2) plays" in out
    assert "Legal moves:\n    1) take(1)\n    2) take(2)\n    3) take(3)\n" in out
    assert "The solver (player 2) plays take(3)." in out
    assert "no legal move 3: choose one of 1" in out  # take(3) keeps its number, illegal
    assert "illegal move: j=1, k=0 is not reachable in one move" in out
    assert "not a move: 'foo'" in out
    assert out.rstrip().endswith(
        "Game over after 3 moves: you win (player 1; player 2 cannot move)."
    )


def test_both_engines_print_the_same_game(capsys, monkeypatch):
    moves = "".join(f"{n}\n" for n in range(1, 10)) * 12  # each turn: the smallest legal number
    outs = [
        play(capsys, monkeypatch, moves, str(MODELS / "nim.game"), "-p", "K=3", "--engine", e)[1]
        for e in ("symbolic", "explicit")
    ]
    assert outs[0] == outs[1]
    assert "Game over" in outs[0] and "the solver wins" in outs[0]


def test_the_solver_plays_a_coalition_of_the_ens_game(capsys, monkeypatch):
    status, out, err = play(
        capsys,
        monkeypatch,
        "",
        str(MODELS / "ens2005.game"),
        "-p",
        "K=6",
        "--as",
        "3",
        "--start",
        "j=1, k[1]=6, k[2]=6",
    )
    assert status == 0, err
    assert "you play 3; the solver plays 1, 2" in out
    assert "evaluation: the solver wins in at most 2 moves" in out
    assert "The solver (player 1) plays" in out and "The solver (player 2) plays" in out
    assert "the solver wins (players 1, 2; player 3 cannot move)" in out


def test_a_move_typed_as_a_position_and_a_drawn_board(capsys, monkeypatch):
    status, out, err = play(
        capsys,
        monkeypatch,
        "c[1]=1, c[2]=0, c[3]=0, c[4]=0, c[5]=0, c[6]=0, c[7]=0, c[8]=0, c[9]=0\nquit\n",
        str(MODELS / "tictactoe.game"),
    )
    assert status == 0, err
    assert "O . .    1 2 3\n. . .    4 5 6\n. . .    7 8 9\nX to move" in out
    assert "Game left unfinished." in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--as", "5"], "unknown player 5"),
        (["--as", "1,2"], "leave at least one to the solver"),
        (["--as", "x"], "--as expects player numbers"),
        (["--start", "j=1, j=2"], "j is given twice"),
        (["--goal", "nonsense +"], "<formula>:1:"),
    ],
)
def test_mistakes_exit_2_with_a_message(capsys, monkeypatch, argv, words):
    status, out, err = play(capsys, monkeypatch, "", SUB, *argv)
    assert status == 2 and words in err, err


def test_a_model_without_initial_needs_start(capsys, monkeypatch, tmp_path):
    p = tmp_path / "g.game"
    p.write_text("players 1, 2\nvar j : 1..2\nturn j\nmove m when j = 1 then j' = 2\n")
    status, out, err = play(capsys, monkeypatch, "", str(p))
    assert status == 2 and "declares no set 'initial'" in err, err
    status, out, err = play(capsys, monkeypatch, "1\n", str(p), "--start", "j=1")
    assert status == 0 and "you win" in out, out


def test_the_goal_option_sets_the_solvers_target(capsys, monkeypatch):
    status, out, err = play(
        capsys, monkeypatch, "", SUB, "-p", "K=5", "--as", "2", "--goal", "k = 3"
    )
    assert status == 0, err
    assert "its goal: reach k = 3" in out
    assert "evaluation: the solver reaches its goal in at most 1 move" in out
    assert "The solver (player 1) plays take(2)." in out


# --------------------------------------------------------------------------- random games


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(games(), st.integers(0, 2**16))
def test_on_random_games_the_engines_play_alike_and_the_rank_drops_by_one(game, seed):
    engines = [build_engine(game, k) for k in ("explicit", "cudd")]
    players = game.players
    coalitions = [frozenset(c) for c in ({p} for p in players)] + [frozenset(players[:-1])] * (
        len(players) > 1
    )
    results = []
    for eng in engines:
        rules = Referee(eng)
        planner = Planner(eng, rules)
        moves = {}
        for pos in (eng.positions() - eng.deadlocks()).tuples():
            for c in coalitions:
                nxt = choose_move(planner, pos, c)
                assert nxt in eng.successors(pos), (pos, nxt)
                r = planner.rank(c, pos)
                if r and rules.mover(pos) in c:  # in W_C, C to move: one step closer
                    assert planner.rank(c, nxt) == r - 1, (pos, c, r, nxt)
                moves[pos, c] = nxt
        rng = random.Random(seed)
        kinds = {
            p: (solver_player(planner, {p}, rng) if p % 2 else random_player(rng)) for p in players
        }
        starts = (eng.positions() - eng.deadlocks()).tuples()[:3]
        plays = [run_play(eng, rules, kinds, s, 12) for s in starts]
        results.append((moves, plays))
    assert results[0] == results[1]


def test_help(capsys):
    with pytest.raises(SystemExit) as info:
        main(["play", "--help"])
    assert info.value.code == 0 and "--as PLAYERS" in capsys.readouterr().out


def test_standard_input_that_is_not_utf8_is_refused():
    # issue 23: standard input is hostile input
    import io
    from symbolic.cli.play import Terminal
    from symbolic.errors import QueryError

    stdin = io.TextIOWrapper(io.BytesIO(b"1\n\xff\n"), encoding="utf-8")
    term = Terminal(stdin, io.StringIO())
    with pytest.raises(QueryError, match="standard input is not UTF-8 text \\(byte 0xff\\)"):
        term.ask("> ")


def test_a_megabyte_line_is_not_parsed_and_not_echoed_whole():
    import io
    from symbolic.cli.play import Terminal

    out = io.StringIO()
    term = Terminal(io.StringIO("9" * 10**6 + "\n"), out)
    assert term.ask("> ") == ""
    assert len(out.getvalue()) < 1000 and "1000001 characters: not a move" in out.getvalue()
