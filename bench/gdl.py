"""GDL descriptions, measured side by side (``python bench/gdl.py [--quick]``).

Three tables, CPU seconds (``time.process_time``) of the engines only (loading the
file excluded), every pair of answers compared (``MISMATCH`` otherwise, exit 1):

- **whole games**: the reachable states and the forced table of ``symbolic gdl``
  (:func:`symbolic.gdl.solve.forced_values`) on the symbolic engine (cudd) and on
  the explicit one, and their ratio;
- **3pttc from its first N moves**: exploring and bounding the forced table
  (``symbolic gdl models/gdl/3pttc.kif --depth N``), symbolic, and explicit where it
  is quick;
- **lever: layer-local sources**: the forced table of 3pttc from its first N moves
  with the moves' sources restricted to each layer (the engine's path,
  ``GdlSymbolicGame.layer_pre``) against the generic path, whose pre-images take
  their sources over every layer (``GameEngine.layer_pre``, the base class's, bound
  to the engine in place of its own); each on a fresh engine,
  so that no BDD cache is shared, the moves' construction included;
- **explicit engine against a plain interpreter** (issue 23; alone with ``--plain``): the
  whole answer of ``symbolic gdl FILE --engine explicit`` (reachable states, dead ends,
  forced table) by the explicit GDL engine and by ``bench/gdl_plain.py``, a plain
  interpreter of the same ground rules (states as frozensets of fluents, atoms evaluated
  top-down with a memo per state, the graph as dicts, a counter-based attractor), each in a
  fresh process capped at 300 s of CPU: CPU seconds and KB (peak resident growth over the
  loaded model) per state, and their ratios (engine / plain: at most 2 is issue 23's target);
- **over an inductive invariant**: the forced table solved over the inferred invariant
  (``GdlSymbolicGame(game, domain="invariant")``, inference included) against over the
  reachable states, whole small games; then 3pttc's inference and two entries the
  bounds of 10 moves leave open (``--invariant``), each within a budget.
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symbolic.api import GameEngine  # noqa: E402
from symbolic.engines import make_engine  # noqa: E402
from symbolic.gdl.solve import forced_values, refine_by_invariant  # noqa: E402
from symbolic.gdl.symbolic import GdlSymbolicGame  # noqa: E402
from symbolic.model import load_model  # noqa: E402

GDL = ROOT / "symbolic" / "models" / "gdl"
#: the files of the engine against the plain interpreter: nim4.kif is issue 23's case
#: (four heaps, 139 248 states), written for this bench on the model of nim1.kif
PLAIN_FILES = [
    GDL / "nim1.kif",
    GDL / "ticTacToe.kif",
    GDL / "chomp.kif",
    ROOT / "bench" / "gdl" / "nim4.kif",
    GDL / "connectFour.kif",
]


def timed(fn):
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def solve(model, kind, depth=None):
    """(reachable states, forced table, CPU s) of one engine."""

    def run():
        eng = make_engine(model.game, kind, depth=depth)
        return len(eng.positions()), forced_values(model, eng)

    (n, table), t = timed(run)
    return n, table, t


def whole_games(names, failures):
    print("### whole games (symbolic gdl FILE --engine both)\n")
    print("| file | reachable | symbolic s | explicit s | explicit / symbolic |")
    print("| --- | --- | --- | --- | --- |")
    for name in names:
        m = load_model(GDL / name)
        n_s, t_s, s_s = solve(m, "symbolic")
        n_e, t_e, s_e = solve(m, "explicit")
        same = n_s == n_e and t_s == t_e
        if not same:
            failures.append(name)
        print(
            f"| {name} | {n_s} | {s_s:.2f} | {s_e:.2f} | {s_e / s_s:.1f}x"
            f"{'' if same else ' MISMATCH'} |"
        )
    print()


def bounded(depths, explicit_up_to, failures):
    print("### 3pttc.kif from its first N moves (symbolic gdl --depth N)\n")
    print("| N | states within N | decided entries | symbolic s | explicit s |")
    print("| --- | --- | --- | --- | --- |")
    m = load_model(GDL / "3pttc.kif")
    for n in depths:
        count, table, s_s = solve(m, "symbolic", n)
        decided = sum(f["decided"] for f in table)
        cell = "-"
        if n <= explicit_up_to:
            count_e, table_e, s_e = solve(m, "explicit", n)
            cell = f"{s_e:.2f}"
            if (count_e, table_e) != (count, table):
                failures.append(f"3pttc depth {n}")
                cell += " MISMATCH"
        print(f"| {n} | {count} | {decided} of {len(table)} | {s_s:.2f} | {cell} |")
    print()


def lever(depths, failures):
    print("### lever: layer-local sources (the forced table of 3pttc from N moves)\n")
    print("| N | layer-local s | every layer s | ratio |")
    print("| --- | --- | --- | --- |")
    m = load_model(GDL / "3pttc.kif")
    for n in depths:
        runs = {}
        for path in ("local", "generic"):
            eng = make_engine(m.game, "symbolic", depth=n)  # fresh: no cache shared
            if path == "generic":  # GameEngine's own: pre∃ / pre∀ over every layer
                eng.layer_pre = types.MethodType(GameEngine.layer_pre, eng)
            runs[path] = timed(lambda: forced_values(m, eng))
        (local, t_local), (generic, t_generic) = runs["local"], runs["generic"]
        same = local == generic
        if not same:
            failures.append(f"lever depth {n}")
        print(
            f"| {n} | {t_local:.2f} | {t_generic:.2f} | {t_generic / max(t_local, 1e-9):.1f}x"
            f"{'' if same else ' MISMATCH'} |"
        )
    print()


def over_invariant(names, entries, failures):
    print("### over an inductive invariant (GdlSymbolicGame(game, domain='invariant'))\n")
    print(
        "| file | states of D | counter | invariant s (inference + table) | reachable s "
        "| invariant / reachable |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name in names:
        m = load_model(GDL / name)
        _, want, s_r = solve(m, "symbolic")

        def over_d():
            eng = GdlSymbolicGame(m.game, domain="invariant")
            return eng, forced_values(m, eng)

        (eng, got), s_i = timed(over_d)
        same = got == want
        if not same:
            failures.append(f"invariant {name}")
        counter = "-" if eng.inductive.counter is None else len(eng.inductive.counter)
        print(
            f"| {name} | {eng.positions().count()} | {counter} | {s_i:.2f} | {s_r:.2f} "
            f"| {s_i / max(s_r, 1e-9):.1f}x{'' if same else ' MISMATCH'} |"
        )
    print()
    if not entries:
        return
    m = load_model(GDL / "3pttc.kif")
    eng, t = timed(lambda: GdlSymbolicGame(m.game, domain="invariant"))
    inv = eng.inductive
    print(
        f"3pttc.kif: invariant inferred in {t:.1f} s ({inv.rounds} Houdini rounds, "
        f"{len(inv.kept)} candidates kept, {len(inv.fixed)} simulated steps, "
        f"{eng.manager.size(eng.positions().node)} BDD nodes)\n"
    )
    print("| entry (from 10 moves' bounds) | result | s |")
    print("| --- | --- | --- |")
    bounds = forced_values(m, make_engine(m.game, "symbolic", depth=10))
    for coalition, role, budget in entries:
        entry = next(f for f in bounds if f["coalition"] == coalition and f["role"] == role)
        (out,), t = timed(lambda: refine_by_invariant(m, [entry], eng, budget))
        print(
            f"| {{{', '.join(coalition)}}} for {role} | {out['lower']}..{out['upper']} "
            f"({out['by']}, budget {budget} s) | {t:.1f} |"
        )
    print()


def measure(path: str, which: str) -> dict:
    """One side of :func:`engine_vs_plain`, in this process: load ``path``, then solve it
    with the explicit GDL engine (``which == "engine"``: what ``symbolic gdl FILE --engine
    explicit`` computes) or with the plain interpreter (``bench/gdl_plain.py``)."""
    import resource

    model = load_model(path)
    prog = model.game.program
    rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # noqa: E731
    before = rss()
    if which == "engine":
        from symbolic.gdl.solve import dead_ends

        def run():
            eng = make_engine(model.game, "explicit")
            n, dead = eng.layers, dead_ends(model, eng)
            table = [
                {k: f[k] for k in ("coalition", "role", "value")} for f in forced_values(model, eng)
            ]
            return sum(n), len(dead), table
    else:
        sys.path.insert(0, str(ROOT / "bench"))
        from gdl_plain import solve as plain_solve

        run = lambda: plain_solve(prog)  # noqa: E731
    (n, dead, table), t = timed(run)
    return {
        "states": n,
        "dead": dead,
        "table": table,
        "seconds": t,
        "mb": rss() - before,
        "peak_mb": rss(),
    }


def _measured(path, which, cap: float) -> dict | None:
    """:func:`measure` in a fresh process (None past ``cap`` CPU seconds)."""
    import json
    import resource
    import subprocess

    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 5))

    p = subprocess.run(
        [sys.executable, __file__, "--measure", which, str(path)],
        capture_output=True,
        text=True,
        preexec_fn=limit,
    )
    if p.returncode != 0:
        return None
    return json.loads(p.stdout)


def engine_vs_plain(paths, failures, cap: float = 300):
    """The explicit GDL engine against a plain interpreter: the whole answer of
    ``symbolic gdl`` (reachable states, dead ends, forced table), per state."""
    print("### explicit GDL engine against a plain interpreter (the whole forced table)\n")
    print(
        "| file | states | engine s | plain s | engine ms/state | plain ms/state | s ratio "
        "| engine KB/state | plain KB/state | KB ratio | engine peak MB | plain peak MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        e, p = _measured(path, "engine", cap), _measured(path, "plain", cap)
        if e is None:
            failures.append(f"engine on {path.name} (over {cap:g} s or failed)")
            continue
        n = e["states"]
        row = [path.name, str(n), f"{e['seconds']:.2f}"]
        if p is None:
            row += [
                f"> {cap:g}",
                f"{1000 * e['seconds'] / n:.3f}",
                f"> {1000 * cap / n:.1f}",
                "-",
                f"{1024 * e['mb'] / n:.2f}",
                "-",
                "-",
                f"{e['peak_mb']:.0f}",
                "-",
            ]
        else:
            if (p["states"], p["dead"], p["table"]) != (n, e["dead"], e["table"]):
                failures.append(f"engine vs plain {path.name}")
                row[1] += " MISMATCH"
            row += [
                f"{p['seconds']:.2f}",
                f"{1000 * e['seconds'] / n:.3f}",
                f"{1000 * p['seconds'] / n:.3f}",
                f"{e['seconds'] / p['seconds']:.2f}",
                f"{1024 * e['mb'] / n:.2f}",
                f"{1024 * p['mb'] / n:.2f}",
                f"{e['mb'] / max(p['mb'], 1e-9):.2f}",
                f"{e['peak_mb']:.0f}",
                f"{p['peak_mb']:.0f}",
            ]
        print("| " + " | ".join(row) + " |", flush=True)
    print()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small cases only (a smoke run)")
    ap.add_argument(
        "--plain",
        action="store_true",
        help="only the explicit engine against the plain interpreter",
    )
    ap.add_argument("--measure", nargs=2, metavar=("WHICH", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.measure:
        import json

        print(json.dumps(measure(args.measure[1], args.measure[0])))
        return 0
    failures: list = []
    if args.plain:
        engine_vs_plain(PLAIN_FILES, failures)
    elif args.quick:
        whole_games(["nim1.kif", "ticTacToe.kif"], failures)
        engine_vs_plain([GDL / "nim1.kif"], failures)
        bounded([4], 4, failures)
        lever([6], failures)
        over_invariant(["nim1.kif", "ticTacToe.kif"], [], failures)
    else:
        whole_games(["nim1.kif", "ticTacToe.kif", "chomp.kif"], failures)
        engine_vs_plain(PLAIN_FILES, failures)
        bounded([4, 6, 8, 10, 12], 6, failures)
        lever([8, 10, 11], failures)
        over_invariant(
            ["nim1.kif", "ticTacToe.kif"],  # chomp: > 3 min over D (no counter)
            [(["red", "yellow"], "blue", 120), (["yellow"], "red", 60)],
            failures,
        )
    if failures:
        print("MISMATCH in: " + ", ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
