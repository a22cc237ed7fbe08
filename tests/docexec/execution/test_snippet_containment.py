"""Nothing a snippet starts outlives it, whatever stops the run; what it may use is bounded and
declared; and what it prints reaches the result as written, in order, from any of its processes.

Real snippets in real processes: each test reads what the snippet printed (pids, its environment)
and looks at the processes and folders that are left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from processes import SLEEPS, assert_all_gone, marked

from docexec.execution import process_tree, project_writes
from docexec.execution.declarations import Declarations
from docexec.execution.jobs import Report
from docexec.execution.outputs import Text
from docexec.execution.pool import fork_is_available
from docexec.execution.result import Status, assemble
from docexec.sandbox import read_only_project

DOCEXEC = [sys.executable, "-m", "docexec.hosts.cli"]  # the `docexec` command of this Python

# A grandchild in a session of its own by a double fork and setsid, and a process started with
# start_new_session=True: both leave the snippet's process group. Each carries a mark in its command
# line, by which the test finds it from outside (the PIDs a snippet sees are its namespace's own).
ESCAPES = """
    import os
    import subprocess
    import sys

    SLEEPS = [sys.executable, "-c", "import time; time.sleep(600)", "{mark}"]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(write, str(os.getpid()).encode())
            os.execv(sys.executable, SLEEPS)
        os._exit(0)
    os.waitpid(pid, 0)
    orphan = int(os.read(read, 100))
    session = subprocess.Popen(SLEEPS, start_new_session=True)
    print("started", 2)
    # Adopted by the process that supervises the snippet (the snippet's own in the fallback), or by
    # the first process of its PID namespace, its parent; not init.
    adopter = int(open(f"/proc/{orphan}/stat").read().rsplit(")", 1)[1].split()[1])
    print("the orphan was adopted:", adopter in (os.getpid(), os.getppid()))
"""

MEMORY_HOG = """
    # docexec: memory=300M
    import multiprocessing
    import time

    def hog():
        blocks = []
        while True:
            blocks.append(b"x" * (20 << 20))  # filled, so the pages are really used
            time.sleep(0.02)

    if __name__ == "__main__":
        worker = multiprocessing.get_context("fork").Process(target=hog)  # counted with the snippet
        worker.start()
        worker.join()
"""

ENVIRONMENT = """
    import os
    import tempfile
    from pathlib import Path

    print("token:", os.environ.get("GITHUB_TOKEN"), os.environ.get("ACTIONS_ID_TOKEN_REQUEST_TOKEN"))
    server = Path(f"/proc/{os.getppid()}/environ").read_bytes()
    print("the process above holds it:", b"GITHUB_TOKEN" in server)
    home = Path(os.environ["HOME"])
    print("home is empty and its own:", home.is_dir() and not any(home.iterdir()), home != Path("/root"))
    print("temporary files go:", Path(tempfile.mkstemp()[1]).parent == Path(os.environ["TMPDIR"]))
"""

WRITES_INTO_PROJECT = """
    from pathlib import Path

    readme = Path(__file__).resolve().parents[1] / "README.md"
    with readme.open("a") as file:
        file.write("appended by a snippet\\n")
"""

OUTPUT_FROM_EVERY_PROCESS = """
    import multiprocessing
    import os
    import sys

    def write_to_descriptor():
        os.write(1, b"a forked worker, through file descriptor 1\\n")

    def print_in_new_interpreter():
        print("a spawned interpreter's print")

    if __name__ == "__main__":
        print("before")
        for method, target in (("fork", write_to_descriptor), ("spawn", print_in_new_interpreter)):
            worker = multiprocessing.get_context(method).Process(target=target)
            worker.start()
            worker.join()
        os.system("echo a shell command")
        print("after")
        print(sys.stdout.encoding, sys.stdout.fileno(), sys.stderr.fileno(), sys.stderr.errors)
        sys.stdout.buffer.write(b"bytes through sys.stdout.buffer\\n")
        try:
            input()
        except EOFError:
            print("stdin is empty")
"""

ESCAPE_CODES = """
    import sys

    print("\\x1b[1;31mred\\x1b[0m and plain, a \\x1b]0;window title\\x07bell\\x07 and a \\x00null")
    for percent in (10, 50, 100):
        sys.stderr.write(f"\\r{percent}%")
    sys.stderr.write("\\n")
"""

# Each one runs script in Chromium when opened at full size (tests/browser/test_figures_in_chromium.py).
FORGES_ITS_FIGURES = """
    import base64
    import json

    LINK = '<a xlink:href="&#106;ava&#x73;cript:alert(1)"><rect width="99" height="99"/></a>'
    HOSTILE = [
        LINK,  # javascript: behind character references
        '<script>alert(1)</script>',
        '<rect width="99" height="99" onclick="alert(1)"/>',
        '<foreignObject width="99" height="99"><img xmlns="http://www.w3.org/1999/xhtml" src="x" '
        'onerror="alert(1)"/></foreignObject>',
        '<set attributeName="href" to="javascript:alert(1)"/>',
    ]
    OPEN = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="99" height="99">'
    )
    figures = [OPEN + body + "</svg>" for body in HOSTILE]
    figures.append('<!DOCTYPE svg [<!ENTITY e "&#106;avascript:">]>' + OPEN + '<use href="&e;"/></svg>')
    figures.append('<?xml-stylesheet type="text/xsl" href="#x"?>' + OPEN + "</svg>")
    with open("../events.jsonl", "a") as events:  # the engine's record of this snippet
        for svg in figures:
            data = base64.b64encode(svg.encode()).decode()
            figure = {"format": "svg", "data": data, "width": 99, "height": 99}
            events.write(json.dumps({"event": "figure", "cell": 0, **figure}) + "\\n")
    print("forged", len(figures))
"""

SHOWS_TOO_MANY_FIGURES = """
    import matplotlib.pyplot as plt

    for number in range(25):  # each one shown, so closed: the cap counts all the snippet showed
        plt.figure(figsize=(0.3, 0.3))
        plt.show()
    print("shown", number + 1)
"""

# An "end" of its own in the engine's record, then a crash.
FORGES_ITS_END = """
    import json
    import os
    import signal

    with open("../events.jsonl", "a") as events:
        events.write(json.dumps({"event": "end", "exec_seconds": 0}) + "\\n")
        events.write(json.dumps({"event": "stream", "cell": 0, "name": "<b>", "text": "x"}) + "\\n")
    os.kill(os.getpid(), signal.SIGSEGV)
"""

# Its pattern backtracks for minutes on its own message: searched under the snippet's timeout.
BACKTRACKS_IN_ITS_MATCH = """
    # docexec: raises=ValueError match="(a+)+$" timeout=1
    raise ValueError("a" * 40 + "b")
"""

# print and os.write in turn, far past the head (60,000 characters): 170,000 characters in all.
MIXES_PRINT_AND_DESCRIPTOR_WRITES = """
    import os

    for number in range(1500):
        print(f"print {number:04d} " + "p" * 44)
        os.write(1, f"write {number:04d} ".encode() + b"w" * 44 + b"\\n")
    print("the end")
"""

PRINTS_INVISIBLE_CHARACTERS = """
    print("a right-to-left override \\u202e and a zero-width space \\u200b, shown")
"""

pytestmark = pytest.mark.skipif(not fork_is_available(), reason="the warm servers need fork")
ESCAPES_MARK = f"docexec-escapes-{uuid.uuid4().hex}"


def escapes(mark: str) -> str:
    return ESCAPES.replace("{mark}", mark)


@pytest.fixture(scope="module")
def batch(module_project, tmp_path_factory):
    snippets = {
        "escapes.py": escapes(ESCAPES_MARK),
        "memory_hog.py": MEMORY_HOG,
        "environment.py": ENVIRONMENT,
        "writes_into_project.py": WRITES_INTO_PROJECT,
        "output_from_every_process.py": OUTPUT_FROM_EVERY_PROCESS,
        "escape_codes.py": ESCAPE_CODES,
        "forges_its_figures.py": FORGES_ITS_FIGURES,
        "shows_too_many_figures.py": SHOWS_TOO_MANY_FIGURES,
        "forges_its_end.py": FORGES_ITS_END,
        "backtracks_in_its_match.py": BACKTRACKS_IN_ITS_MATCH,
        "prints_invisible_characters.py": PRINTS_INVISIBLE_CHARACTERS,
        "mixes_print_and_descriptor_writes.py": MIXES_PRINT_AND_DESCRIPTOR_WRITES,
    }
    (module_project.root / "README.md").write_text("# A project\n")
    paths = [module_project.snippet(name, code) for name, code in snippets.items()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GITHUB_TOKEN", "ghp_not_for_snippets")
        patch.setenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "not_for_snippets_either")
        results, _ = module_project.engine(workers=2).execute(paths, progress=False)
    return {path.removeprefix("snippets/"): result for path, result in results.items()}


def test_processes_in_sessions_of_their_own_end_with_the_snippet(batch):
    result = batch["escapes.py"]
    assert result.status == Status.PASSED, result.failure
    assert "the orphan was adopted: True" in result.output
    assert "started 2\n" in result.output  # the start_new_session process and the setsid grandchild
    assert_all_gone(marked(ESCAPES_MARK))


def test_a_memory_hog_is_stopped_and_named_with_its_limit(batch):
    result = batch["memory_hog.py"]
    assert result.status == Status.FAILED
    assert result.failure.startswith("snippets/memory_hog.py: exceeded its memory limit of 300 MiB")
    assert result.peak_memory > 300 << 20


def test_snippets_get_no_secrets_of_the_callers_environment(batch):
    result = batch["environment.py"]
    assert result.status == Status.PASSED, result.failure
    assert result.output == (
        "token: None None\n"
        "the process above holds it: False\n"
        "home is empty and its own: True True\n"
        "temporary files go: True\n"
    )


def test_a_write_into_the_project_fails_the_snippet_and_names_the_file(batch, module_project):
    result = batch["writes_into_project.py"]
    assert result.status == Status.FAILED
    readme = module_project.root / "README.md"
    if read_only_project.available():  # refused by the kernel, at the line that tried
        assert result.failure.startswith(
            f"snippets/writes_into_project.py:4: PermissionError: [Errno 13] Permission denied: '{readme}' "
            "(the project's files are read-only to snippets: write into the working folder)"
        )
        assert readme.read_text() == "# A project\n"
    else:  # found changed when the snippet ended
        assert result.failure.startswith(
            "snippets/writes_into_project.py: created, changed or removed files of the project while it "
            "ran: README.md."
        )


def test_a_file_changed_in_the_project_is_found_by_comparing_snapshots(tmp_path):
    (tmp_path / "kept.md").write_text("same\n")
    (tmp_path / "changed.md").write_text("before\n")
    (tmp_path / ".cache").mkdir()
    before = project_writes.snapshot(tmp_path)
    (tmp_path / "changed.md").write_text("after, longer\n")
    (tmp_path / "created.md").write_text("new\n")
    (tmp_path / ".cache" / "result.json").write_text("{}")  # the engine's own: not looked at
    assert project_writes.changed(before, project_writes.snapshot(tmp_path)) == ["changed.md", "created.md"]


def test_output_of_child_processes_and_descriptors_is_kept_in_order(batch):
    result = batch["output_from_every_process.py"]
    assert result.status == Status.PASSED, result.failure
    assert result.output == (
        "before\n"
        "a forked worker, through file descriptor 1\n"
        "a spawned interpreter's print\n"
        "a shell command\n"
        "after\n"
        "utf-8 1 2 backslashreplace\n"
        "bytes through sys.stdout.buffer\n"
        "stdin is empty\n"
    )
    assert result.duration < 20  # input() did not wait for the timeout


def test_escape_codes_and_control_characters_never_reach_the_output(batch):
    result = batch["escape_codes.py"]
    assert result.status == Status.PASSED, result.failure
    assert result.cells[0].outputs == [
        Text("stdout", "red and plain, a bell and a null\n"),
        Text("stderr", "100%\n"),  # a redrawn line as it was last drawn
    ]


def test_past_the_head_prints_and_descriptor_writes_keep_their_order_to_the_end(batch):
    result = batch["mixes_print_and_descriptor_writes.py"]
    assert result.status == Status.PASSED, result.failure
    last = result.output.splitlines()[-201:]
    expected = [f"{kind} {n:04d} " + kind[0] * 44 for n in range(1400, 1500) for kind in ("print", "write")]
    assert last == [*expected, "the end"]


def test_characters_that_reorder_or_hide_text_are_shown_as_their_escapes(batch):
    result = batch["prints_invisible_characters.py"]
    assert result.output == "a right-to-left override \\u202e and a zero-width space \\u200b, shown\n"


def test_a_figure_that_could_run_script_is_refused_naming_the_snippet(batch):
    result = batch["forges_its_figures.py"]
    assert result.status == Status.FAILED and result.output == "forged 7\n"
    assert result.failure.startswith("snippets/forges_its_figures.py: a figure was refused: ")
    assert result.failure.count("a figure was refused") == 7, result.failure
    for what in (
        "an element <a>",
        "an element <script>",
        "an attribute 'onclick'",
        "<foreignObject>",
        "an element <set>",
        "a DTD with declarations",
        "a processing instruction",
    ):
        assert what in result.failure
    assert result.figures == []


def test_figures_are_capped_in_number_as_text_is(batch):
    result = batch["shows_too_many_figures.py"]
    assert result.status == Status.FAILED and result.output == "shown 25\n"
    assert result.failure == (
        "snippets/shows_too_many_figures.py: it left 25 figures open, more than a page shows (at most 20, "
        "10 MiB in all): close those it does not show with plt.close(figure)"
    )
    assert len(result.figures) == 20


def test_an_end_the_snippet_wrote_itself_does_not_make_a_crash_a_pass(batch):
    result = batch["forges_its_end.py"]
    assert result.status == Status.FAILED
    assert result.failure.startswith("snippets/forges_its_end.py: the process was killed by SIGSEGV")


def test_a_declared_match_is_searched_under_the_snippets_timeout(batch):
    result = batch["backtracks_in_its_match.py"]
    assert result.failure == "snippets/backtracks_in_its_match.py: timed out after 1 s and was killed"


def test_the_subprocess_fallback_contains_a_snippet_the_same_way(project):
    mark = f"docexec-escapes-{uuid.uuid4().hex}"
    escapes_path = project.snippet("escapes.py", escapes(mark))
    crashes = project.snippet(
        "escapes_then_crashes.py", escapes(mark) + "    import ctypes\n    ctypes.string_at(0)\n"
    )
    hog = project.snippet("memory_hog.py", MEMORY_HOG)
    results, _ = project.engine(fork=False, workers=2).execute([escapes_path, crashes, hog], progress=False)
    assert results[escapes_path].status == Status.PASSED, results[escapes_path].failure
    assert "started 2\n" in results[escapes_path].output
    assert "SIGSEGV" in results[crashes].failure
    assert_all_gone(marked(mark))
    assert "exceeded its memory limit of 300 MiB" in results[hog].failure


def test_a_kill_by_the_kernels_out_of_memory_killer_is_named_as_such(tmp_path):
    # The kernel's killer cannot be called on a shared machine: this is the report of such a run.
    report = Report(
        exit_code=-signal.SIGKILL,
        timeout=30.0,
        memory_limit=4 << 30,
        root="/project",
        duration=1.0,
        peak_memory=3 << 30,
        oom_killed=True,
        oom_kills=1,
    )

    failure = assemble("snippets/big.py", tmp_path, report, Declarations(), {}).failure
    assert failure == (
        "snippets/big.py: killed by the kernel's out-of-memory killer: the machine ran out of memory "
        "(its processes used at least 3 GiB)"
    )




@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_stopping_the_command_line_ends_every_process_and_removes_its_folders(project, tmp_path, stop):
    project.snippet("sleeps.py", SLEEPS)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    command = subprocess.Popen(
        [*DOCEXEC, "run", "snippets/sleeps.py", "--workers", "1"],
        cwd=project.root,
        env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a group of its own, as a terminal's foreground job has
    )
    try:
        deadline = time.monotonic() + 60
        while not (started := list(temporary.glob("*/job-0/work/started.txt"))) or not started[0].read_text():
            assert time.monotonic() < deadline and command.poll() is None, "the snippet did not start"
            time.sleep(0.05)
        # The warm server, the snippet and its session, and any process between them.
        below = process_tree.descendants(command.pid)
        assert len(below) >= 3
        os.killpg(command.pid, stop)  # what Ctrl-C does: the whole foreground group gets SIGINT
        command.wait(timeout=20)  # no hang until the snippet ends
    finally:
        if command.poll() is None:
            process_tree.kill_tree(command.pid)
            command.wait()
    assert_all_gone(below)
    # After SIGKILL, by the server that finds its engine gone.
    assert list(temporary.iterdir()) == []
