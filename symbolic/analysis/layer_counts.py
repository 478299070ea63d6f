"""The positions reachable from a model's initial set, counted layer by layer
(``symbolic layers``): :func:`symbolic.api.layers.layer_counts` with the levels the model
declares (``set level(k) = ...``), which let the count hold one layer at a time.

>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> from symbolic.analysis.layered import initial_set
>>> m = load_model("models/connect4-compact.game", {"w": 3, "h": 2, "a": 2})
>>> e = make_engine(m.game, "explicit")
>>> reachable_counts(e, m.definitions, initial_set(e, m.definitions))
(1, 3, 9, 21, 8, 3)
"""

from __future__ import annotations

from typing import Callable, Mapping

from .. import atl
from ..api import GameEngine, PositionSet, check_engine, check_set, layer_counts
from ..arguments import need_mapping
from ..errors import QueryError

__all__ = ["declared_level", "reachable_counts"]


def declared_level(
    engine: GameEngine, definitions: Mapping[str, atl.Definition]
) -> Callable[[int], PositionSet] | None:
    """k ↦ C_k, the set the model's ``set level(k) = ...`` names for layer k, evaluated
    on demand; None when the model declares no level (QueryError, at the definition,
    when it does not take one int).

    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> m = load_model("models/connect4-compact.game", {"w": 3, "h": 2, "a": 2})
    >>> level = declared_level(make_engine(m.game, "explicit"), m.definitions)
    >>> [level(k).count() for k in range(3)]
    [1, 3, 12]
    """
    check_engine(engine)
    need_mapping(definitions, "definitions")
    d = definitions.get("level")
    if d is None:
        return None
    if [kind for _, kind in d.params] != ["int"]:
        raise QueryError("'level' must have one int parameter: set level(k) = ...", d.span)

    def level(k: int) -> PositionSet:
        # the checked definition itself, through a Ref bound to it: no text parsed again
        return atl.evaluate(engine, atl.Ref(d.name, (k,), d.span, d), definitions)

    return level


def reachable_counts(
    engine: GameEngine,
    definitions: Mapping[str, atl.Definition],
    source: PositionSet,
    on_layer: Callable[[int, int], None] | None = None,
) -> tuple[int, ...]:
    """|F_0|, |F_1|, …: the positions first reached after k moves from ``source``
    (:func:`~symbolic.api.layers.layer_counts`), one layer held at a time when the
    model declares levels (the union of the layers seen otherwise); a level that misses
    a position of its layer, or meets another level, is an error at its definition."""
    check_set(engine, source, "the source")
    level = declared_level(engine, definitions)
    try:
        return layer_counts(engine, source, level, on_layer)
    except QueryError as err:
        if level is None or err.span is not None:
            raise
        raise QueryError(err.parts, definitions["level"].span) from None
