"""Runs snippets with their results cached: the one entry point for build, tests and CLI."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import shutil
import sys
import tempfile
import threading
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tqdm import tqdm

from docexec import config as configuration
from docexec.config import Config
from docexec.execution import cache, declarations, jobs, pool, published, result
from docexec.execution.declarations import DeclarationError, Declarations
from docexec.execution.device import detect_device
from docexec.execution.device import environment as device_environment
from docexec.execution.result import Reason, Result, Status
from docexec.sandbox import restrictions

# A snippet as read once by `declarations.read_file`: its declarations, and the bytes keyed and run.
Read = tuple[Declarations, bytes]

PROGRESS_BAR_FROM = 8  # uncached snippets; fewer finish before a bar would be worth drawing
# The folders whose code decides what a snippet prints or how its run is judged: a change to any
# file in them runs everything again, a module added there included.
_KEYED_FOLDERS = ("execution", "sandbox")


def _dependency_pins(pyproject: Path) -> list[str]:
    """The project's declared dependencies, extras included (none where it has no pyproject.toml)."""
    if not pyproject.is_file():
        return []
    project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    pins = list(project.get("dependencies", []))
    for extra, requirements in sorted(project.get("optional-dependencies", {}).items()):
        pins += [f"[{extra}] {requirement}" for requirement in requirements]
    return pins


def engine_digest(package: Path) -> str:
    """One hash over every Python file in the keyed folders of the ``docexec`` package at ``package``."""
    files = [file for folder in _KEYED_FOLDERS for file in (package / folder).rglob("*.py")]
    return cache.digest_files(files, package)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


class _Pending(NamedTuple):
    """A snippet to run: its source as read once, the key taken from it."""

    path: str
    decl: Declarations
    key: str
    source: str


@dataclass
class Summary:
    executed: int = 0
    cached: int = 0
    skipped: int = 0
    failures: list[result.Result] = field(default_factory=list)

    def line(self) -> str:
        text = f"{self.executed} executed, {self.cached} cached, {self.skipped} skipped (CUDA)"
        if self.failures:
            text += f", {len(self.failures)} failed: " + ", ".join(r.path for r in self.failures)
        return text


class Engine:
    """Executes snippets of the project at ``root`` and keeps their results."""

    def __init__(
        self, root: Path, config: Config | None = None, workers: int | None = None, keep_warm: bool = False
    ) -> None:
        """``config``: the project's ``[tool.docexec]`` when None (`docexec.config.load`), without
        the environment's overrides, which only the edges read. ``keep_warm``: keep the warm servers
        between runs (until `close`), as a live preview does."""
        self.root = root.resolve()
        self.config = configuration.load(self.root) if config is None else config
        self.cache = cache.ResultCache(self.config.cache_dir)
        self.force = self.config.force
        self.workers = workers or os.cpu_count() or 1
        # What a page says its outputs ran with, and what keys them: the configured distributions'
        # releases (`Config.environment`), Python's, and the device (on CUDA, the GPU and its release).
        self.environment = {
            **{name: _version(name) for name in self.config.environment},
            "python": platform.python_version(),
            **device_environment(self.config.device or detect_device(), _version("torch")),
        }
        # Libraries whose behaviour reaches the output (printing, figures) but not the provenance line,
        # the project's declared pins (a changed pin may change what gets installed), and the seed.
        self._dependencies = {name: _version(name) for name in ("numpy", "matplotlib")}
        self._dependencies["pins"] = _dependency_pins(self.root / "pyproject.toml")
        self._dependencies["seed"] = str(self.config.seed)
        self.refresh()
        self._engine_digest = engine_digest(Path(__file__).parent.parent)
        self._lock = threading.Lock()
        forks = self.config.fork and pool.fork_is_available()
        self._pool = pool.WarmPool(preload=self.config.preload) if keep_warm and forks else None

    def refresh(self) -> None:
        """Read the library's sources again: an engine that outlives an edit keys results anew."""
        files: list[Path] = []
        for place in self.config.library:  # a folder's Python sources, or one file
            if place.is_dir():
                files += sorted(place.rglob("*.py"))
            elif place.is_file():
                files.append(place)
        self._library_digest = cache.digest_files(files, self.root) if files else ""

    def warm_up(self) -> None:
        """Start the kept warm servers now, so the first run does not wait for torch to import."""
        if self._pool is not None:
            self._pool.grow(self._pool.keep)

    def stop_now(self) -> None:
        """Kill the running snippets at once (Ctrl-C or SIGTERM of a preview); safe in a signal handler."""
        if self._pool is not None:
            self._pool.kill_now()

    def close(self) -> None:
        """End the kept warm servers (an engine made with ``keep_warm``)."""
        if self._pool is not None:
            self._pool.close()

    def all_snippets(self) -> list[str]:
        folder = self.root / self.config.snippets
        return sorted(p.relative_to(self.root).as_posix() for p in folder.rglob("*.py"))

    def declarations(self, path: str) -> Declarations:
        """Raises `DeclarationError` (``file:line``) or `FileNotFoundError`."""
        return declarations.parse_file(self.root / path, self.root, self.config.snippets)

    def declared(self, path: str) -> Declarations | Result:
        """The declarations of ``path``, or the failed result that says why it cannot run: its file
        is missing or outside the snippets folder (`Reason.NO_SUCH_SNIPPET`), or a declaration
        cannot be used (`Reason.BAD_DECLARATION`). One bad snippet never stops the others."""
        found = self._read(path)
        return found if isinstance(found, Result) else found[0]

    def _read(self, path: str) -> tuple[Declarations, bytes] | Result:
        """`declared`, and the source read once: its key is taken from it, and it is what runs."""
        file, folder = self.root / path, self.config.snippets
        try:
            inside = declarations.is_inside(file, self.root, folder)
        except (OSError, ValueError):  # a link loop, a NUL byte: no path to a snippet
            inside = False
        if not inside:
            problem = f"{path}:1: the file is not inside {folder}/ (links followed): snippets are files there"
            return self._unusable(path, Reason.NO_SUCH_SNIPPET, problem)
        if not file.is_file():
            missing = "not a file" if file.exists() else "the file does not exist"
            return self._unusable(path, Reason.NO_SUCH_SNIPPET, f"{path}: no such snippet: {missing}")
        try:
            return declarations.read_file(file, self.root, folder)
        except DeclarationError as error:
            return self._unusable(path, Reason.BAD_DECLARATION, str(error))
        except OSError as error:  # removed or made unreadable since: as good as no file
            problem = f"{path}: cannot be read: {error.strerror}"
            return self._unusable(path, Reason.NO_SUCH_SNIPPET, problem)

    def _unusable(self, path: str, reason: Reason, problem: str) -> Result:
        failure = published.clean(problem)  # it may quote the snippet's text
        return Result(path, Status.FAILED, reason, failure=failure, environment=self.environment)

    def key(self, path: str) -> str:
        return self._key_of((self.root / path).read_bytes())

    def _key_of(self, source: bytes) -> str:
        return cache.result_key(
            source, self._library_digest, self._engine_digest, {**self.environment, **self._dependencies}
        )

    def execute(
        self, paths: list[str], progress: bool = True, read: Mapping[str, Read] | None = None
    ) -> tuple[dict[str, result.Result], Summary]:
        """Results for ``paths`` (repo-relative), from the cache or executed in parallel.

        A snippet that cannot run (`declared`) is a failed result of its own; the others still run.
        ``read``: the declarations and bytes of snippets the caller read already (a site's plan, by
        `declarations.read_file`): they are keyed and run as read, not read again.
        """
        results, summary, pending = self._partition(paths, read)
        # A build started beside this one may be running some of them: wait, then take its results.
        with self.cache.claim([item.key for item in pending], reuse=not self.force) as found:
            for item in pending:
                if item.key in found:
                    results[item.path] = found[item.key]
                    summary.cached += 1
            pending = [item for item in pending if item.key not in found]
            self._execute(pending, results, progress)
        summary.executed = len(pending)
        summary.failures = [r for r in results.values() if r.status == Status.FAILED]
        return results, summary

    def lookup(
        self, paths: list[str], read: Mapping[str, Read] | None = None
    ) -> tuple[dict[str, result.Result], dict[str, str]]:
        """The results known without executing anything (cached, or skipped on this device), and
        the paths that would have to run, with their keys. A snippet that cannot run is a failed
        result, as in `execute`; ``read`` as there."""
        results, _, pending = self._partition(paths, read)
        return results, {item.path: item.key for item in pending}

    def _partition(
        self, paths: list[str], read: Mapping[str, Read] | None = None
    ) -> tuple[dict[str, result.Result], Summary, list[_Pending]]:
        summary = Summary()
        results: dict[str, result.Result] = {}
        pending: list[_Pending] = []
        for path in sorted(set(paths)):
            found = read[path] if read is not None and path in read else self._read(path)
            if isinstance(found, Result):
                results[path] = found  # never cached: it is read again next time
                continue
            decl, source = found
            if decl.cuda and self.environment["device"] != "cuda":
                why = "needs a CUDA device; it runs on the CUDA runner"
                results[path] = result.skipped(path, Reason.NEEDS_GPU, why, self.environment)
                summary.skipped += 1
                continue
            key = self._key_of(source)
            cached = None if self.force else self.cache.get(key)
            if cached is not None:
                results[path] = cached
                summary.cached += 1
            else:
                pending.append(_Pending(path, decl, key, source.decode("utf-8")))
        return results, summary, pending

    def _execute(self, pending: list[_Pending], results: dict[str, result.Result], progress: bool) -> None:
        if not pending:
            return
        restrictions.say_what_is_not_in_force()
        scratch = Path(tempfile.mkdtemp(prefix="docexec-"))
        bar = tqdm(
            total=len(pending),
            unit="snippet",
            desc="docexec",
            file=sys.stderr,
            leave=False,
            # A bar only on a console: in a CI log each redraw would be one more line.
            disable=not progress or len(pending) < PROGRESS_BAR_FROM or not sys.stderr.isatty(),
        )
        by_job_dir: dict[str, tuple[str, Declarations, str]] = {}
        to_run = []
        for index, (path, decl, key, source) in enumerate(pending):
            job = jobs.new_job(
                path,
                self.root,
                timeout=self.config.timeout if decl.timeout is None else decl.timeout,
                memory_limit=self.config.memory if decl.memory is None else decl.memory,
                seed=self.config.seed,
                scratch=scratch,
                index=index,
                network=decl.network,
                gpu=decl.cuda and self.environment["device"] == "cuda",
                match=decl.match,
                source=source,
            )
            by_job_dir[job.job_dir] = (path, decl, key)
            to_run.append(job)

        def on_done(job: jobs.Job, report: jobs.Report) -> None:
            path, decl, key = by_job_dir[job.job_dir]
            outcome = result.assemble(path, Path(job.job_dir), report, decl, self.environment)
            if outcome.status == Status.PASSED:  # a failure may be the machine's (a timeout): retry next time
                self.cache.put(key, outcome)
            with self._lock:
                results[path] = outcome
                bar.update()

        try:
            pool.execute_jobs(
                to_run,
                self.workers,
                on_done,
                use_fork=self.config.fork,
                pool=self._pool,
                preload=self.config.preload,
            )
        finally:
            bar.close()
            shutil.rmtree(scratch, ignore_errors=True)


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` that is a project (`docexec.config.is_project`)."""
    for folder in [start.resolve(), *start.resolve().parents]:
        if configuration.is_project(folder):
            return folder
    raise FileNotFoundError(
        f"no project at or above {start}: no pyproject.toml with [tool.docexec], no {Config.snippets}/ folder"
    )


__all__ = ["Config", "DeclarationError", "Engine", "Summary", "detect_device", "find_root"]
