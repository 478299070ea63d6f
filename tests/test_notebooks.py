"""Every notebook of examples/ is stored with its outputs, pictures included (as
examples/build_notebooks.py writes them), and running it again from top to bottom
(nbclient and ipykernel, the interpreter of this test run as the kernel) gives the
same text outputs, and an image wherever the stored notebook shows one; a cell whose
picture would show as text (``<Figure size 320x280 with 1 Axes>``) fails."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
IMAGES = ("image/svg+xml", "image/png")
TEXTS = ("text/plain", "text/html")
#: a picture's object printed instead of drawn
FIGURE_TEXT = re.compile(r"<(matplotlib\.figure\.)?Figure size|<Picture:|<Axes")


def test_there_is_one_notebook_per_source_text():
    assert [p.stem for p in NOTEBOOKS] == [
        "chocolate",
        "ens2005_coalitions",
        "hackendot_chomp",
        "nim_sprague_grundy",
        "reachability_tictactoe",
    ]


def shown(cell) -> tuple[list[str], int]:
    """A code cell's text outputs (streams, then the text and HTML of each result) and
    how many images it shows."""
    texts, images = [], 0
    last_stream = None
    for o in cell.outputs:
        if o.output_type == "stream":
            # one stream may arrive in several pieces (as the kernel flushes, under load)
            head = f"{o.name}: "
            if texts and texts[-1].startswith(head) and last_stream == o.name:
                texts[-1] += o.text
            else:
                texts.append(head + o.text)
            last_stream = o.name
            continue
        elif o.output_type in ("execute_result", "display_data"):
            texts += [f"{k}: {o.data[k]}" for k in TEXTS if k in o.data]
            images += any(k in o.data for k in IMAGES)
        elif o.output_type == "error":
            texts.append(f"error: {o.ename}: {o.evalue}")
        last_stream = None
    return texts, images


def pictures_as_text(nb) -> list[int]:
    """The code cells whose result is a picture printed as text, not drawn."""
    return [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type in ("execute_result", "display_data")
        and not any(k in o.data for k in IMAGES)
        and FIGURE_TEXT.search(o.data.get("text/plain", ""))
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_with_its_outputs_and_pictures(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    silent = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and not c.outputs]
    assert not silent, f"{path.name}: cells {silent} hold no output (run build_notebooks.py)"
    assert all(c.execution_count is not None for c in code)
    assert not pictures_as_text(nb), pictures_as_text(nb)
    drawing = [i for i, c in enumerate(nb.cells) if "pictures." in c.get("source", "")]
    undrawn = [i for i in drawing if nb.cells[i].cell_type == "code" and not shown(nb.cells[i])[1]]
    assert drawing and not undrawn, f"{path.name}: cells {undrawn} draw no image"


def test_a_figure_printed_as_text_is_caught():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("fig")
    cell.outputs = [
        nbformat.v4.new_output(
            "execute_result", {"text/plain": "<Figure size 320x280 with 1 Axes>"}, execution_count=1
        )
    ]
    nb.cells = [cell]
    assert pictures_as_text(nb) == [0]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_again_to_the_stored_outputs(path):
    stored = nbformat.read(path, as_version=4)
    nb = nbformat.read(path, as_version=4)
    # python3: jupyter_client starts it with this interpreter (the venv's, sys.executable)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=120,
        record_timing=False,
        resources={"metadata": {"path": str(EXAMPLES)}},
    )
    t0 = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        pytest.fail(f"{path.name}: {err}")
    took = time.perf_counter() - t0
    assert not pictures_as_text(nb), f"{path.name}: cells {pictures_as_text(nb)} print a figure"
    for i, (old, new) in enumerate(zip(stored.cells, nb.cells)):
        if new.cell_type != "code":
            continue
        (old_texts, old_images), (new_texts, new_images) = shown(old), shown(new)
        assert new_texts == old_texts, f"{path.name}, cell {i}: the text outputs differ"
        assert new_images == old_images, (
            f"{path.name}, cell {i}: {new_images} images, stored {old_images}"
        )
    print(f"{path.name}: {took:.1f} s")
