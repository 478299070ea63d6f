"""``symbolic values``: the ±k value of every position of a two-player game.

The value (:mod:`symbolic.analysis.values`), for the outcome the game declares
(:mod:`symbolic.analysis.outcome`: normal play, misère, win(p) sets, GDL goals), is
+k when the player to move wins within k moves whatever the other does, −k when they
lose but can hold out k moves, 0 at a finished play someone has won (in normal play
and with win(p) sets the player to move has lost there; in misère play they have
won), and none (a draw) where neither player can force a win. The symbolic engine reads it
from two layered attractors; the explicit engine from its own retrograde sweep
(:mod:`symbolic.explicit.values`); ``--engine both`` compares the two.
"""

from __future__ import annotations

import sys
import time

from .. import atl
from ..api import difference_witness
from ..analysis.values import check_two_players, game_players, two_player_values
from ..analysis.layered import initial_set, layer_outcomes
from ..analysis.layered_solve import graded_reach, layered_source, layered_values
from ..analysis.outcome import rule_text
from .. import ir
from ..errors import LimitExceeded, QueryError
from ..limits import current as current_limits
from .distributed import (
    distributed_args,
    distributed_asked,
    layer_store,
    layers_of,
    note_local,
    spread_for,
)
from .output import ALL_LIMIT, all_rows, emit, print_rows
from .positions import listed, position_shower, read_position
from .common import (
    engine_text,
    title_text,
    ENGINE_CHOICES,
    build_engine,
    build_engines,
    engine_arg,
    engine_kinds,
    json_arg,
    layered_arg,
    int_arg,
    load,
    model_args,
    note_work,
    position_text,
    refuse_concurrent,
    tuning,
)

__all__ = ["value_text", "valued", "result_of", "cmd_values", "register"]


class _Table:
    """Values of one engine behind one interface: counts, draws, value at a position."""

    def __init__(self, kind: str, engine, reach=None):
        self.kind = kind
        self.engine = engine
        if kind == "symbolic":
            self._values = (
                two_player_values(engine) if reach is None else layered_values(engine, reach)
            )
            self.counts = self._values.counts()
            self.draws = self._values.draws.count()
        else:
            check_two_players(engine)
            self._table = engine.retrograde_values()
            if reach is not None:  # the explicit sweep over every position, restricted to R
                self._table = {c: v for c, v in self._table.items() if c in reach.result}
            self.counts = {}
            for v in self._table.values():
                if v is not None:
                    self.counts[v] = self.counts.get(v, 0) + 1
            self.counts = dict(sorted(self.counts.items()))
            self.draws = sum(v is None for v in self._table.values())

    def every(self, reach, limit: int) -> list[tuple[tuple, int | None]]:
        """``(position, value)`` for every position solved (``reach``'s when layered), in
        order; refused above ``limit`` positions (0: no bound)."""
        over = self.engine.positions() if reach is None else reach.result
        return [(p, self.value(p)) for p in all_rows(over, limit, "value")]

    def value(self, pos) -> int | None:
        if self.kind == "symbolic":
            return self._values.value(pos)
        return self._table[pos]


def _first_mismatch(sym: _Table, exp: _Table, space) -> str | None:
    """Where the two engines' values differ (the smallest such position), or None:
    the explicit table, grouped by value, against the symbolic sets, set by set."""
    values = sym._values
    groups: dict = {}
    for pos, v in exp._table.items():
        groups.setdefault(v, []).append(pos)
    for v in sorted(set(groups) | set(values.by_value) | {None}, key=lambda x: (x is None, x)):
        mine = values.draws if v is None else values.positions_of(v)
        w = difference_witness(mine, sym.engine.from_tuples(groups.get(v, [])))
        if w is not None:
            return (
                f"at {position_text(space, w)}: symbolic {value_text(sym.value(w))}, "
                f"explicit {value_text(exp.value(w))}"
            )
    return None


def value_text(v: int | None, zero_won: bool = False) -> str:
    """+k, -k, 0 (+0 where a finished play is the mover's win: misère play), or 'draw'.

    >>> value_text(3), value_text(-2), value_text(0), value_text(None), value_text(0, True)
    ('+3', '-2', '0', 'draw', '+0')
    """
    return "draw" if v is None else (f"+{v}" if v > 0 or (v == 0 and zero_won) else str(v))


def _zero_won(model) -> bool:
    """Whether value 0 (a finished play) is a win of the player to move: misère play."""
    return isinstance(model.game.outcome, ir.MiserePlay)


def valued(text: str, value: str) -> str:
    """A position's text and its value: ``TEXT: +3`` on one line, or below a drawing
    of several lines as ``value: +3``.

    >>> valued("j=1, k=2", "+3")
    'j=1, k=2: +3'
    >>> print(valued("|||\\nplayer 1 to move", "-2"))
    |||
    player 1 to move
    value: -2
    """
    return f"{text}: {value}" if "\n" not in text else f"{text}\nvalue: {value}"


def result_of(model, v: int | None) -> str:
    """ "win", "loss" or "draw" for the player to move, from the value."""
    if v is None:
        return "draw"
    return "win" if v > 0 or (v == 0 and _zero_won(model)) else "loss"


def _won_lost(model, main) -> tuple[int, int]:
    """The positions the player to move wins and loses (draws apart)."""
    won = sum(n for v, n in main.counts.items() if v > 0 or (v == 0 and _zero_won(model)))
    return won, sum(main.counts.values()) - won


def _initial(model, engine, limit: int) -> list[tuple] | None:
    """The model's ``initial`` positions (at most ``limit``; 0: all), or None
    when the model names no such set."""
    if "initial" not in model.definitions:
        return None
    ps = atl.evaluate(engine, model.formula("initial"), model.definitions).tuples()
    return ps if limit == 0 else ps[:limit]


def _outcomes_or_solved(model, engine, args, store=None):
    """:func:`layer_outcomes` of ``engine`` (with ``store``, a
    :class:`~symbolic.distributed.layer_store.LayerStore`, when given); when a limit
    stops it, the rows solved so far ride on the error (``solved``, the last layers
    first) and, without ``--json``, are printed before it (the JSON document of the
    stop carries them)."""
    solved: list = []
    lim = current_limits()

    def rows() -> list:
        return [{"layer": k, "win": w, "draw": d, "loss": lo} for k, w, d, lo in list(solved)]

    lim.solved = rows  # the watchdog's stop document carries them too
    try:
        return layer_outcomes(
            model.definitions,
            engine,
            layered=args.layered != "off",
            on_row=solved.append,
            store=store,
        )
    except LimitExceeded as err:
        if solved:
            err.solved = rows()
            if not args.json:
                print(
                    f"stopped after solving {len(solved)} layers (the player to move wins, "
                    "draws, loses with perfect play):"
                )
                print(f"\n{'layer':>5} {'win':>14} {'draw':>14} {'loss':>14}")
                for k, w, d, lo in sorted(solved):
                    print(f"{k:>5} {w:>14} {d:>14} {lo:>14}")
        raise
    finally:
        lim.solved = None


def _by_layer(args, model) -> int:
    """``values --by-layer``: win / draw / loss counts of the player to move, layer by
    layer from the initial positions (:func:`symbolic.analysis.layered.layer_outcomes`),
    on each engine asked; exit 1 when two engines differ."""
    kinds = engine_kinds(args.engine)
    spread = distributed_asked(args, store_alone=True)
    if spread and args.layered == "off":
        raise QueryError("--workers and --scheduler solve layer by layer: not with --layered off")
    if args.work_dir is not None and args.layered == "off":
        raise QueryError("--work-dir keeps the layers of the layered solve: not with --layered off")
    note_work(args, args.layered != "off")
    tables = {}
    for kind in sorted(kinds, key=lambda k: k != "explicit"):  # size check first
        eng = build_engine(model.game, kind, **tuning(args), refuse="values")
        if spread and kind == "symbolic":
            with spread_for(args, model, eng) as sp:  # checks eng before a cluster opens
                assert sp is not None
                tables[kind] = sp.outcomes(initial_set(eng, model.definitions))
            continue
        if args.work_dir is not None and kind == "symbolic":
            store = layer_store(args, model, eng)
            tables[kind] = _outcomes_or_solved(model, eng, args, store)
            if store.read:
                print(
                    f"symbolic: note: read from {args.work_dir}: {', '.join(store.read)}",
                    file=sys.stderr,
                )
            continue
        tables[kind] = _outcomes_or_solved(model, eng, args)
    main = tables[kinds[0]]
    status = 0
    if args.engine == "both" and tables["symbolic"] != tables["explicit"]:
        status = 1
        print(
            f"MISMATCH: symbolic {tables['symbolic'].rows}, explicit {tables['explicit'].rows}",
            file=sys.stderr,
        )
    if args.json:
        emit(args, {"outcome": model.game.outcome.kind, **main.as_json()}, model, eng)
        return status
    print(title_text(model))
    print(f"outcome: {rule_text(model.game.outcome)}")
    print(
        f"{main.total} positions reachable from initial, by number of moves played "
        f"(the player to move wins, draws, loses with perfect play):"
    )
    print(f"\n{'layer':>5} {'win':>14} {'draw':>14} {'loss':>14}")
    for k, w, d, lo in main.rows:
        print(f"{k:>5} {w:>14} {d:>14} {lo:>14}")
    if args.engine == "both" and status == 0:
        print("\nsymbolic and explicit agree on every layer")
    return status


def _tables(args, model, at) -> tuple[dict, dict, dict, object]:
    """Each engine's :class:`_Table`, the engines, the seconds, and the graded layers
    solved on (None: every position, the plain fixpoints)."""
    spread = distributed_asked(args)
    if spread and args.layered == "off":
        raise QueryError("--workers and --scheduler solve layer by layer: not with --layered off")
    note_work(args)
    kinds, engines, timings = build_engines(model, args)
    refuse_concurrent("values", engine=engines[kinds[0]])  # a GDL game read as concurrent
    if at is not None:
        engines[kinds[0]].from_tuples([at])  # RangeError when the invariant excludes it
    tables: dict[str, _Table] = {}
    reach = None
    for kind in kinds:
        t0 = time.perf_counter()
        source = (
            None
            if args.layered == "off"
            else layered_source(model.definitions, engines[kind], at, args.layered)
        )
        # --engine both: the explicit engine's retrograde sweep runs here
        asked = args if kind == "symbolic" or args.engine != "both" else None
        with spread_for(asked, model, engines[kind]) as sp:
            r = (
                None
                if source is None
                else graded_reach(engines[kind], source, args.layered, layers_of(sp))
            )
            if r is None:
                note_local(sp, "the values (no graded layers to solve on: plain fixpoints)")
            tables[kind] = _Table(kind, engines[kind], r)
        reach = r if kind == kinds[0] else reach
        timings[kind] += time.perf_counter() - t0
    return tables, engines, timings, reach


def _layered_note(reach, at) -> str | None:
    """The line under the engine line when the table covers the reachable positions only."""
    if reach is None or at is not None:
        return None
    return (
        f"layered: over the {reach.result.count()} positions reachable from initial "
        f"({len(reach.layers)} layers), not over every position"
    )


def cmd_values(args) -> int:
    model = load(args)
    refuse_concurrent("values", model.game)
    game = model.game
    assert isinstance(game, ir.Game)  # a concurrent game is refused above
    game_players(game)  # before exploring (a GDL game's engine explores at once)
    if args.by_layer:
        if args.at is not None:
            raise QueryError("--by-layer and --at do not go together")
        return _by_layer(args, model)
    if args.all and (args.at is not None or not (args.csv or args.json)):
        raise QueryError("--all needs --csv or --json, and no --at")
    if args.csv and not args.all:
        raise QueryError("--csv needs --all")
    space = model.game.space
    at = read_position(model, None, args.at) if args.at is not None else None
    kinds = engine_kinds(args.engine)
    tables, engines, timings, reach = _tables(args, model, at)
    main = tables[kinds[0]]
    status = 0
    mismatch = None
    if args.engine == "both":
        mismatch = _first_mismatch(tables["symbolic"], tables["explicit"], space)
        if mismatch:
            status = 1
            print(f"MISMATCH: {mismatch}", file=sys.stderr)
    if at is not None:
        v = main.value(at)
        if args.engine == "both" and tables["explicit"].value(at) != v:
            status = 1
        if args.json:
            doc = {
                "outcome": game.outcome.kind,
                "position": space.as_dict(at),
                "value": v,
                "result": result_of(model, v),
            }
            emit(args, doc, model, engines.get("symbolic"))
        else:
            print(valued(position_shower(model)(at), value_text(v, _zero_won(model))))
        return status
    if args.all:
        _print_all(args, model, main, reach)
        return status
    initial = _initial(model, engines[kinds[0]], 10 if args.limit is None else args.limit)
    if args.json:
        emit(
            args,
            _json_doc(model, args, main, initial, mismatch, reach),
            model,
            engines.get("symbolic"),
        )
        return status
    _print_table(model, args, main, engines, timings, initial, reach)
    if args.engine == "both" and mismatch is None:
        print(
            "\nsymbolic and explicit agree on every position"
            + (" reachable from initial" if reach is not None else "")
        )
    return status


def _json_doc(model, args, main, initial, mismatch, reach) -> dict:
    """``values --json`` (the whole table)."""
    space = model.game.space
    won, lost = _won_lost(model, main)
    doc = {
        "outcome": model.game.outcome.kind,
        "positions": won + lost + main.draws,
        "counts": {str(v): n for v, n in main.counts.items()},
        "draws": main.draws,
    }
    if reach is not None:
        doc["layered"] = {
            "from": "initial",
            "positions": reach.result.count(),
            "layers": len(reach.layers),
        }
    if initial is not None:
        doc["initial"] = [
            {
                "position": space.as_dict(p),
                "value": main.value(p),
                "result": result_of(model, main.value(p)),
            }
            for p in initial
        ]
    if args.engine == "both":
        doc["agree"] = mismatch is None
    return doc


def _print_all(args, model, main, reach) -> None:
    """``values --all``: every position's value, as CSV or in the JSON document."""
    limit = ALL_LIMIT if args.limit is None else args.limit
    rows = main.every(reach, limit)
    zero_won = _zero_won(model)
    if args.csv:
        print_rows(model.game.space, rows, "value", lambda v: value_text(v, zero_won))
        return
    space = model.game.space
    doc = {
        "outcome": model.game.outcome.kind,
        "all": [
            {"position": space.as_dict(p), "value": v, "result": result_of(model, v)}
            for p, v in rows
        ],
    }
    emit(args, doc, model, main.engine)


def _print_table(model, args, main, engines, timings, initial, reach) -> None:
    """``values`` as text (the whole table)."""
    won, lost = _won_lost(model, main)
    print(title_text(model))
    print(f"outcome: {rule_text(model.game.outcome)}")
    print(
        engine_text(args, engines.get("symbolic"))
        + "; "
        + ", ".join(f"{k} {t:.2f} s" for k, t in timings.items())
    )
    note = _layered_note(reach, None)
    if note:
        print(note)
    print(
        f"{won + lost + main.draws} positions: {won} won by the player to move, "
        f"{lost} lost, {main.draws} drawn"
    )
    print("\n value  positions")
    for v, n in main.counts.items():
        print(f"{value_text(v, _zero_won(model)):>6}  {n:>9}")
    if main.draws:
        print(f"{'draw':>6}  {main.draws:>9}")
    if initial is not None:
        print("\ninitial positions:")
        show = position_shower(model)
        texts = []
        for p in initial:
            v = main.value(p)
            value = value_text(v, _zero_won(model)) + (
                "" if v is None else f" ({result_of(model, v)})"
            )
            texts.append(valued(show(p), value))
        print("\n".join(listed(texts)))


def register(sub) -> None:
    c = sub.add_parser(
        "values",
        help="the +k/-k value of each position of a two-player game",
        description="Values of a two-player game by the outcome it declares (normal play: "
        "the player left without a move loses; the model's win(p) sets; misere "
        "play; GDL goals): +k when the player to move wins within k moves "
        "whatever the other does, -k when they lose but can hold out k moves, 0 "
        "at a finished play someone has won, 'draw' where neither player can "
        "force a win.",
    )
    model_args(c)
    c.add_argument(
        "--at",
        metavar="POSITION",
        help="print the value of one position, written as the CLI prints it "
        "(e.g. 'mover=1, l=7, r=2, u=3, d=3')",
    )
    engine_arg(
        c,
        ENGINE_CHOICES,
        "symbolic (layered BDD fixpoints), explicit (retrograde "
        "sweep) or both (cross-check; exit 1 on any difference)",
    )
    c.add_argument(
        "--limit",
        type=int_arg(0),
        default=None,
        metavar="N",
        help="show at most N initial positions (default 10); with --all, refuse more "
        f"than N positions (default {ALL_LIMIT}); 0: no bound",
    )
    json_arg(c)
    c.add_argument(
        "--all",
        action="store_true",
        help="every position's value (with --csv: one row per position, a column per "
        "slot then the value; with --json: a list 'all')",
    )
    c.add_argument("--csv", action="store_true", help="with --all: print CSV")
    c.add_argument(
        "--by-layer",
        action="store_true",
        help="instead: for each layer k of the positions reachable from the "
        "model's initial set (k moves played; the game must be graded), how "
        "many the player to move wins, draws and loses with perfect play "
        "(by the outcome the game declares, as without --by-layer)",
    )
    distributed_args(c)
    layered_arg(
        c,
        "solve one layer at a time: auto (default: when the game is graded from "
        "the model's initial set, the table covers the positions reachable from "
        "it, with the plain values; with --at, layered from that position when "
        "graded from it: the same value), on (the same, an error when not graded), "
        "off (every position, plain fixpoints; --by-layer: the plain until "
        "intersected with the reachable set)",
    )
    c.set_defaults(func=cmd_values)
