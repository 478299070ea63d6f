"""The public face: ``import symbolic`` and the ``__all__`` of every module.

``symbolic/__init__.py`` loads each documented name on first use (PEP 562); every module
of the package declares ``__all__``, naming what it defines and nothing it does not.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import symbolic

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "symbolic"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__main__.py")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_import_symbolic_is_light():
    """``import symbolic`` loads no engine, parser or BDD library until a name is used."""
    code = (
        "import sys, symbolic\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('dd', 'lark', 'oxidd')"
        " or m.startswith('symbolic.'))\n"
        "print(heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.parametrize("name", symbolic.__all__)
def test_every_public_name_resolves_to_its_home(name):
    home = importlib.import_module(symbolic._HOME[name])
    assert getattr(symbolic, name) is getattr(home, name)
    assert name in home.__all__, f"{home.__name__}.__all__ lacks {name}"


def test_dir_and_unknown_names():
    assert set(symbolic.__all__) <= set(dir(symbolic))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        symbolic.nonsense  # noqa: B018


def test_the_face_covers_the_documented_entry_points():
    for name in ("load_model", "make_engine", "PositionSet", "Values", "Nimbers", "Strategy"):
        assert name in symbolic.__all__


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_every_module_declares_all(path):
    """``__all__`` exists, has no duplicate, names only what the module has, and lists every
    public function and class the module defines (a new one cannot be forgotten)."""
    module = importlib.import_module(module_name(path))
    declared = getattr(module, "__all__", None)
    assert declared is not None, f"{path.relative_to(ROOT)} has no __all__"
    assert len(declared) == len(set(declared)), sorted(declared)
    if module is symbolic:
        return
    missing = [n for n in declared if not hasattr(module, n)]
    assert missing == [], f"{path.relative_to(ROOT)}: __all__ names what is not there"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    public_defs = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
    }
    unlisted = sorted(public_defs - set(declared))
    assert unlisted == [], f"{path.relative_to(ROOT)}: public but not in __all__"


def test_all_of_the_face_is_its_table():
    assert sorted(symbolic.__all__) == sorted(symbolic._HOME)
