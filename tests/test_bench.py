"""Smoke test of bench/run.py: one tiny family, one process per case, counts agree."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import ROOT


def _quick_family(tmp_path, family: str, *columns: str, timeout: int = 180) -> list[dict]:
    """``bench/run.py --quick --family FAMILY [--column C ...]``: its result rows, after
    checking that it ran, printed no MISMATCH and every case is ``ok``."""
    cmd = [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--family", family]
    for c in columns:
        cmd += ["--column", c]
    cmd += ["--out", str(tmp_path)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=str(ROOT))
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert f"### {family}" in p.stdout and "MISMATCH" not in p.stdout, p.stdout
    [path] = tmp_path.glob("*.json")
    results = json.loads(path.read_text())["results"]
    assert all(r["status"] == "ok" for r in results), results
    return results


def test_bench_quick_subtraction_runs_and_counts_agree(tmp_path):
    results = _quick_family(tmp_path, "subtraction", "cudd", "explicit", "hand", timeout=120)
    assert sorted(r["column"] for r in results) == ["cudd", "explicit", "hand"], results
    # one heap of at most 100 matches, take 1..3: the mover loses exactly at k ≡ 0 (mod 4),
    # so the mover wins at 2 · (101 − 26) = 150 of the 202 positions (j, k)
    assert {r["count"] for r in results} == {150}, results


def test_bench_quick_connect4_counts_and_winners_agree(tmp_path):
    results = _quick_family(tmp_path, "connect4")
    assert sorted(r["column"] for r in results) == ["cudd", "explicit", "hand", "oxidd"], results
    # 3 × 3, three in a row: the layered solution (cudd, explicit) and the hand script
    assert {(r["count"], r["winner"]) for r in results} == {(694, "draw")}, results


@pytest.mark.parametrize("params", [{"w": 4, "h": 3}, {"w": 3, "h": 3, "a": 3}])
def test_compact_connect4_rows_equal_relational_and_the_project(params, monkeypatch):
    """bench/peers_compact.py's compact_connect4 (and each of its image schemes) gives
    relational_connect4's per-ply rows and the project's layer_outcomes rows on
    models/connect4-compact.game."""
    pytest.importorskip("oxidd", reason="oxidd is in the bench extra only")
    from symbolic.analysis.layered import layer_outcomes
    from symbolic.engines import make_engine
    from symbolic.model import load_model

    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import peers
    import peers_compact

    w, h, a = params["w"], params["h"], params.get("a", 4)
    small = {"nodes_log2": 20, "cache_log2": 16}
    ref = peers.relational_connect4(w, h, a, **small)
    got = peers_compact.compact_connect4(w, h, a, **small)
    assert got["layers"] == ref["layers"] and got["count"] == ref["count"], got["layers"]
    assert got["winner"] == ref["winner"]
    model = load_model(ROOT / "models" / "connect4-compact.game", params)
    eng = make_engine(model.game, "symbolic", "oxidd")
    assert [tuple(r) for r in layer_outcomes(model.definitions, eng).rows] == got["layers"]
    for variant in peers_compact.VARIANTS:
        for top in (False, True):
            r = peers_compact.compact_variant(w, h, a, variant=variant, top_first=top, **small)
            assert r["layers"] == ref["layers"], (variant, top)


def test_bench_quick_connect4_compact_table_agrees(tmp_path):
    """The connect4-compact-table family's quick run: the project on the compact model
    (oxidd, cudd) and compact_connect4 give the same count, winner and table."""
    pytest.importorskip("oxidd", reason="oxidd is in the bench extra only")
    results = _quick_family(tmp_path, "connect4-compact-table")
    assert sorted(r["column"] for r in results) == ["cudd", "hand", "oxidd"], results
    assert len({r["table_digest"] for r in results}) == 1, results
    # 4 × 3, four in a row: 12 031 positions reachable, a draw
    assert {(r["count"], r["winner"]) for r in results} == {(12031, "draw")}, results


def _levers():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_levers", ROOT / "bench" / "levers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_levers_frontier_until_equals_the_engines_until():
    """bench/levers.py's frontier variant computes the same set as SymbolicGame.until
    (a lever is measured only on equal answers)."""
    from symbolic.api import DeadEnds
    from symbolic.bdd import SymbolicGame
    from symbolic.model import load_model, parse_state_expr

    lv = _levers()
    for model, params, target in [
        ("ens2005.game", {"N": 3, "n": 3, "K": 6, "r": 6, "u0": 0}, "j != 1 and stuck"),
        ("nim.game", {"n": 3, "K": 7}, "j = 2 and not exists i in 1..n: k[i] > 0"),
    ]:
        m = load_model(lv.MODELS / model, params)
        eng = SymbolicGame(m.game, "cudd")
        tau = eng.from_expr(parse_state_expr(target, m))
        node, _ = lv.frontier_until(eng, {1}, tau)
        ref = eng.until({1}, eng.positions(), tau, dead_ends=DeadEnds.VACUOUS).result
        assert eng.wrap(node) == ref, (model, eng.wrap(node).count(), ref.count())


def test_oxidd_peer_counts_equal_the_project(tmp_path):
    """bench/oxidd_ens.py (optional: the bench extra) gives the project's |F({1})|."""
    import pytest

    pytest.importorskip("oxidd", reason="oxidd is in the bench extra only")
    import importlib.util
    from symbolic import atl
    from symbolic.bdd import SymbolicGame
    from symbolic.model import load_model

    spec = importlib.util.spec_from_file_location("oxidd_ens", ROOT / "bench" / "oxidd_ens.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    m = load_model(ROOT / "models" / "ens2005.game", {"N": 3, "n": 3, "K": 20, "r": 6, "u0": 0})
    ref = atl.evaluate(SymbolicGame(m.game, "cudd"), m.formula("F({1})"), m.definitions).count()
    assert mod.solve(3, 3, 20, 6, 0)["count"] == ref


@pytest.mark.slow  # a bench script's smoke run; the engines' GDL agreement: test_gdl*.py
def test_bench_gdl_quick_runs_and_engines_agree():
    """bench/gdl.py --quick: both GDL engines agree on the whole small games and on
    3pttc from its first 4 moves, the two layered paths give the same set, and the
    table over the invariant is the reachable one."""
    p = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gdl.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=str(ROOT),
    )
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert "MISMATCH" not in p.stdout, p.stdout
    assert "| ticTacToe.kif | 5478 |" in p.stdout and "| 4 | 239 | 0 of 21 |" in p.stdout, p.stdout
    assert "| ticTacToe.kif | 39366 | - |" in p.stdout, p.stdout  # D over the invariant


@pytest.mark.slow
def test_dask_layers_table_on_two_workers_equals_the_single_process(tmp_path):
    """bench/dask_layers.py: Connect Four 4 × 3 in one process and with split 1 on two
    workers; the JSON equal, the rounds and workers measured. In ``make test-slow``:
    the product's table on Dask workers is compared with the single process by
    tests/test_distributed.py."""
    pytest.importorskip("distributed")
    cmd = [sys.executable, str(ROOT / "bench" / "dask_layers.py"), "4", "3"]
    cmd += ["--splits", "single,1", "--results", str(tmp_path)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    single, split = [json.loads(line) for line in p.stdout.splitlines()]
    assert single["config"] == "single" and single["rounds"] == 0, single
    assert split["same"] is True and split["rounds"] > 0 and split["worker_rss_mb"] > 0, split
    [table] = tmp_path.glob("*-single.json")
    rows = json.loads(table.read_text())["layers"]
    assert sum(r["win"] + r["draw"] + r["loss"] for r in rows) == 12031


@pytest.mark.slow
def test_dask_layers_forward_pass_counts_each_layer(tmp_path):
    """bench/dask_layers.py --what layers: Connect Four 4 × 3's 13 graded layers
    counted in one process and on two workers (given a cap of their own); the JSON
    equal, the counts summing to the reachable count. In ``make test-slow``, as the
    previous test: the product's layers on Dask workers are tests/test_distributed*.py's."""
    pytest.importorskip("distributed")
    cmd = [sys.executable, str(ROOT / "bench" / "dask_layers.py"), "4", "3", "--what", "layers"]
    cmd += ["--splits", "single,2", "--worker-memory", "900", "--results", str(tmp_path)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    single, split = [json.loads(line) for line in p.stdout.splitlines()]
    assert single["rounds"] == 0 and split["same"] is True, (single, split)
    assert split["rounds"] == 13, split  # one forward round a layer, the last one empty
    [table] = tmp_path.glob("dask_layers-4x3-layers-*-single.json")
    rows = json.loads(table.read_text())["layers"]
    assert len(rows) == 13 and sum(r["positions"] for r in rows) == 12031, rows


def test_layer_parts_cover_each_layer():
    """bench/layer_parts.py: Connect Four 4 × 4, its 17 layers (161 029 positions), and
    one part at K bits is never larger than its layer."""
    cmd = [sys.executable, str(ROOT / "bench" / "layer_parts.py"), "4", "4"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    lines = [x.split("\t") for x in p.stdout.splitlines() if not x.startswith("#")]
    head, rows = lines[0], [dict(zip(lines[0], map(int, r[:15]))) for r in lines[1:]]
    assert head[:3] == ["layer", "positions", "nodes"] and len(rows) == 17
    assert sum(r["positions"] for r in rows) == 161029
    assert all(r[f"largest{k}"] <= r["nodes"] for r in rows for k in (1, 2, 3, 4))
