"""Send Ctrl-C (SIGINT) at random moments to runs of a command; count how they ended.

    python bench/ctrl_c_moments.py TRIALS FROM TO COMMAND...

Starts COMMAND TRIALS times, sends SIGINT at a moment drawn uniformly from FROM to TO
seconds after the start, and prints the ends counted by (exit status, what stderr
showed: "interrupted" for symbolic's one line, "silent" for nothing, "traceback" for
a Python traceback or fatal error, "other"), the slowest end after the signal, and the
first runs that showed a traceback or took more than 2 s. Runs still alive 30 s after
the signal are killed ("[killed]"). A status 0 means the run was over before the
signal. Issue 32 (docs/limits.md, the journal of 2026-11-28):

    python bench/ctrl_c_moments.py 100 0 1 .venv/bin/symbolic check nim -p n=5 -p K=100
    python bench/ctrl_c_moments.py 200 0 0.05 .venv/bin/symbolic --version
"""

from __future__ import annotations

import collections
import random
import signal
import subprocess
import sys
import time


def end_of(status: int, err: str) -> str:
    """What stderr showed at the end of a run (see the module docstring)."""
    if "Traceback" in err or "Fatal Python error" in err or "Exception ignored" in err:
        return "traceback"
    if err.strip().splitlines()[-1:] == ["symbolic: interrupted"]:
        return "interrupted"
    return "silent" if not err.strip() else "other"


def one(argv: list[str], delay: float) -> tuple[int, str, float]:
    """(status, stderr, seconds from the signal to the end) of one run."""
    p = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # as a terminal's Ctrl-C, even when this runs where SIGINT is ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        err += "[killed]"
    return p.returncode, err, time.monotonic() - t


def main(argv: list[str]) -> None:
    trials, lo, hi, command = int(argv[0]), float(argv[1]), float(argv[2]), argv[3:]
    counts: collections.Counter = collections.Counter()
    slowest, shown = 0.0, []
    started = time.monotonic()
    for _ in range(trials):
        delay = random.uniform(lo, hi)
        status, err, took = one(command, delay)
        end = end_of(status, err)
        counts[status, end] += 1
        slowest = max(slowest, took)
        if end in ("traceback", "other") or took > 2 or status == 0:
            shown.append((round(delay, 3), status, round(took, 2), err[-400:]))
    ends = ", ".join(f"{n} × ({s}, {e})" for (s, e), n in counts.most_common())
    print(
        f"{trials} runs in {time.monotonic() - started:.0f} s: {ends}; slowest end {slowest:.2f} s"
    )
    for row in shown[:10]:
        print("  ", row)


if __name__ == "__main__":
    main(sys.argv[1:])
