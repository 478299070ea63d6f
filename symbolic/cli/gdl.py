"""``symbolic gdl``: a GDL game's roles, reachable states and forced goal values."""
from __future__ import annotations

import json
import sys
import time

from ..engines import ENGINES, make_engine
from ..errors import ModelError
from ..gdl.ground import term_text
from ..gdl.solve import dead_ends, forced_values
from ..gdl.symbolic import reachable_layers
from .common import load, model_args


def cmd_gdl(args) -> int:
    model = load(args)
    prog = getattr(model.game, "program", None)
    if prog is None:
        raise ModelError(f"{args.model}: not a GDL game description (.kif)")
    if args.depth is not None:
        return _layers(model, args)
    kinds = ["symbolic", "explicit"] if args.engine == "both" else [args.engine]
    results, times = {}, {}
    for kind in kinds:
        t0 = time.perf_counter()
        eng = make_engine(model.game, kind, args.backend, order=args.order,
                          partition=args.partition)
        reachable = len(eng.positions())
        stuck = dead_ends(model, eng)
        results[kind] = (reachable, forced_values(model, eng), len(stuck), stuck.first())
        times[kind] = time.perf_counter() - t0
    reachable, forced, n_stuck, stuck_at = results[kinds[0]]
    status = 0
    if args.engine == "both" and results["symbolic"] != results["explicit"]:
        print("MISMATCH between the symbolic and explicit engines:\n"
              f"  symbolic {results['symbolic']}\n  explicit {results['explicit']}",
              file=sys.stderr)
        status = 1
    if args.json:
        print(json.dumps({"roles": list(prog.roles), "reachable": reachable,
                          "dead_ends": n_stuck, "forced": forced}))
        return status
    print(f"{model.name}: roles {', '.join(prog.roles)}")
    print(f"fluents: {len(prog.fluents)}; reachable states: {reachable}")
    if n_stuck:
        state = " ".join(term_text(f) for f, v in zip(prog.fluents, stuck_at) if v)
        print(f"dead ends: {n_stuck} reachable non-terminal states where a role has no legal "
              f"move (no joint move: no successor), e.g. {{{state}}}")
    print("engine: " + ", ".join(f"{k} {t:.2f} s" for k, t in times.items()))
    print("best goal value each coalition C forces for each role r:")
    print("  max V with initial |= <<C>> (not terminal) U (terminal and goal(r, V') for "
          "some V' >= V)")
    width = max(len("{" + ", ".join(f["coalition"]) + "}") for f in forced)
    for f in forced:
        c = "{" + ", ".join(f["coalition"]) + "}"
        v = "none" if f["value"] is None else f["value"]
        print(f"  {c:<{width}}  {f['role']:<10} {v}")
    if args.engine == "both" and status == 0:
        print("symbolic and explicit agree")
    return status


def _layers(model, args) -> int:
    """``--depth N``: the states reachable in at most 0..N moves, without solving."""
    t0 = time.perf_counter()

    def show(depth: int, n: int, nodes: int) -> None:
        if not args.json:
            print(f"  states reachable in at most {depth} moves: {n} ({nodes} BDD nodes, "
                  f"{time.perf_counter() - t0:.1f} s)", flush=True)

    if not args.json:
        print(f"{model.name}: roles {', '.join(model.game.program.roles)}", flush=True)
    sizes, complete = reachable_layers(model.game, args.depth, args.backend, order=args.order,
                                       on_layer=show)
    elapsed = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"roles": list(model.game.program.roles), "layers": sizes,
                          "complete": complete}))
        return 0
    print("all reachable states found" if complete else
          f"not all: more states after {len(sizes) - 1} moves (raise --depth)")
    print(f"symbolic {elapsed:.2f} s")
    return 0


def register(sub) -> None:
    g = sub.add_parser("gdl", help="a GDL game (.kif): roles, reachable states, who wins",
                       description="Load a GDL game description and print its roles, the "
                                   "number of states reachable from init, and for each "
                                   "coalition of roles and each role the best goal value the "
                                   "coalition can force from the initial state.")
    model_args(g)
    g.add_argument("--engine", choices=ENGINES + ("both",), default="symbolic",
                   help="symbolic (BDDs), explicit (the ground rules on each state) or both "
                        "(cross-check; exit 1 on any difference)")
    g.add_argument("--depth", type=int, metavar="N",
                   help="only count the states reachable in at most 0, 1, ..., N moves "
                        "(symbolic engine; for games too large to solve)")
    g.add_argument("--json", action="store_true",
                   help="print one JSON document with keys roles, reachable, dead_ends, "
                        "forced")
    g.set_defaults(func=cmd_gdl)
