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
        return Engine(self.root, cache_dir=self.cache_dir, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "project")


@pytest.fixture(scope="module")
def module_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(tmp_path_factory.mktemp("module") / "project")
