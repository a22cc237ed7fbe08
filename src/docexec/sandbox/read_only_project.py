"""Writes allowed to a snippet's processes only in its own folders, with Landlock (Linux 5.13+).

Landlock lets an unprivileged process give up rights for itself and every process it starts:
`allow_writes_only_below` grants writes below the job's folder and a few devices, and a write
anywhere else, the project included, fails with PermissionError at the line that tried.
Where the kernel has no Landlock, `available` is False and the engine compares the project's
files before and after the snippet instead (`docexec.execution.project_writes`).

The same ruleset scopes signals and abstract Unix sockets where the kernel's Landlock has scopes
(ABI 6, Linux 6.12): the snippet's processes may signal and connect to each other only, not its
warm server, the engine or any other process of the user (`scopes_available`).

By hand through ctypes: the standard library has no binding for these system calls, and the
``landlock`` package on PyPI is a pre-release.
"""

from __future__ import annotations

import ctypes
import functools
import os
import stat
from pathlib import Path

# <asm-generic/unistd.h>: the same numbers on every architecture
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# <linux/landlock.h>: the rights that change the file system
_WRITE_FILE = 1 << 1
_DIRECTORY_WRITES = sum(1 << bit for bit in (4, 5, 6, 7, 8, 9, 10, 11, 12))  # remove and make entries
_REFER = 1 << 13  # ABI 2: a move or link into another folder; denied unless handled and granted
_TRUNCATE = 1 << 14  # ABI 3
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
_SCOPES_ABI = 6


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _ScopedRulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),  # ABI 4; none handled here: the network namespace
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


@functools.cache
def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 where there is none (or it is turned off)."""
    try:
        version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    except (OSError, AttributeError):
        return 0
    return max(version, 0)


def available() -> bool:
    return abi_version() > 0


def scopes_available() -> bool:
    return abi_version() >= _SCOPES_ABI


def allow_writes_only_below(places: list[Path]) -> None:
    """Forbid this process and its future children every write except below ``places`` (folders,
    or single files such as ``/dev/null``): an allow-list. Where the kernel has scopes, also
    every signal and abstract-socket connection to a process outside them.
    Call it in a process that has one thread. Raises OSError where it cannot."""
    version = abi_version()
    file_rights = _WRITE_FILE | (_TRUNCATE if version >= 3 else 0)
    all_rights = file_rights | _DIRECTORY_WRITES | (_REFER if version >= 2 else 0)
    if version >= _SCOPES_ABI:
        scopes = _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET
        attr: ctypes.Structure = _ScopedRulesetAttr(all_rights, 0, scopes)
    else:
        attr = _RulesetAttr(all_rights)
    ruleset = _call(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0)
    try:
        for path in places:
            _allow(ruleset, path.resolve(), all_rights, file_rights)
        _call_prctl(_PR_SET_NO_NEW_PRIVS)
        _call(_RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)


def _allow(ruleset: int, path: Path, all_rights: int, file_rights: int) -> None:
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            return  # its target is granted, or not, where it lies
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return  # gone since it was listed
    try:
        rule = _PathBeneathAttr(all_rights if stat.S_ISDIR(mode) else file_rights, fd)
        _call(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    finally:
        os.close(fd)


def _call(number: int, *args: object) -> int:
    result = _libc().syscall(number, *args)
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, f"landlock: {os.strerror(error)}")
    return result


def _call_prctl(option: int) -> None:
    if _libc().prctl(option, 1, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"prctl: {os.strerror(error)}")
