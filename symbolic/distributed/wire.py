"""BDDs as bytes between processes: each backend's own DDDMP export and import.

A BDD never travels as a pickled Python object of a manager (the nodes of one manager
mean nothing in another): :func:`dump_nodes` writes the backend's DDDMP file (CUDD's
``dddmp`` through ``dd.cudd``, one file per root; oxidd's ``export_dddmp_with_names``,
every root in one file) and returns its bytes, with a one-line header; :func:`load_nodes`
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
    symbolic.errors.QueryError: the autoref backend cannot export its BDDs (no DDDMP): distributed solving needs cudd or oxidd (--backend cudd or --backend oxidd)
    """
    if backend not in WIRE_BACKENDS:
        raise QueryError(
            f"the {backend} backend cannot export its BDDs (no DDDMP): distributed "
            f"solving needs cudd or oxidd (--backend cudd or --backend oxidd)"
        )
    return backend


def dump_nodes(manager, nodes: Sequence) -> bytes:
    """The bytes of ``nodes`` (functions of ``manager``, a :class:`~symbolic.bdd.contract.Manager`
    of a :data:`WIRE_BACKENDS` backend): a header line, then the DDDMP files."""
    check_wire_backend(manager.backend)
    with tempfile.TemporaryDirectory(prefix="symbolic-wire-") as tmp:
        paths = []
        if manager.backend == "cudd":
            for i, u in enumerate(nodes):
                paths.append(os.path.join(tmp, f"{i}.dddmp"))
                manager.bdd.dump(paths[-1], [u], filetype="dddmp")
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
            path = os.path.join(tmp, f"{i}.dddmp")
            with open(path, "wb") as f:
                f.write(body[at : at + size])
            at += size
            out.extend(_load_file(manager, path))
    if len(out) != head["roots"]:
        raise QueryError(f"expected {head['roots']} BDDs, read {len(out)}")
    return out


def _load_file(manager, path: str) -> list:
    """The roots of one DDDMP file, variables matched by name."""
    if manager.backend == "cudd":
        return list(manager.bdd.load(path))
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
