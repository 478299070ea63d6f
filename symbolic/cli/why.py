"""``symbolic check --why POSITION``: why one position is inside or outside the answer
of one formula, as a short play (:func:`symbolic.analysis.explain.explain`)."""

from __future__ import annotations

import sys

from ..analysis.explain import explain, replay
from ..errors import QueryError
from .common import (
    build_engine,
    engine_kinds,
    queries_of,
    refuse_concurrent,
    tuning,
)
from .moves import MoveNames
from .output import emit
from .positions import position_shower, read_position
from .strategy import DEAD_ENDS

__all__ = ["why"]


def why(model, args) -> int:
    """Print the explanation of the one query at the position ``args.why`` (text or
    ``--json``); the symbolic engine unless ``--engine explicit``. ``--engine both``
    explains on the symbolic engine and replays the play on the explicit one
    (:func:`replay`): exit 1 when it finds a fault."""
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
    position = read_position(model, engine, args.why, flag="--why")
    dead_ends = DEAD_ENDS[args.dead_ends]
    e = explain(engine, formula, position, model.definitions, dead_ends)
    faults = None
    if args.engine == "both":
        ref = build_engine(model.game, "explicit", refuse="check --why")
        faults = replay(ref, e, model.definitions, dead_ends)
    names = MoveNames(model)
    if args.json:
        doc = _json_doc(space, text, e, names.between)
        if faults is not None:
            doc["replayed_on_explicit"] = {"ok": not faults, "faults": faults}
        emit(args, doc, model, engine)
    else:
        print(f"{model.name}: why, for {text}")
        print("\n".join(e.lines(position_shower(model), names.between)))
        if faults == []:
            print("replayed on the explicit engine: every move legal, the ending as claimed")
    for fault in faults or []:
        print(f"MISMATCH on the explicit engine: {fault}", file=sys.stderr)
    return 1 if faults else 0


def _json_doc(space, text: str, e, between) -> dict:
    """The ``--json`` document of ``check --why`` (``between(c, c')``: the name of the
    move from c to c', ``move`` of each step but the last)."""
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
                "choices": e.choices[i],
                "move": between(c, e.play[i + 1]) if i + 1 < len(e.play) else None,
            }
            for i, (c, p) in enumerate(zip(e.play, e.movers))
        ],
        "loop": e.loop,
        "ending": e.ending,
    }
