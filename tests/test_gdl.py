"""GDL import (symbolic.gdl): KIF reading, grounding, the IR model, both engines, the command."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from symbolic import atl
from symbolic.cli import main
from symbolic.engines import make_engine
from symbolic.errors import FileError, LimitExceeded, ModelError
from symbolic.gdl.explicit import GdlEvaluator
from symbolic.gdl.kif import parse_kif
from symbolic.gdl.load import gdl_model, gdl_program
from symbolic.gdl.solve import dead_ends, forced_values
from symbolic.limits import Limits
from symbolic.model import load_model, parse_formula

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "symbolic" / "models" / "gdl"


@functools.cache
def model(name: str):
    return load_model(CORPUS / name if name.endswith(".kif") and "/" not in name else name)


def corners():
    return load_model(HERE / "gdl" / "corners.kif")


@functools.cache
def _engines(game):
    return make_engine(game, "symbolic"), make_engine(game, "explicit")


def both(m):
    """The symbolic and explicit engines of ``m`` (built once per game: the tests only read)."""
    return _engines(m.game)


def forced(values, coalition, role):
    hit = [f["value"] for f in values if f["coalition"] == coalition and f["role"] == role]
    assert len(hit) == 1, values
    return hit[0]


# ------------------------------------------------------------------ reading


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("(role a)\n(init (s 0)", (2, 1), "unclosed '('"),
        ("(role a))", (1, 9), "unmatched ')'"),
        ('(role "a")', (1, 7), "unexpected character '\"'"),
        ("(role a)\n(<= (p ?x) (q ?y))", (2, 1), "unsafe rule: variable ?x"),
        ("(role a)\n(<= (true (s 0)) (role a))", (2, 1), "'true' cannot be defined"),
        ("(role a)\n(<= (p ?x) (q ?x) (not (or (r ?x) (s ?x))))", (2, 24), "not supported"),
        ("(role a)\n(<= (p ?x) (q ?x) (distinct ?x))", (2, 19), "(distinct ...) takes 2"),
        ("(role a)\n(<= (p 1) (not (p 1)))", (2, 1), "not stratified"),
        ("(role a)\n(<= ((f) 1) (q 1))", (2, 5), "expected a rule head"),
    ],
)
def test_malformed_kif_is_a_located_error(text, where, message):
    with pytest.raises(ModelError) as err:
        gdl_model(text, "bad.kif")  # raises before any model is built
    e = err.value
    assert (e.span.file, e.span.line, e.span.column) == ("bad.kif",) + where, str(e)
    assert message in e.message, e.message
    assert str(e).startswith(f"bad.kif:{where[0]}:{where[1]}: error:"), str(e)


def test_kif_is_case_insensitive_and_skips_comments():
    forms = parse_kif("; comment\n(ROLE Xplayer) ; more\n(<= (P ?X) (Q ?x))")
    assert [str(f) for f in forms] == ["(role xplayer)", "(<= (p ?x) (q ?x))"]


def test_a_cli_error_on_a_bad_kif_file(tmp_path, capsys):
    bad = tmp_path / "bad.kif"
    bad.write_text("(role a)\n(init (s 0)\n")
    assert main(["gdl", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:2:1: error: unclosed '('"), err


# ------------------------------------------------------------------ grounding


def test_grounding_corner_cases():
    prog = gdl_program((HERE / "gdl" / "corners.kif").read_text(), "corners.kif")
    assert prog.roles == ("first", "second")
    # smaller is recursive through succ; (or (distinct n 0) (big m)) with big defined by
    # negation as failure allows take 0 only from counts 1 and 2
    assert prog.moves["first"] == ("noop", ("take", "0"), ("take", "1"), ("take", "2"))
    legal0 = prog.rules[("legal", ("first", ("take", "0")))]
    assert sorted(legal0) == sorted(
        [
            (("pos", ("true", (("control", "first"),))), ("pos", ("true", (("count", "1"),)))),
            (("pos", ("true", (("control", "first"),))), ("pos", ("true", (("count", "2"),)))),
        ]
    ), legal0
    ev = GdlEvaluator(prog)
    start = frozenset(prog.init)
    assert ev.legal(start) == {"first": [("take", "1"), ("take", "2")], "second": ["noop"]}


def test_corners_game_both_engines():
    m = corners()
    sym, exp = both(m)
    assert len(sym.positions()) == len(exp.positions()) == 6
    assert sym.positions().tuples() == exp.positions().tuples()
    for text in (
        "terminal",
        "goal(first, 100)",
        "turn({first})",
        "control(second)",
        "<<first>> (not terminal) U (terminal and goal(first, 100))",
        "<<second>> <> goal(second, 100)",
    ):
        f = parse_formula(text, m)
        a, b = atl.evaluate(sym, f, m.definitions), atl.evaluate(exp, f, m.definitions)
        assert a.tuples() == b.tuples(), (text, a.tuples(), b.tuples())
    values = forced_values(m, sym)
    assert values == forced_values(m, exp)
    assert forced(values, ["first"], "first") == 100
    assert forced(values, ["second"], "second") == 0


def test_a_simultaneous_game_is_refused_by_the_turn_based_reading():
    m = load_model(HERE / "gdl" / "simultaneous.kif")
    for kind in ("symbolic", "explicit"):
        with pytest.raises(ModelError) as err:
            e = make_engine(m.game, kind, concurrent=False)
            e.positions().count()
        msg = err.value.message
        assert "not a turn-based game" in msg and "(a, b)" in msg, msg
        assert "state {(s 0)}" in msg and "a: heads, tails" in msg, msg


# ------------------------------------------------------------------ the shipped files


def test_tictactoe_reachable_and_nobody_forces_a_win():
    m = model("ticTacToe.kif")
    sym, exp = both(m)
    assert len(sym.positions()) == 5478
    assert sym.positions().tuples() == exp.positions().tuples()
    values = forced_values(m, sym)
    assert values == forced_values(m, exp)
    assert forced(values, ["xplayer"], "xplayer") == 50
    assert forced(values, ["oplayer"], "oplayer") == 50
    assert forced(values, ["xplayer", "oplayer"], "xplayer") == 100


def test_tictactoe_sets_and_moves_agree_with_the_ground_rules():
    """The IR sets (terminal, goal, turns) and the IR moves agree with the
    explicit evaluation of the ground rules on every reachable state."""
    m = model("ticTacToe.kif")
    sym, exp = both(m)
    prog = m.game.program
    ev = GdlEvaluator(prog)
    terminal = atl.evaluate(sym, parse_formula("terminal", m), m.definitions)
    x_wins = atl.evaluate(sym, parse_formula("goal(xplayer, 100)", m), m.definitions)
    x_turn = sym.turn_set({1})
    assert exp.turn_set({1}).tuples() == x_turn.tuples()
    for pos in exp.positions().tuples()[::7]:
        state = frozenset(f for f, v in zip(prog.fluents, pos) if v)
        assert (pos in terminal) == ev.terminal(state), pos
        assert (pos in x_wins) == (100 in ev.goals(state, "xplayer")), pos
        assert (pos in x_turn) == (ev.nominal_mover(ev.legal(state)) == "xplayer"), pos
        assert sym.successors(pos).tuples() == exp.successors(pos).tuples(), pos


def test_nim_agrees_with_the_nim_sum():
    m = model("nim1.kif")
    sym, exp = both(m)
    assert sym.positions().tuples() == exp.positions().tuples()
    values = forced_values(m, sym)
    assert values == forced_values(m, exp)
    # heaps 1, 5, 4, 2: the nim-sum is 1 ^ 5 ^ 4 ^ 2 = 2 != 0, so the first player wins
    # (the player to move when every heap is empty gets 0: normal play)
    assert 1 ^ 5 ^ 4 ^ 2 != 0
    assert forced(values, ["player1"], "player1") == 100
    assert forced(values, ["player2"], "player2") == 0
    # and at every reachable non-terminal position: the mover wins iff the nim-sum is not 0
    prog = m.game.program
    terminal = atl.evaluate(sym, parse_formula("terminal", m), m.definitions)
    win = atl.evaluate(
        sym,
        parse_formula(
            "(turn({player1}) and <<player1>> (not terminal) U (terminal and goal(player1, 100))) or "
            "(turn({player2}) and <<player2>> (not terminal) U (terminal and goal(player2, 100)))",
            m,
        ),
        m.definitions,
    )
    for pos in (sym.positions() - terminal).tuples():
        heaps = {f[1]: int(f[2]) for f, v in zip(prog.fluents, pos) if v and f[0] == "heap"}
        nim_sum = 0
        for h in heaps.values():
            nim_sum ^= h
        assert (pos in win) == (nim_sum != 0), (heaps, pos in win)


def test_queries_name_roles(capsys):
    path = str(CORPUS / "ticTacToe.kif")
    assert (
        main(
            [
                "check",
                path,
                "--engine",
                "both",
                "--limit",
                "0",
                "--query",
                "initial and <<xplayer>> (not terminal) U "
                "(terminal and (goal(xplayer, 50) or goal(xplayer, 100)))",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "count: 1" in out and "symbolic and explicit agree" in out, out


def test_gdl_command_json(capsys):
    assert main(["gdl", str(CORPUS / "nim1.kif"), "--json", "--engine", "both"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["roles"] == ["player1", "player2"]
    assert doc["reachable"] == 344
    assert {"coalition": ["player1"], "role": "player1", "value": 100} in doc["forced"]
    assert len(doc["forced"]) == 3 * 2


def test_show_a_kif_model(capsys):
    assert main(["show", str(CORPUS / "ticTacToe.kif")]) == 0
    out = capsys.readouterr().out
    assert "positions: 5478" in out, out


@pytest.mark.gdl_slow
def test_chomp_first_player_wins():
    """Chomp on a rectangle larger than 1 x 1: the first player wins (strategy stealing)."""
    m = model("chomp.kif")
    sym, exp = both(m)
    assert len(sym.positions()) == 12868
    assert sym.positions().tuples() == exp.positions().tuples()
    values = forced_values(m, sym)
    assert values == forced_values(m, exp)
    assert forced(values, ["player1"], "player1") == 100
    assert forced(values, ["player2"], "player2") == 0


def test_the_ir_moves_agree_with_the_rule_bdds():
    """The IR moves and turn (compiled by the plain symbolic engine) give the
    same successors and turns as the BDDs built from the ground rules, on the reachable
    states."""
    from symbolic.bdd.engine import SymbolicGame

    for name in ("nim1.kif", "ticTacToe.kif"):
        m = model(name)
        sym, _ = both(m)
        plain = SymbolicGame(m.game)
        for p in m.players:  # the IR turn expression, too
            reach = plain.from_tuples(sym.positions().tuples())
            want = sym.turn_set({p}).tuples()
            assert (plain.turn_set({p}) & reach).tuples() == want, (name, p)
        for pos in sym.positions().tuples()[:: 11 if name == "nim1.kif" else 29]:
            a, b = plain.successors(pos).tuples(), sym.successors(pos).tuples()
            assert a == b, (name, pos, a, b)


@pytest.mark.gdl_slow
@pytest.mark.parametrize(
    "name, roles, fluents",
    [
        ("chomp.kif", ("player1", "player2"), 60),
        ("connectFour.kif", ("red", "black"), 98),
        ("3pttc.kif", ("red", "yellow", "blue"), 112),
    ],
)
def test_the_large_files_load(name, roles, fluents):
    m = model(name)
    prog = m.game.program
    assert prog.roles == roles and len(prog.fluents) == fluents, (prog.roles, len(prog.fluents))
    assert len(m.game.moves) == sum(len(v) for v in prog.moves.values())


def test_gdl_depth_counts_layers(capsys):
    """--depth N counts the states reachable in at most 0..N moves (tic-tac-toe: 9 moves)."""
    assert main(["gdl", str(CORPUS / "ticTacToe.kif"), "--depth", "12", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["layers"][:3] == [1, 1 + 9, 1 + 9 + 9 * 8], doc
    assert doc["layers"][-1] == 5478 and len(doc["layers"]) == 10 and doc["complete"], doc
    assert main(["gdl", str(CORPUS / "ticTacToe.kif"), "--depth", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["layers"] == [1, 10, 82] and not doc["complete"], doc


# ------------------------------------------------------------------ the model is built as objects


def test_the_model_is_built_without_text():
    """No model text is written: the names come from the IR model, and a user's query
    still goes through the formula parser, which resolves them."""
    m = model("ticTacToe.kif")
    assert m.text == "" and m.consts == {"xplayer": 1, "oplayer": 2}, (m.text[:50], m.consts)
    assert [s.label for s in m.space.slots][:3] == ["cell_1_1_b", "cell_1_1_o", "cell_1_1_x"]
    assert {
        "initial",
        "terminal",
        "goal",
        "reachable",
        "control",
        "mover_xplayer",
        "legal_xplayer_mark_1_1",
    } <= set(m.definitions), sorted(m.definitions)[:10]
    assert [q.text for q in m.queries] == [
        "<<xplayer>> (not terminal and not dead_end) U (terminal and goal(xplayer, 100))",
        "<<oplayer>> (not terminal and not dead_end) U (terminal and goal(oplayer, 100))",
    ]
    sym, exp = both(m)
    for q in m.queries:  # the built queries and the same text parsed agree
        parsed = parse_formula(q.text, m)
        a = atl.evaluate(sym, q.formula, m.definitions)
        b = atl.evaluate(exp, parsed, m.definitions)
        assert a.tuples() == b.tuples() and len(a) > 0, (q.text, len(a), len(b))
    with pytest.raises(FileError):
        m.with_params({"x": 1})


def test_an_unknown_name_in_a_query_is_located():
    with pytest.raises(Exception) as err:
        parse_formula("<<xplayr>> <> terminal", model("ticTacToe.kif"))
    assert "xplayr" in str(err.value) and "did you mean 'xplayer'" in str(err.value), err.value


# ------------------------------------------------------------------ forced moves, dead ends


def test_a_forced_move_need_not_be_called_noop():
    """forced.kif: the waiting role's forced move is 'wait'; at count 1 the mover has one
    legal move too (nobody has a choice: the mover is the first role whose single move is
    not noop, alice; see symbolic.gdl.turns)."""
    m = load_model(HERE / "gdl" / "forced.kif")
    sym, exp = both(m)
    assert sym.positions().tuples() == exp.positions().tuples()
    assert len(sym.positions()) == 8
    # fluents: control alice, control bob, count 0..4
    assert m.game.program.fluents[:3] == (("control", "alice"), ("control", "bob"), ("count", "0"))
    bob_at_3 = (0, 1, 0, 0, 0, 1, 0)
    alice_at_1 = (1, 0, 0, 1, 0, 0, 0)
    for eng in (sym, exp):
        assert bob_at_3 in eng.turn_set({2}), eng.kind
        assert alice_at_1 in eng.turn_set({1}) and len(eng.successors(alice_at_1)) == 1
        assert eng.turn_set({1}).tuples() == sym.turn_set({1}).tuples(), eng.kind
    values = forced_values(m, sym)
    assert values == forced_values(m, exp)
    # take-away 1 or 2 from 4: 4 is not a multiple of 3, the first player wins
    assert forced(values, ["alice"], "alice") == 100
    assert forced(values, ["bob"], "bob") == 0
    from symbolic.bdd.engine import SymbolicGame

    plain = SymbolicGame(m.game)  # the IR moves: others play their legal (forced) move
    for pos in sym.positions().tuples():
        assert plain.successors(pos).tuples() == sym.successors(pos).tuples(), pos


def test_a_role_without_legal_move_is_a_dead_end(capsys):
    m = load_model(HERE / "gdl" / "stuck.kif")
    sym, exp = both(m)
    for eng in (sym, exp):
        stuck = dead_ends(m, eng)
        assert stuck.tuples() == [(0, 1, 0)], (eng.kind, stuck.tuples())  # (s 1)
    assert forced_values(m, sym) == forced_values(m, exp)
    assert main(["gdl", str(HERE / "gdl" / "stuck.kif"), "--json", "--engine", "both"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["reachable"] == 3 and doc["dead_ends"] == 1, doc
    assert main(["gdl", str(HERE / "gdl" / "stuck.kif")]) == 0
    out = capsys.readouterr().out
    assert "dead ends: 1 reachable non-terminal states where a role has no legal move" in out


def test_a_dead_end_is_lost_for_the_coalition_whoever_is_stuck():
    """In stuck.kif, a may move into (s 1), where b has no legal move: the game never
    ends there, so b alone forces nothing, not even the end of the game (before, the
    vacuous convention credited b with that dead end, labelled as a's turn); a alone
    forces its win. The named set ``dead_end`` is that state on both engines."""
    m = load_model(HERE / "gdl" / "stuck.kif")
    for eng in both(m):
        values = forced_values(m, eng)
        assert [(f["coalition"], f["role"], f["value"]) for f in values] == [
            (["a"], "a", 100),
            (["a"], "b", 0),
            (["b"], "a", None),
            (["b"], "b", None),
            (["a", "b"], "a", 100),
            (["a", "b"], "b", 0),
        ], (eng.kind, values)
        ev = atl.Evaluator(eng, m.definitions)
        assert ev(parse_formula("dead_end", m)).tuples() == [(0, 1, 0)], eng.kind


@pytest.mark.parametrize(
    "name",
    [
        "nim1.kif",
        str(HERE / "gdl" / "corners.kif"),
        str(HERE / "gdl" / "forced.kif"),
        str(HERE / "gdl" / "stuck.kif"),
    ],
)
def test_the_forced_table_is_its_formula_at_the_initial_state(name):
    """Each entry of :func:`forced_values` (which skips the fixpoints that monotony in
    the coalition decides) is the largest goal value V whose ``forced_formula`` holds
    at the initial state, every formula evaluated on the explicit engine."""
    from symbolic.gdl.solve import coalitions, forced_formula

    m = model(name)
    exp = both(m)[1]
    ev = atl.Evaluator(exp, m.definitions)
    start = ev(parse_formula("initial", m)).tuples()[0]
    prog = m.game.program
    table = forced_values(m, exp)
    for coalition in coalitions(prog.roles):
        for r in prog.roles:
            values = prog.goals[r]
            held = [
                v
                for i, v in enumerate(values)
                if start in ev(forced_formula(m, coalition, r, values[i:]))
            ]
            want = max(held) if held else None
            assert forced(table, list(coalition), r) == want, (coalition, r, held)


# ------------------------------------------------------------------ limits


@pytest.mark.parametrize("kind", ["symbolic", "explicit"])
def test_the_gdl_engines_obey_the_time_limit(kind):
    m = model("ticTacToe.kif")
    with pytest.raises(LimitExceeded) as err:
        make_engine(m.game, kind, limits=Limits(timeout=1e-6)).positions().count()
    assert "time limit" in str(err.value) and "exploring the reachable states" in str(err.value), (
        str(err.value)
    )


def test_the_explicit_gdl_engine_position_cap(capsys):
    """--max-memory 1 caps the explicit engine at 2 097 positions: tic-tac-toe has 5 478."""
    path = str(CORPUS / "ticTacToe.kif")
    assert main(["gdl", path, "--engine", "explicit", "--max-memory", "1"]) == 3
    err = capsys.readouterr().err
    assert "position limit reached: more than 2097 reachable states" in err, err


# ------------------------------------------------------------------ the large files, layer by layer


def _explicit_layers(prog, depth):
    """|states reachable in at most d moves| for d = 0..depth, by the explicit evaluator
    (its own code path: the ground rules on sets of fluents, every joint move)."""
    ev = GdlEvaluator(prog)
    seen = {frozenset(prog.init)}
    layer, sizes = set(seen), [1]
    for _ in range(depth):
        nxt = set()
        for s in layer:
            nxt |= ev.successors(s)[1]
        layer = nxt - seen
        seen |= layer
        sizes.append(len(seen))
    return sizes


@pytest.mark.parametrize(
    "name, depth",
    [
        ("connectFour.kif", 4),
        pytest.param("3pttc.kif", 5, marks=pytest.mark.gdl_slow),
    ],
)
def test_the_first_layers_of_the_large_files_agree(name, depth, capsys):
    """symbolic gdl --depth N (frontier images over the changed fluents) against a
    breadth-first search of the explicit evaluator."""
    m = model(name)
    assert main(["gdl", str(CORPUS / name), "--depth", str(depth), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["layers"] == _explicit_layers(m.game.program, depth), doc


def test_the_symbolic_gdl_engine_memory_cap(capsys):
    """--max-memory caps CUDD: a clear message naming the stage, exit status 3."""
    path = str(CORPUS / "connectFour.kif")
    assert main(["gdl", path, "--depth", "48", "--max-memory", "8", "--json"]) == 3
    err = capsys.readouterr().err
    assert "memory limit of 8 MB reached while exploring the reachable states" in err, err


# ------------------------------------------------------------------ bounds from the first moves


def _rank(v):
    return float("-inf") if v is None else v


def _bounded(m, depth):
    """(symbolic, explicit) engines keeping the states within ``depth`` moves."""
    return make_engine(m.game, "symbolic", depth=depth), make_engine(
        m.game, "explicit", depth=depth
    )


@pytest.mark.parametrize(
    "name, depths",
    [
        ("ticTacToe.kif", (0, 1, 4, 5, 6, 7, 8, 9, 10)),
        ("nim1.kif", (0, 1, 2, 3, 5, 8, 11, 12, 13)),
        (str(HERE / "gdl" / "corners.kif"), (0, 1, 2, 3)),
        (str(HERE / "gdl" / "forced.kif"), (0, 1, 2, 3, 4)),
        (str(HERE / "gdl" / "stuck.kif"), (0, 1, 2, 3, 4)),
    ],
)
def test_depth_bounds_bracket_the_forced_values(name, depths):
    """With a depth N both engines keep the same states and frontier and give the same
    bounds, lower ≤ forced ≤ upper for every coalition and role, and the exact values
    once nothing lies beyond N (the whole game: ``complete``)."""
    m = model(name)
    exact = forced_values(m, both(m)[0])
    whole = len(both(m)[0].positions())
    seen_complete = seen_cut = False
    for n in depths:
        sym, exp = _bounded(m, n)
        assert sym.layers == exp.layers, (n, sym.layers, exp.layers)
        assert sym.complete == exp.complete, n
        assert sym.frontier.tuples() == exp.frontier.tuples(), n
        assert sym.positions().tuples() == exp.positions().tuples(), n
        assert dead_ends(m, sym).tuples() == dead_ends(m, exp).tuples(), n
        bounds = forced_values(m, sym)
        assert bounds == forced_values(m, exp), (n, bounds)
        for b, e in zip(bounds, exact):
            assert (b["coalition"], b["role"]) == (e["coalition"], e["role"])
            assert _rank(b["lower"]) <= _rank(e["value"]) <= _rank(b["upper"]), (n, b, e)
            assert b["decided"] == (b["lower"] == b["upper"]), b
        if sym.complete:
            seen_complete = True
            assert len(sym.positions()) == whole and sym.frontier.is_empty(), n
            assert bounds == exact, (n, bounds, exact)
        else:
            seen_cut = True
            assert sym.frontier.count() == sym.layers[-1] and len(sym.layers) == n + 1, n
    assert seen_complete and (seen_cut or name.endswith("corners.kif")), depths


def test_a_frontier_state_has_no_successor_but_is_no_dead_end():
    """The unexpanded layer keeps its states (with their turn) and loses its moves; the
    dead ends counted exclude it."""
    m = model("ticTacToe.kif")
    for e in _bounded(m, 2):
        f = e.frontier
        assert f.count() == 72 and (e.deadlocks() & f) == f, e
        assert dead_ends(m, e).is_empty(), e
        assert e.successors(f.first()).is_empty(), e


def test_depth_is_checked():
    m = model("nim1.kif")
    with pytest.raises(Exception) as err:
        make_engine(m.game, "symbolic", depth=-1)
    assert "0 or more" in str(err.value)
    with pytest.raises(Exception) as err:
        make_engine(load_model(CORPUS.parent / "nim.game").game, "symbolic", depth=3)
    assert "GDL games only" in str(err.value)


def test_gdl_depth_json_has_bounds(capsys):
    assert (
        main(["gdl", str(CORPUS / "ticTacToe.kif"), "--depth", "5", "--json", "--engine", "both"])
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["depth"] == 5 and not doc["complete"] and doc["reachable"] == 2350, doc
    entry = [f for f in doc["forced"] if f["coalition"] == ["xplayer"] and f["role"] == "xplayer"][
        0
    ]
    # X cannot win in 5 moves against O, and with every later state a win it forces 100
    assert entry == {
        "coalition": ["xplayer"],
        "role": "xplayer",
        "value": None,
        "lower": None,
        "upper": 100,
        "decided": False,
    }, entry


@pytest.mark.gdl_slow
def test_3pttc_bounds_from_twelve_moves():
    """3pttc.kif from its first 12 moves (4 564 069 states): red with yellow's help
    forces a red line, and all three together force any role's line (decided: 100);
    red alone and blue alone cannot force their own line (upper bound 0: the others can
    end the game first; whether they force the game to end at all, 0 rather than none,
    is not decided); yellow with blue forces the game to end (lower bound 0); the first
    4 moves agree with the explicit engine."""
    m = model("3pttc.kif")
    sym = make_engine(m.game, "symbolic", depth=12)
    bounds = forced_values(m, sym)

    def entry(c, r):
        return [(f["lower"], f["upper"]) for f in bounds if f["coalition"] == c and f["role"] == r][
            0
        ]

    assert entry(["red", "yellow"], "red") == (100, 100)
    for r in ("red", "yellow", "blue"):
        assert entry(["red", "yellow", "blue"], r) == (100, 100), r
        assert entry(["yellow", "blue"], r) == (0, 100), r
    assert entry(["red"], "red") == (None, 0)
    assert entry(["blue"], "blue") == (None, 0)
    assert entry(["blue"], "yellow") == (None, 0)
    assert entry(["yellow"], "yellow") == (None, 100)
    assert sum(f["decided"] for f in bounds) == 4, bounds
    small_sym, small_exp = _bounded(m, 4)
    assert forced_values(m, small_sym) == forced_values(m, small_exp)


@pytest.mark.parametrize(
    "name",
    # chomp's 10^5 pairs take a minute: with the large files (make gdl)
    [
        "ticTacToe.kif",
        "nim1.kif",
        pytest.param("chomp.kif", marks=pytest.mark.gdl_slow),
        "corners.kif",
    ],
)
def test_moves_between_and_out_degrees_agree_with_the_explicit_engine(name):
    """δ ∧ S(x) ∧ T(x') on the GDL symbolic engine, whose pre-images compose (its
    targets stay over the current bits): the pairs, the sources and the out-degrees
    equal the explicit engine's, for T every state and for T a part of them."""
    m = corners() if name == "corners.kif" else model(name)
    sym, exp = both(m)
    assert sym.positions().tuples() == exp.positions().tuples()
    every = exp.positions().tuples()
    part = every[::3]
    for src, tgt in ((every, every), (every, part), (part, every[1::2])):
        rel_s = sym.moves_between(sym.from_tuples(src), sym.from_tuples(tgt))
        rel_e = exp.moves_between(exp.from_tuples(src), exp.from_tuples(tgt))
        assert rel_s.count() == rel_e.count(), (name, len(src), len(tgt))
        if rel_e.count() <= 20_000:
            assert rel_s.pairs() == rel_e.pairs(), (name, len(src), len(tgt))
        else:
            # enumerating 10^5 pairs out of a BDD takes a minute: the sources, and the
            # targets of every 97th source, pin the relation down as well
            assert rel_s.sources().tuples() == rel_e.sources().tuples(), name
            targets: dict[tuple, list[tuple]] = {}
            for c, d in rel_e.pairs():
                targets.setdefault(c, []).append(d)
            for c in src[::97]:
                got = rel_s.image(sym.from_tuples([c])).tuples()
                assert got == targets.get(c, []), (name, c)
    assert sym.out_degrees(sym.positions()) == exp.out_degrees(exp.positions())


def _everything_by_the_until():
    """Every entry of the forced table by its fixpoint (the grand coalition's too)."""
    from unittest import mock

    from symbolic.gdl.engine import GdlEngine

    return mock.patch.object(GdlEngine, "explored", property(lambda self: False))


@pytest.mark.parametrize("kind", ["symbolic", "explicit"])
@pytest.mark.parametrize(
    "path",
    sorted((HERE / "gdl").glob("*.kif")) + [CORPUS / n for n in ("nim1.kif", "ticTacToe.kif")],
    ids=lambda p: p.name,
)
def test_the_grand_coalition_reads_its_values_off_the_positions(path, kind):
    """The grand coalition's entries, read off the positions (``T ≠ ∅``, the
    :mod:`symbolic.gdl.solve` docstring), and the entries decided by determinacy (the
    other side's answer on the other terminal states) equal their fixpoints', on every
    file of ``tests/gdl`` (dead ends, simultaneous moves, one to three roles) and both
    engines; the first shortcut is taken on every complete engine, the second on the
    graded turn-based games without dead ends (tic-tac-toe here)."""
    from symbolic.gdl.solve import _Forcing

    m = load_model(path)
    eng = make_engine(m.game, kind)
    assert eng.explored and eng.layers, path
    if path.name == "ticTacToe.kif":
        assert _Forcing(m, eng).determined == (kind == "symbolic"), path
    fast = forced_values(m, eng)
    with _everything_by_the_until():
        assert not eng.explored
        slow = forced_values(m, make_engine(m.game, kind))
    assert fast == slow, (fast, slow)


@pytest.mark.parametrize("kind", ["symbolic", "explicit"])
@pytest.mark.parametrize("path", sorted((HERE / "gdl").glob("*.kif")), ids=lambda p: p.name)
def test_an_atom_within_a_set_is_the_atom_and_the_set(path, kind):
    """``atom_set(a, within=S)`` (the goals taken within the terminal states, and
    ``terminal`` within the goals') equals ``atom_set(a) ∩ S``."""
    m = load_model(path)
    eng = make_engine(m.game, kind)
    terminal = eng.atom_set(("terminal", ()))
    goals = [a for a in m.game.program.rules if a[0] == "goal"]
    assert goals, path
    for a in goals:
        held = eng.atom_set(a)
        assert eng.atom_set(a, within=terminal) == held & terminal, a
        assert eng.atom_set(("terminal", ()), within=held) == held & terminal, a
