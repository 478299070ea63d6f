"""``symbolic play``: a person plays a model in the terminal against the solver.

The person plays the players of ``--as`` (default: the first player); the
solver plays all the others, as one coalition, with
:func:`symbolic.analysis.play.choose_move`. Input is read line by line from stdin (a
pipe works): a number from the menu of legal moves, or the position to move
to written as the CLI prints it (``j=2, k[1]=3``); ``list`` shows the menu
again, ``quit`` stops. A move is named as the model writes it (``take(1, 3)``) and
keeps its number while it is legal (:mod:`symbolic.cli.moves`); it may also be typed
by its name.
"""

from __future__ import annotations

import sys

from .. import atl, ir
from ..api import union_all
from ..errors import QueryError, SymbolicError
from ..limits import is_int_text, short_text
from ..analysis.play import Planner, Referee, choose_move, start_positions
from .common import (
    build_engine,
    engine_arg,
    load,
    model_args,
    parse_position,
    position_text,
    refuse_concurrent,
    tuning,
)
from .moves import MoveNames, Named, numbered
from .positions import position_shower, read_position

__all__ = [
    "ENGINE_HELP",
    "drawer",
    "players_of",
    "change_text",
    "menu_of",
    "start_of",
    "MAX_LINE",
    "Terminal",
    "evaluation",
    "goal_planners",
    "forced_goal",
    "cmd_play",
    "goal_evaluation",
    "verdict",
    "register",
]

#: ``--engine`` of play and simulate
ENGINE_HELP = "the engine computing successors and winning regions (both choose the same moves)"


def drawer(model):
    """position -> its text: the model's drawing, a GDL state's true fluents, else the
    position as the CLI writes it (:func:`symbolic.cli.positions.position_shower`)."""
    return position_shower(model)


def players_of(text: str, players: tuple[int, ...]) -> frozenset:
    """``1,3`` as a set of players of the game (QueryError for anything else)."""
    out = set()
    for item in text.split(","):
        item = item.strip()
        if not is_int_text(item) or len(item) > 20:
            raise QueryError(
                f"--as expects player numbers separated by commas, got {short_text(text)}"
            )
        if int(item) not in players:
            raise QueryError(
                f"unknown player {item}: the players are {', '.join(map(str, players))}"
            )
        out.add(int(item))
    return frozenset(out)


def change_text(space, before: tuple, after: tuple, skip=frozenset()) -> str:
    """The slots a move changes: ``k[1]: 7 -> 5, j: 1 -> 2`` (slot indices in
    ``skip`` left out, unless nothing else changes)."""
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    shown = [i for i in changed if i not in skip] or changed
    return (
        ", ".join(f"{space.slots[i].label}: {before[i]} -> {after[i]}" for i in shown)
        or "no change"
    )


def start_of(model, engine, text: str | None) -> tuple:
    """The ``--at`` position (alias ``--start``; partial, completed from ``initial`` by
    :func:`symbolic.cli.positions.read_position`), else the first position of the model's
    set ``initial`` that is not a dead end."""
    if text is not None:
        return read_position(model, engine, text)
    if "initial" not in model.definitions:
        raise QueryError(f"{model.source}: the model declares no set 'initial': pass --at POSITION")
    first = start_positions(engine, model.definitions).first()
    if first is None:
        raise QueryError(
            f"{model.source}: every position of 'initial' is a dead end: pass --at POSITION"
        )
    return first


#: the longest input line read as a move (a position of a large model is long,
#: a megabyte is not a move): longer lines are refused without being parsed
MAX_LINE = 100_000


class Terminal:
    """Line input and output of a play (stdin may be a pipe: the lines read
    are echoed after the prompt so that a transcript reads as a dialogue).

    Standard input is hostile input: closed (``<&-``), not UTF-8, or a line of
    a megabyte are refused with a QueryError (closed, not text) or a note and
    a new prompt (too long), never a traceback."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        if self.stdin is None:  # the shell closed it: sys.stdin is None
            raise QueryError(
                "play reads the moves from standard input, which is closed "
                "(give it a terminal or a pipe)"
            )
        self.echo = not getattr(self.stdin, "isatty", lambda: False)()
        self.lines = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except UnicodeDecodeError as err:
            # decoded by blocks: the line of the byte is not known
            raise QueryError(
                f"standard input is not UTF-8 text (byte {err.object[err.start]:#04x})"
            ) from None
        except (OSError, ValueError) as err:  # a closed or unreadable descriptor
            raise QueryError(f"cannot read the moves from standard input: {err}") from None
        if not line:
            self.say()
            return None
        self.lines += 1
        if self.echo:
            shown = line.rstrip("\n")
            self.stdout.write((shown if len(shown) <= 200 else short_text(shown, 200)) + "\n")
        if len(line) > MAX_LINE:
            self.say(
                f"line {self.lines} has {len(line)} characters: not a move (at most {MAX_LINE})"
            )
            return ""
        return line.strip()


def evaluation(planner: Planner, solver, person, pos, wins: str = "wins") -> str:
    """Who can force what from ``pos``, in words (``wins``: what the solver's
    objective reads as)."""
    r = planner.rank(solver, pos)
    if r is not None:
        return f"evaluation: the solver {wins} in at most {r} move{'s' if r != 1 else ''}"
    r = planner.rank(person, pos)
    if r is not None:
        return (
            f"evaluation: you can still win (you can force it within {r} "
            f"move{'s' if r != 1 else ''})"
        )
    if wins != "wins":
        return "evaluation: neither side can force its goal from here"
    return "evaluation: neither side can force a win from here (a draw with best play)"


def goal_planners(engine, rules: Referee, side: frozenset) -> dict[int, Planner]:
    """GDL goals, a side of one role r: {v: a planner whose target for the side is
    the terminal dead ends where r gets at least v}, for each goal value v of r
    (the forced value of ``symbolic gdl``: the largest v whose region holds the
    position). Empty for any other outcome or side."""
    rule = engine.game.outcome
    if not isinstance(rule, ir.GoalValues) or len(side) != 1:
        return {}
    (r,) = side
    vals = rule.values_of(r)
    return {
        v: Planner(
            engine, rules, {side: union_all(engine, [rules.goal_set(r, w) for w in vals if w >= v])}
        )
        for v in vals
    }


def forced_goal(planners: dict[int, Planner], side: frozenset, pos) -> int | None:
    """The largest goal value the side forces from ``pos`` (None: none)."""
    return max((v for v, pl in planners.items() if pl.rank(side, pos) is not None), default=None)


def cmd_play(args) -> int:
    term = Terminal()  # refuses a closed standard input before any work
    model = load(args)
    refuse_concurrent("play", model.game)
    game, space = model.game, model.game.space
    engine = build_engine(game, args.engine, **tuning(args), refuse="play")
    person = (
        players_of(args.as_players, game.players)
        if args.as_players is not None
        else frozenset({game.players[0]})
    )
    solver = frozenset(game.players) - person
    if not solver:
        raise QueryError("--as takes every player: leave at least one to the solver")
    rules = Referee(engine)
    targets = {}
    goal_text = rules.describe(solver)
    wins = "wins"
    if args.goal:
        wins = "reaches its goal"
        f = model.formula(args.goal)
        targets[solver] = atl.Evaluator(engine, model.definitions)(f)
        goal_text = f"reach {args.goal}"
    planner = Planner(engine, rules, targets)
    by_goal = {} if args.goal else {s: goal_planners(engine, rules, s) for s in (solver, person)}
    draw = drawer(model)
    names = MoveNames(model)
    pos = start_of(model, engine, args.at)
    who = lambda ps: ", ".join(map(str, sorted(ps)))  # noqa: E731
    term.say(
        f"{model.name}: you play {who(person)}; the solver plays {who(solver)} "
        f"(its goal: {goal_text})."
    )
    term.say(
        "Type the number or the name of a move, or the position to move to; 'list' "
        "shows the moves, 'quit' stops."
    )
    term.say()
    term.say(draw(pos))
    last = None
    moves = 0
    while True:
        succ = engine.successors(pos).tuples()
        if succ:
            term.say(
                goal_evaluation(by_goal, solver, person, pos)
                if by_goal.get(solver) and by_goal.get(person)
                else evaluation(planner, solver, person, pos, wins)
            )
        else:
            term.say()
            term.say(verdict(rules.result(pos, last), person, solver, moves))
            return 0
        mover = rules.mover(pos)
        if mover in solver:
            best = forced_goal(by_goal.get(solver, {}), solver, pos)
            nxt = choose_move(planner if best is None else by_goal[solver][best], pos, solver)
            term.say()
            name = names.between(pos, nxt)
            said = change_text(space, pos, nxt) if name == "?" else name
            term.say(f"The solver (player {mover}) plays {said}.")
        else:
            asked = _ask_move(term, space, pos, menu_of(names, space, pos, succ), mover)
            if asked is None:
                term.say("Game left unfinished.")
                return 0
            nxt = asked
            term.say()
        last, pos, moves = mover, nxt, moves + 1
        term.say(draw(pos))


def goal_evaluation(by_goal: dict, solver, person, pos) -> str:
    """GDL: the goal values each side forces from ``pos`` (as ``symbolic gdl`` computes
    them from the initial state)."""
    s, p = forced_goal(by_goal[solver], solver, pos), forced_goal(by_goal[person], person, pos)
    return (
        f"evaluation: with best play the solver gets at least {s}, you at least {p} (goal values)"
    )


def verdict(out, person, solver, moves: int) -> str:
    """The last line of a play: who won by the game's outcome, and why."""
    after = f"after {moves} move{'s' if moves != 1 else ''}"
    if out.goals:
        got = ", ".join(f"player {p} {v}" for p, v in out.goals)
        return (
            f"Game over {after}: goal values {got}"
            + ("" if out.draw else f": {_side(out, person, solver)}")
            + "."
        )
    if out.draw:
        return f"Game over {after}: a draw ({out.reason})."
    won = "player" + ("s " if len(out.winners) > 1 else " ") + ", ".join(map(str, out.winners))
    return f"Game over {after}: {_side(out, person, solver)} ({won}; {out.reason})."


def _side(out, person, solver) -> str:
    """Which side has won by the coalition rule (one of its players won, none lost)."""
    if out.side_wins(person):
        return "you win"
    if out.side_wins(solver):
        return "the solver wins"
    return (
        "both sides have a winner and a loser: players " + ", ".join(map(str, out.winners)) + " win"
    )


def menu_of(names: MoveNames, space, pos: tuple, succ: list[tuple]) -> list[tuple[str, Named]]:
    """The numbered legal moves at ``pos`` (:func:`symbolic.cli.moves.numbered`), those
    among the engine's successors ``succ``; a successor no move of the model names (the
    engines disagree: never on a checked game) is listed by the slots it changes."""
    menu = [(k, m) for k, m in numbered(names.legal(pos)) if m.target in succ]
    named = {m.target for _, m in menu}
    extra = [d for d in succ if d not in named]
    menu += [(f"x{i}", Named(0, change_text(space, pos, d), d)) for i, d in enumerate(extra, 1)]
    return menu


def _menu(term: Terminal, menu: list[tuple[str, Named]]) -> None:
    """The legal moves, each with its number."""
    term.say("Legal moves:")
    for key, m in menu:
        term.say(f"  {key:>3}) {m.name}")


def _ask_move(term: Terminal, space, pos, menu: list[tuple[str, Named]], mover) -> tuple | None:
    """The person's move: a number or a name of the menu, or a position one move away."""
    _menu(term, menu)
    by_key = {k: m.target for k, m in menu}
    by_name = {m.name.replace(" ", ""): m.target for _, m in menu}
    succ = {m.target for _, m in menu}
    keys = ", ".join(k for k, _ in menu)
    while True:
        line = term.ask(f"player {mover}, your move> ")
        if line is None or line.lower() in ("quit", "q", "exit"):
            return None
        if not line:
            continue
        if line.lower() in ("list", "l", "?", "help"):
            _menu(term, menu)
            continue
        if line in by_key:
            return by_key[line]
        if line.replace(" ", "") in by_name:
            return by_name[line.replace(" ", "")]
        if is_int_text(line) or line.replace(".", "").isdigit():
            shown = line if len(line) <= 20 else short_text(line, 20)
            term.say(f"no legal move {shown}: choose one of {keys}")
            continue
        if "=" not in line:
            term.say(
                f"not a move: {short_text(line)} (type one of {keys}, a move's name, or 'list')"
            )
            continue
        try:
            target = parse_position(space, line)
        except SymbolicError as err:
            term.say(f"not a move: {err} (type one of {keys}, or 'list')")
            continue
        if target in succ:
            return target
        term.say(
            f"illegal move: {position_text(space, target)} is not reachable in one "
            f"move (type 'list' to see the legal moves)"
        )


def register(sub) -> None:
    p = sub.add_parser(
        "play",
        help="play a model in the terminal against the solver",
        description="Play a model against the solver, which plays for every "
        "player not given to --as, as one coalition. Moves are "
        "read line by line from stdin (a pipe works).",
    )
    model_args(p)
    engine_arg(p, help=ENGINE_HELP)
    p.add_argument(
        "--as",
        dest="as_players",
        metavar="PLAYERS",
        help="the players you play, e.g. 1 or 1,3 (default: the first player)",
    )
    p.add_argument(
        "--at",
        "--start",
        dest="at",
        metavar="POSITION",
        help="the starting position, e.g. 'j=1, k[1]=3, k[2]=3'; slots left out take "
        "their value in the model's set 'initial' where it fixes them (default: the "
        "first position of 'initial' that has a move; --start is the same option)",
    )
    p.add_argument(
        "--goal",
        metavar="FORMULA",
        help="the solver's goal, a formula it tries to reach (default: the "
        "model's win(p) sets, else leaving one of your players stuck)",
    )
    p.set_defaults(func=cmd_play)
