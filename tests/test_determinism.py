"""Determinism (issue 8): the same output, text and JSON, positions in the same order,
across runs (hash seeds), engines and BDD backends."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


from .conftest import ROOT, run as run_cli

MODELS = ["nim.game", "subtraction.game", "td_example.arena.json", "chocolate.game"]


def run(capsys, *argv) -> str:
    """The stdout of ``symbolic ARGV...``, which must succeed."""
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    return out


def drop_engine_line(text: str) -> str:
    return "\n".join(l for l in text.splitlines() if not l.startswith("engine: "))


@pytest.mark.parametrize("model", MODELS)
def test_engines_and_backends_print_the_same(capsys, model):
    path = str(ROOT / "models" / model)
    texts = {
        (e, b): run(capsys, "check", path, "--engine", e, "--backend", b, "--limit", "0")
        for e, b in (("symbolic", "cudd"), ("symbolic", "autoref"), ("explicit", "cudd"))
    }
    # the engine line names the engine and backend; everything else is the same
    assert drop_engine_line(texts[("symbolic", "cudd")]) == drop_engine_line(
        texts[("symbolic", "autoref")]
    )
    assert drop_engine_line(texts[("symbolic", "cudd")]) == drop_engine_line(
        texts[("explicit", "cudd")]
    )
    docs = {
        e: json.loads(run(capsys, "check", path, "--engine", e, "--json", "--limit", "0"))
        for e in ("symbolic", "explicit")
    }
    assert docs["symbolic"]["results"] == docs["explicit"]["results"]
    for r in docs["symbolic"]["results"]:  # enumeration order: sorted position tuples
        tuples = [tuple(p.values()) for p in r["positions"]]
        assert tuples == sorted(tuples), r["query"]


def test_runs_with_other_hash_seeds_print_the_same():
    path = str(ROOT / "models" / "nim.game")
    outs = []
    for seed in ("1", "2"):
        env = dict(
            os.environ,
            PYTHONHASHSEED=seed,
            PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        )
        both = []
        for extra in ([], ["--json"]):
            r = subprocess.run(
                [sys.executable, "-m", "symbolic", "check", path, "--limit", "0", *extra],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert r.returncode == 0, r.stderr
            both.append(r.stdout)
        outs.append(both)
    assert outs[0] == outs[1]
