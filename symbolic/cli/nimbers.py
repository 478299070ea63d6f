"""``symbolic nimbers``: Sprague–Grundy values of an impartial two-player game."""

from __future__ import annotations

import sys
import time
from collections import Counter

from ..errors import QueryError
from ..analysis.grundy import (
    check_impartial,
    check_normal_play,
    check_players,
    first_difference,
    layered_nimbers,
    mex_nimbers,
)
from ..analysis.layered_solve import graded_reach, layered_nimbers_graded, layered_source
from ..api import ReachLayers
from .output import all_limit_arg, all_rows, emit, positions_json, print_rows
from .moves import MoveNames, numbered
from .positions import entry, headed, position_shower, read_position
from .common import (
    engine_text,
    title_text,
    ENGINE_CHOICES,
    build_engine,
    engine_arg,
    engine_kinds,
    json_arg,
    layered_arg,
    load,
    model_args,
    note_work,
    position_text,
    refuse_concurrent,
    tuning,
)

__all__ = ["cmd_nimbers", "register"]


class _Answer:
    """One engine's nimbers, with the questions the command asks of them."""

    def __init__(self, kind: str, engine, nimbers=None, table=None):
        self.kind, self.engine, self.nimbers, self.table = kind, engine, nimbers, table

    def counts(self) -> dict[int, int]:
        if self.nimbers is not None:
            return self.nimbers.counts()
        c = Counter(self.table.values())
        return {g: c[g] for g in range(max(c) + 1)} if c else {}

    def of(self, pos) -> int:
        return self.nimbers.of(pos) if self.nimbers is not None else self.table[pos]

    def every(self, reach, limit: int) -> list[tuple[tuple, int]]:
        """``(position, nimber)`` for every position solved (``reach``'s when layered), in
        order; refused above ``limit`` positions (0: no bound)."""
        over = self.engine.positions() if reach is None else reach.result
        return [(p, self.of(p)) for p in all_rows(over, limit, "nimber")]

    def optimal_moves(self, pos) -> list[tuple]:
        if self.nimbers is not None:
            return self.nimbers.optimal_moves(pos).tuples()
        return [s for s in self.engine.successors(pos).tuples() if self.table[s] == 0]


def _solve(kind: str, model, args, at) -> tuple[_Answer, ReachLayers | None]:
    """One engine's nimbers, and the graded layers they were solved on (None: every
    position): ``--layered`` from ``at``, else from the model's initial set."""
    note_work(args)
    eng = build_engine(model.game, kind, **tuning(args), refuse="nimbers")
    check_normal_play(eng)
    source = layered_source(model.definitions, eng, at, args.layered)
    reach = None if source is None else graded_reach(eng, source, args.layered)
    if kind == "symbolic":
        if reach is None:
            return _Answer(kind, eng, nimbers=layered_nimbers(eng)), None
        check_impartial(eng)
        return _Answer(kind, eng, nimbers=layered_nimbers_graded(eng, reach)), reach
    table = mex_nimbers(eng)
    if reach is not None:  # the explicit mex over every position, restricted to R
        table = {c: g for c, g in table.items() if c in reach.result}
    return _Answer(kind, eng, table=table), reach


def cmd_nimbers(args) -> int:
    model = load(args)
    refuse_concurrent("nimbers", model.game)
    check_players(model.game)  # before exploring (a GDL game's engine explores at once)
    space = model.game.space
    at = read_position(model, None, args.at) if args.at is not None else None
    kinds = engine_kinds(args.engine)
    answers, timings = {}, {}
    for kind in kinds:
        t0 = time.perf_counter()
        answers[kind], reach = _solve(kind, model, args, at)
        timings[kind] = time.perf_counter() - t0
    main = answers[kinds[0]]
    if at is not None:
        main.engine.successors(at)  # RangeError if `at` is not a position
    status, mismatch = 0, None
    if args.engine == "both":
        sym = answers["symbolic"].nimbers.table()
        w = first_difference(sym, answers["explicit"].table)
        if w is not None:
            status = 1
            mismatch = (w, sym.get(w), answers["explicit"].table.get(w))
    if args.all and at is not None:
        raise QueryError("--all and --at do not go together")
    if args.all and args.csv:
        print_rows(space, main.every(reach, args.limit), "nimber", str)
    elif args.json:
        doc = _json_doc(main, model, at, reach, mismatch)
        if args.all:
            rows = main.every(reach, args.limit)
            doc["all"] = [{"position": space.as_dict(p), "nimber": g} for p, g in rows]
        emit(args, doc, model, answers["symbolic"].engine if "symbolic" in answers else None)
    elif args.all or args.csv:
        raise QueryError("--all needs --csv or --json (and --csv needs --all)")
    else:
        print(title_text(model))
        steps = (
            f", {main.nimbers.iterations} "
            + ("pre-images" if reach is not None else "fixpoint steps")
            if main.nimbers is not None
            else ""
        )
        sym = answers["symbolic"].engine if "symbolic" in answers else None
        print(
            engine_text(args, sym)
            + "; "
            + ", ".join(f"{k} {t:.2f} s" for k, t in timings.items())
            + steps
        )
        if reach is not None and at is None:
            print(
                f"layered: over the {reach.result.count()} positions reachable from "
                f"initial ({len(reach.layers)} layers), not over every position"
            )
        _print_answer(main, model, at)
        if mismatch is not None:
            print(
                f"\nMISMATCH at {position_text(space, mismatch[0])}: symbolic "
                f"{mismatch[1]}, explicit {mismatch[2]}",
                file=sys.stderr,
            )
        elif args.engine == "both":
            print("\nsymbolic and explicit agree on every position's nimber")
    return status


def _json_doc(main, model, at, reach, mismatch) -> dict:
    """The ``--json`` document: the nimber and winning moves of ``at`` (the positions
    they lead to, ``optimal_moves``, and their names, ``moves``), else the count of
    positions per nimber; the engines' first disagreement when there is one."""
    space = model.game.space
    if at is not None:
        optimal = main.optimal_moves(at)
        doc = {
            "position": space.as_dict(at),
            "nimber": main.of(at),
            "optimal_moves": positions_json(space, optimal),
            "moves": MoveNames(model).names_of(at, optimal),
        }
    else:
        doc = {"counts": {str(g): n for g, n in main.counts().items()}}
        if reach is not None:
            doc["layered"] = {
                "from": "initial",
                "positions": reach.result.count(),
                "layers": len(reach.layers),
            }
    if mismatch is not None:
        doc["mismatch"] = {
            "position": space.as_dict(mismatch[0]),
            "symbolic": mismatch[1],
            "explicit": mismatch[2],
        }
    return doc


def _print_answer(main, model, at) -> None:
    """The nimber of ``at`` and its moves to nimber-0 positions, by name and number
    (:mod:`symbolic.cli.moves`), else the table of the number of positions per nimber."""
    if at is not None:
        show = position_shower(model)
        print("\n" + headed(show(at), f"nimber {main.of(at)}"))
        targets = set(main.optimal_moves(at))
        if targets:
            print("moves to a nimber-0 position (winning moves):")
            for key, m in numbered(MoveNames(model).legal(at)):
                if m.target in targets:
                    print(entry(f"  {key:>3}) {m.name}", show(m.target)))
        else:
            print("no move to a nimber-0 position: the player to move loses against best play")
    else:
        counts = main.counts()
        total = sum(counts.values())
        print(f"\n{'nimber':>8}  positions")
        for g, n in counts.items():
            print(f"{g:>8}  {n}")
        print(f"{'total':>8}  {total}")


def _all_args(c) -> None:
    """``--all``, ``--csv`` and ``--limit``: the table of every position's nimber."""
    c.add_argument(
        "--all",
        action="store_true",
        help="every position's nimber (with --csv: one row per position, a column per "
        "slot then the nimber; with --json: a list 'all')",
    )
    c.add_argument("--csv", action="store_true", help="with --all: print CSV")
    all_limit_arg(c)


def register(sub) -> None:
    c = sub.add_parser(
        "nimbers",
        help="Sprague–Grundy values (nimbers) of an impartial two-player game",
        description="The nimber of every position of an impartial two-player game under "
        "normal play (the player who cannot move loses; a model whose win(p) sets "
        "say otherwise is refused): counts per value, or "
        "one position's nimber and its winning moves (to nimber-0 positions). "
        "The symbolic engine computes the positions of each value as a BDD "
        "fixpoint; the explicit engine applies the mex rule position by position.",
    )
    model_args(c)
    c.add_argument(
        "--at",
        metavar="POSITION",
        help="one position, written as the CLI prints it: 'j=1, k[1]=3, k[2]=5'",
    )
    engine_arg(
        c,
        ENGINE_CHOICES,
        "symbolic (BDD layers), explicit (mex on enumerated "
        "positions) or both (cross-check every position; exit 1 on "
        "any difference)",
    )
    json_arg(
        c,
        "one JSON document (docs/commands.md, JSON output): with --at, its nimber and "
        'winning moves; else {"counts": {"0": n0, ...}}; with --all, every position\'s '
        "nimber too",
    )
    _all_args(c)
    layered_arg(
        c,
        "solve one graded layer at a time, from the farthest: auto (default: when "
        "the game is graded from the model's initial set, the counts cover the "
        "positions reachable from it; with --at, from that position: the same "
        "nimber), on (the same, an error when not graded), off (every position, "
        "one fixpoint per nimber)",
    )
    c.set_defaults(func=cmd_nimbers)
