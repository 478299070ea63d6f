"""The GDL symbolic engine reads its ground atoms within a set of states
(:class:`symbolic.gdl.within.Within`), building over every state only the atoms
that stay small there (:meth:`~symbolic.gdl.symbolic_rules.RuleBdds.whole`).

- On every layer u and every atom (under every joint move for those reading ``does``),
  ``Within(u).atom(a)`` is u ∧ a, a as built over every state by a fresh, unbounded
  :class:`~symbolic.gdl.symbolic_rules.RuleBdds`; with no atom built over every state
  (``WHOLE_MAX`` = -1) too.
- The same on each layer when the atoms of several bodies are read from their parts
  over every state (``PARTS_FROM`` = 0; parts of at most 8 nodes; parts past their
  budget, read body by body) and the legal moves are counted over every state.
- With no atom built over every state, or with the parts, the engine's answers (reachable, terminal and
  dead-end states, each goal's states, the forced table) are those of the default engine,
  of the explicit engine and of the plain interpreter of ``tests/gdl_interp.py``.
- On corpus games whose ``terminal`` or legal moves read many fluents (a sum of three cells,
  a line of five: over every state those BDDs grow past any layer), the first layers are
  those the explicit engine finds.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings

from symbolic.engines import make_engine
from symbolic.gdl import symbolic_rules, within
from symbolic.gdl.build import one_two
from symbolic.gdl.load import gdl_model
from symbolic.gdl.symbolic_rules import RuleBdds
from symbolic.gdl.within import Within
from symbolic.model import load_model
from tests.strategies import static_gdl
from tests.test_gdl_static import COMMON, _engine_view, check_against_interpreter

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHIPPED = ROOT / "symbolic" / "models" / "gdl"
KIFS = sorted((HERE / "gdl").glob("*.kif")) + [SHIPPED / f"{n}.kif" for n in ("nim1", "ticTacToe")]
CORPUS = [
    base / "shared" / "corpus" / "ggp-repository"
    for base in (ROOT.parent, ROOT.parent.parent)
    if (base / "shared" / "corpus" / "ggp-repository").is_dir()
]


@contextlib.contextmanager
def no_whole_atoms():
    """No atom built over every state: each is read within the set at hand."""
    with mock.patch.object(symbolic_rules, "WHOLE_MAX", -1):
        yield


@contextlib.contextmanager
def parts_everywhere(part_max: int, budget: int):
    """Every atom of several bodies over 40 nodes read within any set from its parts over
    every state (:meth:`RuleBdds.whole_parts`), each of at most ``part_max`` nodes, and
    the legal moves counted over every state (:meth:`RuleBdds.whole_counts`), within
    ``budget``."""
    with (
        mock.patch.object(symbolic_rules, "WHOLE_MAX", 40),
        mock.patch.object(within, "PARTS_FROM", 0),
        mock.patch.object(within, "PARTS_FACTOR", 1 << 30),
        mock.patch.object(symbolic_rules, "PART_MAX", part_max),
        mock.patch.object(symbolic_rules, "PARTS_BUDGET", budget),
    ):
        yield


#: the ways of reading atoms within a set, each checked against the atoms over every state
MODES = {
    "default": contextlib.nullcontext,
    "no whole atom": no_whole_atoms,
    "parts": lambda: parts_everywhere(1 << 21, 1 << 23),
    "parts of 8 nodes": lambda: parts_everywhere(8, 1 << 23),
    "parts past their budget": lambda: parts_everywhere(8, 8),
}


def _model(path: Path):
    return gdl_model(path.read_text(), path.name)


def _check_layers(path: Path) -> int:
    """Within(u).atom == u ∧ atom on each layer u and the domain; the comparisons made."""
    model = _model(path)
    eng = make_engine(model.game, "symbolic")
    m, rules, prog = eng.manager, eng.rules, model.game.program
    plain = RuleBdds(m, eng.encoder, model.game)  # its own memo: every atom over all states
    sets = [x.node for x in eng.reach.layers] if eng.reach is not None else []
    sets.append(eng.positions().node)
    turn_based = not hasattr(eng, "joint")
    n = 0
    for u in sets:
        inside = Within(rules, u)
        for atom in prog.rules:
            if not rules.does.reads(atom):
                assert inside.atom(atom) == m.and_(u, plain.atom(atom)), (path.name, atom)
                n += 1
        if not turn_based:
            continue
        for r in prog.roles:
            legal = [m.and_(u, plain.atom(("legal", (r, mv)))) for mv in prog.moves[r]]
            want = one_two(legal, m.or_, m.and_, m.false)
            assert rules.counts(r, inside)[:2] == want, (path.name, r)
            n += 1
        for r in prog.roles:
            for forced, part in rules.by_forced_moves(u, r, inside):
                assert m.is_false(m.diff(part, u))
                for mv in prog.moves[r]:
                    ctx = (r, mv, symbolic_rules._Forced(forced))
                    for atom in prog.rules:
                        if rules.does.reads(atom):
                            want = m.and_(u, plain.atom(atom, ctx))
                            assert inside.atom(atom, ctx) == want, (path.name, atom, ctx)
                            n += 1
    return n


#: the modes whose cases on the two shipped games (the largest) run in ``make test-slow``:
#: every mode still runs on each small file of tests/gdl in ``make test``
MIDDLE = ("parts", "parts of 8 nodes")


def _cases(modes):
    """Every file in each of ``modes`` (:data:`MIDDLE` on the shipped games:
    ``make test-slow``)."""
    return [
        pytest.param(
            path,
            mode,
            id=f"{path.name}-{mode}",
            marks=[pytest.mark.slow] if path.parent == SHIPPED and mode in MIDDLE else [],
        )
        for path in KIFS
        for mode in modes
    ]


@pytest.mark.parametrize(("path", "mode"), _cases(MODES))
def test_atoms_within_each_layer_are_the_whole_atoms_there(path, mode):
    with MODES[mode]():
        assert _check_layers(path) > 0


# every mode but the default, against the default
@pytest.mark.parametrize(("path", "mode"), _cases([m for m in MODES if m != "default"]))
def test_answers_in_each_mode_are_the_same(path, mode):
    model = _model(path)
    want = _engine_view(model, "symbolic")
    with MODES[mode]():
        got = _engine_view(model, "symbolic")
    assert got == want
    assert _engine_view(model, "explicit") == want


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_fixed_bits_of_each_layer_are_those_tested_one_by_one(path):
    """Within.fixed reads them from one projection; here each is tested on u itself."""
    eng = make_engine(_model(path).game, "symbolic")
    m, rules = eng.manager, eng.rules
    bits = sorted(rules.bit.values(), key=str)
    found = 0
    for layer in eng.reach.layers if eng.reach is not None else [eng.positions()]:
        u = layer.node
        want = {}
        for b in bits:
            x = m.var(b)
            want[b] = (
                True if m.is_false(m.diff(u, x)) else False if m.is_false(m.and_(u, x)) else None
            )
        inside = Within(rules, u)
        assert inside.fixed(bits[::2]) == {b: want[b] for b in bits[::2]}, path.name
        assert inside.fixed(bits) == want, path.name
        found += sum(v is not None for v in want.values())
    assert found > 0, path.name


def test_the_shipped_model_doctest_game_has_small_whole_atoms():
    """ticTacToe's atoms all fit over every state (the default keeps them, no work per
    layer); with WHOLE_MAX = -1 none is kept."""
    game = load_model("gdl/ticTacToe").game
    eng = make_engine(game, "symbolic")
    assert eng.rules.whole(("terminal", ())) is not None
    with no_whole_atoms():
        fresh = RuleBdds(eng.manager, eng.encoder, game)
        assert fresh.whole(("terminal", ())) is None


@settings(max_examples=30, **COMMON)
@given(static_gdl())
def test_random_games_with_no_whole_atom_agree_with_the_interpreter(rules):
    with no_whole_atoms():
        check_against_interpreter(rules)


@settings(max_examples=30, **COMMON)
@given(static_gdl())
def test_random_games_read_from_parts_agree_with_the_interpreter(rules):
    with parts_everywhere(8, 1 << 23):
        check_against_interpreter(rules)


@pytest.mark.skipif(not CORPUS, reason="the GGP corpus is not beside the checkout")
@pytest.mark.parametrize(("name", "depth"), [("numbertictactoe", 3), ("cubicup", 3)])
def test_first_layers_of_corpus_games_match_the_explicit_engine(name, depth):
    """numbertictactoe's terminal (some line sums to 15) and cubicup's legal moves were
    built over every state before the first image (more than 30 s each)."""
    path = CORPUS[0] / f"{name}.kif"
    game = gdl_model(path.read_text(), path.name).game
    sym = make_engine(game, "symbolic", depth=depth)
    exp = make_engine(game, "explicit", depth=depth)
    assert sym.layers == exp.layers
    assert len(sym.layers) == depth + 1
    term = ("terminal", ())
    assert len(sym.atom_set(term).tuples()) == len(exp.atom_set(term).tuples())
