"""The preview's snippets: an edit runs at once, many run in the background while the pages are
served, and nothing runs twice before it is edited (a failure neither). Its rebuilds convert again
only the pages whose inputs changed (`docexec.hosts.page_reuse`)."""

from __future__ import annotations

import json
import logging
import signal
import threading
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

from docexec.hosts.page_reuse import PageReuse
from docexec.hosts.preview import RUN_NOW_BELOW, Preview
from docexec.render.site_files import NotebookMemo


def test_a_few_snippets_run_at_once_and_a_failure_is_not_run_again(project):
    good = project.snippet("p/prints_forty_two.py", "print(6 * 7)\n")
    bad = project.snippet("p/names_nothing_defined.py", "undefined_name\n")
    preview = Preview(project.engine(keep_warm=True), rebuild=lambda: None)
    try:
        results, summary, pending = preview.results([good, bad])
        assert not pending and summary.executed == 2
        assert results[good].output == "42\n" and results[bad].status == "failed"
        again, summary, _ = preview.results([good, bad])
        assert summary.executed == 0 and summary.cached == 2 and again[bad].status == "failed"
        project.snippet("p/names_nothing_defined.py", "print('defined now')\n")
        fixed, summary, _ = preview.results([good, bad])
        assert summary.executed == 1 and fixed[bad].output == "defined now\n"
    finally:
        preview.close()


def test_many_snippets_run_in_the_background_and_ask_for_a_rebuild_when_done(project):
    paths = [project.snippet(f"p/prints_step_{n}.py", f"print('step', {n})\n") for n in range(RUN_NOW_BELOW)]
    rebuilt = threading.Event()
    preview = Preview(project.engine(keep_warm=True), rebuild=rebuilt.set)
    try:
        results, summary, pending = preview.results(paths)
        assert pending == set(paths) and not results and summary.executed == 0
        assert "of 4 done" in preview.progress()
        assert rebuilt.wait(120), "no rebuild was asked for"
        results, summary, pending = preview.results(paths)
        assert not pending and summary.executed == 0
        assert [results[p].output for p in paths] == [f"step {n}\n" for n in range(RUN_NOW_BELOW)]
    finally:
        preview.close()


def test_with_force_each_snippet_runs_once_per_version_not_once_per_build(project):
    path = project.snippet("p/prints_once.py", "print('once')\n")
    preview = Preview(project.engine(force=True), rebuild=lambda: None)
    try:
        assert preview.results([path])[1].executed == 1
        assert preview.results([path])[1].executed == 0
    finally:
        preview.close()


SLEEPS = """
    # docexec: timeout=120
    import time
    from pathlib import Path

    Path("started").write_text("yes")
    time.sleep(100)
"""


def test_ctrl_c_of_the_preview_ends_a_running_snippet_at_once(project, tmp_path, monkeypatch):
    import os
    import signal
    import tempfile
    import textwrap
    import time

    import pytest

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where the engine makes its run's folder
    path = project.snippet("p/sleeps.py", textwrap.dedent(SLEEPS))
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    preview = Preview(project.engine(keep_warm=True), rebuild=lambda: None)
    rebuild = threading.Thread(target=preview.results, args=([path],))  # as MkDocs' rebuild thread
    try:
        rebuild.start()
        deadline = time.monotonic() + 120
        while not list(scratch.glob("*/job-0/work/started")):
            assert time.monotonic() < deadline and rebuild.is_alive(), "the snippet did not start"
            time.sleep(0.05)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler raises here
        rebuild.join(timeout=2)
        assert not rebuild.is_alive(), "the rebuild still waits for its snippet 2 s after Ctrl-C"
    finally:
        preview.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


REUSE_SITE = """\
site_name: reuse
theme: {name: material, font: false}
plugins: [search, docexec]
markdown_extensions: [admonition, attr_list, pymdownx.superfences, toc]
nav: [index.md, a.md, b.md]
"""
PAGES = {"index.md", "a.md", "b.md"}


class Serving:
    """Whole-site rebuilds through the plugin as ``mkdocs serve`` makes them: the configuration
    read again each time, the plugin instance (with on_startup) kept."""

    def __init__(self, root: Path, site: Path) -> None:
        self.root, self.site = root, site
        self.config = self._config()
        self.config.plugins.on_startup(command="serve", dirty=False)
        self.plugin = self.config.plugins["docexec"]

    def _config(self):  # type: ignore[no-untyped-def]
        return load_config(config_file=str(self.root / "mkdocs.yml"), site_dir=str(self.site))

    def rebuild(self) -> list[str]:
        """The pages of the site converted again, in build order."""
        self.config = self._config()
        build(self.config, serve_url="http://127.0.0.1:8000/")
        return [uri for uri in self.plugin.serving.page_reuse.converted if uri in PAGES]

    def page(self, name: str) -> str:
        return (self.site / name / "index.html").read_text(encoding="utf-8")

    def notebooks(self) -> dict[str, str]:
        return {
            p.relative_to(self.site).as_posix(): p.read_text(encoding="utf-8")
            for p in self.site.rglob("*.ipynb")
        }

    def search_locations(self) -> set[str]:
        index = json.loads((self.site / "search" / "search_index.json").read_text(encoding="utf-8"))
        return {doc["location"].split("#")[0] for doc in index["docs"]}


@pytest.fixture
def serving(project, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCEXEC_CACHE_DIR", str(project.cache_dir))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    (project.root / "mkdocs.yml").write_text(REUSE_SITE)
    docs = project.root / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nNo snippet here.\n")
    (docs / "a.md").write_text("# A\n\n%run snippets/a/prints_a_value.py\n")
    (docs / "b.md").write_text("# B\n\n%run snippets/b/prints_another.py\n")
    project.snippet("a/prints_a_value.py", "print('value', 1)\n")
    project.snippet("b/prints_another.py", "print('another', 7)\n")
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    # MkDocs keeps, for the process, one instance of each plugin that has on_startup: a preview
    # of its own project for each test
    monkeypatch.setattr(MkDocsConfig.plugins, "plugin_cache", {})
    server = Serving(project.root, tmp_path / "site")
    try:
        yield server
    finally:
        server.config.plugins.on_shutdown()
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


def test_a_saved_snippet_converts_only_the_page_that_embeds_it_and_the_site_is_whole(serving, project):
    assert sorted(serving.rebuild()) == sorted(PAGES)
    assert "value 1" in serving.page("a")
    project.snippet("a/prints_a_value.py", "print('value', 2)\n")
    assert serving.rebuild() == ["a.md"]
    assert "value 2" in serving.page("a") and "value 1" not in serving.page("a")
    assert "another 7" in serving.page("b")
    assert serving.search_locations() == {"", "a/", "b/"}  # the search index keeps every page
    reused = {name: serving.page(name) for name in ("a", "b")}
    reused_index, reused_notebooks = serving.search_locations(), serving.notebooks()
    assert set(reused_notebooks) == {"a/a.ipynb", "b/b.ipynb"} and "value 2" in reused_notebooks["a/a.ipynb"]
    serving.plugin.serving.page_reuse = PageReuse(project.root, skip=[project.root / "snippets"])
    serving.plugin.serving.notebooks = NotebookMemo()
    assert sorted(serving.rebuild()) == sorted(PAGES)  # converted anew: the same site
    assert {name: serving.page(name) for name in ("a", "b")} == reused
    assert serving.search_locations() == reused_index
    assert serving.notebooks() == reused_notebooks


def test_a_reused_page_warns_again_of_its_failed_snippet(serving, project, caplog):
    project.snippet("b/prints_another.py", "raise ValueError('broken on purpose')\n")
    serving.rebuild()
    project.snippet("a/prints_a_value.py", "print('value', 2)\n")
    caplog.clear()
    assert serving.rebuild() == ["a.md"]
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("docs/b.md:3: snippet failed" in message for message in warned), warned
    assert "broken on purpose" in serving.page("b")


def test_an_edit_of_a_page_the_library_or_mkdocs_yml_converts_the_pages_again(serving, project):
    serving.rebuild()
    assert "headerlink" not in serving.page(".")  # no permalinks yet
    (project.root / "docs" / "b.md").write_text("# B\n\nEdited text.\n\n%run snippets/b/prints_another.py\n")
    assert "b.md" in serving.rebuild()
    assert "Edited text." in serving.page("b") and "another 7" in serving.page("b")
    assert serving.rebuild() == []  # nothing changed since
    (project.root / "src" / "torchguide" / "__init__.py").write_text("VERSION = 2\n")
    assert sorted(serving.rebuild()) == sorted(PAGES)  # the library: every snippet keyed anew
    config = (project.root / "mkdocs.yml").read_text().replace(", toc]", ", {toc: {permalink: true}}]")
    (project.root / "mkdocs.yml").write_text(config)
    assert sorted(serving.rebuild()) == sorted(PAGES)
    assert "headerlink" in serving.page(".")  # not the page converted before the edit


def test_a_focused_previews_stub_keeps_the_headings_and_titled_boxes_that_links_land_on():
    from docexec.render import focus

    page = (
        '# Views\n\nProse.\n\n## Strides { #strides }\n\n!!! correction "Views copy"\n    Body.\n\n'
        "!!! note\n    Untitled.\n\n```md\n## Not a heading\n!!! tip \"Inside a fence\"\n```\n"
    )
    stub = focus.stub(page, "Views", frozenset({"index.md", "other.md"}))
    assert stub.startswith("# Views\n\n!!! info \"Not rendered in this preview\"\n")
    assert stub.endswith(
        '## Strides { #strides }\n\n!!! correction "Views copy"\n    Not rendered in this preview.\n'
    )
    assert "Untitled" not in stub and "Inside a fence" not in stub and "Not a heading" not in stub
