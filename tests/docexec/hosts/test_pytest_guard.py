"""pytest never imports a snippet in its own process, whatever configuration it found: a
``pytest.ini`` or ``pyproject.toml`` among the snippets, ``--rootdir`` or ``-c`` that move the root,
or options that leave the engine's plugin out. The engine's guard (its ``pytest11`` entry point)
refuses such a run before any ``conftest.py`` loads, naming why, or loads the plugin itself."""

from __future__ import annotations

import importlib.metadata

import pytest

# Written only by a process that has pytest loaded: a snippet's sandboxed run never has.
MARKS_AN_IMPORT_BY_PYTEST = """\
import sys
if "_pytest" in sys.modules:
    with open({marker!r}, "a") as marks:
        marks.write(__file__ + "\\n")
print("ran")
"""
SNIPPET = "snippets/page/test_named_like_a_test.py"


@pytest.fixture
def site(project):
    """A project whose own configuration loads the engine's plugin, with a snippet named like a test."""
    with (project.root / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write('\n[tool.pytest.ini_options]\naddopts = "-p docexec.hosts.pytest_plugin"\n')
    project.marker = project.root.parent / "imported-by-pytest"
    code = MARKS_AN_IMPORT_BY_PYTEST.format(marker=str(project.marker))
    project.snippet("page/test_named_like_a_test.py", code)
    return project


def test_the_guard_is_loaded_wherever_the_engine_is_installed():
    points = importlib.metadata.entry_points(group="pytest11")
    assert "docexec.hosts.pytest_guard" in [point.value for point in points]


NESTED = "(configured by {root}/snippets/{ini}), not the project {root}"
AMONG = "snippets/{ini}: pytest configuration among the snippets of {root}"


@pytest.mark.parametrize(
    ("configuration", "args", "said"),
    [
        ("pytest.ini", [SNIPPET], NESTED),
        ("page/pytest.ini", ["snippets"], AMONG),  # the project's root is pytest's: the file is named
        ("pyproject.toml", [SNIPPET], NESTED),
        (None, ["--rootdir", "snippets", SNIPPET], "pytest's root is {root}/snippets (configured by"),
        (None, ["-c", "/dev/null", SNIPPET], "root is {root}/snippets/page (configured by /dev/null)"),
        ("pytest.ini", [], AMONG),
    ],
    ids=["nested-ini", "ini-in-a-subfolder", "made-up-project", "rootdir", "config-file", "plain-pytest"],
)
def test_a_run_configured_away_from_the_project_is_refused_naming_why(site, configuration, args, said):
    if configuration:  # a project of its own, or options that would skip a root conftest.py
        made_up = "[tool.docexec]\nsnippets = 'other'\n[tool.pytest.ini_options]\n"
        ini = "[pytest]\naddopts = --noconftest\n"
        (site.root / "snippets" / configuration).write_text(made_up if "toml" in configuration else ini)
    run = site.python("-m", "pytest", "-p", "no:cacheprovider", *args)
    imported = site.marker.read_text() if site.marker.exists() else ""
    assert imported == "", f"pytest {' '.join(args)}: pytest's own process imported {imported}"
    assert run.returncode == 4, run.stdout + run.stderr
    said = said.format(root=site.root.resolve(), ini=configuration)
    assert "docexec: refused: " in run.stderr and said in run.stderr


@pytest.mark.parametrize(
    "args",
    [["-c", "/dev/null", "--rootdir", "."], ["-o", "addopts="]],
    ids=["config-file-at-the-root", "options-cleared"],
)
def test_a_run_from_the_projects_root_without_its_plugin_gets_it(site, args):
    run = site.python("-m", "pytest", "-p", "no:cacheprovider", *args, SNIPPET)
    assert not site.marker.exists(), site.marker.read_text()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout and "docexec: 1 executed" in run.stdout  # run by the engine
