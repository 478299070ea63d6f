"""The fuzzer's inputs beyond model text (issue 23, "every file a command reads is
hostile input"): strategy files of ``execute``, ``--at`` position texts, the
standard input of ``play``, and GDL ``.kif`` texts; and how each is run.

Each ``*_input(rnd, text_mutator)`` returns one text; :func:`run_input` runs it
and raises what the command would (a SymbolicError is an answer, anything
else is a bug). Strategy files must fail located (``FILE:LINE:COL``).
"""
from __future__ import annotations

import contextlib
import io
import random
import sys

from .conftest import ROOT

MODELS = ROOT / "symbolic" / "models"
KIF_SOURCES = [ROOT / "models" / "gdl" / "nim1.kif", ROOT / "models" / "gdl" / "ticTacToe.kif",
               *sorted((ROOT / "tests" / "gdl").glob("*.kif"))]

#: hostile values put where a number or a position goes
_VALUES = ["true", "false", "null", "1.5", "-0", "1e3", '"\u0663"', '"١"', '"1_0"', '" 1 "',
           "9" * 5000, "-" + "9" * 1200, "[]", "{}", '"j=1"', '"s=١"', '"\\ud800"', "[" * 300
           + "]" * 300, '{"s": {"s": 1}}', '"' + "x" * 100_000 + '"', "0", "6", "7", "-1"]
_POSITIONS = ["j=1, k[1]=3, k[2]=0, k[3]=7", "k[3]=1, j=2, k[1]=0, k[2]=0",
              "j=1,k[1]=1,k[2]=1,k[3]=1"]
_DIGITS = ["١", "٣", "３", "𝟙", "1_0", "+1", "-0", "0x1", "1e2", "²", "true", "", " ",
           "9" * 5000, "9" * 41, "\x00", "\u202e1"]


def strategy_input(rnd: random.Random, mutate) -> str:
    """A strategy file for models/td_example.arena.json (one slot s) or nim.game."""
    base = rnd.choice([
        '{"0": 1, "2": 3}', '{"1": 6, "3": 6, "4": 3}',
        '{"moves": [{"from": {"s": 0}, "to": {"s": 1}}, {"from": {"s": 2}, "to": {"s": 3}}]}',
        '{"j=1, k[1]=3, k[2]=3, k[3]=3": "j=2, k[1]=0, k[2]=3, k[3]=3"}',
        '{"moves": [{"from": {"j": 1, "k[1]": 1, "k[2]": 0, "k[3]": 0}, '
        '"to": {"j": 2, "k[1]": 0, "k[2]": 0, "k[3]": 0}}]}'])
    kind = rnd.randrange(6)
    if kind == 0:                                # a hostile value in place of a number
        nums = [i for i, ch in enumerate(base) if ch.isdigit()]
        i = rnd.choice(nums)
        return base[:i] + rnd.choice(_VALUES) + base[i + 1:]
    if kind == 1:                                # nested deep
        d = rnd.choice([50, 70, 100_000])
        return '{"0": ' + "[" * d + "1" + "]" * d + "}"
    if kind == 2:                                # a flat object of many moves
        n = rnd.choice([10, 5000])
        return "{" + ", ".join(f'"{i}": {rnd.randrange(-2, 9)}' for i in range(n)) + "}"
    if kind == 3:                                # a JSON value that is not an object
        return rnd.choice(["[]", "1", '"x"', "null", "true", "", "\ufeff{}", "{} {}", "{"])
    return mutate(base, rnd)                     # token and byte mutations of the text


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
        return rnd.choice(["", ",", "=", "j", "j==1", ",,,", "j=1" * 1000, "k[9]=1",
                           "x" * 1_000_000, "j=1, " * 20_000, "J=1, k[1]=1, k[2]=1, k[3]=1"])
    return mutate(base, rnd)


def play_input(rnd: random.Random, mutate) -> str:
    """A script of lines for ``play`` on models/subtraction.game (-p K=5)."""
    lines = []
    for _ in range(rnd.randint(0, 6)):
        lines.append(rnd.choice(["1", "2", "3", "0", "-1", "99", "list", "?", "quit", "",
                                 "k=3, j=2", "k=4", "j=2, k=9", *_DIGITS,
                                 "1" * rnd.choice([25, 5000, 1_000_000]), "x" * 200_000,
                                 mutate("k=3, j=2", rnd)]))
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
