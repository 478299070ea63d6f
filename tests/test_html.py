"""The Jupyter views (``_repr_html_``, ``_repr_svg_``): a count and at most 20 rows,
on both engines, for sets, fixpoints, strategies, values and nimbers."""

from __future__ import annotations

import re

import pytest

from symbolic.api import reachable
from symbolic import atl
from symbolic.analysis.grundy import layered_nimbers
from symbolic.analysis.strategy import strategy_for
from symbolic.analysis.values import two_player_values
from symbolic.engines import make_engine
from symbolic.html import ROWS
from symbolic.model import load_model
from symbolic.pictures import set_grid

from .conftest import MODELS


def rows(html: str) -> int:
    return html.count("<tr>") - 1  # the header row


@pytest.fixture(params=["symbolic", "explicit"])
def nim(request):
    m = load_model(MODELS / "nim.game", {"n": 2, "K": 7})
    return m, make_engine(m.game, request.param)


def test_position_set_shows_its_exact_count_and_at_most_20_rows(nim):
    m, e = nim
    P = atl.evaluate(e, m.formula("not mover_wins"), m.definitions)
    html = P._repr_html_()
    assert f"set of {P.count()} positions" in html and rows(html) == 16 == P.count()
    big = e.positions()._repr_html_()
    assert rows(big) == ROWS and f"... {128 - ROWS} more" in big
    assert "<th>k[1]</th>" in big and "<td>" in big


def test_a_huge_set_is_never_listed():
    m = load_model(MODELS / "nim.game", {"n": 4, "K": 1023})
    e = make_engine(m.game)
    html = e.positions()._repr_html_()
    assert str(2 * 1024**4) in html and rows(html) == ROWS


def test_fixpoint_strategy_values_nimbers(nim):
    m, e = nim
    fp = reachable(e, e.singleton((1, 3, 3)))
    assert f"after {fp.iterations} steps: {fp.result.count()} positions" in fp._repr_html_()
    s = strategy_for(e, m.formula("wins(1)"), m.definitions)
    html = s._repr_html_()
    n = s.relation.sources().count()
    assert f"wins from {s.region.count()} positions; moves from {n}" in html
    assert rows(html) == ROWS and f"... {n - ROWS} more" in html
    first_from = re.search(r"<tr><td>([^<]*)</td>", html).group(1)
    assert first_from == "j=1, k[1]=0, k[2]=1"
    V = two_player_values(e)
    vh = V._repr_html_()
    for v, k in V.counts().items():
        assert f"<td>{v:+d}</td><td>{k}</td>" in vh or f"<td>{v}</td><td>{k}</td>" in vh
    N = layered_nimbers(e)
    nh = N._repr_html_()
    assert all(f"<td>{g}</td><td>{k}</td>" in nh for g, k in N.counts().items())


def test_a_picture_shows_itself_as_svg(nim):
    m, e = nim
    svg = set_grid(e.deadlocks(), "k[1]", "k[2]", {"j": 1})._repr_svg_()
    assert svg.startswith("<?xml") and 'id="cell_0_0"' in svg
