"""A built wheel, installed outside the checkout, works: the models are package data.

The wheel is built offline (``pip wheel --no-deps --no-build-isolation --no-index``)
from a copy of the project's sources, installed with ``pip install --target``,
and run by a fresh Python whose ``sys.path`` starts with the install target,
from a directory outside the repository: the answer sheet (which reads
``ens2005.game``) must come out the same as from the checkout. Marked
``install`` (it runs in ``make test``; ``-m "not install"`` leaves it out).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from importlib import metadata
from pathlib import Path

import pytest

from symbolic.seeds.ens2005 import answer_sheet

from .conftest import ROOT

PACKAGE = ROOT / "symbolic"
pytestmark = pytest.mark.install

U0 = 7

# Imports the installed copy, checks that it is the one imported, and prints
# where it is and the answer sheet for U0.
PROBE = """
import json, sys
from pathlib import Path
site = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(site))
import symbolic, symbolic.seeds.ens2005
here = Path(symbolic.__file__).resolve()
assert here.is_relative_to(site), f"imported {here}, not the copy under {site}"
print(json.dumps({"file": str(here), "model": str(symbolic.seeds.ens2005.MODEL),
                  "sheet": symbolic.seeds.ens2005.answer_sheet(int(sys.argv[2]))}))
"""


def _cannot_build() -> str | None:
    """Why this Python cannot build a wheel offline, or None if it can."""
    if importlib.util.find_spec("pip") is None:
        return "pip is not available to this Python"
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed (--no-build-isolation needs the backend at hand)"
    version = metadata.version("setuptools")
    major_minor = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", version).groups())
    if major_minor < (70, 1) and importlib.util.find_spec("wheel") is None:
        return (
            f"setuptools {version} builds wheels only with the wheel package, which is "
            "missing (pip install -e '.[test]' brings setuptools >= 70.1)"
        )
    return None


def _run(args, cwd, env=None, timeout=300):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(site, wheel): the project's wheel and the directory it is installed into."""
    why = _cannot_build()
    if why:
        pytest.skip(f"cannot build a wheel offline: {why}")
    tmp = tmp_path_factory.mktemp("install")
    # Build from a copy: setuptools writes build/ and *.egg-info next to the
    # sources and would reuse a stale build/lib left there by an earlier build.
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(
        PACKAGE, src / "symbolic", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    dist, site = tmp / "dist", tmp / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    r = _run(
        pip
        + ["wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(src)],
        cwd=tmp,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = dist.glob("symbolic-*.whl")
    r = _run(
        pip + ["install", "--no-deps", "--no-index", "--target", str(site), str(wheel)], cwd=tmp
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return site, wheel


@pytest.fixture
def outside(tmp_path):
    """An empty working directory outside the repository, and an environment
    without PYTHONPATH (so that nothing points back at the checkout)."""
    assert not tmp_path.resolve().is_relative_to(ROOT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONNOUSERSITE"] = "1"
    return tmp_path, env


def test_the_wheel_ships_every_model_once(installed):
    _, wheel = installed
    names = Counter(zipfile.ZipFile(wheel).namelist())
    shipped = sorted(
        p.name for p in (PACKAGE / "models").iterdir() if p.suffix in (".game", ".json")
    )
    assert "ens2005.game" in shipped
    for name in shipped:
        assert names[f"symbolic/models/{name}"] == 1, name
    assert [n for n, c in names.items() if c > 1] == []
    assert not any(n.startswith("models/") for n in names)  # only inside the package


def test_the_installed_answer_sheet_equals_the_checkouts(installed, outside):
    site, _ = installed
    cwd, env = outside
    # -I: ignore PYTHON* variables and the user site; the probe itself puts site first
    r = _run([sys.executable, "-I", "-c", PROBE, str(site), str(U0)], cwd=cwd, env=env)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert Path(got["file"]).is_relative_to(site.resolve())
    assert Path(got["model"]).is_relative_to(site.resolve())
    assert got["sheet"] == json.loads(json.dumps(answer_sheet(U0)))


def test_python_m_symbolic_ens2005_runs_from_the_installed_copy(installed, outside):
    site, _ = installed
    cwd, env = outside
    env["PYTHONPATH"] = str(site)  # sys.path: cwd (empty), then site, then the venv
    r = _run(
        [sys.executable, "-m", "symbolic", "ens2005", "--u0", str(U0), "--json"], cwd=cwd, env=env
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [doc.pop(k) for k in ("command", "model", "parameters")] == ["ens2005", None, {}]
    assert doc.pop("engine") == "symbolic" and doc.pop("backend") == "auto"
    assert doc == json.loads(json.dumps(answer_sheet(U0)))
    # the same interpreter set-up imports the installed copy, not the checkout
    r = _run([sys.executable, "-c", "import symbolic; print(symbolic.__file__)"], cwd=cwd, env=env)
    assert Path(r.stdout.strip()).resolve().is_relative_to(site.resolve()), r.stdout + r.stderr


def test_models_is_a_relative_symlink_to_the_package_data():
    # one copy of each model: the top-level models/ only points into the package
    link = ROOT / "models"
    if not link.exists() and not link.is_symlink():
        pytest.skip("no models/ here (not a checkout)")
    assert link.is_symlink() and os.readlink(link) == "symbolic/models"
    assert link.resolve() == (PACKAGE / "models").resolve()
    if shutil.which("git") and (ROOT / ".git").exists():
        r = _run(["git", "ls-files", "-s", "models"], cwd=ROOT)
        if r.returncode == 0 and r.stdout:  # tracked: git must store a link, mode 120000
            assert r.stdout.split()[0] == "120000", r.stdout


def test_installed_shipped_models_are_found_by_name(installed, outside):
    # issue 20: from any directory, after a plain install, models by name
    site, _ = installed
    cwd, env = outside
    env["PYTHONPATH"] = str(site)
    symbolic = [sys.executable, "-m", "symbolic"]
    r = _run(symbolic + ["models"], cwd=cwd, env=env)
    assert r.returncode == 0, r.stderr
    names = [line.split()[0] for line in r.stdout.splitlines()[1:-1]]
    shipped = sorted(
        str(p.relative_to(PACKAGE / "models")).rsplit(".", 1)[0].removesuffix(".arena")
        for p in (PACKAGE / "models").rglob("*")
        if p.suffix in (".game", ".json", ".kif", ".aag", ".aig")
    )
    assert names == shipped, (names, shipped)
    assert str(site.resolve()) in r.stdout.splitlines()[-1], r.stdout
    r = _run(symbolic + ["aiger", "aiger/grant_twice", "--json"], cwd=cwd, env=env)
    assert r.returncode == 0 and '"realizable": true' in r.stdout, (r.stdout, r.stderr)
    r = _run(symbolic + ["check", "ens2005", "--limit", "1"], cwd=cwd, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Nim(N, n, K, r) [N=3, n=2, K=20, r=3, u0=0]\n"), r.stdout
    assert "F({1}) and initial\n  count: 26\n" in r.stdout, r.stdout
    r = _run(symbolic + ["check", "ens2006.game"], cwd=cwd, env=env)
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert "ens2006.game: no such model file" in r.stderr and "ens2005" in r.stderr, r.stderr
