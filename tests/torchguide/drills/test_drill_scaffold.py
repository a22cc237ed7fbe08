"""python -m studysite.drill_scaffold new NAME: the stub, solution, wrong-solution folder and section."""

from __future__ import annotations

import pytest
from drill_files import ROOT, check_file

from studysite.drill_pages import drill_section
from studysite.drill_scaffold import scaffold
from torchguide.drills import get


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


def _section_in_an_older_format(drill) -> str:
    """The section as pages held it before the folded row: the stub in view, each box on its own."""
    hints = "".join(f'??? tip "Hint {n}"\n    {hint}\n\n' for n, hint in enumerate(drill.hints, 1))
    return (
        f"### Practice: {drill.title} {{ #{drill.anchor} }}\n\n{drill.statement}\n\n"
        f"%run {drill.stub_path}\n\n{hints}"
        f'??? success "A reference solution, and what the checker says of it"\n\n'
        f"    %run {drill.solution_path}\n"
    )


def test_sync_rewrites_every_drill_section_in_place_and_leaves_the_rest_of_the_page(tmp_path, monkeypatch):
    from studysite.drill_scaffold import main, sync_all
    from torchguide.drills import all_drills

    drills = [drill for drill in all_drills().values() if drill.lab is None]  # a lab task has no section
    pages = {}
    for drill in drills:
        page = tmp_path / "docs" / f"{drill.page}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        current = pages.get(page) or (ROOT / "docs" / f"{drill.page}.md").read_text()
        pages[page] = current.replace(drill_section(drill), _section_in_an_older_format(drill))
    for page, text in pages.items():
        page.write_text(text)

    done = sync_all(tmp_path)
    assert done == [f"{d.id}: updated its section on docs/{d.page}.md" for d in drills]
    for page in pages:
        relative = page.relative_to(tmp_path).as_posix()
        assert page.read_text() == (ROOT / relative).read_text(), f"{relative} is not the project's page"
    assert sync_all(tmp_path) == []
    monkeypatch.chdir(tmp_path)  # the command works on the project it is run in
    assert main(["sync"]) == 0


def test_sync_rewrites_only_its_own_section_where_a_page_holds_two(tmp_path):
    from studysite.drill_scaffold import sync_section

    mine, other = get("pad_collate"), get("balanced_sample_weights")
    page = tmp_path / "docs" / f"{mine.page}.md"
    page.parent.mkdir(parents=True)
    text = (ROOT / "docs" / f"{mine.page}.md").read_text()
    # Another drill's section earlier on the page, then this drill's in the older format.
    old_mine, old_other = _section_in_an_older_format(mine), _section_in_an_older_format(other)
    page.write_text(text.replace(drill_section(mine), old_other + "\n" + old_mine))

    assert sync_section(mine, root=tmp_path) == [f"updated its section on docs/{mine.page}.md"]
    synced = page.read_text()
    assert old_other in synced and drill_section(mine) in synced and old_mine not in synced


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
