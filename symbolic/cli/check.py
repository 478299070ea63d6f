"""``symbolic check``: evaluate ATL queries on a model, with either engine or both."""

from __future__ import annotations

import sys
import time

from ..api import PositionSet, difference_witness, reachable
from ..limits import int_text
from ..analysis.layered import evaluate_queries, initial_set, is_state_formula
from .dead_ends import dead_end_note
from .why import why
from .distributed import distributed_args, distributed_asked, layers_of, note_local, spread_for
from ..errors import QueryError
from .strategy import DEAD_ENDS
from .output import emit, positions_json
from .positions import positions_lines
from .common import (
    engine_text,
    title_text,
    ENGINE_CHOICES,
    build_engines,
    engine_arg,
    json_arg,
    layered_arg,
    limit_arg,
    load,
    model_args,
    note_work,
    queries_of,
    position_text,
    shown_positions,
)

__all__ = ["cmd_check", "register"]


def cmd_check(args) -> int:
    model = load(args)
    spread = distributed_asked(args)
    if spread and args.layered == "off":
        raise QueryError("--workers and --scheduler solve layer by layer: not with --layered off")
    if args.why is not None:
        if spread:
            note_local(True, "--why (one position's play)")
        return why(model, args)
    queries = queries_of(model, args.query)
    note_work(args)
    kinds, engines, timings = build_engines(model, args)
    results = {}
    answers = {}
    for kind in kinds:
        t0 = time.perf_counter()
        # --engine both: the explicit engine by the plain fixpoints, an independent check
        # of the symbolic engine's layered answers (a restricted one is compared with the
        # plain answer ∩ the positions reachable from initial)
        mode = "off" if args.engine == "both" and kind == "explicit" else args.layered
        # (the explicit engine of --engine both runs here, by the plain fixpoints)
        with spread_for(args if mode != "off" else None, model, engines[kind]) as sp:
            answers[kind] = evaluate_queries(
                model.definitions,
                queries,
                engines[kind],
                mode,
                DEAD_ENDS[args.dead_ends],
                layers=layers_of(sp),
            )
            if kind == kinds[0]:
                notes = [
                    dead_end_note(
                        model, f, engines[kind], a, DEAD_ENDS[args.dead_ends], layers_of(sp)
                    )
                    for (_, f), a in zip(queries, answers[kind])
                ]
        for i, ((_, f), a) in enumerate(zip(queries, answers[kind]), 1):
            if a.how is None and not is_state_formula(f, model.definitions):
                note_local(sp, f"query {i} is not layered (no anchor 'S and ...' of a graded game)")
        results[kind] = [a.positions for a in answers[kind]]
        timings[kind] += time.perf_counter() - t0
    both = args.engine == "both"
    mismatches = _mismatches(model, queries, engines, results, answers) if both else []
    status = 1 if mismatches else 0
    if args.json:
        doc = _json_doc(args, model, queries, answers[kinds[0]], notes, mismatches)
        emit(args, doc, model, engines.get("symbolic"))
    else:
        _print_text(args, model, queries, answers[kinds[0]], notes, engines, timings, mismatches)
    return status


def _print_text(args, model, queries, answers, notes, engines, timings, mismatches) -> None:
    """The text answer of ``check``: the model, the engine, each query's count, notes
    and positions, then the mismatches of ``--engine both``."""
    print(title_text(model))
    # the timings go to stderr: stdout is the same at every run (tests compare it)
    print(engine_text(args, engines.get("symbolic")))
    if not args.quiet and sys.stderr.isatty():
        print("time: " + ", ".join(f"{k} {t:.2f} s" for k, t in timings.items()), file=sys.stderr)
    for (text, _), a, note in zip(queries, answers, notes):
        ps = a.positions
        print(f"\n{text}\n  count: {int_text(ps.count())}")
        if note:
            print(note)
        # stdout shows answers: the note of a restricted one (its count differs from
        # the plain fixpoint's), the others' (the same answers, computed layer by
        # layer) on stderr, like the timings, on a terminal only
        if a.restricted:
            print(a.note())
        elif a.how and not args.quiet and sys.stderr.isatty():
            print(a.note(), file=sys.stderr)
        print("\n".join(positions_lines(model, ps, args.limit)))
    for text, w, where in mismatches:
        print(
            f"\nMISMATCH on {text}: position {position_text(model.game.space, w)} is only "
            f"in the {where} result",
            file=sys.stderr,
        )
    if args.engine == "both" and not mismatches:
        print(f"\nsymbolic and explicit agree on all {len(queries)} queries")


def _mismatches(model, queries, engines, results, answers) -> list[tuple[str, tuple, str]]:
    """(query, position, the engine whose answer alone holds it) for each query on which
    the symbolic and explicit answers differ (a restricted symbolic answer is compared
    with the explicit one ∩ the positions reachable from the initial set)."""
    mismatches = []
    ex = engines["explicit"]
    reach: list[PositionSet] = []
    for (text, _), a, b, how in zip(
        queries, results["symbolic"], results["explicit"], answers["symbolic"]
    ):
        if how.restricted:
            reach = reach or [reachable(ex, initial_set(ex, model.definitions)).result]
            b = b & reach[0]
        w = difference_witness(a, b)
        if w is not None:
            where = "symbolic" if w in a else "explicit"
            mismatches.append((text, w, where))
    return mismatches


def _json_doc(args, model, queries, answers, notes, mismatches) -> dict:
    """The ``--json`` document of ``symbolic check``."""
    space = model.game.space
    doc = {
        "results": [
            {
                "query": text,
                "count": a.positions.count(),
                "positions": positions_json(space, shown_positions(a.positions, args.limit)),
            }
            | ({"layered": list(a.how)} if a.restricted else {})
            | ({"dead_ends_decide": note.strip()} if note else {})
            for (text, _), a, note in zip(queries, answers, notes)
        ],
    }
    if args.engine == "both":
        doc["mismatches"] = [
            {"query": t, "position": space.as_dict(w), "only_in": k} for t, w, k in mismatches
        ]
    return doc


def register(sub) -> None:
    c = sub.add_parser(
        "check",
        help="evaluate the model's queries (or --query ones)",
        description="Evaluate ATL queries on a model and print each with its count and positions.",
    )
    model_args(c)
    c.add_argument(
        "--query",
        action="append",
        metavar="TEXT",
        help="an ATL formula to evaluate instead of the model's queries (repeatable)",
    )
    engine_arg(
        c,
        ENGINE_CHOICES,
        "symbolic (BDDs), explicit (enumeration) or both (cross-check; exit 1 on any difference)",
    )
    limit_arg(c, "positions per query", 10)
    json_arg(c)
    c.add_argument(
        "--dead-ends",
        choices=sorted(DEAD_ENDS),
        default="vacuous",
        help="vacuous (ENS, ATL's default: a stuck opponent counts as beaten) or "
        "strict (the TD's attractor); a line under the count says when dead "
        "ends decide an answer",
    )
    c.add_argument(
        "--why",
        metavar="POSITION",
        help="explain the answer at one position ('x=1, y=2'): the winning play inside "
        "the until, release or next formula, or the others' refuting play outside",
    )
    distributed_args(c)
    layered_arg(
        c,
        "solve one layer at a time over the reachable positions: auto (a query "
        "'S and f' of a game graded from the set S: the same answer; default), on "
        "(also the other queries, over the positions reachable from the model's "
        "initial set, and said so), off (plain fixpoints)",
    )
    c.set_defaults(func=cmd_check)
