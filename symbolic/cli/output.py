"""The one shape of every command's ``--json`` document, and the tables of ``--all``.

Every ``--json`` document is one JSON object that begins with the same header, then the
command's answer (docs/commands.md, "JSON output"; the JSON Schema is
docs/schema/output.schema.json):

- ``command``: the command's name;
- ``model``: the model's name (null for a command that reads none);
- ``parameters``: the model's parameters as ``{name: value}`` (``{}`` when none);
- ``engine``: the ``--engine`` asked (null where the command has no such choice);
- ``backend``: the BDD backend the symbolic engine ran on (``cudd``, ``oxidd``, ...), the
  ``--backend`` asked where the command does not report one, null without a BDD engine.

A position is always an object ``{slot: value}`` with the model's slot names, e.g.
``{"j": 1, "k[1]": 0}``.

>>> import argparse
>>> header(argparse.Namespace(command="models"))
{'command': 'models', 'model': None, 'parameters': {}, 'engine': None, 'backend': None}
"""

from __future__ import annotations

import csv
import sys

from ..errors import LimitExceeded, QueryError
from ..limits import int_text
from .basics import error_text, int_arg, json_text

__all__ = [
    "HEADER",
    "header",
    "emit",
    "stopped_document",
    "stopped_text",
    "positions_json",
    "all_limit_arg",
    "all_rows",
    "print_rows",
]

#: the most positions ``--all`` lists unless ``--limit`` says otherwise
ALL_LIMIT = 10000

#: the keys every document begins with, in this order
HEADER = ("command", "model", "parameters", "engine", "backend")


def _backend(args, engine) -> str | None:
    """The backend an engine ran on, else the one asked, else None (no BDD engine)."""
    manager = getattr(engine, "manager", None)
    if manager is not None and getattr(manager, "backend", None):
        return str(manager.backend)
    if getattr(args, "engine", None) == "explicit" or getattr(engine, "kind", "") == "explicit":
        return None
    return getattr(args, "backend", None)


def header(args, model=None, engine=None, backend: str | None = None) -> dict:
    """The header of a ``--json`` document: ``args``' command, ``model``'s name and
    parameters, the engine asked and ``engine``'s backend (see the module's doc), or
    ``backend`` when the answer came without an engine (``symbolic aiger``'s safety
    solver, on a manager of its own)."""
    return {
        "command": getattr(args, "command", None),
        "model": None if model is None else model.name,
        "parameters": {} if model is None else dict(model.params),
        "engine": getattr(args, "engine", None),
        "backend": backend if backend is not None else _backend(args, engine),
    }


def emit(args, answer: dict, model=None, engine=None, backend: str | None = None) -> None:
    """Print :func:`header` then ``answer`` (its keys after the header's) as one line of
    JSON, exact for ints of any size."""
    doc = header(args, model, engine, backend)
    doc.update((k, v) for k, v in answer.items() if k not in HEADER)
    print(json_text(doc))


def stopped_document(args, err: LimitExceeded) -> dict:
    """The ``--json`` document of a run that a resource limit ended (exit status 3): the
    header (its ``model`` null: the answer never came), then ``stopped``, the ``limit``
    reached (``timeout``, ``max-memory``, ``positions``, ``bdd-variables``), the
    ``stage`` that was running (the words of the message after "while"; null when
    unknown), the ``message`` printed on stderr and, when the work finished some parts
    before the limit, ``solved`` (``values --by-layer``: the rows of the layers solved,
    the last layers first).

    >>> import argparse
    >>> err = LimitExceeded("time limit of 5 s reached while grounding", "timeout", "grounding")
    >>> stopped_document(argparse.Namespace(command="gdl"), err)["stopped"]
    {'limit': 'timeout', 'stage': 'grounding', 'message': 'time limit of 5 s reached while grounding'}
    """
    doc = header(args)
    doc["stopped"] = {
        "limit": err.limit or "timeout",
        "stage": err.stage or None,
        "message": error_text(err),
    }
    if err.solved is not None:
        doc["stopped"]["solved"] = err.solved
    return doc


def stopped_text(args, err: LimitExceeded) -> str:
    """:func:`stopped_document` as one line of JSON (with its newline)."""
    return json_text(stopped_document(args, err)) + "\n"


def positions_json(space, positions) -> list[dict]:
    """Each position tuple as ``{slot: value}``."""
    return [space.as_dict(p) for p in positions]


def all_limit_arg(sp) -> None:
    """``--limit N`` of a command whose ``--limit`` bounds ``--all`` only."""
    sp.add_argument(
        "--limit",
        type=int_arg(0),
        default=ALL_LIMIT,
        metavar="N",
        help=f"--all refuses more than N positions (0: no bound; default {ALL_LIMIT})",
    )


def all_rows(ps, limit: int, what: str) -> list[tuple]:
    """Every position of ``ps`` in order, refused when there are more than ``limit``
    (0: no bound): ``--all`` lists a table, and a table of millions of rows is no answer.

    >>> from symbolic.model import load_model
    >>> from symbolic.engines import make_engine
    >>> e = make_engine(load_model("nim", {"n": "2"}).game, "explicit")
    >>> all_rows(e.positions(), 0, "values")[:2]
    [(1, 0, 0), (1, 0, 1)]
    """
    n = ps.count()
    if limit and n > limit:
        raise QueryError(
            f"--all: {int_text(n)} positions, more than --limit {limit}; "
            f"pass --limit {int_text(n)} (or 0, no bound) to list every {what}"
        )
    return ps.tuples()


def print_rows(space, rows, column: str, fmt) -> None:
    """``rows`` of ``(position, value)`` as CSV on stdout: one column per slot, then
    ``column`` (each value written by ``fmt``)."""
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow([s.label for s in space.slots] + [column])
    for pos, v in rows:
        out.writerow([int_text(x) if isinstance(x, int) else x for x in pos] + [fmt(v)])
