"""Moves by name, with stable numbers (issue 34).

A move of a model file is named as the model writes it, its name and its parameters'
values: ``take(1, 2)``, ``drop(3, 0)``; a GDL move as GDL writes it, ``(mark 1 2)``.
A move's number is its place (from 1) in the model's full list of moves: every move
in declaration order, each at every valuation of its parameters in order (a GDL move:
its IR move, one per role and move term). So a move keeps its number as long as it is
legal, whatever else is. The moves legal at a position are found by the explicit
interpreter (:meth:`symbolic.explicit.ExplicitGame.transitions`), one position at a
time, whatever engine computed the successors.

>>> from symbolic.model import load_model
>>> names = MoveNames(load_model("nim", {"n": "2", "K": "3"}))
>>> [(m.number, m.name, m.target) for m in names.legal((1, 1, 0))]
[(1, 'take(1, 1)', (2, 0, 0))]
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from ..errors import QueryError
from ..engines import ExplicitGame
from ..gdl.explicit_concurrent import GdlExplicitConcurrentGame
from ..gdl.game import GdlGame
from ..gdl.ground import term_text
from ..ir import ConcurrentGame, Game
from ..model import Model
from .common import build_engine

__all__ = ["Named", "MoveNames", "value_words", "numbered", "Joint", "joint_actions"]


class Named(NamedTuple):
    """A legal move at a position: its stable ``number``, its ``name`` and the position
    it leads to (``target``)."""

    number: int
    name: str
    target: tuple


def value_words(v) -> str:
    """A parameter value as a model writes it: ``3``, ``true``, ``(1, 2)``.

    >>> value_words((1, (2, False)))
    '(1, (2, false))'
    """
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "(" + ", ".join(value_words(x) for x in v) + ")"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)


class MoveNames:
    """The names and numbers of a turn-based model's moves (module docstring)."""

    def __init__(self, model: Model):
        game = model.game
        if not isinstance(game, Game):
            raise QueryError(f"moves are named for turn-based games, not {type(game).__name__}")
        self.game = game
        self._explicit: ExplicitGame | None = None
        self._offset: dict[str, int] = {}
        self._index: dict[str, list[dict]] = {}
        self._params = {m.name: m.params for m in game.moves}
        n = 0
        for m in game.moves:
            self._offset[m.name] = n
            self._index[m.name] = [{v: i for i, v in enumerate(p.domain)} for p in m.params]
            size = 1
            for p in m.params:
                size *= len(p.domain)
            n += size
        self.total = n
        self._gdl = (
            {name: term_text(move) for name, (_, move) in game.names.move_named.items()}
            if isinstance(game, GdlGame)
            else None
        )

    def number(self, move: str, env: dict) -> int:
        """The number of ``move`` at the valuation ``env`` (its parameters by name)."""
        n, radix = 0, self._index[move]
        for p, index in zip(self._params[move], radix):
            n = n * len(index) + index[env[p.name]]
        return self._offset[move] + n + 1

    def name(self, move: str, env: dict) -> str:
        """``move`` at ``env`` as the model writes it."""
        if self._gdl is not None:
            return self._gdl[move]
        params = self._params[move]
        if not params:
            return move
        return f"{move}({', '.join(value_words(env[p.name]) for p in params)})"

    def legal(self, pos: tuple) -> list[Named]:
        """The moves legal at ``pos``, by number (a move with several outcomes once per
        outcome, in the order of the outcomes)."""
        if self._explicit is None:  # lazy: no position is enumerated
            self._explicit = ExplicitGame(self.game)
        out = [
            Named(self.number(move, env), self.name(move, env), target)
            for move, env, target in self._explicit.transitions(pos)
        ]
        return sorted(out, key=lambda m: (m.number, m.target))

    def between(self, pos: tuple, target: tuple) -> str:
        """The name of the move from ``pos`` to ``target`` (names joined by `` or `` when
        several moves lead there; ``?`` when none does)."""
        names = [m.name for m in self.legal(pos) if m.target == target]
        return " or ".join(dict.fromkeys(names)) or "?"

    def names_of(self, pos: tuple, targets: Iterable[tuple]) -> list[str]:
        """:meth:`between` for each of ``targets``, listing the legal moves once."""
        legal = self.legal(pos)
        out = []
        for t in targets:
            names = [m.name for m in legal if m.target == t]
            out.append(" or ".join(dict.fromkeys(names)) or "?")
        return out


def numbered(moves: list[Named]) -> list[tuple[str, Named]]:
    """Each move with its key in a menu: its number, ``N.k`` for the k-th outcome of a
    move with several.

    >>> numbered([Named(3, "m", (0,)), Named(3, "m", (1,)), Named(5, "n", (2,))])[1][0]
    '3.2'
    """
    count: dict[int, int] = {}
    for m in moves:
        count[m.number] = count.get(m.number, 0) + 1
    seen: dict[int, int] = {}
    out = []
    for m in moves:
        seen[m.number] = seen.get(m.number, 0) + 1
        key = str(m.number) if count[m.number] == 1 else f"{m.number}.{seen[m.number]}"
        out.append((key, m))
    return out


class Joint(NamedTuple):
    """An enabled joint action of a concurrent game at a position: its stable ``number``,
    each player's action by the player's name (``{"a": "(play heads)"}``) and δ(c, a)."""

    number: int
    actions: dict[str, str]
    successors: list[tuple]


def joint_actions(model: Model, engine, c: tuple) -> list[Joint]:
    """The enabled joint actions at ``c`` of a concurrent game, by number: each player's
    action as the model writes it (a GDL move as GDL does, its role by name), numbered
    by its place (from 1) in the list of every joint action, each player's actions in
    declaration order, the first player's varying slowest; so a joint action keeps its
    number while it is enabled. A joint action whose updates contradict each other has
    no successor.

    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> m = load_model("pennies")
    >>> [(j.number, j.actions) for j in joint_actions(m, make_engine(m.game), (0, 0))][1]
    (2, {'1': 'show(0)', '2': 'show(1)'})
    """
    game = model.game
    if isinstance(game, ConcurrentGame):
        who = [str(p) for p in game.players]
        labels = [game.action_labels(p) for p in game.players]
        moves = sorted(engine.joint_moves(c).items())
        rows = [(a, sorted(ds)) for a, ds in moves]
    else:  # GDL: the explicit engine lists the joint moves (the symbolic one lists none)
        if not isinstance(engine, GdlExplicitConcurrentGame):
            engine = build_engine(game, "explicit", check=False, concurrent=True)
        assert isinstance(game, GdlGame), "a concurrent game is a ConcurrentGame or GDL"
        prog = game.program
        who = list(prog.roles)
        labels = [tuple(term_text(t) for t in prog.moves[r]) for r in prog.roles]
        rows = [(a, sorted(ds)) for a, ds in sorted(engine.joint_moves(c).items())]
    out = []
    for a, ds in rows:
        number = 0
        for k, names in zip(a, labels):
            number = number * len(names) + k
        acts = {p: names[k] for p, names, k in zip(who, labels, a)}
        out.append(Joint(number + 1, acts, ds))
    return out
