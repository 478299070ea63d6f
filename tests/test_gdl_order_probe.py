"""The order of a GDL game's fluent bits (:mod:`symbolic.gdl.order_probe`).

- In the reversed order (``fluent_order="reversed"``) every file of ``tests/gdl/`` and the
  shipped GDL models give the grounded order's answers (reachable, terminal and dead-end
  states, goals, forced table), turn-based and concurrent, and the same positions.
- The probe keeps the grounded order when that exploration ends within its time (or when
  both orders are one), tries
  the reversed one otherwise, and builds in full the order that went further (scripted
  explorations: more layers, else fewer nodes at the last layer).
- Under ``order="auto"`` with no time to probe, the answers are still the same.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest

from symbolic.gdl import order_probe
from symbolic.gdl.order_probe import build_in_best_order, fluent_bit_order, reversed_key
from symbolic.gdl.solve import dead_ends, forced_values
from symbolic.gdl.symbolic import GdlSymbolicGame
from symbolic.gdl.symbolic_concurrent import GdlSymbolicConcurrentGame
from symbolic.gdl.turns import NotTurnBased
from symbolic.limits import Limits
from tests.test_gdl_shift import _model
from tests.test_gdl_static import _engine_view

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KIFS = sorted((HERE / "gdl").glob("*.kif")) + [
    ROOT / "symbolic" / "models" / "gdl" / f"{n}.kif" for n in ("nim1", "ticTacToe")
]


def _view(model, fluent_order: str) -> dict:
    """The answers of the symbolic engine built in ``fluent_order``."""
    try:
        eng = GdlSymbolicGame(model.game, fluent_order=fluent_order)
    except NotTurnBased:
        eng = GdlSymbolicConcurrentGame(model.game, fluent_order=fluent_order)
    return {
        "layers": eng.layers,
        "positions": sorted(eng.positions().tuples()),
        "terminal": sorted(eng.atom_set(("terminal", ())).tuples()),
        "dead_ends": sorted(dead_ends(model, eng).tuples()),
        "forced": forced_values(model, eng),
        "names": eng.manager.names,
    }


@pytest.mark.parametrize("path", KIFS, ids=lambda p: p.name)
def test_the_reversed_order_gives_the_same_answers(path):
    model = _model(path)
    want, got = _view(model, "grounded"), _view(model, "reversed")
    fluents = model.game.program.fluents
    if sorted(fluents, key=reversed_key) != list(fluents):
        assert got["names"] != want["names"], path.name  # the bits did move
    del want["names"], got["names"]
    assert got == want, path.name


def test_an_unknown_fluent_order_is_refused():
    with pytest.raises(Exception, match="unknown fluent order 'upside-down'"):
        GdlSymbolicGame(_model(KIFS[0]).game, fluent_order="upside-down")


def test_fluent_bits_move_and_the_others_keep_their_levels():
    names = ["act", "p1", "p1'", "p2", "p2'"]
    bits = {("f", "b", "1"): ("p1", "p1'"), ("f", "a", "2"): ("p2", "p2'")}
    # reversed arguments: ("2", "a", "f") after ("1", "b", "f")
    assert fluent_bit_order(names, list(bits), bits) == names
    bits = {("f", "a", "2"): ("p1", "p1'"), ("f", "b", "1"): ("p2", "p2'")}
    assert fluent_bit_order(names, list(bits), bits) == ["act", "p2", "p2'", "p1", "p1'"]


def _scripted(script: dict, clock: dict):
    """A ``build`` whose exploration in each order reports its scripted layers
    ({order: (nodes of each layer, CPU seconds a layer)}, the seconds added to ``clock``)
    and records the orders built."""
    built: list = []

    def build(order, on_layer):
        built.append(order)
        sizes, cost = script[order]
        for n, size in enumerate(sizes):
            clock["t"] += cost
            if on_layer is not None:
                on_layer(n, n, size)
        return order

    return build, built


LONG = [5, 90, 900, 9_000, 90_000]
SHORT = [5, 9, 20, 30, 40]


@pytest.mark.parametrize(
    ("script", "builds"),
    [
        # explored within the 10 s of the probe: kept as it is
        ({"grounded": (SHORT, 1.0), "reversed": (SHORT, 1.0)}, ["grounded"]),
        # the reversed order ends within its probe, 3 layers further: kept as it is
        ({"grounded": (LONG, 6.0), "reversed": (SHORT, 1.0)}, ["grounded", "reversed"]),
        # the reversed order ends within its probe, 1 layer further: the grounded one
        (
            {"grounded": (LONG, 2.5), "reversed": (SHORT, 1.0)},
            ["grounded", "reversed", "grounded"],
        ),
        # as many layers (3) each: the grounded order, fewer nodes or not
        (
            {"grounded": (LONG, 4.0), "reversed": (SHORT, 4.0)},
            ["grounded", "reversed", "grounded"],
        ),
        # one more layer is not enough (3 against 2): the grounded order
        (
            {"grounded": (SHORT, 6.0), "reversed": (LONG, 4.0)},
            ["grounded", "reversed", "grounded"],
        ),
        # three more layers in the same time win (5 against 2)
        (
            {"grounded": (SHORT, 6.0), "reversed": (LONG, 2.5)},
            ["grounded", "reversed", "reversed"],
        ),
    ],
)
def test_the_probe_builds_the_order_that_went_further(script, builds):
    clock = {"t": 0.0}
    build, built = _scripted(script, clock)
    with (
        mock.patch.object(order_probe, "PROBE_SECONDS", 10.0),
        mock.patch.object(order_probe.time, "process_time", lambda: clock["t"]),
    ):
        assert build_in_best_order(build, None, [("f", "a", "2"), ("f", "b", "1")]) == builds[-1]
    assert built == builds


def test_no_probe_when_both_orders_are_one():
    """Fluents whose reversed arguments sort as their names: one build, however long."""
    clock = {"t": 0.0}
    build, built = _scripted({"grounded": (LONG, 4.0), "reversed": (SHORT, 1.0)}, clock)
    with (
        mock.patch.object(order_probe, "PROBE_SECONDS", 10.0),
        mock.patch.object(order_probe.time, "process_time", lambda: clock["t"]),
    ):
        assert build_in_best_order(build, None, [("f", "1"), ("f", "2")]) == "grounded"
    assert built == ["grounded"]


def test_the_probe_ends_a_try_inside_a_layer():
    """Given the request's limits, a try is ended at a check inside its first layer (a
    bad order can spend minutes there): the other order is built, and the limits keep
    no budget afterwards."""
    clock = {"t": 0.0}
    built: list = []
    limits = Limits()

    def build(order, on_layer):
        built.append(order)
        if order == "grounded":  # one endless layer, checking its limits
            while True:
                clock["t"] += 1.0
                limits.check("an image")
        for n in range(3):
            on_layer(n, n, 5)
        return order

    with (
        mock.patch.object(order_probe, "PROBE_SECONDS", 10.0),
        mock.patch.object(order_probe.time, "process_time", lambda: clock["t"]),
    ):
        got = build_in_best_order(build, None, [("f", "a", "2"), ("f", "b", "1")], limits)
    assert (got, built) == ("reversed", ["grounded", "reversed"])
    assert 10.0 < clock["t"] <= 12.0, clock  # ended at the first check past the budget
    limits.check("after the probe")  # no budget left behind


@pytest.mark.parametrize("path", KIFS[:6], ids=lambda p: p.name)
def test_answers_with_the_probe_cut_short_are_the_same(path):
    model = _model(path)
    want = _engine_view(model, "symbolic")
    with mock.patch.object(order_probe, "PROBE_SECONDS", -1.0):
        assert _engine_view(model, "symbolic") == want
