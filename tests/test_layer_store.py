"""symbolic.distributed.layer_store: a ply-by-ply table's layers on disk, and a stopped
run resumed from them (``values --by-layer --work-dir DIR`` in one process)."""

from __future__ import annotations

import pytest

from symbolic.analysis.layered import layer_outcomes
from symbolic.distributed import layer_store
from symbolic.distributed.layer_store import LayerStore
from symbolic.distributed.worker import WorkSpec
from symbolic.engines import make_engine
from symbolic.errors import QueryError
from symbolic.model import load_model

from .conftest import ROOT, run

C4 = str(ROOT / "models" / "connect4-compact.game")
PARAMS = {"w": 4, "h": 3}


class _Stop(Exception):
    pass


def _engine(backend):
    model = load_model(C4, PARAMS)
    return model, make_engine(model.game, "symbolic", backend=backend)


def _store(tmp_path, backend, engine):
    spec = WorkSpec(C4, tuple(sorted(PARAMS.items())), backend)
    return LayerStore(str(tmp_path), spec, engine)


@pytest.mark.parametrize("backend", ["cudd", "oxidd"])
@pytest.mark.parametrize("stop_after", [3, 4])
def test_a_stopped_table_resumes_from_the_layers_it_solved(
    tmp_path, monkeypatch, backend, stop_after
):
    monkeypatch.setattr(layer_store, "CHECKPOINT_RATIO", 0)  # write at every layer
    model, e = _engine(backend)
    want = layer_outcomes(model.definitions, e)

    rows: list = []

    def stop(row):
        rows.append(row)
        if len(rows) == stop_after:
            raise _Stop

    _, e1 = _engine(backend)
    with pytest.raises(_Stop):
        layer_outcomes(model.definitions, e1, on_row=stop, store=_store(tmp_path, backend, e1))

    # a new process: the layers and the solved rows are read, the rest is computed
    _, e2 = _engine(backend)
    steps = []
    step = e2.until_layer_step
    monkeypatch.setattr(e2, "post", lambda s: pytest.fail("the forward pass ran again"))
    monkeypatch.setattr(e2, "until_layer_step", lambda *a, **k: steps.append(a[2]) or step(*a, **k))
    store = _store(tmp_path, backend, e2)
    seen: list = []
    got = layer_outcomes(model.definitions, e2, on_row=seen.append, store=store)
    assert got == want, (got.rows, want.rows)
    n = len(want.rows)
    assert store.read == [f"the {n} layers", f"layers {n - stop_after} to {n - 1} solved"], (
        store.read
    )
    # each layer solved once, by either run: layer k's two players' steps, k from n - stop_after - 1 down
    assert sorted(set(steps)) == list(range(n - stop_after)), steps
    assert sorted(seen) == sorted(want.rows), seen


def test_a_store_is_of_its_game_only(tmp_path):
    model, e = _engine("cudd")
    layer_outcomes(model.definitions, e, store=_store(tmp_path, "cudd", e))
    other = load_model(C4, {"w": 3, "h": 3})
    e3 = make_engine(other.game, "symbolic", backend="cudd")
    store = LayerStore(str(tmp_path), WorkSpec(C4, (("h", 3), ("w", 3)), "cudd"), e3)
    got = layer_outcomes(other.definitions, e3, store=store)
    assert store.read == [] and got == layer_outcomes(other.definitions, e3), store.read


def test_refusals(tmp_path):
    model, e = _engine("autoref")
    with pytest.raises(QueryError, match="autoref backend cannot export"):
        _store(tmp_path, "autoref", e)
    _, x = model, make_engine(model.game, "explicit")
    with pytest.raises(QueryError, match="symbolic engine"):
        _store(tmp_path, "cudd", x)
    _, c = _engine("cudd")
    with pytest.raises(QueryError, match="layered"):
        layer_outcomes(model.definitions, c, layered=False, store=_store(tmp_path, "cudd", c))


def test_values_by_layer_work_dir(capsys, tmp_path):
    argv = ["values", C4, "-p", "w=4", "-p", "h=3", "--by-layer", "--backend", "cudd"]
    status, plain, err = run(capsys, *argv)
    assert status == 0, err
    status, first, err = run(capsys, *argv, "--work-dir", str(tmp_path))
    assert status == 0 and first == plain and "read from" not in err, err
    status, again, err = run(capsys, *argv, "--work-dir", str(tmp_path))
    assert status == 0 and again == plain, err
    assert f"read from {tmp_path}: the 13 layers, layers 0 to 12 solved" in err, err
    status, _, err = run(capsys, *argv, "--work-dir", str(tmp_path), "--layered", "off")
    assert status == 2 and "not with --layered off" in err, err
    status, _, err = run(capsys, "check", C4, "--work-dir", str(tmp_path))
    assert status == 2 and "--work-dir needs --workers" in err, err


def test_a_file_of_another_shape_is_solved_again(tmp_path):
    # a store written by another version (another shape of its rows) is not read
    model, e = _engine("cudd")
    want = layer_outcomes(model.definitions, e, store=_store(tmp_path, "cudd", e))
    store = _store(tmp_path, "cudd", e)
    key = store.tasks.key(layer_store._SOLVED, ())
    data, meta, _ = store.tasks.get(key)
    store.tasks.put(key, (data, [meta[0], meta[1], [False, False], meta[2]], {}))
    got = layer_outcomes(model.definitions, e, store=store)
    assert got == want and store.read == ["the 13 layers"], store.read
