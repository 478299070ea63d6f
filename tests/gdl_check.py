"""Shared checks of ``symbolic gdl`` against the plain interpreter (:mod:`tests.gdl_interp`):
the command's JSON, its forced-value table, and both compared on one file."""

from __future__ import annotations

import json
from pathlib import Path

from symbolic.cli import main
from tests.gdl_interp import explore, read_kif

__all__ = ["cli_doc", "forced_table", "assert_cli_equals_interpreter"]


def cli_doc(path: Path, capsys) -> dict:
    """The JSON document of ``symbolic gdl PATH --engine both --json`` (exit 0 required)."""
    assert main(["gdl", str(path), "--engine", "both", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def forced_table(doc: dict) -> dict[tuple[str, str], int]:
    """The forced values of a ``gdl --json`` document by (coalition joined by ``+``, role)."""
    return {("+".join(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]}


def assert_cli_equals_interpreter(path: Path, capsys, concurrent: bool | None = None) -> dict:
    """Both engines' reachable count, dead ends and forced values == the interpreter's.

    ``concurrent`` None reads the file as the command did; the document is returned."""
    doc = cli_doc(path, capsys)
    as_concurrent = doc.get("concurrent", False) if concurrent is None else concurrent
    res = explore(read_kif(path.read_text()), concurrent=as_concurrent)
    got = {(tuple(f["coalition"]), f["role"]): f["value"] for f in doc["forced"]}
    assert (doc["reachable"], doc["dead_ends"], got) == (
        len(res.states),
        res.dead_ends,
        res.forced,
    ), (doc, res.forced)
    return doc
