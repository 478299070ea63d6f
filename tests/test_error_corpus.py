"""Every message of the error corpus, rendered by the command line (issue 23, "must be
true" 6): the pinned fuzz cases (tests/fuzz_cases/) and the cases of issue 23, run
through :func:`symbolic.cli.main` in this process with stdout and stderr captured.

A message fails when it holds a Python traceback, the name of one of symbolic's own
classes (CamelCase identifiers collected from the package with :mod:`ast`, such as
``BoolOp`` or ``ExprChecker``: a user never wrote them), or, for an error about the
contents of a file, no ``FILE:LINE:COL``.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import re
import sys
from pathlib import Path

import pytest

from symbolic.cli import main

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "symbolic"
MODELS = PACKAGE / "models"
CASES = Path(__file__).resolve().parent / "fuzz_cases"
ARENA = str(MODELS / "td_example.arena.json")
NIM = str(MODELS / "nim.game")

#: a CamelCase identifier: at least two capitalised humps (BoolOp, ExprChecker)
_CAMEL = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")


@functools.cache
def internal_class_names() -> frozenset[str]:
    """The CamelCase names of the classes defined in the package."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names.update(
            n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and _CAMEL.match(n.name)
        )
    return frozenset(names)


@functools.cache
def _named() -> re.Pattern:
    """A regex matching any internal class name (built on first use, not at collection)."""
    names = sorted(internal_class_names(), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(names) + r")\b")


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """``symbolic ARGV`` in this process: (status, stdout, stderr); a traceback
    escaping :func:`main` fails the test with its text."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:  # argparse: a refused option value
                status = exc.code
    finally:
        sys.stdin = old
    return status, out.getvalue(), err.getvalue()


def check_message(status: int, err: str, file: str | None) -> None:
    """The three rules of the module docstring (``file``: the file whose contents
    are read, when the case is about one)."""
    assert "Traceback (most recent call last)" not in err, err[-2000:]
    named = _named().search(err)
    assert named is None, f"internal class name {named.group(0)!r} in: {err[:600]}"
    if file is not None and status == 2:
        assert re.search(re.escape(file) + r":\d+:\d+: ", err), (
            f"error about {file} without FILE:LINE:COL: {err[:600]}"
        )


def test_the_class_names_are_collected_from_the_package():
    assert {"BoolOp", "ExprChecker", "SymbolicError", "GameEngine"} <= internal_class_names(), (
        sorted(internal_class_names())[:40]
    )


# --------------------------------------------------------------------------- the pinned cases

_SUFFIX = {"model": ".game", "arena": ".arena.json", "strategy": ".json", "kif": ".kif"}
PINNED = sorted(CASES.glob("*.txt"))

#: pinned inputs whose message comes from a front end another branch rewrites


def _argv(kind: str, path: str, text: str) -> tuple[list[str], str | None]:
    """The command line that reads a pinned input of ``kind`` (stored at ``path``)."""
    if kind == "model":
        return ["check", path, "--query", "true", "--timeout", "5", "--quiet"], None
    if kind == "arena":
        return ["check", path, "--query", "true", "--timeout", "5", "--quiet"], None
    if kind == "kif":
        return ["check", path, "--query", "true", "--timeout", "5", "--quiet"], None
    if kind == "strategy":
        model = ARENA if '"j' not in text and "j=" not in text else NIM
        start = "s=0" if model == ARENA else "j=1, k[1]=1, k[2]=1, k[3]=1"
        return [
            "execute",
            model,
            "--strategy",
            f"1={path}",
            "--at",
            start,
            "--max-moves",
            "3",
            "--timeout",
            "5",
        ], None
    if kind == "query":
        return ["check", NIM, "--query", text, "--timeout", "5", "--quiet"], None
    if kind == "at":
        return ["successors", NIM, "--at", text, "--quiet"], None
    if kind == "play":
        return ["play", str(MODELS / "subtraction.game"), "-p", "K=5", "--quiet"], text
    raise AssertionError(kind)


@pytest.mark.parametrize("case", PINNED, ids=[p.name for p in PINNED])
def test_the_message_of_every_pinned_input(case, tmp_path):
    kind = case.name.split("-", 1)[0]
    text = case.read_text(encoding="utf-8", errors="surrogatepass")
    path = None
    if kind in _SUFFIX:
        path = str(tmp_path / f"input{_SUFFIX[kind]}")
        Path(path).write_bytes(text.encode("utf-8", "surrogatepass"))
    argv, stdin = _argv(kind, path or "", text)
    status, _, err = run(argv, stdin)
    check_message(status, err, path)


# --------------------------------------------------------------------------- issue 23's cases

BIG = (
    'game "big"\nplayers 1, 2\nvar a : array[1..20000] of 0..3\nvar j : 1..2\nturn j\nquery true\n'
)


def _files(tmp_path: Path) -> dict[str, str]:
    """The files of the cases, written once per test."""
    files = {
        "big.game": BIG.encode(),
        "notjson.json": b"not json",
        "latin1.json": b'{"0": "\xff"}',
        "digits.json": b'{"0": ' + b"1" * 5000 + b"}",
        "true.json": b'{"0": true, "2": 3}',
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "deepvalue.json": b'{"0": ' + b"[" * 300 + b"]" * 300 + b"}",
        "twice.json": b'{"0": 1,\n "0": 4}',
        "outside.json": b'{"0": 1, "2": 99}',
        "nomove.json": b'{"moves": [5]}',
        "empty.json": b"",
        "array.json": b"[1, 2]",
    }
    out = {}
    for name, data in files.items():
        p = tmp_path / name
        p.write_bytes(data)
        out[name] = str(p)
    return out


#: (id, argv with {name} for the files above, stdin or None, expected status,
#:  the file whose contents are at fault or None, words the message must hold)
ISSUE_23 = [
    (
        "explicit position limit",
        ["check", "{big.game}", "--engine", "explicit"],
        None,
        3,
        None,
        "a number of 12042 digits",
    ),
    (
        "both position limit",
        ["check", "{big.game}", "--engine", "both"],
        None,
        3,
        None,
        "position limit reached",
    ),
    (
        "strategy not JSON",
        ["execute", ARENA, "--strategy", "1={notjson.json}", "--at", "s=0"],
        None,
        2,
        "notjson.json",
        "invalid JSON",
    ),
    (
        "strategy not UTF-8",
        ["execute", ARENA, "--strategy", "1={latin1.json}", "--at", "s=0"],
        None,
        2,
        "latin1.json",
        "not UTF-8",
    ),
    (
        "strategy 5000 digits",
        ["execute", ARENA, "--strategy", "1={digits.json}", "--at", "s=0"],
        None,
        2,
        "digits.json",
        "5000 digits",
    ),
    (
        "strategy JSON true",
        ["execute", ARENA, "--strategy", "1={true.json}", "--at", "s=0"],
        None,
        2,
        "true.json",
        "expected an integer, got true",
    ),
    (
        "strategy nested deep",
        ["execute", ARENA, "--strategy", "1={deep.json}", "--at", "s=0"],
        None,
        2,
        "deep.json",
        "nests deeper than",
    ),
    (
        "strategy value nested",
        ["execute", ARENA, "--strategy", "1={deepvalue.json}", "--at", "s=0"],
        None,
        2,
        "deepvalue.json",
        "nests deeper than",
    ),
    (
        "strategy position twice",
        ["execute", ARENA, "--strategy", "1={twice.json}", "--at", "s=0"],
        None,
        2,
        "twice.json",
        "already has a move",
    ),
    (
        "strategy outside range",
        ["execute", ARENA, "--strategy", "1={outside.json}", "--at", "s=0"],
        None,
        2,
        "outside.json",
        "outside 0..6",
    ),
    (
        "strategy move not object",
        ["execute", ARENA, "--strategy", "1={nomove.json}", "--at", "s=0"],
        None,
        2,
        "nomove.json",
        '{"from"',
    ),
    (
        "strategy empty file",
        ["execute", ARENA, "--strategy", "1={empty.json}", "--at", "s=0"],
        None,
        2,
        "empty.json",
        "expected a value",
    ),
    (
        "strategy not an object",
        ["execute", ARENA, "--strategy", "1={array.json}", "--at", "s=0"],
        None,
        2,
        "array.json",
        "expected a JSON object",
    ),
    (
        "strategy missing file",
        ["execute", ARENA, "--strategy", "1=/nonexistent/s.json", "--at", "s=0"],
        None,
        2,
        None,
        "/nonexistent/s.json: cannot read",
    ),
    (
        "play closed stdin",
        ["play", NIM, "-p", "n=2", "-p", "K=2"],
        "<closed>",
        2,
        None,
        "standard input, which is closed",
    ),
    (
        "play megabyte line",
        ["play", NIM, "-p", "n=2", "-p", "K=2"],
        "1" * 10**6 + "\n",
        0,
        None,
        "",
    ),
    (
        "play megabyte text",
        ["play", NIM, "-p", "n=2", "-p", "K=2"],
        "x" * 10**6 + "\n",
        0,
        None,
        "",
    ),
    ("timeout 1e12", ["check", NIM, "--timeout", "1e12"], None, 2, None, "at most 1000000000"),
    ("max-memory huge", ["check", NIM, "--max-memory", "9" * 400], None, 2, None, "at most"),
    ("max-memory 1e300", ["check", NIM, "--max-memory", "1e300"], None, 2, None, "at most"),
    (
        "nimbers tic-tac-toe",
        ["nimbers", str(MODELS / "tictactoe.game")],
        None,
        2,
        None,
        "normal play",
    ),
    (
        "execute max-moves -1",
        ["execute", ARENA, "--at", "s=0", "--max-moves", "-1"],
        None,
        2,
        None,
        "expected an integer >= 0",
    ),
    (
        "simulate trace -1",
        ["simulate", NIM, "--players", "optimal,random", "--trace", "-1"],
        None,
        2,
        None,
        "expected an integer >= 0",
    ),
    ("play as empty", ["play", NIM, "--as", ""], "", 2, None, "--as expects player numbers"),
    (
        "at Arabic-Indic digit",
        ["successors", NIM, "--at", "j=\u0661, k[1]=1, k[2]=1, k[3]=1"],
        None,
        2,
        None,
        "ASCII digits",
    ),
    ("param Arabic-Indic digit", ["check", NIM, "-p", "K=\u0663"], None, 2, None, "cannot read"),
    ("hackendot flat forest", ["hackendot", "()" * 10_000, "--engine", "none"], None, 0, None, ""),
]


@pytest.mark.parametrize("case", ISSUE_23, ids=[c[0] for c in ISSUE_23])
def test_the_message_of_every_case_of_issue_23(case, tmp_path, monkeypatch):
    _, argv, stdin, status, fault, words = case
    files = _files(tmp_path)
    argv = [re.sub(r"\{([\w.]+\.(?:json|game))\}", lambda m: files[m.group(1)], a) for a in argv]
    if stdin == "<closed>":  # `<&-`: Python then has no sys.stdin at all
        monkeypatch.setattr(sys, "stdin", None)
        stdin = None
        got, _, err = run_closed(argv)
    else:
        got, _, err = run(argv, stdin)
    check_message(got, err, files.get(fault) if fault else None)
    assert got == status, (got, err[:600])
    assert words in err, err[:600]


def run_closed(argv: list[str]) -> tuple[int, str, str]:
    """:func:`run` with standard input closed (sys.stdin is None)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()
