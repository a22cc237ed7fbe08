"""The MkDocs plugin in real ``mkdocs build`` and ``mkdocs serve`` processes on a tiny project."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

MKDOCS_YML = """\
site_name: tiny
theme: {name: material, font: false}
watch: [snippets, src]
plugins:
  - docexec
  - mkdocs-jupyter: {include: ["labs/*.ipynb"], execute: false, include_source: true}
markdown_extensions: [admonition, attr_list, pymdownx.superfences]
nav:
  - index.md
  - labs/steps.ipynb
"""
LAB = """\
# %% [markdown]
# # Steps

# %%
value = 6 * 7
print("first cell:", value)

# %%
print("second cell:", value + 1)
"""


@pytest.fixture
def site(project) -> Path:
    (project.root / "mkdocs.yml").write_text(MKDOCS_YML)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\nText.\n\n%run snippets/page/hello.py\n")
    project.snippet("page/hello.py", "print('hello from the snippet')\n")
    project.snippet("labs/steps.py", LAB)
    return project.root


def mkdocs(root: Path, *args: str, **kwargs) -> subprocess.CompletedProcess | subprocess.Popen:
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(root / ".cache"), "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", *args]
    if kwargs.pop("background", False):
        return subprocess.Popen(
            command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_a_build_executes_then_reuses_the_cache(site):
    first = mkdocs(site, "build", "--strict")
    assert first.returncode == 0, first.stderr
    assert "docexec: 2 executed, 0 cached, 0 skipped (CUDA)" in first.stderr
    html = (site / "site" / "index.html").read_text()
    assert "hello from the snippet" in html
    second = mkdocs(site, "build", "--strict")
    assert "docexec: 0 executed, 2 cached, 0 skipped (CUDA)" in second.stderr


def test_a_page_that_runs_snippets_says_where_once_and_offers_itself_as_a_notebook(site):
    result = mkdocs(site, "build", "--strict")
    assert result.returncode == 0, result.stderr
    html = (site / "site" / "index.html").read_text()
    line = html[html.index('<p class="docexec-page-line">') :].split("</p>")[0]
    assert html.index("</h1>") < html.index('class="docexec-page-line"')
    assert "produced on a CPU with torch 2." in line and '<time datetime="' in line
    assert 'href="index.ipynb" download' in line
    notebook = json.loads((site / "site" / "index.ipynb").read_text())
    assert "hello from the snippet" in json.dumps(notebook["cells"])
    report = (site / "site" / "build-report" / "index.html").read_text()
    assert "hello" in report and "steps" in report  # every snippet, the lab's too


def test_a_lab_page_carries_no_inline_style_sheet_and_a_relative_download(site):
    result = mkdocs(site, "build", "--strict")
    assert result.returncode == 0, result.stderr
    page = (site / "site" / "labs" / "steps" / "index.html").read_text()
    assert "<style" not in page.split('<div class="jupyter-wrapper">')[1]
    assert 'href="steps.ipynb" download' in page
    assert len(page.encode()) < 100_000


def test_a_lab_is_a_notebook_page_with_each_cells_output_and_a_download(site):
    result = mkdocs(site, "build", "--strict")
    assert result.returncode == 0, result.stderr
    page = (site / "site" / "labs" / "steps" / "index.html").read_text()
    assert "first cell: 42" in page and "second cell: 43" in page
    assert "Converting notebook (execute=False)" in result.stderr
    notebook = (site / "site" / "labs" / "steps" / "steps.ipynb").read_text()
    assert "first cell: 42" in notebook


def test_a_broken_snippet_fails_the_strict_build_naming_page_and_snippet_line(site, project):
    project.snippet("page/hello.py", "import torch\ntorch.ones(2).view(3)\n")
    result = mkdocs(site, "build", "--strict")
    assert result.returncode != 0
    assert "docs/index.md:5: snippet failed: snippets/page/hello.py:2: RuntimeError" in result.stderr
    assert "Aborted with 1 warnings in strict mode" in result.stdout + result.stderr


def test_a_bad_declaration_fails_the_strict_build_with_file_and_line(site, project):
    project.snippet("page/hello.py", "print(1)\n# docexec: timeout=never\n")
    result = mkdocs(site, "build", "--strict")
    assert result.returncode != 0
    assert "snippets/page/hello.py:2: timeout=never is not a positive number" in result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fetch_until(url: str, wanted: str, seconds: float) -> str:
    deadline, page = time.monotonic() + seconds, ""
    while time.monotonic() < deadline:
        try:
            page = urllib.request.urlopen(url, timeout=5).read().decode()
            if wanted in page:
                return page
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{wanted!r} did not appear at {url}; last page:\n{page[-2000:]}")


def test_serve_shows_an_error_on_the_page_keeps_serving_and_picks_up_the_fix(site, project):
    project.snippet("page/hello.py", "undefined_name\n")
    port = _free_port()
    server = mkdocs(site, "serve", "--dev-addr", f"127.0.0.1:{port}", background=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        _fetch_until(url, "This snippet failed", 120)
        project.snippet("page/hello.py", "print('fixed output')\n")
        _fetch_until(url, "fixed output", 120)
        assert server.poll() is None
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert "docs/index.md:5: snippet failed: snippets/page/hello.py:1: NameError" in log
    assert "docexec: 1 executed, 1 cached" in log  # only the edited snippet ran again
