"""Our AIGER sweep beside SYNTCOMP's own record of each file (``python bench/aiger_records.py TABLE``).

Each file of the shared corpus ends with SYNTCOMP's comment, which records per track
how many of the competing tools solved it (``SOLVED_BY : 6/8 [SYNTCOMP2014-RealSeq]``)
and a solving time (``SOLVED_IN : 41.7746 [SYNTCOMP2014-RealSeq]``, 0.0 when none
solved it). The files do not say whether that time is the fastest tool's or another
statistic; the competitions ran one tool per core with a 5 000 s limit on their
own machines. This script reads a table of ``bench/aiger.py`` (TABLE, e.g.
``bench/results/aiger-symbolic-jobs2-round13-storm.tsv``) and prints, for the files
the sweep did not answer, each track's record, then how many files of the corpus
have no recorded time within a bound (or no tool solved them), answered by the sweep
or not: where the files left stand against the field's tools.

>>> r = records("SOLVED_BY : 6/8 [A], 0/4 [B]\\nSOLVED_IN : 41.7 [A], 0.0 [B]\\n")
>>> r
{'A': (6, 8, 41.7), 'B': (0, 4, None)}
>>> best_time(r)
41.7
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aiger import CORPUS, comment_tail  # noqa: E402

_COUNTS = re.compile(r"(\d+)/(\d+) \[([^\]]+)\]")
_TIMES = re.compile(r"([\d.]+) \[([^\]]+)\]")


def records(text: str) -> dict[str, tuple[int, int, float | None]]:
    """Per track of a SYNTCOMP comment ``text``: (tools that solved the file, tools
    run, the recorded time or None when none solved it)."""
    by = re.search(r"^SOLVED_BY\s*:\s*(.*)$", text, re.M)
    inn = re.search(r"^SOLVED_IN\s*:\s*(.*)$", text, re.M)
    times = {t: float(v) for v, t in _TIMES.findall(inn.group(1))} if inn else {}
    out = {}
    for solved, run, track in _COUNTS.findall(by.group(1)) if by else []:
        out[track] = (int(solved), int(run), times.get(track) if int(solved) else None)
    return out


def best_time(rec: dict[str, tuple[int, int, float | None]]) -> float | None:
    """The smallest time recorded in any track where a tool solved the file, or None
    when no tool solved it in any track."""
    return min((t for _, _, t in rec.values() if t is not None), default=None)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("table", type=Path)
    p.add_argument("--past", type=float, default=60.0, help="seconds (default 60)")
    args = p.parse_args(argv)
    with args.table.open() as f:
        answered = {r["file"] for r in csv.DictReader(f, delimiter="\t") if r["verdict"] == "ok"}
    files = sorted(CORPUS.glob("*.aag"))
    rec = {f.name: records(comment_tail(f)) for f in files}
    print(f"{len(answered)} of {len(files)} answered in {args.table.name}")
    print("\nnot answered: file, then per track solved/run and the recorded time")
    for name in sorted(set(rec) - answered):
        cells = [
            f"{s}/{n} {'-' if t is None else f'{t:.1f} s'} [{k}]"
            for k, (s, n, t) in rec[name].items()
        ]
        print(f"  {name}: " + "; ".join(cells))
    best = {n: best_time(r) for n, r in rec.items()}
    never = {n for n, t in best.items() if t is None}
    past = never | {n for n, t in best.items() if t is not None and t > args.past}
    print(f"\nfiles whose smallest recorded time is over {args.past:g} s or no tool: {len(past)}")
    print(f"  of them answered by this sweep: {len(past & answered)}")
    print(f"  solved by no tool in any track: {len(never)}, answered here: {len(never & answered)}")
    left = set(rec) - answered
    print(
        f"files not answered here whose smallest recorded time is {args.past:g} s or less: "
        f"{len(left - past)} ({', '.join(sorted(left - past)) or 'none'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
