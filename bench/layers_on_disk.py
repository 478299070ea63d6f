"""What writing the layers of a ply-by-ply table to disk would cost, and what it would free.

    python bench/layers_on_disk.py W H [--model FILE] [-p NAME=VALUE] [--threads N] [--dir DIR]
                                       [--table [--ratio R]]

Issue 37's lever "finished layers written to disk and freed": computes the reachable
layers F_0 … F_n of Connect Four W × H (``graded_layers``, oxidd), then writes each one with
the project's own BDD files (:func:`symbolic.distributed.wire.dump_nodes`, oxidd's DDDMP)
and reads it back into the same manager, checking that the BDD read is the layer (same
node). Prints per layer: its nodes, the bytes written, the seconds to write and to read;
then the live nodes and the peak RSS with every layer held, and the live nodes once the
layers are dropped and collected (what the backward pass would get back while it works on
the last layers).

``--table``: instead, the whole ply-by-ply table with a store of layers in the folder
(:class:`symbolic.distributed.layer_store.LayerStore`, what ``values --by-layer --work-dir``
uses; ``--ratio`` overrides its CHECKPOINT_RATIO), printing each write of the backward
pass (layer, seconds) and the total time spent writing against the run's.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symbolic.analysis.layered import initial_set  # noqa: E402
from symbolic.api import graded_layers  # noqa: E402
from symbolic.analysis.layered import layer_outcomes  # noqa: E402
from symbolic.distributed import layer_store  # noqa: E402
from symbolic.distributed.wire import dump_nodes, load_nodes  # noqa: E402
from symbolic.distributed.worker import WorkSpec  # noqa: E402
from symbolic.engines import make_engine  # noqa: E402
from symbolic.limits import Limits  # noqa: E402
from symbolic.model import load_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("w", type=int)
    ap.add_argument("h", type=int)
    ap.add_argument("--model", default=str(ROOT / "models" / "connect4-compact.game"))
    ap.add_argument("-p", dest="params", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--dir", help="where to write the layers (default: a temporary folder)")
    ap.add_argument("--table", action="store_true", help="the whole table with a store")
    ap.add_argument("--ratio", type=float, help="the store's CHECKPOINT_RATIO")
    args = ap.parse_args(argv)
    params: dict = {"w": args.w, "h": args.h}
    for p in args.params:
        name, _, value = p.partition("=")
        params[name] = int(value)
    model = load_model(args.model, params)
    eng = make_engine(model.game, "symbolic", backend="oxidd", limits=Limits(threads=args.threads))
    m = eng.manager
    if args.table:
        return _table(args, model, params, eng)
    t = time.process_time()
    reach = graded_layers(eng, initial_set(eng, model.definitions))
    assert reach is not None, "the game is not graded"
    print(f"# {args.model} {params}, oxidd, {args.threads} thread(s)")
    print(f"forward pass: {len(reach.layers)} layers in {time.process_time() - t:.1f} s of CPU")
    with tempfile.TemporaryDirectory(prefix="symbolic-layers-") as tmp:
        folder = Path(args.dir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print("layer  nodes  bytes  write_s  read_s")
        totals = [0, 0, 0.0, 0.0]
        for k, layer in enumerate(reach.layers):
            node = layer.node
            t = time.perf_counter()
            data = dump_nodes(m, [node])
            path = folder / f"layer-{k}.bin"
            path.write_bytes(data)
            wrote = time.perf_counter() - t
            t = time.perf_counter()
            [back] = load_nodes(m, path.read_bytes())
            read = time.perf_counter() - t
            if back != node:
                raise AssertionError(("the layer read back differs", k))
            size = m.size(node)
            print(f"{k:5d} {size:9d} {len(data):11d} {wrote:7.2f} {read:7.2f}", flush=True)
            for i, v in enumerate((size, len(data), wrote, read)):
                totals[i] += v
        print(
            f"total {totals[0]} nodes, {totals[1] / 2**20:.0f} MiB, "
            f"written in {totals[2]:.1f} s, read in {totals[3]:.1f} s"
        )
    m.collect_garbage(now=True)
    held = m.node_count()
    print(f"every layer held: {held} live nodes, peak RSS {_rss_mb():.0f} MB")
    del reach, layer, node, back
    m.collect_garbage(now=True)
    print(f"the layers dropped: {m.node_count()} live nodes ({held - m.node_count()} freed)")
    return 0


def _table(args, model, params, eng) -> int:
    """The table with a LayerStore, its writes timed."""
    if args.ratio is not None:
        layer_store.CHECKPOINT_RATIO = args.ratio
    with tempfile.TemporaryDirectory(prefix="symbolic-layers-") as tmp:
        folder = args.dir or tmp
        spec = WorkSpec(args.model, tuple(sorted(params.items())), "oxidd")
        store = layer_store.LayerStore(folder, spec, eng)
        writes: list = []

        def timed(name, fn):
            def run(*a, **kw):
                t = time.perf_counter()
                before = store.tasks.written
                out = fn(*a, **kw)
                if store.tasks.written > before:
                    k = a[0] if name == "solved" else "-"
                    writes.append((name, k, time.perf_counter() - t))
                    print(f"wrote {name} {k}: {writes[-1][2]:.2f} s", flush=True)
                return out

            return run

        store.save_reach = timed("layers", store.save_reach)  # type: ignore[method-assign]
        store.save_solved = timed("solved", store.save_solved)  # type: ignore[method-assign]
        w0, t0 = time.monotonic(), time.process_time()
        out = layer_outcomes(model.definitions, eng, store=store)
        wall = time.monotonic() - w0
        spent = sum(w[2] for w in writes)
        print(
            f"# {args.model} {params}, oxidd, {args.threads} thread(s), ratio "
            f"{layer_store.CHECKPOINT_RATIO}: {out.total} positions; {len(writes)} writes in "
            f"{spent:.1f} s of {wall:.1f} s of wall ({100 * spent / wall:.1f} %), "
            f"{time.process_time() - t0:.1f} s of CPU, peak RSS {_rss_mb():.0f} MB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
