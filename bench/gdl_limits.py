"""How late ``--timeout`` and Ctrl-C act on large GDL files (``python bench/gdl_limits.py``).

For each file and engine (``symbolic gdl FILE --engine E``): one run with ``--timeout T``,
and runs sent SIGINT at given moments (seconds after the process started). Each line
gives the exit status, the wall seconds from the process start to its exit, the
lateness (exit time minus the moment the limit should act: T after the start for the
timeout, since the deadline counts from the start of the command's work, after the
imports; the signal's moment for SIGINT), the bytes written on stdout (a limit or an
interruption must leave it empty) and the first line of stderr. A case fails when it
acts more than ``--within`` seconds late or exits with another status than 3 (timeout)
or 130 (SIGINT); exit 1 then.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYMBOLIC = ROOT / ".venv" / "bin" / "symbolic"
FILES = [
    ROOT / "models" / "gdl" / "connectFour.kif",
    ROOT / "models" / "gdl" / "3pttc.kif",
    ROOT / "bench" / "gdl" / "nim4.kif",
]


def run(cmd: list[str], sigint_at: float | None, cap: float = 120) -> dict:
    """Run ``cmd``; with ``sigint_at``, send it SIGINT that many seconds after its start."""
    t0 = time.monotonic()
    # SIGINT back to its default: a process started in the background inherits it ignored
    p = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    if sigint_at is not None:
        try:
            p.wait(timeout=sigint_at)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return {
        "status": p.returncode,
        "seconds": time.monotonic() - t0,
        "stdout": len(out),
        "stderr": (err.strip().splitlines() or [""])[0][:110],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=2)
    ap.add_argument("--sigint", type=float, nargs="*", default=[1.5, 4, 8])
    ap.add_argument("--within", type=float, default=2)
    ap.add_argument("--engine", nargs="*", default=["symbolic", "explicit"])
    ap.add_argument("files", nargs="*", type=Path, default=FILES)
    args = ap.parse_args(argv)
    bad = 0
    print("| file | engine | limit | status | exit s | late s | stdout bytes | stderr |")
    print("|---|---|---|---|---|---|---|---|")
    for path in args.files:
        for engine in args.engine:
            base = [str(SYMBOLIC), "gdl", str(path), "--engine", engine]
            cases = [("timeout", args.timeout, base + ["--timeout", str(args.timeout)], None)]
            cases += [("SIGINT", t, base, t) for t in args.sigint]
            for kind, at, cmd, sig in cases:
                r = run(cmd, sig)
                late = r["seconds"] - at
                want = 3 if kind == "timeout" else 130
                ok = r["status"] == want and late <= args.within and r["stdout"] == 0
                if r["status"] == 0 and kind == "SIGINT":
                    ok, late = True, 0.0  # done before the signal
                bad += not ok
                print(
                    f"| {path.name} | {engine} | {kind} at {at:g} s | {r['status']} | "
                    f"{r['seconds']:.2f} | {late:.2f}{'' if ok else ' LATE'} | {r['stdout']} "
                    f"| {r['stderr']} |",
                    flush=True,
                )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
