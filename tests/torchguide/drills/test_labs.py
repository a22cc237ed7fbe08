"""The labs' tasks: each lab's notebook sets its task as a statement, a stub cell the reader writes
in and a check cell, which the build does not run (jupytext's ``active="ipynb"``: comments in the
lab's file); the walkthrough's own code after them passes the check, and the wrong solutions under
wrong/<drill>/ fail it with their message."""

from __future__ import annotations

import ast

import jupytext
from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
)
from drill_files import ROOT, check_file

from docexec.sandbox.child import split_cells
from torchguide.drills import all_drills, labs

DRILLS = labs.DRILLS


def _lab(drill_id: str):
    return jupytext.read(ROOT / all_drills()[drill_id].lab, fmt="py:percent")


def _task_cells(drill_id: str) -> tuple[int, list]:
    """Where the stub cell stands in the lab's notebook, and the notebook's cells."""
    drill = all_drills()[drill_id]
    cells = _lab(drill_id).cells
    stubs = [
        index
        for index, cell in enumerate(cells)
        if cell.cell_type == "code"
        and cell.metadata.get("active") == "ipynb"
        and f"def {drill.function}(" in cell.source
    ]
    assert len(stubs) == 1, f"{drill.lab} has {len(stubs)} stub cells for {drill_id}"
    return stubs[0], cells


def test_the_task_is_stated_then_the_stub_then_a_check_cell_that_run_all_goes_past(drill_id):
    drill = all_drills()[drill_id]
    at, cells = _task_cells(drill_id)
    statement, stub, check = cells[at - 1], cells[at], cells[at + 1]
    assert statement.cell_type == "markdown" and f"`{drill.function}(" in statement.source
    assert "raise NotImplementedError" in stub.source
    assert check.cell_type == "code" and check.metadata.get("active") == "ipynb"
    assert f'check_here("{drill_id}", {drill.function})' in check.source
    assert check.metadata.get("tags") == ["raises-exception"]  # fails until written: "Run all" goes on
    after = [cell for cell in cells[at + 2 :] if cell.cell_type == "code" and not cell.metadata.get("active")]
    assert any(f"def {drill.function}(" in cell.source for cell in after), (
        "the walkthrough goes on with its own"
    )


def test_the_build_runs_neither_the_stub_nor_the_check_cell_but_runs_the_walkthroughs_check(drill_id):
    drill = all_drills()[drill_id]
    cells = split_cells((ROOT / drill.lab).read_text(encoding="utf-8"))
    notebook_code = [cell for cell in _lab(drill_id).cells if cell.cell_type == "code"]
    assert len(cells) == len(notebook_code)  # the build's outputs fill the notebook's cells in order
    ran = "".join(text for _, text in cells)
    code = ast.unparse(ast.parse(ran))  # the comments the build sees are gone
    assert "NotImplementedError" not in code
    assert code.count(f"check_here('{drill_id}', {drill.function})") == 1  # the walkthrough's own


def test_the_stub_cell_fails_its_check_as_not_written_yet(drill_id, tmp_path):
    at, cells = _task_cells(drill_id)
    stub = tmp_path / "stub.py"
    stub.write_text("import torch\n\n\n" + cells[at].source + "\n")
    report = check_file(drill_id, stub)
    function = all_drills()[drill_id].function
    assert report.failures == [f"{function} is not written yet (it raises NotImplementedError)"]


def test_the_walkthroughs_own_way_passes_the_check(drill_id, tmp_path):
    solution = tmp_path / "own_way.py"
    solution.write_text(labs.walkthrough_solution(all_drills()[drill_id], ROOT))
    report = check_file(drill_id, solution)
    assert report.ok, report.text()
    assert report.passed >= 20 and report.summary().startswith(f"{drill_id}: {report.passed} cases passed")


def test_every_lab_has_a_task_and_every_task_names_a_lab_and_a_question():
    tasks = {drill.lab for drill in DRILLS}
    assert tasks == {path.relative_to(ROOT).as_posix() for path in (ROOT / labs.LABS).glob("*.py")}
    for drill in DRILLS:
        assert f"{{ #{drill.question} }}" in (ROOT / "docs" / f"{drill.page}.md").read_text(encoding="utf-8")


def test_expand_strides_reference_is_what_torch_expand_gives():
    """Up to the strides of dimensions of size 1, which the checker does not compare: torch gives
    a new leading one of size 1 the stride of a dimension of that size, the reference 0."""
    import torch
    from hypothesis import HealthCheck, given, settings

    from torchguide.drills.framework import Mismatch

    def agrees(case):
        shape, strides, target = case.args
        try:
            answer = tuple(torch.empty_strided(shape, strides).expand(target).stride())
        except RuntimeError:
            answer = None
        try:
            labs.EXPAND_STRIDES.compare(case, answer, labs._expand_strides(*case.args))
        except Mismatch as mismatch:
            raise AssertionError(f"torch answers {answer}: {mismatch}") from None

    for case in labs._expand_named():
        agrees(case)

    @settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(labs._expand_generated())
    def same(case):
        agrees(case)

    same()
