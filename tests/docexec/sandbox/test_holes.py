"""Attacks on the sandbox that went around it once, each tried by a real snippet: trace or rob the
PID namespace's first process of its descriptors, hold memory where no process maps it, hide the
bytes written behind a hundred thousand files, change the source under a running snippet, write
to the machine's settings from a GPU job, read the credentials in the build user's home."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from docexec.execution.result import Status
from docexec.sandbox import restrictions


def needs(restriction: str) -> None:
    if restriction in restrictions.unenforced():
        pytest.skip(f"this machine does not enforce: {restriction}")


TRACES_FIRST_PROCESS = """
    import ctypes
    import os

    libc = ctypes.CDLL(None, use_errno=True)
    PTRACE_ATTACH, PTRACE_DETACH, PIDFD_GETFD, WALL = 16, 17, 438, 0x40000000
    if libc.ptrace(PTRACE_ATTACH, 1, 0, 0) == 0:
        os.waitpid(1, WALL)
        libc.ptrace(PTRACE_DETACH, 1, 0, 0)
        print("attached")
    else:
        print("attach refused:", os.strerror(ctypes.get_errno()))
    pidfd = os.pidfd_open(1)
    taken = refused = 0
    for fd in range(64):
        got = libc.syscall(PIDFD_GETFD, pidfd, fd, 0)
        if got >= 0:
            taken += 1
            os.close(got)
        elif ctypes.get_errno() != 9:  # EBADF: no such descriptor there
            refused += 1
    print("descriptors taken:", taken, "refused:", refused > 0)
    opened = []
    for name in os.listdir("/proc/1/fd"):
        try:
            os.close(os.open(f"/proc/1/fd/{name}", os.O_RDONLY | os.O_NONBLOCK))
            opened.append(name)
        except OSError as error:
            opened.append(type(error).__name__)
    print("its descriptors opened through /proc:", sorted(set(opened)))
    print("own stdin:", os.readlink("/proc/self/fd/0"))
"""

# Takes every pipe the first process holds and writes "exited 0" into each, forges the end of its
# record (which it may: only a process that exited 0 is believed), then crashes.
FORGES_ITS_STATUS = """
    import ctypes
    import os
    import signal
    import stat
    import struct

    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(1)
    for fd in range(64):
        got = libc.syscall(438, pidfd, fd, 0)
        if got >= 0 and stat.S_ISFIFO(os.fstat(got).st_mode):
            try:
                os.write(got, struct.pack("i", 0))
                print("wrote to a pipe of the first process", flush=True)
            except OSError:
                pass
    with open("../events.jsonl", "a") as record:
        record.write('{"event": "end", "exec_seconds": 0.1}\\n')
    os.kill(os.getpid(), signal.SIGSEGV)
"""


@pytest.fixture(scope="module", params=[True, False], ids=["forked", "subprocess"])
def holes(request, module_project):
    snippets = {
        "traces_first_process.py": TRACES_FIRST_PROCESS,
        "forges_its_status.py": FORGES_ITS_STATUS,
    }
    paths = [module_project.snippet(name, code) for name, code in snippets.items()]
    engine = module_project.engine(workers=2, fork=request.param, cache_dir=module_project.root / f".cache-{request.param}")
    results, _ = engine.execute(paths, progress=False)
    return {path.removeprefix("snippets/"): result for path, result in results.items()}


def test_the_first_process_can_be_neither_traced_nor_robbed_of_its_descriptors(holes):
    needs(restrictions.PROCESSES)
    result = holes["traces_first_process.py"]
    print(result.output)
    assert result.status == Status.PASSED, result.failure
    assert result.output.splitlines() == [
        "attach refused: Operation not permitted",
        "descriptors taken: 0 refused: True",
        "its descriptors opened through /proc: ['PermissionError']",
        "own stdin: /dev/null",
    ]


def test_a_snippet_cannot_report_its_own_crash_as_a_success(holes):
    result = holes["forges_its_status.py"]
    assert result.status == Status.FAILED
    assert result.output == ""
    assert "SIGSEGV" in result.failure, result.failure


# Waits until its file on disk changes, then has a spawned worker (which runs the main module
# anew) report which text it ran.
SPAWNS_AFTER_AN_EDIT = """
    import multiprocessing
    import time
    from pathlib import Path

    MARK = "as keyed"


    def mark(_):
        return MARK


    if __name__ == "__main__":
        on_disk = Path(__file__)
        first = on_disk.read_bytes()
        deadline = time.monotonic() + 30
        while on_disk.read_bytes() == first and time.monotonic() < deadline:
            time.sleep(0.05)
        print("edited meanwhile:", on_disk.read_bytes() != first)
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            print("the worker ran:", pool.map(mark, [0])[0])
"""


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "subprocess"])
def test_a_spawned_worker_runs_the_source_that_was_keyed_not_the_file_edited_since(project, fork):
    path = project.snippet("spawns.py", SPAWNS_AFTER_AN_EDIT)
    on_disk = project.root / path
    edited = threading.Timer(2.0, lambda: on_disk.write_text(on_disk.read_text().replace("as keyed", "as edited")))
    edited.start()
    try:
        results, _ = project.engine(fork=fork).execute([path], progress=False)
    finally:
        edited.join()
    result = results[path]
    assert result.status == Status.PASSED, result.failure
    assert result.output == "edited meanwhile: True\nthe worker ran: as keyed\n"
