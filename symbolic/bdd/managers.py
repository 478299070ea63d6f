"""The BDD managers by backend name: the one place that knows every backend class.

``make_manager(backend)`` gives a :class:`~symbolic.bdd.backend.Manager` of the
named backend: the ``dd`` wrapper for ``"cudd"`` and ``"autoref"``,
:class:`~symbolic.bdd.oxidd_backend.OxiddManager` for ``"oxidd"``. The backend
modules import nothing of each other; this module imports both.

>>> m = make_manager("autoref")
>>> m.declare(["a"])
>>> m.backend, m.exact_count(m.var("a"), 1)
('autoref', 1)
"""
from __future__ import annotations

from ..errors import QueryError
from ..limits import Limits
from .backend import BACKENDS, DD_BACKENDS, Manager, unknown_backend
from .oxidd_backend import OxiddManager

__all__ = ["BACKENDS", "make_manager", "manager_class"]


def manager_class(backend: str) -> type[Manager]:
    """The :class:`Manager` class of backend ``backend`` (QueryError for unknown names)."""
    if backend in DD_BACKENDS:
        return Manager
    if backend == "oxidd":
        return OxiddManager
    raise QueryError(unknown_backend(backend))


def make_manager(backend: str = "cudd", *, max_memory: int | None = None,
                 limits: Limits | None = None) -> Manager:
    """A new manager of backend ``backend`` (see :data:`BACKENDS`), with memory cap
    ``max_memory`` (bytes; None: :func:`~symbolic.bdd.backend.default_memory_cap`) and
    the stage and time limits of ``limits``."""
    cls = manager_class(backend)
    if cls is Manager:
        return Manager(backend, max_memory=max_memory, limits=limits)
    return cls(max_memory=max_memory, limits=limits)
