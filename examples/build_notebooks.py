"""Write the example notebooks (one per source text), run them, and store them with
their outputs (pictures included), so that a reader browsing the repository sees them.

Run from anywhere: ``python examples/build_notebooks.py`` (the kernel is this
interpreter's; nbclient and ipykernel are in the test extra); tests/test_notebooks.py
runs every notebook again and compares its outputs with the stored ones.
"""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

SETUP = """\
from pathlib import Path
import symbolic
from symbolic import atl
from symbolic.engines import make_engine
from symbolic.model import load_model
from symbolic import pictures

MODELS = Path(symbolic.__file__).parent / "models"   # the shipped models"""

NOTEBOOKS = {}

NOTEBOOKS["ens2005_coalitions"] = [
    ("md", """\
# Multi-player Nim and coalitions (ENS 2005 exam)

The exam studies a Nim game for N players with n columns of matches. The allowed
moves are n-tuples drawn from a pseudo-random sequence started at the candidate's
number u0; a move takes d[t] matches from every column t at once, then the next
player moves. A player with no applicable move is stuck. The exam then asks which
*coalitions* J of players can force some player outside J to get stuck: the ATL
formula F_J. Here the model `ens2005.game` states the game, and the answer sheet
`symbolic.seeds.ens2005` answers every question for a given u0."""),
    ("code", SETUP + """
m = load_model(MODELS / "ens2005.game", {"u0": 42, "K": 12})
print(m.description)
print("parameters:", m.params)
print("rules R:", m.consts["R"])"""),
    ("md", """\
## The answer sheet (Questions 1 and 3 to 12)

Q1 is about the sequence itself; Q3 to Q12 use the set operations, the
pre-images pre∃ / pre∀, the until fixpoint and the formulas F_J, Gagne, Perd and
Traître (computed with the default exam parameters for this u0)."""),
    ("code", """\
from symbolic.seeds.ens2005 import answer_sheet, format_sheet
sheet = answer_sheet(42)
print(format_sheet(sheet))"""),
    ("md", """\
## The same notions through the Python API

The set operations of section 2 and the pre-images of section 3 are methods of an
engine; every result is a set of positions, which shows itself as a count and a
short table."""),
    ("code", """\
e = make_engine(m.game)                      # the BDD engine
mine = e.turn_set({1})                        # positions where player 1 moves
stuck = atl.evaluate(e, m.formula("stuck"), m.definitions)
pre = e.pre_exists({1}, stuck)                # player 1 can move into `stuck`
pre"""),
    ("code", """\
F1 = atl.evaluate(e, m.formula("F({1})"), m.definitions)
F12 = atl.evaluate(e, m.formula("F({1, 2})"), m.definitions)
print(f"F_{{1}} holds at {F1.count()} of {e.positions().count()} positions, "
      f"F_{{1,2}} at {F12.count()}")
# not monotone: F_{1,2} needs player 3 stuck, while F_{1} is also won when player 2 is
print("positions of F_{1} outside F_{1,2}:", (F1 - F12).count())
F1"""),
    ("md", """\
## Where player 1 alone wins

With three players, fix whose turn it is and look at F_{1} over the two columns.
Blue cells are the positions (k[1], k[2]) from which player 1 can force another
player to be stuck."""),
    ("code", """\
pictures.set_grid(F1, "k[1]", "k[2]", {"j": 1}, title="F({1}), player 1 to move")"""),
    ("code", """\
pictures.set_grid(F12, "k[1]", "k[2]", {"j": 3}, title="F({1, 2}), player 3 to move")"""),
    ("md", """\
## Treason, and a cross-check

Traître_1: players 1 and 2 cooperate until player 3 has lost, after which player
1 can win alone. The explicit engine (a plain graph search) must find exactly the
same sets as the BDD engine."""),
    ("code", """\
from symbolic.api import same_sets
T = atl.evaluate(e, m.formula("Traître_1"), m.definitions)
x = make_engine(m.game, "explicit")
for name in ("F({1})", "F({1, 2})", "Traître_1"):
    a = atl.evaluate(e, m.formula(name), m.definitions)
    b = atl.evaluate(x, m.formula(name), m.definitions)
    assert same_sets(a, b), name
    print(f"{name}: {a.count()} positions, both engines agree")"""),
]

NOTEBOOKS["nim_sprague_grundy"] = [
    ("md", """\
# Nim and the Sprague–Grundy values

Classic Nim: heaps of matches, a move takes any positive number of matches from
one heap, and the player who cannot move loses. Bouton's theorem says the player
to move loses exactly when the xor of the heap sizes is 0; the Sprague–Grundy value
(nimber) of a Nim position is that xor. We check both with the engines, draw
them, and let an optimal player meet a random one."""),
    ("code", SETUP + """
m = load_model(MODELS / "nim.game", {"n": 2, "K": 7})
e = make_engine(m.game)
lost = atl.evaluate(e, m.formula("not mover_wins"), m.definitions)
lost"""),
    ("md", "The positions where the player to move loses (P-positions) of two-heap Nim: the diagonal, equal heaps."),
    ("code", """\
pictures.set_grid(lost, "k[1]", "k[2]", {"j": 1}, title="P-positions of two-heap Nim")"""),
    ("md", """\
## Nimbers

The nimber of a position is the least number that is not the nimber of one of its
successors (the mex). It is computed here on sets of positions, one value at a
time, and it is the xor of the heaps."""),
    ("code", """\
from symbolic.analysis.grundy import layered_nimbers
N = layered_nimbers(e)
assert all(N.of(p) == p[1] ^ p[2] for p in e.positions())
N"""),
    ("code", """\
pictures.nimbers_grid(N, "k[1]", "k[2]", {"j": 1}, title="two-heap Nim")"""),
    ("md", """\
With three heaps the rule still holds (the model states it bit by bit as the set
`nim_sum_zero`; the last query of the model says the two agree everywhere)."""),
    ("code", """\
m3 = load_model(MODELS / "nim.game", {"n": 3, "K": 7})
e3 = make_engine(m3.game)
agree = atl.evaluate(e3, m3.formula("mover_wins iff not nim_sum_zero"), m3.definitions)
assert agree == e3.positions()
N3 = layered_nimbers(e3)
assert all(N3.of(p) == p[1] ^ p[2] ^ p[3] for p in e3.positions())
print("three heaps:", e3.positions().count(), "positions, nimber = xor of the heaps everywhere")
print("a winning move from (3, 5, 7):", N3.optimal_moves((1, 3, 5, 7)).tuples())"""),
    ("md", """\
## An optimal player against a random one

The solver moves into the positions of nimber 0 when it can (that is, it plays
the fastest forced win); the random player picks any move. From the full heaps
the player who moves first wins, whatever the other does."""),
    ("code", """\
import random
from symbolic.analysis.play import Planner, Referee, random_player, run_play, solver_player
rules = Referee(e3)
planner = Planner(e3, rules)
wins = 0
for seed in range(20):
    players = {1: solver_player(planner, {1}), 2: random_player(random.Random(seed))}
    play = run_play(e3, rules, players, (1, 7, 7, 7), 100)
    wins += play.outcome.winners == (1,)
print(f"the solver (player 1) won {wins} of 20 games")
assert wins == 20"""),
    ("md", "The value of each move, written on the heap it changes (+k: win in k moves):"),
    ("code", """\
pictures.board(m3, e3, (1, 3, 5, 7))"""),
    ("md", "A winning strategy of player 1 from heaps (3, 2), as a graph: its moves bold, the replies thin."),
    ("code", """\
from symbolic.analysis.strategy import strategy_for
s = strategy_for(e, m.formula("wins(1)"), m.definitions)
pictures.strategy_graph(s, e.singleton((1, 3, 2)))"""),
]

NOTEBOOKS["reachability_tictactoe"] = [
    ("md", """\
# Two-player reachability games and tic-tac-toe

An arena is a directed graph whose vertices belong to player 1 or player 2; each
player wants to reach a set of target vertices. The attractor of player i is the
set of vertices from which i can force the play into its targets: the targets,
then every vertex of i with *some* edge into the set, and every vertex of the
opponent with edges, *all* into the set, until nothing changes. Reading a move off
the layers of that computation gives a winning strategy as a dictionary."""),
    ("code", SETUP + """
from symbolic.api import DeadEnds, attractor
from symbolic.analysis.strategy import reach_strategy, verify
a = load_model(MODELS / "td_example.arena.json")
g = make_engine(a.game, "explicit")
obj1 = atl.evaluate(g, a.formula("Obj1"), a.definitions)
obj2 = atl.evaluate(g, a.formula("Obj2"), a.definitions)
A1 = attractor(g, {1}, obj1).result
A2 = attractor(g, {2}, obj2).result
print("Attr_1 =", [s for (s,) in A1], " Attr_2 =", [s for (s,) in A2])"""),
    ("code", """\
s2 = reach_strategy(g, {2}, g.positions(), obj2, DeadEnds.STRICT)
print("player 2's strategy:", {c[0]: d[0] for c, d in s2.table().items()})
check = verify(g, s2.objective, s2.table(), g.from_tuples([(0,)]))
print("checked against every reply of player 1:", check.ok)
s2"""),
    ("code", """\
pictures.strategy_graph(s2, g.from_tuples([(0,)]), label=lambda c: str(c[0]))"""),
    ("md", """\
## Tic-tac-toe

The boards of tic-tac-toe: each of the 9 cells is empty, O (player 1) or X
(player 2). The sheet `symbolic.seeds.tictactoe` counts the boards, the legal ones,
those reached from the empty board, the two attractors, the winner and the sizes
of the strategy tables."""),
    ("code", """\
from symbolic.seeds.tictactoe import answers
ttt = answers()
for key, value in ttt.items():
    print(f"{key:>10}: {value}")"""),
    ("md", """\
Nobody can force a win from the empty board: every first move is a draw with best
play (`=` on each cell)."""),
    ("code", """\
t = load_model(MODELS / "tictactoe.game")
te = make_engine(t.game)
empty = (0,) * 9
pictures.board(t, te, empty)"""),
    ("md", """\
After O in a corner and X on an edge next to it, O has a forced win: the moves
marked +k win within k moves."""),
    ("code", """\
pos = (1, 2, 0, 0, 0, 0, 0, 0, 0)
pictures.board(t, te, pos)"""),
    ("code", """\
from symbolic.analysis.play import drawer
from symbolic.analysis.strategy import strategy_for
win1 = strategy_for(te, t.formula("forces_win(1)"), t.definitions)
start = te.singleton((1, 2, 0, 0, 1, 0, 0, 0, 2))
pictures.strategy_graph(win1, start, label=drawer(t.display, t.game.space, str))"""),
]

NOTEBOOKS["chocolate"] = [
    ("md", """\
# The chocolate bar and the square of death

An m × n bar holds one poisoned square. A move breaks the bar along a line and
hands over the part with the poisoned square; whoever receives the poisoned
square alone loses. A position is described by four distances: the columns left
(l) and right (r) of the square, the rows above (u) and below (d) it. The value
of a position is +k when the player to move wins within k moves, and −k when they
lose but can hold out for k moves."""),
    ("code", SETUP + """
from symbolic.analysis.values import two_player_values, recurrence_value
m = load_model(MODELS / "chocolate.game")          # 10 × 7, square at column 7, row 3
e = make_engine(m.game)
V = two_player_values(e)
start = atl.evaluate(e, m.formula("initial"), m.definitions).first()
print("the whole bar", start, "has value", V.value(start))
V"""),
    ("md", """\
## The values around the square of death

Keeping r and d as in the whole bar, the grid below gives the value for every
l and u; red cells are losing for the player to move."""),
    ("code", """\
pictures.values_grid(V, "l", "u", {}, start, title="chocolate 10 x 7")"""),
    ("code", """\
pictures.values_grid(V, "l", "r", {"u": 0, "d": 0}, start, title="a single row")"""),
    ("md", """\
## The recurrence

The text computes a value from those of the successors: 0 without a move, else
1 − (the largest non-positive successor value) when one exists, else
−(1 + the largest). The layered fixpoints agree with it on every position."""),
    ("code", """\
for p in e.positions():
    succ = [V.value(s) for s in e.successors(p)]
    assert V.value(p) == recurrence_value(succ), p
print("recurrence checked on", e.positions().count(), "positions")"""),
    ("md", """\
## A bar is four Nim heaps

The player to move wins exactly when l xor r xor u xor d is not 0 (the model's
last query states it; here we check it through the values)."""),
    ("code", """\
for p in e.positions():
    _, l, r, u, d = p
    assert (V.value(p) > 0) == ((l ^ r ^ u ^ d) != 0), p
print("the xor rule holds everywhere")"""),
    ("md", "The bar as a board, each possible break labelled with its value (written where the break first changes the picture):"),
    ("code", """\
small = load_model(MODELS / "chocolate.game", {"m": 5, "n": 4, "i": 2, "j": 1})
se = make_engine(small.game)
pictures.board(small, se, (1, 2, 2, 1, 2))"""),
]

NOTEBOOKS["hackendot_chomp"] = [
    ("md", """\
# Hackendot and Chomp

Two games of the internship report. **Hackendot**: a forest; a move removes a node
together with the path up to its root; whoever removes the last node wins. A
forest is written as a Dyck word, each matched pair of parentheses a node.
Ulehla's method decides the winner by colouring nodes and stripping the white
ones. **Chomp revisité**: a board of squares; a move removes a whole row or
column (or, in the other reading, the squares from one square to the edge)."""),
    ("code", SETUP + """
from symbolic.seeds.hackendot import CORRECTED, LITERAL, Forest, all_dyck, nimber, wins
word = "(()(()))(())()"
f = Forest.from_word(word)
print(word, ":", len(f), "nodes, roots", f.roots())
print("Ulehla (corrected reading) says the first player wins:", wins(f, CORRECTED))
print("nimber of the forest:", nimber(f))"""),
    ("md", "The engine answers the same question from the model `hackendot.game`:"),
    ("code", """\
h = load_model(MODELS / "hackendot.game", {"word": word})
he = make_engine(h.game)
first = atl.evaluate(he, h.formula("initial and mover_wins"), h.definitions)
print("the engine says the first player wins:", bool(first))
assert bool(first) == wins(f, CORRECTED)"""),
    ("md", """\
Which reading of the report is right? Compare both readings with the nimbers
(a position is lost exactly when its nimber is 0) on every forest of 5 nodes."""),
    ("code", """\
bad = {"literal": 0, "corrected": 0}
forests = list(all_dyck(5))
for w in forests:
    g = Forest.from_word(w)
    truth = nimber(g) != 0
    bad["literal"] += wins(g, LITERAL) != truth
    bad["corrected"] += wins(g, CORRECTED) != truth
print(len(forests), "forests; wrong verdicts:", bad)
assert bad["corrected"] == 0"""),
    ("md", """\
## Chomp revisité

The nimbers of all tablets inside a 3 × 3 board, under both readings of a move,
and the report's claims checked against them."""),
    ("code", """\
from symbolic.seeds.chomp import board_nimbers, tablet_nimbers, verdicts
lines = board_nimbers(3, edge=False)
edges = board_nimbers(3, edge=True)
print("whole rows or columns:", tablet_nimbers(lines, 3))
print("to the edge:          ", tablet_nimbers(edges, 3))
for v in verdicts(edges, 3):
    print(f"{v.verdict:>8}  {v.claim.where}: {v.claim.text}")"""),
    ("md", "The tablets' nimbers (to-the-edge reading) as a picture:"),
    ("code", """\
c = load_model(MODELS / "chomp.game", {"R": 3, "C": 3, "edge": True})
ce = make_engine(c.game)
from symbolic.analysis.grundy import layered_nimbers
N = layered_nimbers(ce)
tab = tablet_nimbers(edges, 3)
from matplotlib.figure import Figure
fig = Figure(figsize=(3.2, 2.8), layout="constrained")
ax = fig.add_subplot()
grid = [[tab[(n, k)] for k in range(1, 4)] for n in range(1, 4)]
top = max(max(row) for row in grid)
ax.imshow(grid, cmap="viridis", origin="lower", extent=(0.5, 3.5, 0.5, 3.5), vmin=0, vmax=top)
ax.set_xticks([1, 2, 3]); ax.set_yticks([1, 2, 3])   # whole rows and columns only
for n in range(1, 4):
    for k in range(1, 4):   # dark figures on the light (high) cells, white on the dark
        ax.text(k, n, tab[(n, k)], ha="center", va="center",
                color="black" if tab[(n, k)] > top / 2 else "white")
ax.set_xlabel("columns m"); ax.set_ylabel("rows n"); ax.set_title("nimber of the n x m tablet")
pictures.Picture(fig, {"title": "nimber of the n x m tablet"})   # shows itself as SVG"""),
]


def build(name: str, cells) -> nbformat.NotebookNode:
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                               "language": "python"}})
    # stable cell ids: rebuilding writes the same files
    nb.cells = [new_markdown_cell(src, id=f"cell-{i}") if kind == "md"
                else new_code_cell(src, id=f"cell-{i}") for i, (kind, src) in enumerate(cells)]
    return nb


def run(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` executed from top to bottom in a kernel of this interpreter, in examples/
    (no timings recorded: running it again writes the same file)."""
    import nbclient

    nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=300,
        record_timing=False,
        resources={"metadata": {"path": str(HERE)}},
    ).execute()
    return nb


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        path = HERE / f"{name}.ipynb"
        nbformat.write(run(build(name, cells)), path)
        print(path.relative_to(HERE.parent))


if __name__ == "__main__":
    main()
