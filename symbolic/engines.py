"""Engines by name: ``symbolic`` (BDDs, backend ``auto``, ``cudd``, ``oxidd`` or
``autoref``) or ``explicit``.

The command line and the ENS 2005 answer sheet build every engine here:
:func:`make_engine` for a game, :func:`make_sets` for bare sets of positions.
``ENGINES``, ``BACKENDS``, ``ORDERS`` and ``PARTITIONS`` are the names these
factories accept.

>>> from symbolic.seeds.games import subtraction
>>> make_engine(subtraction(5), "explicit").kind
'explicit'
>>> from symbolic.ir import IntType, Space, Var, VarDecl
>>> S = make_sets(Space((VarDecl("x", IntType(0, 9)),)), "symbolic", "autoref")
>>> S.kind, len(S.from_expr(Var("x") < 3))
('symbolic', 3)

The GDL and AIGER engines are imported on first use: a game of theirs exists only
once its front end is loaded, and a model-file run does not pay for their imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .api import GameEngine, SetEngine
from .arguments import is_loaded_instance
from .bdd import BACKENDS, ORDERS, PARTITIONS, SymbolicGame, SymbolicSets
from .bdd.managers import BACKEND_CHOICES, choose_backend, resolve_backend
from .bdd.concurrent import SymbolicConcurrentGame
from .errors import ArgumentTypeError, BadLimitType, QueryError
from .explicit import ExplicitGame, ExplicitSets
from .explicit.concurrent import ExplicitConcurrentGame
from .ir import ConcurrentGame, Game, Space
from .limits import Limits, ensure_recursion_headroom
from .limits import current as current_limits

if TYPE_CHECKING:
    from .aiger.build import AigerGame
    from .gdl.game import GdlGame

__all__ = [
    "ENGINES",
    "BACKENDS",
    "BACKEND_CHOICES",
    "ORDERS",
    "PARTITIONS",
    "make_engine",
    "make_sets",
    "choose_backend",
]

#: engine kinds; the symbolic one also takes a backend, an order and a partition
ENGINES = ("symbolic", "explicit")


def _backend(backend: str, space: Space) -> str:
    return resolve_backend(backend, space)


def _unknown(engine: str) -> QueryError:
    return QueryError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")


def _limits(limits) -> Limits:
    """``limits`` itself, or those of the enclosing :func:`symbolic.limits.using`
    block (none by default) for None; BadLimitType for anything else."""
    if limits is None:
        return current_limits()
    if not isinstance(limits, Limits):
        raise BadLimitType(
            f"limits must be a symbolic.limits.Limits or None, got {type(limits).__name__}"
        )
    return limits


def make_engine(
    game: Game | ConcurrentGame,
    engine: str = "symbolic",
    backend: str = "auto",
    *,
    order: str = "auto",
    partition: str = "moves",
    limits: Limits | None = None,
    depth: int | None = None,
    concurrent: bool | None = None,
    stop_at_best: bool = False,
) -> GameEngine:
    """An engine of the given kind for ``game`` (``backend``, ``order`` and
    ``partition`` tune the symbolic engine; the explicit engine ignores them;
    ``backend="auto"``: :func:`choose_backend`).
    ``limits`` (:class:`symbolic.limits.Limits`: timeout, memory cap, progress)
    bounds its work; the error it raises names the stage reached.
    An AIGER circuit's game (:class:`symbolic.aiger.build.AigerGame`) gets the AIGER
    engines (:mod:`symbolic.aiger.symbolic`, :mod:`symbolic.aiger.explicit`).
    A GDL game (:class:`symbolic.gdl.game.GdlGame`) gets the GDL engines, whose
    positions are its reachable states (:mod:`symbolic.gdl.symbolic`,
    :mod:`symbolic.gdl.explicit`), under the same limits; ``depth`` N keeps only
    the states reachable in at most N moves (the last layer unexpanded: the
    engine's ``frontier``); a GDL game where several roles choose at once in a
    reachable state gets the concurrent GDL engines (``concurrent``: None decides
    so, True always reads the game as concurrent, False refuses such a game);
    ``stop_at_best``: a GDL game of one role is explored up to the first layer where it
    gets its best goal (:func:`symbolic.gdl.engine.check_stop_at_best`)."""
    if stop_at_best is not False and not is_loaded_instance(game, "symbolic.gdl.game", "GdlGame"):
        raise QueryError("stopping at the best goal applies to GDL games only")
    if isinstance(game, ConcurrentGame):
        return _concurrent_engine(game, engine, backend, order, _limits(limits), depth)
    if not isinstance(game, Game):
        raise ArgumentTypeError(f"make_engine needs a Game (model.game), got {game!r}")
    limits = _limits(limits)
    ensure_recursion_headroom()
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise ArgumentTypeError(f"depth must be an int or None, got {depth!r}")
        if depth < 0:
            raise QueryError(f"the depth must be 0 or more, got {depth}")
        if not is_loaded_instance(game, "symbolic.gdl.game", "GdlGame"):
            raise QueryError(
                "a depth bound applies to GDL games only (their positions are "
                "the states reachable from init)"
            )
    if is_loaded_instance(game, "symbolic.aiger.build", "AigerGame"):
        # auto: CUDD, whose dynamic reordering the circuits need
        backend = "cudd" if backend == "auto" else backend
        return _aiger_engine(cast("AigerGame", game), engine, backend, partition, order, limits)
    if engine == "symbolic":
        backend = _backend(backend, game.space)
    if is_loaded_instance(game, "symbolic.gdl.game", "GdlGame"):
        gdl = cast("GdlGame", game)
        return _gdl_engine(
            gdl, engine, backend, partition, order, limits, depth, concurrent, stop_at_best
        )
    if engine == "symbolic":
        return SymbolicGame(game, backend=backend, partition=partition, order=order, limits=limits)
    if engine == "explicit":
        return ExplicitGame(game, limits=limits)
    raise _unknown(engine)


def _aiger_engine(
    game: AigerGame, engine: str, backend: str, partition: str, order: str, limits: Limits
) -> GameEngine:
    """The engine of a SYNTCOMP safety circuit (:mod:`symbolic.aiger.symbolic`,
    :mod:`symbolic.aiger.explicit`): the circuit read, never the IR moves."""
    from .aiger.explicit import AigerExplicitGame
    from .aiger.symbolic import AigerSymbolicGame

    if engine == "symbolic":
        return AigerSymbolicGame(
            game, backend=backend, partition=partition, order=order, limits=limits
        )
    if engine == "explicit":
        return AigerExplicitGame(game, limits=limits)
    raise _unknown(engine)


def _gdl_engine(
    game: GdlGame,
    engine: str,
    backend: str,
    partition: str,
    order: str,
    limits: Limits,
    depth,
    concurrent,
    stop_at_best: bool = False,
) -> GameEngine:
    """A GDL engine: the turn-based one, unless ``concurrent`` is True or (None) the
    turn-based exploration meets a reachable state where several roles have a choice
    (:class:`~symbolic.gdl.turns.NotTurnBased`): then the concurrent one
    (:mod:`symbolic.gdl.symbolic_concurrent`, :mod:`symbolic.gdl.explicit_concurrent`).
    The explicit engine explores at once, so that both kinds decide here."""
    from .gdl.explicit import GdlExplicitGame
    from .gdl.explicit_concurrent import GdlExplicitConcurrentGame
    from .gdl.symbolic import GdlSymbolicGame
    from .gdl.symbolic_concurrent import GdlSymbolicConcurrentGame
    from .gdl.turns import NotTurnBased

    if concurrent not in (None, True, False):
        raise ArgumentTypeError(f"concurrent must be None, True or False, got {concurrent!r}")
    if engine not in ENGINES:
        raise _unknown(engine)
    if stop_at_best and concurrent:
        raise QueryError("stopping at the best goal applies to the turn-based reading")
    tuned = {"backend": backend, "order": order, "limits": limits, "depth": depth}
    if not concurrent:
        try:
            if engine == "symbolic":
                return _in_best_order(
                    GdlSymbolicGame, game, partition=partition, stop_at_best=stop_at_best, **tuned
                )
            eng = GdlExplicitGame(game, limits=limits, depth=depth, stop_at_best=stop_at_best)
            eng.check_size()
            return eng
        except NotTurnBased:
            if concurrent is False:
                raise
    if engine == "symbolic":
        return _in_best_order(GdlSymbolicConcurrentGame, game, **tuned)
    return GdlExplicitConcurrentGame(game, limits=limits, depth=depth)


def _in_best_order(cls, game, **keywords) -> GameEngine:
    """``cls(game, fluent_order=…, on_layer=…, **keywords)``: under ``order="auto"`` in
    the fluent order that explores best (:func:`~.gdl.order_probe.build_in_best_order`),
    else in the grounded one."""
    from .gdl.order_probe import build_in_best_order

    def build(fluents, on_layer):
        return cls(game, fluent_order=fluents, on_layer=on_layer, **keywords)

    if keywords["order"] == "auto":
        return build_in_best_order(build, None, game.program.fluents, keywords["limits"])
    return build("grounded", None)


def _concurrent_engine(
    game: ConcurrentGame, engine: str, backend: str, order: str, limits: Limits, depth
) -> GameEngine:
    """The engine of a concurrent game (:mod:`symbolic.concurrent`); no partition, no depth."""
    ensure_recursion_headroom()
    if depth is not None:
        raise QueryError("a depth bound applies to GDL games only")
    if engine == "symbolic":
        return SymbolicConcurrentGame(
            game, backend=_backend(backend, game.space), order=order, limits=limits
        )
    if engine == "explicit":
        return ExplicitConcurrentGame(game, limits=limits)
    raise _unknown(engine)


def make_sets(
    space: Space,
    engine: str = "symbolic",
    backend: str = "auto",
    *,
    order: str = "auto",
    limits: Limits | None = None,
) -> SetEngine:
    """Sets of positions over ``space`` (no game), of the given engine kind."""
    if not isinstance(space, Space):
        raise ArgumentTypeError(f"make_sets needs a Space (model.game.space), got {space!r}")
    limits = _limits(limits)
    ensure_recursion_headroom()
    if engine == "symbolic":
        return SymbolicSets(space, backend=_backend(backend, space), order=order, limits=limits)
    if engine == "explicit":
        return ExplicitSets(space, limits=limits)
    raise _unknown(engine)
