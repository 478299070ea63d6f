"""The BDD managers by backend name: the one place that knows every backend class.

``make_manager(backend)`` gives a :class:`~symbolic.bdd.contract.Manager` of the
named backend: :class:`~symbolic.bdd.backend.DdManager` for ``"cudd"`` and ``"autoref"``,
:class:`~symbolic.bdd.oxidd_backend.OxiddManager` for ``"oxidd"``. The backend
modules are siblings that import nothing of each other; this module imports both.

>>> m = make_manager("autoref")
>>> m.declare(["a"])
>>> m.backend, m.exact_count(m.var("a"), 1)
('autoref', 1)
"""

from __future__ import annotations

import importlib.util

from ..errors import QueryError
from ..limits import Limits
from .backend import DD_BACKENDS, DdManager, unknown_backend
from .base import BaseManager
from .capacity import OXIDD_THREAD_ADDRESS_SPACE, address_space_left
from .contract import BACKENDS, Manager

__all__ = [
    "BACKENDS",
    "BACKEND_CHOICES",
    "AUTO_OXIDD_BITS",
    "make_manager",
    "manager_class",
    "choose_backend",
    "resolve_backend",
]

#: the backends a caller may name: ``auto`` (the default) picks one by :func:`choose_backend`
BACKEND_CHOICES = ("auto",) + BACKENDS

#: above this many bits of value vectors, ``auto`` takes oxidd (bench/README.md, "Which
#: backend by default"): oxidd is faster than CUDD on the cases that take seconds, but its
#: start-up (an apply cache of 2^22 entries, allocated at once) costs more than the whole
#: solve of the smallest ones
AUTO_OXIDD_BITS = 20
#: under ``ulimit -v`` leaving less than this, ``auto`` takes CUDD: oxidd ends the process
#: when an allocation fails (a Rust abort), and its one worker thread alone reserves 1 GiB
#: for its stack (capacity.OXIDD_THREAD_ADDRESS_SPACE), while CUDD returns NULL and the
#: run exits 3 with a message; the other half GiB for oxidd's store and cache
AUTO_OXIDD_MIN_ADDRESS_SPACE = OXIDD_THREAD_ADDRESS_SPACE + (512 << 20)


def choose_backend(space) -> str:
    """The backend ``auto`` means for a space (a :class:`symbolic.ir.Space`): ``oxidd``
    when it has more than 2^20 value vectors (|D| > 2^AUTO_OXIDD_BITS) and oxidd is
    installed and the address space left (``ulimit -v``) is at least 1.5 GiB, else ``cudd``.

    >>> from symbolic.ir import IntType, Space, VarDecl
    >>> choose_backend(Space((VarDecl("x", IntType(0, 9)),)))
    'cudd'
    """
    if space.size.bit_length() - 1 <= AUTO_OXIDD_BITS:
        return "cudd"
    left = address_space_left()
    if left is not None and left < AUTO_OXIDD_MIN_ADDRESS_SPACE:
        return "cudd"
    # oxidd is an optional dependency: look for it without importing it
    return "oxidd" if importlib.util.find_spec("oxidd") is not None else "cudd"


def resolve_backend(backend: str, space) -> str:
    """``backend`` itself, or :func:`choose_backend` of ``space`` for ``"auto"``."""
    return choose_backend(space) if backend == "auto" else backend


def manager_class(backend: str) -> type[BaseManager]:
    """The class keeping the :class:`Manager` contract for backend ``backend``
    (QueryError for unknown names)."""
    if backend in DD_BACKENDS:
        return DdManager
    if backend == "oxidd":
        from .oxidd_backend import OxiddManager  # on use: a CUDD run never loads it

        return OxiddManager
    raise QueryError(unknown_backend(backend))


def make_manager(
    backend: str = "cudd",
    *,
    max_memory: int | None = None,
    limits: Limits | None = None,
    space_bits: int | None = None,
) -> Manager:
    """A new manager of backend ``backend`` (see :data:`BACKENDS`), with memory cap
    ``max_memory`` (bytes; None: :func:`~symbolic.bdd.backend.default_memory_cap`) and
    the stage and time limits of ``limits``; ``space_bits`` (log2 of the value vectors
    of the space it will hold, if known) sizes oxidd's apply cache
    (:func:`~symbolic.bdd.oxidd_sizing.cache_entries`)."""
    cls = manager_class(backend)
    if cls is DdManager:
        return DdManager(backend, max_memory=max_memory, limits=limits)
    from .oxidd_backend import OxiddManager  # on use: a CUDD run never loads it

    return OxiddManager(max_memory=max_memory, limits=limits, space_bits=space_bits)
