"""Where a site's notebooks are published: the Colab link of a page's notebook, and the commit its
first cell installs the project from."""

from __future__ import annotations

import datetime
import re
import subprocess

from docexec.render import provenance
from docexec.render.publication import Publication, source_commit

COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPOSITORY = "https://github.com/an-owner/a-repo"


def test_a_colab_link_opens_the_notebook_from_the_builds_tag_at_its_path_in_the_site():
    url = Publication(REPOSITORY, COMMIT).colab_url("week-1/day-1/memory and views.ipynb")
    assert url == (
        "https://colab.research.google.com/github/an-owner/a-repo/blob/"
        f"notebooks-{COMMIT}/notebooks/week-1/day-1/memory%20and%20views.ipynb"
    )
    assert Publication(REPOSITORY + ".git", COMMIT).colab_url("a.ipynb") == url.replace(
        "week-1/day-1/memory%20and%20views.ipynb", "a.ipynb"
    )


def test_no_colab_link_without_a_commit_or_off_github():
    assert Publication(REPOSITORY, None).colab_url("a.ipynb") is None
    assert Publication("https://gitlab.com/an-owner/a-repo", COMMIT).colab_url("a.ipynb") is None
    assert Publication(None, COMMIT).colab_url("a.ipynb") is None


def test_the_project_is_installed_from_the_commit_built_where_one_is_known():
    assert Publication(REPOSITORY, COMMIT).install_url() == f"{REPOSITORY}@{COMMIT}"
    assert Publication(REPOSITORY + "/", COMMIT).install_url() == f"{REPOSITORY}@{COMMIT}"
    assert Publication(REPOSITORY, None).install_url() == REPOSITORY


def test_the_commit_built_is_the_one_checked_out(tmp_path):
    assert source_commit(tmp_path) is None  # not a git checkout
    git = ["git", "-c", "user.name=a", "-c", "user.email=a@example.org"]
    subprocess.run([*git, "init", "--quiet", str(tmp_path)], check=True)
    assert source_commit(tmp_path) is None  # no commit yet
    (tmp_path / "a.txt").write_text("a\n")
    subprocess.run([*git, "-C", str(tmp_path), "add", "a.txt"], check=True)
    subprocess.run([*git, "-C", str(tmp_path), "commit", "--quiet", "-m", "a"], check=True)
    head = subprocess.run(
        ["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert source_commit(tmp_path) == head and re.fullmatch(r"[0-9a-f]{40}", head)


def test_the_page_line_links_the_notebook_and_its_colab_copy():
    colab = Publication(REPOSITORY, COMMIT).colab_url("guide/page.ipynb")
    built = datetime.date(2026, 11, 27)
    line = provenance.page_line_html({"torch": "2.13.0"}, built, "page.ipynb", [], colab)
    assert '<a class="docexec-download" href="page.ipynb" download>' in line
    assert f'<a class="docexec-colab" href="{colab}">Open in Colab</a>' in line
    assert "docexec-colab" not in provenance.page_line_html({}, built, "page.ipynb")
