"""The built site, shared by the site and browser tests.

It is built once per run, once for all of pytest-xdist's workers, with the project's own cache,
which the snippet tests filled moments before (snippets are executed at collection time), so
building executes nothing again.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def ctrl_c_not_ignored() -> Iterator[None]:
    """The commands the tests start take Ctrl-C as a terminal's foreground job does, also when
    the tests themselves run as a background job (``make test-engine &`` in a script): a shell
    without job control starts those with SIGINT ignored, every process below inherits that, and
    Python then installs no KeyboardInterrupt, so a command stopped with SIGINT would run on."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if not ignored or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a handler is reset to the default by exec
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@dataclass
class BuiltSite:
    path: Path
    log: str


def shared_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's own temporary folder: with pytest-xdist, the one above each worker's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """One strict build per run: the first worker to need it builds under a lock, the others wait
    for it and read what it left (its log and exit status beside it)."""
    shared = shared_tmp(tmp_path_factory)
    site, log_file, status_file = shared / "site", shared / "site.log", shared / "site.status"
    with open(shared / "site.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not status_file.exists():
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
            build = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
            log_file.write_text(build.stdout + build.stderr, encoding="utf-8")
            status_file.write_text(str(build.returncode), encoding="utf-8")
    log = log_file.read_text(encoding="utf-8")
    assert status_file.read_text() == "0", f"the strict build failed:\n{log[-6000:]}"
    return BuiltSite(site, log)
