"""`docexec new`: a page from the project's templates, its first snippet and its nav entry; what the
project's ``new-page`` hook adds. This site's hook has tests of its own (tests/studysite)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docexec.hosts import scaffold
from docexec.hosts.cli import main
from docexec.hosts.scaffold import ScaffoldError, with_nav_entry

ROOT = Path(__file__).resolve().parents[3]
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


def test_a_new_page_is_the_template_with_its_title_snippet_and_nav_entry(tiny, monkeypatch, capsys):
    monkeypatch.chdir(tiny)
    code = main(["new", "week-2/day-7/mixed-precision", "--title", "Mixed precision",
                 "--snippet", "autocast_keeps_fp32"])  # fmt: skip
    assert code == 0
    page = (tiny / "docs/week-2/day-7/mixed-precision.md").read_text()
    template = (tiny / "templates/page.md").read_text()
    assert page.splitlines()[3] == "# Mixed precision" and template.splitlines()[3].startswith("# ")
    assert "\n%run snippets/week-2/day-7/mixed-precision/autocast_keeps_fp32.py\n" in page
    assert "[`autocast_keeps_fp32.py`](#autocast_keeps_fp32)" in page and "what_it_shows" not in page
    # No new-page hook: every other line is the template's.
    assert len(page.splitlines()) == len(template.splitlines())
    changed = [line for line in page.splitlines() if line not in template.splitlines()]
    assert len(changed) == 3, changed
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
    ("snippet", "message"),
    [
        ("example1", "does not say what the snippet shows"),
        ("Bad-Name", "lowercase words joined by underscores"),
    ],
)
def test_what_would_break_the_checks_is_refused_before_anything_is_written(tiny, snippet, message):
    before = (tiny / "mkdocs.yml").read_text()
    with pytest.raises(ScaffoldError, match=message):
        scaffold.new_page(tiny, "week-2/day-6/views", "Views", snippet)
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


# A project's new-page hook: an option of its own, which words the template's first paragraph.
AUDIENCE_HOOK = """\
OPTIONS = {"audience": "who the page is for"}
SAMPLE = "One or two sentences: what this page covers and where it sits in the curriculum."


def fields(new):
    audience = new.options["audience"]
    if audience == "nobody":
        raise ValueError("nobody: a page is for someone")
    return {SAMPLE: f"{new.title}, for {audience or 'everyone'}: {new.snippet_path}."}
"""


@pytest.fixture
def hooked(tiny, monkeypatch) -> Path:
    (tiny / "hooks").mkdir()
    (tiny / "hooks" / "audience_fields.py").write_text(AUDIENCE_HOOK)
    monkeypatch.syspath_prepend(str(tiny / "hooks"))
    (tiny / "pyproject.toml").write_text('[tool.docexec]\nnew-page = "audience_fields"\n')
    monkeypatch.chdir(tiny)
    return tiny


def test_a_projects_hook_adds_its_options_and_words_its_part_of_the_page(hooked, capsys):
    code = main(["new", "guide/first-steps", "--title", "First steps", "--snippet", "tensor_has_a_shape",
                 "--audience", "beginners"])  # fmt: skip
    assert code == 0, capsys.readouterr()
    page = (hooked / "docs/guide/first-steps.md").read_text()
    assert "\nFirst steps, for beginners: snippets/guide/first-steps/tensor_has_a_shape.py.\n" in page
    assert "One or two sentences" not in page


def test_a_hooks_refusal_is_the_commands_error_and_nothing_is_written(hooked, capsys):
    code = main(["new", "guide/first-steps", "--title", "First steps", "--snippet", "tensor_has_a_shape",
                 "--audience", "nobody"])  # fmt: skip
    assert code == 2 and "error: nobody: a page is for someone" in capsys.readouterr().err
    assert not (hooked / "docs/guide").exists()


def test_a_hook_that_cannot_be_imported_names_the_setting(hooked):
    (hooked / "pyproject.toml").write_text('[tool.docexec]\nnew-page = "no_such_fields"\n')
    with pytest.raises(ScaffoldError, match=r"pyproject.toml \[tool.docexec\] new-page: cannot import"):
        scaffold.new_page(hooked, "guide/first-steps", "First steps", "tensor_has_a_shape")
