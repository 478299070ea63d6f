"""``symbolic strategy`` and ``symbolic successors``: outputs, JSON and DOT
shapes, exit statuses, error messages."""

from __future__ import annotations

import json


from .conftest import ROOT, run

TD = str(ROOT / "models" / "td_example.arena.json")
ENS = str(ROOT / "models" / "ens2005.game")
TTT = str(ROOT / "models" / "tictactoe.game")


def test_strategy_text_with_verification(capsys):
    status, out, err = run(
        capsys,
        "strategy",
        TD,
        "--query",
        "<<2>> <> Obj2",
        "--from",
        "initial",
        "--dead-ends",
        "strict",
        "--verify",
    )
    assert status == 0, err
    assert "s=1  ->  edge((1, 6))  (rank 1)" in out and "s=4  ->  edge((4, 3))  (rank 2)" in out
    assert "moves in the table: 3" in out
    assert "layers (positions won within n moves, n = 0, 1, ...): 1, 3, 4, 5" in out
    assert "verified: every consistent play reaches the goal within 3 moves" in out


def test_strategy_json_both_engines_agree(capsys):
    docs = []
    for engine in ("symbolic", "explicit"):
        status, out, _ = run(
            capsys,
            "strategy",
            TTT,
            "--query",
            "forces_win(1)",
            "--at",
            "c[1]=1, c[2]=2, c[3]=0, c[4]=0, c[5]=0, c[6]=0, c[7]=0, c[8]=0, c[9]=0",
            "--engine",
            engine,
            "--json",
            "--verify",
            "--layered",
            "off",
        )
        assert status == 0
        doc = json.loads(out)
        assert doc.pop("engine") == engine and doc.pop("backend") in ("cudd", "oxidd", None)
        docs.append(doc)
    assert docs[0] == docs[1]
    doc = docs[0]
    # layered from the start (the default, tic-tac-toe is graded): the same moves and plays
    _, out, _ = run(
        capsys,
        "strategy",
        TTT,
        "--query",
        "forces_win(1)",
        "--at",
        "c[1]=1, c[2]=2, c[3]=0, c[4]=0, c[5]=0, c[6]=0, c[7]=0, c[8]=0, c[9]=0",
        "--json",
        "--verify",
    )
    layered = json.loads(out)
    for key in ("moves", "positions", "start_won", "verified"):
        assert layered[key] == doc[key], key
    assert layered["layered"]["from"] == "start" and layered["layers"][-1] < 3408
    assert doc["coalition"] == [1] and doc["objective"] == "reach"
    # the until layers grow strictly up to the winning region (3408 boards of the domain)
    assert doc["layers"] == sorted(set(doc["layers"])) and doc["layers"][-1] == 3408
    assert doc["verified"]["ok"] and doc["verified"]["longest"] == 5
    assert len(doc["moves"]) == 11 and len(doc["positions"]) == 22


def test_strategy_dot(capsys):
    status, out, _ = run(
        capsys, "strategy", TD, "--query", "<<1>> [] not Obj2", "--at", "s=2", "--dot"
    )
    assert status == 0
    assert out.startswith("digraph strategy {")
    assert '"s=2" -> "s=5" [style=bold];' in out and '"s=5" -> "s=5" [style=bold];' in out


def test_strategy_count(capsys):
    status, out, _ = run(capsys, "strategy", TD, "--count", "1")
    assert (status, out) == (0, "player 1 has 4 positional strategies\n")
    status, out, _ = run(capsys, "strategy", TTT, "--count", "2", "--json")
    assert status == 0 and json.loads(out)["player"] == 2
    status, _, err = run(capsys, "strategy", TD, "--count", "3")
    assert status == 2 and "unknown player 3" in err


def test_strategy_errors(capsys):
    status, _, err = run(capsys, "strategy", TD, "--from", "initial")
    assert status == 2 and "needs --query" in err
    status, _, err = run(capsys, "strategy", TD, "--query", "<<1>> <> Obj1")
    assert status == 2 and "--from SET or as --at POSITION" in err
    status, _, err = run(capsys, "strategy", TD, "--query", "<<1>> X Obj1", "--from", "initial")
    assert status == 2 and "until or a release" in err
    status, _, err = run(capsys, "strategy", TD, "--query", "<<1>> <> Obj1", "--at", "s=9")
    assert status == 2 and "s=9" in err


def test_successors(capsys):
    status, out, _ = run(capsys, "successors", ENS, "--at", "j=1, k[1]=3, k[2]=3")
    assert status == 0
    assert out.splitlines() == [  # the model's display, the moves by name and number
        "column 1: ||| (3)",
        "column 2: ||| (3)",
        "player 1 to move",
        "(player 1 to move)",
        "2 successor(s):",
        "    2) take((2, 3))",
        "        column 1: | (1)",
        "        column 2:  (0)",
        "        player 2 to move",
        "    3) take((3, 2))",
        "        column 1:  (0)",
        "        column 2: | (1)",
        "        player 2 to move",
    ]
    status, out, _ = run(
        capsys, "successors", ENS, "--at", "j=1, k[1]=3, k[2]=3", "--engine", "explicit", "--json"
    )
    assert json.loads(out)["successors"] == [
        {"j": 2, "k[1]": 0, "k[2]": 1},
        {"j": 2, "k[1]": 1, "k[2]": 0},
    ]
    assert json.loads(out)["moves"] == ["take((3, 2))", "take((2, 3))"]  # one per successor
    status, out, _ = run(capsys, "successors", TD, "--at", "s=5")
    assert "1 successor(s):" in out and "  ->  s=5" in out
    status, _, err = run(capsys, "successors", ENS, "--at", "k[1]=3")  # initial: j free
    assert status == 2 and "no value for j " in err


def test_execute_td_q4_q5(capsys, tmp_path):
    s1 = tmp_path / "s1.json"
    s1.write_text('{"0": 1, "2": 3}')  # the TD's sample strategy of player 1
    s2 = tmp_path / "s2.json"
    status, out, _ = run(
        capsys,
        "strategy",
        TD,
        "--query",
        "<<2>> <> Obj2",
        "--from",
        "initial",
        "--dead-ends",
        "strict",
        "--json",
    )
    s2.write_text(out)  # player 2's winning strategy, exported
    base = ["execute", TD, "--from", "initial", "--strategy", f"2={s2}", "--stop", "Obj1 or Obj2"]
    status, out, _ = run(capsys, *base, "--strategy", f"1={s1}")
    assert status == 0
    assert out.splitlines() == [
        "   0  s=0",
        "   1  edge((0, 1))  ->  s=1",
        "   2  edge((1, 6))  ->  s=6",
        "end: goal after 2 move(s)",
    ]
    # Q5: whatever player 1 plays, the play ends in player 2's objective
    for first in (1, 4):
        for at2 in (3, 5):
            s1.write_text(json.dumps({"0": first, "2": at2}))
            status, out, _ = run(capsys, *base, "--strategy", f"1={s1}", "--json")
            doc = json.loads(out)
            assert doc["end"] == "goal" and doc["play"][-1] == {"s": 6}, (first, at2, doc)
    s1.write_text('{"0": 2}')
    status, _, err = run(capsys, *base, "--strategy", f"1={s1}")
    # the legal moves named as the model writes them
    legal = "(legal moves: edge((0, 1)), edge((0, 4)))"
    assert status == 2 and f"plays s=0 -> s=2, not a legal move {legal}" in err
    status, _, err = run(capsys, "execute", TD, "--from", "initial", "--strategy", f"1={s1}")
    assert status == 2 and "not a legal move" in err
    s1.write_text('{"0": 1}')
    status, _, err = run(capsys, *base[:-2], "--strategy", f"1={s1}", "--strategy", f"2={s1}")
    assert status == 2 and "player 2's strategy has no move at s=1 (legal moves: edge((1, " in err
    s1.write_text("[1, 2")
    status, _, err = run(capsys, *base, "--strategy", f"1={s1}")
    assert status == 2 and "invalid JSON" in err


def test_strategy_count_beyond_python_str_limit(capsys):
    # 4 595 digits: more than Python's default limit for int -> str (4 300)
    status, out, err = run(capsys, "strategy", ENS, "-p", "K=100", "--count", "1", "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["digits"] == 4595 == len(str(doc["strategies"]))
    from symbolic.engines import make_engine
    from symbolic.model import load_model
    from symbolic.analysis.strategy import count_strategies

    e = make_engine(load_model(ENS, {"K": 100}).game, "explicit")
    assert count_strategies(e, 1) == doc["strategies"]


def test_verify_from_a_start_that_is_not_won_says_so_and_fails(capsys):
    status, out, err = run(
        capsys,
        "strategy",
        TD,
        "--query",
        "<<1>> <> Obj1",
        "--from",
        "initial",
        "--dead-ends",
        "strict",
        "--verify",
    )
    assert status == 1, (status, out, err)
    assert "0 won, 1 not won" in out
    last = out.splitlines()[-1]
    assert last == (
        "not verified: the start is not won at 1 of 1 position(s) (e.g. s=0): nothing to verify"
    ), last
    status, out, _ = run(
        capsys,
        "strategy",
        TD,
        "--query",
        "<<1>> <> Obj1",
        "--from",
        "initial",
        "--dead-ends",
        "strict",
        "--verify",
        "--json",
    )
    doc = json.loads(out)
    assert status == 1 and doc["verified"]["ok"] is False, doc["verified"]
    assert doc["verified"]["reason"].startswith("the start is not won at 1 of 1"), doc


def test_verify_from_a_start_partly_won_verifies_the_rest_and_fails(capsys):
    status, out, _ = run(
        capsys,
        "strategy",
        TD,
        "--query",
        "<<1>> <> Obj1",
        "--from",
        "true",
        "--dead-ends",
        "strict",
        "--verify",
    )
    last = out.splitlines()[-1]
    assert status == 1, (status, out)
    assert last.startswith("not verified: the start is not won at 5 of 7 position(s)"), last
    assert "from the others, every consistent play reaches the goal" in last, last


def test_verify_of_a_joint_strategy_from_a_start_not_won(capsys):
    status, out, _ = run(
        capsys,
        "strategy",
        "pennies",
        "--query",
        "<<1>> <> matched",
        "--at",
        "done=false, same=false",
        "--verify",
    )
    assert status == 1, (status, out)
    assert out.splitlines()[-1] == (
        "not verified: the start is not won at 1 of 1 "
        "position(s) (e.g. done=0, same=0): nothing to verify"
    )
    status, out, _ = run(
        capsys,
        "strategy",
        "pennies",
        "--query",
        "<<1, 2>> <> matched",
        "--at",
        "done=false, same=false",
        "--verify",
        "--json",
    )
    doc = json.loads(out)
    assert status == 0 and doc["verified"] is True and "not_won" not in doc, doc


def test_dot_on_a_concurrent_game_is_refused(capsys):
    status, out, err = run(
        capsys,
        "strategy",
        "pennies",
        "--query",
        "<<1, 2>> <> matched",
        "--at",
        "done=false, same=false",
        "--dot",
    )
    assert status == 2 and out == "", (status, out)
    assert "strategy --dot is not supported for concurrent games" in err, err
