"""The tic-tac-toe questions of the reachability-games TD (part 3, Q18–Q30),
answered by an engine from ``models/tictactoe.game`` (package data).

- ``boards`` (Q18): every board, each cell empty, 'O' or 'X': the value vectors
  of the model's space, counted by a set engine without the model's invariant;
- ``legal`` (Q22): the boards of the model's set ``legal``;
- ``reachable`` (Q27): reach(empty), the boards reached from the empty board
  by legal play that stops at the first line (the image fixpoint);
- ``attractor1``, ``attractor2`` (Q28): |Attr_p(win(p)) ∩ reachable|, with the
  TD's attractor (``symbolic.api.attractor``, an opponent's dead end is not forced);
- ``winner`` (Q29): 1 or 2 when the empty board is in that player's attractor,
  else None;
- ``strategy1``, ``strategy2`` (Q12, Q30): the size of the TD's strategy table of
  each player: one move per board of the player in its attractor, among the
  reached boards, outside its win set;
- ``draw1``, ``draw2`` (Q30, when nobody wins): the size of the table with which
  a player keeps the opponent from completing a line until the game is over
  (⟨⟨p⟩⟩ over R ¬win(p̄), a greatest fixpoint: □ alone would ask for an endless
  play, which a finished board, a dead end, cannot give), over the boards met
  from the empty board when p follows it.
"""

from __future__ import annotations

from importlib import resources

from .. import atl
from ..api import DeadEnds, reachable
from ..engines import make_engine, make_sets
from ..model import Model, parse_model
from ..analysis.strategy import reach_strategy, release_strategy

__all__ = ["KEYS", "load", "answers"]

KEYS = (
    "boards",
    "legal",
    "reachable",
    "attractor1",
    "attractor2",
    "winner",
    "strategy1",
    "strategy2",
    "draw1",
    "draw2",
)


def load() -> Model:
    """``models/tictactoe.game``, read as package data."""
    text = resources.files("symbolic").joinpath("models/tictactoe.game").read_text("utf-8")
    return parse_model(text, "tictactoe.game")


def answers(
    engine: str = "symbolic",
    backend: str = "auto",
    model: Model | None = None,
    with_strategies: bool = False,
) -> dict:
    """The answers as a dict with the keys :data:`KEYS`; with ``with_strategies``
    also ``"_strategies"``: the :class:`~symbolic.analysis.strategy.Strategy` objects
    (``win1``, ``win2``, ``draw1``, ``draw2``) and ``"_engine"``."""
    m = model or load()
    g = m.game
    e = make_engine(g, engine, backend)
    ev = atl.Evaluator(e, m.definitions)
    empty, legal, over = (ev(m.formula(n)) for n in ("empty", "legal", "over"))
    win = {p: ev(m.formula(f"win({p})")) for p in (1, 2)}
    reached = reachable(e, empty).result
    out: dict = {
        "boards": len(make_sets(g.space, engine, backend).positions()),
        "legal": len(legal),
        "reachable": len(reached),
    }
    strategies = {}
    for p in (1, 2):
        s = reach_strategy(e, {p}, e.positions(), win[p], DeadEnds.STRICT)
        strategies[f"win{p}"] = s
        out[f"attractor{p}"] = len(s.region & reached)
    out["winner"] = next((p for p in (1, 2) if empty <= strategies[f"win{p}"].region), None)
    for p in (1, 2):
        out[f"strategy{p}"] = len(strategies[f"win{p}"].table(reached))
    for p in (1, 2):
        s = release_strategy(e, {p}, over, ~win[3 - p], DeadEnds.VACUOUS)
        strategies[f"draw{p}"] = s
        out[f"draw{p}"] = len(s.table(s.outcome(empty)))
    if with_strategies:
        out["_strategies"] = strategies
        out["_engine"] = e
    return out
