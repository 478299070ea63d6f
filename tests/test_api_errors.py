"""The Python API raises the project's errors for wrong arguments: a
SymbolicError subclass that is also the matching built-in (TypeError), and it
never converts silently (issue: a float in a position, a coalition as a string,
a formula checked against another model)."""
from __future__ import annotations

from pathlib import Path

import pytest

from symbolic import atl
from symbolic.engines import make_engine, make_sets
from symbolic.errors import ArgumentTypeError, QueryError, SymbolicError
from symbolic.model import load_model, parse_formula, parse_model, parse_state_expr

MODELS = Path(__file__).parent.parent / "models"


@pytest.fixture(scope="module")
def nim():
    return load_model(MODELS / "nim.game", {"n": 2, "K": 3})


@pytest.fixture(scope="module", params=["explicit", "symbolic"])
def engine(request, nim):
    return make_engine(nim.game, request.param)


@pytest.mark.parametrize("call, words", [
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
])
def test_wrong_argument_types(nim, engine, call, words):
    with pytest.raises(ArgumentTypeError) as info:
        call(nim, engine)
    err = info.value
    assert isinstance(err, TypeError) and isinstance(err, SymbolicError), type(err).__mro__
    assert words in str(err), str(err)


def test_a_player_id_alone_is_a_coalition(engine):
    assert engine.turn_set(1) == engine.turn_set({1})


def test_a_formula_from_another_model_is_refused(nim):
    other = load_model(MODELS / "nim.game", {"n": 2, "K": 4})  # same names, other model
    f = nim.formula("mover_wins")
    with pytest.raises(QueryError, match="checked against another model's definitions"):
        atl.evaluate(make_engine(other.game, "explicit"), f, other.definitions)
    # with its own model's definitions it evaluates
    assert atl.evaluate(make_engine(nim.game, "explicit"), f, nim.definitions).count() > 0
