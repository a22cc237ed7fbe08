"""``docexec run``: prints each result and exits non-zero when a snippet fails."""

import re


def docexec(project, *args):
    return project.python("-m", "docexec.hosts.cli", "run", *args, timeout=300)


def test_run_prints_outputs_and_the_summary(project):
    project.snippet("page/a.py", "print('from a')\n")
    project.snippet("page/b.py", "# docexec: cuda\nprint('from b')\n")
    result = docexec(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS snippets/page/a.py" in result.stdout and "    from a" in result.stdout
    assert "SKIP snippets/page/b.py: needs a CUDA device" in result.stdout
    assert result.stdout.rstrip().endswith("1 executed, 0 cached, 1 skipped (CUDA)")


SHOWS_IN_ORDER = """\
# docexec: raises=ValueError
import matplotlib.pyplot as plt

print("before the figure")
plt.plot([1, 2])
plt.title("a line")
plt.show()
print("after it")
raise ValueError("shown last")
"""


def test_outputs_are_printed_in_the_order_the_snippet_made_them(project):
    project.snippet("page/in_order.py", SHOWS_IN_ORDER)
    result = docexec(project)
    assert result.returncode == 0, result.stdout + result.stderr
    body = [line.strip() for line in result.stdout.splitlines() if line.startswith("    ")]
    assert body[0] == "before the figure" and body[2] == "after it"
    assert re.fullmatch(r"\[figure 'a line', \d+x\d+ px\]", body[1]), body
    assert body[3] == "Traceback (most recent call last):" and body[-1] == "ValueError: shown last"


def test_a_failure_names_file_and_line_and_exits_non_zero(project):
    project.snippet("page/ok.py", "print(1)\n")
    project.snippet("page/bad.py", "x = 1\nx.missing\n")
    result = docexec(project, "snippets/page/bad.py")
    assert result.returncode == 1
    assert "FAIL snippets/page/bad.py" in result.stdout
    assert "snippets/page/bad.py:2: AttributeError" in result.stdout
    assert "ok.py" not in result.stdout  # only the given snippet ran


def test_a_bad_declaration_fails_only_its_snippet_naming_file_and_line(project):
    project.snippet("page/a.py", "print('from a')\n")
    project.snippet("page/bad.py", "x = 1\n# docexec: gpu\nprint('must not run')\n")
    project.snippet("page/c.py", "print('from c')\n")
    result = docexec(project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "PASS snippets/page/a.py" in result.stdout and "PASS snippets/page/c.py" in result.stdout
    assert "FAIL snippets/page/bad.py (not run)\n  snippets/page/bad.py:2: unknown declaration 'gpu'" in (
        result.stdout
    )
    assert "must not run" not in result.stdout and result.stderr == ""
    assert result.stdout.rstrip().endswith(
        "2 executed, 0 cached, 0 skipped (CUDA), 1 failed: snippets/page/bad.py"
    )


def test_a_path_given_that_names_no_file_exits_2_with_the_reason(project):
    result = docexec(project, "snippets/page/none.py")
    assert result.returncode == 2 and "snippets/page/none.py: no such snippet" in result.stderr


def test_force_runs_cached_snippets_again(project):
    project.snippet("page/a.py", "print(1)\n")
    docexec(project)
    assert "0 executed, 1 cached" in docexec(project).stdout
    assert "1 executed, 0 cached" in docexec(project, "--force").stdout


def test_a_path_that_holds_no_snippet_is_refused_not_taken_for_all(project):
    project.snippet("page/a.py", "print('from a')\n")
    (project.root / "docs").mkdir()
    (project.root / "snippets" / "empty").mkdir()
    for given in ("docs", "snippets/empty", "pyproject.toml"):
        result = docexec(project, given)
        assert result.returncode == 2, given
        assert f"{given}: holds no snippet" in result.stderr
        assert "from a" not in result.stdout


def test_outside_a_project_it_says_why_without_a_traceback(tmp_path):
    import subprocess
    import sys

    command = [sys.executable, "-m", "docexec.hosts.cli", "run"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "run docexec inside a project" in result.stderr and "Traceback" not in result.stderr


def test_a_syntax_error_is_named_by_file_and_line(project):
    project.snippet("page/broken.py", "x = 1\ny = (\n")
    result = docexec(project, "snippets/page/broken.py")
    assert result.returncode == 1
    assert "snippets/page/broken.py:2: SyntaxError" in result.stdout


def test_control_sequences_of_a_failure_never_reach_the_terminal(project):
    # OSC 52 (write the clipboard), clear the screen, set the window's title.
    project.snippet(
        "page/loud.py", 'raise ValueError("\\x1b]52;c;aGk=\\x07\\x1b[2J\\x1b]0;title\\x07gone")\n'
    )
    result = docexec(project, "snippets/page/loud.py")
    assert result.returncode == 1
    assert "ValueError: gone" in result.stdout
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout
