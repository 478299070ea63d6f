"""Nothing in the repository points outside it.

Sources are cited in words (see the README's "Sources"), never as paths to
files that only exist next to the checkout (``../shared/...``) nor by the
numbers of the seed texts the project was written from.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .conftest import ROOT

SKIP_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}
SUFFIXES = {".py", ".md", ".game", ".json", ".toml", ".lark", ".txt", ".cfg"}
OUTSIDE = re.compile(r"\.\./|\bshared/")
SEED = re.compile(r"\bseeds? ?0\d\d")


def text_files() -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):  # does not follow the models link
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in filenames:
            p = Path(dirpath) / name
            if p.suffix in SUFFIXES or name in ("Makefile", "run"):
                out.append(p)
    return sorted(out)


FILES = [p for p in text_files() if p != Path(__file__).resolve()]


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def test_the_scan_sees_the_repository():
    names = {rel(p) for p in FILES}
    assert {
        "README.md",
        "docs/language.md",
        "symbolic/models/ens2005.game",
        "symbolic/cli/__init__.py",
        "Makefile",
    } <= names


@pytest.mark.parametrize("path", FILES, ids=rel)
def test_no_path_out_of_the_repository(path):
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert not OUTSIDE.search(line), f"{rel(path)}:{no}: {line.strip()}"


@pytest.mark.parametrize("path", FILES, ids=rel)
def test_sources_are_cited_in_words_not_by_seed_number(path):
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert not SEED.search(line), f"{rel(path)}:{no}: {line.strip()}"
