"""A throw-away project: snippets written by the test, a cache of its own.

The engine installs and runs without torch and without this site (engine/pyproject.toml), and so do
its tests: a test whose snippets import torch is marked ``torch``, one that reads this repository's
own site (its configuration, pages, recordings, library) ``this_site``; each skips where that is
not installed.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from docexec import config
from docexec.execution.engine import Engine


def installed(module: str) -> bool:
    """A module with a file of its own: a folder of tests/ of the same name on the path is none."""
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.origin is not None


# Nothing preloaded: most engine tests' snippets need no torch, and a warm server that imports
# nothing starts in a tenth of a second instead of three. A test whose snippets import torch
# still gets it seeded as they import it. torch's release is named and keyed where it is
# installed, as this site configures it (`environment`).
PYPROJECT = '[tool.docexec]\nlibrary = ["src/torchguide"]\n' + (
    'environment = ["torch"]\n' if installed("torch") else ""
)


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "snippets").mkdir(parents=True)
        (root / "src" / "torchguide").mkdir(parents=True)
        (root / "src" / "torchguide" / "__init__.py").write_text("VERSION = 1\n")
        (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
        self.cache_dir = root / ".cache"

    def snippet(self, name: str, code: str) -> str:
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code).lstrip(), encoding="utf-8")
        return f"snippets/{name}"

    def python(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        """``python ARGS`` in the project, with its own cache, as a contributor's command line."""
        env = {**os.environ, "DOCEXEC_CACHE_DIR": str(self.cache_dir), "NO_MKDOCS_2_WARNING": "1"}
        return subprocess.run(
            [sys.executable, *args], cwd=self.root, env=env, capture_output=True, text=True, timeout=timeout
        )

    def engine(self, workers: int | None = None, keep_warm: bool = False, **changes: object) -> Engine:
        """``changes`` to the project's `docexec.config.Config`; on a CPU unless the test names
        another device: the machine's own must not matter."""
        settings = config.load(self.root).replace(**{"cache_dir": self.cache_dir, "device": "cpu", **changes})
        return Engine(self.root, settings, workers=workers, keep_warm=keep_warm)


# marker: (the module whose absence skips it, why)
NEEDS = {
    "torch": ("torch", "its snippets import torch, which is not installed"),
    "this_site": ("torchguide", "it reads or imports this repository's own site, which is not installed"),
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "torch: its snippets import torch (skipped where it is missing)")
    config.addinivalue_line("markers", "this_site: reads this repository's own site (skipped without it)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = {marker: why for marker, (module, why) in NEEDS.items() if not installed(module)}
    for item in items:
        for marker, why in missing.items():
            if item.get_closest_marker(marker):
                item.add_marker(pytest.mark.skip(reason=why))


@pytest.fixture(scope="session", autouse=True)
def cpu_device() -> Iterator[None]:
    """Engine tests pin the device, so that they pass alike on a CPU and on a CUDA machine
    (``DOCEXEC_DEVICE=cuda``), commands they start included; a test of a device names it.
    For the whole session: a module's shared build is made before any test's own fixtures."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOCEXEC_DEVICE", "cpu")
        yield


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "project")


@pytest.fixture(scope="module")
def module_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(tmp_path_factory.mktemp("module") / "project")


@pytest.fixture(scope="session")
def new_project(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Project]:
    """A throw-away project more, for a module that builds a second one of its own once."""
    return lambda name: Project(tmp_path_factory.mktemp(name) / "project")
