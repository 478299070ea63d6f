"""Arena JSON files (symbolic.lang.arena): validation with located errors, any player
ids, large arenas; the answers checked on both engines."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from symbolic import atl
from symbolic.lang.arena import MAX_DEPTH, read_arena
from symbolic.errors import ModelError, SymbolicError
from symbolic.model import load_model

from .conftest import all_engines

GOOD = {
    "etats": [0, 1, 2],
    "init": 0,
    "controles": {"0": 1, "1": 2, "2": 1},
    "transitions": {"0": [1, 2], "1": [0], "2": [2]},
    "objectifs1": [2],
    "objectifs2": [1],
}


def write(tmp_path, doc, name="a.arena.json") -> str:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(p)


def error_of(tmp_path, doc) -> ModelError:
    with pytest.raises(ModelError) as info:
        load_model(write(tmp_path, doc))
    err = info.value
    assert err.span is not None and err.span.file.endswith("a.arena.json"), err
    assert err.span.line >= 1 and err.span.column >= 1, err
    return err


def changed(**kw):
    doc = json.loads(json.dumps(GOOD))
    for k, v in kw.items():
        if v is None:
            del doc[k]
        else:
            doc[k] = v
    return doc


@pytest.mark.parametrize(
    "doc, words",
    [
        # an edge to a state missing from etats was silently dropped
        (changed(transitions={"0": [1, 7]}), 'transitions["0"][1]: 7 is not a state'),
        (changed(init=9), "init: 9 is not a state"),
        # a string successor list was read character by character
        (changed(transitions={"0": "12"}), 'transitions["0"] must be a list, got the string'),
        # floats were truncated, booleans passed as states
        (changed(controles={"0": 1.7, "1": 2, "2": 1}), "controller of state 0 must be an integer"),
        (changed(etats=[0, True, 2]), "etats[1] must be an integer, got true"),
        (changed(objectifs1=[True]), "objectifs1[0] must be an integer"),
        (changed(objectifs2=[42]), "objectifs2[0]: 42 is not a state"),
        (changed(controles={"zero": 1, "1": 2, "2": 1}), 'controles: key "zero" is not a state'),
        (changed(controles=[1, 2, 1]), "controles must be an object, got a list"),
        (changed(transitions={"0": None}), "must be a list, got null"),
        (
            json.dumps(GOOD).replace('"init": 0', '"init": null'),
            "init must be an integer, got null",
        ),
        (json.dumps(GOOD).replace('"init": 0', '"init": ' + "9" * 5000), "more than 18 digits"),
        (changed(etats=[0, 1, 1]), "state 1 is listed twice"),
        (changed(etats=[0, 1, 5]), "etats[2]: 5 is not a state"),
        (changed(etats=[]), "etats is empty"),
        (changed(initial=0), 'repeats "init"'),
        (changed(objectifs2=None), 'missing key "objectifs2"'),
        (changed(colour=3), 'unknown key "colour"'),
        (changed(name=3), "name must be a string"),
        ([1, 2], "expected a JSON object"),
    ],
)
def test_invalid_arenas_get_located_errors(tmp_path, doc, words):
    err = error_of(tmp_path, doc)
    assert words in err.message, err.message


@pytest.mark.parametrize(
    "text, words, where",
    [
        ('{"etats": [0], "init": NaN}', "not JSON here", (1, 24)),
        ('{"etats": [0], "init": 0', "ends too early", (1, 25)),
        ('{"etats": [0],, }', "unexpected ','", (1, 15)),
        ('{"a": 1, "a": 2}', 'key "a" appears twice', (1, 10)),
        ("[" * 10_000 + "]" * 10_000, f"nested deeper than {MAX_DEPTH}", (1, MAX_DEPTH + 1)),
        (
            json.dumps(GOOD).replace('"init": 0, ', '\n "init": 0.5, '),
            "init must be an integer, got the number 0.5",
            (2, 10),
        ),
    ],
)
def test_malformed_json_is_located(tmp_path, text, words, where):
    err = error_of(tmp_path, text)
    assert words in err.message and (err.span.line, err.span.column) == where, (
        err.message,
        err.span.line,
        err.span.column,
    )


@pytest.mark.parametrize("ids", [(0, 1), (5,), (1, 3), (-2, 7)])
def test_any_player_ids(tmp_path, ids):
    first, second = ids[0], ids[-1]
    doc = changed(controles={"0": first, "1": second, "2": first})
    m = load_model(write(tmp_path, doc))
    assert m.players == tuple(sorted(set(ids)))
    results = {}
    for eng in all_engines(m.game):
        ev = atl.Evaluator(eng, m.definitions)
        results[eng.kind] = [ev(q.formula).tuples() for q in m.queries]
    # state 0 (first's) moves to 2 (its objective) at once; from 1 (second's) the only move is to 0
    assert results["explicit"][0] == [(0,), (1,), (2,)], results
    assert all(r == results["explicit"] for r in results.values()), results


def test_the_td_example_still_loads():
    from pathlib import Path

    m = load_model(Path(__file__).parent.parent / "models" / "td_example.arena.json")
    assert m.players == (1, 2) and m.game.space.size == 7


def test_thousands_of_alternating_states(tmp_path):
    n = 2000
    doc = {
        "etats": list(range(n)),
        "init": 0,
        "controles": {str(i): 1 + i % 2 for i in range(n)},
        "transitions": {str(i): [(i + 1) % n, (3 * i + 1) % n] for i in range(n)},
        "objectifs1": [n - 1],
        "objectifs2": [n // 2],
    }
    m = load_model(write(tmp_path, doc))
    counts = {
        eng.kind: [len(atl.Evaluator(eng, m.definitions)(q.formula)) for q in m.queries]
        for eng in all_engines(m.game)
    }
    assert len(set(map(tuple, counts.values()))) == 1, counts


def test_read_arena_keeps_what_the_file_says():
    a = read_arena(json.dumps(GOOD), "g.json")
    assert a.controller == (1, 2, 1) and a.edges == ((0, 1), (0, 2), (1, 0), (2, 2))
    assert a.initial == 0 and a.objectives == ((2,), (1,)) and a.name == "g"


def test_errors_are_symbolic_errors_not_python_ones(tmp_path):
    for text in ["", "   ", "{", "}", '"x"', "null", "1e999", '{"etats": [0], "init": "0"}']:
        with pytest.raises(SymbolicError):
            load_model(write(tmp_path, text))


def test_arena_is_read_into_the_model_ast_not_into_model_text():
    """The arena is a second front end: its AST checks into the same IR as the model
    text it used to be written as, and no model text is kept (so no parameters)."""
    from symbolic.errors import FileError
    from symbolic.model import parse_arena, parse_model

    doc = {
        "etats": [0, 1, 2],
        "init": 0,
        "controles": {"0": 1, "1": 2, "2": 1},
        "transitions": {"0": [1, 2], "1": [0]},
        "objectifs1": [2],
        "objectifs2": [],
        "objectifs3": [1],
        "name": "tri",
    }
    m = parse_arena(json.dumps(doc), "tri.json")
    text = (
        'game "tri"\ndescription """"""\nplayers 1, 2\nvar s : 0..2\n'
        "turn if s in {0, 2} then 1 else 2\nconst E = {(0, 1), (0, 2), (1, 0)}\n"
        "move edge(e in E) when s = e[0] then s' = e[1]\nset initial = s = 0\n"
        "set Obj1 = s in {2}\nset Obj2 = false\nset Obj3 = s in {1}\n"
        "query <<1>> <> Obj1, initial and <<1>> <> Obj1\n"
        "query <<2>> <> Obj2, initial and <<2>> <> Obj2\n"
    )
    written = parse_model(text, "tri.game")
    assert m.game == written.game, (m.game, written.game)
    assert [q.text for q in m.queries] == [q.text for q in written.queries]
    assert [q.formula for q in m.queries] == [q.formula for q in written.queries]
    assert sorted(m.definitions) == sorted(written.definitions)
    assert m.text == ""
    with pytest.raises(FileError, match="no parameters"):
        m.with_params({"x": 1})
    with pytest.raises(SymbolicError, match="x"):
        parse_arena(json.dumps(doc), "tri.json", {"x": 1})


def test_english_keys_read_the_same_arena_and_errors_name_them():
    english = dict(
        zip(["states", "initial", "controller", "edges", "objective1", "objective2"], GOOD.values())
    )
    assert read_arena(json.dumps(english), "g.json") == read_arena(json.dumps(GOOD), "g.json")
    with pytest.raises(ModelError, match=r'edges\["0"\]\[1\]: 7 is not a state'):
        read_arena(json.dumps(english | {"edges": {"0": [1, 7]}}), "g.json")
    with pytest.raises(ModelError, match=r"initial must be an integer"):
        read_arena(json.dumps(english | {"initial": "0"}), "g.json")
    with pytest.raises(ModelError, match=r"states without a controller in controller"):
        read_arena(json.dumps(english | {"controller": {"0": 1}}), "g.json")
    with pytest.raises(ModelError, match="expected etats or states, init or initial"):
        read_arena(json.dumps(GOOD | {"start": 0}), "g.json")


def _located_reading(text: str):
    """What the located parser alone makes of ``text``: the Arena, or the error's
    message and place."""
    from symbolic.lang.arena import _Reader, _validated

    r = _Reader(text, "a.json")
    try:
        return _validated(r, r.parse())
    except ModelError as err:
        return ("error", str(err))


def _reading(text: str):
    try:
        return read_arena(text, "a.json")
    except ModelError as err:
        return ("error", str(err))


#: pieces the hostile texts are made of: JSON's and what is not JSON
_PIECES = [
    "NaN", "Infinity", "-Infinity", "1.0", "1e999", "-0", "true", "null", '"0"', "[]", "{}",
    '"init": 1', '"x": 2', ",", ":", "[", "]", "{", "}", "\ufeff", "'", "\\u0000", " ",
    "9" * 25,
]  # fmt: skip


@st.composite
def arena_texts(draw):
    """An arena's JSON, maybe with a key twice, then cut, spliced or left alone."""
    n = draw(st.integers(1, 5))
    # mostly states, sometimes a value of another JSON kind where a state belongs
    odd = st.sampled_from([True, False, None, 1.5, -0.0, "0", [], {}, 10**20])
    states = st.one_of(st.integers(-1, n), st.integers(-1, n), odd)
    doc = {
        "etats": list(range(n)),
        "init": draw(states),
        "controles": {str(i): draw(st.integers(1, 3)) for i in range(n)},
        "transitions": {
            str(i): draw(st.lists(states, max_size=3)) for i in range(n) if draw(st.booleans())
        },
        "objectifs1": draw(st.lists(states, max_size=2)),
        "objectifs2": draw(st.lists(states, max_size=2)),
    }
    text = json.dumps(doc, indent=draw(st.sampled_from([None, 1])))
    how = draw(st.sampled_from(["as is", "twice", "cut", "splice"]))
    if how == "twice":  # a key twice: json.loads keeps the last, JSON's objects may not
        text = text.replace('"init"', '"init": 0, "init"', 1)
    elif how == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "splice":
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.sampled_from(_PIECES)) + text[at + cut :]
    return text


@settings(max_examples=150, deadline=None)
@given(arena_texts())
def test_the_fast_reading_is_the_located_one(text):
    # read_arena raises AssertionError when the located parser accepts what the fast
    # reading refused; an error always comes from the located parser
    assert _reading(text) == _located_reading(text), text
