"""python -m torchguide.drills new NAME: a drill's stub, solution, wrong-solution folder and page section."""

from __future__ import annotations

import pytest
from drill_files import ROOT, check_file

from torchguide.drills import get
from torchguide.drills.pages import drill_section
from torchguide.drills.scaffold import scaffold


@pytest.fixture
def project(tmp_path):
    drill = get("balanced_sample_weights")
    page = tmp_path / "docs" / f"{drill.page}.md"
    page.parent.mkdir(parents=True)
    page.write_text((ROOT / "docs" / f"{drill.page}.md").read_text().replace(drill_section(drill), ""))
    return tmp_path, drill, page


def test_it_writes_a_failing_stub_a_passing_solution_and_the_section(project):
    root, drill, page = project
    done = scaffold(drill, root)
    assert len(done) == 4
    assert (
        check_file(drill.id, root / drill.stub_path)
        .failures[0]
        .endswith("is not written yet (it raises NotImplementedError)")
    )
    assert check_file(drill.id, root / drill.solution_path).ok
    text = page.read_text()
    assert text.count(drill_section(drill)) == 1
    question = text.index(f"{{ #{drill.question} }}")
    assert "\n## " not in text[question : text.index(drill_section(drill))]
    assert scaffold(drill, root) == []


def test_it_brings_an_old_section_up_to_date(project):
    root, drill, page = project
    scaffold(drill, root)
    page.write_text(page.read_text().replace("draws every class", "draws each class"))
    assert scaffold(drill, root) == [f"updated its section on docs/{drill.page}.md"]
    assert page.read_text().count(drill_section(drill)) == 1
    assert page.read_text().count("### Practice:") == 1


def test_updating_a_pages_second_drill_leaves_the_first_and_the_text_between(tmp_path):
    first, second = get("micro_batch_accumulation"), get("linear_backward")
    assert first.page == second.page
    original = (ROOT / "docs" / f"{second.page}.md").read_text()
    page = tmp_path / "docs" / f"{second.page}.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        original.replace(drill_section(second), drill_section(second).replace("by hand", "by foot"))
    )
    assert page.read_text() != original  # an old section of the second drill, after the first one's
    for path in (second.stub_path, second.solution_path):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text((ROOT / path).read_text())
    (tmp_path / "tests" / "torchguide" / "drills" / "wrong" / second.id).mkdir(parents=True)
    assert scaffold(second, tmp_path) == [f"updated its section on docs/{second.page}.md"]
    assert page.read_text() == original
