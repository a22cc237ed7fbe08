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
