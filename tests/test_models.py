"""The shipped models (models/): every query on every engine, and known answers.

Corpus test: every ``*.game`` and ``*.arena.json`` file under models/ is
discovered at collection time (a new model is picked up without touching this
file). Each is loaded at its defaults and at the small parameter values of
``OVERRIDES`` (models not listed run at their defaults only), and every query
is evaluated on the explicit engine and on the symbolic engine with the cudd
and autoref backends; the sets must be equal.

autoref (pure Python BDDs) is slow, so it runs on a model's first case (the
first entry of its ``OVERRIDES`` list, smallest first, or the defaults) and on
other cases only when they have at most ``AUTOREF_MAX_POSITIONS`` positions.

Known-answer tests follow: each computes the answer independently in Python
(brute force or a known theorem) and compares it with the model's sets, on the
explicit engine (the corpus test already ties the other engines to it).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from symbolic import atl
from symbolic.api import attractor, difference_witness
from symbolic.bdd import SymbolicGame
from symbolic.explicit import ExplicitGame
from symbolic.analysis.grundy import first_difference, layered_nimbers, mex_nimbers
from symbolic.engines import make_engine
from symbolic.model import load_model

from .conftest import MODELS


#: small parameter overrides per model file name, smallest first
OVERRIDES: dict[str, list[dict]] = {
    "subtraction.game": [{"K": 0}, {"K": 5}, {"K": 9}],
    "nim.game": [{"n": 1, "K": 3}, {"n": 2, "K": 4}, {"n": 4, "K": 2}],
    "chocolate.game": [
        {"m": 1, "n": 1, "i": 0, "j": 0},
        {"m": 3, "n": 2, "i": 0, "j": 1},
        {"m": 5, "n": 4, "i": 2, "j": 1},
    ],
    "hackendot.game": [
        {"word": "((())())"},
        {"word": "(())(()())"},
        {"word": "((()())(()))(()(()()))"},
    ],
    "chomp.game": [
        {"R": 1, "C": 1},
        {"R": 2, "C": 2},
        {"R": 2, "C": 3},
        {"R": 1, "C": 5},
        {"R": 2, "C": 3, "edge": True},
        {"R": 3, "C": 3, "edge": True},
    ],
    "kayles.game": [{"n": 1}, {"n": 5}],
    "dawson.game": [{"n": 1}, {"n": 6}],
    "grundy_game.game": [{"N": 3}, {"N": 8}],
    "subtraction_set.game": [{"n": 1, "K": 4}, {"n": 3, "K": 5, "S": "2,5"}],
    "connect4.game": [{"w": 3, "h": 3, "a": 3}, {"w": 4, "h": 2}, {"w": 2, "h": 4, "a": 2}],
    "connect4-compact.game": [{"w": 3, "h": 3, "a": 3}, {"w": 4, "h": 2}, {"w": 2, "h": 4, "a": 2}],
    "rps.game": [{"R": 1}, {"R": 3}],
    "race.game": [{"N": 3, "M": 1}, {"N": 7, "M": 3}],
}

AUTOREF_MAX_POSITIONS = 10_000


def model_files() -> list[Path]:
    return sorted(
        p
        for p in MODELS.rglob("*")
        if p.is_file() and (p.name.endswith(".game") or p.name.endswith(".arena.json"))
    )


def load(path: Path, params: dict | None = None):
    return load_model(path, params or None)


def cases():
    out = []
    for path in model_files():
        rel = path.relative_to(MODELS).as_posix()
        overrides = OVERRIDES.get(path.name, [])
        first = overrides[0] if overrides else None
        for params in [None] + overrides:
            label = rel + (
                ""
                if params is None
                else "[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"
            )
            out.append(pytest.param(path, params, params == first, id=label))
    return out


def show(space, pos) -> str:
    return ", ".join(f"{s.label}={v}" for s, v in zip(space.slots, pos))


@pytest.mark.parametrize("path, params, smallest", cases())
def test_engines_agree_on_model_queries(path, params, smallest):
    model = load(path, params)
    assert model.queries, f"{path.name} declares no query"
    ref = make_engine(model.game, "explicit")  # concurrent games get the concurrent engines
    n = len(ref.positions())
    backends = ["cudd"] + (["autoref"] if smallest or n <= AUTOREF_MAX_POSITIONS else [])
    ev_ref = atl.Evaluator(ref, model.definitions)
    others = [
        (b, atl.Evaluator(make_engine(model.game, "symbolic", b), model.definitions))
        for b in backends
    ]
    for q in model.queries:
        expected = ev_ref(q.formula)
        for backend, ev in others:
            got = ev(q.formula)
            w = difference_witness(expected, got)
            assert w is None, (
                f"{path.name} {model.params}: query {q.text!r}: explicit has {len(expected)} "
                f"positions, symbolic/{backend} has {len(got)}; they differ at "
                f"({show(model.space, w)}), which only the "
                f"{'explicit' if w in expected else 'symbolic'} result holds"
            )


def test_every_game_file_starts_with_a_header_comment():
    for path in model_files():
        if path.name.endswith(".game"):
            head = path.read_text(encoding="utf-8").lstrip()
            assert head.startswith(("/*", "//", "#")), f"{path.name}: no header comment"


# --------------------------------------------------------------------------- helpers


def solve(path: str, params: dict | None = None):
    """(model, explicit engine, evaluator) for a model file of models/."""
    model = load(MODELS / path, params)
    eng = ExplicitGame(model.game)
    return model, eng, atl.Evaluator(eng, model.definitions)


def as_dicts(ps) -> list[dict]:
    return ps.dicts()


def formula_set(model, ev, text: str) -> set[tuple]:
    return set(ev(model.formula(text)).tuples())


def positions_where(eng, pred) -> set[tuple]:
    """The positions whose dict satisfies ``pred``."""
    space = eng.space
    return {t for t in eng.positions().tuples() if pred(space.as_dict(t))}


# --------------------------------------------------------------------------- subtraction


@pytest.mark.parametrize("K", [20, 0, 7, 13])
def test_subtraction_mover_wins_off_multiples_of_4(K):
    model, eng, ev = solve("subtraction.game", {"K": K})
    assert formula_set(model, ev, "mover_wins") == positions_where(eng, lambda d: d["k"] % 4 != 0)
    start = formula_set(model, ev, "initial and wins(1)")
    assert bool(start) == (K % 4 != 0)


# --------------------------------------------------------------------------- Nim


def heaps(d: dict) -> list[int]:
    return [v for k, v in sorted(d.items()) if k.startswith("k[")]


def xor_all(xs) -> int:
    r = 0
    for x in xs:
        r ^= x
    return r


@pytest.mark.parametrize("params", [{}, {"n": 2, "K": 5}, {"n": 4, "K": 3}, {"n": 1, "K": 6}])
def test_nim_mover_wins_iff_xor_nonzero(params):
    model, eng, ev = solve("nim.game", params)
    expected = positions_where(eng, lambda d: xor_all(heaps(d)) != 0)
    assert formula_set(model, ev, "mover_wins") == expected
    # the model's own statement of the rule holds everywhere
    assert len(ev(model.formula("mover_wins iff not nim_sum_zero"))) == len(eng.positions())

    # and the brute force agrees too
    @lru_cache(maxsize=None)
    def win(hs):
        return any(
            not win(hs[:i] + (h - t,) + hs[i + 1 :])
            for i, h in enumerate(hs)
            for t in range(1, h + 1)
        )

    assert expected == positions_where(eng, lambda d: win(tuple(heaps(d))))


# --------------------------------------------------------------------------- tic-tac-toe

TTT_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_winner(b) -> int:
    for x, y, z in TTT_LINES:
        if b[x] and b[x] == b[y] == b[z]:
            return b[x]
    return 0


def ttt_moves(b):
    if ttt_winner(b) or all(b):
        return []
    p = 1 if b.count(1) == b.count(2) else 2
    return [b[:i] + (p,) + b[i + 1 :] for i in range(9) if b[i] == 0]


def ttt_reachable() -> set[tuple]:
    seen, todo = {(0,) * 9}, [(0,) * 9]
    while todo:
        for s in ttt_moves(todo.pop()):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return seen


@lru_cache(maxsize=None)
def ttt_outcome(b) -> int:
    """The result with optimal play: 1 or 2 (that player wins) or 0 (draw)."""
    w = ttt_winner(b)
    if w or all(b):
        return w
    p = 1 if b.count(1) == b.count(2) else 2
    results = {ttt_outcome(s) for s in ttt_moves(b)}
    return p if p in results else (0 if 0 in results else 3 - p)


def ttt_board(d: dict) -> tuple:
    return tuple(d[f"c[{i}]"] for i in range(1, 10))


def test_tictactoe_legal_boards_are_the_5478_reachable_ones():
    model, eng, ev = solve("tictactoe.game")
    reach = ttt_reachable()
    assert len(reach) == 5478
    legal = formula_set(model, ev, "legal")
    assert len(legal) == 5478
    assert {ttt_board(eng.space.as_dict(t)) for t in legal} == reach


def test_tictactoe_forced_wins_and_empty_board_draw():
    model, eng, ev = solve("tictactoe.game")
    for p in (1, 2):
        got = {ttt_board(d) for d in as_dicts(ev(model.formula(f"legal and forces_win({p})")))}
        assert got == {b for b in ttt_reachable() if ttt_outcome(b) == p}, p
        assert not ev(model.formula(f"empty and forces_win({p})")), p
    assert ttt_outcome((0,) * 9) == 0


# --------------------------------------------------------------------------- chocolate


@pytest.mark.parametrize(
    "params", [{}, {"m": 4, "n": 3, "i": 1, "j": 2}, {"m": 6, "n": 6, "i": 5, "j": 0}]
)
def test_chocolate_is_four_heap_nim(params):
    model, eng, ev = solve("chocolate.game", params)
    mover = formula_set(model, ev, "mover_wins")
    dist = lambda d: (d["l"], d["r"], d["u"], d["d"])  # noqa: E731
    assert mover == positions_where(eng, lambda d: xor_all(dist(d)) != 0)

    # a brute force on the bar itself: columns x0..x1, rows y0..y1 around (i, j)
    m, n, i, j = (model.params[k] for k in "mnij")

    @lru_cache(maxsize=None)
    def win(x0, x1, y0, y1):
        nxt = [(c, x1, y0, y1) for c in range(x0 + 1, i + 1)]  # break left of i
        nxt += [(x0, c, y0, y1) for c in range(i, x1)]  # break right of i
        nxt += [(x0, x1, c, y1) for c in range(y0 + 1, j + 1)]  # above j
        nxt += [(x0, x1, y0, c) for c in range(j, y1)]  # below j
        return any(not win(*s) for s in nxt)

    assert mover == positions_where(
        eng, lambda d: win(i - d["l"], i + d["r"], j - d["u"], j + d["d"])
    )
    start = formula_set(model, ev, "initial and wins(1)")
    assert bool(start) == win(0, m - 1, 0, n - 1)


def test_chocolate_seed_example_is_a_first_player_win():
    model, eng, ev = solve("chocolate.game")  # 10 × 7, square at (7, 3)
    assert xor_all((7, 2, 3, 3)) != 0
    assert len(ev(model.formula("initial and wins(1)"))) == 1


# --------------------------------------------------------------------------- Hackendot


def parse_forest(word: str) -> list[int | None]:
    """Parents of the nodes of a Dyck word, nodes numbered 0.. in preorder."""
    parent, stack = [], []
    for ch in word:
        if ch == "(":
            parent.append(stack[-1] if stack else None)
            stack.append(len(parent) - 1)
        elif ch == ")":
            stack.pop()
    return parent


@pytest.mark.parametrize(
    "word", ["(()(()))(())()", "((())())", "(())(()())", "((()())(()))(()(()()))", "()"]
)
def test_hackendot_by_brute_force(word):
    model, eng, ev = solve("hackendot.game", {"word": word})
    assert model.params["word"] == word
    parent = parse_forest(word)
    N = len(parent)
    assert model.consts["N"] == N

    def path(v):  # v and its ancestors, as a bit mask
        mask = 0
        while v is not None:
            mask |= 1 << v
            v = parent[v]
        return mask

    paths = [path(v) for v in range(N)]

    @lru_cache(maxsize=None)
    def win(gone):
        return any(not win(gone | paths[v]) for v in range(N) if not gone >> v & 1)

    def mask(d):
        return sum(1 << (v - 1) for v in range(1, N + 1) if d[f"gone[{v}]"])

    assert formula_set(model, ev, "mover_wins") == positions_where(eng, lambda d: win(mask(d)))
    # the positions are exactly the upward-closed removed sets, for both players
    closed = [
        g for g in range(1 << N) if all(g & paths[v] == paths[v] for v in range(N) if g >> v & 1)
    ]
    assert len(eng.positions()) == 2 * len(closed)
    assert bool(formula_set(model, ev, "initial and wins(1)")) == win(0)


def test_hackendot_forest_2_is_a_second_player_win():
    model, eng, ev = solve("hackendot.game", {"word": "(())(()())"})
    assert not ev(model.formula("initial and wins(1)"))
    assert len(ev(model.formula("initial and wins(2)"))) == 1


# --------------------------------------------------------------------------- Chomp revisité


@pytest.mark.parametrize("R, C", [(3, 4), (2, 2), (2, 3), (1, 4), (3, 3)])
def test_chomp_by_brute_force(R, C):
    model, eng, ev = solve("chomp.game", {"R": R, "C": C})
    rows = [sum(1 << (r * C + c) for c in range(C)) for r in range(R)]
    cols = [sum(1 << (r * C + c) for r in range(R)) for c in range(C)]

    @lru_cache(maxsize=None)
    def win(board):
        return any(not win(board & ~line) for line in rows + cols if board & line)

    def mask(d):
        return sum(1 << k for k in range(R * C) if d[f"b[{k + 1}]"])

    assert formula_set(model, ev, "mover_wins") == positions_where(eng, lambda d: win(mask(d)))
    # the full board: the mover loses iff both sides are >= 2 and R + C is even
    full_win = not (R >= 2 and C >= 2 and (R + C) % 2 == 0)
    assert win((1 << R * C) - 1) == full_win
    assert bool(formula_set(model, ev, "initial and wins(1)")) == full_win


# --------------------------------------------------------------------------- nimbers

#: published Sprague–Grundy sequences (OEIS), value for k = 0, 1, 2, ...
KAYLES = (0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2)  # A002186
DAWSON = (0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3)  # A002187
GRUNDY = (0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0)  # A002188
SUB_134 = (0, 1, 0, 1, 2, 3, 2) * 3  # period 7


def octal_nimbers(size: int, takes: tuple[int, ...]) -> list[int]:
    """Nimbers of rows of 0..size pins where a move knocks down t adjacent pins
    (t in ``takes``) anywhere in the row, splitting it in two: Kayles is (1, 2),
    Dawson's Kayles (2,)."""
    g: list[int] = []
    for k in range(size + 1):
        g.append(mex(g[a] ^ g[k - t - a] for t in takes if t <= k for a in range(k - t + 1)))
    return g


def grundy_game_nimbers(size: int) -> list[int]:
    g: list[int] = []
    for m in range(size + 1):
        g.append(mex(g[a] ^ g[m - a] for a in range(1, m) if a < m - a))
    return g


def subtraction_nimbers(size: int, takes) -> list[int]:
    g: list[int] = []
    for k in range(size + 1):
        g.append(mex(g[k - s] for s in takes if s <= k))
    return g


def mex(values) -> int:
    seen, n = set(values), 0
    while n in seen:
        n += 1
    return n


def runs(bits) -> list[int]:
    """Lengths of the runs of standing pins."""
    out, cur = [], 0
    for b in list(bits) + [0]:
        if b:
            cur += 1
        elif cur:
            out.append(cur)
            cur = 0
    return out


def nimber_tables(model):
    """{position: nimber} from the layered computation on the explicit engine's
    sets and on cudd, and from the explicit mex; all three must agree."""
    exp = ExplicitGame(model.game)
    tables = {
        "mex": mex_nimbers(exp),
        "layered/explicit": layered_nimbers(exp).table(),
        "layered/cudd": layered_nimbers(SymbolicGame(model.game)).table(),
    }
    ref = tables["mex"]
    for name, t in tables.items():
        w = first_difference(ref, t)
        assert w is None, f"{model.name}: {name} and mex differ at {w}: {t.get(w)} vs {ref.get(w)}"
    return ref


def test_published_sequences_agree_with_the_recursions():
    # the recursions below are the independent reference of the nimber tests
    assert octal_nimbers(19, (1, 2)) == list(KAYLES)
    assert octal_nimbers(19, (2,)) == list(DAWSON)
    assert grundy_game_nimbers(20) == list(GRUNDY)
    assert subtraction_nimbers(20, (1, 3, 4)) == list(SUB_134)


@pytest.mark.parametrize(
    "file, takes, published, n",
    [("kayles.game", (1, 2), KAYLES, 12), ("dawson.game", (2,), DAWSON, 12)],
)
def test_pin_rows_nimbers_are_the_published_sequence_and_sums_xor(file, takes, published, n):
    model = load(MODELS / file, {"n": n})
    table = nimber_tables(model)
    space = model.space
    row = [table[(1,) + tuple(int(i < k) for i in range(n))] for k in range(n + 1)]
    assert row == list(published[: n + 1])
    # every position is the disjoint sum of its runs: the xor of their nimbers
    g = octal_nimbers(n, takes)
    wrong = [show(space, t) for t, v in table.items() if v != xor_all(g[r] for r in runs(t[1:]))]
    assert not wrong, wrong[:3]


def test_pin_rows_symbolic_only_to_n_20():
    # beyond the explicit engine's comfort: 2^21 positions, the published prefix
    for file, published in (("kayles.game", KAYLES), ("dawson.game", DAWSON)):
        model = load(MODELS / file, {"n": 19})
        N = layered_nimbers(SymbolicGame(model.game))
        row = [N.of((1,) + tuple(int(i < k) for i in range(19))) for k in range(20)]
        assert row == list(published), file


def test_grundy_game_nimbers_are_the_published_sequence_and_sums_xor():
    model = load(MODELS / "grundy_game.game", {"N": 14})
    table = nimber_tables(model)
    M = model.consts["M"]
    heap = [table[(1, m if m >= 3 else 0) + (0,) * (M - 1)] for m in range(15)]
    assert heap == list(GRUNDY[:15])
    g = grundy_game_nimbers(14)
    wrong = [t for t, v in table.items() if v != xor_all(g[h] for h in t[1:])]
    assert not wrong, wrong[:3]
    # symbolic only, to the published prefix's end (N = 20)
    model = load(MODELS / "grundy_game.game", {"N": 20})
    N = layered_nimbers(SymbolicGame(model.game))
    M = model.consts["M"]
    assert [N.of((1, m if m >= 3 else 0) + (0,) * (M - 1)) for m in range(21)] == list(GRUNDY)


@pytest.mark.parametrize(
    "S, n, K", [("1,3,4", 1, 20), ("1,3,4", 2, 13), ("2,5,7", 2, 12), ("1,2,3", 3, 6)]
)
def test_subtraction_set_nimbers_and_sums(S, n, K):
    model = load(MODELS / "subtraction_set.game", {"S": S, "n": n, "K": K})
    takes = tuple(int(x) for x in S.split(","))
    table = nimber_tables(model)
    g = subtraction_nimbers(K, takes)
    if S == "1,3,4":
        assert g == list(SUB_134[: K + 1])
    if S == "1,2,3":
        assert g == [k % 4 for k in range(K + 1)]
    wrong = [t for t, v in table.items() if v != xor_all(g[k] for k in t[1:])]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("R, C", [(1, 5), (2, 3), (3, 3)])
def test_chomp_edge_rule_by_brute_force(R, C):
    # the other reading: from the chosen square to the edge, in one of 4 directions
    model = load(MODELS / "chomp.game", {"R": R, "C": C, "edge": True})
    bit = lambda r, c: 1 << (r * C + c)  # noqa: E731
    moves = []
    for r in range(R):
        for c in range(C):
            for line in (
                [(r, x) for x in range(c, C)],
                [(r, x) for x in range(c + 1)],
                [(y, c) for y in range(r, R)],
                [(y, c) for y in range(r + 1)],
            ):
                moves.append((bit(r, c), sum(bit(*sq) for sq in line)))

    @lru_cache(maxsize=None)
    def g(board):
        return mex(g(board & ~gone) for need, gone in moves if board & need)

    def mask(t):
        return sum(1 << k for k in range(R * C) if t[1 + k])

    table = nimber_tables(model)
    assert all(v == g(mask(t)) for t, v in table.items())
    eng = ExplicitGame(model.game)
    ev = atl.Evaluator(eng, model.definitions)
    assert formula_set(model, ev, "mover_wins") == {t for t, v in table.items() if v}
    if R == 1:  # the report's "1 × m has nimber m" holds under this rule
        assert [g((1 << m) - 1) for m in range(C + 1)] == list(range(C + 1))


# --------------------------------------------------------------------------- the TD arena


def test_td_arena_player_2_wins_and_player_1_does_not():
    path = MODELS / "td_example.arena.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    ctrl = {int(k): v for k, v in doc["controles"].items()}
    succ = {int(k): v for k, v in doc["transitions"].items()}

    def td_attractor(p, target):  # the TD's Attr_p: a stuck opponent is not forced
        a = set(target)
        while True:
            new = {
                s
                for s in doc["etats"]
                if s not in a
                and succ.get(s)
                and (any(t in a for t in succ[s]) if ctrl[s] == p else all(t in a for t in succ[s]))
            }
            if not new:
                return a
            a |= new

    attr = {p: td_attractor(p, doc[f"objectifs{p}"]) for p in (1, 2)}
    assert doc["init"] in attr[2] and doc["init"] not in attr[1]
    model = load_model(path)
    for eng in (ExplicitGame(model.game), SymbolicGame(model.game, backend="cudd")):
        ev = atl.Evaluator(eng, model.definitions)
        for p in (1, 2):
            target = ev(atl.Ref(f"Obj{p}"))
            assert {s for (s,) in attractor(eng, [p], target).result} == attr[p]
            # no dead end, so ATL's <<p>> <> agrees with the TD's attractor
            assert {s for (s,) in ev(model.queries[2 * (p - 1)].formula)} == attr[p]
        assert not eng.deadlocks()


#: what each model's header (the description, for the arena) cites as its source
SOURCES = {
    "ens2005.game": "Jeux à plusieurs et coalitions",
    "subtraction.game": "Jeux à plusieurs et coalitions",
    "nim.game": "notebook on Nim and the Sprague–Grundy",
    "tictactoe.game": "TD (tutorial sheet) on two-player reachability games",
    "td_example.arena.json": "TD (tutorial sheet) on two-player reachability games",
    "chocolate.game": "le jeu du chocolat",
    "chomp.game": "internship report on Hackendot and Chomp",
    "hackendot.game": "internship report on Hackendot and Chomp",
    "kayles.game": "notebook on Nim and the Sprague–Grundy theorem",
    "dawson.game": "notebook on Nim and the Sprague–Grundy theorem",
    "grundy_game.game": "notebook on Nim and the Sprague–Grundy theorem",
    "subtraction_set.game": "notebook on Nim and the Sprague–Grundy theorem",
    "connect4.game": "Connect Four",
    "connect4-compact.game": "Connect Four",
    "pennies.game": "Alur, Henzinger and Kupferman",
    "rps.game": "Alur, Henzinger and Kupferman",
    "train_gate.game": "Alur, Henzinger and Kupferman",
    "race.game": "Jeux à plusieurs et coalitions",
}


def test_header_comments_name_their_source():
    # every shipped model names its source text in words (test_self_contained.py:
    # and never by a path out of the repository)
    assert sorted(SOURCES) == sorted(p.name for p in model_files())
    for path in model_files():
        head = path.read_text(encoding="utf-8")[:600]
        assert SOURCES[path.name] in " ".join(head.split()), path.name


# --------------------------------------------------------------------------- Connect Four


def c4_lines(w: int, h: int, a: int) -> list[tuple[int, ...]]:
    """Every line of a cells (0-based column-major indices col*h + r), by brute force."""
    out = []
    for col in range(w):
        for r in range(h):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + t * dc, r + t * dr) for t in range(a)]
                if all(0 <= x < w and 0 <= y < h for x, y in cells):
                    out.append(tuple(x * h + y for x, y in cells))
    return out


def c4_outcomes(w: int, h: int, a: int) -> dict[tuple, tuple[bool, bool]]:
    """{board: (player 1 can force a line, player 2 can)} for every board with discs
    resting on discs and balanced counts, by backward induction over the drops."""
    lines = c4_lines(w, h, a)

    def won(b, p):
        return any(all(b[i] == p for i in line) for line in lines)

    boards = [()]
    for _ in range(w * h):  # every colouring, then keep the legal ones
        boards = [b + (v,) for b in boards for v in (0, 1, 2)]
    legal = [
        b
        for b in boards
        if all(
            b[col * h + r] == 0 or b[col * h + r - 1] != 0 for col in range(w) for r in range(1, h)
        )
        and 0 <= b.count(1) - b.count(2) <= 1
    ]
    memo: dict = {}

    def forces(b, p):
        key = (b, p)
        if key not in memo:
            if won(b, p):
                memo[key] = True
            elif won(b, 3 - p) or 0 not in b:
                memo[key] = False
            else:
                mover = 1 if b.count(1) == b.count(2) else 2
                succ = []
                for col in range(w):
                    cells = [col * h + r for r in range(h) if b[col * h + r] == 0]
                    if cells:
                        s = list(b)
                        s[cells[0]] = mover
                        succ.append(tuple(s))
                results = [forces(s, p) for s in succ]
                memo[key] = any(results) if mover == p else all(results)
        return memo[key]

    return {b: (forces(b, 1), forces(b, 2)) for b in legal}


@pytest.mark.parametrize("params", [{"w": 3, "h": 3, "a": 3}, {"w": 2, "h": 4, "a": 2}])
def test_connect4_forced_wins_by_backward_induction(params):
    model, eng, ev = solve("connect4.game", params)
    w, h = params["w"], params["h"]
    truth = c4_outcomes(w, h, params["a"])
    assert len(eng.positions()) == len(truth), (len(eng.positions()), len(truth))
    for p in (1, 2):
        got = {
            tuple(d[f"c[{i}]"] for i in range(1, w * h + 1))
            for d in as_dicts(ev(model.formula(f"forces_win({p})")))
        }
        want = {b for b, wins in truth.items() if wins[p - 1]}
        assert got == want, (p, sorted(got ^ want)[:3])


def compact_to_cells(bits: tuple, w: int, h: int, base: tuple) -> tuple:
    """A board of connect4-compact.game (w·(h+1) bits, a column's discs under its
    highest 1; column col's bits from ``base[col]``, the model's BASE) as connect4.game's
    cells (0 empty, 1, 2), column by column."""
    cells = []
    for col in range(w):
        column = bits[base[col] : base[col] + h + 1]
        top = max(r for r, b in enumerate(column) if b)  # the marker
        cells.extend(column[r] + 1 if r < top else 0 for r in range(h))
    return tuple(cells)


@pytest.mark.parametrize(
    "params",
    [
        {"w": 3, "h": 3, "a": 3},
        {"w": 2, "h": 4, "a": 2},
        {"w": 4, "h": 2, "a": 2},  # an even width: two centre columns
        pytest.param({"w": 4, "h": 3, "a": 3}, marks=pytest.mark.slow),
        {"w": 3, "h": 3, "a": 3, "centre": 0},
        {"w": 5, "h": 2, "a": 3},
    ],
)
def test_connect4_compact_is_connect4_position_for_position(params):
    # the two encodings have the same positions, and each of forces_win(1), forces_win(2)
    # and the turn sets is the same set once the compact boards are decoded (the columns'
    # blocks from the centre outward by default, or in order)
    plain_params = {k: v for k, v in params.items() if k != "centre"}
    plain, pe, pev = solve("connect4.game", plain_params)
    compact, ce, cev = solve("connect4-compact.game", params)
    w, h = params["w"], params["h"]
    base = compact.consts["BASE"]
    want_blocks = list(range(w)) if params.get("centre") == 0 else None
    blocks = [b // (h + 1) for b in base]
    assert sorted(blocks) == list(range(w)), base
    if want_blocks is not None:
        assert blocks == want_blocks, base
    else:  # the centre column first, the edge columns last
        assert blocks[(w - 1) // 2] == 0 and max(blocks[0], blocks[-1]) == w - 1, base
    decoded = [compact_to_cells(t, w, h, base) for t in ce.positions().tuples()]
    assert len(set(decoded)) == len(decoded), "two compact boards decode to one board"
    assert set(decoded) == set(pe.positions().tuples()), sorted(
        set(decoded) ^ set(pe.positions().tuples())
    )[:3]
    for text in ("forces_win(1)", "forces_win(2)", "over", "turn(1)"):
        got = {compact_to_cells(t, w, h, base) for t in cev(compact.formula(text)).tuples()}
        want = set(pev(plain.formula(text)).tuples())
        assert got == want, (text, sorted(got ^ want)[:3])


@pytest.mark.parametrize(
    "params",
    [
        {"w": 4, "h": 3, "a": 3},
        {"w": 3, "h": 4, "a": 3},  # an odd width
        pytest.param({"w": 4, "h": 4, "a": 4}, marks=pytest.mark.slow),
        pytest.param({"w": 5, "h": 3, "a": 3}, marks=pytest.mark.slow),
    ],
)
def test_connect4_compact_ply_table_is_connect4s(params):
    # the per-ply win/draw/loss table of the two encodings, on the symbolic engine (oxidd
    # and cudd), equal row for row
    from symbolic.analysis.layered import layer_outcomes

    tables = {}
    for name in ("connect4.game", "connect4-compact.game"):
        model = load(MODELS / name, params)
        for backend in ("oxidd", "cudd"):
            eng = make_engine(model.game, "symbolic", backend)
            tables[name, backend] = layer_outcomes(model.definitions, eng).rows
    first = tables["connect4.game", "cudd"]
    for key, rows in tables.items():
        assert rows == first, (key, [(a, b) for a, b in zip(rows, first) if a != b][:3])
