"""A verdict the reader's code cannot touch: exiting, hanging, printing without end, patching the
checker, reading its frames and Ctrl-C each end the check with a clear message and a failing status,
from the shell (``python -m torchguide.drills check``) and in a notebook's check cell (``check_here``).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import torch

from docexec.execution import process_tree
from torchguide.drills import DrillFailed, check_here, framework

DRILL = "length_bucketing_batches"
ONE_SECOND = "--call-seconds=1"

# Each: the body of bucket_batches(lengths, max_tokens) (and lines before it), what the check says.
FORGERIES = {
    "sys_exit": (
        "import sys\n",
        "    sys.exit(0)\n",
        "raised SystemExit at {path}:{line}: 0: a drill's function returns",
    ),
    "os_exit": (
        "import os\n",
        "    os._exit(0)\n",
        "your bucket_batches ended the process it ran in",
    ),
    "endless_loop": ("", "    while True:\n        pass\n", "your bucket_batches took more than 1 s"),
    "ten_megabytes_of_prints": (
        "",
        "    print('x' * 10_000_000)\n    return [[i] for i in range(len(lengths))]\n",
        "your bucket_batches printed more than 100000 characters",
    ),
    "patched_checker": (
        "import torch.testing\nimport torchguide.drills\nfrom torchguide.drills import framework\n"
        "torch.testing.assert_close = lambda *args, **kwargs: None\n"
        "framework.Report.ok = property(lambda self: True)\n"
        "framework.Report.text = lambda self: 'length_bucketing_batches: 25 cases passed'\n"
        "framework.check = framework.check_with = lambda *args, **kwargs: framework.Report('x', 25, 25)\n"
        "torchguide.drills.check_here = lambda *args: print('25 cases passed')\n",
        "    print('length_bucketing_batches: 25 cases passed')\n    return []\n",
        "your batches [] hold indices []",
    ),
    "frame_reader": (
        "import inspect\n",
        "    frame = inspect.currentframe().f_back\n"
        "    while frame is not None:\n"
        "        if 'expected' in frame.f_locals:\n"
        "            return frame.f_locals['expected']\n"
        "        frame = frame.f_back\n"
        "    return []\n",
        "your batches [] hold indices []",
    ),
}


def forged_file(tmp_path: Path, name: str) -> tuple[Path, str]:
    before, body, said = FORGERIES[name]
    path = tmp_path / f"{name}.py"
    path.write_text(f"{before}\n\ndef bucket_batches(lengths, max_tokens):\n{body}")
    line = path.read_text().splitlines().index(body.splitlines()[0]) + 1
    return path, said.replace("{path}", str(path)).replace("{line}", str(line))


def check_from_the_shell(*arguments: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "torchguide.drills", "check", *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("name", list(FORGERIES))
def test_from_the_shell_each_forgery_fails_with_its_message(tmp_path, name):
    path, said = forged_file(tmp_path, name)
    done = check_from_the_shell(DRILL, str(path), ONE_SECOND)
    assert done.returncode == 1, done.stdout + done.stderr
    assert said in done.stdout, done.stdout[-3000:]
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith(f"{DRILL}: ") and not re.fullmatch(rf"{DRILL}: \d+ cases passed.*", last)
    assert "Traceback" not in done.stdout + done.stderr
    if name == "ten_megabytes_of_prints":  # the reader sees the start of it, not 10 MB
        assert len(done.stdout) < 20_000
    if name == "os_exit":  # the checker's own child: it says how it ended
        assert "ended the process it ran in (exit status 0) before it answered" in done.stdout
    if name == "patched_checker":  # what the function prints cannot pass for the checker's lines
        assert f"| {DRILL}: 25 cases passed" in done.stdout
        assert f"\n{DRILL}: 25 cases passed" not in done.stdout


def test_from_the_shell_ctrl_c_ends_the_check_and_its_runner_with_status_130(tmp_path):
    path = tmp_path / "hangs.py"
    path.write_text(
        "import os\n\ndef bucket_batches(lengths, max_tokens):\n"
        "    print('runner', os.getpid(), flush=True)\n    while True:\n        pass\n"
    )
    checker = subprocess.Popen(
        [sys.executable, "-m", "torchguide.drills", "check", DRILL, str(path), "--call-seconds=60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = checker.stdout.readline()  # "| runner PID": the function is running
    assert line.split()[-2:-1] == ["runner"], line
    # The runner's processes, as this machine numbers them (the PID it printed is its namespace's).
    runner = process_tree.descendants(checker.pid)
    assert runner
    checker.send_signal(signal.SIGINT)
    out, err = checker.communicate(timeout=30)
    assert checker.returncode == 130
    assert err.strip() == "interrupted (Ctrl-C): the check stopped before its verdict"
    assert "Traceback" not in out + err
    deadline = time.monotonic() + 10  # SIGKILL is sent: the kernel ends them right after
    while not all(_ended(pid) for pid in runner) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in runner if not _ended(pid)] == []


def _ended(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except OSError:
        return True


def _load(path: Path):
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102  as a notebook cell runs
    return namespace["bucket_batches"]


@pytest.mark.parametrize("name", ["sys_exit", "os_exit", "patched_checker", "frame_reader"])
def test_in_a_notebook_check_cell_each_forgery_fails_with_its_message(tmp_path, name, monkeypatch):
    path, said = forged_file(tmp_path, name)
    # The cell's top-level lines run in the kernel, which check_here runs in: undone after the test.
    for module, attribute in (
        (torch.testing, "assert_close"),
        (framework.Report, "ok"),
        (framework.Report, "text"),
        (framework, "check"),
        (framework, "check_with"),
    ):
        monkeypatch.setattr(module, attribute, getattr(module, attribute))
    function = _load(path)
    with pytest.raises(DrillFailed) as failed:
        check_here(DRILL, function)
    assert said in str(failed.value)
    assert not re.fullmatch(rf"{DRILL}: \d+ cases passed.*", str(failed.value).strip().splitlines()[-1])


def test_in_a_notebook_check_cell_an_endless_loop_and_endless_prints_fail(tmp_path):
    path, said = forged_file(tmp_path, "ten_megabytes_of_prints")
    with pytest.raises(DrillFailed, match="printed more than 100000 characters"):
        check_here(DRILL, _load(path))
    path, said = forged_file(tmp_path, "endless_loop")
    with pytest.raises(DrillFailed, match="took more than 1 s"):
        check_here(DRILL, _load(path), call_seconds=1)


def test_in_a_notebook_an_interrupted_kernel_ends_the_check_with_a_failure(tmp_path):
    path, _ = forged_file(tmp_path, "endless_loop")
    function = _load(path)
    started = time.monotonic()
    timer = threading.Timer(4.0, os.kill, (os.getpid(), signal.SIGINT))  # the kernel's Interrupt
    timer.start()
    try:
        with pytest.raises(DrillFailed, match="interrupted, the check stopped before its verdict"):
            check_here(DRILL, function, call_seconds=60)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 30
