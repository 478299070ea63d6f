"""The CPU time of grounding GGP corpus games, one child process per game (issue 36).

``python bench/ground_time.py [--limit-seconds S] [--corpus DIR] GAME...`` reads each
``GAME.kif`` of the corpus (``$SYMBOLIC_GGP_CORPUS``, else the shared corpus, as
``bench/ggp_corpus.py`` finds it) and prints one tab-separated line per game: name,
grounding CPU seconds (reading the rules apart), fluents, ground dynamic atoms, rule
bodies, and ``ok``, ``timeout`` or the first line of the error. The code timed is the
``symbolic`` first on ``PYTHONPATH``: run it once per checkout to compare two
revisions (``PYTHONPATH=/path/to/other/checkout python bench/ground_time.py ...``).

A timeout is the CPU time limit (``resource.RLIMIT_CPU``) of the child: on a loaded
machine the wall time is longer, the figure is the child's own CPU time.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ggp_corpus import corpus_dir  # noqa: E402

CHILD = """
import resource, sys, time
from symbolic.gdl.ground import ground
from symbolic.gdl.kif import parse_kif
from symbolic.gdl.rules import read_rules
path = sys.argv[1]
rules = read_rules(parse_kif(open(path).read(), path))
t = time.process_time()
try:
    p = ground(rules, path)
except Exception as e:
    print(round(time.process_time() - t, 2), "", "", "", str(e).splitlines()[0][:100], sep="\\t")
else:
    bodies = sum(map(len, p.rules.values()))
    print(round(time.process_time() - t, 2), len(p.fluents), len(p.rules), bodies, "ok", sep="\\t")
"""


def run(path: Path, limit: float) -> str:
    """The line of one game (its name first)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit) + 1, int(limit) + 2))

    res = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        capture_output=True,
        text=True,
        preexec_fn=cap,
        cwd=Path(__file__).resolve().parent,  # not a checkout: PYTHONPATH picks the code
    )
    out = res.stdout.strip()
    if res.returncode != 0 or not out:
        out = "\t".join([f">{limit:g}", "", "", "", "timeout" if res.returncode < 0 else "crash"])
    return f"{path.stem}\t{out}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", metavar="GAME", help="file stems of the corpus")
    ap.add_argument("--limit-seconds", type=float, default=60, help="CPU per game (default 60)")
    ap.add_argument("--corpus", type=Path, help="the corpus directory")
    args = ap.parse_args(argv)
    corpus = args.corpus or corpus_dir()
    if corpus is None:
        ap.error("no corpus: name one with --corpus or $SYMBOLIC_GGP_CORPUS")
    print("game\tcpu_s\tfluents\tatoms\tbodies\toutcome", flush=True)
    for name in args.games:
        print(run(corpus / f"{name}.kif", args.limit_seconds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
