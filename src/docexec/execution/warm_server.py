"""A warm process that has already imported the project's ``preload`` modules (torch) and forks
one child per snippet.

Importing torch takes seconds; a fork of a process that holds it takes milliseconds.
Protocol: the modules to preload as arguments; one JSON `docexec.execution.jobs.Job` per line on stdin,
one JSON `docexec.execution.jobs.Report` per line on the original stdout.

The server is a child subreaper: whatever a snippet starts, even in a session of its own, stays
below the server and is killed when the snippet ends. When its input closes while a snippet runs
(whoever asked for the job is gone) or it gets SIGTERM, it kills the snippet's processes and exits.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import TextIO

from docexec.execution import process_tree, project_writes
from docexec.execution.jobs import Job, Report
from docexec.execution.supervisor import Watched, supervise
from docexec.sandbox.capture import output_pipes
from docexec.sandbox.child import execute_snippet

CHILD_CRASHED = 70  # the engine's own code failed inside the child (not the snippet)


def warm_up(modules: list[str]) -> None:
    """Import what nearly every snippet imports (the project's ``preload``), before any fork."""
    os.environ.setdefault("MPLBACKEND", "Agg")  # before matplotlib, where it is preloaded
    for name in modules:
        importlib.import_module(name)


def fork_and_supervise(job: Job, parent_gone_fd: int | None = None, protocol_fd: int | None = None) -> Report:
    """Fork, run the job in the child, watch it (time, memory, output), then end all it started.

    ``protocol_fd``: where the server writes its reports, closed in the child: a process the
    snippet leaves behind must not hold the engine's pipe open (the engine would wait for its end)."""
    start = time.perf_counter()
    before = project_writes.snapshot_unless_read_only(Path(job.root))
    pipes = output_pipes()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.setpgid(0, 0)
            process_tree.die_with_parent()
            if protocol_fd is not None:
                os.close(protocol_fd)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            for name, fd in (("stdout", 1), ("stderr", 2)):
                os.dup2(pipes[name][1], fd)
                os.close(pipes[name][1])
            execute_snippet(job, {name: read for name, (read, _) in pipes.items()})
        except BaseException:  # noqa: BLE001 - report, then leave without running parent code
            traceback.print_exc()
            code = CHILD_CRASHED
        finally:
            os._exit(code)
    for _, write in pipes.values():
        os.close(write)
    with contextlib.suppress(OSError):  # also here: no race with a kill before the child set it
        os.setpgid(pid, pid)
    reaped: dict[int, int] = {}

    def exit_status() -> int | None:
        reaped.update(process_tree.reap_children())
        return reaped.get(pid)

    def end_all() -> int:
        # Also after a normal end: DataLoader workers and daemons must not outlive the snippet.
        reaped.update(process_tree.end_own_descendants())
        if pid not in reaped:
            reaped[pid] = os.waitpid(pid, 0)[1]
        return reaped[pid]

    wake = os.pidfd_open(pid)
    try:
        watched = Watched(pid, exit_status, end_all, wake_fd=wake, parent_gone_fd=parent_gone_fd)
        return supervise(watched, job, {name: read for name, (read, _) in pipes.items()}, start, before)
    finally:
        os.close(wake)
        for read, _ in pipes.values():
            os.close(read)


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(preload: list[str]) -> None:
    process_tree.become_subreaper()
    signal.signal(signal.SIGTERM, _stop)
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything printed while importing goes to stderr, not into the protocol
    try:
        warm_up(preload)
    except Exception as error:  # noqa: BLE001 - any failure of an import: the engine names it
        protocol.write(json.dumps({"ready": False, "error": f"{type(error).__name__}: {error}"}) + "\n")
        protocol.flush()
        os._exit(1)
    protocol.write(json.dumps({"ready": True}) + "\n")
    protocol.flush()
    code = 0
    try:
        _serve(protocol)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported on stderr, which the engine shows
        traceback.print_exc()
        code = 1
    finally:
        process_tree.end_own_descendants()
    sys.stderr.flush()
    # At once: an interpreter that holds torch takes seconds to tear down, and nothing is left to do.
    os._exit(code)


def _serve(protocol: TextIO) -> None:
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        job = Job.from_json(json.loads(line))
        report = fork_and_supervise(job, parent_gone_fd=sys.stdin.fileno(), protocol_fd=protocol.fileno())
        if report.abandoned:  # the engine was killed before it could remove the run's folder
            shutil.rmtree(job.scratch, ignore_errors=True)
            return
        protocol.write(json.dumps(report.to_json()) + "\n")
        protocol.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
