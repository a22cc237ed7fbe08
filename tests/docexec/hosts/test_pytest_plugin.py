"""Every snippet is a test: its failure names file and line and shows what it printed, a CUDA
snippet skips with its reason on a machine without one, and a passing one passes."""

from __future__ import annotations


def test_each_snippet_is_a_test_whose_failure_shows_its_line_and_its_output(project):
    project.snippet("page/passes.py", "print('fine')\n")
    project.snippet("page/gpu.py", "# docexec: cuda\nprint('on a GPU')\n")
    project.snippet(
        "page/fails.py",
        "import sys\nprint('computed 41')\nprint('a worker aborted', file=sys.stderr)\nassert 41 == 42\n",
    )
    (project.root / "conftest.py").write_text('pytest_plugins = ["docexec.hosts.pytest_plugin"]\n')
    run = project.python("-m", "pytest", "-p", "no:cacheprovider", "-rs", "snippets")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed, 1 skipped" in run.stdout
    assert "snippets/page/fails.py:4: AssertionError" in run.stdout
    section = run.stdout.split("Captured snippet output call")[1]
    assert "computed 41\na worker aborted\n" in section  # in the order printed, stderr too
    assert "needs a CUDA device" in run.stdout


def test_a_bad_declaration_fails_only_its_own_test_naming_file_and_line(project):
    project.snippet("page/first.py", "print('first')\n")
    project.snippet("page/bad.py", "x = 1\n# docexec: timeot=5\nprint('must not run')\n")
    project.snippet("page/last.py", "print('last')\n")
    (project.root / "conftest.py").write_text('pytest_plugins = ["docexec.hosts.pytest_plugin"]\n')
    run = project.python("-m", "pytest", "-p", "no:cacheprovider", "-rA", "snippets")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 2 passed" in run.stdout
    assert "snippets/page/bad.py:2: unknown declaration 'timeot'" in run.stdout
    assert "PASSED snippets/page/first.py" in run.stdout and "PASSED snippets/page/last.py" in run.stdout
    assert "docexec: 2 executed, 0 cached, 0 skipped (CUDA), 1 failed: snippets/page/bad.py" in run.stdout
    assert "must not run" not in run.stdout and "Traceback" not in run.stdout


# Written only by a process that has pytest loaded: a snippet's sandboxed run never has.
MARKS_AN_IMPORT_BY_PYTEST = """\
import sys
if "_pytest" in sys.modules:
    with open({marker!r}, "a") as marks:
        marks.write(__file__ + "\\n")
print("ran")
"""


def test_pytest_never_imports_a_snippet_named_like_a_test_or_given_as_an_argument(project):
    marker = project.root.parent / "imported-by-pytest"
    code = MARKS_AN_IMPORT_BY_PYTEST.format(marker=str(marker))
    snippets = [
        project.snippet(name, code)
        for name in ("page/test_named_like_a_test.py", "page/given_as_an_argument.py", "page/__init__.py")
    ]
    (project.root / "conftest.py").write_text('pytest_plugins = ["docexec.hosts.pytest_plugin"]\n')
    for targets in (["snippets"], snippets):  # a plain `pytest`; `make quick` names the files
        run = project.python("-m", "pytest", "-p", "no:cacheprovider", *targets)
        imported = marker.read_text() if marker.exists() else ""
        assert imported == "", f"pytest {' '.join(targets)}: pytest's own process imported {imported}"
        assert run.returncode == 0, run.stdout + run.stderr
        assert "3 passed" in run.stdout  # each one a snippet's test, run by the engine only


def test_a_conftest_among_the_snippets_is_refused_never_imported(project):
    marker = project.root.parent / "imported-by-pytest"
    project.snippet("page/conftest.py", MARKS_AN_IMPORT_BY_PYTEST.format(marker=str(marker)))
    project.snippet("page/plain_snippet.py", "print('fine')\n")
    (project.root / "conftest.py").write_text('pytest_plugins = ["docexec.hosts.pytest_plugin"]\n')
    for target in ("snippets", "snippets/page/plain_snippet.py"):
        run = project.python("-m", "pytest", "-p", "no:cacheprovider", target)
        assert not marker.exists(), f"pytest {target} imported {marker.read_text()}"
        assert run.returncode != 0, run.stdout + run.stderr
        assert "snippets/page/conftest.py" in run.stdout + run.stderr
        assert "is a snippet: pytest's process does not import it" in run.stdout + run.stderr
