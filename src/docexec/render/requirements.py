"""What a snippet imports, and the one ``pip install`` command that provides it."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import shlex
import sys


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


def library_requirement(distribution: str, repository: str | None) -> str:
    """The project's own distribution (`Config.library_distribution`) from its repository where
    one is known (a project's library need not be on PyPI); it brings the pinned torch along.
    ``repository`` may end in ``@ref`` (a tag or commit): pip installs the project as it was there."""
    return f"{distribution} @ git+{repository}" if repository else distribution


def repository_requirement(distribution: str, folder: str, repository: str) -> str:
    """A distribution kept in ``folder`` of the project's repository (`Config.repository_distributions`),
    from the same reference as the project: ``name @ git+URL@ref#subdirectory=folder``."""
    return f"{distribution} @ git+{repository}#subdirectory={folder}"


def library_requirements(
    distribution: str, repository: str | None, from_repository: tuple[tuple[str, str], ...] = ()
) -> list[str]:
    """The project's library and, where it comes from its repository, the distributions it needs
    from there too (pip cannot find them on PyPI)."""
    found = [library_requirement(distribution, repository)]
    if repository:
        found += [repository_requirement(name, folder, repository) for name, folder in from_repository]
    return found


def requirements(
    modules: set[str],
    torch_version: str,
    repository: str | None,
    library_module: str | None = None,
    library_distribution: str | None = None,
    from_repository: tuple[tuple[str, str], ...] = (),
) -> list[str]:
    """pip requirements for ``modules``: torch pinned to the release the outputs came from; the
    project's library (`Config.library_module`), and any module the project's distribution ships,
    as that distribution, from ``repository``, with the distributions it needs from there
    (``from_repository``: `Config.repository_distributions`)."""
    wanted = set()
    kept_there = dict(from_repository)
    for module in modules - set(sys.stdlib_module_names) - {"__future__"}:
        distribution = _distributions().get(module, [module])[0]
        if module == "torch":
            wanted.add("torch==" + torch_version.split("+")[0])  # the CPU or CUDA build of one release
        elif (module == library_module and library_distribution) or distribution == library_distribution:
            wanted.update(library_requirements(library_distribution, repository, from_repository))  # type: ignore[arg-type]
        elif distribution in kept_there and repository:
            wanted.add(repository_requirement(distribution, kept_there[distribution], repository))
        else:
            wanted.add(distribution)
    return sorted(wanted, key=lambda name: (not name.startswith("torch=="), name.lower()))


def pip_command(requirements: list[str]) -> str:
    return "pip install " + " ".join(shlex.quote(requirement) for requirement in requirements)


__all__ = [
    "imported_modules",
    "library_requirement",
    "library_requirements",
    "pip_command",
    "repository_requirement",
    "requirements",
]
