"""The ``symbolic`` command line: check, show and ens2005.

Errors a user can cause print ``FILE:LINE:COL: error: ...`` (or a plain
message) on stderr and exit with status 2; a disagreement between engines
under ``--engine both`` exits with status 1.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Sequence

from . import atl
from .api import GameEngine, PositionSet, difference_witness
from .engines import BACKENDS, ENGINES, ORDERS, PARTITIONS, make_engine
from .ens2005 import answer_sheet, format_sheet
from .errors import QueryError, SymbolicError
from .model import load_model, parse_formula

#: ``check --engine``: either engine, or both to cross-check them
CHECK_ENGINES = ENGINES + ("both",)


def parse_param(text: str) -> tuple[str, object]:
    """``NAME=VALUE``: the value stays text; the model reads it by the
    parameter's type (int, bool or string) and reports a mismatch in place."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise QueryError(f"-p expects NAME=VALUE, got {text!r}")
    return name, value


def _params(items: Sequence[str] | None) -> dict:
    out: dict = {}
    for it in items or ():
        k, v = parse_param(it)
        out[k] = v
    return out


def _load(args):
    return load_model(args.model, _params(args.param))


def _queries(model, texts):
    if texts:
        return [(t, parse_formula(t, model)) for t in texts]
    if not model.queries:
        raise QueryError(f"{model.source}: the model declares no query; pass --query TEXT")
    return [(q.text, q.formula) for q in model.queries]


def _evaluate_all(model, queries, engine: GameEngine) -> list[PositionSet]:
    ev = atl.Evaluator(engine, model.definitions)
    out = []
    for i, (text, f) in enumerate(queries, 1):
        if sys.stderr.isatty():
            print(f"[{engine.kind}] query {i}/{len(queries)}: {text}", file=sys.stderr)
        out.append(ev(f))
    return out


def _format_positions(space, ps: PositionSet, limit: int) -> list[str]:
    tuples = ps.tuples()
    shown = tuples if limit == 0 else tuples[:limit]
    labels = [s.label for s in space.slots]
    lines = ["    " + ", ".join(f"{l}={v}" for l, v in zip(labels, t)) for t in shown]
    if len(shown) < len(tuples):
        lines.append(f"    ... ({len(tuples) - len(shown)} more; --limit 0 shows all)")
    return lines


def cmd_check(args) -> int:
    model = _load(args)
    queries = _queries(model, args.query)
    kinds = ["symbolic", "explicit"] if args.engine == "both" else [args.engine]
    results = {}
    timings = {}
    engines = {}
    # the explicit engine is built first (lazily: no enumeration yet) so that a
    # space beyond its limit is refused before the symbolic engine runs
    for kind in sorted(kinds, key=lambda k: k != "explicit"):
        t0 = time.perf_counter()
        engines[kind] = eng = make_engine(model.game, kind, args.backend, order=args.order,
                                          partition=args.partition)
        if kind == "explicit":
            eng.check_size()
        timings[kind] = time.perf_counter() - t0
    for kind in kinds:
        t0 = time.perf_counter()
        results[kind] = _evaluate_all(model, queries, engines[kind])
        timings[kind] += time.perf_counter() - t0
    main = results[kinds[0]]
    status = 0
    mismatches = []
    if args.engine == "both":
        for (text, _), a, b in zip(queries, results["symbolic"], results["explicit"]):
            w = difference_witness(a, b)
            if w is not None:
                status = 1
                where = "symbolic" if w in a else "explicit"
                mismatches.append((text, w, where))
    if args.json:
        doc = {"model": model.name, "params": model.params, "engine": args.engine,
               "results": [{"query": text, "count": len(ps),
                            "positions": [list(t) for t in
                                          (ps.tuples() if args.limit == 0 else ps.tuples()[:args.limit])]}
                           for (text, _), ps in zip(queries, main)]}
        if args.engine == "both":
            doc["mismatches"] = [{"query": t, "position": list(w), "only_in": k}
                                 for t, w, k in mismatches]
        print(json.dumps(doc))
    else:
        params = ", ".join(f"{k}={v}" for k, v in model.params.items())
        print(f"{model.name}" + (f" [{params}]" if params else ""))
        print(f"engine: {args.engine}" + (f" ({args.backend})" if args.engine != "explicit" else "")
              + "; " + ", ".join(f"{k} {t:.2f} s" for k, t in timings.items()))
        for (text, _), ps in zip(queries, main):
            print(f"\n{text}\n  count: {len(ps)}")
            print("\n".join(_format_positions(model.game.space, ps, args.limit)))
        for text, w, where in mismatches:
            print(f"\nMISMATCH on {text}: position {w} is only in the {where} result",
                  file=sys.stderr)
        if args.engine == "both" and not mismatches:
            print(f"\nsymbolic and explicit agree on all {len(queries)} queries")
    return status


def cmd_show(args) -> int:
    model = _load(args)
    g = model.game
    print(f"game {model.name}")
    for line in model.description.strip().splitlines():
        print(f"  {line.strip()}")
    if model.params:
        print("params: " + ", ".join(f"{k} = {v}" for k, v in model.params.items()))
    print(f"players: {', '.join(map(str, g.players))}")
    print("variables:")
    for d in g.space.vars:
        rng = "bool" if d.type.__class__.__name__ == "BoolType" else f"{d.type.lo}..{d.type.hi}"
        if d.index is not None:
            rng = f"array[{d.index.lo}..{d.index.hi}] of {rng}"
        print(f"  {d.name} : {rng}")
    eng = make_engine(g, "symbolic", args.backend, order=args.order, partition=args.partition)
    print(f"positions: {len(eng.positions())} (of {g.space.size} value vectors)")
    print(f"dead ends: {len(eng.deadlocks())}")
    print("moves:")
    for m in g.moves:
        ps = ", ".join(f"{p.name} in {len(p.domain)} values" for p in m.params)
        print(f"  {m.name}({ps})")
    sets = [n for n, d in model.definitions.items() if isinstance(d.body, atl.Prop)]
    forms = [n for n in model.definitions if n not in sets]
    for title, names in (("sets", sets), ("formulas", forms)):
        if names:
            print(f"{title}:")
            for n in names:
                d = model.definitions[n]
                ps = f"({', '.join(p for p, _ in d.params)})" if d.params else ""
                print(f"  {n}{ps}")
    if model.queries:
        print("queries:")
        for q in model.queries:
            print(f"  {q.text}")
    return 0


def cmd_ens2005(args) -> int:
    sheet = answer_sheet(args.u0, engine=args.engine, backend=args.backend)
    print(json.dumps(sheet) if args.json else format_sheet(sheet))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="symbolic",
        description="Solve finite multi-player turn-based games and ATL queries with BDDs.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def model_args(sp):
        sp.add_argument("model", metavar="MODEL", help="a model file (see models/)")
        sp.add_argument("-p", "--param", action="append", metavar="NAME=VALUE",
                        help="override a parameter of the model (repeatable)")
        sp.add_argument("--backend", choices=BACKENDS, default="cudd",
                        help="BDD backend of the symbolic engine (default: cudd)")
        sp.add_argument("--order", choices=ORDERS, default="auto",
                        help="bit order of the symbolic engine: sliced (bits of equal "
                             "significance side by side), slots (variable after variable) or "
                             "auto (sliced unless many ranges are not powers of two)")
        sp.add_argument("--partition", choices=PARTITIONS, default="moves",
                        help="keep the transition relation as one BDD per move (default) "
                             "or as one monolithic BDD")

    c = sub.add_parser("check", help="evaluate the model's queries (or --query ones)",
                       description="Evaluate ATL queries on a model and print each with its "
                                   "count and positions.")
    model_args(c)
    c.add_argument("--query", action="append", metavar="TEXT",
                   help="an ATL formula to evaluate instead of the model's queries (repeatable)")
    c.add_argument("--engine", choices=CHECK_ENGINES, default="symbolic",
                   help="symbolic (BDDs), explicit (enumeration) or both (cross-check; exit 1 "
                        "on any difference)")
    c.add_argument("--limit", type=int, default=10, metavar="N",
                   help="show at most N positions per query (0: all; default 10)")
    c.add_argument("--json", action="store_true", help="print one JSON document")
    c.set_defaults(func=cmd_check)

    s = sub.add_parser("show", help="describe a model: players, variables, moves, sets, queries",
                       description="Describe a model: players, variables with ranges, number of "
                                   "positions, moves, named sets, formulas and queries.")
    model_args(s)
    s.set_defaults(func=cmd_show)

    e = sub.add_parser("ens2005", help="the whole ENS 2005 answer sheet for one u0",
                       description="Answer Questions 1 and 3-12 of the ENS 2005 exam "
                                   "'Jeux à plusieurs et coalitions' for a given u0, from "
                                   "the model ens2005.game shipped with symbolic "
                                   "(models/ens2005.game in a checkout).")
    e.add_argument("--u0", type=int, required=True, help="the candidate's number u_0")
    e.add_argument("--json", action="store_true", help="print one JSON document")
    e.add_argument("--engine", choices=ENGINES, default="symbolic")
    e.add_argument("--backend", choices=BACKENDS, default="cudd")
    e.set_defaults(func=cmd_ens2005)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "limit", 0) < 0:
        parser.error("--limit must be >= 0")
    try:
        return args.func(args)
    except SymbolicError as err:
        # located errors already read FILE:LINE:COL: error: ...
        print(str(err) if err.span is not None else f"symbolic: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("symbolic: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
