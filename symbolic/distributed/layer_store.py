"""The work directory of a ply-by-ply table in one process: its layers on disk, so that a
run stopped by a limit (``--timeout``, ``--max-memory``, Ctrl-C) resumes where it stopped.

``symbolic values MODEL --by-layer --work-dir DIR`` (without ``--workers``) keeps in DIR,
through a :class:`~symbolic.distributed.store.TaskStore` (the game's identity hashed into
every name, each file written whole then renamed):

- the forward pass once it is done: the layers F_0 … F_n and their union, one file;
- the backward pass as it goes: the won sets U_p of the lowest layer solved and the rows
  of every layer solved, one file replaced as the pass goes down. It is written when the
  work since the last write took at least :data:`CHECKPOINT_RATIO` times what the last
  write took, so that writing costs at most about 1/CHECKPOINT_RATIO of the run
  (and always once the table is done).

A rerun with the same model, parameters, backend, order, partition and DIR reads the
layers instead of computing them and continues the backward pass from the lowest layer
solved: the table is the one an uninterrupted run gives (the sets are the same
canonical BDDs). The BDDs are the wire's bytes (:mod:`~symbolic.distributed.wire`:
oxidd's DDDMP, CUDD's list of nodes), so the store needs the cudd or oxidd backend.
"""

from __future__ import annotations

import time
from typing import Any

from ..api import PositionSet
from ..bdd.sets import BddSet, SymbolicSets
from ..errors import QueryError
from ..fixpoint import ReachLayers
from .store import TaskStore
from .wire import check_wire_backend, dump_nodes, load_nodes
from .worker import WorkSpec

__all__ = ["LayerStore", "CHECKPOINT_RATIO"]

#: the backward pass is written when the work since the last write took this many times
#: the last write (so writing takes about 1/CHECKPOINT_RATIO of the run at most)
CHECKPOINT_RATIO = 10


# the names of the two files (their version: a file of another shape is not read)
_LAYERS = "table-layers-1"
_SOLVED = "table-solved-1"


def _solved_meta(meta, players) -> bool:
    """True when ``meta`` is [k, players, rows] as :meth:`LayerStore.save_solved` writes it."""
    if not (isinstance(meta, list) and len(meta) == 3):
        return False
    k, who, rows = meta
    return (
        isinstance(k, int)
        and isinstance(who, (list, tuple))
        and list(who) == sorted(players)
        and isinstance(rows, (list, tuple))
        and all(isinstance(r, (list, tuple)) and len(r) == 4 for r in rows)
    )


class LayerStore:
    """The layers and the solved rows of the ply-by-ply table of the game of ``spec`` in
    ``directory`` (created when missing), for the BDD engine ``engine`` (cudd or oxidd:
    QueryError otherwise). ``read`` names what a run read from it (for the caller's note).

    >>> import tempfile
    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> from symbolic.analysis.layered import layer_outcomes
    >>> m = load_model("models/tictactoe.game")
    >>> e = make_engine(m.game, "symbolic", backend="cudd")
    >>> d = tempfile.mkdtemp()
    >>> spec = WorkSpec("models/tictactoe.game", (), "cudd")
    >>> first = layer_outcomes(m.definitions, e, store=LayerStore(d, spec, e))
    >>> again = LayerStore(d, spec, e)
    >>> layer_outcomes(m.definitions, e, store=again) == first, again.read
    (True, ['the 10 layers', 'layers 0 to 9 solved'])
    """

    def __init__(self, directory: str, spec: WorkSpec, engine):
        if not isinstance(engine, SymbolicSets):
            raise QueryError("a work directory keeps the symbolic engine's BDDs only")
        check_wire_backend(engine.manager.backend)
        self.engine: Any = engine  # a game engine of SymbolicSets (its .game)
        self.tasks = TaskStore(directory, spec)
        self.read: list[str] = []
        self._since = time.monotonic()  # the start of the work not yet written
        self._cost = 0.0  # seconds the last write took

    # ------------------------------------------------------------------ the forward pass

    def load_reach(self) -> ReachLayers | None:
        """The graded layers written by an earlier run, or None."""
        got = self.tasks.get(self.tasks.key(_LAYERS, ()))
        if got is None or not (len(got[1]) == 1 and isinstance(got[1][0], int)):
            return None
        data, meta, _ = got
        nodes = load_nodes(self.engine.manager, data)
        if len(nodes) != meta[0] + 1:
            return None
        sets = [BddSet._make(self.engine, u) for u in nodes]
        self.read.append(f"the {meta[0]} layers")
        return ReachLayers(sets[-1], tuple(sets[:-1]), True)

    def save_reach(self, reach: ReachLayers) -> None:
        """Keep the graded layers and their union."""
        nodes = [s.node for s in (*reach.layers, reach.result)]
        data = dump_nodes(self.engine.manager, nodes)
        self.tasks.put(self.tasks.key(_LAYERS, ()), (data, [len(reach.layers)], {}))
        self._since = time.monotonic()

    # ------------------------------------------------------------------ the backward pass

    def load_solved(self) -> tuple[int, dict, list] | None:
        """(k, {p: U_p of layer k}, the rows of layers k and above) written by an earlier
        run, or None."""
        got = self.tasks.get(self.tasks.key(_SOLVED, ()))
        if got is None or not _solved_meta(got[1], self.engine.game.players):
            return None  # none, or not of this version's shape: solved again
        data, (k, players, rows), _ = got
        nodes = load_nodes(self.engine.manager, data)
        won = {p: BddSet._make(self.engine, u) for p, u in zip(players, nodes)}
        self.read.append(f"layers {k} to {k + len(rows) - 1} solved")
        return k, won, [tuple(r) for r in rows]

    def save_solved(self, k: int, won: dict[int, PositionSet], rows: list, *, done: bool) -> None:
        """Keep the won sets of layer k and the rows so far, when the work since the last
        write took :data:`CHECKPOINT_RATIO` times the last write, or when ``done``."""
        now = time.monotonic()
        if not done and now - self._since < CHECKPOINT_RATIO * self._cost:
            return
        players = sorted(won)
        data = dump_nodes(self.engine.manager, [won[p].node for p in players])  # type: ignore[attr-defined]
        meta = [k, players, [list(r) for r in rows]]
        self.tasks.put(self.tasks.key(_SOLVED, ()), (data, meta, {}))
        self._since = time.monotonic()
        self._cost = self._since - now
