"""BDDs as bytes between processes: each backend's own DDDMP export and import.

A BDD never travels as a pickled Python object of a manager (the nodes of one manager
mean nothing in another): :func:`dump_nodes` writes oxidd's DDDMP file
(``export_dddmp_with_names``, every root in one file) or CUDD's list of nodes (each
regular node once, children first: the table DDDMP holds, written here because dd's
DDDMP round trip aborted in a long run) and returns the bytes, with a one-line
header; :func:`load_nodes`
reads them into another manager of the same variables (matched by name), where the
canonical BDD is the same function. ``autoref`` (pure Python) has no DDDMP and is refused.

>>> from symbolic.bdd.managers import make_manager
>>> a, b = make_manager("cudd"), make_manager("cudd")
>>> a.declare(["x", "y"]); b.declare(["x", "y"])
>>> u = a.or_(a.var("x"), a.not_(a.var("y")))
>>> [v] = load_nodes(b, dump_nodes(a, [u]))
>>> v == b.or_(b.var("x"), b.not_(b.var("y")))
True
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Sequence

from ..errors import QueryError

__all__ = ["WIRE_BACKENDS", "dump_nodes", "load_nodes", "check_wire_backend"]

#: the backends whose BDDs can travel (an export and an import of their own)
WIRE_BACKENDS = ("cudd", "oxidd")

_MAGIC = b"symbolic-bdd 1\n"


def check_wire_backend(backend: str) -> str:
    """``backend`` when its BDDs can travel between processes, else QueryError.

    >>> check_wire_backend("autoref")
    Traceback (most recent call last):
    ...
    symbolic.errors.QueryError: the autoref backend cannot export its BDDs (no DDDMP): distributed solving needs the cudd or oxidd backend
    """
    if backend not in WIRE_BACKENDS:
        raise QueryError(
            f"the {backend} backend cannot export its BDDs (no DDDMP): distributed "
            f"solving needs the cudd or oxidd backend"
        )
    return backend


def dump_nodes(manager, nodes: Sequence) -> bytes:
    """The bytes of ``nodes`` (functions of ``manager``, a :class:`~symbolic.bdd.contract.Manager`
    of a :data:`WIRE_BACKENDS` backend): a header line, then the DDDMP files."""
    check_wire_backend(manager.backend)
    with tempfile.TemporaryDirectory(prefix="symbolic-wire-") as tmp:
        paths = []
        if manager.backend == "cudd":
            # CUDD: the list of nodes (_cudd_table), not dd's DDDMP: Connect Four 5 x 4
            # with DDDMP files through dd.cudd 0.6 aborted ("cuddGarbageCollect: problem
            # in constants": a broken reference count; the issue 38 journal), and dd's
            # JSON writes a shelve into the working directory
            paths.append(os.path.join(tmp, "all.json"))
            with open(paths[-1], "w") as f:
                json.dump(_cudd_table(manager, nodes), f)
        else:
            paths.append(os.path.join(tmp, "all.dddmp"))
            named = [(u, f"r{i}") for i, u in enumerate(nodes)]
            manager.bdd.export_dddmp_with_names(paths[-1], named)
        blobs = []
        for p in paths:
            with open(p, "rb") as f:
                blobs.append(f.read())
    head = {"backend": manager.backend, "roots": len(nodes), "sizes": [len(b) for b in blobs]}
    return _MAGIC + json.dumps(head).encode() + b"\n" + b"".join(blobs)


def load_nodes(manager, data: bytes) -> list:
    """The functions of ``data`` (from :func:`dump_nodes` of the same backend) in
    ``manager``, whose variables have the same names (QueryError otherwise)."""
    if not data.startswith(_MAGIC):
        raise QueryError("not a BDD of symbolic's wire format")
    line, _, body = data[len(_MAGIC) :].partition(b"\n")
    head = json.loads(line)
    if head["backend"] != manager.backend:
        raise QueryError(
            f"a BDD of the {head['backend']} backend cannot load into {manager.backend}"
        )
    out: list = []
    with tempfile.TemporaryDirectory(prefix="symbolic-wire-") as tmp:
        at = 0
        for i, size in enumerate(head["sizes"]):
            path = os.path.join(tmp, f"{i}.{'json' if manager.backend == 'cudd' else 'dddmp'}")
            with open(path, "wb") as f:
                f.write(body[at : at + size])
            at += size
            out.extend(_load_file(manager, path))
    if len(out) != head["roots"]:
        raise QueryError(f"expected {head['roots']} BDDs, read {len(out)}")
    return out


def _load_file(manager, path: str) -> list:
    """The roots of one file: CUDD's table of nodes, or oxidd's DDDMP file (variables
    matched by name)."""
    if manager.backend == "cudd":
        with open(path) as text:
            return _cudd_build(manager, json.load(text))
    from oxidd.util import DDDMPFile

    f = DDDMPFile(path)
    try:
        names = f.var_names or []
        mine = [manager.bdd.name_to_var(names[v]) for v in f.support_vars]
        if any(v is None for v in mine):
            raise QueryError("a BDD names variables this manager does not have")
        return list(manager.bdd.import_dddmp(f, mine))
    finally:
        f.close()


def _cudd_table(manager, nodes: Sequence) -> dict:
    """The BDDs ``nodes`` of a CUDD manager as a table: each regular node once, children
    first, as [variable, then, else]; an edge is 2·i + c (i: the node's row + 1, 0 the
    constant true; c: complemented)."""
    b = manager.bdd
    names: dict[str, int] = {}
    rows: list[list[int]] = []
    index: dict[int, int] = {}

    def ref(u) -> int:
        r = ~u if u.negated else u
        i = 0 if r == b.true else index[int(r)]
        return 2 * i + (1 if u.negated else 0)

    for root in nodes:
        stack = [~root if root.negated else root]
        while stack:
            r = stack[-1]
            if r == b.true or int(r) in index:
                stack.pop()
                continue
            kids = [~k if k.negated else k for k in (r.high, r.low)]
            todo = [k for k in kids if k != b.true and int(k) not in index]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            var = names.setdefault(r.var, len(names))
            rows.append([var, ref(r.high), ref(r.low)])
            index[int(r)] = len(rows)
    return {"vars": list(names), "nodes": rows, "roots": [ref(u) for u in nodes]}


def _cudd_build(manager, table: dict) -> list:
    """The roots of a :func:`_cudd_table` in ``manager``, built bottom-up by ite."""
    b = manager.bdd
    variables = [b.var(n) for n in table["vars"]]
    made = [b.true]

    def edge(e: int):
        u = made[e >> 1]
        return ~u if e & 1 else u

    for var, high, low in table["nodes"]:
        made.append(b.ite(variables[var], edge(high), edge(low)))
    return [edge(e) for e in table["roots"]]
