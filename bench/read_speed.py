"""How long reading large model and ``.kif`` files takes (``python bench/read_speed.py``).

Generates files of about ``--mb`` megabytes (default 10) of each kind below in a
temporary directory (or ``--keep DIR``), then times, in a fresh process each,
``load_model`` (text to checked model: parse, check, build; no engine) and prints one
line per file: kind, size, seconds of wall time and of CPU (``--slow``: model text
read through lark's parse tree, the way before ``symbolic.lang.driver``; ``--check``:
the whole command ``symbolic check FILE``, see :func:`time_check`). Kinds:

- ``sets``: many ``set`` declarations, one per line;
- ``queries``: many ``query`` lines (ATL formulas);
- ``long-line``: many ``const`` declarations on one single line;
- ``consts``: many ``const`` declarations, one per line;
- ``actions``: one concurrent action with many instances, each named by ``does``;
- ``kif``: a GDL description with many static facts and ground rules.

``make_file(kind, size)`` is what the tests use (tests/test_bench.py, 1 MB files).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import time
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("sets", "queries", "long-line", "consts", "actions", "kif")

HEAD = (
    'game "big"\nplayers 1, 2\nvar x : 0..9\nvar y : 0..9\nturn 1 + x % 2\n'
    "move inc when x < 9 then x' = x + 1\n"
)


def _lines(head: str, line, size: int, sep: str = "\n") -> str:
    """``head`` then ``line(i)`` for i = 0, 1, ... until the text reaches ``size`` bytes."""
    out, total, i = [head], len(head), 0
    while total < size:
        s = line(i) + sep
        out.append(s)
        total += len(s)
        i += 1
    return "".join(out)


def _actions(size: int) -> str:
    # each instance costs about 60 bytes of the does line's share: n from the size
    n = max(10, size // 60)
    return (
        f'game "acts"\nplayers 1, 2\nvar x : 0..{n}\nconcurrent\n'
        f"action 1 pick(t in 0..{n}) when t >= x\naction 2 wait\n"
        f"update then (forall t in 0..{n}: does(1, pick(t)) implies x' = t)\n"
        + _lines("", lambda i: f"set at{i} = x == {i % (n + 1)}", size - 200)
    )


def _kif(size: int) -> str:
    head = (
        "(role a) (role b) (init (s 0)) (init (control a))\n"
        "(<= (legal ?r (go ?n)) (true (control ?r)) (num ?n) (small ?n))\n"
        "(<= (legal ?r noop) (role ?r) (not (true (control ?r))))\n"
        "(<= (next (s ?n)) (does ?r (go ?n)))\n"
        "(<= (next (control b)) (true (control a)))\n"
        "(<= (next (control a)) (true (control b)))\n"
        "(<= terminal (true (s 3)))\n(<= (goal a 100) (true (s 3)))\n"
        "(<= (goal a 0) (not (true (s 3))))\n(goal b 50)\n"
        "(small 1) (small 2) (small 3)\n"
        "(<= (big ?x) (num ?x) (not (small ?x)))\n"
    )
    return _lines(head, lambda i: f"(num {i}) (edge {i} {i + 1}) (label {i} node_{i})", size)


def make_file(kind: str, size: int) -> tuple[str, str]:
    """(file name, text) of about ``size`` bytes of one kind (see the module docstring)."""
    if kind == "sets":
        return "sets.game", _lines(
            HEAD, lambda i: f"set s{i} = x == {i % 10} and y < {i % 7}", size
        )
    if kind == "queries":
        return "queries.game", _lines(
            HEAD, lambda i: f"query <<1>> <> (x == {i % 10} or y > {i % 5})", size
        )
    if kind == "long-line":
        return "long_line.game", _lines(HEAD, lambda i: f"const c{i} = {i} * 2 + 1", size, sep=" ")
    if kind == "consts":
        return "consts.game", _lines(HEAD, lambda i: f"const k{i} = {i}", size)
    if kind == "actions":
        return "actions.game", _actions(size)
    if kind == "kif":
        return "big.kif", _kif(size)
    raise ValueError(kind)


_TIMED = """
import resource, sys, time
t0 = time.perf_counter()
from symbolic.model import load_model
if sys.argv[2:] == ["slow"]:  # the lark parse tree, as before symbolic.lang.driver
    import symbolic.lang.parser as p
    def _give_up(*args):
        raise p.Fallback("--slow")
    p.fast_parse = _give_up
t1 = time.perf_counter()
load_model(sys.argv[1])
t2 = time.perf_counter()
ru = resource.getrusage(resource.RUSAGE_SELF)
print(f"{t2 - t1:.2f} {ru.ru_utime + ru.ru_stime:.2f} {ru.ru_maxrss // 1024}")
"""


def time_read(path: Path, timeout: float, slow: bool = False) -> str:
    """``load_model(path)`` in a fresh process: 'wall CPU peak-MB' (imports excluded from
    the wall seconds, included in the CPU seconds), or why it failed. ``slow``: the
    model language read through lark's parse tree (the way before issue 32's driver,
    still the way of a text with a syntax error)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _TIMED, str(path)] + ["slow"] * slow,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return f"over {timeout:.0f} s"
    if done.returncode:
        return "error: " + (done.stderr.strip().splitlines() or ["?"])[-1][:100]
    return done.stdout.strip()


#: the query ``--check`` asks of a model file (a ``.kif`` is asked its own goal queries):
#: one cheap query, so that the time is the read and the pipeline around it, not the
#: solving of the ``queries`` kind's 200 000 queries
CHECK_QUERY = "x == 0"


def time_check(path: Path, timeout: float) -> str:
    """``symbolic check path`` end to end in a fresh process (imports, reading, checking,
    building, one query solved, the answer printed): 'wall CPU peak-MB' (peak: the
    largest child so far), or why it failed."""
    cmd = [sys.executable, "-m", "symbolic", "check", str(path), "--timeout", f"{timeout:g}"]
    if path.suffix != ".kif":
        cmd += ["--query", CHECK_QUERY]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return f"over {timeout + 30:.0f} s"
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode:
        why = (done.stderr.strip().splitlines() or ["?"])[-1][:100]
        return f"{wall:.2f} {cpu:.2f} - exit {done.returncode}: {why}"
    return f"{wall:.2f} {cpu:.2f} {after.ru_maxrss // 1024}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=10.0, help="size of each file (MB)")
    ap.add_argument("--kind", action="append", choices=KINDS, help="only these kinds")
    ap.add_argument("--keep", type=Path, help="write the files here and keep them")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per file")
    ap.add_argument(
        "--slow",
        action="store_true",
        help="read model text through lark's parse tree (the way before the "
        "driver of symbolic.lang.driver)",
    )
    ap.add_argument(
        "--check",
        action="store_true",
        help=f"time the whole command 'symbolic check FILE' (model files: --query "
        f"'{CHECK_QUERY}'), imports included in the wall time",
    )
    args = ap.parse_args(argv)
    size = int(args.mb * 1_000_000)
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        print(f"{'kind':10} {'MB':>6}  wall s  CPU s  peak MB")
        for kind in args.kind or KINDS:
            name, text = make_file(kind, size)
            path = where / name
            path.write_text(text)
            if args.check:
                got = time_check(path, args.timeout)
            else:
                got = time_read(path, args.timeout, args.slow)
            print(f"{kind:10} {len(text) / 1e6:6.2f}  {got}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
