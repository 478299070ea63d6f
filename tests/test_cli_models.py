"""Shipped models by name: ``symbolic models`` and MODEL given as a shipped name
(symbolic.cli.models, symbolic.model.shipped_model)."""

from __future__ import annotations

import json

import pytest

from symbolic.model import load_model, shipped_model, shipped_models

from .conftest import ROOT, run

MODELS = ROOT / "symbolic" / "models"


def _files() -> list[str]:
    return sorted(
        str(p.relative_to(MODELS))
        for p in MODELS.rglob("*")
        if p.suffix in (".game", ".json", ".kif", ".aag", ".aig")
    )


def test_every_file_under_models_has_one_name():
    names = shipped_models()
    got = sorted(
        str(p.relative_to(MODELS.resolve())) for p in (q.resolve() for q in names.values())
    )
    assert got == _files(), (got, _files())
    for name, path in names.items():
        assert shipped_model(name) == path, name
        assert shipped_model(str(path.relative_to(MODELS.resolve()))) == path, name
        assert shipped_model("models/" + str(path.relative_to(MODELS.resolve()))) == path


@pytest.mark.parametrize(
    "name, wanted",
    [
        ("ens2005", "ens2005.game"),
        ("ens2005.game", "ens2005.game"),
        ("models/ens2005.game", "ens2005.game"),
        ("td_example", "td_example.arena.json"),
        ("gdl/nim1.kif", "nim1.kif"),
        ("gdl/nim1", "nim1.kif"),
        ("aiger/grant_twice", "grant_twice.aag"),
        ("models/aiger/grant.aag", "grant.aag"),
        ("aiger/grant.aig", None),
        ("ens2005.kif", None),
        ("nim1", None),
        ("ens2006", None),
        ("chomp.json", None),
    ],
)
def test_shipped_model_names(name, wanted):
    got = shipped_model(name)
    assert (got.name if got else None) == wanted, (name, got)


def test_models_lists_each_with_its_defaults_read_from_the_file(capsys):
    status, out, err = run(capsys, "models", "--json")
    assert status == 0, err
    doc = json.loads(out)["models"]
    assert [e["name"] for e in doc] == list(shipped_models())
    for e in doc:
        path = shipped_models()[e["name"]]
        if path.suffix == ".kif":
            assert e["roles"] and e["params"] == {}, e
            assert all(f"(role {r})" in path.read_text().lower() for r in e["roles"]), e
            continue
        m = load_model(path)
        assert {p: d["default"] for p, d in e["params"].items()} == (
            m.params if path.suffix == ".game" else {}
        ), e
    ens = next(e for e in doc if e["name"] == "ens2005")
    assert ens["title"] == "Nim(N, n, K, r)" and ens["params"]["K"] == {
        "default": 20,
        "range": "0..4095",
    }, ens
    status, out, _ = run(capsys, "models")
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(doc) + 2, out
    for e, line in zip(doc, lines[1:]):
        assert line.split()[0] == e["name"], line
    assert "K=20 (0..4095)" in out and "roles xplayer, oplayer" in out, out


def test_check_by_name_equals_check_by_path(capsys, tmp_path, monkeypatch):
    _, by_path, _ = run(capsys, "check", str(MODELS / "ens2005.game"), "--limit", "1")
    monkeypatch.chdir(tmp_path)
    for name in ("ens2005", "ens2005.game", "models/ens2005.game"):
        status, out, err = run(capsys, "check", name, "--limit", "1")
        assert status == 0, err
        assert out == by_path, (name, out)


def test_a_real_file_wins_over_a_shipped_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ens2005").write_text(
        'game "mine"\nplayers 1, 2\nvar j : 1..2\nturn j\nquery j = 1\n'
    )
    status, out, err = run(capsys, "check", "ens2005")
    assert status == 0 and out.startswith("mine\n"), out + err


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "nim"],
        ["values", "subtraction"],
        ["nimbers", "kayles", "-p", "n=4"],
        ["successors", "ens2005", "--at", "j=1, k[1]=3, k[2]=3"],
        ["strategy", "td_example", "--count", "1"],
        ["simulate", "nim", "--players", "optimal,random", "--games", "2", "--seed", "1"],
        ["gdl", "gdl/nim1.kif"],
        ["check", "gdl/ticTacToe", "--query", "initial"],
    ],
)
def test_every_model_command_takes_a_name(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 0 and out, (argv, out, err)


def test_play_and_execute_take_a_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("quit\n"))
    status, out, err = run(capsys, "play", "subtraction", "-p", "K=3")
    assert status == 0 and "subtraction(K)" in out, out + err
    (tmp_path / "s.json").write_text('{"0": 4}')
    status, out, err = run(
        capsys,
        "execute",
        "td_example",
        "--from",
        "initial",
        "--strategy",
        "1=s.json",
        "--max-moves",
        "1",
    )
    assert "s=4" in out, out + err


@pytest.mark.parametrize(
    "name, close",
    [
        ("ens205", "ens2005"),
        ("kaylse", "kayles"),
        ("nim1", "gdl/nim1"),
        ("/no/such/dir/chocolat.game", "chocolate"),
        ("models/chom.game", "chomp"),
    ],
)
def test_a_missing_model_names_the_close_shipped_ones(capsys, tmp_path, monkeypatch, name, close):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "check", name)
    assert status == 2 and out == "", (out, err)
    assert f"{name}: no such model file" in err and close in err.split("close name:")[1], err


def test_a_missing_model_far_from_any_name_says_how_to_list_them(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "show", "zzzz")
    assert status == 2 and "`symbolic models`" in err and "close name" not in err, err


def test_a_shipped_circuit_is_answered_from_any_directory(capsys, tmp_path, monkeypatch):
    """``symbolic aiger`` takes a shipped circuit's name as every command takes a model's,
    on each of its paths: the safety solver alone, through the engines, with a controller."""
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--engine", "both"], ["--controller", "c.aag"]):
        for name in ("aiger/grant_twice", "models/aiger/grant_twice.aag"):
            status, out, err = run(capsys, "aiger", name, *extra)
            assert status == 0 and out.startswith("grant_twice.aag: 2 latches"), (extra, out, err)
    status, out, _ = run(capsys, "models")
    assert "aiger/grant_twice  AIGER safety circuit, 2 latches, 2 inputs (1 controllable)" in out
    status, _, err = run(capsys, "aiger", "aiger/grant_twise")
    assert status == 2 and "no such" in err and "aiger/grant_twice" in err, err
