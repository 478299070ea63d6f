"""Layered solving for the analyses: the ranks, the ±k values, the winning strategies
and the nimbers over the positions reachable from a source, one layer at a time, when
the game is graded from it (:func:`symbolic.api.layers.graded_layers`).

The ranks come from :func:`symbolic.api.layers.until_approximations` (the
approximations until_n ∩ R of a layered until, the plain ones on R), so the ±k values
(:func:`layered_values`) and the rank-lowering strategies (:func:`layered_strategy`)
are the plain ones, position for position on R.

>>> from symbolic.api import graded_layers
>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> from symbolic.analysis.layered import initial_set
>>> m = load_model("models/tictactoe.game")
>>> e = make_engine(m.game, "explicit")
>>> r = graded_layers(e, initial_set(e, m.definitions))
>>> V = layered_values(e, r)
>>> V.result(initial_set(e, m.definitions).first())   # by the game's win(p) sets: a draw
'draw'
>>> sum(V.counts().values()) + V.draws.count() == r.result.count()
True
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .. import atl
from ..api import (
    DeadEnds,
    GameEngine,
    PositionSet,
    ReachLayers,
    check_dead_ends,
    check_engine,
    check_reach,
    check_set,
    graded_layers,
    until_approximations,
    until_layered,
)
from ..arguments import need, need_mapping
from ..errors import Hint, QueryError
from .layered import LAYERED_MODES, initial_set
from .strategy import Objective, Strategy
from .grundy import Nimbers
from .values import Ranks, Values, check_two_players, values_from_ranks

__all__ = [
    "layered_ranks",
    "layered_values",
    "layered_strategy",
    "layered_nimbers_graded",
    "graded_reach",
    "layered_source",
]


def layered_source(
    definitions: Mapping[str, atl.Definition], engine: GameEngine, at: tuple | None, mode: str
) -> PositionSet | None:
    """The positions ``values`` and ``nimbers`` solve from, layer by layer: the one
    position ``at``, else the ``initial`` set of the model's checked ``definitions``;
    None for ``off``, and for ``auto`` when they name no initial set (``on``:
    QueryError then)."""
    if mode not in LAYERED_MODES:
        raise QueryError(
            (Hint("choose", "layered"), f" must be one of {', '.join(LAYERED_MODES)}, got {mode!r}")
        )
    need_mapping(definitions, "definitions")
    if at is not None:
        at = check_engine(engine).space.check_position(at)
    if mode == "off":
        return None
    if at is not None:
        return engine.from_tuples([at])
    if "initial" not in definitions and mode != "on":
        return None
    return initial_set(engine, definitions)


def graded_reach(
    engine: GameEngine, source: PositionSet, mode: str, layers=graded_layers
) -> ReachLayers | None:
    """The graded layers from ``source`` to solve on, as ``--layered`` says: ``off``:
    None; ``auto``: the layers when graded, else None; ``on``: the layers, or
    QueryError when the game is not graded from ``source``. ``layers``: what computes
    them (:func:`~symbolic.api.layers.graded_layers`, or a cluster's:
    :meth:`symbolic.distributed.solve.Spread.graded_layers`)."""
    check_set(check_engine(engine), source, "the source")
    if mode not in LAYERED_MODES:
        raise QueryError(
            (Hint("choose", "layered"), f" must be one of {', '.join(LAYERED_MODES)}, got {mode!r}")
        )
    if mode == "off":
        return None
    reach = layers(engine, source)
    if reach is None and mode == "on":
        raise QueryError(
            (
                Hint("given", "layered", ("on",)),
                ": the game is not graded from "
                "the positions it starts from (a move reaches a layer already seen); "
                "use ",
                Hint("choose", "layered", ("auto", "off")),
            )
        )
    return reach


def layered_ranks(
    engine: GameEngine, coalition: Iterable[int], goal: PositionSet, reach: ReachLayers
) -> Ranks:
    """:func:`symbolic.analysis.values.ranks` ∩ R: rank_J over Attr_J(goal) ∩ R (STRICT)."""
    J = check_engine(engine).game.coalition(coalition)
    fp = until_approximations(engine, J, engine.positions(), goal, reach, dead_ends=DeadEnds.STRICT)
    cumulative = fp.approximations()
    layers = [cumulative[0]] + [b - a for a, b in zip(cumulative, cumulative[1:])]
    return Ranks(J, tuple(layers), fp.result)


def layered_values(engine: GameEngine, reach: ReachLayers) -> Values:
    """:func:`symbolic.analysis.values.two_player_values` over the positions R of a
    graded ``reach`` (the same value at every position of R; draws: R minus both
    attractors)."""
    check_two_players(engine)
    check_reach(engine, reach)
    return values_from_ranks(
        engine, lambda J, goal: layered_ranks(engine, J, goal, reach), reach.result
    )


def layered_strategy(
    engine: GameEngine,
    formula: atl.Formula,
    reach: ReachLayers,
    definitions=None,
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
) -> Strategy:
    """:func:`symbolic.analysis.strategy.strategy_for` over the positions R of a graded
    ``reach``: the same moves at every position of R, from the layered until (a
    release: Z ∩ R = until(J, right, left ∧ right) ∩ R, the greatest fixpoint being
    the least one on R, where every play ends; both dead-end conventions)."""
    check_reach(check_engine(engine), reach)
    need(formula, atl.Formula, "the formula", hint=" (parse text with model.formula(text))")
    check_dead_ends(dead_ends)
    ev = atl.Evaluator(engine, definitions, dead_ends=dead_ends)
    f, env = ev.resolve(formula)
    if not isinstance(f, (atl.Until, atl.Release)):
        from .strategy import strategy_for

        return strategy_for(engine, formula, definitions, dead_ends)  # its error
    J = ev.coalition_of(f.coalition, env)
    left, right = ev.eval(f.left, env), ev.eval(f.right, env)
    if isinstance(f, atl.Until):
        fp = until_approximations(engine, J, left, right, reach, dead_ends=dead_ends)
        mine = engine.turn_set(J)
        rel = engine.moves_between(engine.empty(), engine.empty())
        layers = fp.approximations()
        for prev, cur in zip(layers, layers[1:]):
            rel = rel | engine.moves_between((cur - prev) & mine, prev)
        return Strategy(
            engine, Objective("reach", J, left, right, dead_ends), fp.result, rel, fp.layers
        )
    goal = left & right
    z = until_layered(engine, J, right, goal, reach, dead_ends=dead_ends).result  # ⊆ R
    rel = engine.moves_between((z - goal) & engine.turn_set(J), z)
    return Strategy(engine, Objective("safety", J, right, goal, dead_ends), z, rel)


def layered_nimbers_graded(engine: GameEngine, reach: ReachLayers) -> Nimbers:
    """:func:`symbolic.analysis.grundy.layered_nimbers` over the positions R of a graded
    ``reach``, one graded layer at a time from the farthest: with G^k_g the positions of
    F_k of nimber g (every successor of F_k is in F_{k+1}),

        A^k_0 = F_k,  A^k_{g+1} = A^k_g ∩ pre∃(G^{k+1}_g),  G^k_g = A^k_g ∖ pre∃(G^{k+1}_g)

    (g(c) ≥ g iff every h < g is below c; = g iff moreover no successor has g): no
    fixpoint at all, one pre-image per layer and value. The caller checks that the
    game is impartial (:func:`~symbolic.analysis.grundy.check_impartial`)."""
    if not isinstance(reach, ReachLayers) or not reach.graded:
        raise QueryError(f"layered nimbers need graded layers, got {reach!r}")
    players = check_engine(engine).game.players
    check_reach(engine, reach)
    lim = engine.limits
    below: list[PositionSet] = []  # G^{k+1}_0, G^{k+1}_1, ...
    total: list[PositionSet] = []  # ⋃_k G^k_g
    steps = 0
    with lim.stage("computing nimbers layer by layer"):
        for k in reversed(range(len(reach.layers))):
            lim.check(f"layer {k}")
            at_least = reach.layers[k]
            mine: list[PositionSet] = []
            while at_least:
                nxt = below[len(mine)] if len(mine) < len(below) else engine.empty()
                into = engine.pre_exists(players, nxt) if nxt else engine.empty()
                steps += 1
                mine.append(at_least - into)
                at_least = at_least & into
            for g, part in enumerate(mine):
                if g < len(total):
                    total[g] = total[g] | part
                else:
                    total.append(part)
            below = mine
    return Nimbers(engine, tuple(total), steps)
