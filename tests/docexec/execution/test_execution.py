"""The engine with real processes: what a snippet can do to its process, and what gets recorded.

The snippets of one behaviour each are run together in one batch (as a build would run them) and
each test looks at its own result.
"""

from __future__ import annotations

import importlib.util

import pytest

from docexec.execution.outputs import Text
from docexec.execution.result import Reason, Result, Status
from docexec.sandbox.capture import HEAD_CHARS, MAX_OUTPUT_CHARS, TAIL_CHARS

BEHAVIOURS = {
    "ordered.py": """
        import sys
        print("one")
        print("two", file=sys.stderr)
        print("three")
    """,
    "hang.py": """
        # docexec: timeout=1
        import time
        print("started")
        time.sleep(60)
    """,
    "segfault.py": """
        import ctypes
        print("before the crash")
        ctypes.string_at(0)
    """,
    "os_exit.py": """
        import os
        print("leaving")
        os._exit(3)
    """,
    "sys_exit.py": """
        import sys
        sys.exit(0)
    """,
    "huge_output.py": """
        print("x" * 10_000_000)
    """,
    "past_the_head_in_order.py": """
        import os
        import subprocess
        import sys

        print("x" * 70_000)  # past the head: stdout is now written in blocks
        print("before the child")
        subprocess.run([sys.executable, "-c", "print('a child process')"], check=True)
        print("before stderr")
        print("to stderr", file=sys.stderr)
        print("before the shell")
        os.system("echo a shell command")
        print("the end")
    """,
    "unexpected_error.py": """
        import torch
        def helper():
            return torch.ones(2, 3).view(4)
        helper()
    """,
    "expected_error.py": """
        # docexec: raises=RuntimeError match="shape '\\[4\\]' is invalid"
        import torch
        torch.ones(2, 3).view(4)
    """,
    "expected_error_missing.py": """
        # docexec: raises=ValueError
        print("nothing goes wrong")
    """,
    "expected_error_other_type.py": """
        # docexec: raises=ValueError
        raise KeyError("k")
    """,
    "expected_error_other_message.py": """
        # docexec: raises=RuntimeError match="^exactly this$"
        raise RuntimeError("something else")
    """,
    "expected_error_subclass.py": """
        # docexec: raises=LookupError
        {}["missing"]
    """,
    "figure.py": """
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.plot([0, 1], [1, 0])
        ax.set_title("A line", fontsize=9)
        plt.show()
        fig2, ax2 = plt.subplots(figsize=(2, 1))
        ax2.imshow([[0, 1], [1, 0]])
        fig3, ax3 = plt.subplots(figsize=(2, 1))
    """,
    "dense_figure.py": """
        import matplotlib.pyplot as plt
        plt.figure(figsize=(3, 2))
        plt.plot(range(20_000), "o", markersize=1)
    """,
    "writes_file.py": """
        import os
        from pathlib import Path
        assert os.listdir(".") == [], os.listdir(".")
        Path("scratch.txt").write_text("left behind")
        print("cwd is empty and writable")
    """,
    "leaks_global_state.py": """
        import torch
        torch.set_default_dtype(torch.float64)
        print(torch.get_default_dtype())
    """,
    "sees_clean_state.py": """
        import random
        import torch
        assert torch.get_default_dtype() == torch.float32
        print(random.random(), torch.rand(1).item())
    """,
    "needs_cuda.py": """
        # docexec: cuda
        import torch
        print(torch.cuda.get_device_name())
    """,
}


@pytest.fixture(scope="module")
def batch(module_project):
    project = module_project
    paths = [project.snippet(name, code) for name, code in BEHAVIOURS.items()]
    # torch preloaded where it is installed, as the site's own build does: four of these snippets
    # import it (their tests are marked ``torch``).
    preload = ("torch",) if importlib.util.find_spec("torch") else ()
    results, summary = project.engine(preload=preload).execute(paths, progress=False)
    return {path.removeprefix("snippets/"): result for path, result in results.items()}, summary


def test_stdout_and_stderr_are_recorded_in_order(batch):
    result = batch[0]["ordered.py"]
    assert result.status == Status.PASSED and result.reason is None
    assert result.cells[0].outputs == [
        Text("stdout", "one\n"),
        Text("stderr", "two\n"),
        Text("stdout", "three\n"),
    ]


def test_a_hang_is_killed_at_the_timeout(batch):
    result = batch[0]["hang.py"]
    assert result.status == Status.FAILED and result.reason is Reason.TIMED_OUT
    assert "timed out after 1 s" in result.failure
    assert result.output == "started\n"  # what came before the hang is kept
    assert result.duration < 10


def test_a_segfault_is_a_failure_that_names_the_signal(batch):
    result = batch[0]["segfault.py"]
    assert result.status == Status.FAILED and result.reason is Reason.CRASHED
    assert "SIGSEGV" in result.failure
    assert result.output == "before the crash\n"


def test_os_exit_is_a_failure_with_its_status(batch):
    result = batch[0]["os_exit.py"]
    assert result.status == Status.FAILED and result.reason is Reason.CRASHED
    assert "exited with status 3" in result.failure
    assert result.output == "leaving\n"


def test_sys_exit_is_a_failure(batch):
    result = batch[0]["sys_exit.py"]
    assert result.status == Status.FAILED and result.reason is Reason.RAISED
    assert result.failure.startswith("snippets/sys_exit.py:2: SystemExit")


def test_huge_output_keeps_head_and_tail_with_a_note_on_its_own_line_between(batch):
    result = batch[0]["huge_output.py"]
    assert result.status == Status.PASSED
    assert result.dropped_chars == 10_000_001 - MAX_OUTPUT_CHARS
    head, note, tail = result.output.split("\n")[:3]
    assert note == "[output truncated: 9,900,001 characters not shown]"
    assert head == "x" * HEAD_CHARS  # the note is not glued to the half-printed line
    assert tail == "x" * (TAIL_CHARS - 1)  # the last characters, up to the end of the line
    assert result.output.endswith("x\n")


def test_past_the_head_python_output_keeps_its_place_among_other_processes_and_stderr(batch):
    result = batch[0]["past_the_head_in_order.py"]
    assert result.status == Status.PASSED, result.failure
    assert result.dropped_chars == 0 and result.output.startswith("x" * 70_000 + "\n")  # all of it fits
    assert result.output.endswith(
        "before the child\na child process\nbefore stderr\nto stderr\n"
        "before the shell\na shell command\nthe end\n"
    )
    *_, before_stderr, stderr, after_stderr = result.cells[0].outputs
    assert before_stderr.stream == "stdout"
    assert before_stderr.text.endswith("a child process\nbefore stderr\n")
    assert stderr == Text("stderr", "to stderr\n")
    assert after_stderr == Text("stdout", "before the shell\na shell command\nthe end\n")


@pytest.mark.torch
def test_an_unexpected_error_names_the_snippet_line_and_keeps_only_its_frames(batch):
    result = batch[0]["unexpected_error.py"]
    assert result.status == Status.FAILED and result.reason is Reason.RAISED
    assert result.failure.startswith("snippets/unexpected_error.py:3: RuntimeError: shape '[4]' is invalid")
    traceback = result.exception.traceback
    assert 'File "snippets/unexpected_error.py", line 4, in <module>' in traceback
    assert 'File "snippets/unexpected_error.py", line 3, in helper' in traceback
    assert "torch/" not in traceback and "docexec" not in traceback


@pytest.mark.torch
def test_an_expected_error_passes_and_keeps_its_traceback(batch):
    result = batch[0]["expected_error.py"]
    assert result.status == Status.PASSED and result.expected_exception
    assert result.exception.type == "RuntimeError"
    assert "torch.ones(2, 3).view(4)" in result.exception.traceback


@pytest.mark.parametrize(
    ("snippet", "reason"),
    [
        ("expected_error_missing.py", "expected ValueError, but the snippet finished without raising"),
        ("expected_error_other_type.py", "expected ValueError, but it raised KeyError"),
        ("expected_error_other_message.py", "does not match '^exactly this$'"),
    ],
)
def test_an_expected_error_that_does_not_come_as_declared_fails(batch, snippet, reason):
    result = batch[0][snippet]
    assert result.status == Status.FAILED and result.reason is Reason.RAISED
    assert reason in result.failure


def test_a_subclass_of_the_expected_error_passes(batch):
    result = batch[0]["expected_error_subclass.py"]
    assert result.status == Status.PASSED and result.exception.type == "KeyError"


def test_shown_and_open_figures_are_captured_as_svg_with_what_describes_them(batch):
    result = batch[0]["figure.py"]
    assert result.status == Status.PASSED
    line, image, empty = result.figures
    assert all(f.format == "svg" and f.bytes.startswith(b"<?xml") for f in result.figures)
    assert b"<dc:date>" not in line.bytes  # no date: the same figure gives the same bytes
    assert (line.title, line.marks, line.colormapped) == ("A line", 1, False)
    assert line.smallest_font_px == pytest.approx(9 * 96 / 72, abs=0.1)
    # CSS px at 96 per inch, trimmed to what is drawn (3 x 2 inches: 288 x 192 before trimming)
    assert 240 < line.width < 300 and 160 < line.height < 230
    assert image.colormapped and image.marks == 1
    assert empty.marks == 0  # what the figure tests catch


def test_a_figure_is_the_same_bytes_on_every_run(module_project, batch):
    again, _ = module_project.engine(force=True).execute(["snippets/figure.py"], progress=False)
    assert [f.data for f in again["snippets/figure.py"].figures] == [
        f.data for f in batch[0]["figure.py"].figures
    ]


def test_a_figure_too_dense_for_svg_is_a_png_at_twice_its_displayed_size(batch):
    (figure,) = batch[0]["dense_figure.py"].figures
    assert figure.format == "png" and figure.bytes.startswith(b"\x89PNG")
    pixel_width = int.from_bytes(figure.bytes[16:20], "big")
    assert pixel_width == pytest.approx(2 * figure.width, abs=2)


def test_each_snippet_runs_in_a_fresh_empty_folder(batch):
    assert batch[0]["writes_file.py"].status == Status.PASSED


@pytest.mark.torch
def test_global_state_does_not_leak_between_snippets(batch):
    assert batch[0]["leaks_global_state.py"].output == "torch.float64\n"
    assert batch[0]["sees_clean_state.py"].status == Status.PASSED


def test_cuda_snippets_are_skipped_with_a_reason_without_a_gpu(batch):
    result = batch[0]["needs_cuda.py"]
    assert result.status == Status.SKIPPED and result.reason is Reason.NEEDS_GPU
    assert "CUDA" in result.failure


@pytest.mark.torch
def test_the_summary_counts_every_kind(batch):
    results, summary = batch
    failed = {r.path for r in results.values() if r.status == Status.FAILED}
    assert summary.executed == len(BEHAVIOURS) - 1
    assert summary.skipped == 1 and summary.cached == 0
    assert {r.path for r in summary.failures} == failed
    assert summary.line().startswith(
        f"{len(BEHAVIOURS) - 1} executed, 0 cached, 1 skipped (CUDA), {len(failed)} failed"
    )


@pytest.mark.torch
def test_randomness_is_seeded_the_same_in_every_run(project):
    path = project.snippet("draws.py", BEHAVIOURS["sees_clean_state.py"])
    first = project.engine().execute([path], progress=False)[0][path].output
    second = project.engine(force=True).execute([path], progress=False)[0][path].output
    assert first == second


def test_the_subprocess_fallback_runs_and_kills_the_same_way(project):
    ok = project.snippet("ordered.py", BEHAVIOURS["ordered.py"])
    hang = project.snippet("hang.py", BEHAVIOURS["hang.py"])
    results, _ = project.engine(fork=False).execute([ok, hang], progress=False)
    assert results[ok].output == "one\ntwo\nthree\n"
    assert "timed out" in results[hang].failure


END_AFTER_TEN_MEGABYTES = """
    import os
    import subprocess
    import sys

    for _ in range(100):  # 10 MB on file descriptor 1, past the engine's own recording
        os.write(1, b"x" * 99_999 + b"\\n")
    subprocess.run([sys.executable, "-c", "print('a child wrote this late')"], check=True)
    print("the true end")
"""


def test_the_true_end_is_shown_after_ten_megabytes_from_any_process(project):
    path = project.snippet("ten_megabytes.py", END_AFTER_TEN_MEGABYTES)
    results, _ = project.engine().execute([path], progress=False)
    result = results[path]
    assert result.status == Status.PASSED, result.failure
    assert result.output.endswith("a child wrote this late\nthe true end\n")
    assert "[output truncated: " in result.output and len(result.output) <= MAX_OUTPUT_CHARS + 100


def test_a_result_that_did_not_pass_always_says_why_and_a_pass_never_does():
    with pytest.raises(ValueError, match="only a pass has none"):
        Result("snippets/x.py", Status.FAILED, failure="snippets/x.py: no reason given")
    with pytest.raises(ValueError, match="only a pass has none"):
        Result("snippets/x.py", Status.PASSED, Reason.RAISED)
    read_back = Result.from_json(Result("snippets/x.py", Status.FAILED, Reason.TIMED_OUT).to_json())
    assert read_back.status is Status.FAILED and read_back.reason is Reason.TIMED_OUT
