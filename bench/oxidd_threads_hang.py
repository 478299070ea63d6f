"""Reproduce oxidd 0.13's hang with two-thread managers made and dropped in a row.

    python bench/oxidd_threads_hang.py [THREADS] [ENGINES] [--keep]

Makes ENGINES Connect Four 5 × 5 engines on oxidd with THREADS threads each (default 2
and 12), dropping each before the next (``--keep``: keeping them all), and prints the
seconds each took; a Python traceback after 30 s without progress shows where it hangs
(then exit status 1). Measured on the 2-core machine while another process kept a core
busy (``make fuzz``): with 2 threads and dropping, 3 hangs in 3 runs (after 5, 11 and 4
engines, in an apply while encoding the domain); with ``--keep``, none in 3 × 12; with 1
thread, none in 25. Why symbolic gives its threads only to the first multi-threaded
manager of a process by default in issue 22, and why one thread is the default since
issue 32 (bench/README.md).
"""

from __future__ import annotations

import faulthandler
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symbolic.engines import make_engine  # noqa: E402
from symbolic.limits import Limits  # noqa: E402
from symbolic.model import load_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    keep = "--keep" in argv
    args = [a for a in argv if a != "--keep"]
    threads = int(args[0]) if args else 2
    engines = int(args[1]) if len(args) > 1 else 12
    model = load_model(ROOT / "models" / "connect4.game", {"w": 5, "h": 5})
    kept = []
    for i in range(engines):
        faulthandler.dump_traceback_later(30, exit=True)
        t = time.perf_counter()
        e = make_engine(model.game, "symbolic", backend="oxidd", limits=Limits(threads=threads))
        print(f"{i}: {time.perf_counter() - t:.2f} s", flush=True)
        if keep:
            kept.append(e)
        del e
    faulthandler.cancel_dump_traceback_later()
    print("done: no hang")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
