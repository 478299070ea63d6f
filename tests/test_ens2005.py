"""The ENS 2005 answer sheet (symbolic.seeds.ens2005) on both engines, against a naive
transcription of the exam's definitions written here (sets as Python sets,
δ and the fixpoints by their formulas)."""

from __future__ import annotations

import itertools
import json

import pytest

from symbolic.cli import main
from symbolic.seeds.ens2005 import QUESTIONS, answer_sheet, format_sheet
from symbolic.errors import QueryError
from symbolic.seeds.games import ens_rules, lcg

U0S = (0, 31337)


def naive(N, n, K, r, u0):
    R = ens_rules(n, r, u0)
    P = set(range(1, N + 1))
    C = [(j,) + k for j in range(1, N + 1) for k in itertools.product(range(K + 1), repeat=n)]
    delta = {
        c: {
            ((c[0] % N) + 1,) + tuple(a - b for a, b in zip(c[1:], d))
            for d in R
            if all(a >= b for a, b in zip(c[1:], d))
        }
        for c in C
    }

    def pre(J, tau):
        return {
            c for c in C if (c[0] in J and delta[c] & tau) or (c[0] not in J and delta[c] <= tau)
        }

    def until(J, sigma, tau):
        x = set(tau)
        while True:
            y = x | (pre(J, x) & sigma)
            if y == x:
                return x
            x = y

    def F(J):
        return until(J, pre(P, set(C)), {c for c in C if c[0] not in J} & pre(J, set()))

    return R, C, delta, pre, until, F


@pytest.fixture(scope="module", params=U0S)
def sheets(request):
    u0 = request.param
    return u0, answer_sheet(u0, engine="symbolic"), answer_sheet(u0, engine="explicit")


def test_engines_give_the_same_sheet(sheets):
    u0, sym, exp = sheets
    assert sym == exp, {q: (sym[q], exp[q]) for q in sym if sym[q] != exp[q]}


def test_questions_1_to_5(sheets):
    u0, sheet, _ = sheets
    u = lcg(u0, 5000)
    assert sheet["Q1"] == {
        "a": u[1],
        "b": u[100],
        "c": u[1000],
        "d": sum(u[i] + u[5000 - i] <= u[1] + u[4999] for i in range(1, 5000)),
    }
    assert sheet["Q3"] == {"a": 2, "b": 1, "c": 1}
    A = {
        (x, y, z) for x in range(11) for y in range(11) for z in range(11) if x * x + y * y == z * z
    }
    B = {(u[3 * k] % 11, u[3 * k + 1] % 11, u[3 * k + 2] % 11) for k in range(101)}
    assert sheet["Q4"] == {"a": len(A), "b": len(B), "c": len(A & B), "d": sorted(map(list, A & B))}
    assert sheet["Q5"] == {
        "a": [list(t) for t in ens_rules(2, 2, u0)],
        "b": [list(t) for t in ens_rules(3, 3, u0)],
    }


def test_questions_6_to_8(sheets):
    u0, sheet, _ = sheets
    for key, params, c in (("a", (2, 2, 20, 2), (1, 5, 9)), ("b", (2, 3, 20, 3), (2, 3, 7, 2))):
        _, _, delta, *_ = naive(*params, u0)
        assert sheet["Q6"][key] == sorted(map(list, delta[c])), key
    for key, params, tau in (
        ("a", (2, 2, 20, 2), {(2, 1, 5)}),
        ("b", (2, 2, 3, 2), {(2, 1, 1)}),
        ("c", (2, 3, 5, 3), {(2, 1, 2, 3), (1, 3, 2, 1)}),
    ):
        _, C, delta, *_ = naive(*params, u0)
        want = sorted(list(c) for c in C if c[0] == 1 and delta[c] & tau)
        assert sheet["Q7"][key] == want, key
    for key, params, tau in (
        ("a", (2, 2, 4, 2), {(2, 0, 0)}),
        ("b", (2, 2, 3, 2), {(2, 1, 1)}),
        ("c", (2, 3, 5, 3), {(2, 0, 0, 0)}),
    ):
        _, C, delta, *_ = naive(*params, u0)
        assert sheet["Q8"][key] == sum(1 for c in C if c[0] != 1 and delta[c] <= tau), key


def test_questions_9_and_10(sheets):
    u0, sheet, _ = sheets
    _, C, _, pre, _, _ = naive(2, 2, 20, 2, u0)
    p = pre({1}, {c for c in C if c[1] <= 2 and c[2] <= 2})
    assert (sheet["Q9"]["a"], sheet["Q9"]["b"]) == (len(p), sum(1 for c in p if c[0] == 2))
    R, C, _, pre, until, _ = naive(3, 3, 5, 3, u0)
    zeros = {(j, 0, 0, 0) for j in (1, 2, 3)}
    assert [sheet["Q9"][k] for k in "cde"] == [len(pre(J, zeros)) for J in ({1}, {1, 2}, set())]
    stuck = {c for c in C if all(any(d[i] > c[1 + i] for i in range(3)) for d in R)}
    a = until({1}, {c for c in C if c[2] >= c[3]}, {c for c in stuck if c[0] != 1})
    b = until({1, 2}, set(C), {c for c in stuck if c[0] != 2})
    assert sheet["Q10"] == {"a": len(a), "b": len(b)}


def test_questions_11_and_12(sheets):
    u0, sheet, _ = sheets
    _, C, _, pre, until, F = naive(3, 2, 20, 3, u0)
    initial = {c for c in C if c[1] == c[2]}
    F1, F12, F3 = F({1}), F({1, 2}), F({3})
    assert sheet["Q11"] == {
        "a": sorted(map(list, F1 & initial)),
        "b": len(F1),
        "c": len(F12),
        "d": len(F12 & initial),
    }
    T = until({1, 2}, pre({1, 2, 3}, set(C)), (set(C) - F3) & F1)
    assert sheet["Q12"] == {"a": len(T), "b": len(T & initial)}


def test_cli_json_shape(capsys):
    assert main(["ens2005", "--u0", "5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["u0"] == 5
    shape = {
        "Q1": "abcd",
        "Q3": "abc",
        "Q4": "abcd",
        "Q5": "ab",
        "Q6": "abc",
        "Q7": "abc",
        "Q8": "abc",
        "Q9": "abcde",
        "Q10": "ab",
        "Q11": "abcd",
        "Q12": "ab",
    }
    assert {q: "".join(sorted(doc[q])) for q in shape} == shape


def test_bad_u0_is_refused(capsys):
    with pytest.raises(QueryError):
        answer_sheet(-1)
    assert main(["ens2005", "--u0", "4890367"]) == 2
    assert "u0 must be in 0..4890366" in capsys.readouterr().err


def test_every_answer_follows_its_question(sheets):
    """The text sheet states each question in one line before its answer, and every
    answer of the sheet has a statement (none left bare, none stated without answer)."""
    u0, sheet, _ = sheets
    assert {q: set(a) for q, a in sheet.items() if q != "u0"} == {
        q: set(a) for q, a in QUESTIONS.items()
    }
    lines = format_sheet(sheet).splitlines()
    assert f"  a) {QUESTIONS['Q1']['a']}: {sheet['Q1']['a']}" in lines
    assert f"  b) {QUESTIONS['Q12']['b']}: {sheet['Q12']['b']}" in lines
    answer_lines = [line for line in lines if line.startswith("  ")]
    assert len(answer_lines) == sum(len(a) for a in QUESTIONS.values())
