"""symbolic.engines: the one factory of engines (games and bare sets), by name."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from symbolic import engines
from symbolic.engines import BACKENDS, ENGINES, make_engine, make_sets
from symbolic.errors import QueryError
from symbolic.seeds.games import subtraction
from symbolic.ir import IntType, Space, Var, VarDecl

SRC = Path(__file__).resolve().parent.parent / "symbolic"
SPACE = Space((VarDecl("x", IntType(0, 9)), VarDecl("y", IntType(0, 3))))


def kinds():
    return [("explicit", "cudd")] + [("symbolic", b) for b in BACKENDS]


@pytest.mark.parametrize("engine, backend", kinds())
def test_make_sets_builds_the_named_kind(engine, backend):
    S = make_sets(SPACE, engine, backend)
    assert S.kind == engine and S.space == SPACE
    x, y = Var("x"), Var("y")
    assert S.from_expr((x + y).eq(3)).tuples() == [(0, 3), (1, 2), (2, 1), (3, 0)]


@pytest.mark.parametrize("engine, backend", kinds())
def test_make_engine_builds_the_named_kind(engine, backend):
    G = make_engine(subtraction(4), engine, backend)
    assert G.kind == engine
    assert sorted(G.deadlocks().tuples()) == [(1, 0), (2, 0)]


@pytest.mark.parametrize("factory, arg", [(make_sets, SPACE), (make_engine, subtraction(3))])
def test_unknown_engine_is_a_query_error(factory, arg):
    with pytest.raises(QueryError, match="unknown engine 'bdd': choose one of symbolic, explicit"):
        factory(arg, "bdd")


def test_public_vocabulary():
    assert ENGINES == ("symbolic", "explicit")
    assert set(engines.__all__) == {
        "ENGINES",
        "BACKENDS",
        "BACKEND_CHOICES",
        "ORDERS",
        "PARTITIONS",
        "make_engine",
        "make_sets",
        "choose_backend",
    }
    assert engines.BACKEND_CHOICES == ("auto",) + engines.BACKENDS
    assert "auto" in engines.ORDERS and "moves" in engines.PARTITIONS


def test_backend_auto_takes_oxidd_above_2_to_the_20_value_vectors():
    small = Space((VarDecl("x", IntType(0, 2**20 - 1)),))
    large = Space((VarDecl("x", IntType(0, 2**21 - 1)),))
    assert engines.choose_backend(small) == "cudd"
    assert engines.choose_backend(large) == "oxidd"  # installed by the test extra
    assert make_sets(large, "symbolic", "auto").manager.backend == "oxidd"
    assert make_sets(large).manager.backend == "oxidd"  # auto is the default
    assert make_sets(small).manager.backend == "cudd"


def test_every_symbolic_engine_takes_auto_by_default_and_names_what_it_chose():
    from symbolic.bdd import SymbolicGame
    from symbolic.gdl.symbolic import GdlSymbolicGame
    from symbolic.model import load_model

    nim = load_model("models/nim.game", {"n": 6, "K": 7})  # 2^19 value vectors: cudd
    big = load_model("models/nim.game", {"n": 6, "K": 15})  # 2^25: oxidd
    ttt = load_model("models/gdl/ticTacToe.kif")  # 29 fluents: oxidd
    race = load_model("models/race.game")  # concurrent, small: cudd
    assert make_engine(nim.game).manager.backend == "cudd"
    assert make_engine(big.game).manager.backend == "oxidd"
    assert SymbolicGame(big.game).manager.backend == "oxidd"
    assert GdlSymbolicGame(ttt.game).manager.backend == "oxidd"
    assert make_engine(ttt.game).manager.backend == "oxidd"
    assert make_engine(race.game).manager.backend == "cudd"
    assert make_engine(big.game, "symbolic", "cudd").manager.backend == "cudd"
    assert make_engine(nim.game, "symbolic", "autoref").manager.backend == "autoref"


CLI_MODULES = sorted(p.relative_to(SRC).as_posix() for p in (SRC / "cli").glob("*.py"))


def _names(node) -> list[str]:
    return [a.name for a in node.names] if isinstance(node, ast.Import) else []


@pytest.mark.parametrize("module", CLI_MODULES + ["seeds/ens2005.py", "engines.py"])
def test_engines_are_built_only_by_engines_py_and_imports_are_at_the_top(module):
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node not in tree.body:
            # engines.py imports the GDL and AIGER engines on first use (start-up); so do
            # cli/aiger.py the model and the engines, which its answer-only run (the safety
            # solver alone) never needs, and cli/__init__.py the version's metadata
            lazy = (
                (module == "engines.py" and (node.module or "").startswith(("gdl.", "aiger.")))
                or module == "cli/aiger.py"
                or (module == "cli/__init__.py" and _names(node) == ["importlib.metadata"])
            )
            assert lazy, f"{module}:{node.lineno}: import inside a function"
        if isinstance(node, ast.ImportFrom) and module != "engines.py":
            name = (node.module or "").removeprefix("symbolic.")
            # the manager protocol's constants (cli/basics.py: the backends' names) are no engine
            assert name == "bdd.contract" or not name.startswith(("bdd", "explicit")), (
                f"{module}:{node.lineno}: engine classes come from symbolic.engines"
            )


def test_a_model_file_run_imports_no_gdl_or_aiger_front_end():
    """The GDL and AIGER front ends and engines load on first use: a model file's
    load, engine and answer leave them out of ``sys.modules``; a .kif file loads them."""
    code = (
        "import sys; from symbolic.model import load_model; from symbolic.engines import "
        "make_engine; m = load_model('nim'); make_engine(m.game).positions().count(); "
        "print(sorted(n for n in sys.modules if n.startswith(('symbolic.gdl', "
        "'symbolic.aiger'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    kif = code.replace("load_model('nim')", "load_model('gdl/nim1')")
    out = subprocess.run([sys.executable, "-c", kif], capture_output=True, text=True, check=True)
    assert "'symbolic.gdl.symbolic'" in out.stdout, out.stdout


def _young_managers() -> int:
    """How many BDD managers the collector's youngest generation holds, garbage not yet
    collected included: with the collector off, every object made since the last
    collection (the whole heap is walked otherwise, a second a call in a test run)."""
    import gc

    from symbolic.bdd.base import BaseManager

    return sum(isinstance(o, BaseManager) for o in gc.get_objects(generation=0))


def _model_work(backend):
    from symbolic.analysis.layered import evaluate_queries
    from symbolic.model import load_model

    for name, query in (("nim", "initial and wins(1)"), ("pennies", "<<1>> [] true")):
        model = load_model(name)
        G = make_engine(model.game, "symbolic", backend)
        for mode in ("auto", "off"):
            (answer,) = evaluate_queries(
                model.definitions, [(query, model.formula(query))], G, mode
            )
            assert answer.positions.count() >= 0, (name, mode)


def _gdl_work(backend):
    from symbolic.gdl.load import gdl_model
    from symbolic.gdl.solve import dead_ends, forced_values

    gdl = Path(__file__).resolve().parent / "gdl"
    for path in (gdl.parent.parent / "models" / "gdl" / "nim1.kif", gdl / "pennies.kif"):
        model = gdl_model(path.read_text(), path.name)
        G = make_engine(model.game, "symbolic", backend)
        assert G.reach is not None and G.reach.result == G.positions(), path
        assert forced_values(model, G), path
        dead_ends(model, G)


@pytest.mark.parametrize("work", [_model_work, _gdl_work], ids=["model", "gdl"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_an_engine_and_its_manager_are_freed_without_the_cycle_collector(work, backend):
    """An engine holds no cycle through its sets: dropped, its manager goes at once,
    by reference counting. The collector does not see the manager's own memory (CUDD's
    tables, oxidd's), so garbage cycles holding managers grew a long run to 24 GB."""
    import gc

    gc.disable()
    gc.collect(0)  # every object alive now leaves the youngest generation
    try:
        assert _young_managers() == 0
        work(backend)
        left = _young_managers()
    finally:
        gc.enable()
    assert left == 0, f"{left} managers wait for the cycle collector after {work.__name__}"
