"""pytest's guard of the snippets folders, loaded wherever the engine is installed (its ``pytest11``
entry point), whatever configuration pytest found.

A project loads the engine's pytest plugin from its own configuration (``-p
docexec.hosts.pytest_plugin`` in its addopts), which keeps pytest's own process from importing a
snippet. A run that names a snippets folder or a file in it can be configured otherwise: a
``pytest.ini`` among the snippets is found before the project's, and ``-c`` or ``--rootdir`` move
the root; a ``conftest.py`` at the project's root is not loaded under a nested ``pytest.ini``
either. So before any ``conftest.py`` is loaded, a run that reaches into a project's snippets
folder is refused, naming why, unless pytest's root is that project's and no pytest configuration
lies among its snippets; and the engine's plugin is loaded where the configuration left it out.

Not covered: a run that blocks this plugin by name (``-p no:docexec``), and a run started above a
project's root, which reaches its snippets only as it collects folders.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docexec import config as configuration

SITE_PLUGIN = "docexec.hosts.pytest_plugin"
# What configures pytest for the folder it sits in (a conftest.py is refused as it is imported).
PYTEST_CONFIGURATION = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


def _paths(config: pytest.Config) -> list[Path]:
    """The files and folders this run was given (the folder it started in, without any)."""
    start = config.invocation_params.dir
    given = [start / str(arg).split("::")[0] for arg in config.known_args_namespace.file_or_dir or []]
    return [Path(os.path.abspath(path)) for path in given if path.exists()] or [Path(os.path.abspath(start))]


def _projects_around(path: Path) -> list[tuple[Path, Path]]:
    """(root, snippets folder) of every project at or above ``path``: the nearest alone could be
    one that a file among another's snippets makes up."""
    found = []
    for folder in [path, *path.parents]:
        if (folder / configuration.PYPROJECT).is_file() and configuration.is_project(folder):
            try:
                snippets = configuration.from_environment(folder).snippets
            except configuration.ConfigError:  # the engine's plugin says why, with its line
                snippets = configuration.Config.snippets
            found.append((folder.resolve(), (folder / snippets).resolve()))
    return found


def _reached(config: pytest.Config) -> list[tuple[Path, Path, Path]]:
    """(path given, project root, its snippets folder) for each snippets folder a path is in or holds."""
    reached = []
    for path in _paths(config):
        real = path.resolve()
        for root, snippets in _projects_around(path):
            if real.is_relative_to(snippets) or snippets.is_relative_to(real):
                reached.append((path, root, snippets))
    return reached


def _configuration_among(snippets: Path) -> list[Path]:
    found = (Path(here) / name for here, _, files in os.walk(snippets) for name in files)
    return sorted(path for path in found if path.name in PYTEST_CONFIGURATION)


def refusal(config: pytest.Config) -> str | None:
    """Why pytest may not run as configured, or None."""
    rootpath = Path(config.rootpath).resolve()
    for path, root, snippets in _reached(config):
        if rootpath != root:
            configured = f" (configured by {config.inipath})" if config.inipath else ""
            shown = os.path.relpath(path, config.invocation_params.dir)
            return (
                f"pytest's root is {rootpath}{configured}, not the project {root} whose snippets "
                f"{shown} reaches: its snippets run only through the engine, from the project's root"
            )
        if among := _configuration_among(snippets):
            named = ", ".join(os.path.relpath(file, root) for file in among)
            return f"{named}: pytest configuration among the snippets of {root} (it would set up their run)"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Before pytest loads any ``conftest.py``, the first of which may be among the snippets."""
    why = refusal(early_config)
    if why is not None:
        raise pytest.UsageError(f"docexec: refused: {why}")
    plugins = early_config.pluginmanager
    if _reached(early_config) and not plugins.has_plugin(SITE_PLUGIN):
        plugins.import_plugin(SITE_PLUGIN)  # left out by the configuration found (-c, -o addopts=)
        if not plugins.has_plugin(SITE_PLUGIN):
            raise pytest.UsageError(f"docexec: refused: the engine's pytest plugin {SITE_PLUGIN} is blocked")
