"""``symbolic successors``: δ(c), the positions one move away (ENS 2005, Q6)."""

from __future__ import annotations


from ..gdl.explicit_concurrent import GdlExplicitConcurrentGame
from ..ir import ConcurrentGame
from .output import emit
from .common import (
    build_engine,
    engine_arg,
    is_concurrent,
    json_arg,
    load,
    model_args,
    parse_position,
    position_text,
    tuning,
)

__all__ = ["joint_successors", "cmd_successors", "register"]


def joint_successors(model, engine, c: tuple) -> list[tuple[dict, list]]:
    """δ(c, a) for each enabled joint action a of a concurrent game, in the order of the
    actions: ``({player: action label}, [successor, ...])`` (a joint action whose updates
    contradict each other has no successor)."""
    game = model.game
    if not isinstance(game, ConcurrentGame):  # GDL: the explicit engine names the moves
        if not isinstance(engine, GdlExplicitConcurrentGame):  # the symbolic one names none
            engine = build_engine(game, "explicit", check=False, concurrent=True)
        return [(dict(zip(game.players, a)), [d]) for a, d in engine.transitions(c)]
    names = [game.action_labels(p) for p in game.players]
    return [
        ({p: names[i][k] for i, (p, k) in enumerate(zip(game.players, a))}, sorted(ds))
        for a, ds in sorted(engine.joint_moves(c).items())
    ]


def _concurrent(model, engine, c: tuple, args) -> int:
    """``successors`` on a concurrent game: the successors of each joint action."""
    sp = model.game.space
    rows = joint_successors(model, engine, c)
    succ = engine.successors(c).tuples()
    if args.json:
        doc = {
            "position": sp.as_dict(c),
            "turn": None,
            "joint_actions": [
                {
                    "actions": {str(p): a for p, a in acts.items()},
                    "successors": [sp.as_dict(d) for d in ds],
                }
                for acts, ds in rows
            ],
            "successors": [sp.as_dict(d) for d in succ],
        }
        emit(args, doc, model, engine)
        return 0
    print(f"{position_text(sp, c)}  (concurrent: every player chooses an action)")
    print(
        f"{len(rows)} joint action(s), {len(succ)} successor(s)"
        + (":" if rows else " (a dead end: a player has no enabled action)")
    )
    for acts, ds in rows:
        joint = ", ".join(f"{p}: {a}" for p, a in acts.items())
        if not ds:
            print(f"    {joint}  ->  no successor (its updates contradict each other)")
        for d in ds:
            print(f"    {joint}  ->  {position_text(sp, d)}")
    return 0


def cmd_successors(args) -> int:
    model = load(args)
    engine = build_engine(model.game, args.engine, **tuning(args), check=False)
    sp = model.game.space
    c = engine.singleton(parse_position(sp, args.at)).first()  # refuses non-positions
    assert c is not None  # a singleton is not empty
    if is_concurrent(model.game, engine):
        return _concurrent(model, engine, c, args)
    turn = next(p for p in model.game.players if c in engine.turn_set({p}))
    succ = engine.successors(c).tuples()
    if args.json:
        doc = {
            "position": sp.as_dict(c),
            "turn": turn,
            "successors": [sp.as_dict(d) for d in succ],
        }
        emit(args, doc, model, engine)
        return 0
    print(f"{position_text(sp, c)}  (player {turn} to move)")
    print(f"{len(succ)} successor(s)" + (":" if succ else " (a dead end)"))
    for d in succ:
        print("    " + position_text(sp, d))
    return 0


def register(sub) -> None:
    s = sub.add_parser(
        "successors",
        help="the positions one move away from a position",
        description="List δ(c), the successors of one position c (ENS 2005, "
        "Q6), with the player to move; on a concurrent game, "
        "the successors of each joint action.",
    )
    model_args(s)
    s.add_argument(
        "--at",
        metavar="POSITION",
        required=True,
        help="the position, as the CLI prints it: 'j=1, k[1]=3, k[2]=3'",
    )
    engine_arg(s)
    json_arg(s)
    s.set_defaults(func=cmd_successors)
