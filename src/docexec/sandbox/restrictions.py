"""What a snippet's processes may touch: an allow-list made of the kernel's own mechanisms.

`enter` runs in the snippet's process before the snippet, which has one thread then; every process
the snippet starts inherits what it set. Each restriction that the kernel refuses (no privilege
to make namespaces, no Landlock) is returned by name: the build says which are not in force
(`unenforced`, in the build report and once on the console), it never drops one silently.

- Without root, a user namespace first, where the kernel lets unprivileged users make one.
- A mount namespace of its own: its mounts below are private to the snippet and end with it.
- A PID namespace of its own, with its own ``/proc`` (`pid_namespace`): the snippet sees and can
  signal only its own processes, and none of them outlives the namespace's first process.
- ``/dev/shm``: a fresh tmpfs whose size is the snippet's declared memory, so that shared memory
  (torch's DataLoader workers, ``multiprocessing.shared_memory``) counts against it and goes away
  with the snippet instead of staying in the machine's RAM. The supervisor counts what this tmpfs
  holds, what the snippet wrote into its folders on disk over any number of files, and the memfds
  and removed files that only its processes hold open or mapped, with the memory of its processes
  (`docexec.execution.supervisor`): all together stay within ``memory=``.
- A System V IPC namespace: its shared memory segments end with the snippet and it reaches none
  of the machine's; where the kernel lets it (root), a segment no process has attached ends at
  once (``shm_rmid_forced``), so that its memory is always in a process's pages, counted.
- Other processes' environments and command lines (where no ``/proc`` of its own could be
  mounted, and the first process's in the one it has): ``/dev/null`` is bind-mounted over
  ``/proc/<pid>/environ`` and ``cmdline`` of every other process, so that the variables of
  ``mkdocs build`` and of the shell above it (a CI job's tokens), and a password passed on a
  command line, cannot be read. A process started later than the snippet is not covered; its environment
  is the engine's scrubbed one (`docexec.sandbox.environment`) where it is a snippet's.
- Sockets of the machine in the file system (``/var/run/docker.sock``, a desktop's D-Bus): every
  path socket bound when the snippet starts (``/proc/net/unix``) is covered by ``/dev/null``, so
  a connection is refused. Abstract sockets belong to the network namespace below, and are also
  scoped by Landlock where the kernel has scopes.
- Secrets on the machine's disk: ``/etc/shadow`` and ``/etc/gshadow`` covered by ``/dev/null``;
  the home of the user the build runs as and ``/root`` by an empty tmpfs, into which only what the
  snippet needs of them is bound back (the project, Python and its import path, the programs on
  ``PATH``, matplotlib's font cache: a pyenv's Python or a runner's checkout in the home), or,
  where the home itself is needed, its credentials (`HOME_CREDENTIALS`: ``.ssh``, ``.npmrc``,
  ``.gitconfig``, ``.netrc``, ...) one by one; and the project's ``.git`` (a checkout's token lies
  in ``.git/config``) by an empty, unreadable tmpfs. Other files stay readable as the user may
  read them: a snippet imports the standard library, torch and the project's own library.
- A network namespace: no interface but a loopback that is down, so no connection and no listening
  port. A snippet that declares ``# docexec: network`` gets a namespace whose loopback is up:
  processes of the snippet talk to each other (gloo, a TCPStore), nothing else reaches them.
- ``RLIMIT_FSIZE``: no file the snippet writes may grow beyond its declared memory (a write past it
  fails with ``OSError: File too large``), so a runaway loop cannot fill the disk.
- Landlock: writes are allowed in the job's own folders (its work, home and temporary folders),
  its record of output, ``/dev/shm`` and the null devices, and refused everywhere else with
  PermissionError. A snippet that runs on the GPU may also write to the GPU's device nodes
  (`GPU_DEVICE_NODES`, character devices only: CUDA opens them for writing) and its processes'
  entries below ``/proc`` (CUDA's driver writes to its threads' entries there: it fails with error
  304 otherwise, found by exclusion on an H200); every other entry of its ``/proc`` (``sys``,
  ``bus/pci``, ``irq``, ``pressure``, ...) is read-only and ``/proc/sysrq-trigger`` is
  ``/dev/null``, in its own mount namespace, so that the machine's settings and devices stay out
  of reach when the build runs as root (`_guard_kernel_settings`; `writable_places` is the rule
  set). Landlock also forbids the snippet to mount or unmount anything.
  Where the kernel has Landlock's scopes (Linux 6.12), signals too: the snippet's processes may signal one
  another, not its warm server, the engine or any other process of the user (PermissionError).
- No capabilities: a snippet run as root cannot undo any of this (`_drop_capabilities`).

By hand through ctypes: the standard library has no binding for unshare(2), mount(2) before 3.12,
and bubblewrap would have to start the snippet, which is forked from a warm server instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import json
import os
import resource
import socket
import stat
import struct
import sys
from pathlib import Path

from docexec.sandbox import pid_namespace, read_only_project

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNS = 0x00020000
_CLONE_NEWNET = 0x40000000
_CLONE_NEWIPC = 0x08000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT = 1, 2, 4, 8, 32
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
_SIOCSIFFLAGS = 0x8914
_IFF_UP, _IFF_LOOPBACK, _IFF_RUNNING = 0x1, 0x8, 0x40

# The names under which a restriction is reported when the machine cannot enforce it.
ENVIRONMENTS = "other processes' environments and command lines hidden"
SHARED_MEMORY = "shared memory and written files counted against memory="
NETWORK = "no network unless declared"
FILE_SIZE = "file size limited to memory="
WRITES = "writes only in the snippet's own folders"
SIGNALS = "no signals to processes outside the snippet"
PROCESSES = "a PID namespace of its own: only its processes in sight, none outliving it"
SOCKETS = "no sockets of the machine's processes (in the file system or abstract)"
SECRETS = "password files, the build user's home and the project's .git hidden"
CAPABILITIES = "no privileges (capabilities) to undo the above"
ALL = (
    ENVIRONMENTS,
    SHARED_MEMORY,
    NETWORK,
    FILE_SIZE,
    WRITES,
    SIGNALS,
    PROCESSES,
    SOCKETS,
    SECRETS,
    CAPABILITIES,
)

# Devices that programs write to as a matter of course.
_WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty")
# What the CUDA driver opens read-write: /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia0, ... and the
# capability nodes below /dev/nvidia-caps. Only a job run on the GPU gets them, and only device
# nodes of those names: no folder (new entries), nothing else in /dev.
GPU_DEVICE_NODES = ("nvidiactl", "nvidia[0-9]*", "nvidia-uvm*", "nvidia-modeset", "nvidia-caps/nvidia-cap*")
# Of /proc, a GPU job may write only its own processes' entries (/proc/<pid>: CUDA's driver writes
# to its threads' there); every other entry is read-only in its mount namespace.
PROC_PER_PROCESS = ("self", "thread-self")


def gpu_device_nodes(dev: str = "/dev") -> list[Path]:
    """The GPU's character devices below ``dev``."""
    found = {path for pattern in GPU_DEVICE_NODES for path in Path(dev).glob(pattern)}
    return sorted(path for path in found if _is_device_node(path))


def _is_device_node(path: Path) -> bool:
    try:
        return stat.S_ISCHR(os.lstat(path).st_mode)
    except OSError:
        return False


def writable_places(
    job_dir: str, own_folders: tuple[str, ...] = (), own_files: tuple[str, ...] = (), gpu: bool = False
) -> list[Path]:
    """What Landlock lets a snippet write: its folders and record, its ``/dev/shm``, the null
    devices and, on the GPU, the GPU's device nodes and ``/proc`` (`read_only_proc_entries`
    leaves only its processes' entries writable there)."""
    writable = [*own_folders, *own_files] if own_folders else [job_dir]
    return [
        *map(Path, writable),
        Path("/dev/shm"),
        *map(Path, _WRITABLE_DEVICES),
        *([*gpu_device_nodes(), Path("/proc")] if gpu else []),
    ]


def read_only_proc_entries(proc: str = "/proc") -> list[Path]:
    """Every entry of ``proc`` but its processes' own (``/proc/<pid>``, ``self``, ``thread-self``):
    the machine's settings, devices and pressure triggers (``sys``, ``bus/pci``, ``irq``,
    ``pressure``, ``sysrq-trigger``, ...), made read-only for a GPU job."""
    entries = []
    for entry in sorted(os.listdir(proc)):
        path = Path(proc, entry)
        if entry.isdigit() or entry in PROC_PER_PROCESS or path.is_symlink():
            continue
        entries.append(path)
    return entries


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _unshare(flags: int) -> None:
    _check(_libc().unshare(flags), "unshare")


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str | None = None) -> None:
    def encode(text: str | None) -> bytes | None:
        return None if text is None else text.encode()

    _check(
        _libc().mount(encode(source), target.encode(), encode(kind), ctypes.c_ulong(flags), encode(data)),
        f"mount {target}",
    )


def enter(
    job_dir: str,
    memory_limit: int,
    network: bool,
    gpu: bool = False,
    project: str | None = None,
    own_folders: tuple[str, ...] = (),
    own_files: tuple[str, ...] = (),
    homes: tuple[str, ...] = (),
) -> list[str]:
    """Restrict this process and all it will start; the restrictions that are not in force.
    ``project``: the project's root, whose ``.git`` is hidden. ``own_folders``: where the snippet
    may write (its working folder, home and temporary folder); ``own_files``: files of ``job_dir``
    it may write to (its record of output). Without them, writes are allowed below ``job_dir``.
    ``gpu``: the job runs on the GPU, so the GPU's device nodes and ``/proc`` stay writable.
    ``homes``: the homes of the user the build runs as, hidden but for what the snippet needs of
    them (`build_homes` where none is given).

    Where the kernel gives a PID namespace, this returns in a new process two levels below the
    caller (`pid_namespace`): the calling process only waits, and exits as the snippet will."""
    missing: list[str] = []
    if os.geteuid() != 0:
        _own_user_namespace()
    try:
        _unshare(_CLONE_NEWNS)
        _mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing mounted here reaches the machine
        own_mounts = True
    except OSError:
        own_mounts = False
        missing += [SHARED_MEMORY, ENVIRONMENTS, SOCKETS, SECRETS]
    try:
        _unshare(_CLONE_NEWIPC)  # before the PID namespace: its first process and the snippet share it
        own_ipc = True
    except OSError:
        own_ipc = False
        if SHARED_MEMORY not in missing:
            missing.append(SHARED_MEMORY)
    # Only with mounts of its own: the namespace's /proc is mounted over the machine's.
    status_fd = pid_namespace.enter(_unshare) if own_mounts else None
    own_proc = status_fd is not None and _mount_own_proc()
    if not own_proc:
        missing.append(PROCESSES)
    if own_ipc:
        _end_detached_segments()
    if own_mounts:
        # Before the network namespace: /proc/net/unix lists the sockets of the machine's.
        if not _cover_path_sockets():
            missing.append(SOCKETS)
        if not _hide_secrets(project, homes, (*own_folders, job_dir)):
            missing.append(SECRETS)
        try:
            _mount("tmpfs", "/dev/shm", "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={memory_limit},mode=1777")
        except OSError:
            missing.append(SHARED_MEMORY)
        # In a PID namespace under the machine's /proc, this process's PID there is not its own.
        if not own_proc and not _hide_environments(keep_own=status_fd is None):
            missing.append(ENVIRONMENTS)
        if gpu and not _guard_kernel_settings():
            missing.append(WRITES)
    try:
        _unshare(_CLONE_NEWNET)
        if network:
            _loopback_up()
    except OSError:
        missing.append(NETWORK)
        if not read_only_project.scopes_available() and SOCKETS not in missing:
            missing.append(SOCKETS)  # abstract ones: neither a namespace nor a Landlock scope
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (memory_limit, memory_limit))
    except (OSError, ValueError):
        missing.append(FILE_SIZE)
    if read_only_project.available():
        try:
            read_only_project.allow_writes_only_below(writable_places(job_dir, own_folders, own_files, gpu))
        except OSError:
            missing.append(WRITES)
            scoped = False
        else:
            scoped = read_only_project.scopes_available()
    else:
        missing.append(WRITES)
        scoped = False
    if not scoped and status_fd is None:
        missing.append(SIGNALS)
    if not _drop_capabilities():
        missing.append(CAPABILITIES)
    if status_fd is not None:
        pid_namespace.run_snippet_below(status_fd)  # returns in the snippet's own process
    return missing


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


def _drop_capabilities() -> bool:
    """Give up every capability, for good: a snippet run as root could otherwise unmount what
    covers the environments, join the machine's network namespace again (setns), or read any
    process's memory. Without them, the kernel also refuses a root snippet the environment of a
    process that holds more capabilities than it does (the engine, the shell). True once none is left."""
    libc = _libc()
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for capability in range(64):
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 and ctypes.get_errno() == 22:
            break  # EINVAL: past the last capability this kernel knows
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()  # all zero: no effective, permitted or inheritable capability
    return libc.capset(ctypes.byref(header), data) == 0


def _own_user_namespace() -> None:
    """Without root, a user namespace of its own (where the kernel allows unprivileged ones) is what
    lets the snippet make the mount and network namespaces; it stays the same user inside."""
    uid, gid = os.geteuid(), os.getegid()
    try:
        _unshare(_CLONE_NEWUSER)
    except OSError:
        return  # the namespaces below are refused then, and named
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with contextlib.suppress(OSError), open(f"/proc/self/{name}", "w") as control:
            control.write(text)


def _hide_environments(keep_own: bool = True) -> bool:
    """Cover ``/proc/<pid>/environ`` and ``cmdline`` of every process but this one (a command line
    may hold a password too), or of this one too; False where one could not be."""
    own = str(os.getpid()) if keep_own else None
    failed = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == own:
            continue
        for part in ("environ", "cmdline"):
            try:
                _mount("/dev/null", f"/proc/{entry}/{part}", None, _MS_BIND)
            except OSError:
                # A process that ended since it was listed has nothing left to read.
                failed += os.path.exists(f"/proc/{entry}/{part}")
    return failed == 0


def _mount_own_proc() -> bool:
    """A ``/proc`` of the PID namespace's own over the machine's: it lists only the snippet's
    processes, under the PIDs the snippet knows (``/proc/{os.getpid()}`` is its own). The first
    process's environment and command line, the engine's, are covered as any other process's.
    False where the kernel refuses it; the machine's ``/proc`` stays then, its environments covered."""
    try:
        _mount("proc", "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    except OSError:
        return False
    return _hide_environments(keep_own=False)  # the snippet is forked later, as PID 2


def _end_detached_segments() -> None:
    """In the snippet's own System V IPC namespace: a shared memory segment ends when no process
    has it attached, so that what it holds is always in a process's pages, counted. Only where
    the kernel lets this process set it (root; a user namespace's own user is not its root)."""
    with contextlib.suppress(OSError), open("/proc/sys/kernel/shm_rmid_forced", "w") as forced:
        forced.write("1")


def _guard_kernel_settings() -> bool:
    """For a GPU job, whose Landlock rules must allow writes below ``/proc``: every entry there but
    its processes' own read-only in this mount namespace (`read_only_proc_entries`), and
    ``/dev/null`` over ``/proc/sysrq-trigger`` all the same."""
    try:
        for path in read_only_proc_entries():
            target = str(path)
            _mount(target, target, None, _MS_BIND | _MS_REC)
            _mount(None, target, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_REC)
        if os.path.exists("/proc/sysrq-trigger"):
            _mount("/dev/null", "/proc/sysrq-trigger", None, _MS_BIND)
    except OSError:
        return False
    return True


def _cover_path_sockets() -> bool:
    """Cover every socket file bound now (``/proc/net/unix``) with ``/dev/null``; a connection to
    one is then refused. False where one that exists could not be covered."""
    try:
        table = Path("/proc/net/unix").read_text(encoding="utf-8", errors="replace").splitlines()[1:]
    except OSError:
        return False
    paths = {fields[7] for fields in (line.split(None, 7) for line in table) if len(fields) == 8}
    failed = 0
    for path in sorted(p for p in paths if p.startswith("/")):
        try:
            if stat.S_ISSOCK(os.stat(path).st_mode):
                _mount("/dev/null", path, None, _MS_BIND)
        except OSError:
            failed += os.path.exists(path) and os.access(path, os.W_OK)  # reachable, yet not covered
    return failed == 0


# What a home holds that a build must not publish: keys, tokens and the logins of tools. Covered
# one by one only where the home itself must stay readable (the project or Python is the home).
HOME_CREDENTIALS = (
    ".ssh", ".aws", ".azure", ".config/gcloud", ".config/gh", ".config/git", ".docker", ".kube",
    ".gnupg", ".netrc", ".npmrc", ".pypirc", ".gitconfig", ".git-credentials", ".cargo/credentials",
    ".cargo/credentials.toml", ".gem/credentials", ".m2/settings.xml", ".terraform.d", ".vault-token",
    ".local/share/keyrings", ".bash_history", ".python_history",
)


def build_homes() -> tuple[str, ...]:
    """The homes of the user a build runs as: its passwd entry's and ``$HOME``, and root's."""
    homes = {"/root", os.environ.get("HOME", "")}
    with contextlib.suppress(KeyError, ImportError):
        import pwd

        homes.add(pwd.getpwuid(os.geteuid()).pw_dir)
    return tuple(sorted(home for home in homes if home))


def _needed_places(project: str | None, own: tuple[str, ...]) -> list[Path]:
    """What a snippet reads or writes that may lie in a home: the project, Python, its import
    path and programs, matplotlib's font cache and the snippet's own folders."""
    python_folder = os.path.dirname(os.path.realpath(sys.executable))
    places = [project or os.getcwd(), sys.prefix, sys.base_prefix, python_folder]
    places += [entry for entry in sys.path if entry]
    places += os.environ.get("PATH", "").split(os.pathsep)
    places += [os.environ.get("MPLCONFIGDIR", ""), *own]
    found = []
    for place in places:
        with contextlib.suppress(OSError):
            path = Path(place).resolve()
            if place and path.is_dir():
                found.append(path)
    return found


def _hide_home(home: str, needed: list[Path]) -> bool:
    """An empty tmpfs over ``home``; what a snippet needs of it (`_needed_places`) is bound back,
    at the same path. Where the home itself is needed, its credentials (`HOME_CREDENTIALS`) are
    covered instead."""
    try:
        root = Path(home).resolve()
    except OSError:
        return True
    if root == Path("/") or not root.is_dir():
        return True
    inside = sorted({place for place in needed if place.is_relative_to(root)})
    if root in inside:
        return _cover_credentials(root)
    def below_another(place: Path) -> bool:
        return any(place != other and place.is_relative_to(other) for other in inside)

    kept = [place for place in inside if not below_another(place)]
    opened = []
    try:
        opened = [(place, os.open(place, os.O_PATH | os.O_CLOEXEC)) for place in kept]
        options = "size=64k,mode=0755" if kept else "size=4k,mode=000"
        _mount("tmpfs", str(root), "tmpfs", _MS_NOSUID | _MS_NODEV, options)
        for place, fd in opened:
            place.mkdir(parents=True, exist_ok=True)  # in the tmpfs: the way to it, empty but for it
            _mount(f"/proc/self/fd/{fd}", str(place), None, _MS_BIND | _MS_REC)
    except OSError:
        return False
    finally:
        for _, fd in opened:
            os.close(fd)
    return True


def _cover_credentials(home: Path) -> bool:
    covered = True
    for name in HOME_CREDENTIALS:
        path = home / name
        try:
            if path.is_dir() and not path.is_symlink():
                _mount("tmpfs", str(path), "tmpfs", _MS_NOSUID | _MS_NODEV, "size=4k,mode=000")
            elif path.exists() or path.is_symlink():
                _mount("/dev/null", str(path), None, _MS_BIND)
        except OSError:
            covered = False
    return covered


def _hide_secrets(project: str | None, homes: tuple[str, ...] = (), own: tuple[str, ...] = ()) -> bool:
    """Password hashes, the build user's home and root's (but for what the snippet needs of them)
    and the project's ``.git``: covered where they exist."""
    needed = _needed_places(project, own)
    hidden = all([_hide_home(home, needed) for home in sorted(set(homes or build_homes()), key=len)])
    covers = [("/etc/shadow", None), ("/etc/gshadow", None)]
    if project is not None:
        covers.append((os.path.join(project, ".git"), "size=4k,mode=000"))
    for path, folder in covers:
        if not os.path.lexists(path):
            continue
        try:
            if folder is None or not os.path.isdir(path):
                _mount("/dev/null", path, None, _MS_BIND)
            else:
                _mount("tmpfs", path, "tmpfs", _MS_NOSUID | _MS_NODEV, folder)
        except OSError:
            hidden = False
    return hidden


def _loopback_up() -> None:
    """Bring up ``lo`` in this network namespace: what ``ip link set lo up`` does."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH22x", b"lo", _IFF_UP | _IFF_LOOPBACK | _IFF_RUNNING)
        fcntl.ioctl(sock, _SIOCSIFFLAGS, request)


@functools.cache
def say_what_is_not_in_force() -> None:
    """Once per process, on the console: the restrictions this machine does not enforce."""
    missing = unenforced()
    if missing:
        print(
            f"docexec: not in force on this machine (the kernel refused them): {'; '.join(missing)}",
            file=sys.stderr,
        )


@functools.cache
def unenforced() -> tuple[str, ...]:
    """The restrictions this machine does not enforce, tried once in a throwaway child process."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: tries every mechanism, reports, and leaves without running parent code
        code = 0
        try:
            os.close(read)
            with contextlib.suppress(OSError):
                missing = enter(os.getcwd(), 1 << 20, network=True)
                os.write(write, json.dumps(missing).encode())
        except BaseException:  # noqa: BLE001 - an empty answer says that nothing could be tried
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        text = answer.read()
    os.waitpid(pid, 0)
    try:
        return tuple(json.loads(text))
    except ValueError:
        return ALL
