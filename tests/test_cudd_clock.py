"""CUDD's own time limit (symbolic.bdd.cudd_clock): the backstop of ``--timeout`` inside
one long CUDD call, which holds the interpreter and which nothing else can stop."""

from __future__ import annotations

import time

import dd.cudd
import pytest

from symbolic.aiger import read_aiger
from symbolic.aiger.safety import default_names, solve_safety
from symbolic.bdd import cudd_clock
from symbolic.errors import LimitExceeded
from symbolic.limits import Limits

from .test_aiger_reader import CORPUS


def test_a_manager_it_cannot_check_gets_no_limit():
    bdd = dd.cudd.BDD()
    bdd.configure(max_memory=2**30)
    assert cudd_clock.attach(bdd, 2**29, 1.0) is None  # not the value it was given


def test_a_fresh_limit_has_not_expired():
    bdd = dd.cudd.BDD()
    bdd.configure(max_memory=2**30)
    pointer = cudd_clock.attach(bdd, 2**30, 60.0)
    assert pointer is not None and not cudd_clock.expired(pointer)


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
def test_one_long_cudd_call_stops_at_the_deadline():
    # stay16y's gates under sifting: single ANDs of a multiplier that run for minutes
    c = read_aiger(str(CORPUS / "stay16y.aag"))
    limits = Limits(timeout=5.0)  # without CUDD's: 18.6 s (gate 640 of 1033)
    started = time.process_time()  # CUDD's clock counts CPU time: the load does not matter
    with pytest.raises(LimitExceeded) as stop:
        solve_safety(c, *default_names(c), backend="cudd", limits=limits)
    assert stop.value.limit == "timeout", stop.value
    assert time.process_time() - started < 10.0, time.process_time() - started
