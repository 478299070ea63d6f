"""Reachability arenas in the format of the TD on reachability games and tic-tac-toe.

An arena file is JSON with the keys of the TD's game dictionary::

    {"etats": [0, 1, ...], "init": 0,
     "controles": {"0": 1, "1": 2, ...},
     "transitions": {"0": [1, 4], "1": [2], ...},
     "objectifs1": [5], "objectifs2": [6]}

(English keys ``states``, ``initial``, ``controller``, ``edges``,
``objective1``, ``objective2`` are accepted too; ``name`` and ``description``
are optional). :func:`arena_to_model_text` writes the arena as a model in the
model language — one variable ``s``, the turn by controller, one move
``edge(e in E)``, sets ``initial``, ``Obj1``, ``Obj2`` and the queries
``<<p>> <> Objp`` — so an arena is checked and solved like any model.

Note: ATL's ``<<p>> <>`` counts an opponent's dead end as forced (ENS
convention); the TD's attractor does not (``GameEngine.attractor``). They agree
on arenas without dead ends, such as ``models/td_example.arena.json``.
"""
from __future__ import annotations

import json
from pathlib import Path

from .errors import ModelError, Span

KEYS = {"states": "etats", "initial": "init", "controller": "controles",
        "edges": "transitions", "objective1": "objectifs1", "objective2": "objectifs2"}


def _get(doc, key, where):
    for k in (key, KEYS[key]):
        if k in doc:
            return doc[k]
    raise ModelError(f"arena: missing key {KEYS[key]!r} (or {key!r})", where)


def _ints(values, what, where):
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        raise ModelError(f"arena: {what} must be integers, got {values!r}", where) from None


def arena_to_model_text(text: str, filename: str) -> str:
    """The model-language text of the arena JSON ``text`` (errors name ``filename``)."""
    try:
        return _arena_to_model_text(text, filename)
    except ModelError:
        raise
    except (AttributeError, TypeError, ValueError, OverflowError, IndexError, KeyError) as err:
        # a value of the wrong JSON type where the checks below do not look (issue 8's fuzzer)
        first = text.splitlines()[0] if text else ""
        raise ModelError(f"arena: malformed document ({err})", Span(filename, 1, 1, first)) \
            from None


def _arena_to_model_text(text: str, filename: str) -> str:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        lines = text.splitlines()
        line = lines[err.lineno - 1] if 0 < err.lineno <= len(lines) else ""
        raise ModelError(f"invalid JSON: {err.msg}", Span(filename, err.lineno, err.colno, line))
    where = Span(filename, 1, 1, text.splitlines()[0] if text else "")
    if not isinstance(doc, dict):
        raise ModelError("arena: expected a JSON object", where)
    states = _ints(_get(doc, "states", where), "states", where)
    if sorted(states) != list(range(len(states))):
        raise ModelError(f"arena: states must be 0..{len(states) - 1}, got {sorted(states)}", where)
    ctrl = {int(k): int(v) for k, v in _get(doc, "controller", where).items()}
    missing = sorted(set(states) - set(ctrl))
    if missing:
        raise ModelError(f"arena: states without a controller: {missing}", where)
    edges = sorted({(int(a), b) for a, succ in _get(doc, "edges", where).items()
                    for b in _ints(succ, f"successors of {a}", where)})
    bad = [e for e in edges if e[0] not in ctrl or e[1] not in ctrl]
    if bad:
        raise ModelError(f"arena: transitions use unknown states: {bad}", where)
    init = int(_get(doc, "initial", where))
    if init not in ctrl:
        raise ModelError(f"arena: initial state {init} is not a state", where)
    players = sorted(set(ctrl.values()))
    name = str(doc.get("name", Path(filename).stem)).replace('"', "'")
    desc = str(doc.get("description", "")).replace('"""', "'''")
    turn = str(ctrl[states[-1]])
    for s in reversed(states[:-1]):
        turn = f"if s = {s} then {ctrl[s]} else {turn}" if ctrl[s] != ctrl[states[-1]] else turn

    def member(values):
        vs = sorted(set(_ints(values, "objectives", where)))
        return " or ".join(f"s = {v}" for v in vs) if vs else "false"

    out = [f'game "{name}"', f'description """{desc}"""',
           f"players {', '.join(map(str, players))}",
           f"var s : 0..{len(states) - 1}",
           f"turn {turn}"]
    if edges:
        out += ["const E = {" + ", ".join(f"({a}, {b})" for a, b in edges) + "}",
                "move edge(e in E) when s = e[0] then s' = e[1]"]
    out += [f"set initial = s = {init}",
            f"set Obj1 = {member(_get(doc, 'objective1', where))}",
            f"set Obj2 = {member(_get(doc, 'objective2', where))}"]
    for p in players[:2]:
        out.append(f"query <<{p}>> <> Obj{p}, initial and <<{p}>> <> Obj{p}")
    return "\n".join(out) + "\n"
