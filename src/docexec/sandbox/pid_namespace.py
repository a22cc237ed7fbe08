"""A PID namespace of the snippet's own: it sees, and can signal, only its own processes.

Three processes stand where one stood: the process the engine forked stays outside and only
waits; the namespace's first process (PID 1 inside) is restricted like the snippet, mounts the
namespace's own ``/proc`` and reaps orphans; the snippet runs below it. Every PID outside is
unknown inside (``kill`` answers ESRCH), whatever the kernel's Landlock can scope. When the first
process ends, the kernel kills all that is left in the namespace, so no daemon of the snippet
outlives it, even after its supervisor was killed from outside.

The outer process exits as the snippet did (its exit code, or the same signal): the engine reads
the cause from there. The snippet's status comes through a pipe that the snippet never holds, so
it cannot forge it; nor can it take the pipe from the first process: that process is not dumpable
(no ptrace, no ``pidfd_getfd``, no ``/proc/1/fd`` for a process without capabilities) and holds no
descriptor but that pipe and ``/dev/null`` (not its warm server's input, nor the output pipes).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import struct
from typing import NoReturn

from docexec.execution import process_tree

_CLONE_NEWPID = 0x20000000
_PR_SET_DUMPABLE = 4
_STATUS = struct.Struct("i")


def enter(unshare) -> int | None:
    """Make a PID namespace and fork its first process, in which this returns the write end of
    the pipe that carries the snippet's status out (for `run_snippet_below`). The process outside
    never returns: it exits as that status says. None where the kernel refuses a PID namespace."""
    try:
        unshare(_CLONE_NEWPID)
    except OSError:
        return None
    read, write = os.pipe()
    first = os.fork()
    if first == 0:
        os.close(read)
        process_tree.die_with_parent()  # the engine killed the outer process: all inside ends
        return write
    os.close(write)
    _set_dumpable(False)  # where the machine's /proc stays in sight, the process outside is too
    _exit_as_reported(first, read)


def run_snippet_below(status_fd: int) -> None:
    """In the namespace's first process: fork the snippet's process, in which this returns. The
    first process reaps every orphan until the snippet's process ends, reports its status and exits."""
    # Not dumpable from before the fork, so that the snippet never finds it traceable; the
    # snippet's process takes the flag back (execve would too).
    _set_dumpable(False)
    snippet = os.fork()
    if snippet == 0:
        os.close(status_fd)
        _set_dumpable(True)
        return
    _keep_only(status_fd)
    # PID 1 ignores a signal without a handler when it comes from inside the namespace: the
    # handlers inherited from the engine (SIGINT's KeyboardInterrupt) would let the snippet end it.
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
    status = _wait_for(snippet)
    os.write(status_fd, _STATUS.pack(status))
    os._exit(0)


def _set_dumpable(dumpable: bool) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, int(dumpable), 0, 0, 0)


def _keep_only(status_fd: int) -> None:
    """Close every descriptor but ``status_fd``; stdin, stdout and stderr become ``/dev/null``."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        if fd != null:
            os.dup2(null, fd)
    keep = sorted({0, 1, 2, status_fd})
    for low, high in zip(keep, [*keep[1:], 1 << 20], strict=True):
        os.closerange(low + 1, high)


def _wait_for(snippet: int) -> int:
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:  # cannot happen while the snippet's process is a child
            return 70 << 8
        if pid == snippet:
            return status


def _exit_as_reported(first: int, status_fd: int) -> NoReturn:
    _, own = os.waitpid(first, 0)
    with os.fdopen(status_fd, "rb") as report:
        data = report.read(_STATUS.size)
    # Without a report the first process itself was killed (the engine's timeout): that is the cause.
    process_tree.exit_as(_STATUS.unpack(data)[0] if len(data) == _STATUS.size else own)
