"""Where the time of a ply-by-ply table goes, layer by layer.

    python bench/layer_profile.py W H [--model FILE] [-p NAME=VALUE] [--backend oxidd] [--count-only]
                                      [--forget] [--counts] [--cprofile FILE]
                                      [--cache-bits E]
                                      [--threads N] [--max-memory MB]

Runs :func:`symbolic.analysis.layered.layer_outcomes` on Connect Four W × H (or only
:func:`~symbolic.api.graded_layers` with ``--count-only``) and prints, for
every forward image and every backward layer step (``until_layer_step``: U_k of one
player; the table runs both players layer by layer) the CPU seconds it took (of the whole
process: oxidd's worker threads included), the nodes of the set it made, the live nodes of
the manager and the peak RSS so far; then the CPU seconds per phase (build, forward,
backward with the counts) and the process's CPU and wall time.
``--cprofile FILE`` also writes a cProfile of the whole run.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symbolic.analysis import layered  # noqa: E402
from symbolic.api import graded_layers  # noqa: E402
from symbolic.engines import make_engine  # noqa: E402
from symbolic.limits import Limits  # noqa: E402
from symbolic.model import load_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WALL0 = time.monotonic()


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def instrument(engine, log: list, counts: bool = False) -> None:
    """Wrap the engine's per-layer operations so that each call appends a row
    (what, CPU s, nodes of its result, live nodes, peak RSS MB) to ``log``; with
    ``counts``, each forward image's number of positions is printed too (so that a run
    stopped by a time limit still shows how far the count went)."""
    m = engine.manager

    def wrap(name, fn, node_of):
        def timed(*a, **kw):
            t = time.process_time()
            out = fn(*a, **kw)
            dt = time.process_time() - t
            row = (name, dt, m.size(node_of(out)), m.node_count(), _rss_mb())
            log.append(row)
            extra = f", {out.count()} positions" if counts and name == "post" else ""
            print(
                f"{row[0]} {len(log)} {row[1]:.2f} s, {row[2]} nodes, {row[3]} live, "
                f"{row[4]:.0f} MB{extra}",
                file=sys.stderr,
                flush=True,
            )
            return out

        return timed

    engine.post = wrap("post", engine.post, lambda s: s.node)
    # one backward step of one player (the table interleaves the two players by layer)
    engine.until_layer_step = wrap("layer_step", engine.until_layer_step, lambda s: s.node)


def forward_counts(eng, source, t0: float) -> int:
    """The positions of each layer F_{k+1} = post(F_k) from ``source``, printed as each
    layer is made (with its nodes, the CPU and wall seconds so far and the peak RSS), one
    layer held at a time; the total at the end."""
    total, k, layer = 0, 0, source
    print("layer  positions  nodes  CPU_s  wall_s  RSS_MB", flush=True)
    while not layer.is_empty():
        n = layer.count()
        total += n
        print(
            f"{k:5d} {n:11d} {eng.manager.size(layer.node):7d} "
            f"{time.process_time() - t0:7.1f} {time.monotonic() - WALL0:7.1f} {_rss_mb():6.0f}",
            flush=True,
        )
        layer, k = eng.post(layer), k + 1
    print(f"total {total} positions in {k} layers", flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("w", type=int)
    ap.add_argument("h", type=int)
    ap.add_argument("--backend", default="oxidd")
    ap.add_argument("--model", default=str(ROOT / "models" / "connect4.game"))
    ap.add_argument("--count-only", action="store_true")
    ap.add_argument(
        "-p",
        dest="params",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="another parameter of the model (e.g. centre=0 for connect4-compact.game)",
    )
    ap.add_argument(
        "--counts",
        action="store_true",
        help="print the positions of each forward image as it is made",
    )
    ap.add_argument(
        "--forget",
        action="store_true",
        help="count only, keeping one layer at a time: F_{k+1} = post(F_k), each layer "
        "counted then dropped, no test that the layers are disjoint (Connect Four's are: a "
        "move adds one disc)",
    )
    ap.add_argument("--cprofile")
    ap.add_argument(
        "--cache-bits",
        type=int,
        help="oxidd's apply cache: 2^E entries (default: the layered rule, 2^24 on large boards)",
    )
    ap.add_argument("--threads", type=int, help="oxidd's worker threads (default 1)")
    ap.add_argument("--max-memory", type=float, help="cap the BDD manager at MB megabytes")
    ap.add_argument(
        "--split-after",
        type=float,
        help="seconds after which a part of δ is split (engine default 0.2)",
    )
    args = ap.parse_args(argv)
    if args.split_after is not None:
        from symbolic.bdd import engine as bdd_engine

        bdd_engine._SPLIT_AFTER = args.split_after
    prof = cProfile.Profile() if args.cprofile else None
    phases = []
    t0 = time.process_time()
    params = {"w": args.w, "h": args.h}
    for text in args.params:
        name, _, value = text.partition("=")
        params[name] = int(value)
    model = load_model(args.model, params=params)
    lim = Limits(cache_bits=args.cache_bits, threads=args.threads, max_memory=args.max_memory)
    lim.expect_work("layers")  # as `symbolic values --by-layer` does
    eng = make_engine(model.game, "symbolic", args.backend, limits=lim)
    phases.append(("load + build", time.process_time() - t0))
    log: list = []
    instrument(eng, log, args.counts)
    if prof:
        prof.enable()
    t = time.process_time()
    if args.forget:
        return forward_counts(eng, layered.initial_set(eng, model.definitions), t)
    reach = graded_layers(eng, layered.initial_set(eng, model.definitions))
    phases.append(("forward (graded_layers)", time.process_time() - t))
    print("layer  positions  nodes")
    for k, f in enumerate(reach.layers):
        print(f"{k:5d} {f.count():11d} {eng.manager.size(f.node):7d}", flush=True)
    if not args.count_only:
        t = time.process_time()
        held = [reach]
        del reach  # handed over: the table frees the layers it no longer reads
        out = layered.layer_outcomes(
            model.definitions,
            eng,
            held.pop(),
            on_row=lambda row: print(f"row {row}", file=sys.stderr, flush=True),
        )
        phases.append(("backward + counts (layer_outcomes)", time.process_time() - t))
        print(
            "rows:",
            sum(w + d + lo for _, w, d, lo in out.rows),
            "positions;",
            "layer 0:",
            out.rows[0],
            "digest:",
            hashlib.sha256(repr(out.rows).encode()).hexdigest()[:16],
        )
    if prof:
        prof.disable()
        prof.dump_stats(args.cprofile)
    print("\nstep        k   CPU s     nodes  live nodes  RSS MB")
    counters: dict = {}
    for name, dt, size, live, rss in log:
        k = counters.get(name, 0)
        counters[name] = k + 1
        print(f"{name:10s} {k:3d} {dt:7.2f} {size:9d} {live:11d} {rss:7.0f}")
    for name in counters:
        print(f"sum {name}: {sum(r[1] for r in log if r[0] == name):.2f} s")
    for name, dt in phases:
        print(f"phase {name}: {dt:.2f} s")
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"process CPU {ru.ru_utime + ru.ru_stime:.2f} s, wall {time.monotonic() - WALL0:.2f} s, "
        f"peak RSS {ru.ru_maxrss / 1024:.0f} MB, {eng.manager.backend} "
        f"{getattr(eng.manager, 'threads', 1)} thread(s), apply cache "
        f"{getattr(eng.manager, 'cache_entries', '-')} entries"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
