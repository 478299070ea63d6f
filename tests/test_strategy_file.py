"""The strategy files of ``symbolic execute`` (symbolic/cli/strategy_file.py): the located
JSON reader agrees with :func:`json.loads` on every document it accepts, and every error
names FILE:LINE:COL (issue 23)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.cli.strategy_file import MAX_DEPTH, Node, parse_json, table_of
from symbolic.errors import QueryError
from symbolic.model import load_model

from .fuzz_inputs import MODELS

_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_JSON = st.recursive(
    _LEAVES,
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids, max_size=4)
    ),
    max_leaves=20,
)


def plain(node: Node):
    """The Python value of a located tree (objects: the last key wins, as json.loads)."""
    if node.kind == "array":
        return [plain(n) for n in node.value]
    if node.kind == "object":
        return {k.value: plain(v) for k, v in node.items}
    return node.value


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_JSON, st.sampled_from([None, 1, 2]))
def test_the_located_reader_agrees_with_json_loads(doc, indent):
    text = json.dumps(doc, indent=indent)
    assert plain(parse_json(text, "d.json")) == json.loads(text), text


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet='{}[]",:0123456789-.eEtrufalsn \n\\', max_size=30))
def test_text_json_refuses_is_refused_in_place(text):
    try:
        json.loads(text)
        accepted = True
    except ValueError:
        accepted = False
    try:
        parse_json(text, "d.json")
    except QueryError as err:
        assert not accepted, (text, err)
        assert err.span is not None and err.span.file == "d.json", (text, err)
    else:
        assert accepted, text


def test_nesting_is_bounded_and_located():
    with pytest.raises(QueryError) as info:
        parse_json("\n  " + "[" * 100_000 + "]" * 100_000, "d.json")
    assert info.value.span.line == 2 and info.value.span.column == 3 + MAX_DEPTH, info.value
    assert "nests deeper" in str(info.value)


ARENA = load_model(MODELS / "td_example.arena.json").game.space
NIM = load_model(MODELS / "nim.game").game.space


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ('{"0": true}', 1, 7, "expected an integer, got true"),
        ('{"0": 1,\n "0": 4}', 2, 2, "already has a move (line 1, column 2)"),
        ('{"0": "\u0661"}', 1, 7, "expected LABEL=VALUE"),
        ('{"0": ' + "1" * 5000 + "}", 1, 7, "5000 digits"),
        ('{"moves": [1]}', 1, 12, '{"from": POSITION, "to": POSITION}'),
        ('{"0": {"s": 1, "t": 2}}', 1, 16, "unknown slot 't'"),
        ('{"0": 1.5}', 1, 7, "got 1.5"),
        ("[]", 1, 1, "expected a JSON object"),
    ],
)
def test_errors_about_an_arena_strategy_are_located(text, line, column, words):
    with pytest.raises(QueryError) as info:
        table_of(text, "s.json", ARENA)
    err = info.value
    assert (err.span.file, err.span.line, err.span.column) == ("s.json", line, column), str(err)
    assert words in str(err), str(err)


def test_the_forms_of_a_strategy_file():
    assert table_of('{"0": 1, "2": "3"}', "s.json", ARENA) == {(0,): (1,), (2,): (3,)}
    doc = {
        "moves": [
            {
                "from": {"j": 1, "k[1]": 1, "k[2]": 0, "k[3]": 0},
                "to": {"j": 2, "k[1]": 0, "k[2]": 0, "k[3]": 0},
            }
        ]
    }
    assert table_of(json.dumps(doc), "s.json", NIM) == {(1, 1, 0, 0): (2, 0, 0, 0)}
    assert table_of(
        '{"j=1, k[1]=1, k[2]=0, k[3]=0": "j=2, k[1]=0, k[2]=0, k[3]=0"}', "s.json", NIM
    ) == {(1, 1, 0, 0): (2, 0, 0, 0)}
