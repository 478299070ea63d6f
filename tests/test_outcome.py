"""One game, one outcome (issue 31): the declared outcome (symbolic.analysis.outcome)
and every way of asking who wins — values, values --by-layer, the model's forcing
formulas (check), play's evaluation, simulate's optimal and random players — give one
answer, position by position, on both engines, on the shipped models and on random
games with random outcomes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from symbolic.api import DeadEnds, reachable
from symbolic import atl, ir
from symbolic.analysis.layered import initial_set, layer_outcomes
from symbolic.api import graded_layers
from symbolic.analysis.outcome import Referee, rule_text
from symbolic.analysis.play import Planner, random_player, run_play, solver_player
from symbolic.analysis.values import two_player_values
from symbolic.errors import ModelError, QueryError
from symbolic.model import load_model, parse_model

from .conftest import build_engine
from .strategies import outcome_games

MODELS = Path(__file__).resolve().parents[1] / "symbolic" / "models"

#: the hypothesis settings of the tests over random games with random outcomes
RANDOM_OUTCOMES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

#: (model, parameters, the model's formula "p forces a win" with {p} for the player)
SHIPPED = [
    ("tictactoe.game", {}, "forces_win({p})"),
    ("connect4.game", {"w": 3, "h": 3, "a": 3}, "forces_win({p})"),
    ("chocolate.game", {"m": 4, "n": 3, "i": 1, "j": 2}, "wins({p})"),
    ("subtraction.game", {}, "wins({p})"),
    ("nim.game", {"n": 2, "K": 3}, None),
    ("chomp.game", {"R": 2, "C": 3}, None),
    ("dawson.game", {"n": 6}, None),
    ("kayles.game", {"n": 5}, None),
    ("hackendot.game", {"word": "(())()"}, None),
    ("subtraction_set.game", {"K": 6}, None),
    ("grundy_game.game", {"N": 7}, None),
    ("gdl/ticTacToe.kif", {}, None),
]
IDS = [f"{n}{p or ''}" for n, p, _ in SHIPPED]


def same_table(V, ref: dict, eng) -> None:
    """V (a Values) holds exactly the explicit table ``ref``: set by set, per value."""
    groups: dict = {}
    for pos, v in ref.items():
        groups.setdefault(v, []).append(pos)
    for v in set(groups) | set(V.by_value) | {None}:
        mine = V.draws if v is None else V.positions_of(v)
        theirs = eng.from_tuples(groups.get(v, []))
        assert mine == theirs, (v, (mine - theirs).first(), (theirs - mine).first())


@pytest.mark.parametrize("name,params,forcing", SHIPPED, ids=IDS)
@pytest.mark.parametrize("kind", ["explicit", "cudd", "oxidd"])
def test_every_command_gives_one_answer(name, params, forcing, kind):
    model = load_model(MODELS / name, params)
    eng = build_engine(model.game, kind)
    V = two_player_values(eng)
    referee = Referee(eng)
    ref = build_engine(model.game, "explicit").retrograde_values()
    players = eng.game.players
    # values == the explicit engine's own retrograde sweep, position by position
    same_table(V, ref, eng)
    # play's evaluation: the mover can force its win exactly where values says "win"
    planner = Planner(eng, referee)
    mover_of = {p: eng.turn_set({p}) for p in players}
    for p in players:
        won = V.positions_of_result("win") & mover_of[p]
        region = planner.region(frozenset({p})).result & mover_of[p]
        assert region == won, (p, (region - won).first(), (won - region).first())
    # the model's forcing formula (check): p forces a win where values says so, on the
    # positions reachable from the start (unreachable boards with two lines of three are
    # in both win sets: a draw for the outcome, a win for each formula)
    if forcing:
        within = reachable(eng, initial_set(eng, model.definitions)).result
        for p in players:
            forced = atl.evaluate(eng, model.formula(forcing.format(p=p)), model.definitions)
            forced, mine = forced & within, mover_of[p] & within
            assert forced & mine == V.positions_of_result("win") & mine, p
            assert forced - mine == (V.positions_of_result("loss") & within) - mine, p
    # values --by-layer: the per-layer win / draw / loss counts of the same results
    if "initial" in model.definitions:
        reach = graded_layers(eng, initial_set(eng, model.definitions))
        if reach is not None:
            table = layer_outcomes(model.definitions, eng, reach)
            for (k, w, d, lo), layer in zip(table.rows, reach.layers):
                got = tuple(
                    (layer & V.positions_of_result(r)).count() for r in ("win", "draw", "loss")
                )
                assert got == (w, d, lo), (k, got, (w, d, lo))


@pytest.mark.parametrize("name,params,forcing", SHIPPED, ids=IDS)
def test_plays_end_as_the_values_say(name, params, forcing):
    """The solver against itself ends as the value of the start says; against a random
    player it never ends worse for the solver than that value."""
    model = load_model(MODELS / name, params)
    eng = build_engine(model.game, "cudd")
    V, referee = two_player_values(eng), Referee(eng)
    planner = Planner(eng, referee)
    start = (initial_set(eng, model.definitions) - eng.deadlocks()).first()
    mover = referee.mover(start)
    best = {p: solver_player(planner, {p}) for p in eng.game.players}
    out = run_play(eng, referee, best, start, 200).outcome
    expected = V.result(start)
    got = "draw" if out.draw else ("win" if mover in out.winners else "loss")
    assert got == expected, (start, got, expected, out)
    rng = random.Random(7)
    for me in eng.game.players:
        players = {p: best[p] if p == me else random_player(rng) for p in eng.game.players}
        mine = (
            V.result(start)
            if me == mover
            else {"win": "loss", "loss": "win", "draw": "draw"}[V.result(start)]
        )
        for _ in range(5):
            out = run_play(eng, referee, players, start, 200).outcome
            if mine == "win":
                assert me in out.winners, out
            elif mine == "draw":
                assert out.draw or me in out.winners, out


@RANDOM_OUTCOMES
@given(outcome_games())
def test_random_outcomes_values_agree_on_every_engine(game):
    ref = build_engine(game, "explicit").retrograde_values()
    for kind in ("explicit", "cudd", "oxidd"):
        eng = build_engine(game, kind)
        V = two_player_values(eng)
        same_table(V, ref, eng)
        referee = Referee(eng)
        dead = eng.deadlocks()
        won = [referee.won(p) for p in game.players]
        assert not (won[0] & won[1]) and won[0] | won[1] | referee.drawn() == dead


@RANDOM_OUTCOMES
@given(outcome_games())
def test_disjoint_goals_give_disjoint_won_sets(game):
    """What layer_row's ``exclusive`` rests on: with G_1 ∩ G_2 = ∅ (dead ends), no
    position is in both U_p = <<p>> (not dead) U G_p, on random games and outcomes."""
    for kind in ("explicit", "oxidd"):
        eng = build_engine(game, kind)
        referee = Referee(eng)
        stay = eng.positions() - eng.deadlocks()
        g1, g2 = (referee.won(p) for p in game.players)
        assert (g1 & g2).is_empty(), (g1 & g2).tuples()[:5]
        u1, u2 = (
            eng.until([p], stay, referee.won(p), dead_ends=DeadEnds.VACUOUS).result
            for p in game.players
        )
        assert (u1 & u2).is_empty(), (kind, (u1 & u2).tuples()[:5])


# --------------------------------------------------------------------------- declarations

NIM_TEXT = """game "take 1 or 2"
players 1, 2
var j : 1..2
var k : 0..4
turn j
move take(d in {1, 2}) when k >= d then k' = k - d; j' = 3 - j
set initial = k = 4 and j = 1
"""


@pytest.mark.parametrize("kind", ["explicit", "cudd"])
def test_misere_play_turns_the_values_around(kind):
    normal = parse_model(NIM_TEXT)
    misere = parse_model(NIM_TEXT + "outcome misere\n")
    assert isinstance(normal.game.outcome, ir.NormalPlay)
    assert isinstance(misere.game.outcome, ir.MiserePlay)
    vn = two_player_values(build_engine(normal.game, kind))
    vm = two_player_values(build_engine(misere.game, kind))
    # normal play: k ≡ 0 (mod 3) loses; misère: k ≡ 1 (mod 3) loses
    assert [vn.result((1, k)) for k in range(5)] == ["loss", "win", "win", "loss", "win"]
    assert [vm.result((1, k)) for k in range(5)] == ["win", "loss", "win", "win", "loss"]
    ref = Referee(build_engine(misere.game, kind))
    out = ref.result((2, 0), last_mover=1)
    assert out.winners == (2,) and out.losers == (1,) and "misère" in out.reason


def test_outcome_declaration_errors_are_located():
    with pytest.raises(ModelError, match=r"8:9: .*unknown outcome 'nomal'.*normal, misere, win"):
        parse_model(NIM_TEXT + "outcome nomal\n")
    with pytest.raises(ModelError, match="outcome win' needs a set win"):
        parse_model(NIM_TEXT + "outcome win\n")
    with pytest.raises(ModelError, match="declared twice"):
        parse_model(NIM_TEXT + "outcome normal\noutcome misere\n")


def test_outcome_normal_overrides_win_sets():
    text = NIM_TEXT + "set win(p) = k = 0 and j = p\n"
    assert isinstance(parse_model(text).game.outcome, ir.WinSets)
    assert isinstance(parse_model(text + "outcome normal\n").game.outcome, ir.NormalPlay)


def test_nimbers_refuse_misere_play_naming_why():
    from symbolic.analysis.grundy import check_normal_play

    eng = build_engine(parse_model(NIM_TEXT + "outcome misere\n").game, "explicit")
    with pytest.raises(QueryError, match="normal play.*misère play"):
        check_normal_play(eng)


def test_rule_texts_name_every_rule():
    texts = {type(r): rule_text(r) for r in (ir.NormalPlay(), ir.MiserePlay())}
    assert "loses" in texts[ir.NormalPlay] and "wins" in texts[ir.MiserePlay]


@pytest.mark.slow
@pytest.mark.parametrize("w,h", [(4, 4), (5, 4)])
def test_connect_four_small_boards_are_draws_by_values(capsys, w, h):
    """The known results: 4 × 4 and 5 × 4 Connect Four are draws (values and --by-layer)."""
    import json
    from symbolic.cli import main

    assert main(["values", "connect4", "-p", f"w={w}", "-p", f"h={h}", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["outcome"] == "win(p) sets"
    assert [(i["value"], i["result"]) for i in doc["initial"]] == [(None, "draw")], doc
