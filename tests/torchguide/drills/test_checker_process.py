"""The drill contract checks a snippet (a stub, a reference solution) in a process that is not
pytest's: pytest's process, and a runner forked from it, never runs a snippet's code."""

from __future__ import annotations

from drill_files import ROOT, check_file

from torchguide.drills import framework, get

DRILL = "contiguous_from_strides"
# A reference solution that refuses to load in a process that has pytest loaded.
REFUSES_PYTEST = (
    'import sys\n\nif "_pytest" in sys.modules:\n    raise RuntimeError("pytest is loaded here")\n'
)


def test_a_checked_file_runs_in_a_process_without_pytest(tmp_path):
    marked = tmp_path / "marked_solution.py"
    marked.write_text(REFUSES_PYTEST + (ROOT / get(DRILL).solution_path).read_text(encoding="utf-8"))
    report = check_file(DRILL, marked)
    assert report.ok and report.passed >= 20, report.text()
    # The same file checked from pytest's own process is refused: the mark can tell the two apart.
    direct = framework.check_file(get(DRILL), marked)
    assert direct.unreadable and "pytest is loaded here" in direct.unreadable, direct.text()


def test_a_checked_functions_output_does_not_reach_the_answers(tmp_path):
    printing = tmp_path / "printing.py"
    printing.write_text(
        "def is_contiguous(shape, strides):\n"
        '    print(\'{"drill": "forged", "passed": 99}\')\n'
        "    return True\n"
    )
    report = check_file(DRILL, printing)
    assert report.drill == DRILL and not report.ok, report.text()
