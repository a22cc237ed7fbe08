"""A snippet's processes as one tree: adopt the orphans, measure the memory, end them all.

A snippet may start processes in sessions of their own (``start_new_session=True``, a double fork
and ``setsid``), which leave its process group. The process that supervises a snippet becomes a
child subreaper, so that every orphan below it is re-parented to it instead of to init: the tree
below the supervisor is then all that the snippet started, and it can be measured and ended.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import stat
import time
from pathlib import Path
from typing import NoReturn

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    """By hand through ctypes: the standard library has no binding for prctl(2)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Make orphaned descendants this process's children. False where the kernel cannot."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> None:
    """SIGKILL this process when its parent ends (a snippet that killed its supervisor, or an
    engine killed with SIGKILL), so that it is not left running without a timeout."""
    parent = os.getppid()
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the request was made
        os.kill(os.getpid(), signal.SIGKILL)


def exit_as(status: int) -> NoReturn:
    """Exit as the process whose wait ``status`` this is did: with its code, or killed by the same
    signal, so that whoever waits here reads the same cause."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):  # SIGKILL and SIGSTOP keep their action
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 70)


def children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(child) for child in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, parents before their children."""
    found: list[int] = []
    queue = children(pid)
    while queue:
        child = queue.pop(0)
        found.append(child)
        queue += children(child)
    return found


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def reap_children() -> dict[int, int]:
    """Collect the exit status of every child of this process that has ended (pid -> status)."""
    statuses: dict[int, int] = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return statuses
        if pid == 0:
            return statuses
        statuses[pid] = status


def end_own_descendants(patience: float = 10.0) -> dict[int, int]:
    """SIGKILL everything below this process (a subreaper) and reap it; returns the statuses reaped.

    Repeated until nothing is left: a process may fork while the others are being killed, and a
    killed parent's children come to this process only once the parent is gone.
    """
    statuses: dict[int, int] = {}
    deadline = time.monotonic() + patience
    while True:
        below = descendants(os.getpid())
        _kill(below)
        statuses.update(reap_children())
        if not below or time.monotonic() > deadline:
            return statuses
        time.sleep(0.005)


def kill_tree(pid: int, patience: float = 10.0) -> None:
    """SIGKILL ``pid`` and everything below it, from outside (the caller reaps ``pid`` itself)."""
    deadline = time.monotonic() + patience
    while True:
        # Stop the top first, so that it starts nothing new while its descendants are killed.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGSTOP)
        below = [p for p in descendants(pid) if not _is_zombie(p)]
        _kill(below)
        if not below or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    _kill([pid])


def _is_zombie(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in {"Z", "X"}


def tree_memory(pid: int, own_folder: str | None = None) -> int:
    """Bytes that ``pid`` and its descendants use: the sum of their proportional set sizes, with
    what they hold outside any process's pages.

    PSS, not RSS: forked processes share the pages of their parent (torch, once imported, is
    hundreds of MB), and PSS counts each shared page once across the processes that map it.
    Held outside them and counted too, each file once whether mapped or not: the tmpfs that holds
    the snippet's shared memory (`docexec.sandbox.restrictions`), and the files that only its
    processes hold, by a descriptor or a mapping: memfds, and files removed from ``own_folder``
    (its folders on disk) while open. Pages mapped from those files leave the PSS counted.
    """
    members = [pid, *descendants(pid)]
    tmpfs, tmpfs_device = _own_tmpfs(members)
    held = _held_files(members, tmpfs_device, own_folder)
    if not tmpfs and not held:
        return sum(_pss(member) for member in members)
    counted_devices = {tmpfs_device} if tmpfs_device is not None else set()
    return (
        sum(_pss(member, counted_devices, set(held)) for member in members) + tmpfs + sum(held.values())
    )


def _own_tmpfs(members: list[int]) -> tuple[int, int | None]:
    """Bytes held by the ``/dev/shm`` of the first of ``members`` in a mount namespace of its own
    (the snippet's tmpfs), and its device; (0, None) before it has one."""
    try:
        ours = os.readlink("/proc/self/ns/mnt")
    except OSError:
        return 0, None
    for member in members:
        try:
            if os.readlink(f"/proc/{member}/ns/mnt") == ours:
                continue
            shm = f"/proc/{member}/root/dev/shm"
            usage = os.statvfs(shm)
            device = os.stat(shm).st_dev
        except OSError:
            continue
        return (usage.f_blocks - usage.f_bfree) * usage.f_frsize, device
    return 0, None


def _only_held(path: str, own_folder: str | None) -> bool:
    """A memfd, or a file removed from the snippet's folders: no name left but in its processes."""
    path = path.removesuffix(" (deleted)")
    if path.startswith("/memfd:"):
        return True
    return own_folder is not None and path.startswith(own_folder.rstrip("/") + "/")


def _held_files(
    members: list[int], tmpfs_device: int | None, own_folder: str | None
) -> dict[tuple[int, int], int]:
    """(device, inode) -> bytes of each file that only ``members`` hold, open or mapped."""
    held: dict[tuple[int, int], int] = {}
    for member in members:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{member}/fd"):
                with contextlib.suppress(OSError):
                    link = f"/proc/{member}/fd/{fd}"
                    found = os.stat(link)
                    if (
                        stat.S_ISREG(found.st_mode)
                        and found.st_nlink == 0
                        and found.st_dev != tmpfs_device
                        and _only_held(os.readlink(link), own_folder)
                    ):
                        held[(found.st_dev, found.st_ino)] = found.st_blocks * 512
        with contextlib.suppress(OSError), open(f"/proc/{member}/maps", "rb") as maps:
            for line in maps:
                fields = line.decode(errors="replace").split(None, 5)
                if len(fields) < 6 or fields[4] == "0" or not _only_held(fields[5].rstrip("\n"), own_folder):
                    continue
                major, minor = (int(part, 16) for part in fields[3].split(":"))
                key = (os.makedev(major, minor), int(fields[4]))
                if key in held or key[0] == tmpfs_device:
                    continue
                start, end = (int(part, 16) for part in fields[0].split("-"))
                try:  # its size where the kernel shows it (CAP_SYS_ADMIN), else what is mapped of it
                    held[key] = os.stat(f"/proc/{member}/map_files/{fields[0]}").st_blocks * 512
                except OSError:
                    held[key] = max(held.get(key, 0), end - start)
    return held


def tree_resident(pid: int) -> int:
    """The sum of the resident set sizes of ``pid`` and its descendants: at least `tree_memory`,
    and read in microseconds where the proportional sizes take milliseconds."""
    total = 0
    for member in [pid, *descendants(pid)]:
        try:
            with open(f"/proc/{member}/statm", "rb") as statm:
                total += int(statm.read().split()[1]) * _PAGE_SIZE
        except (OSError, ValueError, IndexError):
            pass
    return total


_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def _pss(
    pid: int, counted_devices: set[int] | None = None, counted_files: set[tuple[int, int]] | None = None
) -> int:
    """The proportional set size of ``pid``, less what it maps of the files counted whole
    (on ``counted_devices``, or in ``counted_files``: (device, inode))."""
    if not counted_devices and not counted_files:
        with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
        return 0
    counted_devices, counted_files = counted_devices or set(), counted_files or set()
    pss = 0
    mapped_from_counted = False
    with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/smaps", "rb") as smaps:
        for line in smaps:
            if line.startswith(b"Pss:"):
                if not mapped_from_counted:
                    pss += int(line.split()[1]) * 1024
            elif not line[:1].isupper():  # a mapping's first line: its range, device and inode
                fields = line.split(None, 5)
                if len(fields) >= 5 and b":" in fields[3]:
                    major, minor = (int(part, 16) for part in fields[3].split(b":"))
                    device = os.makedev(major, minor)
                    mapped_from_counted = fields[4] != b"0" and (
                        device in counted_devices or (device, int(fields[4])) in counted_files
                    )
    return pss


def oom_kills() -> int:
    """How many processes the kernel's out-of-memory killer has killed since boot (-1: unknown)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/vmstat").read_text().splitlines():
            if line.startswith("oom_kill "):
                return int(line.split()[1])
    return -1
