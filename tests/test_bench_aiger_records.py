"""bench/aiger_records.py: SYNTCOMP's record of each corpus file, read from its comment."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from .conftest import ROOT
from .test_aiger_reader import CORPUS


def _module():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        path = ROOT / "bench" / "aiger_records.py"
        spec = importlib.util.spec_from_file_location("aiger_records", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(ROOT / "bench"))


RECORDS = _module()

COMMENT = """c
#!SYNTCOMP
SOLVED_BY : 0/8 [T2014], 1/4 [T2015], 3/3 [T2016]
SOLVED_IN : 0.0 [T2014], 2.7413 [T2015], 1.5 [T2016]
STATUS : unrealizable
#.
"""


def test_records_read_each_track_and_drop_the_time_of_an_unsolved_one():
    r = RECORDS.records(COMMENT)
    assert r == {"T2014": (0, 8, None), "T2015": (1, 4, 2.7413), "T2016": (3, 3, 1.5)}, r
    assert RECORDS.best_time(r) == 1.5
    assert RECORDS.best_time(RECORDS.records("c\nno record\n")) is None


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared AIGER corpus is not here")
def test_the_table_of_a_sweep_lists_the_files_it_left(tmp_path, capsys):
    files = sorted(CORPUS.glob("*.aag"))
    table = tmp_path / "t.tsv"
    rows = ["file\tverdict"] + [
        f"{f.name}\t{'ok' if k else 'timeout'}" for k, f in enumerate(files)
    ]
    table.write_text("\n".join(rows) + "\n")
    assert RECORDS.main([str(table)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(files) - 1} of {len(files)} answered"), out[:200]
    assert f"  {files[0].name}: " in out, out[:400]
    for f in files:  # every corpus file carries a record of at least one track
        rec = RECORDS.records(f.read_text(errors="replace"))
        assert rec and all(s <= n for s, n, _ in rec.values()), (f.name, rec)
