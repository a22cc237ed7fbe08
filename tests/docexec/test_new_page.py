"""`docexec new`: a page in the question structure, its first snippet and its nav entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docexec.hosts import scaffold
from docexec.hosts.cli import main
from docexec.hosts.scaffold import ScaffoldError, with_nav_entry

# The pages it writes are read back as this site reads its questions, from its own templates.
parse = pytest.importorskip("studysite.questions", reason="this repository's own site is not installed").parse

ROOT = Path(__file__).resolve().parents[2]
MKDOCS_YML = """\
site_name: tiny
plugins:
  - docexec
markdown_extensions:
  - pymdownx.snippets:
      base_path: !relative $config_dir
nav:
  - Home: index.md
  - Week 2:
      - Day 6:
          - week-2/day-6/index.md
          - Loaders: week-2/day-6/loaders.md
      - Day 9:
          - week-2/day-9/index.md
  - Contributing: contributing.md  # a comment that stays
"""


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML)
    return tmp_path


def test_a_new_page_is_in_the_question_structure_with_its_snippet_and_nav_entry(tiny, monkeypatch, capsys):
    monkeypatch.chdir(tiny)
    code = main(
        ["new", "week-2/day-7/mixed-precision", "--title", "Mixed precision",
         "--snippet", "autocast_keeps_fp32", "--question", "What does autocast change?",
         "--asked", "What is autocast?", "--source", "Day 7, Q2"]
    )  # fmt: skip
    assert code == 0
    page = (tiny / "docs/week-2/day-7/mixed-precision.md").read_text()
    (question,) = parse(page, "week-2/day-7/mixed-precision.md")
    assert question.anchor == "what-does-autocast-change" and question.sources == [("Day 7", 2)]
    assert "%run snippets/week-2/day-7/mixed-precision/autocast_keeps_fp32.py" in question.body
    assert "(#autocast_keeps_fp32)" in question.corrections[0].body
    assert page.splitlines()[3] == "# Mixed precision"
    snippet = (tiny / "snippets/week-2/day-7/mixed-precision/autocast_keeps_fp32.py").read_text()
    assert not snippet.startswith("# Copy to") and "print(" in snippet
    config = (tiny / "mkdocs.yml").read_text()
    assert "      - Mixed precision: week-2/day-7/mixed-precision.md\n      - Day 9:" in config
    assert "!relative $config_dir" in config and "# a comment that stays" in config
    assert "mkdocs.yml:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("page", "before"),
    [
        ("week-2/day-6/workers.md", "  - Week 2:"),  # beside its folder's pages
        ("week-2/day-12/late.md", "  - Contributing"),  # a new folder: in folder order, day-12 last
        ("reference/api.md", None),  # nothing shared: at the end of the nav
    ],
)
def test_the_nav_entry_goes_beside_the_pages_it_belongs_with(page, before):
    text, line = with_nav_entry(MKDOCS_YML, "New page", page)
    lines = text.split("\n")
    assert lines[line - 1].endswith(f"- New page: {page}")
    if page.startswith("week-2/day-6/"):
        assert lines[line - 2].endswith("week-2/day-6/loaders.md")
    elif before:
        assert lines[line].startswith(before)


def test_a_title_that_yaml_would_misread_is_quoted():
    text, line = with_nav_entry(MKDOCS_YML, "Views: a primer #1", "week-2/day-6/views.md")
    assert text.split("\n")[line - 1].strip() == '- "Views: a primer #1": week-2/day-6/views.md'


@pytest.mark.parametrize(
    ("snippet", "source", "message"),
    [
        ("example1", None, "does not say what the snippet shows"),
        ("Bad-Name", None, "lowercase words joined by underscores"),
        ("views_share_memory", "Day seven", "a source tag reads like"),
    ],
)
def test_what_would_break_the_checks_is_refused_before_anything_is_written(tiny, snippet, source, message):
    before = (tiny / "mkdocs.yml").read_text()
    with pytest.raises(ScaffoldError, match=message):
        scaffold.new_page(tiny, "week-2/day-6/views", "Views", snippet, source=source)
    assert not (tiny / "docs/week-2/day-6/views.md").exists()
    assert (tiny / "mkdocs.yml").read_text() == before


def test_an_existing_page_is_never_overwritten(tiny):
    scaffold.new_page(tiny, "week-2/day-6/views", "Views", "views_share_memory")
    with pytest.raises(ScaffoldError, match="exists already"):
        scaffold.new_page(tiny, "docs/week-2/day-6/views.md", "Views", "views_share_memory")


def test_the_page_snippet_and_templates_are_where_the_projects_configuration_says(tiny, monkeypatch, capsys):
    (tiny / "templates").rename(tiny / "page-templates")
    (tiny / "snippets").rename(tiny / "examples")
    (tiny / "docs").rename(tiny / "pages")
    (tiny / "pyproject.toml").write_text(
        '[tool.docexec]\nsnippets = "examples"\ndocs = "pages"\ntemplates = "page-templates"\n'
    )
    monkeypatch.chdir(tiny / "pages")
    code = main(
        ["new", "pages/guide/first-steps.md", "--title", "First steps", "--snippet", "tensor_has_a_shape"]
    )
    assert code == 0, capsys.readouterr()
    page = (tiny / "pages/guide/first-steps.md").read_text()
    assert "%run examples/guide/first-steps/tensor_has_a_shape.py" in page
    assert "[`tensor_has_a_shape.py`](#tensor_has_a_shape)" in page and "what_it_shows" not in page
    assert (tiny / "examples/guide/first-steps/tensor_has_a_shape.py").is_file()
    assert "created pages/guide/first-steps.md" in capsys.readouterr().out
    assert not (tiny / "docs").exists() and not (tiny / "snippets").exists()


def test_a_page_template_without_a_run_line_is_refused_by_name(tiny):
    template = tiny / "templates" / "page.md"
    template.write_text(template.read_text().replace("%run", "run"))
    with pytest.raises(ScaffoldError, match=r"^templates/page.md holds no '%run <snippet>.py' line"):
        scaffold.new_page(tiny, "guide/first-steps", "First steps", "tensor_has_a_shape")
