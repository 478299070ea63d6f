"""``symbolic simulate``: seeded games between optimal and random players.

Each player of the game gets a kind (``--players optimal,random``, in the
order of the game's players): ``optimal`` moves with
:func:`symbolic.analysis.play.choose_move` for itself alone, ``random`` picks a legal
move uniformly. One ``random.Random(seed)`` drives every choice and start, so
the same seed gives the same games, on either engine. Who wins is decided by
:class:`symbolic.analysis.outcome.Referee` (the game's declared outcome: ``win(p)`` sets, else the player who cannot move
loses and the last mover wins); a game still running after ``--max-moves``
moves is stopped and counted as a draw.
"""

from __future__ import annotations

import random

from .. import atl
from ..errors import QueryError
from ..analysis.play import (
    PLAYER_KINDS,
    Planner,
    Referee,
    random_player,
    run_play,
    solver_player,
    start_positions,
)
from .output import emit
from .common import (
    build_engine,
    engine_arg,
    int_arg,
    json_arg,
    load,
    model_args,
    refuse_concurrent,
    tuning,
)
from .moves import MoveNames
from .play import ENGINE_HELP, change_text, drawer

__all__ = ["player_kinds", "simulate", "cmd_simulate", "register"]


def player_kinds(text: str, players: tuple[int, ...]) -> dict[int, str]:
    """``optimal,random`` as {player: kind}, one kind per player in order."""
    kinds = [k.strip() for k in text.split(",")]
    bad = [k for k in kinds if k not in PLAYER_KINDS]
    if bad:
        raise QueryError(f"unknown player kind {bad[0]!r}: choose among {', '.join(PLAYER_KINDS)}")
    if len(kinds) != len(players):
        raise QueryError(
            f"--players gives {len(kinds)} kind(s) for {len(players)} players "
            f"({', '.join(map(str, players))})"
        )
    return dict(zip(players, kinds))


def simulate(
    model,
    engine,
    kinds: dict[int, str],
    games: int,
    seed: int,
    *,
    random_start: bool = False,
    start_formula: str | None = None,
    max_moves: int = 1000,
    trace=None,
) -> dict:
    """The results of ``games`` seeded plays (the JSON document of the command).

    ``trace(number, play)`` is called on each play, if given."""
    rng = random.Random(seed)
    rules = Referee(engine)
    planner = Planner(engine, rules)
    players = {
        p: solver_player(planner, {p}, rng) if k == "optimal" else random_player(rng)
        for p, k in kinds.items()
    }
    start_set = engine.positions() if random_start else None
    if start_formula is not None:
        start_set = atl.Evaluator(engine, model.definitions)(model.formula(start_formula))
    starts = start_positions(engine, model.definitions, start_set)
    if not starts:
        raise QueryError("no start position with a legal move (see --from)")
    if random_start:
        pool, fixed = starts.tuples(), ()
    else:
        first = starts.first()
        assert first is not None  # starts is not empty
        pool, fixed = [], first
    wins = {p: 0 for p in kinds}
    draws = capped = 0
    lengths = []
    for n in range(games):
        start = rng.choice(pool) if random_start else fixed
        play = run_play(engine, rules, players, start, max_moves)
        lengths.append(len(play.movers))
        if play.outcome is None:
            capped += 1
            draws += 1
        elif play.outcome.draw:
            draws += 1
        else:
            for p in play.outcome.winners:
                wins[p] += 1
        if trace is not None:
            trace(n + 1, play)
    return {
        "seed": seed,
        "games": games,
        "players": {str(p): k for p, k in kinds.items()},
        "rules": rules.kind,
        "start": None if random_start else model.game.space.as_dict(fixed),
        "random_start": bool(random_start),
        "start_positions": starts.count(),
        "wins": {str(p): w for p, w in wins.items()},
        "draws": draws,
        "capped": capped,
        "max_moves": max_moves,
        # no game played: no length to take the mean, least or greatest of
        "moves": {
            "mean": round(sum(lengths) / games, 2) if games else None,
            "min": min(lengths, default=None),
            "max": max(lengths, default=None),
        },
    }


def cmd_simulate(args) -> int:
    model = load(args)
    refuse_concurrent("simulate", model.game)
    engine = build_engine(model.game, args.engine, **tuning(args), refuse="simulate")
    kinds = player_kinds(args.players, model.game.players)
    space = model.game.space
    draw = drawer(model)
    names = MoveNames(model)

    def trace(number, play):
        if number > args.trace:
            return
        print(f"--- game {number}")
        print(draw(play.positions[0]))
        for mover, before, after in zip(play.movers, play.positions, play.positions[1:]):
            name = names.between(before, after)
            said = change_text(space, before, after) if name == "?" else name
            print(f"player {mover} ({kinds[mover]}) plays {said}")
            print(draw(after))
        out = play.outcome
        print(
            "stopped at the move cap (a draw)"
            if out is None
            else f"a draw ({out.reason})"
            if out.draw
            else f"player{'s' if len(out.winners) > 1 else ''} "
            f"{', '.join(map(str, out.winners))} win{'' if len(out.winners) > 1 else 's'} "
            f"({out.reason})"
        )

    doc = simulate(
        model,
        engine,
        kinds,
        args.games,
        args.seed,
        random_start=args.random_start,
        start_formula=args.start_from,
        max_moves=args.max_moves,
        trace=None if args.json else trace,
    )
    if args.json:
        emit(args, doc, model, engine)
        return 0
    params = ", ".join(f"{k}={v}" for k, v in model.params.items())
    print(
        f"{model.name}"
        + (f" [{params}]" if params else "")
        + f": {args.games} games, seed {args.seed}, engine {engine.kind}, {doc['rules']}"
    )
    if args.random_start:
        print(f"start: random among {doc['start_positions']} positions")
    else:
        shown = draw(tuple(doc["start"].values()))
        print("start:" + ("\n" if "\n" in shown else " ") + shown)
    for p, k in kinds.items():
        print(f"player {p} ({k}): {doc['wins'][str(p)]} wins")
    print(f"draws: {doc['draws']} ({doc['capped']} stopped at the cap of {args.max_moves} moves)")
    m = doc["moves"]
    if args.games:
        print(f"moves per game: mean {m['mean']}, min {m['min']}, max {m['max']}")
    else:
        print("moves per game: no game played")
    return 0


def register(sub) -> None:
    s = sub.add_parser(
        "simulate",
        help="seeded games between optimal and random players",
        description="Play seeded games between optimal and random players and "
        "count the wins of each player. The same seed gives the "
        "same output on either engine.",
    )
    model_args(s)
    engine_arg(s, help=ENGINE_HELP)
    s.add_argument(
        "--players",
        required=True,
        metavar="KINDS",
        help="one kind per player, in order: optimal or random (e.g. optimal,random)",
    )
    s.add_argument("--games", type=int_arg(0), default=100, metavar="G", help="games (default 100)")
    s.add_argument("--seed", type=int_arg(), default=0, metavar="S", help="random seed (default 0)")
    s.add_argument(
        "--random-start",
        action="store_true",
        help="draw each game's start uniformly among the positions of --from "
        "(default: all positions) that are not dead ends",
    )
    s.add_argument(
        "--from",
        dest="start_from",
        metavar="FORMULA",
        help="the start positions; without --random-start every game starts at "
        "the first of them that is not a dead end (default: the model's set "
        "'initial', else all positions)",
    )
    s.add_argument(
        "--max-moves",
        type=int_arg(0),
        default=1000,
        metavar="N",
        help="stop a game after N moves and count it as a draw (default 1000)",
    )
    s.add_argument(
        "--trace",
        type=int_arg(0),
        default=0,
        metavar="N",
        help="print the first N games move by move, drawn",
    )
    json_arg(s)
    s.set_defaults(func=cmd_simulate)
