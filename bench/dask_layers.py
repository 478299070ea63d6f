"""Issue 38, item 4: the ply-by-ply table of Connect Four in one process and on a local
Dask cluster, measured (``python bench/dask_layers.py W H [--splits single,1,2]``).

Each configuration runs the command ``symbolic values models/connect4.game -p w=W -p h=H
--by-layer --json --backend B`` in a fresh child process (so that each has its own peak
RSS): ``single`` in one process, an integer K with ``--workers N --split K`` (each layer
cut into its cofactors on the top K bits of the BDD order: at most 2^K parts, the
non-empty ones sent). The child runs the real command line (:func:`symbolic.cli.main`)
and keeps its pool to read, per round, the tasks, bytes sent and received, seconds and
the parts' sizes (:class:`symbolic.distributed.cluster.RoundStats`), and each worker's
peak RSS (read on the workers just before the cluster closes). The parent checks that
each configuration's JSON equals the single process's byte for byte (when ``single``
was run), and records the wall and CPU seconds (client and workers: the CPU of the
child and its descendants) and the load average at start and end.

(Named dask_layers, not distributed: bench/ is first on sys.path and would hide Dask.)

Written to ``bench/results/dask_layers-WxH-<stamp>.json`` (every round) and ``.tsv`` (a
line per configuration). Dask spawns its workers, which import the main module again:
everything runs under ``if __name__ == "__main__"``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")


def _peak_rss_mb() -> float:
    """This process's peak resident set, MB (ru_maxrss is in kB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _command(a, conf: str) -> list[str]:
    """The ``symbolic values`` command line of one configuration."""
    argv = ["values", os.path.join(ROOT, "models", "connect4.game"), "-p", f"w={a.w}"]
    argv += ["-p", f"h={a.h}", "--by-layer", "--json", "--backend", a.backend]
    if a.max_memory:
        argv += ["--max-memory", str(a.max_memory)]
    if a.timeout:
        argv += ["--timeout", str(a.timeout)]
    if conf != "single":
        argv += ["--workers", str(a.workers), "--split", conf]
    return argv


def _round(st) -> dict:
    """A round's :meth:`RoundStats.as_dict` and each task's part size and seconds."""
    out = st.as_dict()
    out["task_part_nodes"] = [r["part_nodes"] for r in st.reports]
    out["task_seconds"] = [round(r["seconds"], 3) for r in st.reports]
    return out


class _LayerCounts:
    """The JSON of ``--what layers``: each graded layer's position count, in place of
    the ply-by-ply table (:class:`symbolic.analysis.layered.Outcomes`'s interface)."""

    def __init__(self, counts: list[int]):
        self.counts = counts
        self.rows = [(k, n, 0, 0) for k, n in enumerate(counts)]
        self.total = sum(counts)

    def as_json(self) -> dict:
        return {"layers": [{"layer": k, "positions": n} for k, n in enumerate(self.counts)]}


def _layer_counts(definitions, engine, reach=None, **_):
    """``layer_outcomes`` cut to its forward pass: the graded layers from the initial
    positions (``reach`` when the cluster computed them) and their counts."""
    from symbolic.analysis.layered import initial_set
    from symbolic.api import graded_layers

    if reach is None:
        reach = graded_layers(engine, initial_set(engine, definitions))
    return _LayerCounts([layer.count() for layer in reach.layers])


def child(a, conf: str, out: str) -> int:
    """Run one configuration in this process; its JSON to ``out + '.out'`` and the
    measures to ``out``."""
    import dataclasses

    import symbolic.cli.distributed as cd
    import symbolic.cli.values as cv
    import symbolic.distributed.solve as ds
    from symbolic.cli import main
    from symbolic.distributed.cluster import Pool

    if a.what == "layers":  # the forward pass only, on both paths
        cv.layer_outcomes = ds.layer_outcomes = _layer_counts
    if a.worker_memory:  # each worker's cap, apart from the client's
        spec_of = cd.work_spec
        cd.work_spec = lambda *args: dataclasses.replace(spec_of(*args), max_memory=a.worker_memory)

    pools: list = []
    workers_rss: dict = {}

    class Measured(Pool):
        def round(self, *args, **kwargs):
            # each round as it ends, one JSON line: a run killed (the OOM killer) keeps them
            got = super().round(*args, **kwargs)
            with open(out + ".rounds", "a") as f:
                f.write(json.dumps(_round(self.stats[-1])) + "\n")
            return got

        def close(self) -> None:
            try:
                workers_rss.update(self.client.run(_peak_rss_mb))
            finally:
                super().close()

    def open_pool(args):
        pools.append(Measured(workers=args.workers, limits=cd.current_limits()))
        return pools[-1]

    cd.open_pool = open_pool
    with open(out + ".out", "w") as f:
        old, sys.stdout = sys.stdout, f
        try:
            status = main(_command(a, conf))
        finally:
            sys.stdout = old
    rounds = [_round(s) for p in pools for s in p.stats]
    info = {"status": status, "client_peak_rss_mb": round(_peak_rss_mb(), 1)}
    info["workers_peak_rss_mb"] = sorted(round(v, 1) for v in workers_rss.values())
    info["rounds"] = rounds
    with open(out, "w") as f:
        json.dump(info, f)
    return status


def run_one(a, conf: str, stem: str) -> dict:
    """One configuration in a child process, niced as its parent, measured."""
    out = f"{stem}-{conf}.part"
    load0 = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    argv = [sys.executable, os.path.abspath(__file__), str(a.w), str(a.h), "--child", conf]
    argv += ["--out", out, "--backend", a.backend, "--workers", str(a.workers)]
    argv += ["--max-memory", str(a.max_memory)] if a.max_memory else []
    argv += ["--worker-memory", str(a.worker_memory)] if a.worker_memory else []
    argv += ["--timeout", str(a.timeout)] if a.timeout else []
    argv += ["--what", a.what]
    proc = subprocess.run(argv, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rec = {"config": conf, "exit": proc.returncode, "wall_s": round(wall, 1)}
    rec.update(cpu_s=round(cpu, 1), load_start=load0, load_end=os.getloadavg())
    if os.path.exists(out):
        with open(out) as f:
            rec.update(json.load(f))
        os.remove(out)
    elif os.path.exists(out + ".rounds"):  # the child died: the rounds it finished
        with open(out + ".rounds") as f:
            rec["rounds"] = [json.loads(line) for line in f]
    if os.path.exists(out + ".rounds"):
        os.remove(out + ".rounds")
    return rec


def summary(rec: dict) -> dict:
    """One line of the TSV: the rounds' totals and extremes."""
    rs = rec.get("rounds", [])
    moved = [r["bytes_sent"] + r["bytes_received"] for r in rs]
    line = {k: rec.get(k) for k in ("config", "exit", "same", "wall_s", "cpu_s")}
    line["load_start"] = rec["load_start"][0]
    line["load_end"] = rec["load_end"][0]
    line["client_rss_mb"] = rec.get("client_peak_rss_mb")
    line["worker_rss_mb"] = max(rec.get("workers_peak_rss_mb") or [0])
    line["rounds"] = len(rs)
    line["tasks"] = sum(r["tasks"] for r in rs)
    line["largest_part"] = max((r["largest_part_nodes"] for r in rs), default=0)
    line["max_round_sum_parts"] = max((r["sum_part_nodes"] for r in rs), default=0)
    line["bytes_per_round"] = sum(moved) // len(rs) if rs else 0
    line["max_round_bytes"] = max(moved, default=0)
    line["round_s_total"] = round(sum(r["seconds"] for r in rs), 1)
    line["s_per_round"] = round(line["round_s_total"] / len(rs), 2) if rs else 0
    line["worker_manager_nodes"] = max((r["largest_manager_nodes"] for r in rs), default=0)
    return line


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("w", type=int)
    p.add_argument("h", type=int)
    p.add_argument("--splits", default="single,1,2", help="single and/or split sizes K")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--backend", default="oxidd", choices=("oxidd", "cudd"))
    p.add_argument("--max-memory", type=int, default=0, help="MB, each process's BDD cap")
    p.add_argument(
        "--worker-memory", type=int, default=0, help="MB, each worker's cap (default: --max-memory)"
    )
    p.add_argument(
        "--what",
        default="table",
        choices=("table", "layers"),
        help="table: the ply-by-ply table; layers: its forward pass only (each layer's count)",
    )
    p.add_argument(
        "--timeout",
        type=int,
        default=0,
        help="seconds, each run's --timeout (the rounds done before it are kept)",
    )
    p.add_argument("--results", default=RESULTS, help="the directory of the TSV and JSON")
    p.add_argument(
        "--want",
        help="the single process's JSON of an earlier run (its -single.json) to compare "
        "with, when 'single' is not among the splits",
    )
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv) -> int:
    a = parse(argv)
    if a.child:
        return child(a, a.child, a.out)
    os.makedirs(a.results, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    what = "" if a.what == "table" else f"-{a.what}"
    stem = os.path.join(a.results, f"dask_layers-{a.w}x{a.h}{what}-{stamp}")
    recs, want = [], None
    if a.want:
        with open(a.want, "rb") as f:
            want = f.read()
    for conf in a.splits.split(","):
        rec = run_one(a, conf, stem)
        out = f"{stem}-{conf}.part.out"
        got = open(out, "rb").read() if os.path.exists(out) else None
        if conf == "single":
            want = got
            os.replace(out, f"{stem}-single.json")
        elif got is not None:
            rec["same"] = None if want is None else got == want
            os.remove(out)
        recs.append(rec)
        print(json.dumps(summary(rec)), flush=True)
        with open(stem + ".json", "w") as f:
            json.dump({"argv": argv, "runs": recs}, f, indent=1)
    lines = [summary(r) for r in recs]
    with open(stem + ".tsv", "w") as f:
        f.write("\t".join(lines[0]) + "\n")
        for line in lines:
            f.write("\t".join(str(v) for v in line.values()) + "\n")
    return 0 if all(r["exit"] == 0 and r.get("same", True) is not False for r in recs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
