"""The fast reader (symbolic.lang.driver, issue 32) gives the AST the slow way gives,
spans included, or gives up (Fallback) where the slow way reports an error: on every
shipped and example model, on hostile mutations of them and random models, and on
the generated files of bench/read_speed.py. Its time grows linearly with the text."""

from __future__ import annotations

import dataclasses
import random
import resource
import sys
from unittest import mock

import pytest

from symbolic.errors import ParseError, SymbolicError
from symbolic.gdl.load import gdl_model
from symbolic.limits import MAX_NESTING
from symbolic.lang.decls import check_model
from symbolic.lang.builder import ToAst
from symbolic.lang import parser as parser_mod
from symbolic.lang.driver import Fallback, fast_parse
from symbolic.lang.grammar import _parser
from symbolic.lang.parser import parse_formula_text
from symbolic.lang.source import Source, paused_gc

from .conftest import ROOT
from .fuzz_parser import mutate, random_expr, random_model

sys.path.append(str(ROOT / "bench"))  # last: bench/ must not shadow a stdlib module
from read_speed import KINDS, make_file  # noqa: E402

GAMES = sorted(p for p in ROOT.glob("**/*.game") if ".venv" not in p.parts)


def _slow(text: str, start: str = "start"):
    return ToAst(Source(text, "t")).transform(_parser().parse(text, start=start))


def _same(a, b, path="") -> None:
    """``a`` and ``b`` equal field by field, spans included (AST equality skips them)."""
    assert type(a) is type(b), (path, a, b)
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _same(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), (path, a, b)
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    else:
        assert a == b, (path, a, b)


def _agree(text: str, start: str = "start") -> str:
    """'ok' when both ways give the same AST, 'error' when the slow way fails and the
    fast one gives up; anything else fails the test."""
    try:
        slow = _slow(text, start)
    except Exception:  # noqa: BLE001 - lark's errors and the builder's, both reported
        with pytest.raises(Fallback):
            fast_parse(_parser(), text, "t", start)
        return "error"
    try:
        fast = fast_parse(_parser(), text, "t", start)
    except Fallback:  # only too deep a nesting is read by lark and then refused
        return "fallback"
    except ParseError as err:  # ... or refused at once by the fast way
        assert "nested more than" in err.message, err
        return "fallback"
    _same(fast, slow)
    return "ok"


def test_there_are_models():
    assert len(GAMES) > 15, GAMES


@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_model_reads_the_same_both_ways(path):
    assert _agree(path.read_text(encoding="utf-8")) == "ok"


@pytest.mark.parametrize("kind", ["sets", "queries", "long-line", "consts", "actions"])
def test_the_generated_files_read_the_same_both_ways(kind):
    assert _agree(make_file(kind, 20_000)[1]) == "ok"


@pytest.mark.parametrize(
    "text",
    [
        "(x)",
        "((x)) + (y)",
        "x == (1) and (y < 2)",
        "<<1>> (x U y)",
        "<<>> [] ~x",
        "f(a, e for x in D)",
        "{ x for x in 0..3 if x > 1 }",
        "-(-x)",
        "a[1][2] + b'",
        "if x then (y) else z",
        "forall i, j in 0..2: (a[i] != a[j])",
        '"""\n  a\n  b"""',
        "x /* c\n */ + // d\n y",
        "turn()",
        "()",
        "(1,)",
        "(1, 2, 3,)",
        "x ∧ ¬y ⇒ z",
    ],
)
def test_formulas_read_the_same_both_ways(text):
    assert _agree(text, "formula_start") == "ok"


def test_hostile_and_random_texts_agree():
    rnd = random.Random(32)
    sources = [p.read_text(encoding="utf-8") for p in GAMES[:8]]
    seen = {"ok": 0, "error": 0, "fallback": 0}
    for _ in range(50):  # make fuzz-parser runs thousands more
        seen[_agree(mutate(rnd.choice(sources), rnd))] += 1
        seen[_agree(random_model(rnd))] += 1
        seen[_agree(random_expr(rnd, 4), "formula_start")] += 1
    assert seen["ok"] > 25 and seen["error"] > 25, seen


def test_too_deep_is_refused_at_once_and_refused_literals_fall_back():
    for text in ("not " * 300 + "x", "-" * 400 + "x"):
        with pytest.raises(ParseError, match="nested more than") as info:
            fast_parse(_parser(), text, "t", "formula_start")
        assert info.value.span.line == 1 and info.value.span.column > 1, info.value.span
    with pytest.raises(Fallback):
        fast_parse(_parser(), "x + " + "9" * 5000, "t", "formula_start")
    with pytest.raises(SymbolicError, match="integer literal of 5000 digits"):
        parse_formula_text("x + " + "9" * 5000)


NESTED = {
    "not": lambda d: "not " * d + "s",
    "X": lambda d: "<<1>> X " * d + "s",
    "minus": lambda d: "-" * d + "x > 0",
    "call": lambda d: "abs(" * d + "x" + ")" * d + " > 0",
    "brackets": lambda d: "(" * d + "x" + ")" * d + " > 0",
    "ite": lambda d: "if x > 0 then " * d + "true" + " else false" * d,
}


def _slow_checked(text: str, start: str):
    """The slow way as the reader takes it: lark's tree, the nesting check, the AST."""
    with mock.patch.object(parser_mod, "fast_parse", side_effect=Fallback("forced")):
        parser_mod._parse.cache_clear()
        try:
            return parser_mod._parse(text, "t", start)
        finally:
            parser_mod._parse.cache_clear()


def _verdict(read, text: str) -> str:
    try:
        read(text)
    except Fallback:
        return "fallback"
    except ParseError as err:
        return "too deep" if "nested more than" in err.message else "other error"
    return "ok"


@pytest.mark.parametrize("kind", sorted(NESTED))
def test_the_fast_way_refuses_exactly_the_nestings_the_slow_way_refuses(kind):
    """Around the limit and far past it, a formula and a model's set are read (or
    refused as too deep) alike both ways: the fast way's early refusal never refuses
    a text the slow way reads."""
    limit = MAX_NESTING // 2 if kind == "call" else MAX_NESTING  # a call: two levels
    seen = set()
    # the refusal starts a few levels past the limit (the declaration levels): around it
    for depth in [limit, *range(limit + 3, limit + 11), 3 * limit]:
        formula = NESTED[kind](depth)
        model = f'game "g"\nplayers 1, 2\nvar x : 0..3\nset s = {formula}\n'
        for text, start in ((formula, "formula_start"), (model, "start")):
            fast = _verdict(lambda t: fast_parse(_parser(), t, "t", start), text)
            slow = _verdict(lambda t: _slow_checked(t, start), text)
            if fast == "fallback":  # not read fast: the slow way decides
                continue
            assert fast == slow, (kind, depth, start, fast, slow)
            seen.add(fast)
    # parentheses alone do not count
    assert seen == ({"ok"} if kind == "brackets" else {"ok", "too deep"}), (kind, seen)


def _read(kind: str, text: str) -> None:
    """All of reading: text to checked model (the ``.kif`` reader for ``kif``), as
    ``load_model`` does it but without its memo of parsed texts."""
    if kind == "kif":
        gdl_model(text, "t.kif")
    else:
        with paused_gc():
            check_model(fast_parse(_parser(), text, "t", "start"), "t")


def _cpu(kind: str, text: str) -> float:
    best = float("inf")
    for _ in range(2):
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        _read(kind, text)
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        best = min(best, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return best


# a measurement of time, in make test-slow: make test asserts no speed (bench/read_speed.py
# measures reading; this guards against a quadratic step coming back)
@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_reading_grows_linearly(kind):
    """Four times the text takes less than eight times the processor time, for the whole
    of reading (parse, check; ground for GDL) of each kind of bench/read_speed.py (a
    quadratic step, such as copying the declarations read so far per declaration,
    takes sixteen; the margin absorbs a loaded machine's noise)."""
    small, large = make_file(kind, 25_000)[1], make_file(kind, 100_000)[1]
    _read(kind, small)
    cpu_small, cpu_large = _cpu(kind, small), _cpu(kind, large)
    assert cpu_large < 8 * cpu_small, (cpu_small, cpu_large)


def test_paused_gc_restores_the_collector_and_cycles_made_while_reading_are_reclaimed():
    import gc
    import weakref

    class Node:
        pass

    assert gc.isenabled()
    with paused_gc():
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle, as a parse could leave
        alive = weakref.ref(a)
        assert not gc.isenabled()
    assert gc.isenabled()
    del a, b
    gc.collect()
    assert alive() is None


def test_garbage_made_before_a_read_is_not_moved_out_of_reach_by_it():
    """A loop of reads (a fuzzing campaign, a notebook over many models) must not carry
    each round's garbage cycles to the oldest generation uncounted: they went only at
    a full collection, which then came rarely (a run grew to 24 GB). The young
    generations are collected as a read starts, and only a large read moves objects."""
    import weakref

    class Node:
        pass

    for _ in range(3):  # whatever the collector's counts are when it starts
        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        del a, b
        with paused_gc():
            pass
        assert alive() is None
