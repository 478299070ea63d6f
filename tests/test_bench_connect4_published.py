"""bench/connect4_published.py: a ply-by-ply table beside Böck's published one."""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import json

import pytest

from .conftest import ROOT


def _module():
    path = ROOT / "bench" / "connect4_published.py"
    spec = importlib.util.spec_from_file_location("connect4_published", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


PUBLISHED = _module()
STORED_6X5 = ROOT / "bench" / "results" / "2026-11-29-connect4-compact-6x5-table.json"


@pytest.mark.parametrize(
    "w, h, plies, positions",
    [
        (5, 5, 26, 69_763_700),
        (6, 5, 31, 2_818_972_642),
        (6, 6, 37, 69_173_028_785),
        (7, 6, 43, 4_531_985_219_092),
    ],
)
def test_the_published_rows_sum_to_the_known_counts(w, h, plies, positions):
    rows = PUBLISHED.published(w, h)
    assert sorted(rows) == list(range(plies)), sorted(rows)
    assert sum(map(sum, rows.values())) == positions


def test_the_stored_6x5_table_of_the_engine_equals_the_published_one():
    doc = json.loads(STORED_6X5.read_text(encoding="utf-8"))
    lines, status = PUBLISHED.compare(doc)
    assert status == 0, lines
    assert lines == ["Connect Four (compact encoding) 6 x 5: 31 of 31 published rows equal (equal)"]


def test_a_row_that_differs_is_named_and_fails():
    doc = json.loads(STORED_6X5.read_text(encoding="utf-8"))
    bad = copy.deepcopy(doc)
    row = next(r for r in bad["layers"] if r["layer"] == 22)
    row["win"], row["loss"] = row["loss"], row["win"]
    lines, status = PUBLISHED.compare(bad)
    assert status == 1, lines
    assert lines[0].startswith("  ply 22: computed (142699300, 26654824, 169395874)"), lines
    assert "30 of 31" in lines[-1], lines


def test_the_stored_6x6_table_of_the_engine_equals_the_published_one():
    # the whole strong solution, resumed from its work directory over several runs
    path = ROOT / "bench" / "results" / "2026-12-02-connect4-compact-6x6-table.json"
    lines, status = PUBLISHED.compare(json.loads(path.read_text(encoding="utf-8")))
    assert status == 0, lines
    assert lines == ["Connect Four (compact encoding) 6 x 6: 37 of 37 published rows equal (equal)"]


def test_a_count_by_layer_is_set_beside_the_published_row_sums():
    doc = json.loads(STORED_6X5.read_text(encoding="utf-8"))
    rows = [
        {"layer": r["layer"], "positions": r["win"] + r["draw"] + r["loss"]} for r in doc["layers"]
    ]
    counts = {**doc, "command": "layers", "layers": rows}
    lines, status = PUBLISHED.compare(counts)
    assert (status, lines[-1]) == (
        0,
        "Connect Four (compact encoding) 6 x 5: 31 of 31 published row sums equal (equal)",
    ), lines
    rows[7]["positions"] += 1
    lines, status = PUBLISHED.compare(counts)
    assert status == 1 and lines[0].startswith("  ply 7: computed "), lines
    assert "30 of 31 published row sums" in lines[-1], lines


def test_a_board_without_a_published_table_says_so():
    doc = {"model": "m", "parameters": {"w": 4, "h": 4}, "layers": []}
    lines, status = PUBLISHED.compare(doc)
    assert status == 2 and "no published table" in lines[0], lines


@pytest.mark.slow
def test_the_5x5_table_of_the_command_line_equals_the_published_one(tmp_path):
    """The engine, now: the whole 5 × 5 table through the command line (about 10 to 20 s
    on two threads), set beside Böck's rows."""
    from symbolic.cli import main

    out = tmp_path / "c4-5x5.json"
    with out.open("w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        status = main(
            [
                "--threads",
                "2",
                "values",
                str(ROOT / "models" / "connect4-compact.game"),
                "-p",
                "w=5",
                "-p",
                "h=5",
                "--by-layer",
                "--json",
            ]
        )
    assert status == 0
    lines, verdict = PUBLISHED.compare(json.loads(out.read_text(encoding="utf-8")))
    assert verdict == 0, lines
    assert lines[-1].endswith("5 x 5: 26 of 26 published rows equal (equal)"), lines


@pytest.mark.slow
def test_the_5x5_count_of_the_command_line_equals_the_published_row_sums(tmp_path):
    """``symbolic layers`` on 5 × 5 (one layer held: the model declares its levels)."""
    from symbolic.cli import main

    out = tmp_path / "c4-5x5-layers.json"
    model = str(ROOT / "models" / "connect4-compact.game")
    with out.open("w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        status = main(["layers", model, "-p", "w=5", "-p", "h=5", "--json"])
    assert status == 0
    lines, verdict = PUBLISHED.compare(json.loads(out.read_text(encoding="utf-8")))
    assert verdict == 0, lines
    assert lines[-1].endswith("5 x 5: 26 of 26 published row sums equal (equal)"), lines
