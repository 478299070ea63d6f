"""What every test module shares: the BDD backends and the engines, the checkout's
paths (``ROOT``, ``MODELS``) and :func:`run`, the command line in this process
(``from .conftest import ROOT, run``).

One place lists what a "backend" and an "engine" are, as dd's conformance suite
does (``tests/common.py`` run against every backend): a test that takes the
``backend`` fixture runs once per BDD backend, one that takes ``engine_kind``
once per engine (explicit, then the symbolic engine on each backend).
"""

from __future__ import annotations

from pathlib import Path

import os

import pytest

from symbolic.bdd.backend import BACKENDS
from symbolic.engines import make_engine
from symbolic.ir import Game

#: the checkout's root (README.md, docs/, bench/, models/ below it)
ROOT = Path(__file__).resolve().parent.parent
#: the models shipped with the package (``models/`` in the checkout links to them)
MODELS = ROOT / "models"


def shared_corpus(name: str, variable: str) -> Path:
    """The corpus ``name`` kept beside the checkout, not in it: ``$variable`` when set,
    else the shared corpus folder NAME beside the checkout or beside its parent (a worktree);
    a path that does not exist when none is there (its tests are then skipped)."""
    if os.environ.get(variable):
        return Path(os.environ[variable])
    places = [base / "shared" / "corpus" / name for base in (ROOT.parent, ROOT.parent.parent)]
    return next((p for p in places if p.is_dir()), places[0])


#: every engine a differential test compares: the reference first
ENGINE_KINDS = ("explicit",) + BACKENDS


def build_engine(game: Game, kind: str):
    """The engine ``kind`` (``"explicit"`` or a BDD backend name) for ``game``."""
    if kind == "explicit":
        return make_engine(game, "explicit")
    return make_engine(game, "symbolic", kind)


def all_engines(game: Game) -> list:
    """One engine of each kind for ``game``, the explicit reference first."""
    return [build_engine(game, k) for k in ENGINE_KINDS]


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """Each BDD backend name in turn (``cudd``, ``autoref``, ``oxidd``)."""
    return request.param


@pytest.fixture(params=ENGINE_KINDS)
def engine_kind(request) -> str:
    """Each engine kind in turn: ``explicit``, then each BDD backend."""
    return request.param


def run(capsys, *argv, exits: bool = False) -> tuple[int, str, str]:
    """``symbolic ARGV...`` run in this process (:func:`symbolic.cli.main`; each
    argument as text): its exit status, stdout and stderr. ``exits``: argparse's
    refusal of an argument (SystemExit, status 2) is returned as the status too."""
    from symbolic.cli import main

    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        if not exits:
            raise
        status = exc.code
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture(scope="session")
def dask_pool():
    """A local Dask cluster of two worker processes on 127.0.0.1 (seconds to start), shared
    by the distributed tests of this test process (tests/test_distributed*.py)."""
    from symbolic.distributed import Pool

    with Pool(workers=2) as p:
        yield p
