"""What a snippet imports, and the one ``pip install`` command that provides it."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import shlex
import sys

LIBRARY_MODULE = "torchguide"  # the site's own helper library ...
LIBRARY_DISTRIBUTION = "pytorch-foundations"  # ... and the project that ships it


def imported_modules(source: str) -> set[str]:
    """Top-level names of the modules a snippet imports (``import a.b`` gives ``a``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@functools.cache
def _distributions() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def library_requirement(repository: str | None) -> str:
    """The project from its repository (it is not on PyPI); it brings the pinned torch along."""
    return f"{LIBRARY_DISTRIBUTION} @ git+{repository}" if repository else LIBRARY_DISTRIBUTION


def requirements(modules: set[str], torch_version: str, repository: str | None) -> list[str]:
    """pip requirements for ``modules``: torch pinned to the release the outputs came from."""
    wanted = set()
    for module in modules - set(sys.stdlib_module_names) - {"__future__"}:
        if module == "torch":
            wanted.add("torch==" + torch_version.split("+")[0])  # the CPU or CUDA build of one release
        elif module == LIBRARY_MODULE:
            wanted.add(library_requirement(repository))
        else:
            wanted.add(_distributions().get(module, [module])[0])
    return sorted(wanted, key=lambda name: (not name.startswith("torch=="), name.lower()))


def pip_command(requirements: list[str]) -> str:
    return "pip install " + " ".join(shlex.quote(requirement) for requirement in requirements)


__all__ = ["imported_modules", "library_requirement", "pip_command", "requirements"]
