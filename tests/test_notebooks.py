"""Every notebook of examples/ runs from top to bottom without an error (nbclient and
ipykernel, the interpreter of this test run as the kernel), and they are stored
without outputs, as examples/build_notebooks.py writes them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


def test_there_is_one_notebook_per_source_text():
    assert [p.stem for p in NOTEBOOKS] == [
        "chocolate",
        "ens2005_coalitions",
        "hackendot_chomp",
        "nim_sprague_grundy",
        "reachability_tictactoe",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    ran = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and (c.outputs or c.execution_count is not None)
    ]
    assert not ran, f"{path.name}: cells {ran} hold outputs (rebuild with build_notebooks.py)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path):
    nb = nbformat.read(path, as_version=4)
    # python3: jupyter_client starts it with this interpreter (the venv's, sys.executable)
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(EXAMPLES)}}
    )
    t0 = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        pytest.fail(f"{path.name}: {err}")
    took = time.perf_counter() - t0
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert outputs and not [o for o in outputs if o.output_type == "error"]
    print(f"{path.name}: {took:.1f} s")
