"""The layered functions, the joint strategies, the pictures and the engines' layered
methods check their arguments at the boundary (issue 32, item 4): wrong types and
impossible values end in a SymbolicError (ArgumentTypeError, ArgumentValueError,
QueryError, EngineMismatch) with a message, never in a TypeError, AttributeError or
IndexError from inside, and are never accepted silently.

Two parts: a table of cases whose messages are read, and a systematic probe that
calls every public function with each of its arguments replaced, one at a time, by
every value of :data:`JUNK` (None, a string, a float, a negative int, a bool, a
position set of another engine, layers of another engine, ...), on both engines.
A replacement may be accepted only where :data:`PROBES` says it is a valid argument
(a set of the same engine where a set is expected, a list where a coalition is)."""

from __future__ import annotations


import pytest

from symbolic import atl
from symbolic.analysis import joint_strategy as js
from symbolic.analysis import layered, layered_solve
from symbolic.analysis.grundy import layered_nimbers
from symbolic.analysis.strategy import strategy_for
from symbolic.analysis.values import two_player_values
from symbolic.api import (
    DeadEnds,
    graded_layers,
    layer_turns,
    reach_layers,
    until_approximations,
    until_by_layer,
    until_layered,
)
from symbolic.engines import make_engine
from symbolic.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    EngineMismatch,
    QueryError,
    SymbolicError,
)
from symbolic.model import parse_model, load_model
from symbolic.pictures import board as board_picture
from symbolic.pictures import grid_of, move_values, nimbers_grid, set_grid, strategy_graph
from symbolic.pictures import values_grid
from symbolic.pictures.board import place_moves, position_value, value_text
from symbolic.pictures.figure import Picture, new_figure
from symbolic.pictures.grid import draw_grid, position_with
from symbolic.analysis.play import Planner, drawer
from symbolic.analysis.outcome import Referee

from .conftest import MODELS

V = DeadEnds.VACUOUS

#: a small game graded from its initial position (every move adds 1 to n)
LADDER = """\
game "ladder"
players 1, 2
var j : 1..2
var n : 0..3
var x : 0..2
turn j
move up(t in 0..2) when n < 3 then n' = n + 1; x' = t; j' = 3 - j
set initial = j = 1 and n = 0 and x = 0
display "n=" + str(n) + " x=" + str(x)
"""


class World:
    """The good arguments of every probed call, on one engine kind."""

    def __init__(self, kind: str):
        other_kind = "explicit" if kind == "symbolic" else "symbolic"
        self.m = m = parse_model(LADDER, "ladder.game")
        self.e = e = make_engine(m.game, kind)
        self.other = make_engine(m.game, other_kind)
        self.init = layered.initial_set(e, m.definitions)
        self.reach = graded_layers(e, self.init)
        self.f = m.formula("<<1>> <> (n == 3 and x == 0)")
        self.J = e.game.coalition([1])
        self.values = two_player_values(e)
        self.nimbers = layered_nimbers(e, check=False)
        self.strategy = strategy_for(e, self.f, m.definitions)
        self.planner = Planner(e, Referee(e))
        self.pos = self.init.first()
        self.render = drawer(m.display, e.space, str)
        tg = load_model(MODELS / "train_gate.game")
        self.tg = tg
        self.c = c = make_engine(tg.game, kind)
        self.keep = atl.Evaluator(c, tg.definitions)(tg.formula("out_of_gate"))
        self.joint = js.safety_joint_strategy(c, {2}, self.keep)
        self.junk = {
            "None": None,
            "str": "zz",
            "float": 1.5,
            "neg": -1,
            "bool": True,
            "huge": 10**6,
            "dict": {},
            "list": [],
            "pair": (1, 2),
            "object": object(),
            "set": e.positions(),
            "other set": self.other.positions(),
            "other layers": reach_layers(
                self.other, layered.initial_set(self.other, m.definitions)
            ),
            "ungraded layers": reach_layers(e, e.positions()),
        }


#: what a replacement of a set argument may be: a set of the same engine
SET = {"set"}
#: a coalition: a collection of player ids (empty or both players included)
COALITION = {"dict", "list", "pair"}


def _probes():
    """(name, call, good arguments, keyword arguments, {argument: junk accepted})."""
    return [
        (
            "set_grid",
            lambda w: set_grid,
            lambda w: [w.e.positions(), "n", "x"],
            lambda w: {"at": {"j": 1}, "base": None, "title": "t"},
            {0: {"set", "other set"}, "at": {"None", "dict"}, "base": {"None"}, "title": {"str"}},
        ),
        (
            "values_grid",
            lambda w: values_grid,
            lambda w: [w.values, "n", "x"],
            lambda w: {"at": {"j": 1}, "title": "t"},
            {"at": {"None", "dict"}, "title": {"str"}},
        ),
        (
            "nimbers_grid",
            lambda w: nimbers_grid,
            lambda w: [w.nimbers, "n", "x"],
            lambda w: {"at": {"j": 1}, "title": "t"},
            {"at": {"None", "dict"}, "title": {"str"}},
        ),
        (
            "grid_of",
            lambda w: grid_of,
            lambda w: [w.nimbers, "n", "x", {"j": 1}],
            lambda w: {"base": None},
            {0: {"set", "other set"}, 3: {"dict"}, "base": {"None"}},
        ),
        (
            "draw_grid",
            lambda w: draw_grid,
            lambda w: [grid_of(w.nimbers, "n", "x", {"j": 1}), "t"],
            lambda w: {},
            {1: {"str"}},
        ),
        (
            "position_with",
            lambda w: position_with,
            lambda w: [w.e.space, {}, (1, 0, 0)],
            lambda w: {"free": ("n",)},
            {1: {"dict"}, 2: {"None"}, "free": {"list"}},
        ),
        ("board", lambda w: board_picture, lambda w: [w.m, w.e, w.pos], lambda w: {}, {}),
        (
            "move_values",
            lambda w: move_values,
            lambda w: [w.e, w.pos],
            lambda w: {"planner": w.planner},
            {"planner": {"None"}},
        ),
        (
            "position_value",
            lambda w: position_value,
            lambda w: [w.planner, w.pos, 1],
            lambda w: {},
            {},
        ),
        (
            "place_moves",
            lambda w: place_moves,
            lambda w: [w.render, w.pos, move_values(w.e, w.pos)],
            lambda w: {},
            {2: {"list"}},
        ),
        (
            "value_text",
            lambda w: value_text,
            lambda w: [3],
            lambda w: {},
            {0: {"None", "neg", "huge"}},
        ),
        (
            "strategy_graph",
            lambda w: strategy_graph,
            lambda w: [w.strategy, w.init],
            lambda w: {"max_nodes": 5, "label": str},
            {1: SET, "max_nodes": {"huge"}, "label": {"None"}},
        ),
        (
            "new_figure",
            lambda w: new_figure,
            lambda w: [1.0, 1.0],
            lambda w: {"layout": None},
            {0: {"float", "huge"}, 1: {"float", "huge"}, "layout": {"None"}},
        ),
        (
            "Picture",
            lambda w: Picture,
            lambda w: [new_figure(1, 1), {}],
            lambda w: {},
            {1: {"dict"}},
        ),
        ("graded_layers", lambda w: graded_layers, lambda w: [w.e, w.init], lambda w: {}, {1: SET}),
        (
            "LayeredEvaluator",
            lambda w: layered.LayeredEvaluator,
            lambda w: [w.e, w.reach],
            lambda w: {"definitions": w.m.definitions, "sets": {}, "dead_ends": V},
            {"definitions": {"None", "dict"}, "sets": {"None", "dict"}},
        ),
        (
            "is_state_formula",
            lambda w: layered.is_state_formula,
            lambda w: [w.f, w.m.definitions],
            lambda w: {},
            {1: {"dict"}},
        ),
        (
            "anchor_of",
            lambda w: layered.anchor_of,
            lambda w: [w.f, w.m.definitions],
            lambda w: {},
            {1: {"dict"}},
        ),
        (
            "initial_set",
            lambda w: layered.initial_set,
            lambda w: [w.e, w.m.definitions],
            lambda w: {},
            {1: {"dict"}},
        ),
        (
            "layer_outcomes",
            lambda w: layered.layer_outcomes,
            lambda w: [w.m.definitions, w.e, w.reach],
            lambda w: {"layered": True},
            {0: {"dict"}, 2: {"None"}, "layered": {"bool"}},
        ),
        (
            "evaluate_queries",
            lambda w: layered.evaluate_queries,
            lambda w: [w.m.definitions, [("q", w.f)], w.e],
            lambda w: {"mode": "auto"},
            {0: {"dict"}, 1: {"list"}},
        ),
        (
            "layered_source",
            lambda w: layered_solve.layered_source,
            lambda w: [w.m.definitions, w.e, None, "auto"],
            lambda w: {},
            {0: {"dict"}, 2: {"None"}},
        ),
        (
            "graded_reach",
            lambda w: layered_solve.graded_reach,
            lambda w: [w.e, w.init, "auto"],
            lambda w: {},
            {1: SET},
        ),
        (
            "until_approximations",
            lambda w: until_approximations,
            lambda w: [w.e, {1}, w.e.positions(), w.e.deadlocks(), w.reach],
            lambda w: {"dead_ends": V},
            {1: COALITION, 2: SET, 3: SET},
        ),
        (
            "layered_ranks",
            lambda w: layered_solve.layered_ranks,
            lambda w: [w.e, {1}, w.e.deadlocks(), w.reach],
            lambda w: {},
            {1: COALITION, 2: SET},
        ),
        (
            "layered_values",
            lambda w: layered_solve.layered_values,
            lambda w: [w.e, w.reach],
            lambda w: {},
            {},
        ),
        (
            "layered_strategy",
            lambda w: layered_solve.layered_strategy,
            lambda w: [w.e, w.f, w.reach],
            lambda w: {"definitions": w.m.definitions, "dead_ends": V},
            {"definitions": {"None", "dict"}},
        ),
        (
            "layered_nimbers_graded",
            lambda w: layered_solve.layered_nimbers_graded,
            lambda w: [w.e, w.reach],
            lambda w: {},
            {},
        ),
        (
            "reach_joint_strategy",
            lambda w: js.reach_joint_strategy,
            lambda w: [w.c, {2}, w.c.positions(), w.keep],
            lambda w: {},
            {1: COALITION, 2: {"set"}, 3: {"set"}},
        ),
        (
            "safety_joint_strategy",
            lambda w: js.safety_joint_strategy,
            lambda w: [w.c, {2}, w.keep],
            lambda w: {},
            {1: COALITION},
        ),
        (
            "verify_joint",
            lambda w: js.verify_joint,
            lambda w: [w.tg.game, w.joint, [(0,)]],
            lambda w: {},
            {2: {"list", "dict"}},
        ),
        ("reach_layers", lambda w: reach_layers, lambda w: [w.e, w.init], lambda w: {}, {1: SET}),
        (
            "until_layered",
            lambda w: until_layered,
            lambda w: [w.e, {1}, w.e.positions(), w.e.deadlocks(), w.reach],
            lambda w: {"dead_ends": V},
            {1: COALITION, 2: SET, 3: SET},
        ),
        (
            "until_by_layer",
            lambda w: until_by_layer,
            lambda w: [w.e, {1}, w.e.positions(), w.e.deadlocks(), w.reach],
            lambda w: {"dead_ends": V},
            {1: COALITION, 2: SET, 3: SET},
        ),
        ("layer_turns", lambda w: layer_turns, lambda w: [w.e, w.J], lambda w: {}, {1: COALITION}),
        (
            "engine.until_layer_step",
            lambda w: w.e.until_layer_step,
            lambda w: [
                w.J,
                w.reach,
                1,
                layer_turns(w.e, w.J),
                w.e.empty(),
                w.e.positions(),
                w.e.deadlocks(),
            ],
            lambda w: {"dead_ends": V},
            {3: SET, 4: SET, 5: SET, 6: SET},
        ),
    ]


PROBES = _probes()


@pytest.fixture(scope="module", params=["explicit", "symbolic"])
def world(request):
    return World(request.param)


@pytest.mark.parametrize("probe", range(len(PROBES)), ids=[p[0] for p in PROBES])
def test_every_argument_refuses_junk_with_a_symbolic_error(world, probe):
    name, fn, args, kwargs, allowed = PROBES[probe]
    call, good, kw = fn(world), args(world), kwargs(world)
    call(*good, **kw)  # the good call answers
    wrong = []
    for slot in [*range(len(good)), *kw]:
        for junk_name, junk in world.junk.items():
            a, k = list(good), dict(kw)
            if isinstance(slot, int):
                a[slot] = junk
            else:
                k[slot] = junk
            try:
                call(*a, **k)
            except SymbolicError as err:
                if not str(err):
                    wrong.append((slot, junk_name, "an empty message"))
                continue
            except Exception as err:  # noqa: BLE001 - what the probe looks for
                wrong.append((slot, junk_name, f"{type(err).__name__}: {err}"[:120]))
                continue
            if junk_name not in allowed.get(slot, ()):
                wrong.append((slot, junk_name, "accepted"))
    assert wrong == [], f"{name}: {wrong}"


def _refused(call, error, words=""):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, SymbolicError), type(info.value).__mro__
    assert words in str(info.value), str(info.value)


CASES = [
    # issue 32: values_grid drew a position set as a set grid
    (
        lambda w: values_grid(w.e.positions(), "n", "x", {"j": 1}),
        ArgumentTypeError,
        "values_grid: the values must be a Values",
    ),
    (lambda w: nimbers_grid(w.values, "n", "x", {"j": 1}), ArgumentTypeError, "Nimbers"),
    (
        lambda w: set_grid(w.e.positions(), "n", "x", {"j": True}),
        ArgumentTypeError,
        "the value of j must be an int",
    ),
    (lambda w: set_grid(w.e.positions(), "n", "x", base=(1, 9, 9)), SymbolicError, "9"),
    # issue 32: until_layer_step(k=-1) read the last layer
    (
        lambda w: w.e.until_layer_step(
            w.J,
            w.reach,
            -1,
            layer_turns(w.e, w.J),
            w.e.empty(),
            w.e.positions(),
            w.e.deadlocks(),
            dead_ends=V,
        ),
        ArgumentValueError,
        "the layer k must be at least 0, got -1",
    ),
    (
        lambda w: w.e.until_layer_step(
            w.J,
            w.reach,
            4,
            layer_turns(w.e, w.J),
            w.e.empty(),
            w.e.positions(),
            w.e.deadlocks(),
            dead_ends=V,
        ),
        ArgumentValueError,
        "the layer k must be at most 3, got 4",
    ),
    (
        lambda w: w.e.until_layer_step(
            {1},
            w.reach,
            0,
            layer_turns(w.e, w.J),
            w.e.empty(),
            w.e.positions(),
            w.e.deadlocks(),
            dead_ends=V,
        ),
        ArgumentTypeError,
        "engine.game.coalition",
    ),
    (
        lambda w: w.e.until_layer_step(
            w.J,
            w.reach,
            0,
            layer_turns(w.e, w.J),
            w.e.empty(),
            w.e.positions(),
            w.e.deadlocks(),
            dead_ends="vacuous",
        ),
        QueryError,
        "dead_ends",
    ),
    (
        lambda w: until_approximations(
            w.e, {1}, w.e.positions(), w.e.deadlocks(), w.reach, dead_ends=None
        ),
        QueryError,
        "dead_ends",
    ),
    (
        lambda w: layered_solve.layered_values(w.e, w.junk["other layers"]),
        EngineMismatch,
        "the layers",
    ),
    (
        lambda w: layered_solve.layered_nimbers_graded(w.e, w.junk["ungraded layers"]),
        QueryError,
        "graded",
    ),
    (
        lambda w: layered_solve.layered_source(w.m.definitions, w.e, None, "sometimes"),
        QueryError,
        "mode must be one of",
    ),
    (
        lambda w: layered.layer_outcomes("ladder", w.e),
        ArgumentTypeError,
        "definitions must be a mapping",
    ),
    (
        lambda w: layered.evaluate_queries(w.m.definitions, ["<<1>> <> true"], w.e),
        ArgumentTypeError,
        "a query is a pair (text, formula)",
    ),
    (
        lambda w: layered.anchor_of("initial and x == 0", w.m.definitions),
        ArgumentTypeError,
        "model.formula(text)",
    ),
    (lambda w: js.safety_joint_strategy(w.e, {1}, w.e.positions()), QueryError, "concurrent games"),
    (lambda w: js.verify_joint(w.m.game, w.joint, [(0,)]), ArgumentTypeError, "the game"),
    (
        lambda w: strategy_graph(w.strategy, w.init, max_nodes=0),
        ArgumentValueError,
        "max_nodes must be at least 1",
    ),
    (lambda w: new_figure(-1, 2), ArgumentValueError, "positive number of inches"),
    (lambda w: new_figure(float("nan"), 2), ArgumentValueError, "positive number of inches"),
    (lambda w: Picture(new_figure(1, 1), {}).save(None), ArgumentTypeError, "the path"),
    (lambda w: position_value(w.planner, w.pos, 3), QueryError, "not a player"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_refusals_name_the_argument(world, case):
    call, error, words = CASES[case]
    _refused(lambda: call(world), error, words)
