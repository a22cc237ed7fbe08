"""A warm process that has already imported torch and forks one child per snippet.

Importing torch takes about a second; a fork of a process that holds it takes milliseconds.
Protocol: one JSON job per line on stdin, one JSON report per line on the original stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import time

from docexec.child import run_job

CHILD_CRASHED = 70  # the engine's own code failed inside the child (not the snippet)


def warm_up() -> None:
    """Import what nearly every snippet imports, before any fork."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import numpy  # noqa: F401
    import torch  # noqa: F401

    # The first optimizer step, profiler or FLOP counter imports torch._dynamo (about 800 modules,
    # 2-4 s): importing it once here spares every such snippet that cost.
    import torch._dynamo  # noqa: F401


def run_forked(job: dict) -> dict:
    """Fork, run the job in the child, and wait for it at most ``job["timeout"]`` seconds."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.setpgid(0, 0)
            run_job(job)
        except BaseException:  # noqa: BLE001 - report, then leave without running parent code
            import traceback

            traceback.print_exc()
            code = CHILD_CRASHED
        finally:
            os._exit(code)
    with contextlib.suppress(OSError):  # also here: no race with a kill before the child set it
        os.setpgid(pid, pid)
    finished = _wait(pid, job["timeout"])
    if not finished:
        _kill_group(pid)
    _, status = os.waitpid(pid, 0)
    _kill_group(pid)  # grandchildren (e.g. DataLoader workers) must not outlive the snippet
    return {
        "exit_code": os.waitstatus_to_exitcode(status),
        "timed_out": not finished,
        "duration": time.perf_counter() - start,
    }


def _wait(pid: int, timeout: float) -> bool:
    """True when the child ended within ``timeout`` seconds (a pidfd becomes readable on exit)."""
    handle = os.pidfd_open(pid)
    try:
        readable, _, _ = select.select([handle], [], [], timeout)
        return bool(readable)
    finally:
        os.close(handle)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def main() -> None:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything printed while importing goes to stderr, not into the protocol
    warm_up()
    protocol.write(json.dumps({"ready": True}) + "\n")
    protocol.flush()
    for line in sys.stdin:
        report = run_forked(json.loads(line))
        protocol.write(json.dumps(report) + "\n")
        protocol.flush()


if __name__ == "__main__":
    main()
