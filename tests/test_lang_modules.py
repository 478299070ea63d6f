"""The front end's module structure: symbolic.lang stands below symbolic.model."""

from __future__ import annotations

import subprocess
import sys


def test_the_front_end_never_imports_the_model_module():
    code = "import sys, symbolic.lang, symbolic.lang.decls; print('symbolic.model' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _listed_modules() -> list[str]:
    """The modules of symbolic.lang in the order of the package docstring's list."""
    import re

    import symbolic.lang

    # each item starts with its modules: "- :mod:`.calls`, :mod:`.exprs`: ..."
    heads = re.findall(r"^- ((?::mod:`\.\w+`(?:, )?)+)", symbolic.lang.__doc__, re.M)
    return [m for head in heads for m in re.findall(r"`\.(\w+)`", head)]


def _imported_lang_modules(path) -> set[str]:
    """The symbolic.lang modules a module imports, anywhere in it (function-level and
    TYPE_CHECKING imports included)."""
    import ast

    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                if node.module:
                    out.add(node.module.split(".")[0])
                else:
                    out.update(a.name for a in node.names)
            elif node.module and node.module.startswith("symbolic.lang."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out.update(
                a.name.split(".")[2] for a in node.names if a.name.startswith("symbolic.lang.")
            )
    return out


def test_each_module_imports_only_modules_listed_before_it():
    from pathlib import Path

    import symbolic.lang

    listed = _listed_modules()
    package = Path(symbolic.lang.__file__).parent
    present = sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__")
    assert sorted(listed) == present, (listed, present)
    for i, name in enumerate(listed):
        imported = _imported_lang_modules(package / f"{name}.py")
        later = imported - set(listed[:i])
        assert not later, (name, sorted(later))


def test_no_module_over_600_lines_nor_function_over_80():
    import ast
    from pathlib import Path

    import symbolic.lang

    package = Path(symbolic.lang.__file__).parent
    for path in sorted(package.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") <= 600, (path.name, text.count("\n"))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                assert length <= 80, (path.name, node.name, length)
