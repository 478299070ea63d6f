"""``bench/ggp_corpus.py``, the GGP corpus sweep (issue 36), on three of the corpus's smallest
games: the rows it writes, checked against both engines and the independent interpreter
(:mod:`tests.gdl_interp`), its resuming, and how it reads the CLI's limit and error messages."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.gdl_interp import explore, read_kif

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("ggp_corpus", ROOT / "bench" / "ggp_corpus.py")
ggp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ggp)

CORPUS = ggp.corpus_dir()
needs_corpus = pytest.mark.skipif(CORPUS is None, reason="the GGP corpus is not on this machine")
SMALL = ["onestep", "haystack", "switches"]  # 1, 2 and 3 roles; switches is simultaneous


def _forced(cell: str) -> dict:
    """The forced cell of a row (``{a,b}r=v ...``) as the interpreter's dict."""
    out = {}
    for item in cell.split():
        coalition, rest = item[1:].split("}")
        role, value = rest.split("=")
        out[(tuple(coalition.split(",")), role)] = None if value == "None" else int(value)
    return out


@needs_corpus
def test_sweep_rows_match_both_engines_and_the_interpreter(tmp_path, capsys):
    out = tmp_path / "sweep.tsv"
    argv = ["--only", *SMALL, "--limit-seconds", "120", "--limit-mb", "2048", "--out", str(out)]
    assert ggp.main(argv) == 0
    rows = {r["game"]: r for r in ggp.read_rows(out)}
    assert sorted(rows) == sorted(SMALL)
    for name, row in rows.items():
        assert row["outcome"] == "solved", row
        assert row["agree"] == "yes" and row["explicit"] == "solved", row
        assert (row["interp"], row["interp_agree"], row["referee"]) == ("solved", "yes", "both")
        assert float(row["interp_seconds"]) > 0, row
        assert float(row["peak_mb"]) > 0 and float(row["seconds"]) > 0
        concurrent = row["moves"] == "concurrent"
        res = explore(read_kif((CORPUS / f"{name}.kif").read_text()), concurrent=concurrent)
        assert int(row["reachable"]) == len(res.states), row
        assert _forced(row["forced"]) == res.forced, row
        assert int(row["roles"]) == len(res.roles)
    assert rows["switches"]["moves"] == "concurrent"
    assert rows["onestep"]["moves"] == "turn-based"
    assert (
        "solved: 3 (3 cross-checked: 0 by the explicit engine only, 0 by the interpreter "
        "only, 3 by both)" in capsys.readouterr().out
    )
    # resumed: nothing is run again
    before = out.read_text()
    assert ggp.main(argv) == 0
    assert out.read_text() == before
    # --redo: onestep again, without referees this time; the others' rows stay as they were
    redo = argv[:2] + ["onestep"] + argv[4:]
    redo += ["--redo", "--explicit-max-states", "0", "--interp-max-states", "0"]
    assert ggp.main(redo) == 0
    again = {r["game"]: r for r in ggp.read_rows(out)}
    assert sorted(again) == sorted(SMALL) and again["onestep"]["referee"] == "none"
    assert again["haystack"] == rows["haystack"] and again["switches"] == rows["switches"]


def test_an_old_table_gets_the_new_columns(tmp_path):
    out = tmp_path / "sweep.tsv"
    old = [c for c in ggp.COLUMNS if not c.startswith("interp") and c != "referee"]
    out.write_text("\t".join(old) + "\n" + "\t".join("x" if c == "game" else "" for c in old))
    args = ggp.parse(["--out", str(out)])
    ggp.sweep([], args, {})
    assert ggp._header(out) == ggp.COLUMNS
    (row,) = ggp.read_rows(out)
    assert row["game"] == "x" and row["referee"] == ""


def test_a_referee_that_disagrees_makes_a_mismatch_that_stands_out(monkeypatch, tmp_path):
    """The interpreter's answer (faked: one state more) against the engine's."""
    doc = {
        "reachable": 3,
        "dead_ends": 0,
        "forced": [{"coalition": ["a"], "role": "a", "value": 100}],
    }
    told = dict(doc, reachable=4)
    monkeypatch.setattr(
        ggp, "run_child", lambda *a, **k: _res(out=json.dumps(told)) | {"seconds": 1.0}
    )
    row = dict.fromkeys(ggp.COLUMNS, "") | {"game": "g", "outcome": "solved", "agree": "yes"}
    ggp._interp(row, tmp_path / "g.kif", ggp.parse([]), doc)
    assert (row["interp"], row["interp_agree"], row["outcome"]) == ("solved", "NO", "mismatch")
    assert row["detail"].startswith("interpreter: 4 states"), row
    text = ggp.summary([row])
    assert text.startswith("**1 disagreement between the symbolic engine and a referee:** g ("), (
        text
    )
    # the same answer, the forced entries in another order: agreement
    monkeypatch.setattr(
        ggp, "run_child", lambda *a, **k: _res(out=json.dumps(doc)) | {"seconds": 1.0}
    )
    row = dict.fromkeys(ggp.COLUMNS, "") | {"game": "g", "outcome": "solved"}
    ggp._interp(row, tmp_path / "g.kif", ggp.parse([]), doc)
    assert (row["interp_agree"], row["outcome"]) == ("yes", "solved")


@needs_corpus
def test_a_limit_reached_is_a_row_with_its_stage(tmp_path):
    out = tmp_path / "sweep.tsv"
    argv = ["--only", "onestep", "--limit-seconds", "0.01", "--out", str(out)]
    assert ggp.main(argv) == 0
    (row,) = ggp.read_rows(out)
    assert row["outcome"] == "timeout", row
    # so soon the CLI has not named a stage yet: "starting"
    assert row["stage"] in ("grounding", "other") and row["detail"], row


def test_without_the_corpus_a_clear_message(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SYMBOLIC_GGP_CORPUS", str(tmp_path / "nowhere"))
    assert ggp.main(["--out", str(tmp_path / "x.tsv")]) == 2
    assert "SYMBOLIC_GGP_CORPUS" in capsys.readouterr().err


def _res(status=0, out="", err="", killed=None):
    return {"status": status, "out": out, "err": err, "killed": killed, "peak_mb": 10.0}


@pytest.mark.parametrize(
    "res, want",
    [
        (
            _res(3, err="symbolic: time limit of 20 s reached while reading the model g.kif\n"),
            ("timeout", "grounding"),
        ),
        (
            _res(3, err="symbolic: memory limit of 64 MB reached while building δ (cudd)\n"),
            ("memory", "building"),
        ),
        (
            _res(
                3,
                err="symbolic: time limit of 5 s reached while exploring the reachable "
                "states: layer 7\n",
            ),
            ("timeout", "exploration"),
        ),
        (
            _res(
                3,
                err="symbolic: time limit of 5 s reached while {a} forcing a › computing "
                "until: iteration 3\n",
            ),
            ("timeout", "fixpoint"),
        ),
        (
            _res(
                3,
                out='{"command": "gdl", "stopped": {"limit": "timeout", "stage": "computing '
                'the forced goal values (symbolic)", "message": "time limit of 5 s reached"}}',
                err="symbolic: time limit of 5 s reached while ...\n",
            ),
            ("timeout", "fixpoint"),
        ),
        (
            _res(
                3,
                out='{"command": "gdl", "stopped": {"limit": "max-memory", "stage": "between '
                'two stages, after exploring the reachable states", "message": "m"}}',
            ),
            ("memory", "exploration"),
        ),
        (_res(2, err="g.kif:3:7: error: (or ...) in a head is not supported\n"), ("refused", "")),
        (_res(2, err="g.kif:3:7: error: unbalanced parenthesis\n"), ("error", "")),
        (_res(1, err='Traceback (most recent call last):\n  ...\nKeyError: "x"\n'), ("crash", "")),
        (_res(-9), ("crash", "")),
        (_res(-9, killed="hang"), ("hang", "")),
        (_res(0, out="not json"), ("crash", "")),
    ],
)
def test_outcomes_read_from_the_cli(res, want):
    outcome, stage, detail, _ = ggp.classify(res, 20)
    assert (outcome, stage) == want, detail
    if outcome == "error":
        assert detail.startswith("located: ")


def test_summary_counts_and_names_the_defects():
    rows = [
        dict.fromkeys(ggp.COLUMNS, "") | {"game": "a", "outcome": "solved", "reachable": "5"},
        dict.fromkeys(ggp.COLUMNS, "") | {"game": "b", "outcome": "timeout", "stage": "grounding"},
        dict.fromkeys(ggp.COLUMNS, "") | {"game": "c", "outcome": "crash", "detail": "KeyError"},
    ]
    text = ggp.summary(rows, total=3)
    assert "| solved | 1 |" in text and "timeout in grounding: 1" in text
    assert "- c: crash: KeyError" in text
