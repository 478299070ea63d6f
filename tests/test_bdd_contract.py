"""symbolic.bdd.contract: the manager protocol, and the classes that implement it.

The behaviour each method promises is tested on every backend in test_bdd_backend.py;
here, the shape: every member of the protocol is documented and implemented by each
backend's class itself (or the shared base), the implementations are siblings, and the
type aliases are what the docstrings say.
"""

from __future__ import annotations

import inspect

import pytest

from symbolic.bdd import contract
from symbolic.bdd.backend import DdManager
from symbolic.bdd.base import BaseManager
from symbolic.bdd.managers import make_manager, manager_class
from symbolic.bdd.oxidd_backend import OxiddManager

IMPLEMENTATIONS = (DdManager, OxiddManager)


def protocol_members() -> dict[str, object]:
    """The members the protocol declares: methods, properties and annotated attributes."""
    members = {
        name: value
        for name, value in vars(contract.Manager).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }
    members.update({name: None for name in contract.Manager.__annotations__})
    return members


def test_the_protocol_lists_the_engines_operations():
    members = set(protocol_members())
    for name in (
        "and_",
        "and_exists",
        "implies_forall",
        "rename",
        "compose",
        "exact_count",
        "assignments",
        "copy_from",
        "declare",
        "reorder",
        "check",
        "backend",
        "limits",
        "interruptible_products",
        "names",
        "true",
        "false",
    ):
        assert name in members, name


def test_every_method_of_the_protocol_has_a_one_line_docstring():
    for name, value in protocol_members().items():
        if value is None:
            continue
        doc = inspect.getdoc(value.fget if isinstance(value, property) else value)
        assert doc and "\n" not in doc, (name, doc)


@pytest.mark.parametrize("cls", IMPLEMENTATIONS, ids=lambda c: c.__name__)
def test_each_implementation_defines_every_member(cls):
    """Defined by the class or the shared base, never an abstract or inherited stub."""
    assert not inspect.isabstract(cls), cls.__abstractmethods__
    assert contract.Manager not in cls.__mro__
    for name, value in protocol_members().items():
        if value is None:
            continue
        owner = next(k for k in cls.__mro__ if name in vars(k))
        assert owner in (cls, BaseManager), (cls.__name__, name, owner)


def test_the_implementations_are_siblings():
    assert DdManager.__bases__ == (BaseManager,) == OxiddManager.__bases__
    assert not issubclass(OxiddManager, DdManager) and not issubclass(DdManager, OxiddManager)
    assert [manager_class(b) for b in contract.BACKENDS] == [DdManager, DdManager, OxiddManager]


def test_isinstance_checks_the_contract(backend):
    assert isinstance(make_manager(backend), contract.Manager)
    assert not isinstance(object(), contract.Manager)


def test_the_aliases_name_their_types():
    assert contract.Level is int and contract.VariableName is str
    assert contract.VariableBound == tuple[int, str, bool]
    assert contract.BACKENDS == ("cudd", "autoref", "oxidd")


def test_only_the_factory_imports_an_implementation():
    """Above the managers, modules know them through the contract: only managers.py
    imports backend.py or oxidd_backend.py (the implementations import neither other)."""
    import ast
    from pathlib import Path

    import symbolic

    root = Path(symbolic.__file__).parent
    importers = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n.split(".")[-1] in ("backend", "oxidd_backend") for n in names):
                importers.add(path.relative_to(root).as_posix())
    assert importers == {"bdd/managers.py"}, importers
