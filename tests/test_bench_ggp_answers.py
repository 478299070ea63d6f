"""``bench/ggp_answers.py``, who wins what in the GGP corpus (issue 36 item 4): the verdicts read
off the forced table, the families, the JSON, and the committed answers kept equal to their
tables."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("ggp_answers", ROOT / "bench" / "ggp_answers.py")
ans = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ans)
ggp_corpus = ans.ggp_corpus


def _row(game, forced, outcome="solved", stage="", reachable="10"):
    row = dict.fromkeys(ggp_corpus.COLUMNS, "")
    row.update(game=game, forced=forced, outcome=outcome, stage=stage, reachable=reachable)
    row.update(moves="turn-based", seconds="1.5", referee="explicit")
    return row


def _two(a, b, ta=100, tb=100):
    return f"{{x}}x={a} {{x}}o=0 {{o}}x=0 {{o}}o={b} {{x,o}}x={ta} {{x,o}}o={tb}"


@pytest.mark.parametrize(
    "forced, want",
    [
        ("{robot}robot=90", "forces 90"),
        (_two(100, 0), "x forces its best (100)"),
        (_two(0, 100), "o forces its best (100)"),
        (_two(50, 50), "each forces 50"),
        (_two(100, 100), "each forces its best"),
        (_two(20, 60), "alone: x 20, o 60"),
        (_two(None, 0), "alone: x None, o 0"),
    ],
)
def test_the_verdict_is_read_off_the_forced_table(forced, want):
    got = ans.answer(_row("g", forced))
    assert got["verdict"] == want, (forced, got)


def test_alone_and_together_come_from_their_coalitions():
    got = ans.answer(_row("g", _two(50, 40, 90, 80)))
    assert got["roles"] == ["x", "o"]
    assert got["alone"] == {"x": 50, "o": 40}
    assert got["together"] == {"x": 90, "o": 80}
    assert got["forced"][-1] == {"coalition": ["x", "o"], "role": "o", "value": 80}


@pytest.mark.parametrize(
    "game, family",
    [
        ("ticTacToe", "Tic-tac-toe"),
        ("chickentoetictac", "Tic-tac-toe"),
        ("connectFourSuicide", "Connect Four"),
        ("connect5", "Gomoku"),
        ("laikLee_hex", "Hex"),
        ("chineseCheckers3", "Chinese checkers"),
        ("checkersTiny", "Checkers"),
        ("minichess", "Chess"),
        ("haystack", None),  # "tac" inside a word is no tic-tac-toe
        ("zombieAttack1PL6", None),
        ("ruleDepthExponential", None),  # nor "hex" inside a word a Hex
    ],
)
def test_families_match_whole_names(game, family):
    assert ans.family_of(game) == family


def test_markdown_calls_out_families_and_lists_every_solved_game(tmp_path):
    rows = [
        _row("ticTacToe", _two(50, 50), reachable="5478"),
        _row("ticTacToeLarge", "", outcome="timeout", stage="fixpoint"),
        _row("chomp", _two(100, 0), reachable="12868"),
        _row("buttons", "{robot}robot=100", reachable="32"),
        _row("tictactoex9", "", outcome="refused"),
    ]
    text = ans.markdown(rows)
    assert (
        "- **Tic-tac-toe**, 1 of 3 solved: ticTacToe: each forces 50. "
        "Stopped: ticTacToeLarge (timeout in fixpoint), tictactoex9 (refused)." in text
    ), text
    assert "- **Chomp**, 1 of 1 solved: chomp: x forces its best (100)." in text, text
    table = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert [line.split(" | ")[0] for line in table[1:]] == ["| chomp", "| ticTacToe", "| buttons"]
    assert "| buttons | 1 | 32 | robot 100 | robot 100 | forces 100 | explicit |" in text


def test_main_writes_the_json_and_the_readme_block(tmp_path, monkeypatch, capsys):
    tsv = tmp_path / "t.tsv"
    ggp_corpus.write_rows(tsv, [_row("chomp", _two(100, 0)), _row("x", "", outcome="timeout")])
    readme = tmp_path / "bench" / "README.md"
    readme.parent.mkdir()
    readme.write_text("# b\n\n<!-- ggp-corpus -->\nsummary\n<!-- /ggp-corpus -->\n\n## next\n")
    monkeypatch.setattr(ggp_corpus, "ROOT", tmp_path)
    assert ans.main([str(tsv), "--readme"]) == 0
    doc = json.loads((tmp_path / "t-answers.json").read_text())
    assert [g["game"] for g in doc["games"]] == ["chomp"]
    assert doc["games"][0]["verdict"] == "x forces its best (100)"
    body = readme.read_text()
    assert body.index("<!-- /ggp-corpus -->") < body.index("<!-- ggp-answers -->")
    assert body.index("<!-- /ggp-answers -->") < body.index("## next"), body
    assert ans.main([str(tsv), "--readme"]) == 0  # rewritten in place, not appended twice
    assert readme.read_text().count("<!-- ggp-answers -->") == 1


def test_committed_answers_equal_their_tables():
    """Every ``*-answers.json`` of bench/results is what the script makes of its table now."""
    found = sorted((ROOT / "bench" / "results").glob("*-answers.json"))
    assert found, "no committed answers"
    for path in found:
        doc = json.loads(path.read_text())
        rows = ggp_corpus.read_rows(path.with_name(doc["table"]))
        want = [ans.answer(r) for r in rows if r["outcome"] == "solved"]
        assert doc["games"] == want, path.name


def test_the_readme_block_is_its_table_s_markdown():
    body = (ROOT / "bench" / "README.md").read_text()
    assert ans.README_BEGIN in body, "bench/README.md has no ggp-answers block"
    block = body.split(ans.README_BEGIN, 1)[1].split(ans.README_END, 1)[0]
    first, text = block.lstrip("\n").split("\n", 1)
    table = ROOT / first.split("`")[1]
    assert text.lstrip("\n") == ans.markdown(ggp_corpus.read_rows(table))
