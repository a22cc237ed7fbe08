"""A lab's notebook runs to its end in Jupyter on a CPU ("Run all"): its tasks' stub cells as they
are, their check cells failing as "not written yet" (tagged raises-exception, so the run goes on),
and the walkthrough after them on its own code.

The site's labs are snippets, and pytest never runs a snippet outside the engine's sandbox: their
cells are held to the shape that makes Run all go on (read, not run), and that shape is run here in
Jupyter on a lab the test writes itself. The engine runs each lab as the build does.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

from torchguide.drills import all_drills, labs

ROOT = Path(__file__).resolve().parents[2]
KERNEL = "lab-run"  # this interpreter, whatever kernels the machine has installed as python3
LABS = sorted(path.name for path in (ROOT / labs.LABS).glob("*.py"))

WRITTEN_LAB = """\
# %%
from torchguide.drills import check_here

# %% active="ipynb"
# def broadcast_shape(a: tuple, b: tuple) -> tuple | None:
#     raise NotImplementedError("write broadcast_shape here")

# %% active="ipynb" tags=["raises-exception"]
# check_here("broadcast_shape", broadcast_shape)

# %%
def broadcast_shape(a, b):
    size = max(len(a), len(b))
    a, b = (1,) * (size - len(a)) + tuple(a), (1,) * (size - len(b)) + tuple(b)
    shape = [x if y in (x, 1) else y if x == 1 else None for x, y in zip(a, b)]
    return None if None in shape else tuple(shape)


check_here("broadcast_shape", broadcast_shape)
"""


def _kernel(folder: Path) -> None:
    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"})
    )


def _tasks(notebook) -> list[tuple]:
    """Each task's (stub cell, check cell): the notebook-only cells, in pairs."""
    only_in_notebook = [cell for cell in notebook.cells if cell.metadata.get("active") == "ipynb"]
    return list(zip(only_in_notebook[::2], only_in_notebook[1::2], strict=True))


@pytest.mark.parametrize("lab", LABS)
def test_each_task_is_a_stub_then_a_check_that_run_all_goes_past(lab):
    notebook = jupytext.read(ROOT / labs.LABS / lab, fmt="py:percent")
    tasks = _tasks(notebook)
    assert tasks, f"{lab} has no task"
    set_here = {drill.id for drill in all_drills().values() if drill.lab == f"{labs.LABS}/{lab}"}
    assert {check.source.split('check_here("')[1].split('"')[0] for _, check in tasks} == set_here
    for stub, check in tasks:
        assert "raise NotImplementedError" in stub.source, stub.source
        assert "check_here(" in check.source and check.metadata.get("tags") == ["raises-exception"]
    after = notebook.cells.index(tasks[-1][1]) + 1
    assert any(cell.cell_type == "code" and "check_here(" in cell.source for cell in notebook.cells[after:])


@pytest.mark.skipif(
    os.environ.get("DRILL_NOTEBOOKS") == "none",
    reason="DRILL_NOTEBOOKS=none: no drill, checker or notebook writer changed (a kernel runs where one did)",
)
def test_run_all_goes_past_an_unwritten_task_and_the_walkthrough_passes_its_check(tmp_path, monkeypatch):
    notebook = jupytext.reads(WRITTEN_LAB, fmt="py:percent")
    _kernel(tmp_path / "jupyter")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    NotebookClient(notebook, kernel_name=KERNEL, timeout=300).execute()  # raises at an untagged error
    ((_, check),) = _tasks(notebook)
    errors = [output for output in check.outputs if output.output_type == "error"]
    assert [error.ename for error in errors] == ["DrillFailed"], check.outputs
    assert "is not written yet (it raises NotImplementedError)" in errors[0].traceback[0]
    walkthrough = notebook.cells[-1]
    printed = "".join(output.get("text", "") for output in walkthrough.outputs)
    assert walkthrough.execution_count is not None and "cases passed" in printed, walkthrough.outputs
