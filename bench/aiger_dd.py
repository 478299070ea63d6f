"""The plain dd peer of issue 35: a SYNTCOMP AIGER safety game solved with ``dd.cudd`` alone.

``python bench/aiger_dd.py FILE.aag [--order latches-first|inputs-first] [--no-reorder]``
prints one JSON line: the answer (``REAL`` if the controller can keep the error
output at 0 forever from the initial latch values, else ``UNREAL``), the
iterations, CPU seconds (reading and solving apart) and CUDD's peak live nodes.

The method, the floor the project's engine is measured against: one BDD per
AND gate in the circuit's topological order (:mod:`symbolic.aiger` reads the
file), then the greatest fixpoint W = νZ. {x | ∀u ∃c : ¬err(x,u,c) ∧ next(x,u,c) ∈ Z}
computed with the next-state functions substituted into Z (CUDD's vector
compose, ``BDD.let``), the controllable inputs c quantified together with
the conjunction (``and_exists``), then the environment's inputs u
universally; it stops as soon as the initial state leaves Z (UNREAL) or Z is
stable (REAL iff the initial state is in W). Dynamic reordering (CUDD's
sifting, dd's default) stays on unless ``--no-reorder``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# dd's _utils imports networkx for its to_nx export only; held off (as the project's
# start-up does), it is a third of a tiny file's run
sys.modules["networkx"] = None  # type: ignore[assignment]
import dd.cudd as cudd  # noqa: E402

del sys.modules["networkx"]

from symbolic.aiger import read_aiger  # noqa: E402
from symbolic.errors import SymbolicError  # noqa: E402


def build(circuit, order: str = "latches-first", reorder: bool = True):
    """(bdd, latch names, controllable names, uncontrollable names, error, next map, init)."""
    bdd = cudd.BDD()
    bdd.configure(reordering=reorder)
    xs = [f"x{k}" for k in range(len(circuit.latches))]
    cs, us, ins = [], [], []
    for k, ctrl in enumerate(circuit.controllable):
        name = f"c{k}" if ctrl else f"u{k}"
        (cs if ctrl else us).append(name)
        ins.append(name)
    bdd.declare(*(xs + ins if order == "latches-first" else ins + xs))
    node = [None] * (circuit.maxvar + 1)
    node[0] = bdd.false
    for name, lit in zip(xs + ins, circuit.latches + circuit.inputs):
        node[lit >> 1] = bdd.var(name)

    def lit(x: int):
        return ~node[x >> 1] if x & 1 else node[x >> 1]

    for lhs, a, b in zip(circuit.and_lhs, circuit.and_rhs0, circuit.and_rhs1):
        node[lhs >> 1] = lit(a) & lit(b)
    error = lit(circuit.error)
    nexts = {x: lit(n) for x, n in zip(xs, circuit.next_state)}
    init = bdd.true
    for x, lhs, reset in zip(xs, circuit.latches, circuit.reset):
        if reset not in (0, 1):
            raise SystemExit(f"latch {lhs} has no reset value: not a SYNTCOMP safety game")
        init &= bdd.var(x) if reset else ~bdd.var(x)
    return bdd, xs, cs, us, error, nexts, init


def solve(circuit, order: str = "latches-first", reorder: bool = True) -> dict:
    """The answer on ``circuit`` and the fixpoint's iterations."""
    bdd, xs, cs, us, error, nexts, init = build(circuit, order, reorder)
    safe = ~error
    del error
    z, iterations = bdd.true, 0
    while True:
        iterations += 1
        moved = bdd.let(nexts, z) if nexts else z  # next(x, u, c) ∈ Z
        good = cudd.and_exists(moved, safe, cs) if cs else moved & safe
        new = bdd.forall(us, good) if us else good  # ∀u ∃c
        if (new & init) == bdd.false:
            answer = "UNREAL"
            break
        if new == z:
            answer = "REAL"
            break
        z = new
    with warnings.catch_warnings():  # dd's note on the unit of 'mem', unused here
        warnings.simplefilter("ignore")
        stats = bdd.statistics()
    return {
        "answer": answer,
        "iterations": iterations,
        "peak_live_nodes": stats["peak_live_nodes"],
        "latches": len(xs),
        "controllable": len(cs),
        "uncontrollable": len(us),
        "winning_nodes": len(z) if answer == "REAL" else None,
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--order", choices=["latches-first", "inputs-first"], default="latches-first")
    p.add_argument("--no-reorder", action="store_true")
    args = p.parse_args(argv)
    t0 = time.process_time()
    try:
        circuit = read_aiger(args.file)
    except SymbolicError as err:
        print(err, file=sys.stderr)
        return 2
    t1 = time.process_time()
    out = solve(circuit, args.order, not args.no_reorder)
    t2 = time.process_time()
    out.update(file=Path(args.file).name, read_s=round(t1 - t0, 3), solve_s=round(t2 - t1, 3))
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
