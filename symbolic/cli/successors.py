"""``symbolic successors``: δ(c), the positions one move away (ENS 2005, Q6)."""

from __future__ import annotations


from .output import emit
from .common import (
    build_engine,
    engine_arg,
    is_concurrent,
    json_arg,
    load,
    model_args,
    position_text,
    tuning,
)
from .moves import MoveNames, joint_actions, numbered
from .positions import entry, headed, position_shower, read_position

__all__ = ["cmd_successors", "register"]


def _concurrent(model, engine, c: tuple, args) -> int:
    """``successors`` on a concurrent game: the successors of each joint action, named
    and numbered by :func:`symbolic.cli.moves.joint_actions`."""
    sp = model.game.space
    rows = joint_actions(model, engine, c)
    succ = engine.successors(c).tuples()
    if args.json:
        doc = {
            "position": sp.as_dict(c),
            "turn": None,
            "joint_actions": [
                {
                    "number": j.number,
                    "actions": j.actions,
                    "successors": [sp.as_dict(d) for d in j.successors],
                }
                for j in rows
            ],
            "successors": [sp.as_dict(d) for d in succ],
        }
        emit(args, doc, model, engine)
        return 0
    show = position_shower(model)
    print(headed(show(c), "concurrent: every player chooses an action"))
    print(
        f"{len(rows)} joint action(s), {len(succ)} successor(s)"
        + (":" if rows else " (a dead end: a player has no enabled action)")
    )
    for j in rows:
        head = f"  {j.number:>3}) " + ", ".join(f"{p}: {a}" for p, a in j.actions.items())
        if not j.successors:
            print(f"{head}  ->  no successor (its updates contradict each other)")
        for d in j.successors:
            print(entry(head, show(d)))
    return 0


def cmd_successors(args) -> int:
    model = load(args)
    engine = build_engine(model.game, args.engine, **tuning(args), check=False)
    sp = model.game.space
    c = read_position(model, engine, args.at)
    if is_concurrent(model.game, engine):
        return _concurrent(model, engine, c, args)
    turn = next(p for p in model.game.players if c in engine.turn_set({p}))
    succ = engine.successors(c).tuples()
    names = MoveNames(model)
    if args.json:
        doc = {
            "position": sp.as_dict(c),
            "turn": turn,
            "successors": [sp.as_dict(d) for d in succ],
            "moves": names.names_of(c, succ),
        }
        emit(args, doc, model, engine)
        return 0
    show = position_shower(model)
    print(headed(show(c), f"player {turn} to move"))
    print(f"{len(succ)} successor(s)" + (":" if succ else " (a dead end)"))
    legal = numbered(names.legal(c))
    for key, m in legal:
        print(entry(f"  {key:>3}) {m.name}", show(m.target)))
    unnamed = set(succ) - {m.target for _, m in legal}  # the engines disagree: say so
    for d in sorted(unnamed):
        print(f"    ?)  ->  {position_text(sp, d)} (no move of the model leads there)")
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
        default="",
        help="the position, as the CLI prints it: 'j=1, k[1]=3, k[2]=3' (slots left out "
        "take their value in the model's set 'initial' where it fixes them)",
    )
    engine_arg(s)
    json_arg(s)
    s.set_defaults(func=cmd_successors)
