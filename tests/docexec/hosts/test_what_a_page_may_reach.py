"""A pull request can publish without any snippet: a page that is a link, an include, a recording.
What a build reads stays inside the repository and outside its .git, or the build fails naming
the file; a page includes only from the docs folder, and a refused include names page and path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docexec.hosts import repository_bounds

SECRET = "NOT-FOR-THE-SITE-7f3a"  # in the environment, .git/config and a file outside the repository
MKDOCS_YML = """\
site_name: tiny
theme: {name: material, font: false, custom_dir: overrides}
plugins: [docexec]
markdown_extensions:
  - admonition
  - attr_list
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $docs_dir
      restrict_base_path: true
      check_paths: true
"""
PAGE = "# Tiny\n\n%run snippets/page/hello_world.py\n"
PAYLOADS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>"]


def _site(project, outside: Path) -> Path:
    root = project.root
    (root / "mkdocs.yml").write_text(MKDOCS_YML)
    (root / "docs" / "includes").mkdir(parents=True)
    (root / "overrides").mkdir()
    (root / "docs" / "index.md").write_text(PAGE)
    (root / "docs" / "includes" / "shared.md").write_text("Shared words.\n")
    project.snippet("page/hello_world.py", "print('hello')\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text(f"[remote]\n\ttoken = {SECRET}\n")
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text(SECRET + "\n")
    return root


def mkdocs(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(root / ".cache"), "NO_MKDOCS_2_WARNING": "1"}
    env["DEPLOY_TOKEN"] = SECRET
    command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def _published(root: Path) -> str:
    site = root / "site"
    files = [path for path in site.rglob("*") if path.is_file()] if site.is_dir() else []
    return "".join(path.read_text(errors="replace") for path in files)


@pytest.fixture(scope="module")
def leaking(new_project, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """Links out of the repository as pages, as an include, as an override, and a recording whose
    GPU is HTML."""
    project = new_project("leaking")
    outside = tmp_path_factory.mktemp("outside")
    root = _site(project, outside)
    docs = root / "docs"
    (docs / "environment.md").symlink_to("/proc/self/environ")
    (docs / "git-config.md").symlink_to("../.git/config")
    (docs / "elsewhere.md").symlink_to(outside / "secret.txt")
    (docs / "includes" / "outside.md").symlink_to(outside / "secret.txt")
    (docs / "linked-folder").symlink_to(outside, target_is_directory=True)
    (root / "overrides" / "main.html").symlink_to(outside / "secret.txt")
    project.snippet("page/on_a_gpu.py", "# docexec: cuda\nprint('on a GPU')\n")
    (docs / "index.md").write_text(PAGE + "\n%run snippets/page/on_a_gpu.py\n")
    recording = {
        "schema": 2,
        "snippet": "snippets/page/on_a_gpu.py",
        "recorded": "2026-11-27",
        "source_sha256": "0" * 64,
        "result": {"path": "snippets/page/on_a_gpu.py", "status": "passed", "cells": [],
                   "environment": {"device": "cuda", "gpu": PAYLOADS[0], "torch": "2.13.0"}},
    }  # fmt: skip
    (root / "recordings" / "page").mkdir(parents=True)
    (root / "recordings" / "page" / "on_a_gpu.json").write_text(json.dumps(recording))
    return root, mkdocs(root)


def test_a_strict_build_names_each_link_out_of_the_repository_and_fails(leaking):
    root, build = leaking
    assert build.returncode != 0, build.stderr
    said = build.stderr
    assert "docexec: a file the site reads is a link out of the repository:" in said
    assert "docs/environment.md: leads out of the repository (to /proc/" in said
    assert "docs/git-config.md: leads into .git/config, inside .git" in said
    named = ("docs/elsewhere.md", "docs/includes/outside.md", "docs/linked-folder", "overrides/main.html")
    for name in named:
        assert f"{name}: leads out of the repository" in said
    assert "recordings/page/on_a_gpu.json: result.environment.gpu: '<script>alert(1)</script>' is not" in said
    assert "Traceback" not in said


def test_nothing_a_link_leads_to_is_published(leaking):
    root, build = leaking
    assert SECRET not in _published(root) and SECRET not in build.stdout + build.stderr


@pytest.mark.parametrize(
    "include",
    ["{outside}/secret.txt", "../.git/config", "../snippets/page/hello_world.py", "/proc/self/environ"],
    ids=["absolute", "git-config", "outside-the-docs", "environment"],
)
def test_an_include_from_outside_the_docs_folder_fails_naming_page_and_include(
    project, tmp_path, include
):
    root = _site(project, tmp_path / "outside")
    include = include.format(outside=tmp_path / "outside")
    (root / "docs" / "index.md").write_text(f'{PAGE}\n--8<-- "{include}"\n')
    build = mkdocs(root)
    assert build.returncode != 0
    assert (
        f"docexec: docs/index.md: Snippet at path '{include}' could not be found; "
        "a page includes only files inside docs/"
    ) in build.stderr
    assert "Traceback" not in build.stderr and SECRET not in _published(root)


def test_a_page_includes_a_file_of_the_docs_folder(project, tmp_path):
    root = _site(project, tmp_path / "outside")
    (root / "docs" / "index.md").write_text(PAGE + '\n--8<-- "includes/shared.md"\n')
    build = mkdocs(root)
    assert build.returncode == 0, build.stderr
    assert "Shared words." in (root / "site" / "index.html").read_text()


def test_includes_from_a_folder_that_holds_the_repositorys_git_are_refused(project, tmp_path):
    root = _site(project, tmp_path / "outside")
    (root / "mkdocs.yml").write_text(MKDOCS_YML.replace("$docs_dir", "$config_dir"))
    build = mkdocs(root)
    assert build.returncode != 0
    assert "pymdownx.snippets: base_path" in build.stderr and "holds the repository's .git" in build.stderr
    assert "Traceback" not in build.stderr


def test_a_link_is_followed_to_its_real_path_and_each_folder_is_entered_once(tmp_path):
    root = tmp_path.resolve()
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("")
    (root / "docs" / "part").mkdir(parents=True)
    (root / "docs" / "part" / "page.md").write_text("")
    (root / "docs" / "same-page.md").symlink_to("part/page.md")  # inside: allowed
    (root / "docs" / "part" / "loop").symlink_to("..", target_is_directory=True)
    (root / "docs" / "hooks").symlink_to("../.git", target_is_directory=True)
    found = repository_bounds.folder_problems(root, root / "docs")
    assert found == ["docs/hooks: leads into .git, inside .git"]
    assert repository_bounds.leaves(root, root / "docs" / "same-page.md") is None
    assert repository_bounds.file_problems(root, ["/etc/hostname"]) == []  # not the repository's
