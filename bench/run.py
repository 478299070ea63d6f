"""Benchmarks: symbolic (cudd, autoref) against explicit, side by side, as ratios.

Each row builds the engines for one game and evaluates one query; the table
prints wall-clock seconds (construction included) and the ratios
explicit/cudd and autoref/cudd. Run with ``make bench`` or
``python bench/run.py [--quick]``. Engines slower than ``--timeout`` seconds on a
smaller row are skipped on larger rows of the same family.
"""
from __future__ import annotations

import argparse
import time

from symbolic import atl
from symbolic.bdd import SymbolicGame
from symbolic.explicit import ExplicitGame
from symbolic.games import nim_ens, subtraction
from symbolic.ir import (Const, Elem, Game, IntType, Move, Name, Param, Space, Var, VarDecl,
                         conj)


def subtraction_heaps(n: int, bits: int) -> Game:
    """n heaps of at most 2^bits − 1, two players, take 1..3 from one heap."""
    K = 2 ** bits - 1
    space = Space((VarDecl("j", IntType(1, 2)), VarDecl("h", IntType(0, K), IntType(1, n))))
    i, t = Name("i"), Name("t")
    mv = Move("take", (Param("i", tuple(range(1, n + 1))), Param("t", (1, 2, 3))),
              Elem("h", i) >= t,
              conj([Elem("h", i, primed=True).eq(Elem("h", i) - t),
                    Var("j", primed=True).eq(Const(3) - Var("j"))]))
    return Game(f"subtraction {n}x{bits}b", space, (1, 2), Var("j"), (mv,))


def win_formula(p: int, players=(1, 2)) -> atl.Formula:
    me = atl.CoalitionLit((p,))
    others = atl.CoalitionOp("\\", atl.AllPlayers(), me)
    return atl.Eventually(me, atl.BoolOp("and", atl.Turn(others), atl.Next(me, atl.Truth(False))))


def ens_F1() -> atl.Formula:
    one = atl.CoalitionLit((1,))
    lose = atl.BoolOp("and", atl.Turn(atl.CoalitionOp("\\", atl.AllPlayers(), one)),
                      atl.Next(one, atl.Truth(False)))
    return atl.Until(one, atl.Next(atl.AllPlayers(), atl.Truth(True)), lose)


def timed(make, formula):
    t0 = time.perf_counter()
    e = make()
    r = atl.evaluate(e, formula)
    return time.perf_counter() - t0, len(r)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small rows only")
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args()
    rows = [("ENS Nim(3,2,20,3)", lambda: nim_ens(3, 2, 20, 3, 0), ens_F1()),
            ("ENS Nim(3,3,20,6)", lambda: nim_ens(3, 3, 20, 6, 0), ens_F1()),
            ("subtraction K=1000", lambda: subtraction(1000), win_formula(1)),
            ("subtraction 3 heaps x 4 bits", lambda: subtraction_heaps(3, 4), win_formula(1)),
            ("subtraction 4 heaps x 5 bits", lambda: subtraction_heaps(4, 5), win_formula(1))]
    if not args.quick:
        rows += [("ENS Nim(3,4,20,6)", lambda: nim_ens(3, 4, 20, 6, 0), ens_F1()),
                 ("subtraction 5 heaps x 5 bits", lambda: subtraction_heaps(5, 5), win_formula(1)),
                 ("subtraction 6 heaps x 6 bits", lambda: subtraction_heaps(6, 6), win_formula(1))]
    slow: set = set()
    print(f"{'game':32} {'positions':>12} {'|result|':>10} {'cudd s':>8} {'autoref s':>10} "
          f"{'explicit s':>11} {'autoref/cudd':>13} {'explicit/cudd':>14}")
    for name, build, f in rows:
        g = build()
        times, size = {}, None
        for kind, make in (("cudd", lambda: SymbolicGame(g, backend="cudd")),
                           ("autoref", lambda: SymbolicGame(g, backend="autoref")),
                           ("explicit", lambda: ExplicitGame(g))):
            if kind in slow:
                continue
            t, n = timed(make, f)
            times[kind] = t
            if size is not None and n != size:
                raise SystemExit(f"{name}: {kind} found {n} positions, expected {size}")
            size = n
            if t > args.timeout:
                slow.add(kind)
        npos = len(SymbolicGame(g).positions())

        def cell(k):
            return f"{times[k]:.3f}" if k in times else "skipped"

        def ratio(k):
            return f"{times[k] / times['cudd']:.1f}x" if k in times else "-"

        print(f"{name:32} {npos:>12} {size:>10} {cell('cudd'):>8} {cell('autoref'):>10} "
              f"{cell('explicit'):>11} {ratio('autoref'):>13} {ratio('explicit'):>14}", flush=True)


if __name__ == "__main__":
    main()
