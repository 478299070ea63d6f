"""symbolic.distributed (issue 38): the ply-by-ply table with its layers' parts on a Dask
cluster of two worker processes on the loopback address; its JSON is the single
process's, byte for byte (Connect Four, tic-tac-toe, random graded games of
tests/strategies.py, on cudd and oxidd); a worker killed in the middle of a layer does
not change it; bad requests are clear errors. One cluster serves the tests (conftest's dask_pool)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import cloudpickle
import pytest
from hypothesis import HealthCheck, given, settings

from symbolic.analysis.layered import initial_set, layer_outcomes
from symbolic.api import graded_layers
from symbolic.distributed import InProcess, Pool, WorkSpec, distributed_outcomes
from symbolic.distributed.split import default_split, keys_of, split_set, top_bits
from symbolic.distributed.wire import dump_nodes, load_nodes
from symbolic.errors import QueryError
from symbolic.model import load_model

from .conftest import MODELS, build_engine, run
from .strategies import graded_games

# the task wrapper below travels to the workers by value (they cannot import tests/)
cloudpickle.register_pickle_by_value(sys.modules[__name__])

C4 = str(MODELS / "connect4.game")
TTT = str(MODELS / "tictactoe.game")


@pytest.fixture
def pool(dask_pool):
    """The local cluster of two worker processes the distributed tests share."""
    return dask_pool


def _model_case(path, params, backend):
    m = load_model(path, params)
    e = build_engine(m.game, backend)
    spec = WorkSpec(path, tuple(sorted(params.items())), backend)
    return e, initial_set(e, m.definitions), spec


def _single(e, source) -> str:
    reach = graded_layers(e, source)
    return json.dumps(layer_outcomes({}, e, reach).as_json())


def _spread(e, source, spec, pool, split=None) -> str:
    return json.dumps(distributed_outcomes(e, source, spec, pool, split).as_json())


# --------------------------------------------------------------------------- the wire, the split


@pytest.mark.parametrize("backend", ["cudd", "oxidd"])
def test_bdds_travel_as_dddmp_bytes(backend):
    m = load_model(C4, {"w": 3, "h": 3, "a": 3})
    a, b = build_engine(m.game, backend), build_engine(m.game, backend)
    sets = list(graded_layers(a, initial_set(a, m.definitions)).layers[:6])
    sets += [a.empty(), a.positions()]
    data = dump_nodes(a.manager, [s.node for s in sets])
    assert (b"DDDMP" in data) == (backend == "oxidd")
    got = [b.wrap(u) for u in load_nodes(b.manager, data)]
    assert [s.tuples() for s in got] == [s.tuples() for s in sets]


def test_the_wire_refuses_what_it_cannot_carry():
    m = load_model(TTT)
    e, o = build_engine(m.game, "autoref"), build_engine(m.game, "oxidd")
    with pytest.raises(QueryError, match="autoref backend cannot export"):
        dump_nodes(e.manager, [e.positions().node])
    c = build_engine(m.game, "cudd")
    with pytest.raises(QueryError, match="cannot load into"):
        load_nodes(o.manager, dump_nodes(c.manager, [c.positions().node]))
    with pytest.raises(QueryError, match="wire format"):
        load_nodes(o.manager, b"not a bdd")


@pytest.mark.parametrize("k", [0, 1, 3])
def test_the_parts_cover_a_layer_disjointly(k):
    m = load_model(C4, {"w": 4, "h": 3})
    e = build_engine(m.game, "cudd")
    layer = graded_layers(e, initial_set(e, m.definitions)).layers[6]
    bits = top_bits(e, k)
    parts = split_set(e, layer, bits)
    assert 1 <= len(parts) <= 2**k
    assert sum(p.count() for _, p in parts) == layer.count()
    union = e.empty()
    for _, p in parts:
        union = union | p
    assert union == layer
    assert keys_of(e, layer, bits) == {key for key, _ in parts}


def test_the_default_split_grows_with_the_layer():
    sizes = [default_split(n, 2) for n in (10, 2000, 10**4, 10**5, 10**9)]
    assert sizes == sorted(sizes) and sizes[0] == 0 and sizes[-1] == 8


# --------------------------------------------------------------------------- the same answers


# Connect Four 4 x 4 takes about a minute on the shared 2-core machine: make test-slow
SLOW = pytest.mark.slow
CASES = [
    (TTT, {}, "cudd", 2),
    pytest.param(TTT, {}, "oxidd", None, marks=SLOW),
    pytest.param(C4, {"w": 4, "h": 4}, "oxidd", 3, marks=SLOW),
    pytest.param(C4, {"w": 4, "h": 4}, "cudd", None, marks=SLOW),
]


@pytest.mark.parametrize("path,params,backend,split", CASES)
def test_the_table_is_the_single_process_one(pool, path, params, backend, split):
    e, source, spec = _model_case(path, params, backend)
    want = _single(e, source)
    assert _spread(e, source, spec, pool, split) == want
    assert pool.stats and pool.stats[-1].sent > 0


@pytest.mark.slow
def test_connect_four_5x4(pool):
    e, source, spec = _model_case(C4, {"w": 5, "h": 4}, "oxidd")
    assert _spread(e, source, spec, pool, 4) == _single(e, source)


@settings(max_examples=6, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(graded_games())
def test_random_graded_games(pool, case):
    game, start = case
    if len(game.players) != 2:
        return
    for backend in ("cudd", "oxidd"):
        e = build_engine(game, backend)
        source = e.from_expr(start)
        try:
            want = _single(e, source)
        except QueryError as err:  # no position to start from: the same refusal
            with pytest.raises(QueryError, match=str(err)[:30]):
                _spread(e, source, WorkSpec(None, (), backend, game=game), pool, 1)
            continue
        assert _spread(e, source, WorkSpec(None, (), backend, game=game), pool, 1) == want


# --------------------------------------------------------------------------- the command line


def test_the_command_line_prints_the_same_bytes(pool, capsys):
    address = pool.client.scheduler.address
    args = ["values", TTT, "--by-layer", "--json", "--backend", "oxidd"]
    status, want, _ = run(capsys, *args)
    assert status == 0
    status, got, err = run(capsys, *args, "--scheduler", address, "--split", "0")
    assert (status, err) == (0, "")
    assert got == want


def test_no_large_graph_warning_reaches_the_user(pool, capsys):
    """Dask warns when a task graph passes a size (10 MiB; 6 × 5's rounds pass it): the
    BDDs are in the graph on purpose (a lost task reruns from it), so the warning is
    not the user's; here with the threshold at one byte, every round would warn."""
    import warnings

    import dask

    address = pool.client.scheduler.address
    args = ["values", TTT, "--by-layer", "--json", "--backend", "oxidd"]
    with dask.config.set({"distributed.admin.large-graph-warning-threshold": "1B"}):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            status, _, err = run(capsys, *args, "--scheduler", address, "--split", "1")
    assert (status, err) == (0, "")
    assert not [w for w in caught if "large graph" in str(w.message)], caught


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--workers", "0"], "expected an integer >= 1"),
        (["--workers", "2", "--split", "-1"], "expected an integer >= 0"),
        (["--workers", "2", "--split", "9"], "expected an integer <= 8"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not allowed with"),
    ],
)
def test_bad_options_are_refused(capsys, extra, message):
    status, _, err = run(capsys, "values", TTT, "--by-layer", *extra, exits=True)
    assert status == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--split", "2"], "--split needs --workers N or --scheduler ADDRESS"),
        (["--workers", "2", "--layered", "off"], "not with --layered off"),
        (["--workers", "2", "--backend", "autoref"], "autoref backend cannot export"),
    ],
)
def test_impossible_requests_are_refused_before_a_cluster(capsys, extra, message):
    status, _, err = run(capsys, "values", TTT, "--by-layer", *extra)
    assert status == 2 and message in err


def test_ens_is_refused_as_in_one_process(capsys):
    """ENS 2005 has three players: the table is refused the same way, no cluster opened."""
    one = run(capsys, "values", MODELS / "ens2005.game", "--by-layer")
    assert one[0] == 2
    assert run(capsys, "values", MODELS / "ens2005.game", "--by-layer", "--workers", "2") == one


def test_an_unreachable_scheduler_is_an_error_within_seconds():
    t0 = time.monotonic()
    with pytest.raises(QueryError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        Pool(scheduler="tcp://127.0.0.1:9", connect_seconds=2)
    assert time.monotonic() - t0 < 15  # 2 s asked; the rest is a loaded machine's slack


# --------------------------------------------------------------------------- faults


def _dies_once(marker: str, fn, *args):
    """``fn(*args)``, after killing this worker process the first time it is called
    (``marker`` records that it was): a worker lost in the middle of a part."""
    if not os.path.exists(marker):
        with open(marker, "w"):
            pass
        os.kill(os.getpid(), signal.SIGKILL)
    return fn(*args)


class _KillingPool:
    """The module's pool, whose round ``at`` runs its first part in a task that kills
    its worker process first."""

    def __init__(self, pool, at: int, marker: str):
        self.pool, self.at, self.marker, self.rounds = pool, at, marker, 0
        self.workers, self.stats = pool.workers, pool.stats

    def round(self, name, fn, args, done=None):
        self.rounds += 1
        if self.rounds != self.at:
            return self.pool.round(name, fn, args, done)
        return self.pool.round(name, _dies_once, [(self.marker, fn, *a) for a in args], done)


@pytest.mark.parametrize("at", [4, pytest.param(14, marks=SLOW)])  # forward, backward
def test_a_worker_killed_mid_layer_does_not_change_the_answer(pool, tmp_path, at):
    e, source, spec = _model_case(TTT, {}, "cudd")
    killing = _KillingPool(pool, at, str(tmp_path / "killed"))
    assert _spread(e, source, spec, killing, 1) == _single(e, source)
    assert (tmp_path / "killed").exists()  # a worker did die


def test_in_process_rounds_give_the_same_table():
    e, source, spec = _model_case(C4, {"w": 4, "h": 3}, "oxidd")
    assert _spread(e, source, spec, InProcess(), 2) == _single(e, source)


def test_the_client_checks_the_limits_between_its_calls_on_a_layer(monkeypatch):
    """Between rounds the client cuts, exports, imports and joins the layer's parts by
    plain BDD calls that do not check the time: the limits are checked between them,
    once per part and more, not only once per layer (a timeout acts within one call)."""
    e, source, spec = _model_case(C4, {"w": 4, "h": 3}, "oxidd")
    seen: list = []
    check = type(e.limits).check
    monkeypatch.setattr(
        type(e.limits), "check", lambda self, *a, **k: (seen.append(a[:1]), check(self, *a, **k))[1]
    )
    _spread(e, source, spec, InProcess(), 2)
    named = [str(a[0]) for a in seen if a]
    forward = [d for d in named if d == "the forward round from layer 3"]
    backward = [d for d in named if d == "the backward round of layer 3"]
    # layer 3 of 4 × 3 has 3 parts with split 2: each exported and its image imported,
    # then the union; the backward round checks before each part and each answer
    assert len(forward) >= 2 * 3 + 1, seen
    assert len(backward) >= 3, seen
