"""The model language's concurrent games: concurrent, action, update, does(p, a).

Each error is a located SymbolicError (line and column of the offending text).
"""
from __future__ import annotations

import pytest

from symbolic.errors import ModelError, SymbolicError
from symbolic.ir import ConcurrentGame
from symbolic.model import parse_model

HEAD = "players 1, 2\nvar x : 0..2\n"


def test_actions_and_updates_build_a_concurrent_game():
    m = parse_model(HEAD + "concurrent\naction players go(d in 0..1) when x < 2\n"
                    "action 2 stop\nupdate when does(1, go(1)) then x' = x + 1\n")
    g = m.game
    assert isinstance(g, ConcurrentGame)
    assert g.action_labels(1) == ("go(0)", "go(1)")
    assert g.action_labels(2) == ("go(0)", "go(1)", "stop")
    assert len(g.updates) == 1


@pytest.mark.parametrize("text, message, where", [
    ("action 1 go\n", "declare 'concurrent' before it", (3, 1)),
    ("concurrent\nturn 1\naction players go\n", "has no 'turn'", (3, 1)),
    ("concurrent\naction 3 go\n", "3 is not a player", (4, 8)),
    ("concurrent\naction 1 go\naction 2 go\nupdate then x' = 1 and does(1, stop)\n",
     "player 1 has no action 'stop'", (6, 24)),
    ("concurrent\naction players go\nupdate when does(1, go) then x' = 1\n"
     "set s = does(1, go)\n", "only in the updates", (6, 9)),
    ("concurrent\naction 1 go\n", "player 2 has no action", (3, 1)),
    ("concurrent\naction players go\nupdate then x'' = 1\n", "", (5, 15)),
])
def test_errors_are_located(text, message, where):
    with pytest.raises(SymbolicError) as err:
        parse_model(HEAD + text, "<m>")
    assert message in err.value.message, err.value
    if where is not None:
        span = err.value.span
        assert span is not None and (span.line, span.column) == where, (str(err.value), span)


def test_concurrent_declared_twice():
    with pytest.raises(ModelError, match="declared twice"):
        parse_model(HEAD + "concurrent\nconcurrent\naction players go\n")
