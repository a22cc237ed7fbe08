"""The engine's configuration: ``[tool.docexec]`` in the project's ``pyproject.toml``, then the
``DOCEXEC_*`` environment variables over it. Only the edges (the command line, the MkDocs plugin,
the pytest plugin) read the environment; the engine takes a `Config`, so a test can pin it.

    [tool.docexec]
    preload = ["torch"]          modules the warm servers import before they fork a snippet
    library = ["src/mylib"]      sources every result depends on: an edit there runs all again
    seed = 0                     random, numpy and torch are seeded with it in every snippet
    timeout = 30                 seconds a snippet may run, unless it declares its own
    memory = "4G"                what a snippet's processes may use together, unless declared
    cache-dir = ".cache/docexec" where results are kept (relative to the project)
    device = "auto"              "cpu", "cuda", or "auto" (detected)
    environment = ["torch"]      distributions whose releases a page names and every result is keyed on

  Where the project keeps things (the engine names no folder or page of its own):

    snippets = "snippets"        the folder of snippets; a page's ``%run`` path starts with it
    labs = "snippets/notebooks"  notebook pages written as percent-format snippets (none if unset)
    docs = "docs"                the pages' folder (MkDocs' ``docs_dir`` where MkDocs hosts)
    reference-page = "api/index.md"         the page (under docs) that documents the library
    library-module = "mylib"     the project's own library that snippets import: a page says where
    library-distribution = "my-project"     it comes from, a notebook installs this distribution
    repository-distributions = {engine = "engine"}  distributions the library needs that come from
                                 the project's repository, not PyPI: name -> their folder in it
    markdown-docs = ["docs/usage.md"]       Markdown files (or folders) whose code blocks pytest runs
    templates = "templates"      ``page.md`` and ``snippet.py``, from which ``docexec new`` starts

  The project's seams (import paths of its own modules):

    notebook-cells = "mysite.cells"         a module that writes some snippets' cells in a page
                                 notebook its own way (`docexec.render.notebooks.NotebookCells`)

    DOCEXEC_DEVICE=cuda|cpu    the device, over ``device``
    DOCEXEC_CACHE_DIR=DIR      the results cache, over ``cache-dir``
    DOCEXEC_FORCE=1            execute again, ignoring cached results
    DOCEXEC_NO_FORK=1          a fresh interpreter per snippet instead of forks of a warm server
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from docexec.execution import declarations
from docexec.execution.device import DEVICES

PYPROJECT = "pyproject.toml"
TABLE = "tool.docexec"
_MODULE_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class ConfigError(ValueError):
    """A setting that cannot be used; names ``pyproject.toml:LINE`` or the variable."""


@dataclass(frozen=True)
class Config:
    """What the engine needs to know besides the snippets. Paths are absolute."""

    cache_dir: Path
    preload: tuple[str, ...] = ()
    library: tuple[Path, ...] = ()
    seed: int = 0
    timeout: float = declarations.DEFAULT_TIMEOUT
    memory: int = declarations.DEFAULT_MEMORY  # bytes
    device: str | None = None  # None: detected
    environment: tuple[str, ...] = ()  # distributions named with their release (`_distributions`)
    force: bool = False
    fork: bool = True  # False: a fresh interpreter per snippet (slower; where fork is missing)
    # Where the project keeps things, relative to its root (POSIX paths).
    snippets: str = "snippets"
    labs: str | None = None
    docs: str = "docs"
    reference_page: str | None = None  # under ``docs``
    library_module: str | None = None
    library_distribution: str | None = None
    repository_distributions: tuple[tuple[str, str], ...] = ()  # (distribution, folder in the repository)
    markdown_docs: tuple[str, ...] = ()
    templates: str = "templates"
    notebook_cells: str | None = None  # the module of the project's notebook-cell hook
    new_page: str | None = None  # the module of the project's ``docexec new`` hook

    def replace(self, **changes: object) -> Config:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def figure_store(self) -> Path:
        """Where the figures as the site serves them are kept between builds (`figure_files`)."""
        return self.cache_dir / "figures"


def load(root: Path, environ: dict[str, str] | None = None) -> Config:
    """The configuration of the project at ``root``; ``environ`` (default: none) over it.

    Raises `ConfigError` for an unknown key, a value of the wrong kind, or a bad variable."""
    root = root.resolve()
    config = _from_pyproject(root, root / PYPROJECT)
    return config if environ is None else _with_environment(config, environ)


def from_environment(root: Path) -> Config:
    """`load` with ``os.environ``: for the edges only."""
    return load(root, dict(os.environ))


def is_project(root: Path) -> bool:
    """Whether ``root`` is a project's root: its ``pyproject.toml`` has a ``[tool.docexec]`` table,
    or it holds a snippets folder of the default name. No value is checked here: where the table
    cannot be used, `load` says why with its line."""
    pyproject = root / PYPROJECT
    text = pyproject.read_text(encoding="utf-8", errors="replace") if pyproject.is_file() else ""
    try:
        tool = tomllib.loads(text).get("tool")
        has_table = isinstance(tool, dict) and "docexec" in tool
    except tomllib.TOMLDecodeError:
        has_table = bool(re.search(r"^\s*\[\s*tool\s*\.\s*docexec\b", text, re.MULTILINE))
    return has_table or (root / Config.snippets).is_dir()


def _table(text: str) -> dict:
    try:
        table = tomllib.loads(text).get("tool", {}).get("docexec", {})
    except tomllib.TOMLDecodeError as error:  # its message ends "(at line N, column M)"
        line = re.search(r"at line (\d+)", str(error))
        raise ConfigError(f"{PYPROJECT}:{line[1] if line else 1}: {error}") from None
    if not isinstance(table, dict):
        raise ConfigError(f"{PYPROJECT}:{_line_of(text, 'docexec')}: tool.docexec must be a table")
    return table


def _from_pyproject(root: Path, pyproject: Path) -> Config:
    text = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    table = _table(text)
    readers = {
        "preload": _preload,
        "library": lambda value, where: _library(root, value, where),
        "seed": check_seed,
        "timeout": _timeout,
        "memory": _memory,
        "cache-dir": lambda value, where: root / _string(value, where),
        "device": _device,
        "environment": _distributions,
        "snippets": lambda value, where: _folder(root, value, where),
        "labs": lambda value, where: _folder(root, value, where),
        "docs": lambda value, where: _folder(root, value, where),
        "reference-page": _relative_path,
        "library-module": _module_name,
        "library-distribution": _string,
        "repository-distributions": _repository_distributions,
        "markdown-docs": lambda value, where: tuple(_relative_path(v, where) for v in _strings(value, where)),
        "templates": lambda value, where: _folder(root, value, where),
        "notebook-cells": _module_name,
        "new-page": _module_name,
    }
    values: dict[str, object] = {"cache_dir": root / ".cache" / "docexec"}
    for key, value in table.items():
        where = f"{PYPROJECT}:{_line_of(text, key)}: [{TABLE}] {key}"
        if key not in readers:
            raise ConfigError(f"{where}: unknown key; known keys: {', '.join(readers)}")
        values[key.replace("-", "_")] = readers[key](value, where)
    return Config(**values)  # type: ignore[arg-type]


def _with_environment(config: Config, environ: dict[str, str]) -> Config:
    changes: dict[str, object] = {}
    device = environ.get("DOCEXEC_DEVICE", "").strip()
    if device:
        if device not in DEVICES:
            raise ConfigError(f"DOCEXEC_DEVICE={device}: expected one of {', '.join(DEVICES)}")
        changes["device"] = device
    if environ.get("DOCEXEC_CACHE_DIR"):
        changes["cache_dir"] = Path(environ["DOCEXEC_CACHE_DIR"]).resolve()
    if environ.get("DOCEXEC_FORCE", "") not in ("", "0"):
        changes["force"] = True
    if environ.get("DOCEXEC_NO_FORK", "") not in ("", "0"):
        changes["fork"] = False
    return config.replace(**changes)


def _line_of(text: str, key: str) -> int:
    """The line of ``key`` in the ``[tool.docexec]`` table (1 where it cannot be found)."""
    in_table = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_table = stripped.replace(" ", "") == f"[{TABLE}]"
        elif in_table and re.match(rf"""^["']?{re.escape(key)}["']?\s*=""", stripped):
            return number
    return 1


def _repository_distributions(value: object, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of distribution = folder, got {value!r}")
    return tuple((_string(name, where), _relative_path(folder, where)) for name, folder in value.items())


def _string(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: expected a non-empty string, got {value!r}")
    return value


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return tuple(_string(item, where) for item in value)


def _relative_path(value: object, where: str) -> str:
    given = _string(value, where)
    path = given.rstrip("/")
    if given.startswith(("/", ".", "~")) or ".." in path.split("/") or "\\" in path:
        raise ConfigError(f"{where}: expected a path inside the project such as 'docs', got {value!r}")
    return path


def _folder(root: Path, value: object, where: str) -> str:
    path = _relative_path(value, where)
    if not (root / path).is_dir():
        raise ConfigError(f"{where}: {path}/ is not a folder of the project")
    if not (root / path).resolve().is_relative_to(root.resolve()):
        raise ConfigError(f"{where}: {path}/ leads out of the project (links followed)")
    return path


def _module_name(value: object, where: str) -> str:
    name = _string(value, where)
    if not _MODULE_NAME.match(name):
        raise ConfigError(f"{where}: {name!r} is not a module name such as 'mylib'")
    return name


def _preload(value: object, where: str) -> tuple[str, ...]:
    names = _strings(value, where)
    for name in names:
        if not _MODULE_NAME.match(name):
            raise ConfigError(f"{where}: {name!r} is not a module name such as 'torch' or 'numpy.linalg'")
        # The top-level package only: finding a submodule would import its package here (seconds).
        package = name.partition(".")[0]
        if importlib.util.find_spec(package) is None:
            raise ConfigError(f"{where}: no module named {package!r} is installed")
    return names


# Keys the engine's environment already holds (`docexec.execution.device`), and the cache key's own.
_RESERVED = {"python", "device", "gpu", "cuda", "schema", "library", "engine", "pins", "seed"}


def _distributions(value: object, where: str) -> tuple[str, ...]:
    """Installed distributions, by name: their releases are read from their metadata, never imported."""
    names = _strings(value, where)
    for name in names:
        if name.lower() in _RESERVED:
            reserved = ", ".join(sorted(_RESERVED))
            raise ConfigError(f"{where}: {name!r} is a name the environment keeps for itself ({reserved})")
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            raise ConfigError(f"{where}: no distribution named {name!r} is installed") from None
    return names


def _library(root: Path, value: object, where: str) -> tuple[Path, ...]:
    paths = _strings(value, where)
    for path in paths:
        if not (root / path).exists():  # a misspelt folder would leave its edits out of every key
            raise ConfigError(f"{where}: {path} does not exist")
    return tuple(root / path for path in paths)


def check_seed(value: object, where: str) -> int:
    # numpy accepts seeds in [0, 2**32); bool is an int to Python but no seed.
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
        raise ConfigError(f"{where}: expected a whole number from 0 to 2**32 - 1, got {value!r}")
    return value


def _timeout(value: object, where: str) -> float:
    limit = declarations.MAX_TIMEOUT
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    if not 0 < number <= limit:  # also false for nan
        raise ConfigError(f"{where}: expected seconds above 0 and at most {limit:g}, got {value!r}")
    return float(number)


def _memory(value: object, where: str) -> int:
    size = declarations.parse_size(value) if isinstance(value, str) else None
    if size is None:
        raise ConfigError(f'{where}: expected a size such as "512M" or "8G", got {value!r}')
    return size


def _device(value: object, where: str) -> str | None:
    if value == "auto":
        return None
    if value not in DEVICES:
        raise ConfigError(f'{where}: expected "auto" or one of {", ".join(DEVICES)}, got {value!r}')
    return value  # type: ignore[return-value]


__all__ = ["Config", "ConfigError", "check_seed", "from_environment", "is_project", "load"]
