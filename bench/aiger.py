"""The AIGER sweep of issue 35 (``python bench/aiger.py [--solver dd,symbolic] [--limit S] ...``).

Runs one solver or several side by side (``--solver dd,symbolic``: on each file
one after the other, so that both meet the same load) on every file of the
shared SYNTCOMP corpus (or the ``--first N`` smallest), each in its own
process under a CPU time limit (and a wall-clock backstop) and a memory
limit (address space), smallest files first, and writes a table per solver
``bench/results/aiger-SOLVER-TAG.tsv``: file, known status, answer, CPU seconds
(user + sys of the child), wall seconds, peak resident memory (MB), verdict
(``ok``, ``WRONG``, ``timeout``, ``memory``, ``error``) and the solver's
details. Resumable: files already in the table are skipped; ``--budget``
stops the sweep after that many seconds of wall time (run it again to go
on). A progress line goes to stderr. Exit status 1 if any answer differs
from ``status.tsv`` (a wrong answer is the worst defect there is).

Solvers: ``dd``, the plain peer ``bench/aiger_dd.py``; ``symbolic``, the
project's ``symbolic aiger FILE --json`` (its dedicated safety solver);
``symbolic-game``, the same with ``--method game`` (the game's fixpoint through
the engine API); ``symbolic-jobs2``, ``symbolic aiger --jobs 2`` (two processes from
two initial orders, the first answer wins), whose ``--limit`` is wall seconds
(passed as ``--timeout``) and whose CPU column adds both processes'. With several
solvers the summary also compares their CPU on the files all of them answered.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the SYNTCOMP files are kept beside the checkout, not in it
CORPUS = Path(
    os.environ.get("SYMBOLIC_AIGER_CORPUS")
    or next(
        (d for d in (b / "shared" / "corpus" / "aiger" for b in ROOT.parents) if d.is_dir()),
        ROOT.parent / "shared" / "corpus" / "aiger",
    )
)
RESULTS = ROOT / "bench" / "results"
PYTHON = sys.executable
SOLVERS = {
    "dd": [PYTHON, str(ROOT / "bench" / "aiger_dd.py")],
    "symbolic": [PYTHON, "-m", "symbolic", "aiger", "--json"],
    "symbolic-game": [PYTHON, "-m", "symbolic", "aiger", "--json", "--method", "game"],
    "symbolic-jobs2": [PYTHON, "-m", "symbolic", "aiger", "--json", "--jobs", "2"],
}
#: the solvers whose ``--limit`` is wall time (``--timeout`` of the command): those that
#: run several processes at once, whose CPU adds up over the cores
WALL_SOLVERS = {"symbolic-jobs2"}
#: ``probe:POLICY[:ORDER]``: the safety solver alone through bench/aiger_probe.py, with a
#: reordering policy (symbolic.aiger.safety.POLICIES) and an initial order (file, dfs)
PROBE = [PYTHON, str(ROOT / "bench" / "aiger_probe.py"), "--limit", "0"]
COLUMNS = ["file", "status", "answer", "cpu_s", "wall_s", "peak_mb", "verdict", "details"]


def comment_tail(path: Path) -> str:
    """The last 8 KiB of an AIGER file, where its SYNTCOMP comment is (the files end
    with it; the large ones are megabytes of gates before it)."""
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - 8192))
        return f.read().decode("latin-1")


def header_status(path: Path) -> str:
    """The status the file's own SYNTCOMP comment states (``STATUS : realizable`` or
    ``unrealizable``), as REAL / UNREAL; "" when it states none or "unknown"."""
    m = re.search(r"STATUS\s*:\s*(\w+)", comment_tail(path))
    return {"realizable": "REAL", "unrealizable": "UNREAL"}.get(m.group(1) if m else "", "")


def corpus(root: Path, large: bool) -> list[tuple[Path, str]]:
    """(path, known status) of the corpus's small files, or of ``large/``, smallest first.
    The known status is the file's own SYNTCOMP comment where it states one, else
    status.tsv's; the files where the two differ are printed (bench/README.md, AIGER
    section: the competition's comment is the one both solvers here agree with)."""
    rows = []
    table = root / "large" / "status.tsv" if large else root / "status.tsv"
    if large and not table.exists():
        table = root / "status.tsv"
    for line in table.read_text().splitlines()[1:]:
        cells = line.split("\t")
        path = (root / "large" if large else root) / cells[0]
        if path.exists():
            rows.append((path, header_status(path) or cells[1]))
            if rows[-1][1] != cells[1]:
                print(f"{path.name}: status.tsv {cells[1]}, its own comment {rows[-1][1]}")
    return sorted(rows, key=lambda r: (r[0].stat().st_size, r[0].name))


def answer_of(solver: str, stdout: str) -> tuple[str, str]:
    """(REAL / UNREAL / "", details) from a solver's output."""
    for line in reversed(stdout.strip().splitlines()):
        try:
            out = json.loads(line)
        except ValueError:
            continue
        if solver.startswith("symbolic"):
            answer = {True: "REAL", False: "UNREAL"}.get(out.get("realizable"), "")
        else:
            answer = out.get("answer", "")
        details = {k: v for k, v in out.items() if k not in ("file", "answer", "realizable")}
        return answer, json.dumps(details, separators=(",", ":"))
    return "", ""


def command(solver: str) -> list[str]:
    """The command line of ``solver`` (a key of SOLVERS or ``probe:POLICY[:ORDER]``)."""
    if solver.startswith("probe:"):
        policy, _, order = solver[len("probe:") :].partition(":")
        return PROBE + ["--policy", policy, "--order", order or "file"]
    return SOLVERS[solver]


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

    cmd = command(solver) + [str(path)]
    if solver in WALL_SOLVERS:
        cmd[-1:-1] = ["--timeout", f"{limit:g}"]
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
    elif run["timed_out"] or cpu >= limit - 0.5 or run["code"] in (-24, 3):  # SIGXCPU, limit
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
    p.add_argument(
        "--solver",
        default="dd",
        help=f"a solver or several, comma-separated, run side by side ({', '.join(SOLVERS)})",
    )
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--large", action="store_true", help="the large/ files")
    p.add_argument("--first", type=int, default=0, help="only the N smallest files")
    p.add_argument(
        "--limit",
        type=float,
        default=15.0,
        help="CPU seconds per file (wall seconds for symbolic-jobs2)",
    )
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
    p.add_argument(
        "--skip", default="", help="leave out files whose name contains one of these (a,b,...)"
    )
    args = p.parse_args(argv)
    solvers = [s for s in args.solver.split(",") if s]
    unknown = [s for s in solvers if s not in SOLVERS and not s.startswith("probe:")]
    if unknown or not solvers:
        p.error(f"unknown solver {', '.join(unknown) or '(none)'}: one of {', '.join(SOLVERS)}")
    RESULTS.mkdir(exist_ok=True)
    tables = {s: RESULTS / f"aiger-{s.replace(':', '-')}-{args.tag}.tsv" for s in solvers}
    done: dict[str, dict] = {s: _read_table(t) for s, t in tables.items()}
    skip = [x for x in args.skip.split(",") if x]
    files = [
        r
        for r in corpus(args.corpus, args.large)
        if args.only in r[0].name and not any(x in r[0].name for x in skip)
    ]
    if args.first:
        files = files[: args.first]
    t0 = time.monotonic()
    outs = {s: tables[s].open("a") for s in solvers}
    try:
        for k, (path, status) in enumerate(files):
            if args.budget and time.monotonic() - t0 > args.budget:
                print(f"\nbudget of {args.budget:g} s spent: run again to go on", file=sys.stderr)
                break
            for s in solvers:
                if path.name in done[s]:
                    continue
                row = row_of(s, path, status, args.limit, args.memory, args.wall_factor)
                done[s][path.name] = row
                outs[s].write("\t".join(row[c] for c in COLUMNS) + "\n")
                outs[s].flush()
            _progress(k + 1, len(files), done, time.monotonic() - t0)
    finally:
        for out in outs.values():
            out.close()
    print(file=sys.stderr)
    names = {path.name for path, _ in files}
    wrong = [
        _summary({f: r for f, r in done[s].items() if f in names}, len(files), tables[s])
        for s in solvers
    ]
    if len(solvers) > 1:
        _compare({s: {f: r for f, r in done[s].items() if f in names} for s in solvers})
    return 1 if any(wrong) else 0


def _read_table(table: Path) -> dict:
    """The rows already in ``table`` (by file name); a new table gets its header."""
    done = {}
    if table.exists():
        for line in table.read_text().splitlines()[1:]:
            cells = line.split("\t")
            done[cells[0]] = dict(zip(COLUMNS, cells))
    else:
        table.write_text("\t".join(COLUMNS) + "\n")
    return done


def _compare(done: dict[str, dict]) -> None:
    """The solvers' CPU on the files every one of them answered."""
    answered = [
        {f for f, r in rows.items() if r["verdict"] in ("ok", "WRONG")} for rows in done.values()
    ]
    common = set.intersection(*answered)
    parts = []
    for s, rows in done.items():
        cpu = sorted(float(rows[f]["cpu_s"]) for f in common)
        median = cpu[len(cpu) // 2] if cpu else 0.0
        parts.append(f"{s} {sum(cpu):.1f} s (median {median:.2f} s)")
    print(f"on the {len(common)} files all answered, CPU: " + "; ".join(parts))


def _progress(k: int, n: int, done: dict[str, dict], elapsed: float) -> None:
    parts = []
    for s, rows in done.items():
        answered = sum(r["verdict"] in ("ok", "WRONG") for r in rows.values())
        wrong = sum(r["verdict"] == "WRONG" for r in rows.values())
        parts.append(f"{s} {answered} answered, {wrong} wrong")
    print(
        f"\r{k}/{n} files, {'; '.join(parts)}, {elapsed:.0f} s",
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
