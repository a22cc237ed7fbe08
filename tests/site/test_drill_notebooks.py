"""Each page notebook holds its drills as a stub cell and a check cell, and the check cell works in
Jupyter: run by a real kernel (nbclient), it passes on the reference solution pasted where the reader
writes, and fails as "not written yet" on the stub as it is.

Only the drill cells run, in one kernel: a drill's function stands alone (the command line checks it
from a file of its own), so it needs none of the page's other snippets, and one kernel imports torch
and the checkers once for all of them. Every drill's notebook cells are checked; the kernel runs
the drills that `DRILL_NOTEBOOKS` names: `all` (`make quick` and `make test` where a drill, its
checker or the notebook writer changed, and CI's weekly run), `none` (`make quick` otherwise), or
by default a sample, the first drill of each checker module and the one the forgeries target.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from docexec import config, site
from docexec.execution.result import Result, Status
from docexec.render.notebooks import notebook_for_page
from torchguide.drills import all_drills

ROOT = Path(__file__).resolve().parents[2]
DRILLS = {name: drill for name, drill in all_drills().items() if drill.lab is None}  # labs: test_labs.py
KERNEL = "drill-check"  # this interpreter, whatever kernels the machine has installed as python3
FORGED = "length_bucketing_batches"


def _kernel_drills() -> dict:
    chosen = os.environ.get("DRILL_NOTEBOOKS", "sample")
    if chosen == "all":
        return DRILLS
    if chosen == "none":
        return {}
    assert chosen == "sample", f"DRILL_NOTEBOOKS={chosen!r}: all, none or sample"
    first_of_module = {}
    for drill_id, drill in DRILLS.items():
        first_of_module.setdefault(drill.reference.__module__, drill_id)
    sample = {next(iter(DRILLS)), FORGED, *first_of_module.values()}
    return {drill_id: drill for drill_id, drill in DRILLS.items() if drill_id in sample}


KERNEL_DRILLS = _kernel_drills()
ENVIRONMENT = {"torch": "2.13.0", "python": f"{sys.version_info.major}.{sys.version_info.minor}"}


def _role(cell) -> tuple[str | None, str | None]:
    found = cell.metadata.get("docexec", {})
    return found.get("drill"), found.get("role")


@pytest.fixture(scope="module")
def notebooks() -> dict[str, nbformat.NotebookNode]:
    """The notebook of each page that has a drill. The snippets' recorded outputs play no part in
    running drill cells, so the snippets are not run: each counts as passed with no output."""
    built = {}
    for page in sorted({drill.page for drill in DRILLS.values()}):
        markdown = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
        settings = config.load(ROOT)
        passed = site.one_by_one(lambda path: Result(path=path, status=Status.PASSED))
        plan = site.SiteBuild(ROOT, settings, passed, ENVIRONMENT).plan_page(f"{page}.md", markdown)
        notebook = notebook_for_page(plan, markdown, ENVIRONMENT, settings)
        nbformat.validate(notebook)
        built[page] = notebook
    return built


def _drill_cells(
    notebook: nbformat.NotebookNode, drill_id: str
) -> dict[str, tuple[int, nbformat.NotebookNode]]:
    found: dict[str, tuple[int, nbformat.NotebookNode]] = {}
    for index, cell in enumerate(notebook.cells):
        drill, role = _role(cell)
        if drill == drill_id:
            assert role not in found, f"{drill_id} has two {role} cells"
            found[role] = (index, cell)  # type: ignore[index]
    return found


def _folded_code(fold: nbformat.NotebookNode) -> str:
    """The reference solution as the reader finds it in the fold, to paste into the stub cell."""
    match = re.search(r"^(`{3,})python\n(.*?)\n\1$", fold.source, re.S | re.M)
    assert match, fold.source
    return match.group(2)


@pytest.fixture(scope="module")
def executed(notebooks, tmp_path_factory) -> dict[tuple[str, str], nbformat.NotebookNode]:
    """Runs, in one kernel: a check cell before its function exists, then for every drill its stub
    cell and check cell as they are, then the stub cell with the reference solution pasted in and
    the check cell again. Returns the executed check cells by (drill, what the stub cell held)."""
    if not KERNEL_DRILLS:
        pytest.skip("DRILL_NOTEBOOKS=none: no drill, checker or notebook writer changed")
    cells, keys = [], []

    def add(drill_id: str, state: str, written: nbformat.NotebookNode, check: nbformat.NotebookNode) -> None:
        if written is not None:
            cells.append(written)
        cells.append(copy.deepcopy(check))
        keys.append((len(cells) - 1, (drill_id, state)))

    first = next(iter(DRILLS))
    add(first, "missing", None, _drill_cells(notebooks[DRILLS[first].page], first)["check"][1])
    for drill_id, drill in KERNEL_DRILLS.items():
        found = _drill_cells(notebooks[drill.page], drill_id)
        stub, check, fold = found["stub"][1], found["check"][1], found["solution"][1]
        add(drill_id, "stub", copy.deepcopy(stub), check)
        add(drill_id, "solution", nbformat.v4.new_code_cell(_folded_code(fold)), check)
    # Last, as they patch the kernel: functions that try to forge the verdict, each then checked.
    bucketing = _drill_cells(notebooks[DRILLS[FORGED].page], FORGED)["check"][1]
    for name, (source, _) in FORGERIES.items():
        add(FORGED, name, nbformat.v4.new_code_cell(source), bucketing)

    folder = tmp_path_factory.mktemp("kernel")
    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"})
    )
    for number, cell in enumerate(cells):
        cell.id = f"run-{number}"  # a check cell runs twice: its copies need ids of their own
    run = nbformat.v4.new_notebook(cells=cells)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(folder))
        client = NotebookClient(
            run,
            kernel_name=KERNEL,
            timeout=120,
            allow_errors=True,  # every cell runs; the tests read each outcome
            resources={"metadata": {"path": str(folder)}},
        )
        client.execute()
    return {key: run.cells[index] for index, key in keys}


_PATCHES = (
    "import torch.testing\nfrom torchguide.drills import framework\n"
    "torch.testing.assert_close = lambda *args, **kwargs: None\n"
    "framework.Report.ok = property(lambda self: True)\n"
    "framework.check = framework.check_with = lambda *args, **kwargs: framework.Report('x', 25, 25)\n"
)
# What a reader's cell may do to forge the verdict, and what the check cell must say to it.
FORGERIES = {
    "sys.exit": (
        "import sys\ndef bucket_batches(lengths, max_tokens):\n    sys.exit(0)\n",
        "your bucket_batches raised SystemExit",
    ),
    "os._exit": (
        "import os\ndef bucket_batches(lengths, max_tokens):\n    os._exit(0)\n",
        "your bucket_batches ended the process it ran in",
    ),
    "10 MB of prints": (
        "def bucket_batches(lengths, max_tokens):\n    print('x' * 10_000_000)\n    return []\n",
        "your bucket_batches printed more than 100000 characters",
    ),
    "patched checker": (
        _PATCHES + "def bucket_batches(lengths, max_tokens):\n    return []\n",
        "your batches [] hold indices []",
    ),
    "frame reader": (
        "import inspect\ndef bucket_batches(lengths, max_tokens):\n"
        "    frame = inspect.currentframe().f_back\n"
        "    while frame is not None and 'expected' not in frame.f_locals:\n"
        "        frame = frame.f_back\n"
        "    return [] if frame is None else frame.f_locals['expected']\n",
        "your batches [] hold indices []",
    ),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_check_cell_fails_a_function_that_tries_to_forge_the_verdict(executed, forgery):
    (error,) = _errors(executed[FORGED, forgery])
    assert error.ename == "DrillFailed"
    assert any(FORGERIES[forgery][1] in line for line in error.traceback), error.traceback
    assert not re.fullmatch(rf"{FORGED}: \d+ cases passed.*", error.traceback[-1])


def _errors(cell: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [output for output in cell.outputs if output.output_type == "error"]


def _stdout(cell: nbformat.NotebookNode) -> str:
    return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


@pytest.mark.parametrize("drill_id", DRILLS)
def test_a_drills_page_notebook_has_its_stub_then_a_check_cell_and_the_solution_only_folded_after(
    notebooks, drill_id
):
    notebook = notebooks[DRILLS[drill_id].page]
    found = _drill_cells(notebook, drill_id)
    assert set(found) == {"stub", "check", "solution"}
    (stub_at, stub), (check_at, check), (fold_at, fold) = found["stub"], found["check"], found["solution"]
    assert stub.cell_type == check.cell_type == "code" and fold.cell_type == "markdown"
    assert check_at == stub_at + 1 < fold_at
    assert stub.source == (ROOT / DRILLS[drill_id].stub_path).read_text(encoding="utf-8").rstrip("\n")
    assert f'check_here("{drill_id}", {DRILLS[drill_id].function})' in check.source
    assert fold.source.startswith("<details>")
    solution = (ROOT / DRILLS[drill_id].solution_path).as_posix().removeprefix(ROOT.as_posix() + "/")
    assert not any(
        cell.metadata.get("docexec", {}).get("snippet") == solution for cell in notebook.cells[:fold_at]
    )


@pytest.mark.parametrize("drill_id", KERNEL_DRILLS or [FORGED])
def test_the_check_cell_passes_on_the_reference_solution_pasted_into_the_stub_cell(executed, drill_id):
    cell = executed[drill_id, "solution"]
    assert not _errors(cell), _errors(cell)
    assert re.fullmatch(rf"{drill_id}: \d+ cases passed( \(.*\))?\n", _stdout(cell)), _stdout(cell)


@pytest.mark.parametrize("drill_id", KERNEL_DRILLS or [FORGED])
def test_the_check_cell_fails_on_the_stub_as_not_written_yet_without_a_traceback(executed, drill_id):
    (error,) = _errors(executed[drill_id, "stub"])
    assert error.ename == "DrillFailed"
    function = DRILLS[drill_id].function
    assert error.traceback == [
        f"FAIL {function} is not written yet (it raises NotImplementedError)",
        f"{drill_id}: 1 of 1 named cases failed",
    ]


def test_a_check_cell_run_before_its_function_exists_names_the_function_not_the_checker(executed):
    drill_id = next(iter(DRILLS))
    (error,) = _errors(executed[drill_id, "missing"])
    assert error.ename == "NameError" and DRILLS[drill_id].function in error.evalue
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))  # without its colours
    assert "Cell In[1], line 4" in shown and "torchguide/" not in shown, shown  # the reader's cell only
