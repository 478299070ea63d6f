"""Issue 38, item 4: the 7 × 6 strong solution on k machines, projected on paper from
measured files (``python bench/project_7x6.py``); no BDD is built.

Reads the forward layers of the 6 × 6 count (every layer) and of the 7 × 6 count (layers
0-27, stopped), each with its nodes and CPU seconds (bench/results, 2026-11-25), and the
6 × 6 parts of ``bench/layer_parts.py`` (bench/results, 2026-11-29). Prints:

- the 7 × 6 layers 28-42 extrapolated two ways: each ply's growth ratio is the 6 × 6
  ratio at the same relative depth ("stretch": 7 × 6 layer 26..42 mapped linearly onto
  6 × 6 layer 24..36; on layers 24-27 the mapped ratios are within 2 % of the measured
  ones), or two plies earlier ("shift": 7 × 6 layer k as 6 × 6 layer k - 2, the last
  6 × 6 ratio, 0.38, past its end: the 7 × 6 peak comes as early as 6 × 6's);
- the CPU seconds of each extrapolated post, from a power law t = c * n^b fitted on the
  7 × 6 layers 20-27 (log-log least squares);
- the sums: the count's CPU, the nodes of all layers (what the client holds), the peak.

The rest (bytes per node, the strong/count factor, the parts' shares) is arithmetic in
bench/journal/2026-11-29-issue-38-measurements.md, from the figures printed here.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
ROW = re.compile(r"post (\d+) ([\d.]+) s, (\d+) nodes, (\d+) live, (\d+) MB")


def posts(name: str) -> list[tuple[int, float, int]]:
    """(layer made, CPU s, nodes) of each forward image of a count log."""
    text = (RESULTS / name).read_text()
    return [(int(m[1]), float(m[2]), int(m[3])) for m in ROW.finditer(text)]


def ratio_at(ratios: dict[int, float], x: float) -> float:
    """The growth ratio of 6 × 6 at a fractional layer ``x`` (linear between layers)."""
    lo = math.floor(x)
    if lo + 1 not in ratios:
        return ratios[lo]
    return ratios[lo] + (x - lo) * (ratios[lo + 1] - ratios[lo])


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """c, b of t = c * n^b, least squares on the logarithms."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - b * mx), b


def main() -> int:
    six = posts("2026-11-25-connect4-6x6-count-threads.txt")
    seven = posts("2026-11-25-connect4-7x6-count-partial-threads.txt")
    n6 = {k: n for k, _, n in six}
    n6[0] = 73
    r6 = {k: n6[k] / n6[k - 1] for k in range(1, 37)}
    n7 = {k: n for k, _, n in seven}
    t7 = {k: t for k, t, _ in seven}

    def mapped(k: int) -> float:
        return 24 + (k - 26) * (36 - 24) / (42 - 26)

    excess = sum(n7[k] / n7[k - 1] / ratio_at(r6, mapped(k)) for k in range(24, 28)) / 4 - 1
    c, b = fit([(n7[k], t7[k]) for k in range(20, 28)])
    print(
        f"7 x 6 measured: layers 1-27, {sum(n7.values()):.3e} nodes, {sum(t7.values()):.0f} s CPU"
    )
    print(f"post time fit on layers 20-27: t = {c:.3g} * n^{b:.2f}")
    print(f"7 x 6 ratios over the stretched 6 x 6 ones, layers 24-27: {excess:+.1%}")
    for name, at in (("stretch", mapped), ("shift", lambda k: min(36, k - 2))):
        n, rows = n7[27], []
        for k in range(28, 43):
            n = n * ratio_at(r6, at(k))
            rows.append((k, n, c * n**b))
        layers = sum(n7.values()) + sum(n for _, n, _ in rows)
        peak = max(rows, key=lambda x: x[1])
        cpu = sum(t7.values()) + sum(t for _, _, t in rows)
        print(
            f"{name}: peak layer {peak[0]} of {peak[1]:.3g} nodes; all layers {layers:.3g} "
            f"nodes; count {cpu:.0f} s CPU ({cpu / 3600:.1f} h)"
        )
        print("  " + "  ".join(f"{k}:{n / 1e6:.0f}M/{t:.0f}s" for k, n, t in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
