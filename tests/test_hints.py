"""Errors below the command line say what went wrong in the Python API's words, with
a machine-readable hint (:class:`symbolic.errors.Hint`); the command line spells the
hints as its flags (issue 33, item 3).

The scan: no string of a module under ``symbolic/`` other than the command line
(``symbolic/cli/``, ``symbolic/__main__.py``) names a flag, docstrings aside (they may
say which flag a setting answers to).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from symbolic.analysis.layered import initial_set
from symbolic.analysis.layered_solve import graded_reach
from symbolic.bdd.managers import make_manager
from symbolic.bdd.oxidd_sizing import fit_address_space
from symbolic.cli import build_parser
from symbolic.cli.common import FLAGS, error_text, flag_words
from symbolic.engines import make_engine
from symbolic.errors import (
    PYTHON_NAMES,
    BadLimit,
    Hint,
    LimitExceeded,
    OutOfMemory,
    QueryError,
    TooManyVariables,
    python_words,
)
from symbolic.limits import Limits
from symbolic.model import load_model

from .conftest import ROOT, run

PACKAGE = ROOT / "symbolic"


def options() -> set[str]:
    """Every option string of the command line, its commands' included."""
    found, parsers = set(), [build_parser()]
    while parsers:
        p = parsers.pop()
        for action in p._actions:
            found.update(action.option_strings)
            if isinstance(action.choices, dict):
                parsers.extend(action.choices.values())
    return found


#: a long flag (``--max-memory``), or one of the command line's short ones (``-p``)
SHORT = sorted(o[1:] for o in options() if not o.startswith("--"))
FLAG = re.compile(rf"(?<![\w-])(--[a-z][\w-]*|-[{''.join(SHORT)}]\b)")


def flags_in(source: str) -> list[tuple[int, str]]:
    """(line, flag) of every flag named by a string of ``source`` (f-string parts
    included) other than a docstring."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return sorted(
        {
            (node.lineno, m.group(1))
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            for m in FLAG.finditer(node.value)
        }
    )


def below_the_command_line() -> list[Path]:
    return [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.relative_to(PACKAGE).parts[0] not in ("cli", "__main__.py")
    ]


def test_no_message_below_the_command_line_names_a_flag():
    modules = below_the_command_line()
    assert len(modules) > 50 and PACKAGE / "errors.py" in modules, len(modules)
    leaks = [
        f"{p.relative_to(ROOT)}:{line}: {flag}"
        for p in modules
        for line, flag in flags_in(p.read_text(encoding="utf-8"))
    ]
    assert leaks == [], "\n".join(leaks)


def test_the_flag_scan_would_see_a_leak():
    source = (
        '"""Module: --timeout is named here, in a docstring."""\n'
        "def f(n):\n"
        '    """Also --max-memory here."""\n'
        "    if n:\n"
        '        raise QueryError(f"{n} too large: raise --max-memory")\n'
        '    warn("a smaller parameter, -p, helps")\n'
        '    return "-k loses; x--y; ulimit -v"\n'
    )
    assert flags_in(source) == [(5, "--max-memory"), (6, "-p")]
    assert "p" in SHORT


def test_every_hint_has_python_words_and_a_flag():
    assert set(FLAGS) == set(PYTHON_NAMES)
    known = options()
    assert [f for f in FLAGS.values() if f.split()[0] not in known] == []
    assert [w for w in PYTHON_NAMES.values() if FLAG.search(w)] == []
    with pytest.raises(AssertionError):
        Hint("raise", "max-memory")  # a setting is named as the Python API names it


@pytest.mark.parametrize(
    "hint,python,cli",
    [
        (Hint("raise", "max_memory"), "Limits.max_memory", "--max-memory"),
        (Hint("lower", "threads"), "Limits.threads", "--threads"),
        (Hint("choose", "backend", ("cudd",)), "backend='cudd'", "--backend cudd"),
        (
            Hint("choose", "layered", ("auto", "off")),
            "mode='auto' or 'off'",
            "--layered auto or off",
        ),
        (Hint("given", "layered", ("on",)), "mode='on'", "--layered on"),
        (Hint("give", "at", ("j", "k[2]")), "at={'j': ..., 'k[2]': ...}", "--at 'j=..., k[2]=...'"),
        (Hint("omit", "at", ("k[1]",)), "at", "--at"),
        (Hint("give", "start"), "strategy.outcome(SET)", "--from SET"),
    ],
)
def test_a_hint_in_both_words(hint, python, cli):
    assert (python_words(hint), flag_words(hint)) == (python, cli)


def test_a_layered_refusal_names_the_mode_and_the_flag():
    model = load_model(ROOT / "models" / "nim.game")
    engine = make_engine(model.game, "explicit")
    with pytest.raises(QueryError) as info:
        graded_reach(engine, initial_set(engine, model.definitions), "on")
    err = info.value
    assert err.hints == (
        Hint("given", "layered", ("on",)),
        Hint("choose", "layered", ("auto", "off")),
    ), err.hints
    tail = (
        ": the game is not graded from the positions it starts from (a move reaches a "
        "layer already seen); use "
    )
    assert str(err) == f"mode='on'{tail}mode='auto' or 'off'", str(err)
    assert error_text(err) == f"--layered on{tail}--layered auto or off", error_text(err)


def test_the_position_limit_advises_a_larger_memory_cap(capsys):
    model = load_model("nim", {"n": 6, "K": 100})
    engine = make_engine(model.game, "explicit", limits=Limits(max_memory=512))
    with pytest.raises(LimitExceeded) as info:
        engine.positions()
    assert info.value.hints == (Hint("raise", "max_memory"),)
    assert "(Limits.max_memory raises or lowers it, at " in str(info.value), str(info.value)
    status, _, err = run(
        capsys,
        "check",
        "nim",
        "-p",
        "n=6",
        "-p",
        "K=100",
        "--engine",
        "explicit",
        "--query",
        "mover_wins",
        "--max-memory",
        "512",
    )
    assert status == 3 and "(--max-memory raises or lowers it, at " in err, err


def test_too_many_variables_advise_memory_and_the_other_backend():
    m = make_manager("cudd", max_memory=64 << 20)
    with pytest.raises(TooManyVariables) as info:
        m.require_variables(m.variable_bound()[0] + 1, "a space")
    err = info.value
    assert err.hints == (Hint("raise", "max_memory"), Hint("choose", "backend", ("oxidd",)))
    assert str(err).endswith("; raise Limits.max_memory or try backend='oxidd'"), str(err)
    assert error_text(err).endswith("; raise --max-memory or try --backend oxidd"), str(err)


def test_oxidd_refusals_advise_fewer_threads_and_a_smaller_cache():
    with pytest.raises(OutOfMemory) as info:
        fit_address_space(1 << 20, 2, 1 << 10, 1 << 30, Limits())
    assert info.value.hints == (Hint("lower", "threads"), Hint("choose", "backend", ("cudd",)))
    assert error_text(info.value).endswith(
        ": ask for fewer --threads, raise ulimit -v or use --backend cudd"
    ), error_text(info.value)
    pytest.importorskip("oxidd")
    model = load_model("nim", {"n": 2, "K": 3})
    with pytest.raises(BadLimit) as info:
        make_engine(
            model.game, "symbolic", backend="oxidd", limits=Limits(cache_bits=24, max_memory=200)
        )
    assert info.value.hints == (Hint("lower", "cache_bits"),)
    assert str(info.value).endswith("ask for fewer Limits.cache_bits"), str(info.value)
