"""Every command's ``--json`` document against docs/schema/output.schema.json (the one
header, then the answer; positions as ``{slot: value}``), and ``values``/``nimbers
--all`` as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json

import pytest

from symbolic.cli import build_parser

from .conftest import ROOT, run

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((ROOT / "docs" / "schema" / "output.schema.json").read_text())
NIM = ("nim", "-p", "n=2", "-p", "K=2")
TD = str(ROOT / "models" / "td_example.arena.json")

#: one small run of each --json variant of each command (the seeds' on their smallest input)
AIGER = str(ROOT / "models" / "aiger" / "grant.aag")

CASES = {
    "models": [("models",)],
    "aiger": [("aiger", AIGER), ("aiger", AIGER, "--engine", "both")],
    "check": [
        ("check", *NIM),
        ("check", *NIM, "--engine", "both", "--limit", "0"),
        ("check", *NIM, "--query", "wins(1)", "--why", "j=1, k[1]=1, k[2]=2"),
        ("check", TD, "--query", "<<{1}>> <> Obj1", "--why", "s=0", "--engine", "both"),
    ],
    "successors": [
        ("successors", *NIM, "--at", "j=1, k[1]=1, k[2]=2"),
        ("successors", "rps", "--at", "round=0, score=0"),
    ],
    "strategy": [
        ("strategy", *NIM, "--query", "<<1>> <> wins(1)", "--at", "j=1, k[1]=1, k[2]=2"),
        ("strategy", *NIM, "--count", "1"),
        (
            "strategy",
            "rps",
            "--query",
            "<<1, 2>> <> (over and score == R)",
            "--at",
            "round=0, score=0",
        ),
    ],
    "execute": [
        ("execute", TD, "--from", "initial", "--strategy", "2=STRAT", "--stop", "Obj1 or Obj2")
    ],
    "values": [
        ("values", *NIM),
        ("values", *NIM, "--at", "j=1, k[1]=1, k[2]=2"),
        ("values", *NIM, "--all"),
        ("values", "chocolate", "-p", "m=3", "-p", "n=2", "-p", "i=0", "-p", "j=0", "--by-layer"),
    ],
    "layers": [
        ("layers", "tictactoe", "--engine", "both"),
        ("layers", str(ROOT / "models" / "connect4-compact.game"), "-p", "w=3", "-p", "h=2"),
    ],
    "nimbers": [
        ("nimbers", *NIM),
        ("nimbers", *NIM, "--at", "j=1, k[1]=1, k[2]=2"),
        ("nimbers", *NIM, "--all", "--engine", "both"),
    ],
    "simulate": [("simulate", *NIM, "--players", "random,random", "--games", "2")],
    "gdl": [("gdl", "gdl/nim1")],
    "hackendot": [("hackendot", "(())"), ("hackendot", "--all", "3")],
    "chomp": [("chomp", "--size", "2", "--rule", "line")],
    "ens2005": [("ens2005", "--u0", "3")],
    "chocolate": [("chocolate",)],  # ~6 s each, the seeds' fixed sizes
    "tictactoe": [("tictactoe",)],
}


def _json_commands() -> set[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return {name for name, sp in sub.choices.items() if any(a.dest == "json" for a in sp._actions)}


def test_every_json_command_has_a_case():
    assert _json_commands() == set(CASES), "add a case for each command with --json"


def _doc(capsys, tmp_path, argv) -> dict:
    if "2=STRAT" in argv:  # the TD's arena: player 2's winning strategy, exported
        query = ("--query", "<<2>> <> Obj2", "--from", "initial", "--dead-ends", "strict")
        status, out, err = run(capsys, "strategy", TD, *query, "--json")
        assert status == 0, err
        (tmp_path / "s.json").write_text(out)
        (tmp_path / "s1.json").write_text('{"0": 1, "2": 3}')  # the TD's player 1
        argv = tuple(f"2={tmp_path / 's.json'}" if a == "2=STRAT" else a for a in argv)
        argv += ("--strategy", f"1={tmp_path / 's1.json'}")
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    "argv", [a for cases in CASES.values() for a in cases], ids=lambda a: " ".join(a[:2])
)
def test_json_matches_the_schema(capsys, tmp_path, argv):
    doc = _doc(capsys, tmp_path, argv)
    jsonschema.validate(doc, SCHEMA)
    assert list(doc)[:5] == ["command", "model", "parameters", "engine", "backend"]
    assert doc["command"] == argv[0]


def test_the_schema_refuses_a_bare_list_position(capsys, tmp_path):
    doc = _doc(capsys, tmp_path, ("check", *NIM))
    doc["results"][0]["positions"] = [[1, 0, 1]]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)
    del doc["backend"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)


def test_check_positions_have_slot_names(capsys, tmp_path):
    doc = _doc(capsys, tmp_path, ("check", *NIM, "--query", "k[1] = 2 and k[2] = 0"))
    assert doc["parameters"] == {"n": 2, "K": 2} and doc["model"] == "Nim(n, K)"
    assert doc["results"][0]["positions"] == [
        {"j": 1, "k[1]": 2, "k[2]": 0},
        {"j": 2, "k[1]": 2, "k[2]": 0},
    ]


@pytest.mark.parametrize("command,column", [("values", "value"), ("nimbers", "nimber")])
def test_all_as_csv_agrees_with_at(capsys, command, column):
    status, out, err = run(capsys, command, *NIM, "--all", "--csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["j", "k[1]", "k[2]", column]
    assert len(rows) == 18  # 2 movers x 3 x 3 heaps
    for row in rows[::5]:
        at = ", ".join(f"{k}={row[k]}" for k in ("j", "k[1]", "k[2]"))
        _, one, _ = run(capsys, command, *NIM, "--at", at, "--json")
        want = json.loads(one)[column]
        got = row[column]
        assert got == (str(want) if column == "nimber" else f"{want:+d}" if want else "0")


def test_all_over_the_limit_is_a_clear_error(capsys):
    status, out, err = run(capsys, "values", *NIM, "--all", "--csv", "--limit", "5")
    assert status == 2 and out == ""
    assert "18 positions, more than --limit 5" in err and "Traceback" not in err
    status, _, err = run(capsys, "nimbers", *NIM, "--all")
    assert status == 2 and "--all needs --csv or --json" in err


@pytest.mark.parametrize(
    "argv",
    [("gdl", "gdl/nim1", "--timeout", "0.001"), ("check", *NIM, "-p", "n=6", "-p", "K=100")],
    ids=["gdl timeout", "check max-memory"],
)
def test_a_run_a_limit_ends_is_a_stopped_document(capsys, argv):
    extra = ("--max-memory", "8") if argv[0] == "check" else ()
    status, out, err = run(capsys, *argv, *extra, "--json")
    assert status == 3, (status, err)
    doc = json.loads(out)
    jsonschema.validate(doc, SCHEMA)
    assert list(doc) == ["command", "model", "parameters", "engine", "backend", "stopped"]
    assert doc["stopped"]["stage"] and err == f"symbolic: {doc['stopped']['message']}\n"
    assert doc["stopped"]["limit"] == ("max-memory" if extra else "timeout"), doc
    # the stopped document is not an answer: a gdl answer lacking its keys is refused
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in doc.items() if k != "stopped"}, SCHEMA)
