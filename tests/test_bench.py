"""Smoke test of bench/run.py: one tiny family, one process per case, counts agree."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_quick_subtraction_runs_and_counts_agree(tmp_path):
    cmd = [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--family", "subtraction",
           "--column", "cudd", "--column", "explicit", "--column", "hand",
           "--out", str(tmp_path)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert "### subtraction" in p.stdout and "MISMATCH" not in p.stdout, p.stdout
    [path] = tmp_path.glob("*.json")
    results = json.loads(path.read_text())["results"]
    assert sorted(r["column"] for r in results) == ["cudd", "explicit", "hand"], results
    assert all(r["status"] == "ok" for r in results), results
    # one heap of at most 100 matches, take 1..3: the mover loses exactly at k ≡ 0 (mod 4),
    # so the mover wins at 2 · (101 − 26) = 150 of the 202 positions (j, k)
    assert {r["count"] for r in results} == {150}, results


def test_bench_quick_connect4_counts_and_winners_agree(tmp_path):
    cmd = [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--family", "connect4",
           "--out", str(tmp_path)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=180, cwd=str(ROOT))
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert "MISMATCH" not in p.stdout, p.stdout
    [path] = tmp_path.glob("*.json")
    results = json.loads(path.read_text())["results"]
    assert sorted(r["column"] for r in results) == ["cudd", "explicit", "hand"], results
    assert all(r["status"] == "ok" for r in results), results
    # 3 × 3, three in a row: the layered solution (cudd, explicit) and the hand script
    assert {(r["count"], r["winner"]) for r in results} == {(694, "draw")}, results
