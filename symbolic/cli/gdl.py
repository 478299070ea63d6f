"""``symbolic gdl``: a GDL game's roles, reachable states and forced goal values."""

from __future__ import annotations

import itertools
import math
import sys
import time

from ..errors import ModelError, QueryError
from ..gdl.engine import GdlEngine
from ..gdl.explicit_rules import CompiledRules
from ..gdl.game import GdlGame
from ..gdl.ground import term_text
from ..gdl.solve import dead_ends, forced_values, refine_by_invariant
from ..gdl.symbolic import GdlSymbolicGame
from ..gdl.symbolic_concurrent import GdlSymbolicConcurrentGame
from ..gdl.turns import NotTurnBased
from ..gdl.solve_witness import search_best
from ..limits import current as current_limits
from .output import emit
from .common import (
    ENGINE_CHOICES,
    build_engine,
    engine_arg,
    engine_kinds,
    json_arg,
    load,
    model_args,
    tuning,
)

__all__ = ["cmd_gdl", "register"]


def cmd_gdl(args) -> int:
    model = load(args)
    if not isinstance(model.game, GdlGame):
        raise ModelError(f"{args.model}: not a GDL game description (.kif)")
    prog = model.game.program
    if args.search_best:
        return _search(model, args)
    kinds = engine_kinds(args.engine)
    bounded = args.depth is not None
    if args.invariant and not bounded:
        raise QueryError(
            "--invariant decides the entries that the bounds of --depth N leave "
            "open: give a depth too (--depth 0 explores nothing but init)"
        )
    if args.budget is not None and not args.invariant:
        raise QueryError("--budget is the time of each entry solved by --invariant")
    if args.budget is not None and not (args.budget > 0 and math.isfinite(args.budget)):
        raise QueryError(f"--budget must be a positive number of seconds, got {args.budget:g}")
    # the layers found are printed once every engine is done: a limit leaves stdout empty
    layer_lines = [f"{model.name}: roles {', '.join(prog.roles)}"] if bounded else []
    results, times = {}, {}
    lim = current_limits()
    for kind in kinds:
        t0 = time.perf_counter()
        eng = _engine(model, kind, args, t0, layer_lines)
        layers = list(itertools.accumulate(eng.layers))
        # named stages: a limit reached here names them (not a gap between two stages)
        with lim.stage(f"finding the dead ends ({kind})"):
            stuck = dead_ends(model, eng)
            first = stuck.first()
        with lim.stage(f"computing the forced goal values ({kind})"):
            forced_kind = forced_values(model, eng)
        results[kind] = (layers, eng.complete, forced_kind, len(stuck), first)
        concurrent = eng.concurrent
        times[kind] = time.perf_counter() - t0
    layers, complete, forced, n_stuck, stuck_at = results[kinds[0]]
    reachable = layers[-1]
    status = 0
    if args.engine == "both" and results["symbolic"] != results["explicit"]:
        print(
            "MISMATCH between the symbolic and explicit engines:\n"
            f"  symbolic {results['symbolic']}\n  explicit {results['explicit']}",
            file=sys.stderr,
        )
        status = 1
    if not bounded:  # the whole game: the bounds met
        forced = [{k: f[k] for k in ("coalition", "role", "value")} for f in forced]
    inv_doc = None
    if args.invariant and status == 0:
        forced, inv_doc = _refine(model, args, forced)
    if not args.json:
        for line in layer_lines:
            print(line)
    if args.json:
        doc = {
            "roles": list(prog.roles),
            "fluents": len(prog.fluents),
            "reachable": reachable,
            "dead_ends": n_stuck,
            "forced": forced,
        }
        if bounded:
            doc.update(depth=args.depth, layers=layers, complete=complete)
        elif args.stop_at_best:
            doc.update(depth=len(layers) - 1, layers=layers, complete=complete)
        if inv_doc is not None:
            doc["invariant"] = inv_doc
        if concurrent:
            doc["concurrent"] = True
        emit(args, doc, model)
        return status
    _print_text(model, args, results[kinds[0]], times, forced, inv_doc, concurrent)
    if args.engine == "both" and status == 0:
        print("symbolic and explicit agree")
    return status


#: how the text output names the orders of :data:`~symbolic.gdl.solve_witness.ORDERS`
ORDER_WORDS = {"rules": "moves in the rules' order", "fewest": "fewest onward moves first"}


def _search(model, args) -> int:
    """``--search-best``: a one-role game's value by a depth-first search for a play
    (:func:`~symbolic.gdl.solve_witness.search_best`), and the play."""
    given = [
        f
        for f, on in (
            ("--depth", args.depth is not None),
            ("--stop-at-best", args.stop_at_best),
            ("--invariant", args.invariant),
        )
        if on
    ]
    if given:
        raise QueryError(f"--search-best searches the game alone: drop {', '.join(given)}")
    prog = model.game.program
    t0 = time.perf_counter()
    found = search_best(CompiledRules(prog), current_limits())
    seconds = time.perf_counter() - t0
    role = prog.roles[0]
    forced = [{"coalition": [role], "role": role, "value": found.value}]
    play = [term_text(m) for m in found.moves]
    if args.json:
        args.engine = "explicit"  # the search walks the ground rules, state by state
        doc: dict = {"roles": list(prog.roles), "fluents": len(prog.fluents)}
        if found.complete:
            doc["reachable"] = found.states
        doc.update(
            searched=found.states,
            complete=found.complete,
            order=found.order,
            play=play,
            forced=forced,
        )
        emit(args, doc, model)
        return 0
    print(f"{model.name}: roles {role}")
    how = "every reachable state" if found.complete else "stopped at the best goal value"
    order = ORDER_WORDS[found.order]
    print(
        f"fluents: {len(prog.fluents)}; searched depth first, {order}: {found.states} "
        f"states ({how})"
    )
    if found.value is None:
        print("no terminal state is reachable")
    else:
        best = "its best goal value" if not found.complete else "the best of its terminal states"
        n = len(play)
        print(
            f"a play of {n} move{'' if n == 1 else 's'} ends in a terminal state where "
            f"{role} gets {found.value}, {best}:"
        )
        for k, move in enumerate(play, 1):
            print(f"  {k:>3}. {move}")
    print(f"engine: search {seconds:.2f} s")
    print("best goal value each coalition C forces for each role r:")
    print(f"  {{{role}}}  {role:<10} {_value(forced[0])}")
    return 0


def _print_text(
    model, args, result: tuple, times: dict, forced: list, inv_doc, concurrent: bool
) -> None:
    """The text output of ``symbolic gdl`` after the layers."""
    prog, bounded = model.game.program, args.depth is not None
    layers, complete, _, n_stuck, stuck_at = result
    reachable = layers[-1]
    if bounded:
        print(
            "all reachable states found"
            if complete
            else f"not all: more states after {len(layers) - 1} moves (raise --depth)"
        )
    else:
        print(f"{model.name}: roles {', '.join(prog.roles)}")
    print(
        f"fluents: {len(prog.fluents)}; {'' if complete else 'explored '}"
        f"reachable states: {reachable}"
    )
    if args.stop_at_best and not bounded and not complete:
        role, moves = prog.roles[0], len(layers) - 1
        print(
            f"  stopped after {moves} move{'' if moves == 1 else 's'}: a terminal state "
            f"there gives {role} its best goal value, {max(prog.goals[role])}; the states "
            "beyond are not needed"
        )
    if n_stuck:
        state = " ".join(term_text(f) for f, v in zip(prog.fluents, stuck_at) if v)
        print(
            f"dead ends: {n_stuck} reachable non-terminal states where a role has no legal "
            f"move (no joint move: no successor), e.g. {{{state}}}"
        )
    print("engine: " + ", ".join(f"{k} {t:.2f} s" for k, t in times.items()))
    if concurrent:
        print(
            "simultaneous moves (several roles choose at once in a reachable state): at "
            "each step C chooses its moves, then the others answer (concurrent pre-image)"
        )
    print("best goal value each coalition C forces for each role r:")
    print(
        "  max V with initial |= <<C>> (not terminal and not dead_end) U "
        "(terminal and goal(r, V') for some V' >= V)"
    )
    if not complete and bounded:  # (else --stop-at-best: every entry decided)
        print(
            f"  bounded from the first {len(layers) - 1} moves: L..U when undecided; L is "
            f"forced within them, U is what C could force if every state after them "
            f"counted as a win"
        )
    if inv_doc is not None:
        print(
            f"  then each open entry solved over an inductive invariant of "
            f"{inv_doc['states']} states ({inv_doc['nodes']} BDD nodes, "
            + (f"layered by {inv_doc['counter']}, " if inv_doc["counter"] else "")
            + f"found in {inv_doc['seconds']:.1f} s; "
            + (f"{inv_doc['budget']:g} s" if inv_doc["budget"] is not None else "no")
            + " budget per entry): marked 'invariant', or 'over budget'"
        )
    width = max(len("{" + ", ".join(f["coalition"]) + "}") for f in forced)
    for f in forced:
        c = "{" + ", ".join(f["coalition"]) + "}"
        by = f.get("by")
        mark = f"  ({by}, {f['seconds']:.1f} s)" if by in ("invariant", "over budget") else ""
        print(f"  {c:<{width}}  {f['role']:<10} {_value(f)}{mark}")


def _refine(model, args, forced: list) -> tuple[list, dict | None]:
    """The table with its open entries decided over an inductive invariant
    (:func:`~symbolic.gdl.solve.refine_by_invariant`), and what to say of it; the
    table as it is (every entry ``by`` the bounds) when none is open."""
    if all(f["decided"] for f in forced):
        return [dict(f, by="bounds") for f in forced], None
    t0 = time.perf_counter()
    eng = GdlSymbolicGame(
        model.game,
        backend=args.backend,
        order=args.order,
        partition=args.partition,
        limits=current_limits(),
        domain="invariant",
    )
    inv = eng.inductive
    assert inv is not None  # the invariant domain has one
    found = time.perf_counter() - t0
    counter = None
    if inv.counter is not None:
        counter = f"({term_text(inv.counter[0])} ... {term_text(inv.counter[-1])})"
    out = refine_by_invariant(model, forced, eng, args.budget)
    domain = eng.positions()
    doc = {
        "states": domain.count(),
        "nodes": eng.manager.size(domain.node),
        "kept": list(inv.kept),
        "fixed": list(inv.fixed),
        "counter": counter,
        "seconds": found,
        "budget": args.budget,
        "solve_seconds": time.perf_counter() - t0 - found,
    }
    return out, doc


def _value(f: dict) -> str:
    def show(v):
        return "none" if v is None else str(v)

    if f.get("decided", True):
        return show(f["value"])
    return f"{show(f['lower'])}..{show(f['upper'])}"


def _engine(model, kind: str, args, t0: float, lines: list) -> GdlEngine:
    """The engine of ``kind``; with ``--depth``, the symbolic one adds a line to ``lines``
    for each layer as it is found (text output only)."""
    if kind == "symbolic" and args.depth is not None and not args.json:

        def show(depth: int, n: int, nodes: int) -> None:
            lines.append(
                f"  states reachable in at most {depth} moves: {n} ({nodes} BDD "
                f"nodes, {time.perf_counter() - t0:.1f} s)"
            )

        kept = len(lines)
        try:
            return GdlSymbolicGame(
                model.game,
                backend=args.backend,
                order=args.order,
                partition=args.partition,
                limits=current_limits(),
                depth=args.depth,
                on_layer=show,
                stop_at_best=args.stop_at_best,
            )
        except NotTurnBased:  # several roles choose at once: the concurrent reading
            del lines[kept:]
            return GdlSymbolicConcurrentGame(
                model.game,
                backend=args.backend,
                order=args.order,
                limits=current_limits(),
                depth=args.depth,
                on_layer=show,
            )
    # the turn-based explicit GDL engine checks its size as it is made
    eng = build_engine(
        model.game,
        kind,
        **tuning(args),
        check=False,
        depth=args.depth,
        stop_at_best=args.stop_at_best,
    )
    assert isinstance(eng, GdlEngine)  # the engine of a GDL game
    return eng


def register(sub) -> None:
    g = sub.add_parser(
        "gdl",
        help="a GDL game (.kif): roles, reachable states, who wins",
        description="Load a GDL game description and print its roles, the "
        "number of states reachable from init, and for each "
        "coalition of roles and each role the best goal value the "
        "coalition can force from the initial state.",
    )
    model_args(g)
    engine_arg(
        g,
        ENGINE_CHOICES,
        help="symbolic (BDDs), explicit (the ground rules on each state: measured "
        "at 0.07 ms of CPU and 0.5 KB of memory a reachable state, edges "
        "included: 139 248 states of four-heap Nim in 10 s and 76 MB) or both (cross-check; exit 1 on any difference)",
    )
    g.add_argument(
        "--depth",
        type=int,
        metavar="N",
        help="keep only the states reachable in at most N moves: count them "
        "layer by layer and bound each forced value from them (for games "
        "too large to solve whole)",
    )
    g.add_argument(
        "--stop-at-best",
        action="store_true",
        help="a game of one role: explore only up to the first layer holding a "
        "terminal state of its best goal value (that value is then forced, and the "
        "states beyond are not counted: 'explored reachable states')",
    )
    g.add_argument(
        "--search-best",
        action="store_true",
        help="a game of one role: search depth first for a play that ends in a "
        "terminal state of its best goal value, and print it (the value is then "
        "forced); when every state is visited first, the best goal reached. It "
        "walks the ground rules state by state, as the explicit engine does. "
        "JSON: searched, complete, order, play (reachable when complete)",
    )
    g.add_argument(
        "--invariant",
        action="store_true",
        help="with --depth: solve each entry the bounds leave open over an "
        "inductive invariant of the game (inferred from the rules; it holds "
        "the reachable states, which are not needed): exact at init",
    )
    g.add_argument(
        "--budget",
        type=float,
        metavar="S",
        help="with --invariant: at most S seconds per entry (then it keeps its "
        "bounds, marked 'over budget')",
    )
    json_arg(
        g,
        help="print one JSON document with keys roles, fluents, reachable, dead_ends, "
        "forced (concurrent: true for a simultaneous-move game; with --depth: "
        "depth, layers, complete, and lower, upper, decided in each forced "
        "entry; with --stop-at-best: depth, layers, complete; with --invariant: "
        "by (and seconds) in each entry, and invariant)",
    )
    g.set_defaults(func=cmd_gdl)
