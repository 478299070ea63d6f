"""``symbolic check --why POSITION``: why one position is inside or outside the answer
of one formula, as a short play (:func:`symbolic.analysis.explain.explain`)."""

from __future__ import annotations

from ..analysis.explain import explain
from ..errors import QueryError
from .common import (
    build_engine,
    engine_kinds,
    parse_position,
    position_text,
    queries_of,
    refuse_concurrent,
    tuning,
)
from .output import emit
from .strategy import DEAD_ENDS

__all__ = ["why"]


def why(model, args) -> int:
    """Print the explanation of the one query at the position ``args.why`` (text or
    ``--json``); the symbolic engine unless ``--engine explicit``. The answer is the
    same whatever the engine: ``--engine both`` explains on the symbolic one."""
    refuse_concurrent("check --why", model.game)
    queries = queries_of(model, args.query)
    if len(queries) != 1:
        raise QueryError(
            f"--why explains one formula, and {len(queries)} are asked: give one with --query"
        )
    text, formula = queries[0]
    kind = engine_kinds(args.engine)[0]  # both: the symbolic engine, the first
    engine = build_engine(model.game, kind, **tuning(args), check=False, refuse="check --why")
    space = model.game.space
    position = parse_position(space, args.why)
    e = explain(engine, formula, position, model.definitions, DEAD_ENDS[args.dead_ends])
    if args.json:
        emit(args, _json_doc(space, text, e), model, engine)
        return 0
    print(f"{model.name}: why, for {text}")
    print("\n".join(e.lines(lambda c: position_text(space, c))))
    return 0


def _json_doc(space, text: str, e) -> dict:
    """The ``--json`` document of ``check --why``."""
    return {
        "query": text,
        "position": space.as_dict(e.position),
        "holds": e.holds,
        "operator": e.operator,
        "inside": e.inside,
        "coalition": sorted(e.coalition),
        "objective": e.kind,
        "play": [
            {
                "position": space.as_dict(c),
                "mover": p,
                "strategy": i < len(e.by_strategy) and e.by_strategy[i],
            }
            for i, (c, p) in enumerate(zip(e.play, e.movers))
        ],
        "loop": e.loop,
        "ending": e.ending,
    }
