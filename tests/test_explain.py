"""Why answers (symbolic.analysis.explain, ``check --why``): every explanation is replayed
on the explicit engine, which never saw the strategy: each move is legal, the movers
are the game's, and the play ends as claimed (the target reached, a dead end the
strategic side wins, or a cycle inside the safe set), on random games and formulas
over every engine, and on shipped models."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dataclasses

from symbolic import atl, explain, ir, load_model
from symbolic.seeds.games import arena
from symbolic.analysis.explain import replay as explain_replay
from symbolic.api import DeadEnds
from symbolic.errors import QueryError, SymbolicError
from symbolic.printing import formula_text

from .conftest import ENGINE_KINDS, build_engine, run
from .strategies import coalitions, formulas, games

COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def turn_of(ref, c) -> int:
    return next(p for p in ref.game.players if c in ref.turn_set({p}))


def replay(ref, e, op: atl.Formula, env_sets, J: frozenset, conv: DeadEnds, defs=None) -> None:
    """Assert that the explanation ``e`` of the until, release or next ``op`` (its
    coalition ``J``, its operands' sets ``env_sets`` on the explicit engine ``ref``)
    is a legal play of the game that ends as it claims."""
    inside = e.position in atl.evaluate(ref, op, defs, dead_ends=conv)
    assert e.inside == inside
    assert e.play[0] == e.position
    others = frozenset(ref.game.players) - J
    assert e.coalition == (J if inside else others)
    dead = [ref.successors(c).is_empty() for c in e.play]
    for i, (c, d) in enumerate(zip(e.play, e.play[1:])):
        assert d in ref.successors(c), (c, d)  # a legal move
        assert e.movers[i] == turn_of(ref, c)
        assert e.by_strategy[i] == (turn_of(ref, c) in e.coalition)
    last = e.play[-1]
    assert e.movers[-1] == turn_of(ref, last)
    stuck_player = turn_of(ref, last)
    # a dead end ends the play for the side it favours: under VACUOUS the stuck
    # player's opponents, under STRICT J's opponents whoever is stuck
    j_loses_stuck = stuck_player in J or conv is DeadEnds.STRICT
    if e.ending == "stuck":
        assert dead[-1] and j_loses_stuck != inside
    if e.ending == "cycle":
        assert e.loop is not None and e.play[e.loop] == last and len(e.play) > 1
    else:
        assert e.loop is None
    assert e.ending != "limit"
    if isinstance(op, atl.Next):
        F = env_sets[0]
        assert len(e.play) == (1 if e.ending == "stuck" else 2)
        if e.ending == "goal":
            assert (last in F) == inside
        return
    left, right = env_sets
    body = e.play[:-1]
    if isinstance(op, atl.Until):
        if inside:  # σ until τ: the play stays in σ ∖ τ and ends in τ (or a won dead end)
            assert all(c in left and c not in right for c in body)
            assert e.ending in ("goal", "stuck")
            assert (last in right) == (e.ending == "goal")
            if e.ending == "stuck":
                assert last in left
        else:  # never τ; ends outside σ, at a dead end J loses, or loops
            assert all(c not in right for c in e.play)
            assert all(c in left for c in body)
            assert e.ending in ("goal", "stuck", "cycle")
            if e.ending == "goal":
                assert last not in left
    else:  # f R g
        if inside:  # g kept up to f ∧ g, or for ever (a cycle), or a won dead end
            assert all(c in right and c not in left for c in body)
            assert last in right
            assert e.ending in ("goal", "stuck", "cycle")
            if e.ending == "goal":
                assert last in left
        else:  # g breaks before f ∧ g, or a dead end J loses
            assert all(c in right and c not in left for c in body)
            assert e.ending in ("goal", "stuck")
            if e.ending == "goal":
                assert last not in right
            else:
                assert last in right and last not in left


OPERATORS = {
    "until": lambda J, a, b: atl.Until(J, a, b),
    "release": lambda J, a, b: atl.Release(J, a, b),
    "eventually": lambda J, a, b: atl.Eventually(J, b),
    "always": lambda J, a, b: atl.Always(J, b),
    "next": lambda J, a, b: atl.Next(J, b),
}


@settings(max_examples=40, **COMMON)
@given(st.data())
def test_random_explanations_replay_on_the_explicit_engine(data):
    game = data.draw(games(), label="game")
    Jc = data.draw(coalitions(game.players), label="J")
    a = data.draw(formulas(game, depth=1), label="left")
    b = data.draw(formulas(game, depth=1), label="right")
    op = OPERATORS[data.draw(st.sampled_from(sorted(OPERATORS)), label="operator")](Jc, a, b)
    negate = data.draw(st.booleans(), label="negated")
    conv = data.draw(st.sampled_from(list(DeadEnds)), label="dead ends")
    kind = data.draw(st.sampled_from(ENGINE_KINDS), label="engine")
    ref = build_engine(game, "explicit")
    eng = ref if kind == "explicit" else build_engine(game, kind)
    J = atl.coalition_value(Jc, game.players, {})
    parts = (op.arg,) if isinstance(op, atl.Next) else (op.left, op.right)
    sets = [atl.evaluate(ref, p, dead_ends=conv) for p in parts]
    whole = atl.evaluate(ref, atl.Not(op) if negate else op, dead_ends=conv)
    for c in ref.positions().tuples()[:25]:
        e = explain(eng, atl.Not(op) if negate else op, c, dead_ends=conv)
        assert e.holds == (c in whole)
        assert e.holds == (e.inside != negate)
        replay(ref, e, op, sets, J, conv)
        assert explain_replay(ref, e, dead_ends=conv) == []  # the library's own replay agrees
        # the formula, a header, then one line per position
        assert str(e).splitlines()[0] == "why, for " + formula_text(atl.Not(op) if negate else op)
        assert str(e).count("\n") == len(e.play) + 1


def test_subtraction_explanations_are_as_long_as_the_ranks(engine_kind):
    """Subtraction with K = 9: player 1 to move wins when 4 does not divide k, in
    the fewest moves against the longest defence; else player 2 refutes."""
    m = load_model("subtraction", {"K": 9})
    eng = build_engine(m.game, engine_kind)
    f = m.formula("wins(1)")
    won = explain(eng, f, (1, 9), m.definitions)
    assert won.holds and won.coalition == {1} and won.ending == "goal"
    # 9 -> 8 (player 1), 8 -> 5 (longest: take 3), 5 -> 4, 4 -> 1, 1 -> 0: 2 stuck
    assert won.play == ((1, 9), (2, 8), (1, 5), (2, 4), (1, 1), (2, 0))
    assert won.by_strategy == (True, False, True, False, True)
    lost = explain(eng, f, (1, 8), m.definitions)
    assert not lost.holds and lost.coalition == {2} and lost.ending == "stuck"
    assert lost.play[-1] == (1, 0) and lost.movers[-1] == 1
    text = lost.lines(lambda c: f"j={c[0]}, k={c[1]}")
    assert text[0] == "does not hold at j=1, k=8: {2} refutes it with its strategy, 4 moves:"
    assert text[-1].endswith("player 1 is to move and stuck: refuted")


def test_tictactoe_safety_ends_at_a_dead_end_of_x():
    """In tic-tac-toe, O (player 1) keeps X from winning from the empty board
    (⟨⟨{1}⟩⟩□ not win(2)); the game has no cycle, so the play ends where X is stuck
    (a won dead end under VACUOUS), every position without a line of X."""
    m = load_model("tictactoe")
    eng = build_engine(m.game, "explicit")
    f = m.formula("<<{1}>> [] not win(2)")
    e = explain(eng, f, (0,) * 9, m.definitions)
    assert e.holds and e.ending == "stuck" and e.movers[-1] == 2
    assert e.play[-1].count(0) <= 4  # at least five marks: somebody won or the board is full
    f_parts = [
        atl.evaluate(eng, p, m.definitions) for p in (atl.Truth(False), m.formula("not win(2)"))
    ]
    replay(eng, e, f, f_parts, frozenset({1}), DeadEnds.VACUOUS, m.definitions)


def test_arena_endings(engine_kind):
    """The endings random games seldom draw: an until won at an opponent's dead end
    (VACUOUS), and a release met (f ∧ g reached)."""
    game = arena({0: 1, 1: 2, 2: 1, 3: 2}, [(0, 1), (2, 3), (3, 3)])
    eng, ref = build_engine(game, engine_kind), build_engine(game, "explicit")
    s = ir.Var("s")
    one = atl.CoalitionLit((1,))
    cases = [
        (atl.Eventually(one, atl.Prop(s.eq(3))), (0,), "stuck", ((0,), (1,))),
        (atl.Release(one, atl.Prop(s.eq(3)), atl.Prop(s.ne(1))), (2,), "goal", ((2,), (3,))),
    ]
    for f, c, ending, play in cases:
        e = explain(eng, f, c)
        assert (e.holds, e.ending, e.play) == (True, ending, play)
        sets = [atl.evaluate(ref, p) for p in (f.left, f.right)]
        replay(ref, e, f, sets, frozenset({1}), DeadEnds.VACUOUS)


def test_gdl_explanations_replay():
    """A GDL game's queries explained from its initial state replay on the explicit
    engine (nim1: player 1 wins, player 2 is refuted)."""
    m = load_model("gdl/nim1")
    eng = build_engine(m.game, "explicit")
    init = atl.evaluate(eng, m.formula("initial"), m.definitions).first()
    got = [explain(eng, q.formula, init, m.definitions) for q in m.queries]
    assert [e.holds for e in got] == [True, False]
    for e in got:
        assert e.ending == "goal" and explain_replay(eng, e, m.definitions) == []


def test_the_library_replay_finds_faults():
    """symbolic.analysis.explain.replay (what ``check --why --engine both`` runs) says
    what is wrong with a tampered play: an illegal move, a mover without the turn, an
    end that settles nothing, a false claim of a dead end or of a cycle."""
    m = load_model("subtraction", {"K": 9})
    eng = build_engine(m.game, "explicit")
    e = explain(eng, m.formula("wins(1)"), (1, 9), m.definitions)
    assert explain_replay(eng, e, m.definitions) == []
    bad = [
        dataclasses.replace(e, play=((1, 9), (2, 4)) + e.play[2:]),
        dataclasses.replace(e, movers=(2,) + e.movers[1:]),
        dataclasses.replace(e, play=e.play[:-1], movers=e.movers[:-1]),
        dataclasses.replace(e, ending="stuck", play=e.play[:-1], movers=e.movers[:-1]),
        dataclasses.replace(e, ending="cycle", loop=0),
        dataclasses.replace(e, holds=False),
        dataclasses.replace(e, choices=(1,) + e.choices[1:]),
        dataclasses.replace(
            e, by_strategy=(False,) + e.by_strategy[1:]
        ),  # not all moves from 9 win
    ]
    for b in bad:
        assert explain_replay(eng, b, m.definitions), b


def test_refusals():
    m = load_model("subtraction", {"K": 4})
    eng = build_engine(m.game, "explicit")
    with pytest.raises(QueryError, match="until, release or next"):
        explain(eng, m.formula("initial and wins(1)"), (1, 4), m.definitions)
    with pytest.raises(SymbolicError):
        explain(eng, m.formula("wins(1)"), (1, 7), m.definitions)  # k out of range
    pennies = load_model("pennies")
    peng = build_engine(pennies.game, "explicit")
    with pytest.raises(QueryError, match="concurrent"):
        explain(peng, pennies.formula("<<{1}>> X true"), peng.positions().first())


@pytest.mark.parametrize(
    "bad",
    [
        {"engine": "not an engine"},
        {"formula": "wins(1)"},
        {"position": (1, 2, 3)},
        {"position": "j=1"},
        {"max_moves": 0},
        {"dead_ends": "vacuous"},
        {"definitions": [1]},
    ],
    ids=lambda d: next(iter(d)),
)
def test_bad_arguments_are_symbolic_errors(bad):
    """Every wrong argument of explain is a SymbolicError saying what is wrong."""
    m = load_model("subtraction", {"K": 4})
    args = {
        "engine": build_engine(m.game, "explicit"),
        "formula": m.formula("wins(1)"),
        "position": (1, 4),
        "definitions": m.definitions,
        "dead_ends": DeadEnds.VACUOUS,
        "max_moves": 10,
    }
    explain(**args)  # the good call answers
    with pytest.raises(SymbolicError):
        explain(**(args | bad))
    with pytest.raises(SymbolicError):
        explain_replay(args["engine"], "not an explanation")


def test_check_why(capsys):
    status, out, err = run(
        capsys, "check", "subtraction", "-p", "K=6", "--query", "wins(1)", "--why", "j=1, k=6"
    )
    assert status == 0, err
    # positions through the model's display, moves by name (subtraction: take(n))
    assert out.splitlines()[1:] == [
        "holds at |||||| (6 left), player 1 to move: {1} wins with its strategy, 3 moves:",
        "    0. |||||| (6 left), player 1 to move    player 1 plays take(2) (strategy)",
        "    1. |||| (4 left), player 2 to move    player 2 plays take(3) (1 of 3 moves; "
        "the strategy answers each)",
        "    2. | (1 left), player 1 to move    player 1 plays take(1) (strategy)",
        "    3.  (0 left), player 2 to move    the target holds: won",
    ], out
    status, out, err = run(
        capsys, "check", "subtraction", "--query", "wins(1)", "--why", "j=1, k=100"
    )
    assert status != 0 and "k = 100 outside 0..20" in err
    status, out, err = run(
        capsys, "check", "subtraction", "--query", "not wins(2)", "--why", "j=1, k=3", "--json"
    )
    doc = json.loads(out)
    assert (doc["holds"], doc["inside"], doc["coalition"], doc["ending"]) == (
        True,
        False,
        [1],
        "stuck",
    )
    assert [p["position"] for p in doc["play"]] == [{"j": 1, "k": 3}, {"j": 2, "k": 0}]
    assert [p["move"] for p in doc["play"]] == ["take(3)", None]  # named as the model does
    argv = ["check", "td_example.arena.json", "--query", "<<{1}>> <> Obj1", "--why", "s=0"]
    status, out, err = run(capsys, *argv, "--engine", "both")
    assert status == 0 and "back to position 2: the cycle repeats for ever" in out
    assert out.rstrip().endswith(
        "replayed on the explicit engine: every move legal, the ending as claimed"
    )
    status, out, err = run(capsys, "check", "pennies", "--why", "x=0")
    assert status != 0 and "concurrent" in err


def test_check_why_draws_a_board_below_each_step(capsys):
    argv = ["check", "tictactoe", "--query", "forces_win(1)", "--why", "c[1]=1, c[5]=2"]
    status, out, err = run(capsys, *argv, "--engine", "both")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("does not hold at the position of step 0: {2} refutes it")
    assert lines[2].startswith("    0. player 1 plays play(")
    assert lines[3:7] == [
        "       O . .    1 2 3",
        "       . X .    4 5 6",
        "       . . .    7 8 9",
        "       O to move",
    ], out
    assert "player 2 plays play(" in out and "(strategy)" in out
    assert lines[-1] == "replayed on the explicit engine: every move legal, the ending as claimed"
