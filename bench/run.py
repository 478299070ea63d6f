"""Benchmarks: the project against its peers, side by side, one process per case.

``make bench`` or ``python bench/run.py [--family F ...] [--quick] [--timeout S]``.

Each family lists instances from small to large; each instance runs in every
column (an engine or a peer), each case in its own Python process (so that
start-up, peak RSS and CUDD's tables are its own), with a per-case time limit.
A column that fails, is killed (after ``--timeout`` × ``--wall-factor`` wall
seconds) or passes ``--timeout`` CPU seconds on an instance is skipped on the
larger ones of its family. Columns:

- ``cudd``: the project (``SymbolicGame``, order ``auto``, dd.cudd);
- ``oxidd``: the project on oxidd (``backend="oxidd"``);
- ``autoref``: the project on dd.autoref (pure Python BDDs);
- ``explicit``: the project's explicit engine;
- ``hand``: a minimal hand-written dd.cudd or oxidd script (bench/peers.py,
  bench/peers_compact.py);
- ``omega``: the same fixpoint written with omega's ``fol`` context.

Every row compares the result counts of its columns (``MISMATCH`` otherwise).
Times: ``load`` (model text to IR), ``build`` (engine and δ), ``fix``
(fixpoints), all wall clock inside the case; ``wall`` and ``CPU`` (user +
system) of the whole process, start-up and imports included. Ratios are of
CPU times (on a shared machine, wall clock depends on the other jobs).
Results go to ``bench/results/<date>.json``; the tables print on stdout
(Markdown), progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODELS = ROOT / "symbolic" / "models"

COLUMNS = ("cudd", "oxidd", "autoref", "explicit", "hand", "omega")


def ens(N, n, K, r=6, u0=0):
    return {"N": N, "n": n, "K": K, "r": r, "u0": u0}


# family -> (model file, query text or special, instances, quick instances, columns)
#: the boards of the two ply-by-ply table families (connect4.game and its compact encoding)
C4_TABLE_BOARDS = [
    {"w": 4, "h": 4},
    {"w": 5, "h": 4},
    {"w": 4, "h": 5},
    {"w": 5, "h": 5},
    {"w": 6, "h": 5},
]

FAMILIES: dict[str, dict] = {
    "ens-F1": dict(
        model="ens2005.game",
        query="F({1})",
        instances=[
            ens(3, 3, 20),
            ens(3, 4, 25),
            ens(3, 4, 31),
            ens(3, 4, 63),
            ens(3, 4, 255),
            ens(3, 5, 63),
            ens(3, 5, 255),
            ens(3, 6, 63),
            ens(3, 6, 1023),
        ],
        quick=[ens(3, 3, 20), ens(3, 4, 25)],
        columns=COLUMNS,
    ),
    "ens-F12": dict(
        model="ens2005.game",
        query="F({1, 2})",
        instances=[
            ens(3, 3, 20),
            ens(3, 4, 63),
            ens(3, 4, 255),
            ens(3, 5, 63),
            ens(3, 6, 63),
            ens(3, 6, 1023),
        ],
        quick=[ens(3, 3, 20)],
        columns=COLUMNS,
    ),
    "nim": dict(
        model="nim.game",
        query="mover_wins",
        instances=[
            {"n": 3, "K": 7},
            {"n": 4, "K": 15},
            {"n": 4, "K": 63},
            {"n": 5, "K": 63},
            {"n": 6, "K": 255},
            {"n": 6, "K": 1023},
        ],
        quick=[{"n": 3, "K": 7}],
        columns=COLUMNS,
    ),
    "subtraction": dict(
        model="subtraction.game",
        query="mover_wins",
        instances=[{"K": 1000}, {"K": 10_000}, {"K": 100_000}, {"K": 1_000_000}],
        quick=[{"K": 100}],
        columns=("cudd", "oxidd", "autoref", "explicit", "hand"),
    ),
    "tictactoe": dict(
        model="tictactoe.game",
        query="forces_win(1)",
        instances=[{}],
        quick=[{}],
        columns=("cudd", "oxidd", "autoref", "explicit"),
    ),
    # the ±k value of every position (symbolic.analysis.values: two layered attractors)
    "values": dict(
        model="chocolate.game",
        query="@values",
        instances=[
            {"m": 10, "n": 7},
            {"m": 32, "n": 32, "i": 15, "j": 15},
            {"m": 64, "n": 64, "i": 31, "j": 31},
            {"m": 128, "n": 128, "i": 63, "j": 63},
            {"m": 256, "n": 256, "i": 127, "j": 127},
        ],
        quick=[{"m": 10, "n": 7}],
        columns=("cudd", "oxidd", "explicit"),
    ),
    # the nimber of every position (symbolic.analysis.grundy.layered_nimbers)
    "nimbers": dict(
        model="kayles.game",
        query="@nimbers",
        instances=[{"n": 12}, {"n": 16}, {"n": 20}, {"n": 24}, {"n": 30}],
        quick=[{"n": 12}],
        columns=("cudd", "oxidd", "explicit"),
    ),
    # player 1's rank-lowering strategy for F({1}) (symbolic.analysis.strategy)
    "strategy": dict(
        model="ens2005.game",
        query="@strategy",
        instances=[ens(3, 3, 20), ens(3, 4, 31), ens(3, 4, 63), ens(3, 4, 255)],
        quick=[ens(3, 3, 20)],
        columns=("cudd", "oxidd", "explicit"),
    ),
    # the forced table of a GDL file (symbolic gdl FILE), compared as a hash of its JSON
    "gdl": dict(
        model=None,
        query="@gdl",
        instances=[
            {"file": "nim1.kif"},
            {"file": "ticTacToe.kif"},
            {"file": "chomp.kif"},
            {"file": "connectFour.kif"},
        ],
        quick=[{"file": "ticTacToe.kif"}],
        columns=("cudd", "oxidd", "explicit"),
    ),
    # Connect Four: reach_layers from the empty board, then until_layered for
    # forces_win(1) and forces_win(2) (one backward step per number of discs);
    # connect4-plain: the same answers through the ATL evaluator's until over all
    # positions (the fixpoint before the layered solution, kept for comparison).
    "connect4": dict(
        model="connect4.game",
        query="@connect4",
        instances=[
            {"w": 4, "h": 4},
            {"w": 5, "h": 4},
            {"w": 4, "h": 5},
            {"w": 5, "h": 5},
            {"w": 6, "h": 5},
            {"w": 5, "h": 6},
            {"w": 6, "h": 6},
            {"w": 7, "h": 6},
        ],
        quick=[{"w": 3, "h": 3, "a": 3}],
        columns=("cudd", "oxidd", "explicit", "hand"),
    ),
    "connect4-plain": dict(
        model="connect4.game",
        query="@connect4-plain",
        instances=[{"w": 4, "h": 4}, {"w": 5, "h": 4}, {"w": 4, "h": 5}, {"w": 5, "h": 5}],
        quick=[{"w": 3, "h": 3, "a": 3}],
        columns=("cudd", "oxidd"),
    ),
    # the ply-by-ply table (symbolic values --by-layer): win / draw / loss of the player to
    # move on every layer reachable from the empty board (layer_outcomes); hand: the best plain
    # oxidd script of bench/peers.py (relational_connect4); result: the reachable count
    "connect4-table": dict(
        model="connect4.game",
        query="@table",
        instances=C4_TABLE_BOARDS,
        quick=[{"w": 4, "h": 3}],
        columns=("oxidd", "cudd", "hand"),
    ),
    # the same table on connect4-compact.game (w·(h+1) bits, Böck's encoding); hand: the
    # compact oxidd script of bench/peers_compact.py (compact_connect4, alternating bit sets)
    "connect4-compact-table": dict(
        model="connect4-compact.game",
        query="@table",
        instances=C4_TABLE_BOARDS,
        quick=[{"w": 4, "h": 3}],
        columns=("oxidd", "cudd", "hand"),
    ),
    "ens-sheet": dict(
        model=None,
        query="@sheet",
        instances=[{"u0": 0}, {"u0": 42}],
        quick=[{"u0": 0}],
        columns=("cudd", "oxidd", "explicit"),
    ),
}


# ---------------------------------------------------------------- one case (child process)


def _rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _peak_nodes(eng) -> int | None:
    m = getattr(eng, "manager", None)
    if m is None:
        return None
    if m.backend == "cudd":
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return m.bdd.statistics()["peak_nodes"]
    return m.node_count()  # autoref and oxidd: the nodes held at the end


def _count_fixpoints(eng, its: list) -> None:
    """Record the iterations of every until/release the evaluator runs (bench only)."""
    for name in ("until", "release"):
        orig = getattr(eng, name)

        def wrapped(*a, _orig=orig, **k):
            fp = _orig(*a, **k)
            its.append(fp.iterations)
            return fp

        setattr(eng, name, wrapped)


def _connect4(eng, model, ev, layered: bool) -> dict:
    """Positions reachable from the empty board (``reach_layers``: one image per number
    of discs) and who can force a win there: ``until_layered`` over those layers, or
    (``layered=False``) the evaluator's ``forces_win(p)`` over all positions."""
    from symbolic.api import DeadEnds, reach_layers, until_layered

    empty = ev(model.formula("empty"))
    t0 = time.perf_counter()
    reach = reach_layers(eng, empty)
    out = {
        "t_reach": time.perf_counter() - t0,
        "count": reach.result.count(),
        "layers": len(reach.layers),
    }
    wins = []
    for p in (1, 2):
        if layered:
            over = ev(model.formula("over"))
            fp = until_layered(
                eng, [p], ~over, ev(model.formula(f"win({p})")), reach, dead_ends=DeadEnds.VACUOUS
            )
            won = fp.result
        else:
            won = ev(model.formula(f"forces_win({p})"))
        wins.append(not (empty & won).is_empty())
    out["winner"] = "1" if wins[0] else "2" if wins[1] else "draw"
    out["iterations"] = (2 * len(reach.layers)) if layered else None
    return out


def _values(eng, model, column) -> int:
    """The ±k table: a hash of {value: count} and the draws, from either engine."""
    from symbolic.analysis.values import two_player_values

    if column == "explicit":
        table = eng.retrograde_values()
        counts: dict = {}
        for v in table.values():
            counts[v] = counts.get(v, 0) + 1
    else:
        vals = two_player_values(eng)
        counts = {**vals.counts(), None: vals.draws.count()}
        counts = {k: n for k, n in counts.items() if n}
    return _digest(sorted(counts.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))


def _nimbers(eng, model, column) -> int:
    """A hash of {nimber: count} (layered on BDDs, the mex rule on the explicit engine)."""
    from symbolic.analysis.grundy import layered_nimbers, mex_nimbers

    if column == "explicit":
        counts: dict = {}
        for v in mex_nimbers(eng).values():
            counts[v] = counts.get(v, 0) + 1
    else:
        counts = layered_nimbers(eng).counts()
    return _digest(sorted(counts.items()))


def _strategy(eng, model, column) -> int:
    """The number of moves of player 1's rank-lowering strategy for F({1})."""
    from symbolic.analysis.strategy import strategy_for

    return strategy_for(eng, model.formula("F({1})"), model.definitions).relation.count()


def _digest(obj) -> int:
    import hashlib

    return int(hashlib.sha256(json.dumps(obj).encode()).hexdigest()[:8], 16)


def _gdl(column: str, file: str) -> dict:
    """The forced table of a GDL file (``symbolic gdl``), as a hash of its JSON."""
    from symbolic.engines import make_engine
    from symbolic.gdl.solve import forced_values
    from symbolic.model import load_model

    t0 = time.perf_counter()
    model = load_model(MODELS / "gdl" / file)
    t1 = time.perf_counter()
    eng = (
        make_engine(model.game, "explicit")
        if column == "explicit"
        else make_engine(model.game, "symbolic", column)
    )
    t2 = time.perf_counter()
    table = forced_values(model, eng)
    t3 = time.perf_counter()
    return {
        "t_load": t1 - t0,
        "t_build": t2 - t1,
        "t_fix": t3 - t2,
        "iterations": None,
        "peak_nodes": _peak_nodes(eng),
        "positions": eng.positions().count(),
        "count": _digest(table),
    }


#: the queries of bench/run.py that are analyses, not ATL formulas
ANALYSES = {"@values": _values, "@nimbers": _nimbers, "@strategy": _strategy}


def _peer_case(family: str, column: str, params: dict) -> dict:
    """The result of the hand-written (``hand``) or omega peer of ``family``."""
    sys.path.insert(0, str(HERE))
    import peers

    if family.startswith("ens-F"):
        J = (1,) if family == "ens-F1" else (1, 2)
        fn = peers.hand_ens if column == "hand" else peers.omega_ens
        r = fn(params["N"], params["n"], params["K"], params["r"], params["u0"], J)
    elif family == "nim":
        fn = peers.hand_nim if column == "hand" else peers.omega_nim
        r = fn(params["n"], params["K"])
    elif family == "subtraction":
        r = peers.hand_subtraction(params["K"])
    elif family == "connect4-table":
        r = peers.relational_connect4(params["w"], params["h"], params.get("a", 4))
        r["table_digest"] = _digest(r.pop("layers"))
    elif family == "connect4-compact-table":
        import peers_compact

        r = peers_compact.compact_connect4(params["w"], params["h"], params.get("a", 4))
        r["table_digest"] = _digest(r.pop("layers"))
    elif family.startswith("connect4"):
        r = peers.hand_connect4(params["w"], params["h"], params.get("a", 4))
    else:
        raise SystemExit(f"no {column} peer for {family}")
    return r


def run_case(family: str, column: str, params: dict) -> dict:
    """Run one case in this process and return its measurements."""
    fam = FAMILIES[family]
    t_start = time.perf_counter()
    out: dict = {"family": family, "column": column, "params": params}
    if column in ("hand", "omega"):
        out.update(_peer_case(family, column, params), t_load=0.0)
        out["positions"] = None
    elif fam["query"] == "@gdl":
        out.update(_gdl(column, params["file"]))
    elif fam["query"] == "@sheet":
        from symbolic.seeds.ens2005 import answer_sheet

        engine = "explicit" if column == "explicit" else "symbolic"
        t0 = time.perf_counter()
        sheet = answer_sheet(
            params["u0"], engine=engine, backend="cudd" if column == "explicit" else column
        )
        text = json.dumps(sheet, sort_keys=True)
        import hashlib

        out.update(
            t_load=0.0,
            t_build=0.0,
            t_fix=time.perf_counter() - t0,
            iterations=None,
            peak_nodes=None,
            positions=None,
            count=int(hashlib.sha256(text.encode()).hexdigest()[:8], 16),
        )
    else:
        from symbolic import atl
        from symbolic.engines import make_engine
        from symbolic.model import load_model

        t0 = time.perf_counter()
        model = load_model(MODELS / fam["model"], params)
        t1 = time.perf_counter()
        if column == "explicit":
            eng = make_engine(model.game, "explicit")
        else:  # the work announced as `symbolic check` / `values --by-layer` do
            from symbolic.limits import Limits

            lim = Limits()
            lim.expect_work("layers" if fam["query"] in ("@connect4", "@table") else "fixpoints")
            eng = make_engine(model.game, "symbolic", column, limits=lim)
        t2 = time.perf_counter()
        its: list = []
        _count_fixpoints(eng, its)
        ev = atl.Evaluator(eng, model.definitions)
        layered_its = None
        if fam["query"] in ("@connect4", "@connect4-plain"):
            c4 = _connect4(eng, model, ev, layered=fam["query"] == "@connect4")
            layered_its = c4.pop("iterations")
            out.update(c4)
        elif fam["query"] == "@table":
            from symbolic.analysis.layered import layer_outcomes

            table = layer_outcomes(model.definitions, eng)
            rows = table.rows
            out.update(
                count=table.total,
                table_digest=_digest([list(r) for r in rows]),
                winner="1" if rows[0][1] else "draw" if rows[0][2] else "2",
            )
        elif fam["query"] in ANALYSES:
            out["count"] = ANALYSES[fam["query"]](eng, model, column)
        else:
            out["count"] = ev(model.formula(fam["query"])).count()
        t4 = time.perf_counter()
        out.update(
            t_load=t1 - t0,
            t_build=t2 - t1,
            t_fix=t4 - t2,
            iterations=layered_its if layered_its is not None else sum(its),
            peak_nodes=_peak_nodes(eng),
            positions=eng.positions().count(),
        )
        if column == "cudd":
            out["layout"] = f"{eng.encoder.bit_order}:" + ",".join(
                eng.space.slots[i].label for i in eng.encoder.slot_order
            )
    out["t_inside"] = time.perf_counter() - t_start
    out["rss_mb"] = _rss_mb()
    return out


# ---------------------------------------------------------------- driver


def spawn(family: str, column: str, params: dict, timeout: float) -> dict:
    """Run one case in a fresh interpreter; wall time includes start-up and imports."""
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--case",
        family,
        column,
        json.dumps(params),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    import resource

    t0 = time.perf_counter()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(ROOT)
        )
    except subprocess.TimeoutExpired:
        return {
            "family": family,
            "column": column,
            "params": params,
            "status": "timeout",
            "total": time.perf_counter() - t0,
            "cpu": None,
        }
    total = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    if p.returncode != 0:
        err = (p.stderr.strip().splitlines() or ["?"])[-1]
        return {
            "family": family,
            "column": column,
            "params": params,
            "status": "error",
            "error": err[:200],
            "total": total,
            "cpu": cpu,
        }
    r = json.loads(p.stdout.strip().splitlines()[-1])
    r.update(status="ok", total=total, cpu=cpu)
    return r


def label(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "-"


def fmt_s(x) -> str:
    return "–" if x is None else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_n(x) -> str:
    if x is None:
        return "–"
    return f"{x:,}".replace(",", " ") if x < 10**12 else f"{x:.3e}"


def table(family: str, rows: list[list[dict]], columns) -> str:
    """One Markdown table per family: a line per (instance, column), then ratios."""
    lines = [
        f"### {family}",
        "",
        "| instance | column | status | positions | result | load s | build s | fix s "
        "| wall s | CPU s | iterations | peak nodes | RSS MB | CPU / cudd CPU |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for cases in rows:
        ok = [c for c in cases if c["status"] == "ok"]
        counts = {c["count"] for c in ok}
        winners = {c.get("winner") for c in ok}
        tables = {c.get("table_digest") for c in ok}
        agree = len(counts) <= 1 and len(winners) <= 1 and len(tables) <= 1
        base = next((c["cpu"] for c in ok if c["column"] == "cudd"), None)
        for c in cases:
            st = c["status"] if c["status"] != "ok" else ("ok" if agree else "MISMATCH")
            if c["status"] == "skipped":
                continue
            res = fmt_n(c.get("count")) if c["status"] == "ok" else c.get("error", "")[:60]
            if c.get("winner"):
                res += f" (winner {c['winner']})"
            ratio = f"{c['cpu'] / base:.2f}×" if base and c["status"] == "ok" else "–"
            lines.append(
                f"| {label(c['params'])} | {c['column']} | {st} | {fmt_n(c.get('positions'))} "
                f"| {res} | {fmt_s(c.get('t_load'))} | {fmt_s(c.get('t_build'))} "
                f"| {fmt_s(c.get('t_fix'))} | {fmt_s(c.get('total'))} | {fmt_s(c.get('cpu'))} "
                f"| {fmt_n(c.get('iterations'))} | {fmt_n(c.get('peak_nodes'))} "
                f"| {fmt_s(c.get('rss_mb'))} | {ratio} |"
            )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--family",
        action="append",
        choices=sorted(FAMILIES),
        help="run only this family (repeatable; default: all)",
    )
    ap.add_argument(
        "--column",
        action="append",
        choices=COLUMNS,
        help="run only this column (repeatable; default: the family's)",
    )
    ap.add_argument("--quick", action="store_true", help="the small instances only")
    ap.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="CPU seconds per case (default 60): a column past it on an instance "
        "is skipped on the larger ones",
    )
    ap.add_argument(
        "--wall-factor",
        type=float,
        default=3.0,
        help="a case is killed after timeout × this many wall-clock seconds "
        "(default 3: room for other jobs on a shared machine)",
    )
    ap.add_argument("--max-instances", type=int, default=None, help="at most this many per family")
    ap.add_argument(
        "--out", type=Path, default=HERE / "results", help="directory of the JSON results"
    )
    ap.add_argument(
        "--case", nargs=3, metavar=("FAMILY", "COLUMN", "PARAMS"), help=argparse.SUPPRESS
    )
    args = ap.parse_args(argv)
    if args.case:
        family, column, params = args.case
        print(json.dumps(run_case(family, column, json.loads(params))))
        return 0
    families = args.family or list(FAMILIES)
    results, text = [], []
    for family in families:
        fam = FAMILIES[family]
        columns = [c for c in fam["columns"] if not args.column or c in args.column]
        instances = fam["quick"] if args.quick else fam["instances"]
        instances = instances[: args.max_instances] if args.max_instances else instances
        out_of_reach: set = set()
        rows = []
        for params in instances:
            cases = []
            for column in columns:
                if column in out_of_reach:
                    cases.append(
                        {"family": family, "column": column, "params": params, "status": "skipped"}
                    )
                    continue
                print(
                    f"[{family}] {label(params)} {column} ...", end=" ", file=sys.stderr, flush=True
                )
                c = spawn(family, column, params, args.timeout * args.wall_factor)
                print(
                    f"{c['status']} {c['total']:.2f} s wall"
                    + (f" count {c['count']}" if c["status"] == "ok" else f" {c.get('error', '')}"),
                    file=sys.stderr,
                    flush=True,
                )
                if c["status"] != "ok" or c["cpu"] > args.timeout:
                    out_of_reach.add(column)
                cases.append(c)
                results.append(c)
            rows.append(cases)
        t = table(family, rows, columns)
        text.append(t)
        print(t, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H%M%S")
    doc = {"date": stamp, "argv": sys.argv[1:], "machine": machine(), "results": results}
    path = args.out / f"{stamp}{'-quick' if args.quick else ''}.json"
    path.write_text(json.dumps(doc, indent=1))
    print(
        f"results: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", file=sys.stderr
    )
    bad = [c for c in results if c["status"] == "ok"] and any(
        "MISMATCH" in line for line in "\n".join(text).splitlines()
    )
    return 1 if bad else 0


def machine() -> dict:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import dd

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "dd": dd.__version__,
        "system": platform.platform(),
    }


if __name__ == "__main__":
    sys.exit(main())
