"""The AIGER sweep of issue 35 (``python bench/aiger.py [--solver dd] [--limit S] ...``).

Runs one solver on every file of the shared SYNTCOMP corpus, each in its own
process under a CPU time limit (and a wall-clock backstop) and a memory
limit (address space), smallest files first, and writes a table
``bench/results/aiger-SOLVER-TAG.tsv``: file, known status, answer, CPU seconds
(user + sys of the child), wall seconds, peak resident memory (MB), verdict
(``ok``, ``WRONG``, ``timeout``, ``memory``, ``error``) and the solver's
details. Resumable: files already in the table are skipped; ``--budget``
stops the sweep after that many seconds of wall time (run it again to go
on). A progress line goes to stderr. Exit status 1 if any answer differs
from ``status.tsv`` (a wrong answer is the worst defect there is).

Solvers: ``dd``, the plain peer ``bench/aiger_dd.py``; ``symbolic``, the
project's ``symbolic aiger FILE --json`` (once that command exists).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the SYNTCOMP files are kept beside the checkout, not in it
CORPUS = Path(
    os.environ.get("SYMBOLIC_AIGER_CORPUS", ROOT.parent.parent / "shared" / "corpus" / "aiger")
)
RESULTS = ROOT / "bench" / "results"
PYTHON = sys.executable
SOLVERS = {
    "dd": [PYTHON, str(ROOT / "bench" / "aiger_dd.py")],
    "symbolic": [PYTHON, "-m", "symbolic", "aiger", "--json"],
}
COLUMNS = ["file", "status", "answer", "cpu_s", "wall_s", "peak_mb", "verdict", "details"]


def corpus(root: Path, large: bool) -> list[tuple[Path, str]]:
    """(path, known status) of the corpus's small files, or of ``large/``, smallest first."""
    rows = []
    table = root / "large" / "status.tsv" if large else root / "status.tsv"
    if large and not table.exists():
        table = root / "status.tsv"
    for line in table.read_text().splitlines()[1:]:
        cells = line.split("\t")
        path = (root / "large" if large else root) / cells[0]
        if path.exists():
            rows.append((path, cells[1]))
    return sorted(rows, key=lambda r: (r[0].stat().st_size, r[0].name))


def answer_of(solver: str, stdout: str) -> tuple[str, str]:
    """(REAL / UNREAL / "", details) from a solver's output."""
    for line in reversed(stdout.strip().splitlines()):
        try:
            out = json.loads(line)
        except ValueError:
            continue
        if solver == "symbolic":
            answer = {True: "REAL", False: "UNREAL"}.get(out.get("realizable"), "")
        else:
            answer = out.get("answer", "")
        details = {k: v for k, v in out.items() if k not in ("file", "answer", "realizable")}
        return answer, json.dumps(details, separators=(",", ":"))
    return "", ""


def run_one(
    solver: str, path: Path, limit: float, memory_mb: int, wall_factor: float = 3.0
) -> dict:
    """Run the solver on one file in a child process, reaped with ``os.wait4`` so
    that its own resource usage (CPU, peak resident memory) is known: ``limit``
    CPU seconds (SIGXCPU), and ``wall_factor`` times as many of wall time (the
    machine is shared: wall time measures the load as much as the solver)."""

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 5))

    cmd = SOLVERS[solver] + [str(path)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, preexec_fn=cap, cwd=ROOT)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > wall_factor * limit and not timed_out:
                proc.kill()
                timed_out = True
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return {
            "stdout": out.read(),
            "stderr": err.read(),
            "timed_out": timed_out,
            "wall": wall,
            "code": proc.returncode,
            "usage": usage,
        }


def row_of(
    solver: str, path: Path, status: str, limit: float, memory_mb: int, wall_factor: float
) -> dict:
    """The table row of one file (CPU and peak memory from the child's rusage)."""
    run = run_one(solver, path, limit, memory_mb, wall_factor)
    usage = run["usage"]
    cpu = usage.ru_utime + usage.ru_stime
    answer, details = answer_of(solver, run["stdout"])
    if answer:
        verdict = "ok" if answer == status else "WRONG"
    elif run["timed_out"] or cpu >= limit - 0.5 or run["code"] == -24:  # -24: SIGXCPU
        verdict = "timeout"
    elif "MemoryError" in run["stderr"] or "memory" in run["stderr"].lower():
        verdict = "memory"
    else:
        verdict = "error"
        details = (run["stderr"].strip().splitlines() or [f"exit {run['code']}"])[-1][:200]
    return {
        "file": path.name,
        "status": status,
        "answer": answer or "-",
        "cpu_s": f"{cpu:.2f}",
        "wall_s": f"{run['wall']:.2f}",
        "peak_mb": f"{usage.ru_maxrss / 1024:.0f}",
        "verdict": verdict,
        "details": details,
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--solver", choices=sorted(SOLVERS), default="dd")
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--large", action="store_true", help="the large/ files")
    p.add_argument("--limit", type=float, default=15.0, help="CPU seconds per file")
    p.add_argument(
        "--wall-factor",
        type=float,
        default=3.0,
        help="wall seconds per file: this many times --limit",
    )
    p.add_argument("--memory", type=int, default=2048, help="MB of address space per file")
    p.add_argument("--budget", type=float, default=0, help="stop after this many seconds")
    p.add_argument("--tag", default="small")
    p.add_argument("--only", default="", help="only files whose name contains this")
    args = p.parse_args(argv)
    RESULTS.mkdir(exist_ok=True)
    table = RESULTS / f"aiger-{args.solver}-{args.tag}.tsv"
    done = {}
    if table.exists():
        for line in table.read_text().splitlines()[1:]:
            cells = line.split("\t")
            done[cells[0]] = dict(zip(COLUMNS, cells))
    else:
        table.write_text("\t".join(COLUMNS) + "\n")
    files = [r for r in corpus(args.corpus, args.large) if args.only in r[0].name]
    t0 = time.monotonic()
    with table.open("a") as out:
        for k, (path, status) in enumerate(files):
            if path.name in done:
                continue
            if args.budget and time.monotonic() - t0 > args.budget:
                print(f"\nbudget of {args.budget:g} s spent: run again to go on", file=sys.stderr)
                break
            row = row_of(args.solver, path, status, args.limit, args.memory, args.wall_factor)
            done[path.name] = row
            out.write("\t".join(row[c] for c in COLUMNS) + "\n")
            out.flush()
            _progress(k + 1, len(files), done, time.monotonic() - t0)
    print(file=sys.stderr)
    return _summary(done, len(files), table)


def _progress(k: int, n: int, done: dict, elapsed: float) -> None:
    answered = sum(r["verdict"] in ("ok", "WRONG") for r in done.values())
    wrong = sum(r["verdict"] == "WRONG" for r in done.values())
    print(
        f"\r{k}/{n} files, {answered} answered, {wrong} wrong, {elapsed:.0f} s",
        end="",
        file=sys.stderr,
        flush=True,
    )


def _summary(done: dict, n: int, table: Path) -> int:
    rows = list(done.values())
    counts = {
        v: sum(r["verdict"] == v for r in rows)
        for v in ("ok", "WRONG", "timeout", "memory", "error")
    }
    cpu = sum(float(r["cpu_s"]) for r in rows if r["verdict"] == "ok")
    print(f"{table.name}: {len(rows)} of {n} files run; {counts}; CPU of the answered: {cpu:.1f} s")
    for r in rows:
        if r["verdict"] == "WRONG":
            print(f"WRONG: {r['file']}: status {r['status']}, answer {r['answer']}")
    return 1 if counts["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
