"""Text stays at the top (issue 33, item 3): no module below the front ends calls the
parser at run time.

The front ends read text (the layers ``lang``, ``gdl-front`` and ``model`` of
docs/architecture.md's table); the command line, the package's entry point and the
answer sheets of ``seeds`` (which read their shipped model files through the facades)
sit above them and may call them. Every other module of ``symbolic/`` receives checked
formulas, definitions and games: a call of a parser entry point there (``model.formula``,
``parse_formula``, ``load_model``, ...), an import of one, or any use of lark, is what
this test finds, by reading every module's syntax tree (docstrings are not calls, so a
doctest's ``m.formula(...)`` is not counted).
"""

from __future__ import annotations

import ast
from pathlib import Path

from .test_architecture import LAYERS, MODULES, layer_of

#: the layers whose modules read text, and those above them that may call them; a Dask
#: worker process (``distributed``) is an entry point like the command line: it is handed
#: a model file's name and parameters and reads it there, as ``symbolic`` would
TEXT_LAYERS = {"lang", "gdl-front", "model", "cli", "package", "seeds", "distributed"}

#: the entry points of the front ends: each turns text into an AST, a checked model or
#: a formula (``formula`` and ``with_params`` are the Model's, ``parse`` the arena
#: reader's)
PARSERS = {
    "formula",
    "with_params",
    "parse_formula",
    "parse_model",
    "load_model",
    "parse_state_expr",
    "parse_arena",
    "parse_formula_text",
    "parse_model_text",
    "parse_kif",
    "gdl_program",
    "gdl_model",
    "read_arena",
}


def parser_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) for every call of a parser entry point, import of one, and use of
    lark in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in PARSERS:
                found.append((node.lineno, f"calls {name}"))
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] == "lark":
                found.append((node.lineno, "imports lark"))
            found += [(node.lineno, f"imports {a.name}") for a in node.names if a.name in PARSERS]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, "imports lark") for a in node.names if a.name.split(".")[0] == "lark"
            ]
    return found


def below_the_front_ends() -> dict[str, Path]:
    return {
        name: path
        for name, path in MODULES.items()
        if layer_of(name, LAYERS).name not in TEXT_LAYERS
    }


def test_no_module_below_the_front_ends_calls_the_parser():
    found = [
        f"{path.relative_to(path.parents[1])}:{line}: {what}"
        for name, path in below_the_front_ends().items()
        for line, what in parser_uses(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "\n".join(found)


def test_the_scan_sees_what_it_looks_for():
    # what analysis/layered.py did before issue 33: parse again from the analysis layer
    assert parser_uses('def f(model, e):\n    return model.formula("initial")\n') == [
        (2, "calls formula")
    ]
    assert parser_uses("from lark import Lark\nimport lark.exceptions\n") == [
        (1, "imports lark"),
        (2, "imports lark"),
    ]
    assert parser_uses("from ..model import load_model\n") == [(1, "imports load_model")]
    # a doctest is text, not a call
    assert parser_uses('def f():\n    """>>> m.formula("x")"""\n') == []


def test_the_scan_covers_the_analyses_and_the_engines():
    below = below_the_front_ends()
    for name in (
        "symbolic.analysis.layered",
        "symbolic.analysis.layered_solve",
        "symbolic.api.layers",
        "symbolic.atl",
        "symbolic.engines",
        "symbolic.bdd.engine",
        "symbolic.gdl.solve",
        "symbolic.pictures.board",
    ):
        assert name in below, name
    for name in (
        "symbolic.model",
        "symbolic.lang.parser",
        "symbolic.gdl.kif",
        "symbolic.cli.check",
    ):
        assert name not in below, name
