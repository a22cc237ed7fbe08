"""Bad input is an error naming file and line, never a crash and never run: declarations with
impossible values, ``%run`` lines that name no snippet, in the engine, the renderer and a real build."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docexec.execution.declarations import DeclarationError, parse
from docexec.execution.result import Reason, Result, Status
from docexec.hosts.preview import Preview
from docexec.render.markdown_ext import RunExtension, SnippetError, SnippetRenderer

BAD_RUN_LINES = [
    ("%run snippets/page/ok.py extra", "%run takes one path; unexpected words after it: 'extra'"),
    ("%run /etc/passwd", "absolute paths are not allowed"),
    ("%run snippets/../../../../etc/hostname", "the path must lead straight to a file in snippets/"),
    ("%run snippets/page/../ok.py", "the path must lead straight to a file in snippets/"),
    ("%run docs/page.md", "start with snippets/"),
    ("%run snippets/page/notes.txt", "a snippet is a Python file"),
    ("%run", "%run needs a snippet path"),
    ("%run snippets/page/link.py", "the file is not inside snippets/ (links followed)"),
    ("%run snippets/page/latin1.py", "snippets/page/latin1.py:2: the file is not UTF-8 text"),
    (f"%run snippets/page/{'x' * 300}.py", "a name in the path is longer than 255 bytes"),
]


@pytest.fixture
def bad_project(project, tmp_path):
    project.snippet("page/ok.py", "print('fine')\n")
    (project.root / "snippets" / "page" / "notes.txt").write_text("print('a text file')\n")
    outside = tmp_path / "outside.py"  # a file outside the project that must never run
    outside.write_text("print('OUTSIDE-THE-PROJECT')\n")
    (project.root / "snippets" / "page" / "link.py").symlink_to(outside)
    (project.root / "snippets" / "page" / "latin1.py").write_bytes(b"x = 1\nprint('caf\xe9')\n")
    return project


def test_impossible_timeouts_fail_their_snippet_without_running_it(project):
    for value in ["inf", "1e10", "nan", "-3", "0"]:
        path = project.snippet(
            f"page/t_{value.replace('-', 'minus')}.py", f"# docexec: timeout={value}\nx = 1\n"
        )
        results, summary = project.engine().execute([path], progress=False)
        assert results[path].status == Status.FAILED and results[path].reason == Reason.BAD_DECLARATION
        assert re.match(rf"^{re.escape(path)}:1: timeout={value} is not a number", results[path].failure)
        assert summary.executed == 0 and summary.failures == [results[path]]
    assert not project.cache_dir.exists()  # nothing ran, nothing was stored


def test_a_bad_declaration_among_good_snippets_fails_only_itself(project):
    first = project.snippet("page/a.py", "print('a ran')\n")
    bad = project.snippet("page/b.py", "x = 1\n# docexec: timeot=5\nprint('must not run')\n")
    last = project.snippet("page/c.py", "print('c ran')\n")
    engine = project.engine()
    results, summary = engine.execute([first, bad, last], progress=False)
    assert results[first].output == "a ran\n" and results[last].output == "c ran\n"
    assert results[bad].status == Status.FAILED and results[bad].reason == Reason.BAD_DECLARATION
    assert results[bad].failure.startswith(f"{bad}:2: unknown declaration 'timeot'")
    assert results[bad].output == "" and summary.executed == 2 and summary.failures == [results[bad]]
    # Never cached: fixed, it runs; and `lookup` knows the failure without running anything.
    known, to_run = engine.lookup([first, bad, last])
    assert to_run == {} and known[bad].reason == Reason.BAD_DECLARATION and not known[bad].cached
    project.snippet("page/b.py", "x = 1\n# docexec: timeout=5\nprint('b ran')\n")
    again, summary = engine.execute([first, bad, last], progress=False)
    assert again[bad].output == "b ran\n" and summary.executed == 1 and summary.cached == 2


def test_the_preview_shows_a_bad_declaration_as_its_snippets_failure_and_goes_on(project):
    good = project.snippet("page/good.py", "print('good')\n")
    bad = project.snippet("page/bad.py", "# docexec: timeout=-1\nprint('must not run')\n")
    preview = Preview(project.engine(), rebuild=lambda: None)
    try:
        results, summary, pending = preview.results([good, bad])
        assert not pending and results[good].output == "good\n" and summary.failures == [results[bad]]
        assert results[bad].reason == Reason.BAD_DECLARATION
        assert results[bad].failure.startswith(f"{bad}:1: timeout=-1 is not a number")
        project.snippet("page/bad.py", "# docexec: timeout=5\nprint('fixed')\n")
        results, summary, _ = preview.results([good, bad])
        assert results[bad].output == "fixed\n" and summary.executed == 1 and not summary.failures
    finally:
        preview.close()


def test_a_path_that_names_no_snippet_fails_only_itself(project, tmp_path):
    good = project.snippet("page/ok.py", "print('fine')\n")
    (project.root / "snippets" / "page" / "folder.py").mkdir()
    outside = tmp_path / "outside.py"
    outside.write_text("print('OUTSIDE-THE-PROJECT')\n")
    asked = {
        "snippets/page/gone.py": "snippets/page/gone.py: no such snippet: the file does not exist",
        "snippets/page/folder.py": "snippets/page/folder.py: no such snippet: not a file",
        "snippets/../pyproject.toml": "snippets/../pyproject.toml:1: the file is not inside snippets/",
        str(outside): f"{outside}:1: the file is not inside snippets/",
    }
    results, summary = project.engine().execute([good, *asked], progress=False)
    assert results[good].status == Status.PASSED and summary.executed == 1
    for path, problem in asked.items():
        assert results[path].status == Status.FAILED and results[path].reason == Reason.NO_SUCH_SNIPPET
        assert results[path].failure.startswith(problem), results[path].failure
        assert "OUTSIDE-THE-PROJECT" not in results[path].output


def test_a_raise_that_does_not_come_names_the_declarations_line(project):
    path = project.snippet("page/never.py", "import math\n\n# docexec: raises=ValueError\nprint(math.pi)\n")
    results, summary = project.engine().execute([path], progress=False)
    assert results[path].failure.startswith(
        f"{path}:3: expected ValueError, but the snippet finished without raising"
    )


def test_a_link_out_of_snippets_is_refused_by_the_engine(bad_project):
    results, summary = bad_project.engine().execute(["snippets/page/link.py"], progress=False)
    refused = results["snippets/page/link.py"]
    assert refused.status == Status.FAILED and refused.reason == Reason.NO_SUCH_SNIPPET
    assert refused.failure.startswith("snippets/page/link.py:1: the file is not inside snippets/")
    assert summary.executed == 0 and "OUTSIDE-THE-PROJECT" not in refused.output


@pytest.mark.parametrize(("line", "problem"), BAD_RUN_LINES)
def test_a_run_line_that_names_no_snippet_is_an_error_with_page_and_line(bad_project, line, problem, caplog):
    asked = []
    renderer = SnippetRenderer(bad_project.root, lambda path: asked.append(path))
    renderer.start_page("docs/page.md")
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.docexec"):
        html = markdown.markdown(f"# Page\n\n{line}\n", extensions=[RunExtension(renderer), "admonition"])
    assert "Snippet error" in html and problem in html
    assert "docs/page.md:3: " in caplog.text and problem in caplog.text
    assert asked == []  # nothing was run
    assert "OUTSIDE-THE-PROJECT" not in html and "root:" not in html


def test_a_strict_build_fails_on_each_bad_run_line_and_runs_none_of_them(bad_project):
    root = bad_project.root
    (root / "docs").mkdir()
    page = "# Page\n\n%run snippets/page/ok.py\n\n" + "\n\n".join(line for line, _ in BAD_RUN_LINES) + "\n"
    (root / "docs" / "index.md").write_text(page)
    (root / "mkdocs.yml").write_text(
        "site_name: bad\nplugins: [docexec]\nmarkdown_extensions: [admonition, pymdownx.superfences]\n"
    )
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(bad_project.cache_dir), "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 1, build.stderr
    assert "Traceback" not in build.stderr
    lines = page.splitlines()
    for line, problem in BAD_RUN_LINES:
        assert f"docs/index.md:{lines.index(line) + 1}: " in build.stderr, line
        assert problem in build.stderr
    site = "".join(p.read_text(errors="replace") for p in (root / "site").rglob("*.html"))
    assert "fine" in site and "OUTSIDE-THE-PROJECT" not in site and "root:x:" not in site


# Fragments that make declarations and %run lines: most random text is plain, these reach the checks.
DECLARATION_PARTS = [
    "# docexec:", "# DocExec:", "#docexec:", "# docexc:", "x = 1  ", "timeout=", "inf", "nan", "1e10",
    "-1", "0", "30", "raises=", "ValueError", "match=", '"(', "'", "cuda", "show=", "core", " ", "\n",
    "# --8<-- [start:core]", "# --8<-- [end:core]", "# --8<--", '"""',
]  # fmt: skip
RUN_PARTS = [
    "snippets/",
    "page/",
    "ok.py",
    "../",
    "/",
    ".py",
    " ",
    "extra",
    "~",
    "\\",
    ".",
    "\x00",
    "link.py",
]


@settings(max_examples=200, deadline=None, database=None)  # no .hypothesis folder in the project
@given(st.one_of(st.text(), st.lists(st.sampled_from(DECLARATION_PARTS)).map("".join)))
def test_any_text_is_accepted_or_refused_naming_file_and_line(text):
    try:
        parse(text, "snippets/page/any.py")
    except DeclarationError as error:
        match = re.match(r"^snippets/page/any\.py:(\d+): ", str(error))
        assert match, str(error)
        assert 1 <= int(match.group(1)) <= max(1, len(text.splitlines())), str(error)


@settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.one_of(st.text(), st.lists(st.sampled_from(RUN_PARTS)).map("".join)))
def test_any_run_line_is_rendered_or_refused_naming_page_and_line(bad_project, text):
    asked = []

    def results(path: str) -> Result:  # the parser is under test here: a real run would add nothing
        asked.append(path)
        return Result(path=path, status=Status.PASSED)

    renderer = SnippetRenderer(bad_project.root, results, strict=True)
    renderer.start_page("docs/page.md")
    try:
        markdown.markdown(f"Text.\n\n%run {text}\n", extensions=[RunExtension(renderer)])
    except SnippetError as error:
        match = re.match(r"^docs/page\.md:(\d+): ", str(error))
        assert match, str(error)
        assert int(match.group(1)) >= 3, str(error)
    assert set(asked) <= {"snippets/page/ok.py"}


def test_hidden_characters_in_a_snippets_source_fail_it_naming_the_line_without_running(project):
    """A NUL byte would reach the page raw; a right-to-left override makes the code read otherwise
    than it runs ("Trojan Source"); a zero-width space hides in a string."""
    cases = {
        "page/nul_byte.py": ("x = 1\nprint('ran a\x00b')\n", "2: U+0000 (a control character)"),
        "page/reordered.py": ("ok = 'ran \u202egnp.exe'\n", "1: U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        "page/zero_width.py": ("x = 1\n\nprint('ran\u200b')\n", "3: U+200B (ZERO WIDTH SPACE)"),
    }
    paths = {project.snippet(name, code): where for name, (code, where) in cases.items()}
    results, summary = project.engine().execute(list(paths), progress=False)
    for path, where in paths.items():
        assert results[path].reason == Reason.BAD_DECLARATION, results[path].failure
        assert results[path].failure.startswith(f"{path}:{where} in the source: a reader would not see it")
    assert summary.executed == 0
