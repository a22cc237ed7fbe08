"""Stopping ``mkdocs build``, ``pytest`` or the preview (``mkdocs serve``) while a snippet runs
ends every process and leaves no folder, as stopping the command line does (`test_snippet_containment`).

Each test starts the real command in a session of its own, as a terminal starts a foreground job,
waits until the sleeping snippet has started, then stops the command with Ctrl-C (SIGINT
to the whole process group) or SIGTERM (to the process alone).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import SLEEPS, assert_all_gone

from docexec.execution import process_tree
from docexec.execution.pool import fork_is_available

pytestmark = pytest.mark.skipif(not fork_is_available(), reason="the warm servers need fork")

STOPS = pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)

# Only the sleeping snippet: one warm server, no theme or other plugin to load before it starts.
MKDOCS_YML = "site_name: tiny\nplugins: [docexec]\n"
# As this repository enables the plugin: its conftest.py names it, its pyproject.toml configures pytest.
CONFTEST = 'pytest_plugins = ["docexec.hosts.pytest_plugin"]\n'
PYTEST_OPTIONS = '\n[tool.pytest.ini_options]\ntestpaths = ["snippets"]\naddopts = "-p no:cacheprovider"\n'


def stop_while_the_snippet_sleeps(
    command: list[str], cwd: Path, env: dict[str, str], temporary: Path, log: Path, stop: signal.Signals
) -> tuple[list[int], int]:
    """Start ``command``, stop it with ``stop`` once the snippet has started (it writes a file in
    its working folder below ``temporary``): the processes below the command then (its warm
    server, the snippet, its session child and any between them) and the command's exit status."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a group of its own, as a terminal's foreground job has
        )
    try:
        deadline = time.monotonic() + 60
        while not (found := list(temporary.glob("*/job-*/work/started.txt"))) or not found[0].read_text():
            started = time.monotonic() < deadline and process.poll() is None
            assert started, f"the snippet did not start:\n{log.read_text()[-3000:]}"
            time.sleep(0.05)
        pids = process_tree.descendants(process.pid)
        assert len(pids) >= 3, pids
        assert not (stop == signal.SIGINT and ignores_sigint(process.pid)), (
            "the command ignores SIGINT, as a background job of a shell without job control does: "
            "a terminal's foreground job takes it"
        )
        if stop == signal.SIGINT:
            os.killpg(process.pid, stop)  # what Ctrl-C does: the whole foreground group gets it
        else:
            process.send_signal(stop)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)  # no hang until the snippet ends
        assert process.poll() is not None, f"still running 20 s after {stop.name}:\n{log.read_text()[-3000:]}"
    finally:
        if process.poll() is None:
            process_tree.kill_tree(process.pid)
            process.wait()
    return pids, process.returncode


def ignores_sigint(pid: int) -> bool:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    return False


@pytest.fixture
def sleeping(project) -> None:
    """The project's one snippet sleeps, after it started a process in a session of its own."""
    project.snippet("page/sleeps.py", SLEEPS)


@pytest.fixture
def temporary(tmp_path: Path) -> Path:
    """The TMPDIR of the stopped command, empty."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


def _env(temporary: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(temporary), **extra}


@STOPS
def test_stopping_a_build_ends_every_process_and_removes_its_folders(
    project, sleeping, temporary, tmp_path, stop
):
    (project.root / "mkdocs.yml").write_text(MKDOCS_YML)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\n%run snippets/page/sleeps.py\n")
    log = tmp_path / "build.log"
    env = _env(temporary, DOCEXEC_CACHE_DIR=str(project.cache_dir), NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "build"]
    pids, status = stop_while_the_snippet_sleeps(command, project.root, env, temporary, log, stop)
    # Ctrl-C: MkDocs' "Aborted!"; SIGTERM: the status a SIGTERM gives, as from the command line.
    assert status == (1 if stop == signal.SIGINT else 128 + stop), log.read_text()[-3000:]
    assert_all_gone(pids)
    assert list(temporary.iterdir()) == [], log.read_text()[-3000:]


@STOPS
def test_stopping_pytest_ends_every_process_and_removes_its_folders(
    project, sleeping, temporary, tmp_path, stop
):
    (project.root / "conftest.py").write_text(CONFTEST)
    pyproject = project.root / "pyproject.toml"  # added to what the project may hold already
    pyproject.write_text((pyproject.read_text() if pyproject.exists() else "") + PYTEST_OPTIONS)
    log = tmp_path / "pytest.log"
    env = _env(temporary)
    env.pop("PYTEST_ADDOPTS", None)  # the outer run's options are not the project's
    command = [sys.executable, "-m", "pytest"]
    pids, status = stop_while_the_snippet_sleeps(command, project.root, env, temporary, log, stop)
    # Ctrl-C: pytest's "interrupted"; SIGTERM: the status a SIGTERM gives, and no internal error.
    interrupted = pytest.ExitCode.INTERRUPTED
    assert status == (interrupted if stop == signal.SIGINT else 128 + stop), log.read_text()[-3000:]
    assert_all_gone(pids)
    assert list(temporary.iterdir()) == [], log.read_text()[-3000:]


@STOPS
def test_stopping_the_preview_ends_every_process_and_removes_its_folders(
    project, sleeping, temporary, tmp_path, stop
):
    """Stopped while its first build waits for the snippet (a page's own snippet runs at once)."""
    (project.root / "mkdocs.yml").write_text(MKDOCS_YML)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\n%run snippets/page/sleeps.py\n")
    log = tmp_path / "serve.log"
    env = _env(temporary, DOCEXEC_CACHE_DIR=str(project.cache_dir), NO_MKDOCS_2_WARNING="1")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"]
    pids, status = stop_while_the_snippet_sleeps(command, project.root, env, temporary, log, stop)
    # Either signal: the preview stops as on Ctrl-C, and MkDocs' first build says "Aborted!".
    assert status == 1, log.read_text()[-3000:]
    assert_all_gone(pids)
    assert list(temporary.iterdir()) == [], log.read_text()[-3000:]
