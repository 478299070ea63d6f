"""Benchmark: nimbers of every position, symbolic layers (cudd) against the explicit mex.

Kayles and Grundy's game at growing sizes; wall-clock seconds including model
loading and engine construction, and the ratio explicit/cudd. Run with
``python bench/nimbers.py [--quick]``; an engine slower than ``--timeout``
seconds on a row is skipped on the larger rows of that family.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from symbolic.engines import make_engine
from symbolic.analysis.grundy import layered_nimbers, mex_nimbers
from symbolic.model import load_model

MODELS = Path(__file__).resolve().parent.parent / "models"


def run(kind: str, file: str, params: dict) -> tuple[float, int]:
    t0 = time.perf_counter()
    model = load_model(MODELS / file, params)
    eng = make_engine(model.game, "symbolic" if kind == "cudd" else "explicit", "cudd")
    if kind == "cudd":
        top = len(layered_nimbers(eng).layers) - 1
    else:
        top = max(mex_nimbers(eng).values())
    return time.perf_counter() - t0, top


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small rows only")
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    families = [
        ("kayles.game", "n", [8, 12, 16, 20, 24, 30]),
        ("grundy_game.game", "N", [12, 15, 18, 21, 24]),
    ]
    print(f"{'game':<22}{'positions':>14}{'cudd s':>9}{'explicit s':>12}{'ratio':>8}  max nimber")
    for file, name, sizes in families:
        slow: set[str] = set()
        for size in sizes[:3] if args.quick else sizes:
            model = load_model(MODELS / file, {name: size})
            n = make_engine(model.game, "symbolic").positions().count()
            times, tops = {}, {}
            for kind in ("cudd", "explicit"):
                if kind in slow or (kind == "explicit" and model.game.space.size > 3_000_000):
                    continue
                times[kind], tops[kind] = run(kind, file, {name: size})
                if times[kind] > args.timeout:
                    slow.add(kind)
            if len(tops) == 2:
                assert tops["cudd"] == tops["explicit"], (file, size, tops)
            ex = times.get("explicit")
            ex_text = f"{ex:.2f}" if ex is not None else "-"
            ratio = f"{ex / times['cudd']:.1f}" if ex is not None else "-"
            label = f"{file[:-5]} {name}={size}"
            print(f"{label:<22}{n:>14}{times['cudd']:>9.2f}{ex_text:>12}{ratio:>8}  {tops['cudd']}")


if __name__ == "__main__":
    main()
