""" "Why?" answers: a short play that shows why a position is inside or outside ⟨⟨J⟩⟩φ.

Definition. For a formula φ of the form ⟨⟨J⟩⟩ σ U τ (◇ included), ⟨⟨J⟩⟩ f R g (□
included) or ⟨⟨J⟩⟩○F, maybe behind named formulas and negations, and a position c:

- c ∈ [[φ]]: J's winning strategy (:mod:`.strategy`, read off the fixpoint) played
  against one behaviour of the others, until φ is settled: the target reached (U, ○),
  the release condition met, or a cycle that stays in the safe set (R, □, a lasso);
- c ∉ [[φ]]: the others' counter-strategy, the strategy of the dual formula
  ⟨⟨players ∖ J⟩⟩ ¬σ R ¬τ for an until, ⟨⟨players ∖ J⟩⟩ ¬f U ¬g for a release,
  played against one behaviour of J, until φ is refuted.

The side that does not follow the strategy plays its longest defence where the
strategy has ranks (the successor of highest rank), elsewhere a move back into the
play when it has one (the lasso closes soon). Every move of the strategic side is a
move its strategy allows, so the whole strategy, not only this play, wins: the play
is an illustration that the explicit engine can replay move by move.

Under the dead-end convention STRICT, a dead end outside the target is lost by J
whoever is stuck; the dual strategies then count every such dead end as the others'
goal (the duality of ``symbolic.atl``'s docstring holds for VACUOUS only).

>>> from symbolic.seeds.games import arena
>>> from symbolic.explicit import ExplicitGame
>>> from symbolic import atl, ir
>>> G = ExplicitGame(arena({0: 1, 1: 2, 2: 1}, [(0, 1), (0, 2), (1, 0), (2, 2)]))
>>> at2 = atl.Prop(ir.Var("s").eq(2))
>>> e = explain(G, atl.Eventually(atl.CoalitionLit((1,)), at2), (0,))
>>> e.holds, e.play, e.ending
(True, ((0,), (2,)), 'goal')
>>> e = explain(G, atl.Eventually(atl.CoalitionLit((2,)), at2), (0,))
>>> e.holds, e.coalition, e.play, e.loop, e.ending
(False, frozenset({1}), ((0,), (1,), (0,)), 0, 'cycle')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from .. import atl
from ..api import DeadEnds, GameEngine, PositionSet, check_dead_ends, check_engine
from ..arguments import need, need_int
from ..errors import QueryError
from ..printing import formula_text
from .strategy import Strategy, reach_strategy, release_strategy

__all__ = ["ENDINGS", "Explanation", "explain", "replay"]

#: how a play of an explanation ends: ``goal`` (the strategic side's goal reached: the
#: target of an until or a next, the release condition, or, refuting, the position
#: that breaks φ), ``cycle`` (a position comes back: a lasso inside the safe set),
#: ``stuck`` (a dead end the strategic side wins), ``limit`` (the play goes on past
#: ``max_moves`` moves, every position in the safe set)
ENDINGS = ("goal", "cycle", "stuck", "limit")


@dataclass(frozen=True)
class Explanation:
    """Why ``position`` is (``holds``) or is not in [[``formula``]]: a play.

    ``coalition`` follows its strategy (J when φ holds, the others when it does
    not), for a ``kind`` of objective (``reach``: get to ``goal``; ``safety``: stay in
    the safe set; ``next``: one move). ``play`` lists the positions from ``position``,
    ``movers`` the player whose turn it is at each (a dead end's is stuck), ``by_strategy`` whether
    the move from each position is the strategy's, ``choices`` the number of moves at each
    position (the other side's alternatives: its strategy answers every one, a whole
    tree of plays, shown as this one branch). ``loop``: the last position is
    ``play[loop]`` again (a lasso). ``ending`` is one of :data:`ENDINGS`; ``operator``
    is ``until``, ``release`` or ``next``, the operator of φ after names and negations,
    and ``inside`` whether the position is in that operator's set (``holds`` differs
    from it under an odd number of negations).
    """

    formula: atl.Formula
    position: tuple
    holds: bool
    inside: bool
    operator: str
    coalition: frozenset
    kind: str
    play: tuple[tuple, ...]
    movers: tuple[int, ...]
    by_strategy: tuple[bool, ...]
    choices: tuple[int, ...]
    loop: int | None
    ending: str

    def lines(
        self,
        label: Callable[[tuple], str] | None = None,
        move: Callable[[tuple, tuple], str] | None = None,
    ) -> list[str]:
        """The explanation as text lines, positions written by ``label`` (default
        ``x=1, y=2``); a position whose text spans lines (a board) is written below
        its step's line, indented; ``move(c, c')``, when given, names the move from
        each position to the next (``play(5)``)."""
        label = label or _default_label
        J = _set_text(self.coalition)
        moves = len(self.play) - 1
        one = len(self.coalition) == 1
        if not self.coalition:  # nobody chooses: every play does it
            how = "every play wins" if self.inside else "every play refutes it"
        elif self.inside:
            how = f"{J} {'wins' if one else 'win'} with {'its' if one else 'their'} strategy"
        else:
            how = (
                f"{J} {'refutes' if one else 'refute'} it with {'its' if one else 'their'} strategy"
            )
        unit = "move" if moves == 1 else "moves"
        first = label(self.position)
        where = "at the position of step 0" if "\n" in first else f"at {first}"
        if self.holds != self.inside:
            where += (
                f" (the negated {self.operator} formula inside "
                f"{'holds' if self.inside else 'does not hold'})"
            )
        verdict = "holds" if self.holds else "does not hold"
        out = [f"{verdict} {where}: {how}, {moves} {unit}:"]
        for i, (c, p) in enumerate(zip(self.play, self.movers)):
            last = i == len(self.play) - 1
            if last:
                note = _ENDING_TEXT[self.ending](self)
            elif self.by_strategy[i]:
                note = f"player {p} {_moves(move, c, self.play[i + 1])} (strategy)"
            else:
                n = self.choices[i]
                note = f"player {p} {_moves(move, c, self.play[i + 1])}" + (
                    f" (1 of {n} moves; the strategy answers each)" if n > 1 else ""
                )
            text = label(c)
            if "\n" in text:
                out.append(f"  {i:>3}. {note}".rstrip())
                out += ["       " + line for line in text.split("\n")]
            else:
                out.append(f"  {i:>3}. {text}" + (f"    {note}" if note else ""))
        return out

    def __str__(self) -> str:
        """``why, for FORMULA`` (the formula as text), then :meth:`lines`."""
        return "\n".join([f"why, for {formula_text(self.formula)}", *self.lines()])


def _moves(move: Callable[[tuple, tuple], str] | None, c: tuple, after: tuple) -> str:
    """``moves`` or ``plays NAME``, the move from ``c`` to ``after`` named by ``move``."""
    return "moves" if move is None else f"plays {move(c, after)}"


def _default_label(c: tuple) -> str:
    return ", ".join(map(str, c))


def _set_text(J: frozenset) -> str:
    return "{" + ", ".join(map(str, sorted(J))) + "}"


def _goal_text(e: Explanation) -> str:
    if e.inside:
        return {
            "until": "the target holds: won",
            "release": "the release condition holds: won",
            "next": "the next position is in the set: won",
        }[e.operator]
    return {
        "until": "neither the target nor the condition to stay in holds: refuted",
        "release": "the condition to keep fails: refuted",
        "next": "the next position is outside the set: refuted",
    }[e.operator]


_ENDING_TEXT: dict[str, Callable[[Explanation], str]] = {
    "goal": _goal_text,
    "cycle": lambda e: (
        f"back to position {e.loop}: the cycle repeats for ever"
        + (", the condition always kept: won" if e.inside else ", the target never met: refuted")
    ),
    "stuck": lambda e: (
        f"player {e.movers[-1]} is to move and stuck: " + ("won" if e.inside else "refuted")
    ),
    "limit": lambda e: "... the play is cut here (max_moves)",
}


# --------------------------------------------------------------------------- the formula


def _operator(
    ev: atl.Evaluator, formula: atl.Formula
) -> tuple[atl.Until | atl.Release | atl.Next, dict, bool]:
    """(the until, release or next node under ``formula``'s names and negations, its
    bindings, whether an odd number of negations flips the answer)."""
    f, env = ev.resolve(formula)
    flipped = False
    while isinstance(f, atl.Not):
        flipped = not flipped
        f, env = ev.resolve(f.arg, env)
    if isinstance(f, (atl.Until, atl.Release, atl.Next)):
        return f, env, flipped
    raise QueryError(
        "a why answer explains an until, release or next formula: <<J>> f U g, "
        "<<J>> <> g, <<J>> f R g, <<J>> [] g or <<J>> X f (maybe through a named "
        f"formula or a negation); this one is {atl.describe(f)}",
        getattr(f, "span", None),
    )


def explain(
    engine: GameEngine,
    formula: atl.Formula,
    position,
    definitions: Mapping[str, atl.Definition] | None = None,
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
    max_moves: int = 1000,
) -> Explanation:
    """Why ``position`` is or is not in [[``formula``]] on ``engine``: an
    :class:`Explanation`, the play of the winning side's strategy (module docstring).

    ``formula`` is an until, a release or a next (maybe named, maybe negated);
    ``max_moves`` bounds a play that neither reaches a goal nor repeats a position.
    A concurrent game is refused (nobody has the turn: a play needs one mover).
    """
    check_engine(engine)
    check_dead_ends(dead_ends)
    need(formula, atl.Formula, "the formula", hint=" (parse text with model.formula(text))")
    need_int(max_moves, "max_moves", low=1)
    if engine.concurrent:
        raise QueryError(
            "why answers are not supported for concurrent games (every player chooses "
            "an action at every position: a play has no single mover to show)"
        )
    c = engine.space.check_position(position)
    if c not in engine.positions():
        raise QueryError(f"{_default_label(c)} is not a position of the game")
    ev = atl.Evaluator(engine, definitions, dead_ends=dead_ends)
    f, env, flipped = _operator(ev, formula)
    J = ev.coalition_of(f.coalition, env)
    inside = c in ev.eval(f, env)
    op = {atl.Until: "until", atl.Release: "release", atl.Next: "next"}[type(f)]
    by: list[bool]
    if isinstance(f, atl.Next):
        side, play, by, ending = _next_play(engine, J, ev.eval(f.arg, env), c, inside)
        kind, loop = "next", None
    else:
        left, right = ev.eval(f.left, env), ev.eval(f.right, env)
        strategy, plain = _strategy(engine, op, inside, J, left, right, dead_ends)
        play, by, loop, ending = _play(strategy, plain, c, max_moves)
        side, kind = strategy.objective.coalition, strategy.objective.kind
    movers = tuple(_mover(engine, d) for d in play)
    choices = tuple(engine.successors(d).count() for d in play)
    return Explanation(
        formula,
        c,
        inside != flipped,
        inside,
        op,
        side,
        kind,
        tuple(play),
        movers,
        tuple(by),
        choices,
        loop,
        ending,
    )


def _mover(engine: GameEngine, c: tuple) -> int:
    """The player whose turn it is at ``c``."""
    return next(p for p in engine.game.players if c in engine.turn_set({p}))


def _strategy(
    engine: GameEngine,
    op: str,
    inside: bool,
    J: frozenset,
    left: PositionSet,
    right: PositionSet,
    dead_ends: DeadEnds,
) -> tuple[Strategy, PositionSet]:
    """The strategy that settles the until or release at a position ``inside`` or not
    (J's, or the others' strategy of the dual formula, module docstring), and its goal
    without the dead ends STRICT adds to it (a play that ends there ends stuck)."""
    if inside:
        build = reach_strategy if op == "until" else release_strategy
        s = build(engine, J, left, right, dead_ends)
        return s, s.objective.goal
    others = engine.game.coalition(set(engine.game.players) - J)
    stuck = engine.deadlocks() if dead_ends is DeadEnds.STRICT else engine.empty()
    if op == "until":  # ¬(σ U τ) = ¬σ R ¬τ; STRICT: every dead end outside τ is refuting
        s = release_strategy(engine, others, ~left | stuck, ~right, DeadEnds.VACUOUS)
        return s, ~left & ~right
    # ¬(f R g) = ¬f U ¬g; STRICT: a dead end where f fails breaks the release too
    s = reach_strategy(engine, others, ~left, ~right | (stuck - left), DeadEnds.VACUOUS)
    return s, ~right


# --------------------------------------------------------------------------- the plays


def _play(
    strategy: Strategy, plain: PositionSet, c: tuple, max_moves: int
) -> tuple[list, list, int | None, str]:
    """(positions, whether each move is the strategy's, the loop's start, the ending):
    the strategy's side plays its allowed moves, the other side its longest defence
    (reach) or a move back into the play (safety). A play ends at the goal (``goal``
    in ``plain``, else ``stuck``), a dead end, a repeated position or ``max_moves``."""
    e, obj = strategy.engine, strategy.objective
    mine = e.turn_set(obj.coalition)
    play: list[tuple] = [c]
    by: list[bool] = []
    seen = {c: 0}
    while True:
        if c in obj.goal:
            return play, by, None, "goal" if c in plain else "stuck"
        succ = e.successors(c)
        if succ.is_empty():
            return play, by, None, "stuck"
        if len(by) >= max_moves:
            return play, by, None, "limit"
        ours = c in mine
        options = strategy.relation.image(e.singleton(c)) if ours else succ
        if options.is_empty():  # a fixpoint put c in the region: a move must exist
            raise AssertionError(
                f"the strategy has no move at {c}, a position it wins from: the engine's "
                "move relation disagrees with its fixpoint"
            )
        d = _choose(strategy, options, seen, fastest=ours)
        by.append(ours)
        play.append(d)
        if d in seen:
            return play, by, seen[d], "cycle"
        seen[d] = len(play) - 1
        c = d


def _choose(
    strategy: Strategy, options: PositionSet, seen: Mapping[tuple, int], fastest: bool
) -> tuple:
    """The next position among ``options``: where the strategy has ranks, the lowest
    for its own side (``fastest``: the shortest win) and the highest for the other
    (the longest defence); else one already in the play, else the smallest."""
    if strategy.layers is not None:
        ranked = sorted(options.tuples(), key=lambda d: strategy.rank(d) or 0)
        return ranked[0] if fastest else max(ranked, key=lambda d: strategy.rank(d) or 0)
    back = [d for d in options.tuples() if d in seen]
    return min(back) if back else options.tuples()[0]


def _next_play(
    engine: GameEngine, J: frozenset, target: PositionSet, c: tuple, inside: bool
) -> tuple[frozenset, list, list, str]:
    """⟨⟨J⟩⟩○F settled in one move: (the strategic side, the play, whether
    its move is the strategy's, the ending). Inside, J moves into F where it has the
    turn and every move of the others lands in F; outside, the others move out of F
    where they have the turn and every move of J leaves F."""
    side = J if inside else engine.game.coalition(set(engine.game.players) - J)
    wanted = target if inside else ~target
    succ = engine.successors(c)
    if succ.is_empty():
        return side, [c], [], "stuck"
    ours = c in engine.turn_set(side)
    d = (succ & wanted).first() if ours else succ.first()
    if d is None:  # not reached: the fixpoint says such a move exists
        raise AssertionError((c, inside))
    return side, [c, d], [ours], "goal"


# --------------------------------------------------------------------------- replaying


def replay(
    engine: GameEngine,
    e: Explanation,
    definitions: Mapping[str, atl.Definition] | None = None,
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
) -> list[str]:
    """What is wrong with ``e`` on ``engine``, another engine of the same game (the
    explicit one for an explanation found on BDDs): an empty list when every move is a
    successor, every mover has the turn, the answer at the position is the same, and the
    play ends as claimed (the goal of its side reached, a dead end, a repeated position),
    every position before the end in the set it must stay in.

    It reads only the engine's successors, turns and the formula's operand sets on that
    engine, never the strategy that made the play.
    """
    check_engine(engine)
    need(e, Explanation, "the explanation")
    ev = atl.Evaluator(engine, definitions, dead_ends=check_dead_ends(dead_ends))
    f, env, flipped = _operator(ev, e.formula)
    problems = []
    if (e.position in ev.eval(e.formula, {})) != e.holds:
        problems.append(f"the answer at {e.position} differs: {'not ' * e.holds}in the set here")
    for i, (c, d) in enumerate(zip(e.play, e.play[1:])):
        if d not in engine.successors(c):
            problems.append(f"move {i + 1}, {c} -> {d}, is not a legal move")
    problems += [
        f"player {p} does not have the turn at {c}"
        for c, p in zip(e.play, e.movers)
        if c not in engine.turn_set({p})
    ]
    # the other side's every move stays on the strategy's side: of the operator's set,
    # or for a next, of its argument
    side = ev.eval(f.arg if isinstance(f, atl.Next) else f, env)
    for i, c in enumerate(e.play[:-1]):
        if not e.by_strategy[i]:
            problems += [
                f"the move {c} -> {d} escapes the strategy"
                for d in engine.successors(c).tuples()
                if (d in side) != e.inside
            ]
        if engine.successors(c).count() != e.choices[i]:
            problems.append(f"{c} has {engine.successors(c).count()} moves, not {e.choices[i]}")
    last, body = e.play[-1], e.play[:-1]
    if e.ending == "cycle" and (e.loop is None or e.play[e.loop] != last):
        problems.append("the play claims a cycle but its last position does not come back")
    if e.ending == "stuck" and not engine.successors(last).is_empty():
        problems.append(f"the play claims a dead end at {last}, which has a move")
    if isinstance(f, atl.Next):
        target = ev.eval(f.arg, env)
        if e.ending == "goal" and (last in target) != e.inside:
            problems.append(f"the position after the move, {last}, is on the wrong side")
        return problems
    left, right = ev.eval(f.left, env), ev.eval(f.right, env)
    # the positions before the end: in σ ∖ τ (until), in g ∖ f (release), either side
    stay = (left - right) if isinstance(f, atl.Until) else (right - left)
    problems += [f"{c} leaves the set the play must stay in" for c in body if c not in stay]
    if e.ending == "goal":
        ok = {
            ("until", True): last in right,
            ("until", False): last not in left and last not in right,
            ("release", True): last in left and last in right,
            ("release", False): last not in right,
        }[(e.operator, e.inside)]
        if not ok:
            problems.append(f"the play ends at {last}, which does not settle the formula")
    return problems
