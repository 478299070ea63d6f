"""``symbolic show``: describe a model."""

from __future__ import annotations

from .. import atl
from ..ir import ConcurrentGame
from ..limits import int_text
from ..printing import formula_text
from ..analysis.layered import initial_set
from ..api import graded_layers
from ..analysis.play import drawer
from .positions import read_position
from .common import (
    build_engine,
    count_text,
    load,
    model_args,
    position_text,
    tuning,
    value_text,
)

__all__ = ["clipped", "cmd_show", "graded_text", "show_position", "register"]


def cmd_show(args) -> int:
    model = load(args)
    g = model.game
    print(f"game {model.name}")
    for line in model.description.strip().splitlines():
        print(f"  {line.strip()}")
    if model.params:
        print("params: " + ", ".join(f"{k} = {value_text(v)}" for k, v in model.params.items()))
    print(f"players: {', '.join(map(str, g.players))}")
    print("variables:")
    for d in g.space.vars:
        rng = (
            "bool"
            if d.type.__class__.__name__ == "BoolType"
            else f"{int_text(d.type.lo)}..{int_text(d.type.hi)}"
        )
        if d.index is not None:
            rng = f"array[{int_text(d.index.lo)}..{int_text(d.index.hi)}] of {rng}"
        print(f"  {d.name} : {rng}")
    eng = build_engine(g, "symbolic", **tuning(args))
    print(f"positions: {count_text(eng.positions())} (of {int_text(g.space.size)} value vectors)")
    print(f"dead ends: {count_text(eng.deadlocks())}")
    print(f"graded: {graded_text(model, eng)}")
    if isinstance(g, ConcurrentGame):
        print("concurrent: every player chooses an action at once")
        print("actions:")
        for p in g.players:
            print(f"  {p}: {', '.join(g.action_labels(p))}")
        print(f"updates: {len(g.updates)}")
    else:
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
                df = model.definitions[n]
                ps = f"({', '.join(p for p, _ in df.params)})" if df.params else ""
                # a formula is short enough to read; a set's body is its expanded condition
                body = "" if n in sets else f" = {clipped(formula_text(df.body), 90)}"
                print(f"  {n}{ps}{body}")
    if model.queries:
        print("queries:")
        for q in model.queries:
            print(f"  {q.text}")
    if args.at is not None:
        show_position(model, eng, read_position(model, None, args.at))
    return 0


def graded_text(model, eng) -> str:
    """Whether the game is graded from the model's ``initial`` set (every move one
    layer further: the layered solving of ``check``, ``values --by-layer``)."""
    if "initial" not in model.definitions:
        return "unknown (the model names no initial set)"
    reach = graded_layers(eng, initial_set(eng, model.definitions))
    if reach is None:
        return "no (from initial, a move reaches a layer already seen)"
    return f"yes, from initial: {count_text(reach.result)} positions in {len(reach.layers)} layers"


def show_position(model, eng, pos: tuple) -> None:
    """The ``--at`` block: the position, whether it is one, whose turn, its
    number of successors, and its drawing when the model declares one."""
    g = model.game
    print(f"at {position_text(g.space, pos)}:")
    if pos not in eng.positions():
        print("  not a position of the game (it breaks an invariant)")
        return
    if isinstance(g, ConcurrentGame):
        for p in g.players:
            on = [a.label for a in g.actions_of(p) if pos in eng.from_expr(a.guard)]
            print(f"  actions of {p}: {', '.join(on) or 'none (a dead end)'}")
    else:
        turn = [p for p in g.players if pos in eng.turn_set({p})]
        print(f"  player to move: {', '.join(map(str, turn))}")
    print(f"  successors: {len(eng.successors(pos))}")
    if model.display is not None:
        for line in drawer(model.display, g.space, str)(pos).splitlines():
            print(f"  | {line}")


def register(sub) -> None:
    s = sub.add_parser(
        "show",
        help="describe a model: players, variables, moves, sets, queries",
        description="Describe a model: players, variables with ranges, number of "
        "positions, moves, named sets, formulas and queries.",
    )
    model_args(s)
    s.add_argument(
        "--at",
        metavar="POSITION",
        help="also show one position, e.g. 'j=1, k[1]=3, k[2]=3', drawn as the "
        "model's display declaration says",
    )
    s.set_defaults(func=cmd_show)


def clipped(text: str, width: int) -> str:
    """``text``, cut to ``width`` characters with ``...`` when longer.

    >>> clipped("abcdef", 5)
    'ab...'
    """
    return text if len(text) <= width else text[: width - 3] + "..."
