"""symbolic.distributed (issue 38) past the ply-by-ply table: ``check``, ``strategy`` and
the ±k ``values`` on a local cluster of two worker processes (conftest's dask_pool, on
127.0.0.1) print the single process's JSON byte for byte (tic-tac-toe, ENS 2005, random
graded games of tests/strategies.py, cudd and oxidd); what is not layered runs in the
client and says so; a run stopped half-way resumes from its work directory with the
same answer; a time limit, Ctrl-C and a worker's memory cap stop a distributed run."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic import atl
from symbolic.analysis.layered import LayeredEvaluator, initial_set, layer_outcomes
from symbolic.analysis.layered_solve import layered_strategy
from symbolic.analysis.strategy import to_json
from symbolic.api import DeadEnds, graded_layers
from symbolic.distributed import Spread, TaskStore, WorkSpec
from symbolic.errors import LimitExceeded, OutOfMemory
from symbolic.limits import Limits
from symbolic.model import load_model

from .conftest import MODELS, ROOT, build_engine, run
from .strategies import formulas, graded_games

TTT = str(MODELS / "tictactoe.game")
ENS = str(MODELS / "ens2005.game")
C4 = str(MODELS / "connect4.game")


def _tasks(work: str) -> int:
    """How many parts' answers a work directory holds."""
    d = os.path.join(work, "tasks")
    return len([n for n in os.listdir(d) if n.endswith(".bdd")]) if os.path.isdir(d) else 0


# --------------------------------------------------------------------------- the command line

CASES = [
    ("check", TTT, "--backend", "cudd", "--layered", "on"),
    ("check", TTT, "--backend", "oxidd", "--layered", "on", "--query", "forces_win(2)"),
    ("check", TTT, "--backend", "oxidd", "--query", "empty and forces_win(1)"),
    ("strategy", TTT, "--backend", "oxidd", "--query", "forces_win(1)", "--from", "initial"),
    ("strategy", TTT, "--backend", "cudd", "--query", "<<{2}>> [] not win(1)", "--from", "initial"),
    ("values", TTT, "--backend", "cudd"),
    ("values", TTT, "--backend", "oxidd", "--at", "c[1]=1, c[2]=2"),
]


@pytest.mark.parametrize("argv", CASES)
def test_the_json_is_the_single_process_one(dask_pool, capsys, tmp_path, argv):
    status, want, _ = run(capsys, *argv, "--json")
    address = dask_pool.client.scheduler.address
    work = str(tmp_path / "work")
    got = run(capsys, *argv, "--json", "--scheduler", address, "--split", "1", "--work-dir", work)
    assert got[:2] == (status, want)
    assert _tasks(work) > 0  # the cluster did answer parts of it
    assert "solved in this process" not in got[2]


def test_what_is_not_layered_runs_here_and_says_so(dask_pool, capsys, tmp_path):
    """ENS 2005 is not graded from its initial set: every query is answered in the
    client, the same bytes, and stderr says so for each strategic one."""
    status, want, _ = run(capsys, "check", ENS, "--json")
    work = str(tmp_path / "work")
    address = dask_pool.client.scheduler.address
    got = run(capsys, "check", ENS, "--json", "--scheduler", address, "--work-dir", work)
    assert got[:2] == (status, want)
    notes = [line for line in got[2].splitlines() if "solved in this process" in line]
    assert len(notes) == len(json.loads(want)["results"])
    assert "query 1 is not layered" in notes[0]


def test_the_tic_tac_toe_state_queries_need_no_note(dask_pool, capsys):
    """A query without a temporal operator has no fixpoint to distribute: no note."""
    address = dask_pool.client.scheduler.address
    status, _, err = run(capsys, "check", TTT, "--query", "empty", "--scheduler", address)
    assert (status, err) == (0, "")


@pytest.mark.parametrize(
    "argv,message",
    [
        (("check", TTT, "--layered", "off"), "not with --layered off"),
        (("strategy", TTT, "--query", "forces_win(1)", "--layered", "off"), "layered off"),
        (("check", TTT, "--engine", "explicit"), "runs the symbolic engine"),
        (("strategy", TTT, "--query", "forces_win(1)", "--backend", "autoref"), "autoref"),
        (("strategy", MODELS / "pennies.game", "--query", "<<{1}>> <> true"), "turn-based"),
        (("values", TTT, "--work-dir", "x"), "--work-dir needs --workers"),
    ],
)
def test_requests_that_cannot_run_distributed_are_refused(capsys, argv, message):
    extra = [] if "--work-dir" in argv else ["--workers", "2"]
    status, out, err = run(capsys, *argv, *extra)
    assert status == 2 and message in err and "Traceback" not in err


def test_strategy_count_runs_here_and_says_so(capsys):
    want = run(capsys, "strategy", TTT, "--count", "1", "--json")
    status, out, err = run(capsys, "strategy", TTT, "--count", "1", "--json", "--workers", "2")
    assert (status, out) == want[:2]
    assert "--count (a product over the positions, no layers): solved in this process" in err


# --------------------------------------------------------------------------- random graded games


def _answers(e, start, reach, f, stay_e, target_e, J, conv) -> str:
    """What check, strategy and values read from the layers, as JSON text."""
    doc: dict = {"check": sorted(LayeredEvaluator(e, reach, dead_ends=conv)(f).tuples())}
    until = atl.Until(atl.CoalitionLit(tuple(sorted(J))), stay_e, target_e)
    release = atl.Release(until.coalition, until.left, until.right)
    for g in (until, release):
        s = layered_strategy(e, g, reach, dead_ends=conv)
        doc[type(g).__name__] = to_json(s, start)
    if len(e.game.players) == 2:
        doc["table"] = layer_outcomes({}, e, reach).as_json()
    return json.dumps(doc, default=str)


@settings(max_examples=4, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_graded_games(dask_pool, data):
    game, start_e = data.draw(graded_games())
    f = data.draw(formulas(game, 2))
    J = data.draw(st.sets(st.sampled_from(game.players)))
    conv = data.draw(st.sampled_from(list(DeadEnds)))
    stay_e, target_e = data.draw(formulas(game, 0)), data.draw(formulas(game, 0))
    for backend in ("cudd", "oxidd"):
        e = build_engine(game, backend)
        start = e.from_expr(start_e)
        single = graded_layers(e, start)
        assert single is not None
        spread = Spread(e, WorkSpec(None, (), backend, game=game), dask_pool, 1)
        split = spread.graded_layers(e, start)
        assert split is not None and split.layers == single.layers
        want = _answers(e, start, single, f, stay_e, target_e, J, conv)
        assert _answers(e, start, split, f, stay_e, target_e, J, conv) == want
        assert spread.sent > 0 or start.is_empty()


# --------------------------------------------------------------------------- resume from disk


class _StoppingPool:
    """The shared pool, stopped (KeyboardInterrupt, as Ctrl-C) in round ``at`` once the
    first part of that round is solved: a run stopped half-way through a layer."""

    def __init__(self, pool, at: int):
        self.pool, self.at, self.rounds = pool, at, 0
        self.workers, self.stats = pool.workers, pool.stats

    def round(self, name, fn, args, done=None):
        self.rounds += 1
        if self.rounds == self.at:
            self.pool.round(name, fn, args[:1], done)
            raise KeyboardInterrupt
        return self.pool.round(name, fn, args, done)


@pytest.mark.parametrize("at", [3, 13])  # in the forward rounds; in the backward ones
def test_a_stopped_run_resumes_from_its_work_directory(dask_pool, tmp_path, at):
    m = load_model(TTT)
    e = build_engine(m.game, "oxidd")
    source = initial_set(e, m.definitions)
    want = json.dumps(layer_outcomes(m.definitions, e).as_json())
    spec = WorkSpec(TTT, (), "oxidd")
    first = Spread(e, spec, _StoppingPool(dask_pool, at), 2, TaskStore(str(tmp_path), spec))
    with pytest.raises(KeyboardInterrupt):
        first.outcomes(source)
    kept = first.store.written
    assert kept == _tasks(str(tmp_path)) > 0
    again = Spread(e, spec, dask_pool, 2, TaskStore(str(tmp_path), spec))
    assert json.dumps(again.outcomes(source).as_json()) == want
    assert again.reused == kept  # every part solved before the stop, read back
    assert again.sent > 0  # and the rest solved now
    # a run from scratch solves the same parts: the rerun sent only those not kept
    fresh = Spread(e, spec, dask_pool, 2, TaskStore(str(tmp_path / "fresh"), spec))
    fresh.outcomes(source)
    assert fresh.sent == again.sent + again.reused


def test_a_rerun_reads_every_part_and_says_so(dask_pool, capsys, tmp_path):
    address = dask_pool.client.scheduler.address
    argv = ["strategy", TTT, "--query", "forces_win(2)", "--from", "initial", "--json"]
    argv += ["--scheduler", address, "--work-dir", str(tmp_path), "--split", "1"]
    first = run(capsys, *argv)
    n = _tasks(str(tmp_path))
    second = run(capsys, *argv)
    assert second[:2] == first[:2] and first[0] == 0
    assert f"symbolic: note: {n} of {n} parts read from {tmp_path}" in second[2]


def test_another_game_finds_nothing_in_the_same_directory(tmp_path):
    a = TaskStore(str(tmp_path), WorkSpec(C4, (("h", 3), ("w", 3)), "cudd"))
    b = TaskStore(str(tmp_path), WorkSpec(C4, (("h", 3), ("w", 4)), "cudd"))
    key = a.key("post_part", (b"part", ["x"]))
    a.put(key, (b"image", [], {}))
    assert a.get(key) is not None and b.get(b.key("post_part", (b"part", ["x"]))) is None


# --------------------------------------------------------------------------- limits


def test_a_time_limit_stops_a_round(dask_pool):
    """A round waiting on its workers checks the request's time limit."""
    old = dask_pool.limits
    dask_pool.limits = Limits(timeout=1)
    t0 = time.monotonic()
    try:
        with pytest.raises(LimitExceeded, match="time limit of 1 s reached"):
            dask_pool.round("a slow round", time.sleep, [(2,), (2,)])
    finally:
        dask_pool.limits = old
    assert time.monotonic() - t0 < 1.9  # before the tasks end


def test_a_workers_memory_cap_is_its_own(dask_pool):
    """--max-memory caps each worker's manager: past it, the worker's error is the
    run's, with its stage and without Dask's traceback."""
    m = load_model(TTT)
    e = build_engine(m.game, "cudd")
    spread = Spread(e, WorkSpec(TTT, (), "cudd", max_memory=1), dask_pool, 1)
    with pytest.raises(OutOfMemory, match="a worker, in the forward round from layer 0: memory"):
        spread.graded_layers(e, initial_set(e, m.definitions))


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "timeout"])
def test_ctrl_c_and_timeout_end_a_distributed_run_and_its_workers(tmp_path, how):
    """``symbolic values ... --workers 1`` on Connect Four 5 x 5 (minutes of work),
    stopped by SIGINT once its worker process runs, or by --timeout: the usual status
    and message, and no worker process left behind."""
    exe = os.path.join(os.path.dirname(sys.executable), "symbolic")
    # 5 x 4 finished within the 15 s of --timeout on a quiet machine
    argv = [exe, "values", C4, "-p", "w=5", "-p", "h=5", "--by-layer", "--workers", "1"]
    argv += ["--work-dir", str(tmp_path)] + (["--timeout", "15"] if how == "timeout" else [])
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    me = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    children: list = []
    # the worker's processes, as seen while the run lasts: on a loaded machine the
    # timeout can end the run before any part is answered
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(psutil.NoSuchProcess):
            children = me.children(recursive=True) or children
        if _tasks(str(tmp_path)) > 0 and children:  # a part answered: the worker runs
            break
        time.sleep(0.2)
    assert children  # the worker's processes
    if how == "ctrl-c":
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    status, text = (130, "interrupted") if how == "ctrl-c" else (3, "time limit of 15 s")
    assert proc.returncode == status and text in err.decode(), err.decode()[-500:]
    gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive


def test_the_local_cluster_listens_on_the_loopback_address_only(dask_pool):
    me = psutil.Process()
    listening = [
        c.laddr.ip
        for p in [me, *me.children(recursive=True)]
        for c in p.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN
    ]
    assert listening and set(listening) == {"127.0.0.1"}


def test_the_note_of_the_docs(dask_pool, capsys):
    """docs/distributed.md, "What runs on the cluster": its example (a ```text block: a
    cluster of its own would take seconds), on the shared cluster."""
    address = dask_pool.client.scheduler.address
    argv = ["check", TTT, "--query", "empty and forces_win(1)", "--query", "forces_win(2)"]
    status, out, err = run(capsys, *argv, "--scheduler", address)
    page = (ROOT / "docs" / "distributed.md").read_text(encoding="utf-8")
    assert status == 0 and "count: 1726" in out
    assert err.strip() in page and err.startswith("symbolic: note: query 2 is not layered")
