"""``symbolic aiger``: a SYNTCOMP safety circuit (``.aag`` / ``.aig``), realizable or not."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..aiger import read_aiger
from ..aiger.circuit import check_safety_game
from ..aiger.safety import GUESS_AT, STATIC_FIRST, METHODS, WAYS, default_names, solve_safety
from ..errors import FileError, QueryError
from ..limits import current as current_limits
from ..shipped import missing_model, model_file
from .basics import backend_arg, int_arg, json_arg, limit_args
from .output import emit

__all__ = ["NOT_ANSWERED", "MISMATCH", "cmd_aiger", "register"]

#: exit statuses: no controller (unrealizable), a controller that fails its verification
NOT_ANSWERED = MISMATCH = 1

#: ``--engine``: :data:`symbolic.cli.common.ENGINE_CHOICES` (a test checks), spelled here
#: so that the safety solver's run does not load the engines
ENGINE_CHOICES = ("symbolic", "explicit", "both")


def _circuit_file(path: str) -> Path:
    """The file of the circuit ``path`` names (a file, or a shipped circuit's name:
    :func:`symbolic.model.model_file`); a FileError unless it is an AIGER file."""
    p = model_file(path)
    if not p.exists():
        raise missing_model(path)
    if not p.name.lower().endswith((".aag", ".aig")):
        raise FileError(f"{path}: not an AIGER circuit (the name must end in .aag or .aig)")
    return p


def _read(path: str):
    """(the file, the circuit) ``path`` names, read and checked to be a safety game."""
    p = _circuit_file(path)
    with current_limits().stage(f"reading the circuit {path}"):
        c = read_aiger(p)
        check_safety_game(c, path)
    return p, c


def _load(path: str):
    """The model of the circuit ``path`` names; a FileError for any other file."""
    from ..model import load_model

    p = _circuit_file(path)
    with current_limits().stage(f"reading the circuit {path}"):
        return load_model(p)


def _alone(args) -> bool:
    """Does the run ask for the safety solver's answer only (no query, no controller,
    the symbolic engine)? Then it needs neither the model nor the engines."""
    return (
        args.method == "safety"
        and args.engine == "symbolic"
        and not args.query
        and args.controller is None
    )


def _answer_alone(args) -> int:
    """``symbolic aiger FILE`` when :func:`_alone`: the circuit read and solved by
    :func:`symbolic.aiger.safety.solve_safety` in a manager of its own (as the symbolic
    engine's ``safety_fixpoint`` does), the same document as :func:`cmd_aiger`'s."""
    file, c = _read(args.file)
    current_limits().expect_work("fixpoints")
    t0 = time.perf_counter()
    settings = {
        "backend": "cudd" if args.backend == "auto" else args.backend,  # the engine's auto
        "sifting": args.order == "auto",
        "invariant": GUESS_AT,
        "static_first": STATIC_FIRST,
        "merge": args.merge == "on",
    }
    r: Any
    if args.jobs > 1:  # one process per way, the first answer wins
        from ..aiger.portfolio import first_answer

        r = first_answer(c, args.jobs, **settings)
        way, backend = r.way, r.backend
    else:
        r = solve_safety(c, *default_names(c), **settings)
        way, backend = WAYS[0], r.manager.backend
    ctrl = sum(c.controllable)
    doc = {
        "file": args.file,
        "realizable": r.realizable,
        "winning_region": r.winning_size,
        "iterations": r.iterations,
        "proof": r.proof,
        "method": "safety",
        "latches": len(c.latches),
        "inputs": len(c.inputs) - ctrl,
        "controllable": ctrl,
        "ands": len(c.and_lhs),
        "merged_latches": r.merged,
        "jobs": args.jobs,
        "initial_order": way,
        "engine": "symbolic",
        "backend": backend,
        "seconds": {"symbolic": round(time.perf_counter() - t0, 3)},
        "queries": [],
    }
    model = SimpleNamespace(name=file.name, params={})
    if args.json:
        emit(args, doc, model, backend=backend)
    else:
        _print_text(model, doc)
    return 0


def _solve(model, kind: str, args, queries: list) -> dict:
    """The answer of the engine ``kind``: realizability, then each query."""
    from .. import atl
    from ..aiger.solve import realizability
    from .common import build_engine

    t0 = time.perf_counter()
    engine = build_engine(model.game, kind, backend=args.backend, order=args.order)
    built = time.perf_counter() - t0
    # invariants are tried when the symbolic engine answers alone (as without the
    # engine): --engine both compares W and the iterations with the enumeration's
    r = realizability(model, engine, args.method, guess=args.engine == "symbolic")
    initial = engine.from_expr(model.definitions["initial"].body.expr)
    answers = []
    for text, f in queries:
        s = atl.Evaluator(engine, model.definitions)(f)
        answers.append((text, s, (initial - s).is_empty()))
    return {
        "engine": engine,
        "result": r,
        "answers": answers,
        "build": built,
        "seconds": time.perf_counter() - t0,
    }


def _differences(sym: dict, exp: dict) -> list[str]:
    """What the two engines' answers disagree on (nothing when they agree)."""
    from ..api import same_sets

    out = []
    a, b = sym["result"], exp["result"]
    for what in ("realizable", "winning_size", "iterations"):
        if getattr(a, what) != getattr(b, what):
            out.append(f"{what}: symbolic {getattr(a, what)}, explicit {getattr(b, what)}")
    if (a.winning is None) != (b.winning is None) or (
        a.winning is not None and not same_sets(a.winning, b.winning)
    ):
        out.append("the winning positions differ")
    for (text, s, _), (_, e, _) in zip(sym["answers"], exp["answers"]):
        if not same_sets(s, e):
            out.append(f"query {text}: the positions differ")
    return out


def _merging(args) -> tuple[Any, SimpleNamespace | None]:
    """(the model of the run, the merging). With ``--controller`` and ``--merge on`` (the
    symbolic engine, the safety method, no query) the merging is the circuit with its
    forced inputs substituted and its corresponding latches merged, as ``model``, with
    ``original`` (the circuit read), ``forced`` (:func:`symbolic.aiger.forced.forced_inputs`
    of it) and ``merged`` (the latches merged away, perhaps none). It is None when no
    latch merges and no input is forced (the model is then the circuit read, not read
    again) or the run must see every latch."""
    if not (
        args.merge == "on"
        and args.controller is not None
        and args.engine == "symbolic"
        and args.method == "safety"
        and not args.query
    ):
        return _load(args.file), None
    from ..aiger.build import aiger_model
    from ..aiger.correspondence import merged_latches
    from ..aiger.forced import forced_inputs
    from ..model import Model

    file, c = _read(args.file)
    with current_limits().stage("merging the corresponding latches"):
        forced = forced_inputs(c)
        merged = merged_latches(forced.circuit)
    if not merged.classes and not forced.forced:
        return Model.of(aiger_model(c, str(file)), ""), None
    # no latch merged but inputs forced: the run solves the circuit with them
    # substituted, from which the controller is made (not a second solve, in _closed)
    circuit = merged.circuit if merged.classes else forced.circuit
    model = Model.of(aiger_model(circuit, str(file)), "")
    merging = SimpleNamespace(original=c, forced=forced, merged=len(merged.classes), model=model)
    return model, merging


def _closed(run: dict, args, merging: SimpleNamespace | None):
    """(the closed circuit, the AND gates the controller adds) for a realizable run.
    Inputs the error forces (:mod:`symbolic.aiger.forced`) take their forced functions,
    the others a strategy of the circuit with those substituted, so that a product the
    controller must output is never built as a BDD. With ``merging`` (:func:`_merging`),
    the run solved the merged circuit: its strategy reads the representatives' latches,
    equal to the merged ones in every reachable state of the input circuit."""
    from ..aiger.build import aiger_model
    from ..aiger.controller import controller_circuit
    from ..aiger.forced import forced_inputs
    from ..aiger.solve import realizability
    from ..model import Model
    from .common import build_engine

    engine = run["engine"]
    if merging is not None:
        won = run["result"].keepable
        return controller_circuit(engine, won, merging.forced, merging.original)
    circuit = engine.game.circuit
    reduced = forced_inputs(circuit)
    if not reduced.forced:
        return controller_circuit(engine, run["result"].keepable)
    model = Model.of(aiger_model(reduced.circuit, args.file), "")
    engine = build_engine(model.game, "symbolic", backend=args.backend, order=args.order)
    won = realizability(model, engine, guess=True).keepable
    return controller_circuit(engine, won, reduced, circuit)


def _controller(run: dict, args, merging: SimpleNamespace | None) -> dict | None:
    """Write the winning controller to ``args.controller`` and verify it: the closed
    circuit, read back from the file, solved by the symbolic engine (and by the explicit
    one when it has at most 2^20 positions) never raises the error. None: unrealizable.
    With ``merging`` (:func:`_merging`), the symbolic check is the safety solver's on the
    closed circuit with its own corresponding latches merged."""
    from ..aiger import to_aag, to_aig
    from ..aiger.build import aiger_model
    from ..aiger.explicit import closed_circuit_safe
    from ..aiger.solve import realizability
    from ..model import Model
    from .common import build_engine

    r = run["result"]
    if not r.realizable:
        print("no controller: the circuit is unrealizable", file=sys.stderr)
        return None
    with current_limits().stage("building the controller"):
        closed, added = _closed(run, args, merging)
    path = args.controller
    try:
        if path.lower().endswith(".aig"):
            with open(path, "wb") as f:
                f.write(to_aig(closed))
        else:
            with open(path, "w") as f:
                f.write(to_aag(closed))
    except OSError as err:
        raise FileError(f"cannot write {path}: {err.strerror or err}") from None
    with current_limits().stage("verifying the controller"):
        back = read_aiger(path)
        model = Model.of(aiger_model(back, path), "")
        if merging is None:
            sym = build_engine(model.game, "symbolic")
            by = {"symbolic": realizability(model, sym, guess=True).realizable}
        else:
            checked = solve_safety(
                back,
                *default_names(back),
                merge=True,
                invariant=GUESS_AT,
                static_first=STATIC_FIRST,
            )
            by = {"symbolic": checked.realizable}
        if model.space.size <= 2**20:  # every reachable state simulated
            by["explicit"] = closed_circuit_safe(back, current_limits())
    return {
        "file": path,
        "ands": added,
        "circuit_ands": len(
            (run["engine"].game.circuit if merging is None else merging.original).and_lhs
        ),
        "verified": all(by.values()),
        "verified_by": sorted(by),
    }


def cmd_aiger(args) -> int:
    if _alone(args):
        return _answer_alone(args)
    if args.jobs > 1:
        raise QueryError(
            f"--jobs {args.jobs} runs the safety solver's answer alone: not with "
            "--controller, --query, --engine explicit or both, or --method game"
        )
    from ..model import parse_formula
    from .common import backend_text, engine_kinds

    model, merging = _merging(args)
    queries = [(t, parse_formula(t, model)) for t in args.query or ()]
    current_limits().expect_work("fixpoints")
    runs = {kind: _solve(model, kind, args, queries) for kind in engine_kinds(args.engine)}
    first = runs[engine_kinds(args.engine)[0]]
    status = 0
    if args.engine == "both":
        diff = _differences(runs["symbolic"], runs["explicit"])
        if diff:
            print("MISMATCH between the symbolic and explicit engines:", file=sys.stderr)
            for line in diff:
                print("  " + line, file=sys.stderr)
            status = 1
    c, names, r = model.game.circuit, model.game.names, first["result"]
    if merging is not None:
        c = merging.original
    engine = first["engine"]
    doc = {
        "file": args.file,
        "realizable": r.realizable,
        # the forced inputs' substitution keeps the latches and W; a merge does not
        "winning_region": r.winning_size if merging is None or not merging.merged else None,
        "iterations": r.iterations,
        "proof": r.proof,
        "method": r.method,
        "latches": len(c.latches),
        "inputs": len(names.env_index),
        "controllable": len(names.ctrl_index),
        "ands": len(c.and_lhs),
        "merged_latches": 0 if merging is None else merging.merged,
        "jobs": 1,
        "initial_order": None,  # the engine's layout, not one of the safety solver's WAYS
        # the text's; --json takes both from the common header (cli.output)
        "engine": engine.kind,
        "backend": backend_text(engine, args.backend) if engine.kind == "symbolic" else None,
        "seconds": {k: round(v["seconds"], 3) for k, v in runs.items()},
        "queries": [
            {"query": t, "count": s.count(), "initial": ok} for t, s, ok in first["answers"]
        ],
    }
    if args.engine == "both":
        doc["agree"] = status == 0
    if args.controller is not None and status == 0:
        sym = runs.get("symbolic") or _solve(model, "symbolic", args, [])
        # realizable: W, or a controlled invariant, gives the strategy
        doc["controller"] = _controller(sym, args, merging)
        if doc["controller"] is None:
            status = NOT_ANSWERED
        elif not doc["controller"]["verified"]:
            status = MISMATCH
    if args.json:
        emit(args, doc, model, engine)
        return status
    _print_text(model, doc)
    if args.engine == "both" and status == 0:
        print("symbolic and explicit agree")
    return status


def _n(k: int, one: str, many: str = "") -> str:
    """``k`` and the noun, plural unless k is 1: ``_n(2, "latch", "latches")``."""
    return f"{k} {one if k == 1 else many or one + 's'}"


def _print_text(model, doc: dict) -> None:
    """The text answer of ``symbolic aiger``."""
    print(
        f"{model.name}: {_n(doc['latches'], 'latch', 'latches')}, "
        f"{_n(doc['inputs'], 'input')} of the environment, {doc['controllable']} "
        f"controllable, {_n(doc['ands'], 'AND gate')}"
    )
    if doc["realizable"]:
        print("realizable: the controller keeps the error output at 0 from the initial state")
    else:
        print("unrealizable: the environment can force the error output to 1")
    if doc["merged_latches"]:
        print(
            f"winning region: not computed ({_n(doc['merged_latches'], 'latch', 'latches')} "
            "equal to another or constant in every reachable state merged before solving; "
            "--merge off computes it)"
        )
    elif doc["proof"] == "invariant":
        print(
            "winning region: not computed (a controlled invariant containing the initial "
            "state, guessed from its literals, proves it; --method game computes it)"
        )
    elif doc["winning_region"] is None:
        print(
            "winning region: not computed (the fixpoint stops as soon as the initial "
            "state leaves it; --method game computes it)"
        )
    else:
        print(
            f"winning region: {doc['winning_region']} of {2 ** doc['latches']} latch "
            f"valuations (<<controller>> [] not error)"
        )
    if doc["method"] == "safety":
        print(f"iterations: {doc['iterations']} (steps of the circuit)")
    else:
        print(f"iterations: {doc['iterations']} (two moves of the game per step of the circuit)")
    for q in doc["queries"]:
        at = "holds" if q["initial"] else "does not hold"
        print(f"{q['query']}: {_n(q['count'], 'position')}; {at} at initial")
    backend = f" ({doc['backend']})" if doc["backend"] else ""
    times = ", ".join(f"{k} {v:.2f} s" for k, v in doc["seconds"].items())
    ways = ""
    if doc["jobs"] > 1:
        ways = f"; {doc['jobs']} ways at once, the one from the {doc['initial_order']} order first"
    print(f"engine: {doc['engine']}{backend}; {times}{ways}")
    ctl = doc.get("controller")
    if ctl:
        verdict = "never raises the error" if ctl["verified"] else "RAISES THE ERROR"
        print(
            f"controller: {ctl['file']}, {_n(ctl['ands'], 'AND gate')} added to the "
            f"circuit's {ctl['circuit_ands']}; the closed circuit {verdict} "
            f"({' and '.join(ctl['verified_by'])} engine)"
        )


def register(sub) -> None:
    g = sub.add_parser(
        "aiger",
        help="a SYNTCOMP safety circuit (.aag/.aig): realizable or not",
        description="Read an AIGER circuit (SYNTCOMP's safety track: inputs named "
        "controllable_* are the controller's, the others the environment's, the one "
        "output is the error) and answer whether the controller can keep the error at "
        "0 forever from the initial latch values, with the winning region, the "
        "iterations and the time (docs/aiger.md).",
    )
    limit_args(g)
    g.add_argument("file", metavar="FILE", help="an .aag or .aig file")
    backend_arg(g)
    g.add_argument(
        "--order",
        choices=("auto", "slots", "sliced"),
        default="auto",
        help="bit order of the symbolic engine (auto: the model's variables in order: "
        "env_moved, error, the latches, the environment's inputs)",
    )
    g.add_argument(
        "--method",
        choices=METHODS,
        default=METHODS[0],
        help="safety (default): the dedicated solver, W = nu Z. forall u exists c. not err "
        "and Z(next), stopped as soon as the initial state leaves Z; game: the game's "
        "<<controller>> [] not error through the engine API, to the end",
    )
    g.add_argument(
        "--merge",
        choices=("on", "off"),
        default="on",
        help="on (default): latches equal to another, or constant, in every reachable "
        "state are merged before the safety solver runs (the same answer; the winning "
        "region is then not computed; --controller merges too); off: every latch kept. "
        "--query, --engine both and --method game never merge",
    )
    g.add_argument(
        "--jobs",
        type=int_arg(1, len(WAYS)),
        default=1,
        metavar="N",
        help="1 (default): one safety solver; 2: two processes at once, one from the "
        "file's order of latches and inputs, one from the order a depth-first walk of "
        "the gates meets them, the first answer wins (the time of dynamic reordering "
        "varies much from run to run and order to order; docs/aiger.md). The answer "
        "alone only: not with --controller, --query, --engine explicit/both or "
        "--method game",
    )
    g.add_argument(
        "--engine",
        choices=ENGINE_CHOICES,
        default="symbolic",
        help="symbolic (BDDs), explicit (every position enumerated, the circuit "
        "simulated: small circuits only) or both (cross-check; exit 1 on any difference)",
    )
    g.add_argument(
        "--query",
        action="append",
        metavar="FORMULA",
        help="also evaluate this ATL formula (names: controller, environment, error, "
        "env_moved, initial, the latches and the environment's inputs; repeatable)",
    )
    g.add_argument(
        "--controller",
        metavar="OUT",
        help="write the winning controller to OUT (.aag, or .aig binary): the circuit "
        "with each controllable input computed from the latches and the environment's "
        "inputs; then verify it (exit 1 if unrealizable or not verified)",
    )
    json_arg(
        g,
        help="print one JSON document: realizable, winning_region (null when not "
        "computed), iterations, method, latches, "
        "inputs, controllable, ands, merged_latches, jobs, initial_order, engine, "
        "backend, seconds, queries",
    )
    g.set_defaults(func=cmd_aiger)
