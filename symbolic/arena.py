"""Reachability arenas in the format of the TD on two-player games (seed 002).

An arena file is JSON with the keys of the TD's game dictionary::

    {"etats": [0, 1, ...], "init": 0,
     "controles": {"0": 1, "1": 2, ...},
     "transitions": {"0": [1, 4], "1": [2], ...},
     "objectifs1": [5], "objectifs2": [6]}

(English keys ``states``, ``initial``, ``controller``, ``edges``,
``objective1``, ``objective2`` are accepted too). Loading gives a model whose
game has one variable ``s`` (the state), sets ``initial``, ``Obj1``, ``Obj2``,
and the queries Attr_1 and Attr_2 (the TD's attractors use the strict dead-end
convention: a stuck opponent is not forced, so they are queried through
``symbolic.api.GameEngine.attractor``; the shipped ATL queries use ◇, whose
dead-end convention is the ENS one — both are shown by ``symbolic check``).
"""
from __future__ import annotations

import json
from pathlib import Path

from . import atl, ir
from .errors import FileError, ModelError, Span
from .games import arena

KEYS = {"states": "etats", "initial": "init", "controller": "controles",
        "edges": "transitions", "objective1": "objectifs1", "objective2": "objectifs2"}


def _get(doc, key, where):
    for k in (key, KEYS.get(key, key)):
        if k in doc:
            return doc[k]
    raise ModelError(f"arena: missing key {KEYS.get(key)!r} (or {key!r})", where)


def load_arena(path, params=None):
    """Load an arena JSON file as a :class:`symbolic.model.Model`."""
    from .model import Model, Query
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise FileError(f"cannot read {path}: {err.strerror or err}") from None
    if params:
        raise ModelError(f"{path}: an arena has no parameters (got {sorted(params)})")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        line = text.splitlines()[err.lineno - 1] if text.splitlines() else ""
        raise ModelError(f"invalid JSON: {err.msg}", Span(str(path), err.lineno, err.colno, line))
    where = Span(str(path), 1, 1, text.splitlines()[0] if text else "")
    states = [int(s) for s in _get(doc, "states", where)]
    ctrl = {int(k): int(v) for k, v in _get(doc, "controller", where).items()}
    edges = [(int(a), int(b)) for a, succ in _get(doc, "edges", where).items() for b in succ]
    missing = sorted(set(states) - set(ctrl))
    if missing:
        raise ModelError(f"arena: states without a controller: {missing}", where)
    game = arena({s: ctrl[s] for s in states}, edges, name=doc.get("name", path.stem))
    s = ir.Var("s")

    def member(values):
        return atl.Prop(ir.disj(s.eq(int(v)) for v in values))

    init = int(_get(doc, "initial", where))
    defs = {"initial": atl.Definition("initial", (), member([init])),
            "Obj1": atl.Definition("Obj1", (), member(_get(doc, "objective1", where))),
            "Obj2": atl.Definition("Obj2", (), member(_get(doc, "objective2", where)))}
    queries = []
    for p in (1, 2):
        text_q = f"<<{p}>> <> Obj{p}"
        queries.append(Query(text_q, atl.Eventually(atl.CoalitionLit((p,)), atl.Ref(f"Obj{p}")),
                             None))
        text_q = f"initial and <<{p}>> <> Obj{p}"
        queries.append(Query(text_q, atl.BoolOp("and", atl.Ref("initial"), queries[-1].formula),
                             None))
    return Model(name=game.name, description=doc.get("description", ""), source=str(path),
                 params={}, consts={}, game=game, definitions=defs, queries=tuple(queries))
