"""Two revisions of the project on the same benchmark cases, in one run, side by side.

``python bench/compare.py BEFORE [--after REV] [--family F ...] [--column C ...]
[--timeout S] [--max-instances K] [--repeat R]``.

BEFORE (and AFTER, default: this working tree) is checked out once in a temporary
``git worktree``; every case of ``bench/run.py`` (family, instance, column) then runs
in a fresh interpreter under each revision in turn, the order alternating from one
case to the next, so that the two see the same machine at the same moment. Each
revision runs its own ``bench/run.py --case``, with its own code on ``PYTHONPATH``
and the same interpreter and libraries. With ``--repeat R`` each side runs R times
and keeps its least CPU time. The table gives the CPU seconds (user + system, the
whole process) of each side, their ratio after / before, and whether the two counts
agree; the last lines give the geometric mean of the ratios per column. A column
past ``--timeout`` CPU seconds on either side is skipped on the larger instances of
its family, as in ``bench/run.py``. Results go to ``bench/results/<stamp>-compare.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from run import FAMILIES, label, machine  # noqa: E402

__all__ = ["main", "run_side"]


def checkout(rev: str, where: Path) -> Path:
    """A detached worktree of ``rev`` under ``where``; its path."""
    path = where / rev.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
        check=True,
        capture_output=True,
    )
    return path


def run_side(root: Path, family: str, column: str, params: dict, timeout: float) -> dict:
    """One case under the revision checked out at ``root``: status, CPU seconds, count."""
    cmd = [sys.executable, str(root / "bench" / "run.py"), "--case", family, column]
    cmd.append(json.dumps(params))
    env = {**os.environ, "PYTHONPATH": str(root)}
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(root)
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "cpu": None, "wall": time.perf_counter() - t0}
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    out = {"wall": time.perf_counter() - t0, "cpu": cpu}
    if p.returncode != 0:
        err = (p.stderr.strip().splitlines() or ["?"])[-1]
        return {**out, "status": "error", "error": err[:200]}
    r = json.loads(p.stdout.strip().splitlines()[-1])
    return {**out, "status": "ok", "count": r.get("count"), "fix": r.get("t_fix")}


def best(runs: list[dict]) -> dict:
    """The run of least CPU among the successful ones (else the first)."""
    ok = [r for r in runs if r["status"] == "ok"]
    return min(ok, key=lambda r: r["cpu"]) if ok else runs[0]


def fmt(side: dict) -> str:
    return f"{side['cpu']:.2f}" if side["status"] == "ok" else side["status"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", help="the earlier revision (a commit, tag or branch)")
    ap.add_argument("--after", default=None, help="the later revision (default: this tree)")
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES))
    ap.add_argument("--column", action="append")
    ap.add_argument("--timeout", type=float, default=30.0, help="CPU seconds per case")
    ap.add_argument("--wall-factor", type=float, default=3.0)
    ap.add_argument("--max-instances", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    try:  # every case runs under this interpreter: without dd, each would be an "error"
        import dd  # noqa: F401
    except ImportError:
        ap.error(f"{sys.executable} cannot import dd: run this script with the project's venv")
    tmp = Path(tempfile.mkdtemp(prefix="symbolic-compare-"))
    roots = {"before": checkout(args.before, tmp)}
    roots["after"] = checkout(args.after, tmp) if args.after else ROOT
    revs = {
        side: subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        for side, path in roots.items()
    }
    rows: list[dict] = []
    flip = False
    try:
        for family in args.family or list(FAMILIES):
            fam = FAMILIES[family]
            columns = [c for c in fam["columns"] if not args.column or c in args.column]
            instances = fam["instances"][: args.max_instances]
            out_of_reach: set[str] = set()
            for params in instances:
                for column in columns:
                    if column in out_of_reach:
                        continue
                    runs: dict[str, list[dict]] = {"before": [], "after": []}
                    for _ in range(args.repeat):
                        order = ("after", "before") if flip else ("before", "after")
                        flip = not flip
                        for side in order:
                            runs[side].append(
                                run_side(
                                    roots[side],
                                    family,
                                    column,
                                    params,
                                    args.timeout * args.wall_factor,
                                )
                            )
                    b, a = best(runs["before"]), best(runs["after"])
                    row = {
                        "family": family,
                        "params": params,
                        "column": column,
                        "before": b,
                        "after": a,
                    }
                    rows.append(row)
                    ratio = a["cpu"] / b["cpu"] if "ok" == a["status"] == b["status"] else None
                    same = a.get("count") == b.get("count")
                    print(
                        f"[{family}] {label(params)} {column}: before {fmt(b)} after {fmt(a)}"
                        + (f" ratio {ratio:.2f}" if ratio else "")
                        + ("" if same else " COUNTS DIFFER"),
                        file=sys.stderr,
                        flush=True,
                    )
                    for s in (a, b):
                        if s["status"] != "ok" or s["cpu"] > args.timeout:
                            out_of_reach.add(column)
    finally:
        for side, path in roots.items():
            if path != ROOT:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                    capture_output=True,
                )
    print(table(rows, revs))
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H%M%S")
    path = args.out / f"{stamp}-compare.json"
    doc = {"date": stamp, "argv": sys.argv[1:], "revisions": revs, "machine": machine()}
    path.write_text(json.dumps({**doc, "rows": rows}, indent=1))
    print(f"results: {path}", file=sys.stderr)
    differ = [r for r in rows if r["before"].get("count") != r["after"].get("count")]
    return 1 if differ else 0


def table(rows: list[dict], revs: dict[str, str]) -> str:
    """Markdown: one line per case, then the geometric mean of the ratios per column."""
    lines = [
        f"| family | instance | column | CPU s {revs['before']} | CPU s {revs['after']} "
        "| after / before | counts |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    logs: dict[str, list[float]] = {}
    for r in rows:
        a, b = r["after"], r["before"]
        ok = a["status"] == b["status"] == "ok"
        ratio = f"{a['cpu'] / b['cpu']:.2f}" if ok else "—"
        if ok:
            logs.setdefault(r["column"], []).append(math.log(a["cpu"] / b["cpu"]))
        if not ok:
            same = "—"  # nothing to compare: an error or a timeout on a side
        else:
            same = "same" if a.get("count") == b.get("count") else "DIFFER"
        lines.append(
            f"| {r['family']} | {label(r['params'])} | {r['column']} | {fmt(b)} | {fmt(a)} "
            f"| {ratio} | {same} |"
        )
    lines.append("")
    for column, ls in logs.items():
        lines.append(
            f"- {column}: geometric mean of after / before over {len(ls)} cases: "
            f"{math.exp(sum(ls) / len(ls)):.3f}"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
