"""Memoryless strategies of a coalition, read off the fixpoints that prove it wins.

Reachability (⟨⟨J⟩⟩ σ U τ, ⟨⟨J⟩⟩◇τ, the TD's attractor). With the layers
until_0 = τ ⊆ until_1 ⊆ … of the least fixpoint, the *rank* of a position c is
the least n with c ∈ until_n. At a position of J of rank n ≥ 1 the strategy
moves to a successor in until_{n−1} (one exists, that is why c joined layer n);
at an opponent's position of rank n every successor is in until_{n−1}. So every
play consistent with the strategy from c reaches τ within rank(c) moves, inside σ.
As a relation (all the rank-lowering moves)::

    R = ⋃_{n ≥ 1} {(c, c') ∈ δ | t(c) ∈ J, c ∈ until_n ∖ until_{n−1}, c' ∈ until_{n−1}}

Safety and release (⟨⟨J⟩⟩□g, ⟨⟨J⟩⟩ f R g, the TD's "keep the draw" of Q30).
With Z = νZ. g ∩ (f ∪ pre(J, Z)) the greatest fixpoint, J moves from its
positions of Z ∖ f into Z: R = {(c, c') ∈ δ | t(c) ∈ J, c ∈ Z ∖ f, c' ∈ Z}. Every
play consistent with R stays in g until it reaches f ∩ g (or forever).

A strategy is built through the :class:`~symbolic.api.GameEngine` API only
(``until``/``release``, ``turn_set``, ``moves_between``), so it is a BDD relation
on the symbolic engine and a set of pairs on the explicit one; :meth:`Strategy.table`
picks one move per position (the smallest successor), the TD's dictionaries.
:func:`verify` checks a table by explicit search over plays, using nothing but
``successors`` (not the fixpoints the strategy came from).

>>> from symbolic.seeds.games import arena
>>> from symbolic.explicit import ExplicitGame
>>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1, 3: 2, 4: 2, 5: 1, 6: 2},
...     [(0, 1), (0, 4), (1, 2), (1, 6), (2, 3), (2, 5), (3, 2), (3, 6), (4, 3), (4, 5),
...      (5, 5), (6, 6)]))
>>> s = reach_strategy(G, {2}, G.positions(), G.from_tuples([(6,)]), DeadEnds.STRICT)
>>> {c[0]: d[0] for c, d in s.table().items()}, s.rank((0,))
({1: 6, 3: 6, 4: 3}, 3)
>>> verify(G, s.objective, s.table(), G.from_tuples([(0,)])).longest
{(0,): 3}
>>> count_strategies(G, 1)   # 2 moves at 0, 2 at 2, 1 at 5
4
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .. import atl
from ..api import (
    DeadEnds,
    GameEngine,
    MoveRelation,
    PositionSet,
    check_dead_ends,
    check_engine,
    check_set,
    least_fixpoint,
)
from ..arguments import need, need_int, need_mapping
from ..errors import ArgumentValueError, Hint, QueryError

__all__ = [
    "Objective",
    "Strategy",
    "Verdict",
    "IllegalMove",
    "reach_strategy",
    "release_strategy",
    "strategy_for",
    "verify",
    "count_strategies",
    "execute",
    "to_json",
    "to_dot",
    "dumps",
]

KINDS = ("reach", "safety")


class IllegalMove(QueryError):
    """A strategy proposes a move that is not in δ, or none where one is needed:
    ``player``'s table at the position ``at`` proposes ``proposed`` (None: no entry),
    and ``legal`` holds the positions it may move to (a caller may name them as moves)."""

    def __init__(
        self,
        message: str,
        player: int | None = None,
        at: tuple | None = None,
        proposed: tuple | None = None,
        legal: tuple = (),
    ):
        super().__init__(message)
        self.player, self.at, self.proposed, self.legal = player, at, proposed, legal


@dataclass(frozen=True)
class Objective:
    """What a coalition plays for.

    ``kind == "reach"``: stay in ``stay`` (σ) until ``goal`` (τ) holds.
    ``kind == "safety"``: stay in ``stay`` (g) forever, or until ``goal`` (f ∩ g)
    holds; ``goal`` is empty for ⟨⟨J⟩⟩□g. ``dead_ends`` says whether a play
    that ends at an opponent's dead end counts as won (VACUOUS) or lost (STRICT).
    """

    kind: str
    coalition: frozenset
    stay: PositionSet
    goal: PositionSet
    dead_ends: DeadEnds

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ArgumentValueError(
                f"an objective's kind is one of {KINDS}, got {self.kind!r:.60}"
            )
        need(self.coalition, frozenset, "the coalition (engine.game.coalition(...))")
        need(self.stay, PositionSet, "stay")
        check_set(self.stay.engine, self.goal, "goal")
        check_dead_ends(self.dead_ends)


@dataclass(frozen=True)
class Strategy:
    """A memoryless strategy of ``objective.coalition``.

    ``region``: the positions it wins from; ``relation``: the coalition's allowed
    moves (rank-lowering, or staying in the region); ``layers``: the cumulative
    until layers (reachability only), which define :meth:`rank`.
    """

    engine: GameEngine
    objective: Objective
    region: PositionSet
    relation: MoveRelation
    layers: tuple | None = field(default=None, repr=False)

    def rank(self, pos) -> int | None:
        """The least n with pos ∈ until_n (None outside the region; safety: None)."""
        if self.layers is None or pos not in self.region:  # ``in`` checks the position
            return None
        lo, hi = 0, len(self.layers) - 1  # layers grow: binary search
        while lo < hi:
            mid = (lo + hi) // 2
            if pos in self.layers[mid]:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def table(self, over: PositionSet | None = None) -> dict[tuple, tuple]:
        """{c: c'} for the coalition's positions of ``over`` (default: all) where the
        strategy moves: the smallest allowed successor (the TD's dictionary)."""
        rel = (
            self.relation
            if over is None
            else self.relation.restrict(check_set(self.engine, over, "over"))
        )
        return rel.table()

    def _repr_html_(self) -> str:
        """Jupyter: the objective, the winning region's size and the first moves of
        the table (at most 20, found without listing the others)."""
        from ..html import ROWS, table_html

        e, obj = self.engine, self.objective
        sources = self.relation.sources()
        first = e.from_tuples(list(sources.take(ROWS)))
        moves = sorted(self.relation.restrict(first).table().items())
        J = "{" + ", ".join(map(str, sorted(obj.coalition))) + "}"
        label = lambda c: ", ".join(f"{k}={v}" for k, v in e.space.as_dict(c).items())
        return table_html(
            ["from", "to"],
            [(label(c), label(d)) for c, d in moves],
            sources.count(),
            f"strategy of {J} ({obj.kind}, dead ends "
            f"{obj.dead_ends.value}): wins from {self.region.count()} positions; "
            f"moves from {sources.count()} positions",
        )

    def outcome(self, start: PositionSet) -> PositionSet:
        """The positions met by plays from ``start ∩ region`` where the coalition
        follows :meth:`table` and the others play anything; a play is not followed
        past the goal. The least fixpoint X = S ∪ pick(R)(X ∖ goal) ∪ post(X ∖ goal ∖ tour_J)."""
        e = self.engine
        check_set(e, start, "the start")
        chosen = self.relation.pick()
        theirs = ~e.turn_set(self.objective.coalition)
        live = self.region - self.objective.goal

        def step(x):
            open_ = x & live
            return x | chosen.image(open_) | e.post(open_ & theirs)

        return least_fixpoint(step, start & self.region).result


def reach_strategy(
    engine: GameEngine,
    coalition: Iterable[int],
    stay: PositionSet,
    target: PositionSet,
    dead_ends: DeadEnds,
) -> Strategy:
    """The rank-lowering strategy of ⟨⟨J⟩⟩ stay U target (``until`` with its layers)."""
    J = check_engine(engine).game.coalition(coalition)
    check_set(engine, stay, "stay")
    check_set(engine, target, "the target")
    fp = engine.until(J, stay, target, dead_ends=dead_ends, keep_layers=True)
    mine = engine.turn_set(J)
    rel = engine.moves_between(engine.empty(), engine.empty())
    layers = fp.approximations()
    for prev, cur in zip(layers, layers[1:]):
        rel = rel | engine.moves_between((cur - prev) & mine, prev)
    return Strategy(
        engine, Objective("reach", J, stay, target, dead_ends), fp.result, rel, fp.layers
    )


def release_strategy(
    engine: GameEngine,
    coalition: Iterable[int],
    left: PositionSet,
    right: PositionSet,
    dead_ends: DeadEnds,
) -> Strategy:
    """The strategy of ⟨⟨J⟩⟩ left R right (``left`` empty: ⟨⟨J⟩⟩□right): from J's
    positions of Z ∖ left, the moves into Z, Z the greatest fixpoint."""
    J = check_engine(engine).game.coalition(coalition)
    check_set(engine, left, "left")
    check_set(engine, right, "right")
    z = engine.release(J, left, right, dead_ends=dead_ends).result
    goal = left & right
    rel = engine.moves_between((z - goal) & engine.turn_set(J), z)
    return Strategy(engine, Objective("safety", J, right, goal, dead_ends), z, rel)


def strategy_for(
    engine: GameEngine,
    formula: atl.Formula,
    definitions: Mapping[str, atl.Definition] | None = None,
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
) -> Strategy:
    """The strategy of the coalition of ``formula``: an until (``<<J>> f U g``,
    ``<<J>> <> g``) or a release (``<<J>> f R g``, ``<<J>> [] g``), maybe behind
    named formulas (``forces_win(1)``); its operands are evaluated as usual."""
    ev = atl.Evaluator(engine, definitions, dead_ends=dead_ends)  # checks its arguments
    need(formula, atl.Formula, "the formula", hint=" (parse text with model.formula(text))")
    f, env = ev.resolve(formula)
    if isinstance(f, atl.Until):
        return reach_strategy(
            engine,
            ev.coalition_of(f.coalition, env),
            ev.eval(f.left, env),
            ev.eval(f.right, env),
            dead_ends,
        )
    if isinstance(f, atl.Release):
        return release_strategy(
            engine,
            ev.coalition_of(f.coalition, env),
            ev.eval(f.left, env),
            ev.eval(f.right, env),
            dead_ends,
        )
    hint = (
        (
            " (for the strategy from a set of positions, query the until or release formula "
            "alone and give the set as the start, ",
            Hint("give", "start"),
            ")",
        )
        if isinstance(f, atl.BoolOp)
        else ()
    )
    raise QueryError(
        (
            "a strategy is read from an until or a release formula: <<J>> f U g, "
            "<<J>> <> g, <<J>> f R g or <<J>> [] g (maybe through a named formula); "
            f"this one is {atl.describe(f)}",
            *hint,
        ),
        getattr(f, "span", None),
    )


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Verdict:
    """The result of :func:`verify`: ``ok``, else ``reason`` and the position at
    fault; ``longest[c]`` is, for a reachability objective, the most moves any
    consistent play from start c takes to reach the goal (safety: 0)."""

    ok: bool
    reason: str = ""
    position: tuple | None = None
    longest: dict = field(default_factory=dict)
    visited: int = 0


def _check_verify(engine, objective, table, start) -> None:
    """:func:`verify`'s arguments, or the SymbolicError that says what is wrong."""
    check_engine(engine)
    need(objective, Objective, "the objective")
    check_set(engine, objective.stay, "the objective's stay set")
    need_mapping(table, "the strategy table")
    for c, d in table.items():  # entries are positions (tuples of ints), as table() gives
        engine.space.check_position(c)
        engine.space.check_position(d)
    check_set(engine, start, "the start")


def verify(
    engine: GameEngine, objective: Objective, table: Mapping[tuple, tuple], start: PositionSet
) -> Verdict:
    """Does the memoryless strategy ``table`` of ``objective.coalition`` win from every
    position of ``start``, whatever the other players do?

    An explicit search over the plays consistent with ``table``, independent of the
    fixpoints: it asks the engine only for ``successors`` and ``turn_set``, and tests
    membership in the objective's sets. A position of the coalition outside the
    goal needs a table entry that is one of its successors. Reachability: every play
    reaches the goal inside ``stay`` (a cycle, a position outside ``stay`` or a
    dead end that does not count as won fails), and ``longest`` gives the worst
    number of moves. Safety: every position met before the goal is in ``stay``.
    """
    _check_verify(engine, objective, table, start)
    mine = engine.turn_set(objective.coalition)
    goal, stay = objective.goal, objective.stay
    vacuous = objective.dead_ends is DeadEnds.VACUOUS
    reach = objective.kind == "reach"
    succ_cache: dict = {}

    def moves(c):
        """(next positions, fault or None) at a position outside the goal."""
        if c not in stay:
            return None, "the play leaves the region it must stay in"
        if c in mine:
            d = table.get(c)
            if d is None:
                return None, "the strategy has no move at a position of the coalition"
            if d not in engine.successors(c):
                return None, f"the strategy's move to {d} is not a legal move"
            return [d], None
        nxt = succ_cache.get(c)
        if nxt is None:
            nxt = succ_cache[c] = engine.successors(c).tuples()
        if not nxt and not vacuous:
            return None, "an opponent is stuck outside the goal (a loss under STRICT)"
        return nxt, None

    value: dict = {}  # reach: worst number of moves to the goal; safety: 0 (safe)
    for s in start.tuples():
        if s in value:
            continue
        # iterative depth-first search; a grey node met again is a cycle
        grey = {s}
        stack: list = [(s, None, None)]  # (position, its next positions, iterator)
        while stack:
            c, kids, it = stack[-1]
            if it is None:
                if c in goal:
                    value[c] = 0
                    grey.discard(c)
                    stack.pop()
                    continue
                kids, fault = moves(c)
                if fault:
                    return Verdict(False, fault, c, visited=len(value))
                it = iter(kids)
                stack[-1] = (c, kids, it)
            child = next(it, None)
            if child is None:
                # a vacuous opponent dead end counts as one step, as in until's layer 1
                value[c] = 1 + max((value[k] for k in kids), default=0) if reach else 0
                grey.discard(c)
                stack.pop()
            elif child in value:
                continue
            elif child in grey:
                if reach:
                    return Verdict(
                        False,
                        "a consistent play loops without reaching the goal",
                        child,
                        visited=len(value),
                    )
            else:
                grey.add(child)
                stack.append((child, None, None))
    return Verdict(True, longest={s: value[s] for s in start.tuples()}, visited=len(value))


# --------------------------------------------------------------------------- the reachability-games TD


def count_strategies(engine: GameEngine, player: int) -> int:
    """The number of positional strategies of ``player`` (TD Q2): ∏ |δ(c)| over the
    positions c of the player with at least one move, as an exact integer, from
    :meth:`GameEngine.out_degrees` (symbolic on the BDD engine)."""
    need_int(player, "the player")
    degrees = check_engine(engine).out_degrees(engine.turn_set({player}))
    out = 1
    for k, n in degrees.items():
        if k > 0:
            out *= k**n
    return out


def execute(
    engine: GameEngine,
    start,
    tables: Mapping[int, Mapping[tuple, tuple]],
    stop: PositionSet,
    max_moves: int | None = None,
) -> list[tuple]:
    """The play from ``start`` where each player p follows ``tables[p]`` (TD Q4).

    It stops at a position of ``stop`` (the objectives), at a dead end, or when a
    position comes back (memoryless strategies then loop for ever: the repeated
    position closes the list). IllegalMove when a player to move has no entry
    although it can move, or its entry is not a successor.
    """
    c = check_engine(engine).space.check_position(start)
    need_mapping(tables, "the tables (player -> strategy table)")
    for p, t in tables.items():
        need_mapping(t, f"the table of player {p!r:.20}")
    check_set(engine, stop, "the stop set")
    need_int(max_moves, "max_moves", low=0, none=True)
    if c not in engine.positions():
        raise QueryError(f"{c} is not a position")
    players = {p: engine.turn_set({p}) for p in engine.game.players}
    play, seen = [c], {c}
    while c not in stop and (max_moves is None or len(play) <= max_moves):
        succ = engine.successors(c)
        if succ.is_empty():
            break
        p = next(p for p, s in players.items() if c in s)
        d = tables.get(p, {}).get(c)
        sp = engine.space
        targets = tuple(succ.tuples()[:8])
        legal = "; ".join(_label(sp, t) for t in targets)
        if d is None:
            raise IllegalMove(
                f"player {p}'s strategy has no move at {_label(sp, c)} (legal: {legal})",
                p,
                c,
                None,
                targets,
            )
        d = sp.check_position(d)  # a tuple, list or dict of ints, as everywhere
        if d not in succ:
            raise IllegalMove(
                f"player {p}'s strategy plays {_label(sp, c)} -> "
                f"{_label(sp, d)}, not a legal move (legal: {legal})",
                p,
                c,
                d,
                targets,
            )
        play.append(d)
        if d in seen:
            break
        seen.add(d)
        c = d
    return play


# --------------------------------------------------------------------------- export


def _label(space, pos: tuple) -> str:
    return ", ".join(f"{s.label}={v}" for s, v in zip(space.slots, pos))


def _export(strategy: Strategy, start: PositionSet) -> tuple:
    """(space, positions reached from ``start`` under the strategy, its table there,
    T_J, the goal): what :func:`to_json` and :func:`to_dot` both read."""
    need(strategy, Strategy, "the strategy")
    reached = strategy.outcome(start)
    return (
        strategy.engine.space,
        reached,
        strategy.table(reached),
        strategy.engine.turn_set(strategy.objective.coalition),
        strategy.objective.goal,
    )


def to_json(strategy: Strategy, start: PositionSet) -> dict:
    """The strategy restricted to the positions reachable from ``start`` when the
    coalition follows it, as a JSON-ready dict: the objective, the sizes of the
    until layers (the attractor sequence; None for a release), the positions (with
    whose turn, rank, and whether in the goal) and the chosen moves."""
    sp, reached, table, mine, goal = _export(strategy, start)
    positions = []
    for c in reached.tuples():
        item = {"position": sp.as_dict(c), "coalition_moves": c in mine, "goal": c in goal}
        if strategy.layers is not None:
            item["rank"] = strategy.rank(c)
        positions.append(item)
    layers = [len(x) for x in strategy.layers] if strategy.layers is not None else None
    return {
        "objective": strategy.objective.kind,
        "layers": layers,
        "coalition": sorted(strategy.objective.coalition),
        "dead_ends": strategy.objective.dead_ends.value,
        "start": [sp.as_dict(c) for c in start.tuples()],
        "start_won": [sp.as_dict(c) for c in (start & strategy.region).tuples()],
        "positions": positions,
        "moves": [{"from": sp.as_dict(c), "to": sp.as_dict(d)} for c, d in sorted(table.items())],
    }


def _dot_id(s: str) -> str:
    """A quoted DOT identifier; a newline becomes DOT's line break \\n."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(strategy: Strategy, start: PositionSet) -> str:
    """The same restriction as :func:`to_json` as Graphviz DOT text: the coalition's
    positions are boxes, the others ellipses, goal positions doubled; the strategy's
    moves are bold edges, the opponents' moves plain ones."""
    sp, reached, table, mine, goal = _export(strategy, start)
    live = strategy.region - goal
    J = ", ".join(map(str, sorted(strategy.objective.coalition)))
    lines = [
        "digraph strategy {",
        f"  label={_dot_id(f'strategy of {{{J}}} ({strategy.objective.kind})')};",
        "  node [fontsize=10];",
    ]
    starts = start & strategy.region
    for c in reached.tuples():
        attrs = ["shape=box" if c in mine else "shape=ellipse"]
        label = _label(sp, c)
        if strategy.layers is not None:
            label += f"\nrank {strategy.rank(c)}"
        attrs.append(f"label={_dot_id(label)}")
        if c in goal:
            attrs.append("peripheries=2")
        if c in starts:
            attrs.append("style=filled, fillcolor=lightgrey")
        lines.append(f"  {_dot_id(_label(sp, c))} [{', '.join(attrs)}];")
    for c in reached.tuples():
        if c not in live:
            continue
        if c in mine:
            if c in table:
                lines.append(
                    f"  {_dot_id(_label(sp, c))} -> {_dot_id(_label(sp, table[c]))} [style=bold];"
                )
        else:
            for d in strategy.engine.successors(c).tuples():
                lines.append(f"  {_dot_id(_label(sp, c))} -> {_dot_id(_label(sp, d))};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dumps(strategy: Strategy, start: PositionSet) -> str:
    """:func:`to_json` as indented JSON text."""
    return json.dumps(to_json(strategy, start), indent=2)
