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
