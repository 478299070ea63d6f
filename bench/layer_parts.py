"""Issue 38, item 4 "on paper": the forward layers of Connect Four cut into the parts a
cluster would solve (``python bench/layer_parts.py W H [--max-split 4]``).

The layers are the engine's (``symbolic values --by-layer``'s encoding and order), made as
a cluster makes them: layer k cut into its cofactors on the top K bits of the BDD order
(:func:`symbolic.distributed.split.split_set`, what ``--split K`` sends: at most 2^K
parts, the non-empty ones), post of each part of the largest K, and their union the
next layer. Only the current layer is kept (the client of a cluster keeps them all; its
memory is not what this measures). Printed per layer, as a TSV line: the layer's nodes,
and for each K = 1 .. max: the non-empty parts, the largest part's nodes, the sum of the
parts' nodes; then, for the largest K, the largest part's post in CPU seconds, the sum of
the parts' posts, the union's seconds, and the largest image's nodes; the manager's live
nodes and the peak RSS. With ``--max-memory MB`` (the engine's cap) a layer past the cap
stops the run with the layers done printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from symbolic.analysis.layered import initial_set  # noqa: E402
from symbolic.bdd.sets import BddSet  # noqa: E402
from symbolic.distributed.split import split_set, top_bits  # noqa: E402
from symbolic.engines import make_engine  # noqa: E402
from symbolic.errors import SymbolicError  # noqa: E402
from symbolic.limits import Limits  # noqa: E402
from symbolic.model import load_model  # noqa: E402

MODEL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one_layer(e, f, kmax: int) -> tuple[list, BddSet]:
    """The measures of layer ``f`` and the next layer (the union of its parts' posts)."""
    m = e.manager
    row: list = [m.size(f.node)]
    parts: list = []
    for k in range(1, kmax + 1):
        parts = split_set(e, f, top_bits(e, k))
        sizes = [m.size(p.node) for _, p in parts]
        row += [len(sizes), max(sizes), sum(sizes)]
    times, images = [], []
    for _, p in parts:
        t = time.process_time()
        images.append(e.post(p))
        times.append(time.process_time() - t)
    t = time.process_time()
    nxt = images[0]
    for g in images[1:]:
        nxt = nxt | g
    union = time.process_time() - t
    row += [round(max(times), 2), round(sum(times), 2), round(union, 2)]
    row += [max(m.size(g.node) for g in images), m.node_count(), round(_rss_mb())]
    return row, nxt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("w", type=int)
    ap.add_argument("h", type=int)
    ap.add_argument("--max-split", type=int, default=4)
    ap.add_argument("--max-memory", type=float, help="MB, the engine's cap")
    ap.add_argument("--backend", default="oxidd")
    a = ap.parse_args(argv)
    t0, w0 = time.process_time(), time.monotonic()
    model = load_model(os.path.join(MODEL, "connect4.game"), {"w": a.w, "h": a.h})
    lim = Limits(max_memory=a.max_memory)
    lim.expect_work("layers")  # the cache of `symbolic values --by-layer`
    e = make_engine(model.game, "symbolic", a.backend, limits=lim)
    f = initial_set(e, model.definitions)
    print(
        f"# {a.w} x {a.h} {a.backend}: built in {time.process_time() - t0:.1f} s CPU, "
        f"{e.manager.node_count()} live nodes, {_rss_mb():.0f} MB; top bits "
        f"{', '.join(top_bits(e, a.max_split))}",
        flush=True,
    )
    head = ["layer", "positions", "nodes"]
    for k in range(1, a.max_split + 1):
        head += [f"parts{k}", f"largest{k}", f"sum{k}"]
    head += ["post_max_s", "post_sum_s", "union_s", "image_max", "live", "rss_mb", "wall_s"]
    print("\t".join(head), flush=True)
    k = 0
    try:
        while not f.is_empty():
            n = f.count()
            row, f = one_layer(e, f, a.max_split)
            print("\t".join(map(str, [k, n, *row, round(time.monotonic() - w0)])), flush=True)
            k += 1
    except SymbolicError as err:
        print(f"# stopped at layer {k}: {err}", flush=True)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"# CPU {ru.ru_utime + ru.ru_stime:.1f} s, wall {time.monotonic() - w0:.1f} s, "
        f"peak RSS {ru.ru_maxrss / 1024:.0f} MB",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
