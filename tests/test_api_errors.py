"""The Python API raises the project's errors for wrong arguments: a
SymbolicError subclass that is also the matching built-in (TypeError), and it
never converts silently (issue: a float in a position, a coalition as a string,
a formula checked against another model)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl, ir
from symbolic.api import DeadEnds, attractor, reach_layers
from symbolic.bdd import SymbolicGame, SymbolicSets
from symbolic.engines import make_engine, make_sets
from symbolic.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    BadLimit,
    BadLimitType,
    ParseError,
    QueryError,
    SymbolicError,
)
from symbolic.explicit import ExplicitGame, ExplicitSets
from symbolic.limits import Limits
from symbolic.model import load_model, parse_formula, parse_model, parse_state_expr

MODELS = Path(__file__).parent.parent / "models"


@pytest.fixture(scope="module")
def nim():
    return load_model(MODELS / "nim.game", {"n": 2, "K": 3})


@pytest.fixture(scope="module", params=["explicit", "symbolic"])
def engine(request, nim):
    return make_engine(nim.game, request.param)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda m, e: m.formula(None), "a formula must be a string, got None"),
        (lambda m, e: parse_formula("true", None), "expected a Model"),
        (lambda m, e: parse_state_expr(3, m), "a state expression must be a string"),
        (lambda m, e: load_model(None), "the path must be a string or a path, got None"),
        (lambda m, e: load_model(MODELS / "nim.game", {1: 2}), "a parameter name is a string"),
        (lambda m, e: load_model(MODELS / "nim.game", {"n": 2.5}), "n = 2.5"),
        (lambda m, e: load_model(MODELS / "nim.game", [("n", 2)]), "params must be a mapping"),
        (lambda m, e: parse_model(None), "the model text must be a string"),
        (lambda m, e: m.with_params({"K": None}), "K = None"),
        (lambda m, e: atl.evaluate(e, "<<1>> X true", m.definitions), "parse it first"),
        (lambda m, e: atl.Evaluator("engine"), "needs a game engine"),
        (lambda m, e: atl.Evaluator(e, ["F"]), "definitions must map names"),
        (lambda m, e: e.singleton((1.5, 2, 2)), "1.5 is not an int"),
        (lambda m, e: e.singleton(("1", 2, 2)), "'1' is not an int"),
        (lambda m, e: (1.0, 2, 2) in e.positions(), "1.0 is not an int"),
        (lambda m, e: e.singleton(5), "a position is a tuple"),
        (lambda m, e: e.turn_set("12"), "a coalition is a player id or a collection"),
        (lambda m, e: e.pre_exists([1.5], e.positions()), "1.5 is not a player id"),
        (lambda m, e: e.from_expr("k[1] > 0"), "parse text first"),
        (lambda m, e: make_engine("game"), "make_engine needs a Game"),
        (lambda m, e: make_sets(None), "make_sets needs a Space"),
    ],
)
def test_wrong_argument_types(nim, engine, call, words):
    with pytest.raises(ArgumentTypeError) as info:
        call(nim, engine)
    err = info.value
    assert isinstance(err, TypeError) and isinstance(err, SymbolicError), type(err).__mro__
    assert words in str(err), str(err)


def test_a_player_id_alone_is_a_coalition(engine):
    assert engine.turn_set(1) == engine.turn_set({1})


def test_a_model_built_without_names_refuses_text(nim):
    bare = dataclasses.replace(nim, scope=None)  # a Model built by hand
    for read in (parse_formula, parse_state_expr):
        with pytest.raises(ArgumentValueError, match="no names to read text against"):
            read("true", bare)


def test_a_formula_from_another_model_is_refused(nim):
    other = load_model(MODELS / "nim.game", {"n": 2, "K": 4})  # same names, other model
    f = nim.formula("mover_wins")
    with pytest.raises(QueryError, match="checked against another model's definitions"):
        atl.evaluate(make_engine(other.game, "explicit"), f, other.definitions)
    # with its own model's definitions it evaluates
    assert atl.evaluate(make_engine(nim.game, "explicit"), f, nim.definitions).count() > 0


# ----------------------------------------------------------------- issue 23: the boundary


def _deep_kif(tmp_path, depth=5000):
    path = tmp_path / "deep.kif"
    path.write_text(
        "(role a) (role b) (init (c " + "(f " * depth + "x" + ")" * depth + "))\n"
        "(<= terminal (true (c x)))\n"
    )
    return path


@pytest.mark.parametrize(
    "call, error, words",
    [
        (
            lambda m, e, t: load_model(MODELS / "nim.game", {"n": 10**5000}),
            ArgumentValueError,
            "more than 1000 digits",
        ),
        (lambda m, e, t: load_model(_deep_kif(t)), ParseError, "nest too deeply"),
        (
            lambda m, e, t: SymbolicGame(None),
            ArgumentTypeError,
            "the game must be a Game, got None",
        ),
        (lambda m, e, t: SymbolicGame(m), ArgumentTypeError, "pass model.game, not the model"),
        (lambda m, e, t: ExplicitGame(m), ArgumentTypeError, "pass model.game, not the model"),
        (lambda m, e, t: ExplicitGame(m.game, max_edges=0), ArgumentValueError, "max_edges"),
        (
            lambda m, e, t: ExplicitSets(m.game.space, max_positions="9"),
            ArgumentTypeError,
            "max_positions",
        ),
        (
            lambda m, e, t: SymbolicGame(m.game, max_memory=-1),
            ArgumentValueError,
            "max_memory (bytes) must be at least 1",
        ),
        (
            lambda m, e, t: SymbolicGame(m.game, max_memory=10**30),
            ArgumentValueError,
            "max_memory (bytes) must be at most",
        ),
        (lambda m, e, t: SymbolicSets(m.game.space, limits=5), ArgumentTypeError, "limits"),
        (
            lambda m, e, t: SymbolicSets(m.game.space, invariant="k[1] > 0"),
            ArgumentTypeError,
            "must be an Expr",
        ),
        (
            lambda m, e, t: ExplicitSets(m.game.space, invariant=None),
            ArgumentTypeError,
            "must be an Expr",
        ),
        (lambda m, e, t: Limits(max_memory=10**400), BadLimit, "max_memory must be at most"),
        (lambda m, e, t: Limits(timeout=10**400), BadLimit, "timeout must be at most"),
        (lambda m, e, t: Limits(timeout=float("inf")), BadLimit, "positive number"),
        (lambda m, e, t: e.from_tuples(5), ArgumentTypeError, "from_tuples: the positions"),
        (lambda m, e, t: e.from_tuples("(1, 0, 0)"), ArgumentTypeError, "a collection"),
        (lambda m, e, t: (True, 0, 0) in e.positions(), ArgumentTypeError, "True is not an int"),
        (lambda m, e, t: e.singleton((1, False, 0)), ArgumentTypeError, "False is not an int"),
        (lambda m, e, t: e.from_expr(ir.Var("k"), env=5), ArgumentTypeError, ""),
        (lambda m, e, t: make_engine(m.game, "explicit", limits=Limits), BadLimitType, "limits"),
    ],
)
def test_the_boundary_refuses(nim, engine, tmp_path, call, error, words):
    """Each call once ended in a plain ValueError, AttributeError, OverflowError,
    TypeError or RecursionError (issue 23, item 6)."""
    with pytest.raises(error) as info:
        call(nim, engine, tmp_path)
    assert isinstance(info.value, SymbolicError), type(info.value).__mro__
    assert words in str(info.value), str(info.value)


def test_a_bool_is_not_a_position_value_even_for_a_bool_variable():
    """We refuse rather than answer False: True would silently read as 1."""
    m = parse_model("players 1\nvar b : bool\nturn 1\nmove flip then b' = (not b)\n")
    for kind in ("explicit", "symbolic"):
        e = make_engine(m.game, kind)
        assert (1,) in e.positions() and e.singleton([0]).tuples() == [(0,)]
        with pytest.raises(ArgumentTypeError, match="True is not an int"):
            (True,) in e.positions()


def test_a_formula_of_another_space_is_refused_even_without_definitions(nim):
    """ens2005's formulas once evaluated on a Nim engine (other ranges, other players)
    and counted positions there; now each Prop and definition knows its space."""
    ens = load_model(MODELS / "ens2005.game")
    e = make_engine(nim.game, "explicit")
    for text in ("k[1] = 0", "initial", "F({1})"):
        with pytest.raises(QueryError, match="checked against another model"):
            atl.evaluate(e, ens.formula(text), ens.definitions)
    with pytest.raises(QueryError, match="checked against another model"):
        atl.Evaluator(e, ens.definitions)
    # the same text checked against the engine's own model evaluates
    assert atl.evaluate(e, nim.formula("k[1] = 0"), nim.definitions).count() > 0
    # a Prop built by hand carries no space: it is checked as before
    assert atl.evaluate(e, atl.Prop(ir.Var("j").eq(1))).count() > 0


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.lists(st.integers(-3, 3), max_size=4).map(tuple),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.just(object()),
    st.just(float("inf")),
)


@settings(max_examples=75, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_junk_arguments_end_in_symbolic_errors(nim, data):
    """Random junk in one argument of a public call: it answers or raises a
    SymbolicError, never a plain built-in exception."""
    e = make_engine(nim.game, data.draw(st.sampled_from(["explicit", "symbolic"])))
    junk = data.draw(JUNK)
    P = e.positions()
    calls = [
        lambda: e.from_tuples(junk),
        lambda: junk in P,
        lambda: e.singleton(junk),
        lambda: e.turn_set(junk),
        lambda: e.pre_exists(junk, P),
        lambda: e.pre_exists({1}, junk),
        lambda: e.pre_forall({1}, junk, dead_ends=DeadEnds.VACUOUS),
        lambda: e.pre_forall({1}, P, dead_ends=junk),
        lambda: e.until({1}, junk, P, dead_ends=DeadEnds.VACUOUS),
        lambda: e.release({1}, P, junk, dead_ends=DeadEnds.VACUOUS),
        lambda: attractor(e, junk, P),
        lambda: attractor(e, {1}, junk),
        lambda: reach_layers(e, junk),
        lambda: e.successors(junk),
        lambda: P | junk,
        lambda: P & junk,
        lambda: P - junk,
        lambda: P <= junk,
        lambda: P.take(junk),
        lambda: e.from_expr(junk),
        lambda: Limits(timeout=junk),
        lambda: Limits(max_memory=junk),
        lambda: make_engine(nim.game, junk),
        lambda: make_engine(nim.game, "symbolic", junk),
        lambda: make_sets(nim.game.space, junk),
        lambda: load_model(junk),
        lambda: load_model(MODELS / "nim.game", {"n": junk}),
        lambda: parse_formula(junk, nim),
        lambda: parse_state_expr(junk, nim),
        lambda: atl.evaluate(e, junk),
        lambda: atl.evaluate(junk, nim.formula("true")),
        lambda: atl.Evaluator(e, junk),
        lambda: atl.Evaluator(e, None, None, junk),
    ]
    call = data.draw(st.sampled_from(calls))
    try:
        call()
    except SymbolicError:
        pass
