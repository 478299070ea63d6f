"""The command line (symbolic.cli): outputs, JSON shape, exit statuses, error messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symbolic.cli import main

from .conftest import ROOT, run

ENS = str(ROOT / "models" / "ens2005.game")

SUBTRACTION = """\
game "sub"
param K : 0..40 = 12
players 1, 2
var j : 1..2
var k : 0..K
turn j
move take(t in 1..3) when t <= k then k' = k - t; j' = 3 - j
formula wins(p) = <<{p}>> <> (turn(players \\ {p}) and <<{p}>> X false)
query wins(1) and j = 1
"""


@pytest.fixture
def sub_model(tmp_path):
    p = tmp_path / "sub.game"
    p.write_text(SUBTRACTION)
    return str(p)


def test_check_json_shape_and_values(capsys, sub_model):
    status, out, err = run(capsys, "check", sub_model, "--json", "--limit", "0")
    assert status == 0, err
    doc = json.loads(out)
    assert list(doc) == ["command", "model", "parameters", "engine", "backend", "results"]
    assert doc["parameters"] == {"K": 12} and doc["engine"] == "symbolic"
    (res,) = doc["results"]
    assert res["query"] == "wins(1) and j = 1"
    assert res["positions"] == [{"j": 1, "k": k} for k in range(13) if k % 4], res["positions"]
    assert res["count"] == len(res["positions"])


def test_check_limit_and_params(capsys, sub_model):
    status, out, _ = run(capsys, "check", sub_model, "-p", "K=40", "--json", "--limit", "2")
    doc = json.loads(out)
    assert status == 0 and doc["parameters"] == {"K": 40}
    assert doc["results"][0]["count"] == 30 and len(doc["results"][0]["positions"]) == 2


def test_check_prints_positions_through_the_display(capsys, sub_model):
    """A model with a display: each position drawn, numbered; a GDL state: its true
    fluents; a model without one: ``slot=value`` pairs (the JSON keeps slot names)."""
    status, out, err = run(capsys, "check", "tictactoe", "--query", "empty", "--limit", "0")
    assert status == 0, err
    assert out.split("count: 1\n")[1].splitlines() == [
        "     1) . . .    1 2 3",
        "        . . .    4 5 6",
        "        . . .    7 8 9",
        "        O to move",
    ], out
    status, out, err = run(capsys, "check", "gdl/ticTacToe", "--query", "initial")
    assert status == 0, err
    assert "    (cell 1 1 b) (cell 1 2 b) " in out and "=0" not in out, out
    status, out, err = run(capsys, "check", sub_model, "--limit", "2")
    assert status == 0, err
    assert "    j=1, k=1\n    j=1, k=2\n" in out, out


def test_engine_both_agrees_and_reports(capsys):
    status, out, err = run(
        capsys,
        "check",
        ENS,
        "--engine",
        "both",
        "-p",
        "K=8",
        "--query",
        "F({1})",
        "--query",
        "<<1,2>> [] not turn({3})",
    )
    assert status == 0, err
    assert "agree on all 2 queries" in out


def test_explicit_engine_and_autoref_backend_give_the_same_counts(capsys, sub_model):
    counts = []
    for extra in (["--engine", "explicit"], ["--backend", "autoref"], []):
        status, out, _ = run(capsys, "check", sub_model, "--json", *extra)
        assert status == 0
        counts.append(json.loads(out)["results"][0]["count"])
    assert counts == [9, 9, 9], counts


def test_show(capsys):
    status, out, _ = run(capsys, "show", ENS, "-p", "K=5")
    assert status == 0
    assert "players: 1, 2, 3" in out and "positions: 108 " in out, out
    assert "k : array[1..2] of 0..5" in out


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["check", "no/such/file.game"], "no/such/file.game"),
        (["check", ENS, "-p", "Z=1"], "Z"),
        (["check", ENS, "-p", "K=abc"], "K"),
        (["check", ENS, "-p", "K=5000"], "K"),
        (["check", ENS, "--query", "turn({7})"], "player 7"),
        (["check", ENS, "--query", "<<1>> X (k[1] >"], "<formula>:1:"),
        (["check", ENS, "--query", "nosuchset"], "nosuchset"),
    ],
)
def test_user_errors_exit_2_with_a_message(capsys, argv, expected):
    status, out, err = run(capsys, *argv)
    assert status == 2, (status, out, err)
    assert expected in err and "Traceback" not in err, err


def test_located_error_in_a_model_file(capsys, tmp_path):
    bad = tmp_path / "bad.game"
    bad.write_text(SUBTRACTION.replace("var k : 0..K", "var k : 0..Q"))
    status, _, err = run(capsys, "check", str(bad))
    assert status == 2
    first = err.splitlines()[0]
    assert first.startswith(f"{bad}:5:") and "error:" in first and "Q" in first, err
    assert "^" in err


def test_negative_limit_is_refused(capsys, sub_model):
    with pytest.raises(SystemExit) as exc:
        main(["check", sub_model, "--limit", "-1"])
    assert exc.value.code == 2


@pytest.mark.parametrize("cmd", [[], ["check"], ["show"], ["ens2005"]])
def test_help_everywhere(cmd):
    r = subprocess.run(
        [sys.executable, "-m", "symbolic", *cmd, "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert r.returncode == 0 and "usage: symbolic" in r.stdout, r.stderr


def test_arena_json_is_a_model(capsys):
    status, out, err = run(
        capsys,
        "check",
        str(ROOT / "models" / "td_example.arena.json"),
        "--json",
        "--engine",
        "both",
    )
    assert status == 0, err
    counts = {r["query"]: r["count"] for r in json.loads(out)["results"]}
    assert counts["initial and <<2>> <> Obj2"] == 1 and counts["initial and <<1>> <> Obj1"] == 0


def test_bad_arena_is_reported(capsys, tmp_path):
    p = tmp_path / "bad.arena.json"
    p.write_text(
        '{"etats": [0, 1], "init": 0, "controles": {"0": 1},'
        ' "transitions": {}, "objectifs1": [], "objectifs2": []}'
    )
    status, _, err = run(capsys, "check", str(p))
    assert status == 2 and "without a controller in controles: [1]" in err, err
    p.write_text('{"etats": [0, 1],\n "init": }')
    status, _, err = run(capsys, "check", str(p))
    assert status == 2 and f"{p}:2:" in err and "unexpected '}' in JSON" in err, err


def test_engine_both_exits_1_and_names_a_position_on_a_difference(capsys, monkeypatch, sub_model):
    """Sabotage the explicit engine's until: the cross-check must catch it."""
    from symbolic.explicit import ExplicitGame

    real = ExplicitGame.until

    def wrong_until(self, *args, **kw):
        fp = real(self, *args, **kw)
        smallest = fp.result.first()
        broken = fp.result - self.from_tuples([smallest]) if smallest else fp.result
        return type(fp)(broken, fp.iterations, fp.layers)

    monkeypatch.setattr(ExplicitGame, "until", wrong_until)
    status, out, err = run(capsys, "check", sub_model, "--engine", "both")
    assert status == 1, (out, err)
    assert (
        "MISMATCH on wins(1) and j = 1: position j=1, k=1 is only in the symbolic result" in err
    ), err


@pytest.mark.parametrize("order", ["auto", "sliced", "slots"])
@pytest.mark.parametrize("partition", ["moves", "monolithic"])
def test_bit_orders_and_partitions_give_the_same_answers(capsys, order, partition):
    status, out, err = run(
        capsys,
        "check",
        ENS,
        "-p",
        "K=6",
        "--json",
        "--order",
        order,
        "--partition",
        partition,
        "--engine",
        "both",
    )
    assert status == 0, err
    counts = [r["count"] for r in json.loads(out)["results"]]
    status, out, _ = run(capsys, "check", ENS, "-p", "K=6", "--json", "--engine", "explicit")
    assert counts == [r["count"] for r in json.loads(out)["results"]], (order, partition, counts)


def test_engine_both_refuses_a_space_beyond_the_explicit_limit_before_any_work(capsys, monkeypatch):
    """Once, `check nim.game -p n=6 -p K=100 --engine both` ran the symbolic engine
    for minutes and only then hit the explicit engine's limit."""
    from symbolic.bdd import SymbolicGame

    def must_not_build(*args, **kw):
        raise AssertionError("the symbolic engine was built before the size check")

    monkeypatch.setattr(SymbolicGame, "__init__", must_not_build)
    status, out, err = run(
        capsys,
        "check",
        str(ROOT / "models" / "nim.game"),
        "-p",
        "n=6",
        "-p",
        "K=100",
        "--engine",
        "both",
    )
    assert status == 3, (out, err)  # a resource limit, reported as the others (issue 8)
    assert "more than the explicit engine's limit" in err, err


def _shell(command: str) -> subprocess.CompletedProcess:
    """``command`` run by the shell with ``symbolic`` standing for this checkout's command."""
    symbolic = f"'{sys.executable}' -m symbolic"
    return subprocess.run(
        ["bash", "-c", command.replace("symbolic", symbolic, 1)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.parametrize(
    "redirect, reason",
    [(">/dev/full", "No space left on device"), (">&-", "standard output is closed")],
)
def test_an_output_that_cannot_be_written_is_a_message_and_status_4(redirect, reason):
    """Issue 32: `check nim >/dev/full` and `>&-` ended in tracebacks (OSError,
    AttributeError)."""
    r = _shell(f"symbolic check models/nim.game {redirect}")
    assert r.returncode == 4, (r.returncode, r.stderr)
    assert r.stderr == f"symbolic: error: cannot write the output: {reason}\n", r.stderr


def test_a_closed_stderr_keeps_the_whole_output_and_the_status():
    """Issue 32: with stderr closed the output stopped after two lines, exit 1."""
    whole = _shell("symbolic check models/nim.game -p n=2")
    r = _shell("symbolic check models/nim.game -p n=2 2>&-")
    assert (r.returncode, r.stdout) == (0, whole.stdout) and whole.returncode == 0, r.returncode
    bad = _shell("symbolic check models/nim.game --query 'nosuch' 2>&-")
    assert (bad.returncode, bad.stdout) == (2, ""), (bad.returncode, bad.stdout)


def test_a_closed_pipe_ends_quietly():
    r = _shell(
        "symbolic values models/subtraction.game -p K=3000 --limit 0 | head -1; "
        "exit ${PIPESTATUS[0]}"
    )
    assert (r.returncode, r.stdout, r.stderr) == (0, "subtraction(K) [K=3000]\n", ""), r


class _FullAfter:
    """A stdout that takes ``room`` characters, then fails as a full disk does."""

    def __init__(self, room: int):
        self.room = room

    def write(self, text: str) -> int:
        self.room -= len(text)
        if self.room < 0:
            raise OSError(28, "No space left on device")
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "nim", "-p", "n=2", "--limit", "0"],
        ["check", "nim", "-p", "n=2", "--json"],
        ["--help"],
    ],
)
def test_a_stdout_that_fills_up_midway_is_a_message_and_status_4(capsys, monkeypatch, argv):
    monkeypatch.setattr(sys, "stdout", _FullAfter(200))
    try:
        status = main(argv)
    except SystemExit as exc:  # pragma: no cover - shown in the assertion
        status = ("SystemExit", exc.code)
    err = capsys.readouterr().err
    assert status == 4, (status, err)
    assert err == "symbolic: error: cannot write the output: No space left on device\n", err


@pytest.mark.parametrize("name", ["a" * 5000, "a/" * 2500 + "b", "a" * 300 + ".game"])
def test_a_name_too_long_for_the_file_system_is_a_file_error(capsys, name):
    """Issue 32: a model name of 5 000 characters ended in a traceback (ENAMETOOLONG)."""
    status, out, err = run(capsys, "check", name)
    assert (status, out) == (2, ""), (status, err)
    assert err.startswith("symbolic: error: 'a") and "longer than the file system allows" in err
    assert len(err) < 300, len(err)


def test_a_loop_of_links_is_a_file_error(capsys, tmp_path):
    (tmp_path / "loop.game").symlink_to(tmp_path / "loop.game")
    status, out, err = run(capsys, "check", str(tmp_path / "loop.game"))
    assert (status, out) == (2, ""), (status, err)
    assert "cannot read the model file (Too many levels of symbolic links)" in err, err


def test_a_model_file_that_may_not_be_read_is_a_file_error(capsys, monkeypatch, sub_model):
    """EACCES (not testable by file modes when the tests run as root): the read fails."""

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_text", refuse)
    status, out, err = run(capsys, "check", sub_model)
    assert (status, out) == (2, ""), (status, err)
    assert err == f"symbolic: error: {sub_model}: cannot read the model file (Permission denied)\n"


def test_version_and_a_bare_symbolic_print_and_exit_0(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"symbolic {version('symbolic')}\n"
    status, out, err = run(capsys)
    assert status == 0 and err == ""
    assert out.startswith("usage: symbolic") and "COMMAND" in out and "nimbers" in out


def test_a_division_written_as_a_comment_gets_a_located_warning(capsys, tmp_path):
    p = tmp_path / "h.game"
    body = 'game "h"\nplayers 1\nvar k : 0..9\nturn 1\nmove dec when k > 0 then k\' = k - 1\n'
    p.write_text(body + "set half = k // 2 == 1\nquery half\n")
    status, out, err = run(capsys, "check", p)
    assert status == 2 and out == ""
    warning, error = err.split(f"{p}:6:12: error:")
    assert warning.startswith(f"{p}:6:14: warning: '//' starts a comment") and "'div'" in warning
    p.write_text(body + "set half = k > 2 // 2 + 1\nset big = k > 5  // more than half\n")
    status, out, err = run(capsys, "check", p, "--query", "half")
    assert status == 0 and err.count("warning:") == 1 and f"{p}:6:18: warning:" in err
    # an update cut short: the next update after ';' is code too; prose after ';' is not
    p.write_text(
        body.replace("k - 1", "k // 2; k' = 1") + "set big = k > 5  // 2 rows; then more\n"
    )
    status, out, err = run(capsys, "check", p, "--query", "big")
    assert status == 0 and err.count("warning:") == 1 and f"{p}:5:33: warning:" in err, err
