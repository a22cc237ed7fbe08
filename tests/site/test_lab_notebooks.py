"""A lab's notebook runs to its end in Jupyter on a CPU ("Run all"): its tasks' stub cells as they
are, their check cells failing as "not written yet" (tagged raises-exception, so the run goes on),
and the walkthrough after them on its own code.

The notebook is the lab as jupytext reads it, as the site's is, less the install cell (the project
is installed here already) and the recorded outputs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

from torchguide.drills import labs

ROOT = Path(__file__).resolve().parents[2]
KERNEL = "lab-run"  # this interpreter, whatever kernels the machine has installed as python3
LABS = sorted(path.name for path in (ROOT / labs.LABS).glob("*.py"))


def _kernel(folder: Path) -> None:
    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"})
    )


@pytest.mark.parametrize("lab", LABS)
def test_run_all_runs_the_lab_to_its_end_with_each_check_cell_saying_not_written_yet(
    lab, tmp_path, monkeypatch
):
    notebook = jupytext.read(ROOT / labs.LABS / lab, fmt="py:percent")
    _kernel(tmp_path / "jupyter")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    work = tmp_path / "work"  # a lab may write files where it runs
    work.mkdir()
    client = NotebookClient(
        notebook, kernel_name=KERNEL, timeout=300, resources={"metadata": {"path": str(work)}}
    )
    client.execute()  # raises at the first error in a cell not tagged raises-exception
    checks = [cell for cell in notebook.cells if "check_here(" in cell.source and cell.metadata.get("active")]
    assert checks, f"{lab} has no task"
    for cell in checks:
        errors = [output for output in cell.outputs if output.output_type == "error"]
        assert [error.ename for error in errors] == ["DrillFailed"], cell.outputs
        assert "is not written yet (it raises NotImplementedError)" in errors[0].traceback[0]
    last = next(cell for cell in reversed(notebook.cells) if cell.cell_type == "code")
    assert last.execution_count is not None  # ran to the end
