"""``symbolic strategy``: a winning strategy of a coalition, restricted to the
positions reachable from a start, as text, JSON or Graphviz DOT; and the number
of positional strategies of a player (the TD's Q2)."""

from __future__ import annotations

import math
import sys

from ..api import DeadEnds
from ..errors import QueryError
from ..model import parse_formula
from ..analysis.layered_solve import graded_reach, layered_strategy
from ..analysis.strategy import count_strategies, strategy_for, to_dot, to_json, verify
from ..ir import ConcurrentGame
from ..distributed.solve import check_spreadable
from .distributed import distributed_args, distributed_asked, layers_of, note_local, spread_for
from .joint_strategy import concurrent_strategy
from .output import emit
from .common import (
    NOT_ANSWERED,
    build_engine,
    engine_arg,
    int_arg,
    is_concurrent,
    json_arg,
    layered_arg,
    limit_arg,
    load,
    model_args,
    note_work,
    position_text,
    tuning,
)
from .moves import MoveNames
from .positions import position_shower, start_set

__all__ = ["DEAD_ENDS", "cmd_strategy", "not_won_text", "register"]

DEAD_ENDS = {d.value: d for d in DeadEnds}


def _count(args, model, engine) -> int:
    """``strategy --count PLAYER``: the number of positional strategies."""
    if args.query or args.start or args.at:
        raise QueryError("--count PLAYER takes no --query, --from or --at")
    if args.count not in model.game.players:
        raise QueryError(f"unknown player {args.count}: the players are {list(model.game.players)}")
    n = count_strategies(engine, args.count)
    digits = int(math.log10(n)) + 1  # log10 of an int is exact to within one
    digits += (n >= 10**digits) - (n < 10 ** (digits - 1))
    if hasattr(sys, "set_int_max_str_digits") and digits > 4000:
        sys.set_int_max_str_digits(0)  # the exact integer, however long
    if args.json:
        emit(args, {"player": args.count, "strategies": n, "digits": digits}, model, engine)
        return 0
    print(
        f"player {args.count} has {n} positional strategies"
        + (f" (a number of {digits} digits)" if digits > 30 else "")
    )
    return 0


def cmd_strategy(args) -> int:
    model = load(args)
    asked = distributed_asked(args)
    if asked and args.layered == "off":
        raise QueryError("--workers and --scheduler solve layer by layer: not with --layered off")
    note_work(args)
    engine = build_engine(model.game, args.engine, **tuning(args), check=False)
    if asked:
        check_spreadable(engine)  # the symbolic engine of a turn-based model, before any work
    if isinstance(model.game, ConcurrentGame):
        if args.dot:
            raise QueryError(
                "strategy --dot is not supported for concurrent games (a joint "
                "strategy is a table of actions: use the text or --json)"
            )
        return concurrent_strategy(model, engine, args)
    if is_concurrent(engine=engine):
        raise QueryError(
            "strategy is not supported for GDL games read as concurrent (several "
            "roles choose at once; joint strategies are computed for concurrent "
            ".game models)"
        )
    if args.count is not None:
        note_local(asked, "--count (a product over the positions, no layers)")
        return _count(args, model, engine)
    if not args.query:
        raise QueryError("strategy needs --query FORMULA (or --count PLAYER)")
    dead_ends = DEAD_ENDS[args.dead_ends]
    formula = parse_formula(args.query, model)
    start = start_set(model, engine, args)
    with spread_for(args, model, engine) as spread:
        reach = (
            None
            if args.layered == "off"
            else graded_reach(engine, start, args.layered, layers_of(spread))
        )
        if reach is None:
            note_local(spread, "the game is not graded from the start (plain fixpoints)")
        strategy = (
            strategy_for(engine, formula, model.definitions, dead_ends)
            if reach is None
            else layered_strategy(engine, formula, reach, model.definitions, dead_ends)
        )
    return _answer(args, model, engine, strategy, start, reach)


def _answer(args, model, engine, strategy, start, reach) -> int:
    """The strategy's output (text, JSON or DOT) and the exit status."""
    doc = to_json(strategy, start)
    names = MoveNames(model)
    for mv in doc["moves"]:  # each move by name, as the model writes it
        mv["move"] = names.between(tuple(mv["from"].values()), tuple(mv["to"].values()))
    if reach is not None:
        doc["layered"] = {
            "from": "start",
            "positions": reach.result.count(),
            "layers": len(reach.layers),
        }
    if args.verify:
        doc["verified"] = _verification(model, engine, strategy, start)
    if args.dot:
        print(to_dot(strategy, start), end="")
        return 0
    if args.json:
        emit(args, doc, model, engine)
        return NOT_ANSWERED if args.verify and not doc["verified"]["ok"] else 0
    _print_strategy(args, model, engine, strategy, start, reach, doc)
    if args.verify:
        none_won = (start & strategy.region).is_empty()
        return _print_verified(doc["verified"], strategy.objective.kind, none_won)
    return 0


def _verification(model, engine, strategy, start) -> dict:
    """``--verify``: the strategy's table checked by :func:`verify` from the won start
    positions, ok only if it wins and every start position is won."""
    lost = start - strategy.region
    reached = strategy.outcome(start)
    v = verify(engine, strategy.objective, strategy.table(reached), start & strategy.region)
    verified = {
        "ok": v.ok and lost.is_empty(),
        "reason": v.reason,
        "positions": v.visited,
        "longest": max(v.longest.values(), default=0),
    }
    if v.ok and not lost.is_empty():  # a table that fails says so first
        verified["reason"] = not_won_text(model.game.space, start, lost)
    return verified


def _print_strategy(args, model, engine, strategy, start, reach, doc) -> None:
    """The text output: the objective, the winning region and its layers, and the
    strategy's moves (at most ``--limit`` of them)."""
    obj = strategy.objective
    J = "{" + ", ".join(map(str, sorted(obj.coalition))) + "}"
    lost = len(start) - len(doc["start_won"])
    print(
        f"{model.name}: strategy of {J} for {args.query} ({obj.kind}, dead ends "
        f"{obj.dead_ends.value}; engine {engine.kind})"
    )
    print(
        f"winning region: {len(strategy.region)} positions; start: {len(start)} "
        f"position(s), {len(doc['start_won'])} won" + (f", {lost} not won" if lost else "")
    )
    if reach is not None:
        print(
            f"layered: from the start, {len(reach.layers)} layers; the region and the "
            f"layers count the {reach.result.count()} positions reachable from it"
        )
    if doc["layers"] is not None:
        print(
            f"layers (positions won within n moves, n = 0, 1, ...): "
            f"{', '.join(map(str, doc['layers']))}"
        )
    print(
        f"positions reachable under the strategy: {len(doc['positions'])}; "
        f"moves in the table: {len(doc['moves'])}"
    )
    moves = doc["moves"] if args.limit == 0 else doc["moves"][: args.limit]
    show = position_shower(model)
    for mv in moves:
        c = tuple(mv["from"].values())
        rank = f"  (rank {strategy.rank(c)})" if strategy.layers is not None else ""
        at = show(c)
        if "\n" in at:  # a drawing: the board, then the move below it
            print("  at:\n" + "\n".join("    " + line for line in at.split("\n")))
            print(f"    play {mv['move']}{rank}")
        else:
            print(f"  {at}  ->  {mv['move']}{rank}")
    if len(moves) < len(doc["moves"]):
        print(f"  ... ({len(doc['moves']) - len(moves)} more; --limit 0 shows all)")


def not_won_text(space, start, lost) -> str:
    """``the start is not won at N of M position(s) (e.g. POS)``: why a verification
    has nothing (or not everything) to verify."""
    return (
        f"the start is not won at {len(lost)} of {len(start)} position(s) (e.g. "
        f"{position_text(space, lost.first())})"
    )


def _print_verified(v: dict, kind: str, none_won: bool) -> int:
    """The ``verified:`` line of ``--verify``, and the exit status: 0 when the table wins
    from every start position, else :data:`NOT_ANSWERED` (a start not won included)."""
    won = (
        f"every consistent play reaches the goal within {v['longest']} moves"
        if kind == "reach"
        else "every consistent play stays in the safe region"
    )
    if v["ok"]:
        print(f"verified: {won} ({v['positions']} positions searched)")
        return 0
    if v["reason"].startswith("the start is not won"):
        print(
            f"not verified: {v['reason']}: "
            + (
                "nothing to verify"
                if none_won
                else f"from the others, {won} ({v['positions']} positions searched)"
            )
        )
        return NOT_ANSWERED
    print(f"verified: FAILED: {v['reason']}")
    return NOT_ANSWERED


def register(sub) -> None:
    s = sub.add_parser(
        "strategy",
        help="a winning strategy of a coalition (text, JSON or Graphviz DOT)",
        description="The memoryless strategy of the coalition of an until or release formula "
        "(<<J>> f U g, <<J>> <> g, <<J>> f R g, <<J>> [] g, or a named formula "
        "that is one), read from the fixpoint's layers: from each position of J "
        "the smallest successor that lowers the rank (until) or stays in the "
        "winning region (release). Shown over the positions reachable from the "
        "start when J follows it.",
    )
    model_args(s)
    s.add_argument("--query", metavar="FORMULA", help="the until/release formula")
    s.add_argument(
        "--from",
        dest="start",
        metavar="SET",
        help="the start: a named set or any formula of the model (e.g. initial)",
    )
    s.add_argument(
        "--at",
        metavar="POSITION",
        help="the start: one position, 'x=1, y=2' (slots left out take their value in "
        "the model's set 'initial' where it fixes them)",
    )
    engine_arg(s)
    s.add_argument(
        "--dead-ends",
        choices=sorted(DEAD_ENDS),
        default="vacuous",
        help="vacuous (ENS, ATL's default: a stuck opponent counts as beaten) or "
        "strict (the TD's attractor)",
    )
    s.add_argument(
        "--verify",
        action="store_true",
        help="check the table by an explicit search over every consistent play",
    )
    s.add_argument(
        "--count",
        type=int_arg(),
        metavar="PLAYER",
        help="print the number of positional strategies of PLAYER instead",
    )
    limit_arg(s, "moves", 20)
    distributed_args(s)
    layered_arg(
        s,
        "solve one layer at a time over the positions reachable from the start: "
        "auto (default: when the game is graded from the start; the same moves, "
        "the region counted over those positions), on (the same, an error when "
        "not graded), off (plain fixpoints over every position)",
    )
    out = s.add_mutually_exclusive_group()
    json_arg(out)
    out.add_argument("--dot", action="store_true", help="print Graphviz DOT text")
    s.set_defaults(func=cmd_strategy)
