"""Week 1's drills: the reference solution on the page passes, the stub fails as unwritten, and each
wrong solution under wrong/<drill>/ fails with the message its first line names."""

from __future__ import annotations

import pytest
from drill_files import ROOT, check_file, expected_message, wrong_solutions

from torchguide.drills import get, week_1

IDS = [drill.id for drill in week_1.DRILLS]
WRONG = [(drill_id, path) for drill_id in IDS for path in wrong_solutions(drill_id)]


@pytest.mark.parametrize("drill_id", IDS)
def test_the_reference_solution_on_the_page_passes(drill_id):
    report = check_file(drill_id, ROOT / get(drill_id).solution_path)
    assert report.ok, report.text()
    assert report.passed >= 20 and report.summary().startswith(f"{drill_id}: {report.passed} cases passed")


@pytest.mark.parametrize("drill_id", IDS)
def test_the_stub_fails_as_not_written_yet(drill_id):
    report = check_file(drill_id, ROOT / get(drill_id).stub_path)
    assert report.failures == [f"{get(drill_id).function} is not written yet (it raises NotImplementedError)"]


@pytest.mark.parametrize("drill_id", IDS)
def test_each_drill_has_two_wrong_solutions(drill_id):
    assert len(wrong_solutions(drill_id)) >= 2


@pytest.mark.parametrize(("drill_id", "path"), WRONG, ids=[f"{d}/{p.stem}" for d, p in WRONG])
def test_a_wrong_solution_fails_with_its_message(drill_id, path):
    report = check_file(drill_id, path)
    assert not report.ok, f"{path.name} passed the checker of {drill_id}"
    wanted = expected_message(path)
    assert any(wanted in failure for failure in report.failures), report.text()
