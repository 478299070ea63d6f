"""docs/architecture.md's import rules, checked against the real imports of every module.

The rules table of the page is the data: each module of the package belongs to the first
layer whose pattern matches its name, and each of its imports (module level, inside
functions, under ``TYPE_CHECKING``) must reach its own layer or a layer its row allows.
The same walk forbids import cycles, modules over 600 lines and functions over 80 lines.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "symbolic"
PAGE = ROOT / "docs" / "architecture.md"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


@dataclass(frozen=True)
class Layer:
    name: str
    patterns: tuple[str, ...]
    allowed: frozenset[str] | None  # None: any layer


def read_layers(text: str) -> list[Layer]:
    """The rows of the table under '## Import rules', in order."""
    section = text.split("## Import rules", 1)[1].split("\n## ", 1)[0]
    layers = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("layer", "---"):
            continue
        name, modules, allowed = cells
        patterns = tuple(re.findall(r"`([^`]+)`", modules))
        assert patterns, line
        names = frozenset(a.strip() for a in allowed.split(",") if a.strip())
        layers.append(Layer(name, patterns, None if names == {"*"} else names))
    return layers


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """(line, module) for every import of a module of the package, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from pkg import sub` imports the module pkg.sub when there is one
            targets = [
                f"{module}.{a.name}" if f"{module}.{a.name}" in known else module
                for a in node.names
            ]
        else:
            continue
        found += [(node.lineno, t) for t in targets if t == "symbolic" or t.startswith("symbolic.")]
    return found


def layer_of(name: str, layers: list[Layer]) -> Layer | None:
    for layer in layers:
        if any(fnmatch.fnmatchcase(name, p) for p in layer.patterns):
            return layer
    return None


LAYERS = read_layers(PAGE.read_text(encoding="utf-8"))
MODULES = modules()


def test_the_table_is_well_formed():
    names = [layer.name for layer in LAYERS]
    assert len(names) == len(set(names)), names
    for layer in LAYERS:
        unknown = (layer.allowed or frozenset()) - set(names)
        assert not unknown, (layer.name, sorted(unknown))


def test_every_module_belongs_to_a_layer():
    homeless = [m for m in MODULES if layer_of(m, LAYERS) is None]
    assert homeless == [], f"modules in no layer of docs/architecture.md: {homeless}"


def violations(name: str, path: Path, known: set[str]) -> list[str]:
    """The imports of one module that the table forbids, as located lines."""
    mine = layer_of(name, LAYERS)
    out = []
    for line, target in imports_of(name, path, known):
        where = f"{path.name}:{line}"
        if target not in known:
            out.append(f"{where}: {target} is not a module")
            continue
        theirs = layer_of(target, LAYERS)
        if mine.allowed is None or theirs.name == mine.name or theirs.name in mine.allowed:
            continue
        out.append(f"{where}: {name} ({mine.name}) imports {target} ({theirs.name})")
    return out


def test_every_import_follows_the_rules():
    known = set(MODULES)
    broken = [v for name, path in MODULES.items() for v in violations(name, path, known)]
    assert broken == [], "\n".join(broken)


def test_function_level_and_type_checking_imports_count(tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..analysis.values import ranks\n"
        "def f():\n    from ..seeds import games\n    from .. import api\n"
    )
    found = violations("symbolic.bdd.fake", fake, set(MODULES))
    assert found == [
        "fake.py:3: symbolic.bdd.fake (bdd) imports symbolic.analysis.values (analysis)",
        "fake.py:5: symbolic.bdd.fake (bdd) imports symbolic.seeds.games (seeds)",
    ], found


def _graph() -> dict[str, set[str]]:
    known = set(MODULES)
    graph = {}
    for name, path in MODULES.items():
        edges = set()
        for _, target in imports_of(name, path, known):
            # importing a.b.c runs a/__init__ and a.b/__init__ first
            parts = target.split(".")
            edges.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        edges.discard(name)
        # a package's __init__ importing its own submodules is how packages work: the
        # edge submodule -> parent package is implied by Python, not by the code
        graph[name] = {t for t in edges if t in known and not name.startswith(t + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the directed graph, or None (iterative depth-first search)."""
    colour = dict.fromkeys(graph, 0)  # 0 new, 1 on the stack, 2 done
    for start in sorted(graph):
        if colour[start]:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        colour[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
            elif colour[nxt] == 1:
                path = [n for n, _ in stack]
                return path[path.index(nxt) :] + [nxt]
            elif colour[nxt] == 0:
                colour[nxt] = 1
                stack.append((nxt, iter(sorted(graph[nxt]))))
    return None


def test_no_import_cycle():
    cycle = find_cycle(_graph())
    assert cycle is None, " -> ".join(cycle)


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_sizes(name):
    path = MODULES[name]
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(ROOT)}: {lines} lines"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == [], f"{path.relative_to(ROOT)}: {long}"
