"""The four explicit engines are built from named parts, each properly initialised (issue 33).

The model-language engines (:class:`~symbolic.explicit.ExplicitGame`,
:class:`~symbolic.explicit.concurrent.ExplicitConcurrentGame`) and the GDL ones
(:class:`~symbolic.gdl.explicit.GdlExplicitGame`,
:class:`~symbolic.gdl.explicit_concurrent.GdlExplicitConcurrentGame`) share their
parts by inheriting them whole: constructing any of them runs the ``__init__`` of
every class of its MRO that has one, and no two of those ``__init__`` set the same
field — so a field added to a part reaches every engine, and no engine re-creates
a part's private state by hand. The turn-based ones answer through the same
:class:`~symbolic.explicit.counting.CountingGame`, and agree with each other.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

from symbolic.api import DeadEnds
from symbolic.explicit import ExplicitGame
from symbolic.explicit.concurrent import ExplicitConcurrentGame
from symbolic.explicit.counting import CountingGame, IndexedEngine
from symbolic.gdl.explicit import GdlExplicitGame
from symbolic.gdl.explicit_concurrent import GdlExplicitConcurrentGame
from symbolic.model import load_model

ROOT = Path(__file__).parent.parent


def _engines():
    """(engine class, a game for it) for the four explicit engines."""
    return [
        (ExplicitGame, load_model(ROOT / "models" / "subtraction.game").game),
        (ExplicitConcurrentGame, load_model(ROOT / "models" / "pennies.game").game),
        (GdlExplicitGame, load_model(ROOT / "models" / "gdl" / "nim1.kif").game),
        (GdlExplicitConcurrentGame, load_model(ROOT / "tests" / "gdl" / "pennies.kif").game),
    ]


def _initialised(cls) -> list[type]:
    """The classes of ``cls``'s MRO that define their own ``__init__``."""
    return [k for k in cls.__mro__ if "__init__" in vars(k) and k is not object]


def _fields(k: type) -> set[str]:
    """The attributes ``self.X = ...`` assigned by ``k.__init__`` (its source)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(vars(k)["__init__"])))
    out = set()
    for node in ast.walk(tree):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        for t in targets:
            for e in ast.walk(t):
                if (
                    isinstance(e, ast.Attribute)
                    and isinstance(e.value, ast.Name)
                    and e.value.id == "self"
                ):
                    out.add(e.attr)
    return out


@pytest.mark.parametrize("cls, game", _engines(), ids=lambda x: getattr(x, "__name__", ""))
def test_every_part_is_initialised(cls, game, monkeypatch):
    called = []
    for k in _initialised(cls):

        def wrapped(self, *args, __k=k, __init=vars(k)["__init__"], **kwargs):
            called.append(__k)
            __init(self, *args, **kwargs)

        monkeypatch.setattr(k, "__init__", wrapped)
    cls(game)
    assert set(called) == set(_initialised(cls)), (cls, called)
    assert len(called) == len(set(called)), called  # each once


@pytest.mark.parametrize("cls", [c for c, _ in _engines()], ids=lambda c: c.__name__)
def test_no_field_is_set_by_two_parts(cls):
    seen: dict[str, type] = {}
    for k in _initialised(cls):
        for f in _fields(k):
            assert f not in seen, (
                f"{cls.__name__}: {f} is set by {seen[f].__name__} and {k.__name__}"
            )
            seen[f] = k


def test_the_turn_based_engines_answer_through_one_part():
    for cls in (ExplicitGame, GdlExplicitGame):
        assert issubclass(cls, CountingGame)
        for name in ("pre_exists", "pre_forall", "until", "release", "post", "deadlocks"):
            assert getattr(cls, name) is getattr(CountingGame, name) or getattr(
                cls, name
            ) is getattr(IndexedEngine, name), (cls, name)
    assert not issubclass(GdlExplicitConcurrentGame, CountingGame)
    assert not issubclass(GdlExplicitGame, ExplicitGame)


def test_a_gdl_relation_gives_sets_of_its_own_engine():
    G = GdlExplicitGame(load_model(ROOT / "models" / "gdl" / "nim1.kif").game)
    moves = G.moves_between(G.positions(), G.positions())
    assert moves.sources() == G.positions() - G.deadlocks()
    assert (G.positions() & moves.image(G.positions())) == G.post(G.positions())
    win = G.until(G.game.players, G.positions(), G.deadlocks(), dead_ends=DeadEnds.VACUOUS)
    assert win.result == G.positions() | win.result
