"""The deck is dated by the pages' last commit, the same in every clone; an uncommitted edit and
SOURCE_DATE_EPOCH are honoured."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from studysite.deck_date import pages_changed

COMMITTED = 1_700_000_000  # 2023-11-14


def git(folder, *args, when=COMMITTED):
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": f"@{when} +0000",
        "GIT_COMMITTER_DATE": f"@{when} +0000",
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@example.org",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@example.org",
    }
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """A repository with two committed pages, cloned: the clone's files are dated by the checkout."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    origin = tmp_path / "origin"
    (origin / "docs" / "week-1").mkdir(parents=True)
    (origin / "docs" / "index.md").write_text("# Home\n")
    (origin / "docs" / "week-1" / "autograd.md").write_text("# Autograd\n")
    git(origin, "init", "-q")
    git(origin, "add", ".")
    git(origin, "commit", "-q", "-m", "pages")
    subprocess.run(["git", "clone", "-q", str(origin), str(tmp_path / "clone")], check=True)
    return tmp_path / "clone"


def pages(root):
    return sorted((root / "docs").rglob("*.md"))


def test_two_clones_of_one_commit_give_the_pages_commit_time(clone, tmp_path):
    os.utime(pages(clone)[0], (COMMITTED + 10**6, COMMITTED + 10**6))  # a checkout's own date
    assert pages_changed(pages(clone)) == COMMITTED
    subprocess.run(["git", "clone", "-q", str(clone), str(tmp_path / "again")], check=True)
    assert pages_changed(pages(tmp_path / "again")) == COMMITTED


def test_a_later_commit_of_a_page_dates_a_newer_deck(clone):
    (clone / "docs" / "index.md").write_text("# Home, edited\n")
    git(clone, "commit", "-q", "-am", "edit", when=COMMITTED + 3600)
    assert pages_changed(pages(clone)) == COMMITTED + 3600


def test_an_uncommitted_edit_or_a_new_page_dates_the_deck_by_the_newest_file(clone):
    page = clone / "docs" / "index.md"
    page.write_text("# Home, edited\n")
    os.utime(page, (COMMITTED + 7200, COMMITTED + 7200))
    assert pages_changed(pages(clone)) == COMMITTED + 7200
    git(clone, "checkout", "--", "docs/index.md")
    new = clone / "docs" / "new.md"
    new.write_text("# New\n")
    os.utime(new, (COMMITTED + 9000, COMMITTED + 9000))
    assert pages_changed(pages(clone)) == COMMITTED + 9000


def test_source_date_epoch_wins_and_no_git_falls_back_to_the_files(clone, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1600000000")
    assert pages_changed(pages(clone)) == 1_600_000_000
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    plain = tmp_path / "plain" / "docs"
    plain.mkdir(parents=True)
    (plain / "index.md").write_text("# Home\n")
    os.utime(plain / "index.md", (COMMITTED + 5, COMMITTED + 5))
    assert pages_changed([plain / "index.md"]) == COMMITTED + 5
