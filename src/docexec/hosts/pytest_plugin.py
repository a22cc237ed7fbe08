"""pytest plugin: every file under ``snippets/`` is a test, run by the same engine and cache as
the site build, so a CI run executes each snippet once.

pytest's own process never executes a snippet: its Python collector (a file named like a test,
or any file given as an argument), its package and doctest collectors are kept off the snippets
folder, and an import of any file there (a ``conftest.py`` pytest would load by itself) is
refused with the file's name. Only the engine runs a snippet, in its sandbox.

All collected snippets are executed together, in parallel, before the first test runs; each test
then reports its own snippet's result. CUDA snippets skip with a reason where no GPU is present.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from pathlib import Path

import pytest

from docexec import config as configuration
from docexec.execution.engine import Engine
from docexec.execution.result import Result, Status

_engine_key = pytest.StashKey[Engine]()
_results_key = pytest.StashKey[dict[str, Result]]()
OUTPUT_LINES_SHOWN = 40  # of a failing snippet's output, its last


class SnippetError(Exception):
    pass


def _root(config: pytest.Config) -> Path:
    return Path(config.rootpath)


def _snippets(config: pytest.Config) -> Path:
    return _root(config) / config.stash[_engine_key].config.snippets


class SnippetImportRefused(importlib.abc.MetaPathFinder):
    """Refuses to import a file under the snippets folder: pytest imports the ``conftest.py`` of
    each folder it enters before any hook could leave it out, and so would any other plugin's
    collector. Only paths under the folder are looked at, so other imports cost a string test."""

    def __init__(self, root: Path, snippets: Path) -> None:
        self._root = root
        self._folders = {os.path.abspath(snippets), os.path.realpath(snippets)}

    def _inside(self, path: str) -> bool:
        return any(path == folder or path.startswith(folder + os.sep) for folder in self._folders)

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        tail = name.rpartition(".")[2]
        for entry in sys.path if path is None else path:
            entry = os.path.abspath(entry or os.curdir)
            if not self._inside(os.path.join(entry, tail)):
                continue
            spec = importlib.machinery.PathFinder.find_spec(name, [entry])
            if spec is not None and spec.has_location and spec.origin:
                shown = os.path.relpath(spec.origin, self._root)
                raise ImportError(
                    f"{shown} is a snippet: pytest's process does not import it "
                    "(the engine runs each snippet in its sandbox)",
                    name=name,
                    path=spec.origin,
                )
        return None


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """The earliest hook: called as the root ``conftest.py`` registers this plugin, before pytest
    loads the ``conftest.py`` files of the folders it was given."""
    config = pluginmanager.get_plugin("pytestconfig")
    root = _root(config)
    try:
        snippets = root / configuration.from_environment(root).snippets
    except configuration.ConfigError:  # `pytest_configure` reports it; until then, the default
        snippets = root / configuration.Config.snippets
    if not any(isinstance(finder, SnippetImportRefused) for finder in sys.meta_path):
        sys.meta_path.insert(0, SnippetImportRefused(root, snippets))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".py" and file_path.is_relative_to(_snippets(parent.config)):
        return SnippetFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A folder of snippets with an ``__init__.py`` is a plain folder: a package's collector would
    import its ``__init__.py``."""
    if path.is_relative_to(_snippets(parent.config)):
        return pytest.Dir.from_parent(parent, path=path)
    return None


class SnippetFile(pytest.File):
    def collect(self):  # type: ignore[no-untyped-def]
        yield SnippetItem.from_parent(self, name=self.path.name)


class SnippetItem(pytest.Item):
    @property
    def snippet(self) -> str:
        return self.path.relative_to(_root(self.config)).as_posix()

    def runtest(self) -> None:
        results = self.config.stash.get(_results_key, {})
        outcome = results.get(self.snippet)
        if outcome is None:  # not prepared in bulk (collected by another plugin's hook): run alone
            engine = self.config.stash[_engine_key]
            outcome = engine.execute([self.snippet], progress=False)[0][self.snippet]
        if outcome.status is Status.SKIPPED:
            raise pytest.skip.Exception(outcome.failure or "skipped", _use_item_location=True)
        if outcome.status is Status.FAILED:
            if outcome.output:  # what it printed first, its workers' messages too (a C++ abort says why)
                tail = "".join(outcome.output.splitlines(keepends=True)[-OUTPUT_LINES_SHOWN:])
                self.add_report_section("call", "snippet output", tail)
            raise SnippetError(outcome.failure)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:  # type: ignore[no-untyped-def]
        if isinstance(excinfo.value, SnippetError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"snippet {self.snippet}"


def pytest_configure(config: pytest.Config) -> None:
    root = _root(config)
    try:
        config.stash[_engine_key] = Engine(root, configuration.from_environment(root))
    except configuration.ConfigError as error:  # "ERROR: pyproject.toml:LINE: ..." and no traceback
        raise pytest.UsageError(f"docexec: {error}") from None


def pytest_collection_finish(session: pytest.Session) -> None:
    snippets = [item.snippet for item in session.items if isinstance(item, SnippetItem)]
    if not snippets or session.config.option.collectonly:  # listing tests runs none
        return
    engine = session.config.stash[_engine_key]
    try:  # a snippet that cannot run is a failed result: its own test reports it with file:line
        results, summary = engine.execute(snippets)
    except KeyboardInterrupt:
        _no_summary_from_unused_plugins(session.config)
        raise
    except SystemExit as stop:  # SIGTERM, once the engine has ended its snippets: a stop, no crash
        _no_summary_from_unused_plugins(session.config)
        pytest.exit(f"docexec: stopped by a signal (exit status {stop.code})", returncode=stop.code)
    session.config.stash[_results_key] = results
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"docexec: {summary.line()}")


def _no_summary_from_unused_plugins(config: pytest.Config) -> None:
    """A stopped run ends at once: Hypothesis' summary imports Hypothesis (half a second, seconds
    on a busy machine) only to find nothing to report where no test of this process used it."""
    if "hypothesis" not in sys.modules:
        plugin = config.pluginmanager.get_plugin("hypothesispytest")
        if plugin is not None:
            config.pluginmanager.unregister(plugin)


@pytest.hookimpl(wrapper=True, specname="pytest_collect_file")
def pytest_collect_file_only_the_engine_runs_snippets(file_path: Path, parent: pytest.Collector):  # type: ignore[no-untyped-def]
    """A snippet is collected by this plugin alone: pytest's Python collector would import one
    named like a test (or given as an argument) in pytest's own process, as would the doctest
    collector. pytest-markdown-docs reads the code blocks of Markdown files and docstrings, and
    only in the project's ``markdown-docs`` places."""
    collected = yield
    if file_path.is_relative_to(_snippets(parent.config)):
        return [c for c in collected if isinstance(c, SnippetFile)]
    root = _root(parent.config)
    places = parent.config.stash[_engine_key].config.markdown_docs
    relative = file_path.relative_to(root).as_posix() if file_path.is_relative_to(root) else ""
    allowed = any(relative == place or relative.startswith(place + "/") for place in places)
    return [c for c in collected if allowed or type(c).__module__ != "pytest_markdown_docs.plugin"]
