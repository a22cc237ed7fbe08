"""A throw-away project: snippets written by the test, a cache of its own."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from docexec.engine import Engine


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "snippets").mkdir(parents=True)
        (root / "src" / "torchguide").mkdir(parents=True)
        (root / "src" / "torchguide" / "__init__.py").write_text("VERSION = 1\n")
        self.cache_dir = root / ".cache"

    def snippet(self, name: str, code: str) -> str:
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code).lstrip(), encoding="utf-8")
        return f"snippets/{name}"

    def engine(self, **kwargs: object) -> Engine:
        """On a CPU unless the test names another device: the machine's own must not matter."""
        options = {"cache_dir": self.cache_dir, "device": "cpu", **kwargs}
        return Engine(self.root, **options)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def cpu_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engine tests pin the device, so that they pass alike on a CPU and on a CUDA machine
    (``DOCEXEC_DEVICE=cuda``), commands they start included; a test of a device names it."""
    monkeypatch.setenv("DOCEXEC_DEVICE", "cpu")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "project")


@pytest.fixture(scope="module")
def module_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(tmp_path_factory.mktemp("module") / "project")
