"""The AIGER reader of issue 35 (symbolic.aiger): good files, hostile ones, round trips.

Every malformed file must fail with a located ParseError (line, column, what was
expected); the binary form and the ASCII form of a circuit must read the same;
random circuits written as aag and aig read back as written. The SYNTCOMP corpus kept
beside the checkout (``$SYMBOLIC_AIGER_CORPUS``) is used where present.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.aiger import (
    Circuit,
    canonical,
    literal_value,
    parse_aiger,
    read_aiger,
    simulate,
    to_aag,
    to_aig,
)
from symbolic.errors import FileError, ParseError

from .conftest import shared_corpus

CORPUS = shared_corpus("aiger", "SYMBOLIC_AIGER_CORPUS")
EXAMPLES = int(os.environ.get("SYMBOLIC_FUZZ_EXAMPLES", "200"))

GOOD = """aag 7 2 2 1 3
2
4
6 13
8 6 1
12
10 6 9
12 10 4
14 2 3
i0 u
i1 controllable_c
l0 first
l1 second
o0 err
c
a comment
"""


def test_good_file_fields():
    c = parse_aiger(GOOD, "good.aag")
    assert c.counts == (7, 2, 2, 1, 3)
    assert c.inputs == (2, 4) and c.latches == (6, 8)
    assert c.next_state == (13, 6) and c.reset == (0, 1)
    assert c.error == 12 and c.controllable == (False, True)
    assert c.latch_names == ("first", "second") and c.output_names == ("err",)
    assert c.comments == ("a comment",)
    # gate 14 reads only inputs; 10 before 12, which reads it: a topological order
    assert c.and_lhs.index(10) < c.and_lhs.index(12)


def test_gates_listed_backwards_are_sorted():
    n = 100_000  # a chain: a recursive reader would overflow Python's stack
    lines = [f"aag {n + 1} 1 0 1 {n}", "2", str(2 * (n + 1))]
    lines += [f"{2 * (k + 1)} {2 * k} {2 * k + 1 if k > 1 else 2}" for k in range(n, 0, -1)]
    c = parse_aiger("\n".join(lines) + "\n", "chain.aag")
    assert c.and_lhs == tuple(2 * (k + 1) for k in range(1, n + 1))


def test_crlf_and_missing_final_newline():
    crlf = GOOD.replace("\n", "\r\n")
    assert parse_aiger(crlf) == parse_aiger(GOOD)
    assert parse_aiger("aag 1 1 0 1 0\n2\n3").outputs == (3,)


def test_reset_values_and_uninitialised_latch():
    c = parse_aiger("aag 3 0 3 1 0\n2 2 0\n4 4 1\n6 6 6\n2\n")
    assert c.reset == (0, 1, 6)


def test_simulation():
    c = parse_aiger(GOOD)
    value = simulate(c, {6: 1, 8: 0}, {2: 1, 4: 0})
    assert literal_value(value, 10) == 1 and literal_value(value, 12) == 0
    assert literal_value(value, 14) == 0


def test_file_errors(tmp_path):
    with pytest.raises(FileError, match="cannot read"):
        read_aiger(tmp_path / "missing.aag")
    path = tmp_path / "c.aig"
    path.write_bytes(to_aig(parse_aiger(GOOD)))
    assert read_aiger(path) == canonical(parse_aiger(GOOD))


# (text, line, column, a fragment of the message)
HOSTILE = [
    ("", 1, 1, "the file is empty"),
    ("\n\n", 1, 1, "the file is empty"),
    ("aug 1 1 0 1 0\n2\n2\n", 1, 1, "expected 'aag' or 'aig'"),
    ("aag 1 1 0 1\n", 1, 12, "expected A here"),
    ("aag 1 1 0 1 x\n", 1, 13, "expected A (an unsigned decimal number)"),
    ("aag 1 1 0 1 0 0 0 0 0 0\n", 1, 23, "expected the end of the line"),
    ("aag 1 1 0 1 " + "9" * 40 + "\n", 1, 13, "A is too large"),
    ("aag 1 1 0 2 0\n2\n2\n3\n", 1, 11, "exactly one output"),
    ("aag 1 1 0 0 0\n2\n", 1, 11, "exactly one output"),
    ("aag 1 1 0 1 0 1\n2\n2\n", 1, 15, "bad-state properties"),
    ("aag 1 1 0 1 0 0 0 2\n2\n2\n", 1, 19, "justice properties"),
    ("aag 1 2 0 1 0\n2\n4\n2\n", 1, 5, "below I + L + A"),
    ("aig 5 1 0 1 0\n2\n", 1, 5, "M = I + L + A"),
    ("aag 9999999 1 0 1 0\n2\n2\n", 1, 5, "far above"),
    ("aag 3 2 0 1 1\n2\n4\n", 4, 1, "ends after 0 of the 1 output"),
    ("aag 3 2 0 1 1\n2\n4\n6\n", 5, 1, "ends after 0 of the 1 AND gate"),
    ("aag 3 2 0 1 1\n2\n4\n6", 4, 2, "ends after 0 of the 1 AND gate"),
    ("aag 3 2 0 1 1\n2\n", 3, 1, "ends after 1 of the 2 input"),
    ("aag 3 2 0 1 1\n2\n4\n6\n6 2\n", 5, 4, "expected its second operand here"),
    ("aag 3 2 0 1 1\n2\n4\n6\n6 2 4 8\n", 5, 7, "expected the end of the line"),
    ("aag 3 2 0 1 1\n2\n5\n6\n6 2 4\n", 3, 1, "an input must be an even literal"),
    ("aag 3 2 0 1 1\n2\n0\n6\n6 2 4\n", 3, 1, "literals 0 and 1 are the constants"),
    ("aag 3 2 0 1 1\n2\n4\n6\n7 2 4\n", 5, 1, "AND gate's literal must be an even"),
    ("aag 3 2 0 1 1\n2\n4\n6\n6 2 8\n", 5, 5, "operand 8 is out of range"),
    ("aag 3 2 0 1 1\n2\n4\n9\n6 2 4\n", 4, 1, "output literal 9 is out of range"),
    ("aag 2 1 1 1 0\n2\n4 6\n2\n", 3, 3, "next-state literal 6 is out of range"),
    ("aag 2 1 1 1 0\n2\n4 2 3\n2\n", 3, 5, "reset value must be 0, 1 or"),
    ("aag 3 2 0 1 1\n2\n2\n6\n6 2 4\n", 3, 1, "defined twice: it is already an input, at line 2"),
    ("aag 3 1 1 1 1\n2\n6 2\n6\n6 2 2\n", 5, 1, "defined twice: it is already a latch, at line 3"),
    ("aag 4 2 0 1 1\n2\n4\n8\n6 2 4\n", 4, 1, "reads variable 4, which is never defined"),
    ("aag 4 2 0 1 1\n2\n4\n6\n6 2 9\n", 5, 5, "reads variable 4, which is never defined"),
    ("aag 5 1 0 1 2\n2\n6\n6 2 8\n8 6 2\n", 5, 1, "cycle (6 -> 8 -> 6)"),
    ("aag 3 1 0 1 1\n2\n6\n6 2 7\n", 4, 1, "cycle (6 -> 6)"),
    ("aag 1 1 0 1 0\n2\n2\nx0 name\n", 4, 1, "expected a symbol"),
    ("aag 1 1 0 1 0\n2\n2\ni1 name\n", 4, 2, "input 1 does not exist"),
    ("aag 1 1 0 1 0\n2\n2\nl0 name\n", 4, 2, "latch 0 does not exist"),
    ("aag 1 1 0 1 0\n2\n2\ni0 a\ni0 b\n", 5, 1, "already has a name, 'a'"),
    ("aag 1 1 0 1 0\n2\n2\ni0 \n", 4, 4, "expected a name"),
    ("aag 1 1 0 1 0\n2\n2\n\ni0 a\n", 4, 1, "expected a symbol"),
    ("aag 1 1 0 1 0\n2\n\u0663\n", 3, 1, "expected an output literal"),
]


@pytest.mark.parametrize("text, line, column, fragment", HOSTILE)
def test_hostile_input_is_located(text, line, column, fragment):
    with pytest.raises(ParseError) as info:
        parse_aiger(text, "bad.aag")
    err = info.value
    assert fragment in err.message, err.message
    assert (err.span.file, err.span.line, err.span.column) == ("bad.aag", line, column), str(err)


BINARY_HOSTILE = [
    (b"aig 3 2 0 1 1\n6\n\x02", "ends inside AND gate 1"),
    (b"aig 3 2 0 1 1\n6\n\x00\x00", "first delta must be in 1..6"),
    (b"aig 3 2 0 1 1\n6\n\x07\x00", "first delta must be in 1..6"),
    (b"aig 3 2 0 1 1\n6\n\x02\x05", "second delta must be in 0..4"),
    (b"aig 3 2 0 1 1\n6\n" + b"\xff" * 12, "does not end within 10 bytes"),
    (b"aig 3 2 0 1 1\n6\n\x02\x01\x7f\x80", "expected a symbol"),
]


@pytest.mark.parametrize("data, fragment", BINARY_HOSTILE)
def test_hostile_binary_is_located(data, fragment):
    with pytest.raises(ParseError) as info:
        parse_aiger(data, "bad.aig")
    assert fragment in info.value.message and info.value.span.line >= 1


def test_binary_error_location_names_the_byte():
    with pytest.raises(ParseError) as info:
        parse_aiger(b"aig 3 2 0 1 1\n6\n\x02\x05", "bad.aig")
    assert (info.value.span.line, info.value.span.column) == (3, 2)
    assert "byte 17" in str(info.value)


# ----------------------------------------------------------------- round trips


@st.composite
def circuits(draw) -> Circuit:
    """A random circuit in the binary format's numbering (so both forms keep it)."""
    n_in, n_latch, n_and = (
        draw(st.integers(0, 5)),
        draw(st.integers(0, 4)),
        draw(st.integers(0, 12)),
    )
    base = n_in + n_latch
    top = lambda v: st.integers(0, 2 * v + 1)  # noqa: E731 - a literal over variables 0..v
    rhs = []
    for k in range(n_and):
        a, b = draw(top(base + k)), draw(top(base + k))
        rhs.append((max(a, b), min(a, b)))
    maxvar = base + n_and
    latches = tuple(2 * (n_in + k + 1) for k in range(n_latch))
    name = st.text(
        st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=8
    )
    return Circuit(
        maxvar,
        tuple(2 * (k + 1) for k in range(n_in)),
        latches,
        tuple(draw(top(maxvar)) for _ in latches),
        tuple(draw(st.sampled_from([0, 1, lit])) for lit in latches),
        (draw(top(maxvar)),),
        tuple(2 * (base + k + 1) for k in range(n_and)),
        tuple(r[0] for r in rhs),
        tuple(r[1] for r in rhs),
        tuple(draw(name) for _ in range(n_in)),
        tuple(draw(name) for _ in latches),
        (draw(name),),
        tuple(
            draw(
                st.lists(
                    st.text(
                        st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)),
                        max_size=6,
                    ),
                    max_size=3,
                )
            )
        ),
    )


def _stripped(c: Circuit) -> Circuit:
    """``c`` as a file can keep it: names without trailing blanks lost to the line end."""
    from dataclasses import replace

    return replace(c, comments=c.comments if any(c.comments) or len(c.comments) > 1 else ())


@settings(max_examples=EXAMPLES, deadline=None)
@given(circuits())
def test_random_circuits_round_trip(c):
    c = _stripped(c)
    assert parse_aiger(to_aag(c), "r.aag") == c
    assert parse_aiger(to_aig(c), "r.aig") == c


def _corpus_sample() -> list[Path]:
    files = sorted(CORPUS.glob("*.aag"))
    return random.Random(35).sample(files, min(12, len(files))) + sorted(
        (CORPUS / "large").glob("load_full_6_comp7*.aag")
    )


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared AIGER corpus is not here")
@pytest.mark.parametrize("path", _corpus_sample(), ids=lambda p: p.name)
def test_corpus_aag_and_aig_agree(path):
    c = read_aiger(path)
    assert len(c.outputs) == 1 and any(c.controllable)
    assert parse_aiger(to_aag(c), "back.aag") == c
    b = parse_aiger(to_aig(c), "back.aig")
    assert b == canonical(c)
    # the renumbered circuit computes the same: random steps, every latch and the error
    rnd = random.Random(path.name)
    state_a = {lit: r for lit, r in zip(c.latches, c.reset)}
    state_b = {lit: r for lit, r in zip(b.latches, b.reset)}
    for _ in range(20):
        bits = [rnd.randrange(2) for _ in c.inputs]
        va = simulate(c, state_a, dict(zip(c.inputs, bits)))
        vb = simulate(b, state_b, dict(zip(b.inputs, bits)))
        assert literal_value(va, c.error) == literal_value(vb, b.error)
        state_a = {lit: literal_value(va, n) for lit, n in zip(c.latches, c.next_state)}
        state_b = {lit: literal_value(vb, n) for lit, n in zip(b.latches, b.next_state)}
        assert list(state_a.values()) == list(state_b.values())
