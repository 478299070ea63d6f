"""A Connect Four ply-by-ply table beside the one Böck published for the same board.

    python bench/connect4_published.py TABLE.json [TABLE.json ...]

Each TABLE.json is the document of ``symbolic values MODEL -p w=W -p h=H --by-layer
--json`` on connect4.game or connect4-compact.game (a = 4, the default), or of ``symbolic
layers MODEL -p w=W -p h=H --json`` (each layer's positions against the published row's
sum). The published
rows (win, draw, loss of the player to move per ply: 5 × 5, 6 × 5, 6 × 6, 7 × 6) are in
``results/connect4-published-boeck-2025.tsv``, kept aside from the engines: nothing in
``symbolic/`` reads them. Prints, per document, the rows that differ and a verdict line;
exits 1 when a row differs or is missing, 2 when no table was published for the board.

>>> published(6, 6)[32]
(1144004318, 450464011, 1841291613)
>>> sum(map(sum, published(7, 6).values()))
4531985219092
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PUBLISHED = Path(__file__).resolve().parent / "results" / "connect4-published-boeck-2025.tsv"


def published(w: int, h: int) -> dict[int, tuple[int, int, int]]:
    """{ply: (win, draw, loss)} published for the w × h board (empty when none was)."""
    rows: dict[int, tuple[int, int, int]] = {}
    lines = [ln for ln in PUBLISHED.read_text(encoding="utf-8").splitlines() if ln[:1] != "#"]
    for line in lines[1:]:  # the header first
        width, height, ply, win, draw, loss = map(int, line.split("\t"))
        if (width, height) == (w, h):
            rows[ply] = (win, draw, loss)
    return rows


def compare(doc: dict) -> tuple[list[str], int]:
    """(the lines to print, the exit status) for one ``values --by-layer --json``
    document (rows win, draw, loss) or ``layers --json`` document (rows of positions,
    set beside the published rows' sums)."""
    params = doc["parameters"]
    w, h, a = params["w"], params["h"], params.get("a", 4)
    name = f"{doc['model']} {w} x {h}"
    want = published(w, h) if a == 4 else {}
    if not want:
        return [f"{name}: no published table for this board (a = {a})"], 2
    if doc.get("command") == "layers":
        want = {ply: sum(row) for ply, row in want.items()}
        got = {r["layer"]: r["positions"] for r in doc["layers"]}
    else:
        got = {r["layer"]: (r["win"], r["draw"], r["loss"]) for r in doc["layers"]}
    differ = [ply for ply in sorted(set(want) | set(got)) if got.get(ply) != want.get(ply)]
    out = [f"  ply {k}: computed {got.get(k)}, published {want.get(k)}" for k in differ]
    same = sum(1 for ply in want if got.get(ply) == want[ply])
    verdict = "equal" if not differ else "DIFFERENT"
    what = "row sums" if doc.get("command") == "layers" else "rows"
    out.append(f"{name}: {same} of {len(want)} published {what} equal ({verdict})")
    return out, 0 if verdict == "equal" else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables", nargs="+", type=Path)
    args = ap.parse_args(argv)
    status = 0
    for path in args.tables:
        lines, code = compare(json.loads(path.read_text(encoding="utf-8")))
        print("\n".join(lines))
        status = max(status, code)
    return status


if __name__ == "__main__":
    sys.exit(main())
