"""``symbolic check --dead-ends`` and the line saying when dead ends decide an answer
(:mod:`symbolic.cli.dead_ends`): the rewriting is checked against a referee that adds a
self-loop at every dead end of random games, on both engines and through the layered
path; the note shows where the tic-tac-toe example says and nowhere on the shipped
normal-play models."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.analysis.layered import Answer, Layering
from symbolic.api import graded_layers
from symbolic.api import DeadEnds
from symbolic.cli.dead_ends import DEAD, _kept, _Plain, strategic, unchanged
from symbolic.engines import make_engine
from symbolic.ir import Const
from tests.strategies import coalitions, formulas, games, graded_games
from .conftest import run

EMPTY = "empty and <<2>> [] not win(1)"


def looped(E, f, dead_ends: DeadEnds) -> frozenset:
    """[[f]] on the game where every dead end has a move to itself, by enumeration
    (○⊤ and ○⊥ read as written, as the note reads them)."""
    pos = E.positions().tuples()
    succ = {c: set(E.successors(c).tuples()) for c in pos}
    dead = {c for c in pos if not succ[c]}

    turns: dict = {}

    def pre(J, Z, constant: bool):
        out = set()
        if J not in turns:
            turns[J] = set(E.turn_set(J).tuples())
        for c in pos:
            mine = c in turns[J]
            if c in dead and not constant:
                nxt = {c}
            elif c in dead:
                if not mine and dead_ends is DeadEnds.VACUOUS:
                    out.add(c)
                continue
            else:
                nxt = succ[c]
            if (mine and nxt & Z) or (not mine and nxt <= Z):
                out.add(c)
        return out

    def ev(g) -> set:
        if isinstance(g, (atl.Truth, atl.Turn, atl.Prop)):
            return set(atl.evaluate(E, g, dead_ends=dead_ends).tuples())
        if isinstance(g, atl.Reach):  # forward: a self-loop adds no position
            seen, todo = set(), list(ev(g.arg))
            while todo:
                c = todo.pop()
                if c not in seen:
                    seen.add(c)
                    todo += succ[c]
            return seen
        if isinstance(g, atl.Not):
            return set(pos) - ev(g.arg)
        if isinstance(g, atl.BoolOp):
            a, b = ev(g.left), ev(g.right)
            return {
                "and": a & b,
                "or": a | b,
                "implies": (set(pos) - a) | b,
                "iff": (a & b) | (set(pos) - (a | b)),
            }[g.op]
        J = atl.coalition_value(g.coalition, E.game.players, {})
        if isinstance(g, atl.Next):
            return pre(J, ev(g.arg), isinstance(g.arg, atl.Truth))
        left, right = ev(g.left), ev(g.right)
        if isinstance(g, atl.Until):
            x: set = set()
            while True:
                nx = right | (left & pre(J, x, False))
                if nx == x:
                    return x
                x = nx
        z = set(pos)
        while True:
            nz = right & (left | pre(J, z, False))
            if nz == z:
                return z
            z = nz

    return frozenset(ev(f))


def _kept_against_the_self_loops(data):
    game = data.draw(games())
    sub = formulas(game, depth=1)
    J = coalitions(game.players)
    f = data.draw(
        st.one_of(
            st.builds(atl.Next, J, sub),
            st.builds(atl.Until, J, sub, sub),
            st.builds(atl.Eventually, J, sub),
            st.builds(atl.Release, J, sub, sub),
            formulas(game, depth=2),
        )
    )
    dead_ends = data.draw(st.sampled_from([DeadEnds.VACUOUS, DeadEnds.VACUOUS, DeadEnds.STRICT]))
    want = None
    for kind in ("explicit", "symbolic"):
        E = make_engine(game, kind)
        assume(E.positions().count() <= 300 and not E.deadlocks().is_empty())
        got = frozenset(_Plain(E, {}, {DEAD: E.deadlocks()}, dead_ends)(f).tuples())
        want = want if want is not None else looped(E, f, dead_ends)
        assert got == want, (kind, sorted(got ^ want)[:3])
        if unchanged(SimpleNamespace(definitions={}), f, E, E.deadlocks(), dead_ends):
            plain = frozenset(atl.evaluate(E, f, dead_ends=dead_ends).tuples())
            assert plain == got, ("unchanged, yet", kind, sorted(plain ^ got)[:3])


_HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much]


@settings(max_examples=15, deadline=None, suppress_health_check=_HEALTH)
@given(st.data())
def test_the_kept_reading_is_the_game_with_self_loops(data):
    _kept_against_the_self_loops(data)


@pytest.mark.fuzz
def test_fuzz_the_kept_reading_is_the_game_with_self_loops():
    n = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "10000"))

    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        nonlocal count
        _kept_against_the_self_loops(data)
        count += 1

    count = 0
    run()
    print(
        f"\nfuzz: {count} random games with dead ends, the kept reading == the game "
        f"with self-loops (explicit and symbolic)"
    )
    assert count >= min(n, 1)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_layered_kept_reading_is_the_plain_one_on_the_anchor(data):
    game, start = data.draw(graded_games())
    phi = data.draw(formulas(game, depth=2))
    anchor = atl.Prop(start)
    f = atl.BoolOp("and", anchor, phi)
    E = make_engine(game, data.draw(st.sampled_from(["explicit", "symbolic"])))
    if graded_layers(E, atl.evaluate(E, anchor)) is None:
        return
    model = SimpleNamespace(definitions={}, game=game)
    dead = E.deadlocks()
    plain = _kept(model, f, E, Answer(E.empty()), dead, DeadEnds.VACUOUS)
    how = Layering("anchored", "S", 0)
    layered = _kept(model, f, E, Answer(E.empty(), how), dead, DeadEnds.VACUOUS)
    assert plain == layered, sorted(set(plain.tuples()) ^ set(layered.tuples()))[:3]


def test_the_normal_play_idiom_is_seen_unchanged_without_a_fixpoint():
    from symbolic.model import load_model

    for name, text, same in [
        ("nim", "wins(1)", True),
        ("nim", "mover_wins", True),
        ("ens2005", "F({1, 2})", True),
        ("ens2005", "Traître_1", False),
        ("tictactoe", "<<2>> [] not win(1)", False),
        ("tictactoe", "<<1>> <> win(1)", False),
        ("tictactoe", "<<2>> (not win(1)) U over", True),
    ]:
        m = load_model(name)
        E = make_engine(m.game, "explicit")
        f = m.formula(text)
        assert unchanged(m, f, E, E.deadlocks(), DeadEnds.VACUOUS) is same, (name, text)
        if same:  # then the kept reading is indeed the answer
            assert _Plain(E, m.definitions, {DEAD: E.deadlocks()})(f) == atl.evaluate(
                E, f, m.definitions
            ), (name, text)


def test_strategic_looks_through_named_formulas_and_skips_constant_next():
    from symbolic.model import load_model

    m = load_model("nim")
    assert strategic(m.formula("wins(1)"), m.definitions)
    assert not strategic(m.formula("<<1>> X false and initial"), m.definitions)
    assert strategic(m.formula("<<1>> X initial"), m.definitions)
    assert not strategic(atl.Prop(Const(True)), {})


def test_tictactoe_safety_decided_by_the_full_board(capsys):
    status, out, err = run(capsys, "check", "tictactoe", "--query", EMPTY)
    assert status == 0, err
    lines = out.splitlines()
    at = lines.index(EMPTY)
    assert lines[at + 1 : at + 3] == [
        "  count: 0",
        "  note: dead ends decide this answer at 1 position(s), e.g. c[1]=0, c[2]=0, c[3]=0, "
        "c[4]=0, c[5]=0, c[6]=0, c[7]=0, c[8]=0, c[9]=0: out of the answer; in if a player "
        "without a move kept its position",
    ], lines
    for layered in ("off", "on"):
        _, again, _ = run(capsys, "check", "tictactoe", "--query", EMPTY, "--layered", layered)
        assert "note: dead ends decide this answer at 1 position(s)" in again, (layered, again)
    status, out, _ = run(capsys, "check", "tictactoe", "--query", EMPTY, "--json")
    doc = json.loads(out)["results"][0]
    assert doc["count"] == 0 and doc["dead_ends_decide"].startswith("note: dead ends decide"), doc


def test_a_draw_counted_as_a_win_is_noted_and_the_model_s_own_queries_are_not(capsys):
    _, out, _ = run(capsys, "check", "tictactoe", "--query", "empty and <<1>> <> win(1)")
    assert "  count: 1\n  note: dead ends decide this answer at 1 position(s)" in out, out
    assert "in the answer; out if a player without a move kept its position" in out, out
    for model in ("tictactoe", "nim", "ens2005", "td_example", "pennies"):
        status, out, _ = run(capsys, "check", model)
        assert status == 0 and "note: dead ends" not in out, (model, out)


def test_check_takes_the_dead_end_convention(capsys):
    counts = {}
    for d in ("vacuous", "strict"):
        status, out, err = run(
            capsys, "check", "ens2005", "--query", "<<1>> X false", "--dead-ends", d, "--json"
        )
        assert status == 0, err
        counts[d] = json.loads(out)["results"][0]["count"]
    # ⟨⟨1⟩⟩○⊥ holds exactly where an opponent of 1 is stuck (vacuous), nowhere (strict)
    from symbolic.model import load_model

    m = load_model("ens2005")
    E = make_engine(m.game, "explicit")
    stuck = E.deadlocks() - E.turn_set({1})
    assert counts == {"vacuous": stuck.count(), "strict": 0}, counts
    status, _, err = run(
        capsys,
        "check",
        "ens2005",
        "--dead-ends",
        "strict",
        "--query",
        "<<1>> <> false",
        "--engine",
        "both",
    )
    assert status == 0, err
