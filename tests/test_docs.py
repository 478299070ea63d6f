"""Every example of README.md, docs/*.md and bench/README.md runs and prints
what the page says (the conventions of the project's notes, "Conventions for
examples"):

- a ```console block: each line ``$ COMMAND`` is run by bash from the repository
  root, ``symbolic`` being this virtual environment's (its ``bin`` first on the
  PATH); a plain ``symbolic ARGS`` line (no shell syntax, no limit or process
  option: :func:`in_process`) is run as :func:`symbolic.cli.main` in this process
  instead, the same code without half a second of interpreter start-up; the lines after it, up to the next ``$ `` line, are its expected stdout
  (stderr when the command writes nothing on stdout). A line ``...`` matches
  any number of lines; ``...`` inside a line matches any text on that line. An
  exit status other than 0 is accepted only when the expected output shows an
  error (a line starting ``symbolic:`` or holding ``error``);
- a ```pycon block: a doctest (ELLIPSIS on); a ```python block: executed, must
  not raise. The Python blocks of one page share one namespace, in page order;
- any other block (```text, ```kif, ```game, plain ```) is not run.

One test per page, every block of it in order; a failure names the page, the
block (its number and line), the command, and the expected and printed texts.
Files a console block writes in the repository root (``> s1.json``) are removed.
"""

from __future__ import annotations

import contextlib
import difflib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import ROOT

#: seconds allowed to one console command (every example must be fast)
TIMEOUT = 20
RUN_KINDS = ("console", "pycon", "python")
FENCE = re.compile(r"^(\s*)```+\s*([\w+-]*)\s*$")


def pages() -> list[Path]:
    """The pages whose examples run: the README, every docs/*.md, bench/README.md."""
    found = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "bench" / "README.md",
    ]
    return [p for p in found if p.is_file()]


@dataclass(frozen=True)
class Block:
    kind: str  # the fence's language ("" for a plain fence)
    line: int  # 1-based line of the opening fence
    text: str  # the lines between the fences, indentation of the fence removed


def blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order.

    >>> [(b.kind, b.line, b.text) for b in blocks("a\\n```console\\n$ ls\\n```\\n```\\nx\\n```\\n")]
    [('console', 2, '$ ls\\n'), ('', 5, 'x\\n')]
    """
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, kind, start = len(m.group(1)), m.group(2), i
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```+\s*$", lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        out.append(Block(kind, start + 1, "".join(l + "\n" for l in body)))
        i += 1
    return out


def commands(block: str) -> list[tuple[str, list[str]]]:
    """``(command, expected lines)`` for each ``$ `` line of a console block."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"console block: output before the first '$ ' line: {line!r}")
    return out


def _trim(lines: list[str]) -> list[str]:
    lines = [l.rstrip() for l in lines]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def matches(expected: list[str], got: str) -> bool:
    """Does ``got`` match the expected lines, ``...`` eliding lines or text?

    >>> matches(["a ... c", "...", "z"], "a b c\\nx\\ny\\nz\\n")
    True
    >>> matches(["a", "..."], "b\\n")
    False
    """
    parts = []
    for line in _trim(expected):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(p) for p in line.split("...")) + r"\n")
    text = "".join(l + "\n" for l in _trim(got.splitlines()))
    return re.fullmatch("".join(parts), text) is not None


def _shows_error(expected: list[str]) -> bool:
    return any(l.startswith("symbolic:") or "error" in l for l in expected)


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("COLUMNS", None)
    return env


#: options whose work lies outside :func:`symbolic.cli.main` (the ``symbolic`` process's
#: watchdog, signal handlers and exit; worker processes): their examples run in bash
PROCESS_OPTIONS = ("--timeout", "--max-memory", "--jobs", "--workers", "--scheduler")


def in_process(cmd: str) -> list[str] | None:
    """The arguments of ``cmd`` if it is a plain ``symbolic ARGS`` line that
    :func:`symbolic.cli.main` can run in this process; None when bash must run it
    (pipes, redirections, expansions, several commands, a process option).

    >>> in_process("symbolic check nim -q '<<1>> F win(1)'")
    ['check', 'nim', '-q', '<<1>> F win(1)']
    >>> in_process("symbolic show nim | head -1"), in_process("symbolic x --timeout 1")
    (None, None)
    """
    if any(c in cmd for c in "$`*?~\\"):
        return None
    lexer = shlex.shlex(cmd, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:  # an unclosed quote: bash's message
        return None
    if not words or words[0] != "symbolic" or any(set(w) <= set("|&;<>()") for w in words):
        return None
    args = words[1:]
    if any(w.split("=", 1)[0] in PROCESS_OPTIONS for w in args):
        return None
    return args


def _run_here(args: list[str]) -> tuple[int, str, str]:
    """``symbolic ARGS`` as :func:`symbolic.cli.main` in this process: (status, stdout,
    stderr), stdin empty and no ``COLUMNS`` (as :func:`_env` gives bash)."""
    from symbolic.cli import main

    out, err = io.StringIO(), io.StringIO()
    columns = os.environ.pop("COLUMNS", None)
    stdin, sys.stdin = sys.stdin, io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(args)
            except SystemExit as exc:  # argparse: --help, or a refused argument
                status = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = stdin
        if columns is not None:
            os.environ["COLUMNS"] = columns
    return status, out.getvalue(), err.getvalue()


def _run_bash(cmd: str) -> tuple[int, str, str]:
    r = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + cmd],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    return r.returncode, r.stdout, r.stderr


def run_console(block: Block, where: str) -> list[str]:
    """The failures of one console block (empty: it printed what it says)."""
    failures = []
    for cmd, expected in commands(block.text):
        if ".venv/bin/" in cmd:
            failures.append(f"{where}: write `$ symbolic ...`, not a path into .venv: {cmd}")
            continue
        args = in_process(cmd)
        try:
            status, stdout, stderr = _run_bash(cmd) if args is None else _run_here(args)
        except subprocess.TimeoutExpired:
            failures.append(
                f"{where}: `$ {cmd}` ran over {TIMEOUT} s (examples must be fast;"
                f" show long runs as ```text measurements)"
            )
            continue
        got = stdout if stdout else stderr
        if status != 0 and not _shows_error(expected):
            failures.append(
                f"{where}: `$ {cmd}` exited {status} but the page shows no "
                f"error\n--- stderr:\n{stderr}"
            )
        elif not matches(expected, got):
            diff = "\n".join(
                difflib.unified_diff(
                    _trim(expected),
                    _trim(got.splitlines()),
                    "expected (the page)",
                    "got (the command)",
                    lineterm="",
                )
            )
            failures.append(f"{where}: `$ {cmd}` prints something else\n{diff}")
    return failures


def run_python(block: Block, where: str, namespace: dict) -> list[str]:
    """The failures of one pycon (doctest) or python block, in ``namespace``."""
    if block.kind == "python":
        try:
            exec(compile(block.text, where, "exec"), namespace)  # noqa: S102 - the page's code
        except Exception as err:  # noqa: BLE001 - reported with the block
            return [f"{where}: the python block raised {type(err).__name__}: {err}"]
        return []
    parser = doctest.DocTestParser()
    test = doctest.DocTest(
        parser.get_examples(block.text, where), namespace, where, where, 0, block.text
    )
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append, clear_globs=False)
    namespace.update(test.globs)  # DocTest works on a copy: later blocks see these names
    return [f"{where}: the pycon block fails\n{''.join(report)}"] if runner.failures else []


def _new_files(before: set[str], text: str) -> list[Path]:
    return [ROOT / n for n in set(os.listdir(ROOT)) - before if n in text and (ROOT / n).is_file()]


def check_page(page: Path) -> tuple[list[str], int]:
    """Run every example of ``page`` in order: (failures, examples run)."""
    rel = page.relative_to(ROOT)
    failures, namespace, run = [], {"__name__": f"docs:{rel}"}, 0
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        for n, block in enumerate(blocks(page.read_text(encoding="utf-8")), 1):
            where = f"{rel}, block {n} (line {block.line}, ```{block.kind or 'plain'})"
            if block.kind not in RUN_KINDS:
                if re.search(r"^\$ symbolic ", block.text, re.M) and block.kind != "text":
                    failures.append(
                        f"{where}: a `$ symbolic` session in a block that is not "
                        f"run: write ```console (or ```text for a measurement)"
                    )
                continue
            if block.kind == "console":
                before = set(os.listdir(ROOT))
                try:
                    failures += run_console(block, where)
                finally:
                    for f in _new_files(before, block.text):
                        f.unlink()
                run += len(commands(block.text))
            else:
                failures += run_python(block, where, namespace)
                run += 1
    finally:
        os.chdir(old)
    return failures, run


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_examples_of_the_page_print_what_it_shows(page):
    failures, _ = check_page(page)
    assert not failures, "\n\n".join(failures)


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading.

    >>> slug("## Playing: `show --at`, `play`, `simulate`")
    'playing-show---at-play-simulate'
    """
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(l) for l in text.splitlines() if l.startswith("#")}


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_links_of_the_page_lead_somewhere(page):
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # an absolute URL: not checked offline
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_every_page_is_found():
    names = {str(p.relative_to(ROOT)) for p in pages()}
    assert {"README.md", "docs/language.md", "bench/README.md"} <= names, names
    assert all(str(p.relative_to(ROOT)) in names for p in (ROOT / "docs").glob("*.md"))


def test_the_complete_example_of_the_language_is_the_shipped_file():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("## Complete example: Nim(N, n, K, r) of the ENS 2005 exam", 1)[1]
    example = section.split("```\n", 2)[1]  # the section's first block
    shipped = (ROOT / "models" / "ens2005.game").read_text(encoding="utf-8")
    assert example.rstrip("\n") == shipped.rstrip("\n")


if __name__ == "__main__":  # a summary: python tests/test_docs.py
    total = 0
    for p in pages():
        fails, count = check_page(p)
        total += count
        print(f"{p.relative_to(ROOT)}: {count} examples, {len(fails)} failing")
        for f in fails:
            print(f)
    print(f"{total} examples")
