"""The MkDocs plugin in real ``mkdocs build`` and ``mkdocs serve`` processes on a tiny project."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
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


def _tiny_site(project, labs: bool = True) -> Path:
    """``labs=False``: no lab, and no mkdocs-jupyter to import (about half of a tiny build's time)."""
    config = MKDOCS_YML if labs else "\n".join(line for line in MKDOCS_YML.split("\n") if "labs" not in line)
    (project.root / "mkdocs.yml").write_text(config)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\nText.\n\n%run snippets/page/hello_world.py\n")
    project.snippet("page/hello_world.py", "print('hello from the snippet')\n")
    if labs:
        project.snippet("labs/steps.py", LAB)
        with (project.root / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
            pyproject.write('labs = "snippets/labs"\n')  # the labs are where [tool.docexec] says
    return project.root


@pytest.fixture
def site(project) -> Path:
    return _tiny_site(project, labs=False)


@pytest.fixture(scope="module")
def built(module_project) -> tuple[Path, subprocess.CompletedProcess]:
    """The tiny site, built once for the tests that only read what the build wrote."""
    root = _tiny_site(module_project)
    result = mkdocs(root, "build", "--strict")
    assert result.returncode == 0, result.stderr
    return root, result


def mkdocs(root: Path, *args: str, **kwargs) -> subprocess.CompletedProcess | subprocess.Popen:
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(root / ".cache"), "NO_MKDOCS_2_WARNING": "1"}
    env.update(kwargs.pop("env", {}))
    command = [sys.executable, "-m", "mkdocs", *args]
    if kwargs.pop("background", False):
        return subprocess.Popen(
            command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_a_build_executes_then_reuses_the_cache(built):
    site, first = built
    assert "docexec: 2 executed, 0 cached, 0 skipped (CUDA)" in first.stderr
    html = (site / "site" / "index.html").read_text()
    assert "hello from the snippet" in html
    second = mkdocs(site, "build", "--strict")  # writes the same site again
    assert second.returncode == 0, second.stderr
    assert "docexec: 0 executed, 2 cached, 0 skipped (CUDA)" in second.stderr


def test_a_page_that_runs_snippets_says_where_once_and_offers_itself_as_a_notebook(built):
    site, _ = built
    html = (site / "site" / "index.html").read_text()
    line = html[html.index('<p class="docexec-page-line">') :].split("</p>")[0]
    assert html.index("</h1>") < html.index('class="docexec-page-line"')
    assert "produced on a CPU with " in line and "Python 3." in line and '<time datetime="' in line
    assert 'href="index.ipynb" download' in line
    notebook = json.loads((site / "site" / "index.ipynb").read_text())
    assert "hello from the snippet" in json.dumps(notebook["cells"])
    report = (site / "site" / "build-report" / "index.html").read_text()
    assert "hello" in report and "steps" in report  # every snippet, the lab's too


def test_a_lab_page_carries_no_inline_style_sheet_and_a_relative_download(built):
    site, _ = built
    page = (site / "site" / "labs" / "steps" / "index.html").read_text()
    assert "<style" not in page.split('<div class="jupyter-wrapper">')[1]
    assert 'href="steps.ipynb" download' in page
    assert len(page.encode()) < 100_000


def test_a_lab_is_a_notebook_page_with_each_cells_output_and_a_download(built):
    site, result = built
    page = (site / "site" / "labs" / "steps" / "index.html").read_text()
    assert "first cell: 42" in page and "second cell: 43" in page
    assert "Converting notebook (execute=False)" in result.stderr
    notebook = (site / "site" / "labs" / "steps" / "steps.ipynb").read_text()
    assert "first cell: 42" in notebook


# One page with a fault of each kind a strict build must name, built once: the build goes on past
# the first fault and names every one of them, each once.
FAULTY_PAGE = """\
# Tiny

Text.

%run snippets/page/hello_world.py

%run snippets/page/bad_declaration.py

!!! correction "A claim"
    **Claimed:** x

    ```python
    print(1)
    ```

Text.

    x = 1
"""


@pytest.fixture(scope="module")
def faulty(new_project) -> subprocess.CompletedProcess:
    project = new_project("faulty")
    root = _tiny_site(project, labs=False)
    project.snippet("page/hello_world.py", "import math\nmath.sqrt(-1)\n")
    project.snippet("page/bad_declaration.py", "print(1)\n# docexec: timeout=never\n")
    for number, name in enumerate(("unused_first_claim.py", "unused_second_claim.py", "example1.py")):
        project.snippet(f"page/{name}", f"print({number})\n")
    (root / "docs" / "index.md").write_text(FAULTY_PAGE)
    own = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_IgnoringTags)  # noqa: S506 - SafeLoader
    with (root / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write(yaml.safe_dump({"validation": own["validation"]}))
    (root / "docs" / "forgotten.md").write_text("# Forgotten\n\nText.\n")
    result = mkdocs(root, "build", "--strict")
    assert result.returncode != 0, result.stderr
    return result


def test_a_strict_build_names_every_fault_once_and_fails(faulty):
    warnings = [line for line in faulty.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 9, "\n".join(warnings)
    assert "Aborted with 9 warnings in strict mode" in faulty.stdout + faulty.stderr


def test_a_broken_snippet_fails_the_strict_build_naming_page_and_snippet_line(faulty):
    assert "docs/index.md:5: snippet failed: snippets/page/hello_world.py:2: ValueError" in faulty.stderr


def test_a_bad_declaration_fails_the_strict_build_with_file_and_line(faulty):
    assert "snippets/page/bad_declaration.py:2: timeout=never is not a number of seconds" in faulty.stderr


def test_snippets_no_page_runs_fail_the_strict_build_each_named_with_its_file(faulty):
    for name in ("unused_first_claim.py", "unused_second_claim.py", "example1.py"):
        assert f"snippets/page/{name}:1: no page runs this snippet" in faulty.stderr
    assert "snippets/page/example1.py:1: the name 'example1.py' does not say what" in faulty.stderr


def test_code_written_on_a_page_fails_the_strict_build_with_page_and_line(faulty):
    assert "docs/index.md:12: a python code block written on the page" in faulty.stderr
    assert "docs/index.md:18: an indented code block" in faulty.stderr


def test_a_page_missing_from_the_navigation_fails_the_strict_build(faulty):
    """With the project's own validation settings (MkDocs reports the page; strict fails on it)."""
    assert 'not included in the "nav" configuration' in faulty.stderr and "forgotten.md" in faulty.stderr


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
    project.snippet("page/hello_world.py", "undefined_name\n")
    project.snippet("page/unchanged.py", "print('unchanged')\n")
    with (site / "docs" / "index.md").open("a", encoding="utf-8") as page:
        page.write("\n%run snippets/page/unchanged.py\n")
    port = _free_port()
    server = mkdocs(site, "serve", "--dev-addr", f"127.0.0.1:{port}", background=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        _fetch_until(url, "This snippet failed", 120)
        project.snippet("page/hello_world.py", "print('fixed output')\n")
        _fetch_until(url, "fixed output", 120)
        assert server.poll() is None
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert "docs/index.md:5: snippet failed: snippets/page/hello_world.py:1: NameError" in log
    assert "docexec: 1 executed, 1 cached" in log  # only the edited snippet ran again


class _IgnoringTags(yaml.SafeLoader):
    """Reads mkdocs.yml without MkDocs' own tags (``!relative``)."""


_IgnoringTags.add_multi_constructor("!", lambda loader, suffix, node: None)


def _warm_servers(pid: int) -> set[int]:
    """The engine's warm servers among the children of process ``pid``."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                if b"docexec.execution.warm_server" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.add(int(child))
            except OSError:
                pass  # ended meanwhile
    return found


def _stop(server: subprocess.Popen) -> str:
    """Ctrl-C, as a contributor stops the preview (MkDocs then runs the plugins' on_shutdown)."""
    server.send_signal(signal.SIGINT)
    try:
        return server.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        server.kill()
        return server.communicate()[0]


def test_the_previews_warm_servers_live_through_rebuilds_and_end_with_it(site, project):
    port = _free_port()
    server = mkdocs(site, "serve", "--dev-addr", f"127.0.0.1:{port}", background=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        _fetch_until(url, "hello from the snippet", 120)
        warm = _warm_servers(server.pid)
        assert warm, "the preview keeps no warm server"
        project.snippet("page/hello_world.py", "print('edited output')\n")
        _fetch_until(url, "edited output", 120)
        assert _warm_servers(server.pid) == warm  # the same processes: torch was not imported again
    finally:
        log = _stop(server)
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in warm) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(Path(f"/proc/{pid}").exists() for pid in warm), log[-2000:]


def test_a_terminated_preview_leaves_no_warm_server_and_no_temporary_folder(site, project, tmp_path):
    temporary = tmp_path / "tmp"  # its own: other tests' folders come and go in the shared one
    temporary.mkdir()
    port = _free_port()
    server = mkdocs(
        site, "serve", "--dev-addr", f"127.0.0.1:{port}", background=True, env={"TMPDIR": str(temporary)}
    )
    try:
        _fetch_until(f"http://127.0.0.1:{port}/", "hello from the snippet", 120)
        warm = _warm_servers(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        log = server.communicate(timeout=60)[0]
    assert server.returncode == 0, log[-2000:]
    assert list(temporary.iterdir()) == [], log[-2000:]  # the preview's folder and MkDocs' own site
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in warm) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert warm and not any(Path(f"/proc/{pid}").exists() for pid in warm)


def test_the_preview_serves_pages_before_many_snippets_have_run_then_fills_them_in(site, project, tmp_path):
    go = tmp_path / "go"  # the snippets wait for it: the first page is surely served before they end
    lines = []
    for step in range(6):
        code = f"import pathlib, time\nwhile not pathlib.Path({str(go)!r}).exists():\n    time.sleep(0.05)\n"
        path = project.snippet(f"page/waits_{step}.py", code + f"print('ran step', 100 + {step})\n")
        lines.append(f"%run {path}")
    (site / "docs" / "index.md").write_text("# Tiny\n\n" + "\n\n".join(lines) + "\n")
    port = _free_port()
    server = mkdocs(site, "serve", "--dev-addr", f"127.0.0.1:{port}", background=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        first = _fetch_until(url, "Outputs on their way", 120)
        assert "ran step 105" not in first
        go.touch()
        page = _fetch_until(url, "ran step 105", 180)
        assert "Outputs on their way" not in page and all(f"ran step {100 + n}" in page for n in range(6))
    finally:
        log = _stop(server)
    assert "still running" in log and "ran in the background" in log


def test_a_focused_preview_renders_its_page_in_full_and_the_others_as_stubs(project):
    site = _tiny_site(project)
    for name in ("focused", "elsewhere"):
        (site / "docs" / f"{name}.md").write_text(
            f"# {name}\n\n## A question on {name}\n\n%run snippets/{name}/prints_its_page.py\n"
        )
        project.snippet(f"{name}/prints_its_page.py", f"print('printed for', '{name}'.upper())\n")
    nav = "  - index.md\n  - focused.md\n  - elsewhere.md\n"
    (site / "mkdocs.yml").write_text(MKDOCS_YML.replace("  - index.md\n", nav))
    port = _free_port()
    focus = {"DOCEXEC_FOCUS": "focused"}
    server = mkdocs(site, "serve", "--dev-addr", f"127.0.0.1:{port}", background=True, env=focus)
    try:
        _fetch_until(f"http://127.0.0.1:{port}/focused/", "printed for FOCUSED", 120)
        home = _fetch_until(f"http://127.0.0.1:{port}/", "hello from the snippet", 60)  # always in full
        assert "Not rendered in this preview" not in home
        elsewhere = _fetch_until(f"http://127.0.0.1:{port}/elsewhere/", "Not rendered in this preview", 60)
        assert "printed for ELSEWHERE" not in elsewhere
        assert 'id="a-question-on-elsewhere"' in elsewhere  # links to its headings still land
        with pytest.raises(urllib.error.HTTPError, match="404"):  # the lab is left out
            urllib.request.urlopen(f"http://127.0.0.1:{port}/labs/steps/", timeout=30)
    finally:
        log = _stop(server)
    assert "docexec: 2 executed, 0 cached" in log  # the snippets of the home page and the focused one
