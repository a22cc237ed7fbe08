"""`docexec new` on this site (`studysite.new_page`): a page in the question structure, asked by a
note (``--source``) or by none, as the site's own parser reads its questions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docexec.hosts import scaffold
from docexec.hosts.cli import main
from studysite.questions import parse

ROOT = Path(__file__).resolve().parents[2]
MKDOCS_YML = "site_name: tiny\nnav:\n  - Home: index.md\n  - Week 2:\n      - Day 9: week-2/day-9/index.md\n"


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch) -> Path:
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML)
    (tmp_path / "pyproject.toml").write_text('[tool.docexec]\nnew-page = "studysite.new_page"\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_new_page_is_in_the_question_structure_asked_as_its_source_asks_it(tiny, capsys):
    code = main(
        ["new", "week-2/day-7/mixed-precision", "--title", "Mixed precision",
         "--snippet", "autocast_keeps_fp32", "--question", "What does autocast change?",
         "--asked", "What is autocast?", "--source", "Day 7, Q2"]
    )  # fmt: skip
    assert code == 0, capsys.readouterr()
    page = (tiny / "docs/week-2/day-7/mixed-precision.md").read_text()
    (question,) = parse(page, "week-2/day-7/mixed-precision.md")
    assert question.anchor == "what-does-autocast-change" and question.sources == [("Day 7", 2)]
    assert question.title == "What does autocast change?"
    assert '*Asked as:* "What is autocast?" (Day 7, Q2)' in page
    assert "%run snippets/week-2/day-7/mixed-precision/autocast_keeps_fp32.py" in question.body
    assert "(#autocast_keeps_fp32)" in question.corrections[0].body
    assert page.splitlines()[3] == "# Mixed precision"


def test_without_a_source_the_page_says_no_note_asks_it(tiny):
    scaffold.new_page(tiny, "week-2/day-6/views", "Views", "views_share_memory", {"asked": "Why a view?"})
    page = (tiny / "docs/week-2/day-6/views.md").read_text()
    (question,) = parse(page, "week-2/day-6/views.md")
    assert question.sources == [] and question.anchor == "views"  # named after the page
    assert '*A common interview question, not in the notes:* "Why a view?"' in page


def test_a_source_tag_the_questions_cannot_read_is_refused_before_anything_is_written(tiny):
    before = (tiny / "mkdocs.yml").read_text()
    with pytest.raises(scaffold.ScaffoldError, match="Day seven: a source tag reads like 'Day 7, Q3'"):
        scaffold.new_page(tiny, "week-2/day-6/views", "Views", "views_share_memory", {"source": "Day seven"})
    assert not (tiny / "docs/week-2/day-6/views.md").exists()
    assert (tiny / "mkdocs.yml").read_text() == before
