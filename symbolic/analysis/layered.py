"""Layered solving: queries and outcomes over the positions reachable from a source,
one layer at a time, when the game is graded from it.

**Graded.** With F_0 = S and F_{n+1} = post(F_n), the game is graded from S when
the F_n are pairwise disjoint (every move goes exactly one layer further: Connect
Four and tic-tac-toe, where each move adds a piece).
:func:`symbolic.api.layers.graded_layers` computes them and stops at the first move that
lands in a layer already seen (then the game is not graded and None is returned, without
the rest of the forward search).

**Exactness.** R = ⋃ F_n is closed under moves, and every ATL operator at a
position looks at its successors only, so for every state formula φ,
[[φ]] ∩ R is the value of φ in the game restricted to R. :class:`LayeredEvaluator`
computes it: every set is kept inside R, an until is
:func:`symbolic.api.layers.until_layered` (one pre-image step per layer, from
the farthest one down, instead of a fixpoint over every position), a release
⟨⟨J⟩⟩ f R g the layered until ⟨⟨J⟩⟩ g U (f ∧ g) (every play from R ends within the
layers, so the greatest fixpoint is the least one there: exact under both dead-end
conventions and on concurrent games, which the dual ¬⟨⟨A∖J⟩⟩ ¬f U ¬g is not), and
reach(ψ), which looks backward, the plain one over every position, intersected with R.

**Anchored queries.** A query ``S and φ`` (either side) whose side S is a *state*
formula (no X, U, R, reach: a set of positions) has [[S ∧ φ]] = S ∩ ([[φ]] ∩ R_S)
with R_S the positions reachable from S: the layered answer is the plain one,
position for position. ``symbolic check --layered auto`` solves exactly these
layered when the game is graded from S (:func:`anchor_of`).

**Text stays at the top.** Every function here takes checked formulas and the
model's checked ``definitions`` (``model.definitions``), never a model to parse
again: the caller (the command line, a script) parses.

>>> from symbolic.api import graded_layers
>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> m = load_model("models/tictactoe.game")
>>> e = make_engine(m.game, "explicit")
>>> r = graded_layers(e, initial_set(e, m.definitions))
>>> len(r.layers), r.result.count()
(10, 5478)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, Mapping, NamedTuple, Protocol

from .. import atl
from ..api import (
    DeadEnds,
    GameEngine,
    PositionSet,
    ReachLayers,
    check_engine,
    check_reach,
    graded_layers,
    graded_levels,
    layer_turns,
    until_layered,
)
from ..arguments import need, need_iterable, need_mapping
from ..errors import ArgumentTypeError, Hint, QueryError
from .layer_counts import declared_level
from .outcome import Referee

__all__ = [
    "LayeredEvaluator",
    "is_state_formula",
    "anchor_of",
    "Outcomes",
    "layer_outcomes",
    "initial_set",
    "declared_levels",
    "evaluate_queries",
    "Answer",
    "Layering",
    "LAYERED_MODES",
    "goals",
    "layer_row",
    "LayerCheckpoint",
]


class LayeredEvaluator(atl.Evaluator):
    """:class:`symbolic.atl.Evaluator` over the positions R of a graded ``reach``:
    every result is [[φ]] ∩ R (see the module docstring), untils one step per layer.

    >>> from symbolic.api import graded_layers
    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> m = load_model("models/tictactoe.game")
    >>> e = make_engine(m.game, "explicit")
    >>> r = graded_layers(e, atl.evaluate(e, m.formula("empty"), m.definitions))
    >>> L = LayeredEvaluator(e, r, m.definitions)
    >>> L(m.formula("forces_win(1)")) == atl.evaluate(e, m.formula("forces_win(1)"), m.definitions) & r.result
    True
    """

    def __init__(
        self,
        engine: GameEngine,
        reach: ReachLayers,
        definitions: Mapping[str, atl.Definition] | None = None,
        sets: Mapping[str, PositionSet] | None = None,
        dead_ends: DeadEnds = DeadEnds.VACUOUS,
    ):
        if not isinstance(reach, ReachLayers) or not reach.graded:
            raise QueryError(f"a layered evaluation needs graded layers, got {reach!r}")
        check_reach(check_engine(engine), reach)
        need_mapping(sets if sets is not None else {}, "sets")
        self.reach = reach
        self.within = reach.result
        super().__init__(
            engine, definitions, {k: s & reach.result for k, s in (sets or {}).items()}, dead_ends
        )
        # reach(ψ) looks backward (from where a position is reached): over every position
        self._plain = atl.Evaluator(engine, definitions, sets, dead_ends)

    def _eval(self, f: atl.Formula, env: dict) -> PositionSet:
        rule = _LAYERED.get(type(f))
        if rule is None:
            return super()._eval(f, env) & self.within
        return rule(self, f, env)

    def _truth(self, f, env):
        return self.within if f.value else self.engine.empty()

    def _not(self, f, env):
        return self.within - self.eval(f.arg, env)

    def _bool_op(self, f, env):
        a, b = self.eval(f.left, env), self.eval(f.right, env)
        if f.op == "and":
            return a & b
        if f.op == "or":
            return a | b
        if f.op == "implies":
            return (self.within - a) | b
        if f.op == "iff":
            return (a & b) | (self.within - (a | b))
        raise AssertionError(f.op)

    def _until(self, f, env):
        return until_layered(
            self.engine,
            self._J(f.coalition, env),
            self.eval(f.left, env),
            self.eval(f.right, env),
            self.reach,
            dead_ends=self.dead_ends,
        ).result

    def _reach(self, f, env):
        return self._plain.eval(f, env) & self.within

    def _release(self, f, env):
        # on R every play ends within the layers, so νZ. g ∩ (f ∪ pre(J, Z)) is also
        # the least fixpoint there: the until ⟨⟨J⟩⟩ g U (f ∧ g), exact under both
        # dead-end conventions and on concurrent games (not the dual ¬⟨⟨A∖J⟩⟩ ¬f U ¬g,
        # which a concurrent game, not determined, and a position whose joint actions
        # all lead nowhere break)
        left, right = self.eval(f.left, env), self.eval(f.right, env)
        return until_layered(
            self.engine,
            self._J(f.coalition, env),
            right,
            left & right,
            self.reach,
            dead_ends=self.dead_ends,
        ).result


# the rules that differ from the plain evaluator's; the others are intersected with R
# (pre, reach, turn, prop and refs already stay inside R when their arguments do)
_LAYERED = {
    atl.Truth: LayeredEvaluator._truth,
    atl.Not: LayeredEvaluator._not,
    atl.BoolOp: LayeredEvaluator._bool_op,
    atl.Until: LayeredEvaluator._until,
    atl.Release: LayeredEvaluator._release,
    atl.Reach: LayeredEvaluator._reach,
}


def is_state_formula(f: atl.Formula, definitions: Mapping[str, atl.Definition]) -> bool:
    """True when ``f`` has no temporal operator (X, U, R, reach), named formulas
    expanded: its value at a position depends on that position only.

    >>> from symbolic.model import load_model
    >>> m = load_model("models/tictactoe.game")
    >>> is_state_formula(m.formula("empty and not win(1)"), m.definitions)
    True
    >>> is_state_formula(m.formula("forces_win(1)"), m.definitions)
    False
    """
    _check_formula(f, definitions)
    seen: set = set()

    def state(g) -> bool:
        if isinstance(g, (atl.Next, atl.Until, atl.Release, atl.Reach)):
            return False
        if isinstance(g, atl.Ref):
            d = definitions.get(g.name)
            if d is not None and g.name not in seen:
                seen.add(g.name)
                if not state(d.body):
                    return False
        return all(state(c) for c in atl.formula_children(g))

    return state(f)


def anchor_of(
    f: atl.Formula, definitions: Mapping[str, atl.Definition]
) -> tuple[atl.Formula, atl.Formula] | None:
    """(S, φ) when ``f`` is ``S and φ`` or ``φ and S`` with S a state formula (the
    left one when both are), else None."""
    _check_formula(f, definitions)
    if isinstance(f, atl.BoolOp) and f.op == "and":
        for s, phi in ((f.left, f.right), (f.right, f.left)):
            if is_state_formula(s, definitions):
                return s, phi
    return None


def _check_formula(f, definitions) -> None:
    need(f, atl.Formula, "the formula", hint=" (parse text with model.formula(text))")
    need_mapping(definitions, "definitions")


def initial_set(engine: GameEngine, definitions: Mapping[str, atl.Definition]) -> PositionSet:
    """The positions of the model's ``initial`` set, from its checked ``definitions``
    (QueryError when it names none).

    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> m = load_model("models/tictactoe.game")
    >>> initial_set(make_engine(m.game, "explicit"), m.definitions).count()
    1
    """
    check_engine(engine)
    need_mapping(definitions, "definitions")
    d = definitions.get("initial")
    if d is None:
        raise QueryError(
            "the model names no 'initial' set, which layered solving starts "
            "from (add e.g. 'set initial = ...')"
        )
    # the checked definition itself, through a Ref bound to it: no text parsed again
    return atl.evaluate(engine, atl.Ref(d.name, (), d.span, d), definitions)


def declared_levels(
    engine: GameEngine, definitions: Mapping[str, atl.Definition], reach: ReachLayers
) -> ReachLayers | None:
    """The levels C_k of the model's ``set level(k) = ...`` for the layers of ``reach``,
    checked (:func:`~symbolic.api.layers.graded_levels`: F_k ⊆ C_k); None when the model
    declares none.

    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> m = load_model("models/connect4-compact.game", {"w": 3, "h": 2, "a": 2})
    >>> e = make_engine(m.game, "explicit")
    >>> r = graded_layers(e, initial_set(e, m.definitions))
    >>> c = declared_levels(e, m.definitions, r)
    >>> [f.count() for f in r.layers], [level.count() for level in c.layers]
    ([1, 3, 9, 21, 8, 3], [1, 3, 12, 21, 36, 30])
    """
    level = declared_level(engine, definitions)
    if level is None:
        return None
    levels = [level(k) for k in range(len(reach.layers))]
    try:
        return graded_levels(engine, reach, levels)
    except QueryError as err:  # located at the definition
        raise QueryError(err.parts, definitions["level"].span) from None


@dataclass(frozen=True)
class Outcomes:
    """Win / draw / loss counts of the player to move, for each layer k of the
    positions reachable from the initial ones."""

    rows: tuple[tuple[int, int, int, int], ...]  # (k, win, draw, loss)

    def as_json(self) -> dict:
        return {
            "layers": [{"layer": k, "win": w, "draw": d, "loss": lo} for k, w, d, lo in self.rows]
        }

    @property
    def total(self) -> int:
        return sum(w + d + lo for _, w, d, lo in self.rows)


def goals(engine: GameEngine) -> dict[int, PositionSet]:
    """G_p, the dead ends where p has won by the outcome the game declares
    (:meth:`symbolic.analysis.outcome.Referee.won`: win(p) sets, normal play, ...)."""
    referee = Referee(engine)
    return {p: referee.won(p) for p in engine.game.players}


def layer_outcomes(
    definitions: Mapping[str, atl.Definition],
    engine: GameEngine,
    reach: ReachLayers | None = None,
    *,
    layered: bool = True,
    on_row: Callable[[tuple[int, int, int, int]], None] | None = None,
    store: LayerCheckpoint | None = None,
) -> Outcomes:
    """For each layer F_k reachable from the ``initial`` positions of the model's
    checked ``definitions`` (or of ``reach``, graded layers, when given), how many
    positions the player to move wins, draws and loses with perfect play.

    p wins at c when c ∈ W_p = ⟨⟨p⟩⟩ (¬dead) U G_p (:func:`goals`; play stops at a
    dead end, so a full board without a line is a draw); c is won when
    c ∈ W_{t(c)}, lost when c ∈ W_q for the other player q, drawn otherwise.
    ``layered``: W_p by :meth:`~symbolic.api.GameEngine.until_layer_step` (needs
    graded layers); False: by the plain fixpoint over every position (the
    differential tests compare the two). ``on_row`` is called with each row (k, win,
    draw, loss) as soon as it is counted: layered, from the last layer down, so that a
    run stopped by a limit still has the layers it solved. ``store`` (layered only, a
    :class:`LayerCheckpoint`): the layers are read from it when it has them, else
    written to it; the backward pass resumes from the lowest layer it holds solved (its
    rows passed to ``on_row`` first) and writes the layers it solves to it.
    """
    need_mapping(definitions, "definitions")
    check_engine(engine)
    if reach is not None:
        check_reach(engine, reach)
    need(layered, bool, "layered")
    players = engine.game.players
    if len(players) != 2:
        raise QueryError(f"win/draw/loss counts need two players, the game has {len(players)}")
    if store is not None and not layered:
        raise QueryError("a store of layers needs the layered solve (layered=True)")
    if reach is None and store is not None:
        reach = store.load_reach()
    if reach is None:
        reach = graded_layers(engine, initial_set(engine, definitions))
        if reach is None:
            raise QueryError(
                "the game is not graded from its initial positions (a move "
                "reaches a layer already seen): no ply-by-ply table"
            )
        if store is not None:
            store.save_reach(reach)
    stay = engine.positions() - engine.deadlocks()
    goal = goals(engine)
    turns = {p: engine.turn_set({p}) for p in players}
    # disjoint goals (dead ends) give disjoint won sets: the two winning strategies
    # together make one play, which stops at its first dead end, in G_p and in G_q
    exclusive = (goal[players[0]] & goal[players[1]]).is_empty()
    count_row = partial(layer_row, turns=turns, exclusive=exclusive)
    if layered:
        # declared levels: the won sets cut to them, not to the layers (a worker
        # cluster's steps read the layers it holds)
        levels = None if reach.remote is not None else declared_levels(engine, definitions, reach)
        held = [reach]
        del reach  # the steps below hold the only reference: the layers solved are freed
        return _layered_rows(engine, held, stay, goal, count_row, on_row, store, levels)
    rows = []
    u = {p: engine.until([p], stay, goal[p], dead_ends=DeadEnds.VACUOUS).result for p in players}
    for k, layer in enumerate(reach.layers):  # layer by layer: never the union of the layers
        rows.append(count_row(k, layer, {p: layer & u[p] for p in players}))
        if on_row is not None:
            on_row(rows[-1])
    return Outcomes(tuple(rows))


def _layered_rows(engine, held: list, stay, goal, count_row, on_row, store, levels) -> Outcomes:
    """:func:`layer_outcomes`'s layered table over the graded layers ``held[0]`` (taken
    out of the list): both players' untils one layer at a time, from the last layer down
    (or from the lowest layer ``store`` holds solved). Each row is counted
    (``count_row``) as soon as its layer is solved, and U_{k+1} is dropped then (the
    largest BDDs of a ply-by-ply table); so are F_{k+1} and the union of the layers,
    which no later step reads (freed unless the caller holds them). ``levels``
    (:func:`declared_levels`, or None): read in place of the layers; rows count U_k ∩ F_k."""
    reach = held.pop()
    layers = list(reach.layers)
    reach = ReachLayers(engine.empty(), tuple(layers), True, reach.remote)
    cuts = reach if levels is None else levels
    lim, players = engine.limits, engine.game.players
    coalition = {p: engine.game.coalition([p]) for p in players}
    ours = {p: layer_turns(engine, coalition[p]) for p in players}
    won = {p: engine.empty() for p in players}
    start, rows = len(reach.layers), []
    solved = store.load_solved() if store is not None else None
    if solved is not None:
        start, won, rows = solved[0], solved[1], list(solved[2])
        for row in rows if on_row is not None else ():
            on_row(row)
    with lim.stage("computing until layer by layer, both players"):
        for k in reversed(range(start)):
            lim.check(f"layer {k}")
            won = {
                p: engine.until_layer_step(
                    coalition[p],
                    cuts,
                    k,
                    ours[p],
                    won[p],
                    stay,
                    goal[p],
                    dead_ends=DeadEnds.VACUOUS,
                )
                for p in players
            }
            layer = reach.layers[k]
            cut = won if levels is None else {p: won[p] & layer for p in won}
            rows.append(count_row(k, layer, cut))
            if k + 1 < len(layers):
                layers[k + 1] = engine.empty()
                reach = ReachLayers(reach.result, tuple(layers), True, reach.remote)
                if levels is None:
                    cuts = reach
            if store is not None:
                store.save_solved(k, won, rows, done=k == 0)
            if on_row is not None:
                on_row(rows[-1])
    return Outcomes(tuple(reversed(rows)))


class LayerCheckpoint(Protocol):
    """Where :func:`layer_outcomes` keeps its layers and the layers it solved, for a
    stopped run to resume (:class:`symbolic.distributed.layer_store.LayerStore`)."""

    def load_reach(self) -> ReachLayers | None:
        """The graded layers kept, or None."""

    def save_reach(self, reach: ReachLayers) -> None:
        """Keep the graded layers."""

    def load_solved(self) -> tuple[int, dict, list] | None:
        """(k, {p: U_p of layer k}, the rows of layers k and above, last layer first),
        or None."""

    def save_solved(self, k: int, won: dict, rows: list, *, done: bool) -> None:
        """Keep layer k's won sets and the rows so far (last layer first); ``done``: the
        table is complete."""


def layer_row(
    k: int, layer: PositionSet, won: dict, turns: dict, *, exclusive: bool = False
) -> tuple[int, int, int, int]:
    """(k, win, draw, loss) of layer k from U_p (``won[p]``: p's won positions of the
    layer) and the turn sets T_p of two players p, q: won where the mover wins
    (U_p ∩ T_p, U_q ∩ T_q), lost where the other one does and the mover does not
    (``exclusive``: U_p ∩ U_q = ∅, no difference taken). A layer where one player
    moves (Connect Four: all) needs no intersection with either turn set."""
    (p, q) = won
    w = lo = 0
    for r, o in ((p, q), (q, p)):
        part = layer & turns[r]
        if part.is_empty():
            continue
        mine, theirs = won[r], won[o]
        if part != layer:
            mine, theirs = mine & part, theirs & part
        w += mine.count()
        lo += (theirs if exclusive else theirs - mine).count()
        if part == layer:  # r moves everywhere in the layer: the other one nowhere
            break
    return (k, w, layer.count() - w - lo, lo)


#: ``--layered``: auto (anchored queries of a graded game), on (every query, or an
#: error), off (the plain fixpoints)
LAYERED_MODES = ("auto", "on", "off")


class Layering(NamedTuple):
    """How a layered answer was computed: ``kind`` ``"anchored"`` (from the anchor whose
    text is ``source``, over ``layers`` layers: the plain answer) or ``"reachable"``
    (``on`` without an anchor: [[φ]] ∩ R, R the ``source`` positions reachable from
    ``initial`` in ``layers`` layers).

    >>> Layering("anchored", "initial", 3)
    Layering(kind='anchored', source='initial', layers=3)
    """

    kind: str
    source: str | int
    layers: int


@dataclass(frozen=True)
class Answer:
    """One query's answer and how it was computed: ``how`` is None (plain fixpoints)
    or a :class:`Layering`."""

    positions: PositionSet
    how: Layering | None = None

    @property
    def restricted(self) -> bool:
        """True when the answer is [[φ]] ∩ R, not the plain answer."""
        return self.how is not None and self.how.kind == "reachable"

    def note(self) -> str | None:
        """The line ``symbolic check`` prints under the count, if any."""
        if self.how is None:
            return None
        if self.how.kind == "anchored":
            return f"  layered: from {self.how.source}, {self.how.layers} layers"
        return (
            f"  layered: over the {self.how.source} positions reachable from initial "
            f"({self.how.layers} layers), not over every position"
        )


def evaluate_queries(
    definitions: Mapping[str, atl.Definition],
    queries,
    engine: GameEngine,
    mode: str = "auto",
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
    layers=graded_layers,
) -> list[Answer]:
    """Each ``(text, formula)`` query's :class:`Answer`, layered as ``mode`` says
    (every universal step under the convention ``dead_ends``):

    - ``off``: the plain evaluator;
    - ``auto``: an anchored query ``S and φ`` (:func:`anchor_of`) of a game graded
      from S is S ∩ [[φ]] over the layers from S (the same positions as the plain
      answer); every other query plain;
    - ``on``: as auto, and a query without an anchor is answered over the positions
      reachable from the ``initial`` set of ``definitions`` ([[φ]] ∩ R, said in the
      answer);
      QueryError when a query cannot be layered.

    ``layers`` computes the graded layers (:func:`~symbolic.api.layers.graded_layers`,
    or a cluster's: :meth:`symbolic.distributed.solve.Spread.graded_layers`).
    """
    need_mapping(definitions, "definitions")
    check_engine(engine)
    for q in need_iterable(queries, "the queries"):
        if not (isinstance(q, tuple) and len(q) == 2 and isinstance(q[1], atl.Formula)):
            raise ArgumentTypeError(f"a query is a pair (text, formula), got {str(q)[:60]}")
    if mode not in LAYERED_MODES:
        raise QueryError(
            (Hint("choose", "layered"), f" must be one of {', '.join(LAYERED_MODES)}, got {mode!r}")
        )
    plain = atl.Evaluator(engine, definitions, dead_ends=dead_ends)
    lim = engine.limits
    reaches: dict = {}

    def layered_from(key, source):
        if key not in reaches:
            r = layers(engine, source)
            reaches[key] = (
                r,
                None
                if r is None
                else LayeredEvaluator(engine, r, definitions, dead_ends=dead_ends),
            )
        return reaches[key]

    out = []
    for i, (text, f) in enumerate(queries, 1):
        with lim.stage(f"evaluating query {i} of {len(queries)} with the {engine.kind} engine"):
            lim.check()
            out.append(_answer(definitions, f, engine, mode, plain, layered_from))
    return out


def _answer(definitions, f, engine, mode, plain, layered_from) -> Answer:
    """One query of :func:`evaluate_queries`."""
    if mode == "off":
        return Answer(plain(f))
    anchor = anchor_of(f, definitions)
    if anchor is not None:
        s, phi = anchor
        source = plain(s)
        reach, ev = layered_from(("anchor", s), source)
        if reach is not None:
            return Answer(source & ev(phi), Layering("anchored", _text(s), len(reach.layers)))
    if mode == "auto":
        return Answer(plain(f))
    reach, ev = layered_from("initial", initial_set(engine, definitions))
    if reach is None:
        raise QueryError(
            (
                Hint("given", "layered", ("on",)),
                ": the game is not graded from "
                "its initial positions (a move reaches a layer already seen); use ",
                Hint("choose", "layered", ("auto", "off")),
            )
        )
    return Answer(ev(f), Layering("reachable", reach.result.count(), len(reach.layers)))


def _text(f: atl.Formula) -> str:
    """A short name of an anchor: the set's name when it is one, else 'the anchor set'."""
    return f.name if isinstance(f, atl.Ref) and not f.args else "the anchor set"
