"""bench/read_speed.py's generated files (issue 32: 10 MB files did not read in 100 s) read
correctly at a small size: every declaration, query and fact is there. No time is asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from symbolic.gdl.kif import parse_kif
from symbolic.gdl.load import gdl_program
from symbolic.model import parse_model

sys.path.append(
    str(Path(__file__).resolve().parent.parent / "bench")
)  # last: bench/ must not shadow a stdlib module
from read_speed import make_file  # noqa: E402

SIZE = 60_000


def _count(text: str, word: str) -> int:
    return sum(1 for w in text.split() if w == word)


@pytest.mark.parametrize("kind", ["sets", "queries", "long-line", "consts", "actions"])
def test_a_generated_model_reads_whole(kind):
    name, text = make_file(kind, SIZE)
    assert len(text) >= 0.99 * SIZE, len(text)
    m = parse_model(text, name)
    if kind in ("sets", "actions"):
        n = _count(text, "set")
        prefix = "s" if kind == "sets" else "at"
        assert sorted(
            k for k in m.definitions if k.startswith(prefix) and k[len(prefix) :].isdigit()
        ) == sorted(f"{prefix}{i}" for i in range(n))
    if kind == "queries":
        assert len(m.queries) == _count(text, "query") > 1000, len(m.queries)
    if kind in ("long-line", "consts"):
        assert "\n" not in text.rstrip().split("\n")[-1] or kind == "consts"
        n = _count(text, "const")
        last = m.scope.entries[f"{'c' if kind == 'long-line' else 'k'}{n - 1}"].value
        assert last == (2 * (n - 1) + 1 if kind == "long-line" else n - 1), last
    if kind == "actions":
        labels = m.game.action_labels(1)
        assert labels[-1] == f"pick({len(labels) - 1})", labels[-3:]


def test_a_generated_kif_reads_whole():
    name, text = make_file("kif", 5 * SIZE)
    forms = parse_kif(text, name)
    nums = [f for f in forms if str(f).startswith("(num ")]
    assert len(nums) == text.count("\n(num ") > 1000, len(nums)
    assert str(nums[-1]) == f"(num {len(nums) - 1})", nums[-1]
    prog = gdl_program(text, name)
    assert prog.roles == ("a", "b"), prog.roles
    assert len(prog.moves["a"]) == 4, prog.moves  # (go 1), (go 2), (go 3), noop
