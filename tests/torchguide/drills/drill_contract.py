"""The contract every drill keeps: the reference solution on the page passes, the stub fails as
unwritten, and each wrong solution under wrong/<drill>/ fails with the message its first line names.

A drill module's test file imports these tests and names its drills in ``DRILLS``; conftest.py
parametrizes them by that list, so a new module's drills are tested by three lines.
"""

from __future__ import annotations

from drill_files import ROOT, check_file, expected_message, wrong_solutions

from torchguide.drills import get


def test_the_reference_solution_on_the_page_passes(drill_id):
    report = check_file(drill_id, ROOT / get(drill_id).solution_path)
    assert report.ok, report.text()
    assert report.passed >= 20 and report.summary().startswith(f"{drill_id}: {report.passed} cases passed")


def test_the_stub_fails_as_not_written_yet(drill_id):
    report = check_file(drill_id, ROOT / get(drill_id).stub_path)
    assert report.failures == [f"{get(drill_id).function} is not written yet (it raises NotImplementedError)"]


def test_each_drill_has_two_wrong_solutions(drill_id):
    assert len(wrong_solutions(drill_id)) >= 2


def test_a_wrong_solution_fails_with_its_message(drill_id, wrong_solution):
    report = check_file(drill_id, wrong_solution)
    assert not report.ok, f"{wrong_solution.name} passed the checker of {drill_id}"
    wanted = expected_message(wrong_solution)
    assert any(wanted in failure for failure in report.failures), report.text()
