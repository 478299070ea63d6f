"""The chocolate bar with the square of death: values of configurations.

A configuration (m, n, i, j) is an m × n bar (m columns, n rows) with the square
of death in column i, row j. ``models/chocolate.game`` describes it by the
distances l = i, r = m − 1 − i, u = j, d = n − 1 − j and whose turn it is. Its
value (:mod:`symbolic.analysis.values`) depends on the distances only, so one bar with
the square in the middle, (2h + 1) × (2h + 1) with l, r, u, d ∈ 0..h, holds
every configuration whose distances are at most h: one layered fixpoint
answers Q9 and Q10 at once (h = 127: a range of 128 values, a power of two,
which keeps the domain constraint out of the BDDs).

Symmetry used: the two players play the same moves, so a position's value does
not depend on who is to move. One attractor suffices: player 1's, to the lone
square with player 2 to move. Its layer k holds the configurations of value +k
with player 1 to move and those of value −k with player 2 to move:

    value(l, r, u, d) = +k  if (1, l, r, u, d) ∈ layerₖ(A₁)
                      = −k  if (2, l, r, u, d) ∈ layerₖ(A₁).

The text's 8 symmetries (Q12: l ↔ r, u ↔ d, (l, r) ↔ (u, d)) are not used by
the BDDs: they are measured in ``bench/chocolate.py``.

>>> V = BarValues(3, backend="autoref")
>>> V.value(3, 2, 0, 1), V.value(1, 1, 0, 0), V.value(2, 1, 0, 0), V.value(3, 3, 1, 1)
(3, 0, 1, -4)
"""

from __future__ import annotations

from importlib import resources

from .. import ir
from ..engines import make_engine
from ..arguments import need, need_int
from ..errors import QueryError
from ..model import Model, load_model
from ..analysis.values import ranks

__all__ = ["MODEL", "HALF", "load_bar", "BarValues", "answers"]

MODEL = resources.files("symbolic") / "models" / "chocolate.game"

#: the half-width used for the text's questions: distances 0..127 cover Q9 and Q10
HALF = 127


def load_bar(half: int) -> Model:
    """``chocolate.game`` on the (2·half + 1)² bar with the square of death in the middle.

    >>> load_bar(2).params
    {'m': 5, 'n': 5, 'i': 2, 'j': 2}
    """
    need_int(half, "half", low=0, high=499)  # the model's bar is at most 1000 wide
    if not MODEL.is_file():
        raise QueryError(
            f"cannot find the chocolate model {MODEL} "
            "(was symbolic installed without its package data?)"
        )
    with resources.as_file(MODEL) as path:
        return load_model(path, {"m": 2 * half + 1, "n": 2 * half + 1, "i": half, "j": half})


class BarValues:
    """value(m, n, i, j) of every configuration with distances ≤ ``half``, from
    player 1's layered attractor on :func:`load_bar`'s game (``engine`` is
    ``"symbolic"`` or ``"explicit"``)."""

    def __init__(self, half: int, engine: str = "symbolic", backend: str = "auto"):
        need(engine, str, "the engine kind")
        need(backend, str, "the backend")
        self.half = half
        self.model = load_bar(half)  # checks half
        self.engine = eng = make_engine(self.model.game, engine, backend)
        if engine == "explicit":
            eng.check_size()
        self._mover = {p: eng.turn_set({p}) for p in (1, 2)}
        self.ranks = ranks(eng, {1}, eng.deadlocks() & self._mover[2])

    def _distances(self, m: int, n: int, i: int, j: int) -> tuple[int, int, int, int]:
        for name, v in (("m", m), ("n", n), ("i", i), ("j", j)):
            need_int(v, name)
        if not (0 <= i < m and 0 <= j < n):
            raise QueryError(
                f"configuration ({m}, {n}, {i}, {j}): the square of death "
                f"must lie in the bar (0 <= i < m, 0 <= j < n)"
            )
        dist = (i, m - 1 - i, j, n - 1 - j)
        if max(dist) > self.half:
            raise QueryError(
                f"configuration ({m}, {n}, {i}, {j}): its distances {dist} "
                f"exceed {self.half}, the bar solved here"
            )
        return dist

    def value(self, m: int, n: int, i: int, j: int) -> int:
        """The value of configuration (m, n, i, j) for the player to move."""
        dist = self._distances(m, n, i, j)
        k1 = self.ranks.rank((1,) + dist)
        k2 = self.ranks.rank((2,) + dist)
        if (k1 is None) == (k2 is None):
            raise AssertionError((dist, k1, k2))  # no draw, and the players are symmetric
        return k1 if k1 is not None else -k2

    def configurations(self, m: int, n: int, value: int) -> list[tuple[int, int]]:
        """All (i, j), sorted, with value(m, n, i, j) = ``value``."""
        need_int(m, "m", low=1)
        need_int(n, "n", low=1)
        self._distances(m, n, 0, 0)
        self._distances(m, n, m - 1, n - 1)
        k = abs(need_int(value, "the value"))
        if k >= len(self.ranks.layers):
            return []
        eng = self.engine
        l, r, u, d = (ir.Var(v) for v in "lrud")
        shape = eng.from_expr((l + r).eq(m - 1) & (u + d).eq(n - 1))
        layer = self.ranks.layers[k] & self._mover[1 if value > 0 else 2] & shape
        return sorted((t[1], t[3]) for t in layer.tuples())


def answers(values: BarValues | None = None, backend: str = "auto") -> dict:
    """The text's Q9 and Q10: ``{"Q9": {"a": value(100, 100, 50, 50),
    "b": value(100, 100, 48, 52)}, "Q10": [[i, j], ...]}`` (the pairs with
    value(127, 127, i, j) = 127, sorted), from ``values`` (by default
    ``BarValues(HALF)`` on the symbolic engine with ``backend``)."""
    need(values, BarValues, "values", none=True)
    V = values if values is not None else BarValues(HALF, "symbolic", backend)
    return {
        "Q9": {"a": V.value(100, 100, 50, 50), "b": V.value(100, 100, 48, 52)},
        "Q10": [list(p) for p in V.configurations(127, 127, 127)],
    }
