"""The model language's concurrent games: concurrent, action, update, does(p, a).

Each error is a located SymbolicError (line and column of the offending text).
"""

from __future__ import annotations

import pytest

from symbolic.errors import ModelError, SymbolicError
from symbolic.ir import ConcurrentGame, Const
from symbolic.model import parse_model

HEAD = "players 1, 2\nvar x : 0..2\n"


def test_actions_and_updates_build_a_concurrent_game():
    m = parse_model(
        HEAD + "concurrent\naction players go(d in 0..1) when x < 2\n"
        "action 2 stop\nupdate when does(1, go(1)) then x' = x + 1\n"
    )
    g = m.game
    assert isinstance(g, ConcurrentGame)
    assert g.action_labels(1) == ("go(0)", "go(1)")
    assert g.action_labels(2) == ("go(0)", "go(1)", "stop")
    assert len(g.updates) == 1


@pytest.mark.parametrize(
    "text, message, where",
    [
        ("action 1 go\n", "declare 'concurrent' before it", (3, 1)),
        ("concurrent\nturn 1\naction players go\n", "has no 'turn'", (3, 1)),
        ("concurrent\naction 3 go\n", "3 is not a player", (4, 8)),
        (
            "concurrent\naction 1 go\naction 2 go\nupdate then x' = 1 and does(1, stop)\n",
            "player 1 has no action 'stop'",
            (6, 24),
        ),
        (
            "concurrent\naction players go\nupdate when does(1, go) then x' = 1\n"
            "set s = does(1, go)\n",
            "only in the updates",
            (6, 9),
        ),
        ("concurrent\naction 1 go\n", "player 2 has no action", (3, 1)),
        ("concurrent\naction players go\nupdate then x'' = 1\n", "", (5, 15)),
    ],
)
def test_errors_are_located(text, message, where):
    with pytest.raises(SymbolicError) as err:
        parse_model(HEAD + text, "<m>")
    assert message in err.value.message, err.value
    if where is not None:
        span = err.value.span
        assert span is not None and (span.line, span.column) == where, (str(err.value), span)


def test_an_action_before_the_players_is_a_located_error():
    text = "var x : 0..2\nconcurrent\naction 1 go\nplayers 1, 2\n"
    with pytest.raises(SymbolicError, match="before the players declaration") as err:
        parse_model(text, "<m>")
    assert (err.value.span.line, err.value.span.column) == (3, 8)


def test_concurrent_declared_twice():
    with pytest.raises(ModelError, match="declared twice"):
        parse_model(HEAD + "concurrent\nconcurrent\naction players go\n")


# issue 32: does(p, a(t)) with bound names, and actions of no player
ONE_A = HEAD + "concurrent\naction 1 a(t in 0..1)\naction 2 w\n"


@pytest.mark.parametrize(
    "text, message, where",
    [
        # t = 2 is outside a's domain: an error, as does(1, a(2)) is (it read as false)
        (
            "update then (forall t in 0..2: does(1, a(t)) implies x' = t)\n",
            "with t = 2: player 1 has no action 'a(2)' (the parameters of 'a': t in 0..1)",
            (6, 32),
        ),
        (
            "update then (forall t in 0..1: does(1, a(t + 1)) implies x' = t)\n",
            "with t = 1: player 1 has no action 'a(2)'",
            (6, 32),
        ),
        ("update when does(1, a(2)) then x' = 0\n", "player 1 has no action 'a(2)'", (6, 13)),
        # a player bound by a quantifier: the user's words, never the internal action@1
        (
            "update then (exists p in 1..2: does(p, a(1))) implies x' = 1\n",
            "with p = 2: player 2 has no action 'a' (players with one: 1)",
            (6, 32),
        ),
        (
            "action {} b\nupdate then x' = x\n",
            "an action of no player: expected a player id or a non-empty set of them",
            (6, 8),
        ),
    ],
)
def test_does_over_bound_names_is_checked(text, message, where):
    with pytest.raises(SymbolicError) as err:
        parse_model(ONE_A + text, "<m>")
    assert message in err.value.message and "action@" not in err.value.message, err.value
    span = err.value.span
    assert span is not None and (span.line, span.column) == where, (str(err.value), span)


@pytest.mark.parametrize("engine", ["explicit", "symbolic"])
def test_does_with_a_bound_player_means_some_player(engine):
    """``exists p in players: does(p, go)``: one disjunct per player (issue 32: it was
    refused with a message naming action@1)."""
    from symbolic import atl
    from symbolic.engines import make_engine

    m = parse_model(
        "players 1, 2\nvar x : 0..2\nconcurrent\naction players go\n"
        "action players stay\n"
        "update when (exists p in players: does(p, go)) then x' = 2\n"
        "query <<1>> X x == 2, <<2>> X x == 2, <<1, 2>> X x == 0\n"
    )
    E = make_engine(m.game, engine)
    ev = atl.Evaluator(E, m.definitions)
    got = [sorted(t[0] for t in ev(q.formula).tuples()) for q in m.queries]
    assert got == [[0, 1, 2], [0, 1, 2], [0]], got


def test_many_instances_of_one_action_read():
    """2 001 instances of one action, each named by does in a quantifier (issue 32: reading
    was quadratic in them; no time is asserted)."""
    n = 2000
    m = parse_model(
        f"players 1, 2\nvar x : 0..{n}\nconcurrent\n"
        f"action 1 pick(t in 0..{n}) when t >= x\naction 2 w\n"
        f"update then (forall t in 0..{n}: does(1, pick(t)) implies x' = t)\n"
    )
    assert len(m.game.action_labels(1)) == n + 1
    assert [m.game.does(1, f"pick({k})").right for k in (0, n)] == [Const(0), Const(n)]
