"""The fuzzer's inputs beyond model text (issue 23, "every file a command reads is
hostile input"): strategy files of ``execute``, ``--at`` position texts, the
standard input of ``play``, GDL ``.kif`` texts, and (issue 35) AIGER circuits,
``.aag`` and ``.aig``; and how each is run.

Each ``*_input(rnd, text_mutator)`` returns one text; :func:`run_input` runs it
and raises what the command would (a SymbolicError is an answer, anything
else is a bug). Strategy files must fail located (``FILE:LINE:COL``).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import sys

from .conftest import ROOT, shared_corpus

MODELS = ROOT / "symbolic" / "models"
KIF_SOURCES = [
    ROOT / "models" / "gdl" / "nim1.kif",
    ROOT / "models" / "gdl" / "ticTacToe.kif",
    *sorted((ROOT / "tests" / "gdl").glob("*.kif")),
]

#: hostile values put where a number or a position goes
_VALUES = [
    "true",
    "false",
    "null",
    "1.5",
    "-0",
    "1e3",
    '"\u0663"',
    '"١"',
    '"1_0"',
    '" 1 "',
    "9" * 5000,
    "-" + "9" * 1200,
    "[]",
    "{}",
    '"j=1"',
    '"s=١"',
    '"\\ud800"',
    "[" * 300 + "]" * 300,
    '{"s": {"s": 1}}',
    '"' + "x" * 100_000 + '"',
    "0",
    "6",
    "7",
    "-1",
]
_POSITIONS = [
    "j=1, k[1]=3, k[2]=0, k[3]=7",
    "k[3]=1, j=2, k[1]=0, k[2]=0",
    "j=1,k[1]=1,k[2]=1,k[3]=1",
]
_DIGITS = [
    "١",
    "٣",
    "３",
    "𝟙",
    "1_0",
    "+1",
    "-0",
    "0x1",
    "1e2",
    "²",
    "true",
    "",
    " ",
    "9" * 5000,
    "9" * 41,
    "\x00",
    "\u202e1",
]


def strategy_input(rnd: random.Random, mutate) -> str:
    """A strategy file for models/td_example.arena.json (one slot s) or nim.game."""
    base = rnd.choice(
        [
            '{"0": 1, "2": 3}',
            '{"1": 6, "3": 6, "4": 3}',
            '{"moves": [{"from": {"s": 0}, "to": {"s": 1}}, {"from": {"s": 2}, "to": {"s": 3}}]}',
            '{"j=1, k[1]=3, k[2]=3, k[3]=3": "j=2, k[1]=0, k[2]=3, k[3]=3"}',
            '{"moves": [{"from": {"j": 1, "k[1]": 1, "k[2]": 0, "k[3]": 0}, '
            '"to": {"j": 2, "k[1]": 0, "k[2]": 0, "k[3]": 0}}]}',
        ]
    )
    kind = rnd.randrange(6)
    if kind == 0:  # a hostile value in place of a number
        nums = [i for i, ch in enumerate(base) if ch.isdigit()]
        i = rnd.choice(nums)
        return base[:i] + rnd.choice(_VALUES) + base[i + 1 :]
    if kind == 1:  # nested deep
        d = rnd.choice([50, 70, 100_000])
        return '{"0": ' + "[" * d + "1" + "]" * d + "}"
    if kind == 2:  # a flat object of many moves
        n = rnd.choice([10, 5000])
        return "{" + ", ".join(f'"{i}": {rnd.randrange(-2, 9)}' for i in range(n)) + "}"
    if kind == 3:  # a JSON value that is not an object
        return rnd.choice(["[]", "1", '"x"', "null", "true", "", "\ufeff{}", "{} {}", "{"])
    return mutate(base, rnd)  # token and byte mutations of the text


def at_input(rnd: random.Random, mutate) -> str:
    """An ``--at`` text for nim.game (slots j, k[1], k[2], k[3])."""
    base = rnd.choice(_POSITIONS)
    kind = rnd.randrange(4)
    if kind == 0:
        parts = base.split("=")
        i = rnd.randrange(1, len(parts))
        parts[i] = rnd.choice(_DIGITS) + parts[i][1:]
        return "=".join(parts)
    if kind == 1:
        return rnd.choice(
            [
                "",
                ",",
                "=",
                "j",
                "j==1",
                ",,,",
                "j=1" * 1000,
                "k[9]=1",
                "x" * 1_000_000,
                "j=1, " * 20_000,
                "J=1, k[1]=1, k[2]=1, k[3]=1",
            ]
        )
    return mutate(base, rnd)


def play_input(rnd: random.Random, mutate) -> str:
    """A script of lines for ``play`` on models/subtraction.game (-p K=5)."""
    lines = []
    for _ in range(rnd.randint(0, 6)):
        lines.append(
            rnd.choice(
                [
                    "1",
                    "2",
                    "3",
                    "0",
                    "-1",
                    "99",
                    "list",
                    "?",
                    "quit",
                    "",
                    "k=3, j=2",
                    "k=4",
                    "j=2, k=9",
                    *_DIGITS,
                    "1" * rnd.choice([25, 5000, 1_000_000]),
                    "x" * 200_000,
                    mutate("k=3, j=2", rnd),
                ]
            )
        )
    end = rnd.choice(["\n", "\r\n", "", "\x00\n"])
    return end.join(lines) + (end if rnd.random() < 0.5 else "")


def kif_input(rnd: random.Random, mutate, sources: list[str]) -> str:
    """A GDL text: a mutated small game, deep terms, or the issue's growing rule."""
    r = rnd.random()
    if r < 0.1:
        d = rnd.choice([100, 3000])
        return sources[0] + "\n(init (deep " + "(f " * d + "a" + ")" * d + "))\n"
    if r < 0.12:  # grounds until the limit stops it (issue 23): rare, each takes STOP seconds
        return sources[0] + "\n(<= (succ ?x (f ?x)) (succ ?y ?x))\n(succ a b)\n"
    return mutate(rnd.choice(sources), rnd)


def kif_sources() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in KIF_SOURCES]


_SPACES: dict = {}


def _space(name: str):
    """The position space of a shipped model (loaded once)."""
    if name not in _SPACES:
        from symbolic.model import load_model

        _SPACES[name] = load_model(MODELS / name).game.space
    return _SPACES[name]


def run_input(kind: str, text: str) -> None:
    """Run one input of the kinds above; SymbolicError is the answer to bad input."""
    if kind == "strategy":
        from symbolic.cli.strategy_file import table_of

        name = "td_example.arena.json" if rnd_pick(text) else "nim.game"
        table_of(text, "fuzz.strategy.json", _space(name))
    elif kind == "at":
        from symbolic.cli.common import parse_position

        parse_position(_space("nim.game"), text)
    elif kind == "play":
        run_play(text)
    elif kind == "aiger":
        run_aiger(text)
    elif kind == "kif":
        from symbolic.gdl.load import gdl_model
        from symbolic.model import Model

        Model.of(gdl_model(text, "fuzz.kif"), "")
    else:
        raise AssertionError(kind)


def rnd_pick(text: str) -> bool:
    """Which space a strategy text is read against: the arena's unless it names j."""
    return '"j' not in text and "j=" not in text


def run_play(script: str) -> int:
    """``symbolic play`` on subtraction (K=5) with ``script`` as standard input."""
    from symbolic.cli import main
    from symbolic.errors import QueryError

    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(script)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = main(["play", str(MODELS / "subtraction.game"), "-p", "K=5", "--quiet"])
    finally:
        sys.stdin = old
    if status not in (0, 2):
        raise QueryError(f"play ended with status {status}")
    return status


# ----------------------------------------------------------------- AIGER circuits (issue 35)

AIGER_CORPUS = shared_corpus("aiger", "SYMBOLIC_AIGER_CORPUS")
_AIGER_BUILTIN = [
    "aag 7 2 2 1 3\n2\n4\n6 13\n8 6 1\n12\n10 6 9\n12 10 4\n14 2 3\n"
    "i0 u\ni1 controllable_c\nl0 a\no0 err\nc\nnote\n",
    "aag 3 2 0 1 1\n2\n4\n6\n6 2 5\ni1 controllable_c\n",
]
_AIGER_SOURCES: list[str] = []


def aiger_sources() -> list[str]:
    """Small circuits: the built-in two and the five smallest files of the shared corpus."""
    if not _AIGER_SOURCES:
        files = sorted(AIGER_CORPUS.glob("*.aag"), key=lambda p: p.stat().st_size)[:5]
        _AIGER_SOURCES.extend(_AIGER_BUILTIN + [p.read_text(encoding="utf-8") for p in files])
    return _AIGER_SOURCES


def _aig_text(aag: str) -> str:
    """The binary form of an ASCII circuit, as latin-1 text (the fuzzer's texts are str)."""
    from symbolic.aiger import parse_aiger, to_aig

    return to_aig(parse_aiger(aag)).decode("latin-1")


def _big_aiger(rnd: random.Random, n: int) -> str:
    """A chain of ``n`` AND gates over 8 inputs, listed backwards half of the time."""
    head = [f"aag {n + 8} 8 0 1 {n}", *(str(2 * i) for i in range(1, 9)), str(2 * (n + 8))]
    gates = [
        f"{2 * (k + 8)} {2 * (k + 7) + rnd.randrange(2)} {2 * rnd.randrange(1, k + 8) + 1}"
        for k in range(1, n + 1)
    ]
    if rnd.random() < 0.5:
        gates.reverse()
    return "\n".join(head + gates) + "\n"


def _literal_mutation(rnd: random.Random, text: str) -> str:
    """A number of the text replaced by a hostile literal: odd, out of range, the
    constants, a gate's own or a later gate's literal (cycles), huge."""
    nums = [m for m in re.finditer(r"\d+", text)]
    if not nums:
        return text
    m = rnd.choice(nums)
    value = int(m.group()[:18])
    new = rnd.choice(
        [
            value + 1,
            value - 1,
            value * 2 + 9,
            0,
            1,
            2 * value,
            value + 2,
            10**6,
            "9" * rnd.choice([19, 400, 5000]),
            "",
        ]
    )
    return text[: m.start()] + str(new) + text[m.end() :]


def aiger_input(rnd: random.Random, mutate) -> str:
    """An AIGER text (a binary one as latin-1): mutated, with hostile literals,
    lines deleted or duplicated, binary bytes flipped, or a large chain."""
    base = rnd.choice(aiger_sources())
    r = rnd.random()
    if r < 0.03:
        return _big_aiger(rnd, rnd.choice([1000, 50_000]))
    if r < 0.35:
        text = base
        for _ in range(rnd.randint(1, 3)):
            text = _literal_mutation(rnd, text)
        return text
    if r < 0.5:
        lines = base.split("\n")
        i = rnd.randrange(len(lines))
        if rnd.random() < 0.5:
            del lines[i]
        else:
            lines.insert(i, lines[i])
        return "\n".join(lines)
    if r < 0.7:
        data = bytearray(_aig_text(base).encode("latin-1"))
        for _ in range(rnd.randint(1, 4)):
            data[rnd.randrange(len(data))] = rnd.randrange(256)
        return bytes(data[: rnd.randint(1, len(data))] if rnd.random() < 0.3 else data).decode(
            "latin-1"
        )
    return mutate(base, rnd)


def run_aiger(text: str) -> None:
    """Read an AIGER text; a circuit read must write back and read again the same, and
    a small one is solved as a safety game (a circuit without exactly one output is a
    located error) by both engines' safety solvers, which must agree with each other
    and with the game's fixpoint."""
    from symbolic.aiger import canonical, parse_aiger, to_aag, to_aig

    binary = text.startswith("aig")
    data = text.encode("latin-1", "replace") if binary else text
    circuit = parse_aiger(data, "fuzz.aig" if binary else "fuzz.aag")
    if len(circuit.and_lhs) > 10_000:  # the round trips of the large chains: in the tests
        return
    if parse_aiger(to_aag(circuit), "back.aag") != circuit:
        raise AssertionError("aag round trip")
    if parse_aiger(to_aig(circuit), "back.aig") != canonical(circuit):
        raise AssertionError("aig round trip")
    if len(circuit.latches) + len(circuit.inputs) <= 10:
        _solve_aiger(circuit)


def _solve_aiger(circuit) -> None:
    """The realizability of a small circuit by the safety solvers of both engines and by
    the explicit engine's game fixpoint: the same answer (AssertionError otherwise)."""
    from symbolic.aiger.build import aiger_model
    from symbolic.aiger.solve import realizability
    from symbolic.engines import make_engine
    from symbolic.model import Model

    m = Model.of(aiger_model(circuit, "fuzz.aag"), "")
    answers = [
        realizability(m, make_engine(m.game, kind), method).realizable
        for kind, method in (("symbolic", "safety"), ("explicit", "safety"), ("explicit", "game"))
    ]
    if len(set(answers)) != 1:
        raise AssertionError(f"the safety solvers disagree: {answers}")
