"""Attacks on the sandbox that went around it once, each tried by a real snippet: trace or rob the
PID namespace's first process of its descriptors, hold memory where no process maps it, hide the
bytes written behind a hundred thousand files, change the source under a running snippet, write
to the machine's settings from a GPU job, read the credentials in the build user's home."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from docexec.execution import result as result_module
from docexec.execution import supervisor
from docexec.execution.declarations import Declarations
from docexec.execution.jobs import MOST_FILES, Report
from docexec.execution.result import Status
from docexec.sandbox import restrictions

SECRET = "s3cr3t-in-the-home-5e2a"


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

# Each below the file-size limit, together above the memory; held where no process maps them.
HOLDS_MEMFDS = """
    # docexec: memory=64M
    import os
    import time

    held = []
    for part in range(3):
        held.append(os.memfd_create(f"part-{part}"))
        os.write(held[-1], bytes(30 << 20))
    time.sleep(3)
    print("held", len(held))
"""

# A memfd that only a mapping of one page holds: the fd is closed.
MAPS_MEMFDS = """
    # docexec: memory=64M
    import mmap
    import os
    import time

    held = []
    for part in range(3):
        fd = os.memfd_create(f"part-{part}")
        os.write(fd, bytes(30 << 20))
        held.append(mmap.mmap(fd, mmap.PAGESIZE))
        os.close(fd)
    time.sleep(3)
    print("held", len(held))
"""

# Files in its working folder, removed while open: no name left for a walk of the folder.
HOLDS_REMOVED_FILES = """
    # docexec: memory=64M
    import os
    import time

    held = []
    for part in range(3):
        held.append(open(f"part-{part}", "wb"))
        held[-1].write(bytes(30 << 20))
        held[-1].flush()
        os.remove(f"part-{part}")
    time.sleep(3)
    print("held", len(held))
"""

# System V segments touched through an attachment, then detached: held by no process.
DETACHES_SEGMENTS = """
    # docexec: memory=64M
    import ctypes
    import time

    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    size = 30 << 20 | 4096  # a size to find on the machine
    segments = []
    for part in range(3):
        segments.append(libc.shmget(0, size, 0o1600))  # IPC_PRIVATE, IPC_CREAT
        address = libc.shmat(segments[-1], None, 0)
        ctypes.memset(address, 1, size)
        libc.shmdt(ctypes.c_void_p(address))
    time.sleep(3)
    failed = (None, 2**64 - 1)
    print("attached again:", sum(libc.shmat(segment, None, 0) not in failed for segment in segments))
"""


def machine_segments_of_the_snippets_size() -> int:
    sizes = [line.split()[3] for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]]
    return sizes.count(str(30 << 20 | 4096))

# Anonymous shared memory and a memfd of about the same size: each below the limit, together above.
SHARED_ANONYMOUS_AND_MEMFD = """
    # docexec: memory=96M
    import mmap
    import os
    import time

    shared = mmap.mmap(-1, 60 << 20)  # MAP_SHARED | MAP_ANONYMOUS
    shared.write(bytes(60 << 20))
    fd = os.memfd_create("half")
    os.write(fd, bytes(60 << 20))
    time.sleep(3)
    print("both held")
"""

@pytest.fixture(scope="module", params=[True, False], ids=["forked", "subprocess"])
def holes(request, module_project):
    snippets = {
        "traces_first_process.py": TRACES_FIRST_PROCESS,
        "forges_its_status.py": FORGES_ITS_STATUS,
        "holds_memfds.py": HOLDS_MEMFDS,
        "maps_memfds.py": MAPS_MEMFDS,
        "holds_removed_files.py": HOLDS_REMOVED_FILES,
        "detaches_segments.py": DETACHES_SEGMENTS,
        "shared_anonymous_and_memfd.py": SHARED_ANONYMOUS_AND_MEMFD,
    }
    paths = [module_project.snippet(name, code) for name, code in snippets.items()]
    cache_dir = module_project.root / f".cache-{request.param}"
    engine = module_project.engine(workers=2, fork=request.param, cache_dir=cache_dir)
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


def stopped_for_memory(result, limit: str) -> bool:  # type: ignore[no-untyped-def]
    return result.status == Status.FAILED and f"exceeded its memory limit of {limit}" in result.failure


@pytest.mark.parametrize(
    "name", ["holds_memfds.py", "maps_memfds.py", "holds_removed_files.py", "shared_anonymous_and_memfd.py"]
)
def test_memory_held_outside_any_process_counts_against_the_declared_memory(holes, name):
    needs(restrictions.SHARED_MEMORY)
    result = holes[name]
    limit = "96 MiB" if name.startswith("shared_anonymous") else "64 MiB"
    assert stopped_for_memory(result, limit), (result.status, result.failure, result.output)


def test_system_v_segments_that_no_process_holds_end_and_never_reach_the_machine(holes):
    needs(restrictions.SHARED_MEMORY)
    result = holes["detaches_segments.py"]
    assert result.status == Status.PASSED, result.failure
    assert machine_segments_of_the_snippets_size() == 0  # they were the snippet's IPC namespace's
    # Ended as they are detached where the kernel lets the sandbox say so (root); else they end
    # with the snippet's IPC namespace, uncounted meanwhile (the package's docstring says so).
    if os.geteuid() == 0:
        assert result.output == "attached again: 0\n"


# A hundred thousand empty files first (more than a walk of its folders once counted), then the bytes.
HIDES_BYTES_BEHIND_FILES = """
    # docexec: memory=128M timeout=600
    import os
    import time

    os.mkdir("many")
    for index in range(100_050):
        open(f"many/{index:06}", "wb").close()
    for part in range(3):
        with open(f"zz-{part}.bin", "wb") as big:
            big.write(bytes(60 << 20))
    time.sleep(3)
    print("wrote 180 MiB")
"""


def test_the_bytes_written_count_behind_any_number_of_files(project):
    """Forked only: the supervisor is the same code in both ways of running a snippet, and a
    hundred thousand files take a while to make."""
    path = project.snippet("hides_bytes_behind_files.py", HIDES_BYTES_BEHIND_FILES)
    result = project.engine(fork=True).execute([path], progress=False)[0][path]
    assert stopped_for_memory(result, "128 MiB"), (result.status, result.failure, result.output)


def test_the_count_of_files_has_no_cut_off_and_a_count_past_reason_stops_the_snippet(tmp_path, monkeypatch):
    (tmp_path / "many").mkdir()
    for index in range(60):
        (tmp_path / "many" / f"{index:02}").touch()
    (tmp_path / "zz.bin").write_bytes(bytes(1 << 20))
    monkeypatch.setattr(supervisor, "MOST_FILES", 62)
    assert supervisor.written_bytes(tmp_path) >= 1 << 20  # every entry walked, the last one too
    (tmp_path / "one-more").touch()
    (tmp_path / "and-another").touch()
    with pytest.raises(supervisor.TooManyFilesError):
        supervisor.written_bytes(tmp_path)


def test_a_snippet_stopped_for_its_count_of_files_says_so(project):
    report = Report(
        exit_code=-9,
        timeout=60,
        memory_limit=1 << 30,
        root=str(project.root),
        duration=1.0,
        files_exceeded=True,
    )
    failure = result_module._judge("snippets/x.py", report, False, None, Declarations())
    assert failure is not None
    assert failure[1] == (
        f"snippets/x.py: made more than {MOST_FILES:,} files and folders and was killed "
        "(what a snippet writes counts against its memory, file by file)"
    )


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
    def edit():
        on_disk.write_text(on_disk.read_text().replace("as keyed", "as edited"))

    edited = threading.Timer(2.0, edit)
    edited.start()
    try:
        results, _ = project.engine(fork=fork).execute([path], progress=False)
    finally:
        edited.join()
    result = results[path]
    assert result.status == Status.PASSED, result.failure
    assert result.output == "edited meanwhile: True\nthe worker ran: as keyed\n"


CREDENTIALS = (
    ".ssh/id_ed25519",
    ".npmrc",
    ".gitconfig",
    ".netrc",
    ".config/gh/hosts.yml",
    ".docker/config.json",
    ".aws/credentials",
    "notes.txt",
)

# Reads what a build user's home holds, and lists the real one of the user it runs as.
READS_THE_HOME = """
    import os
    import pwd
    import sys
    from pathlib import Path

    home = {home!r}
    for name in {names!r}:
        try:
            with open(os.path.join(home, name)) as secret:
                print(name, "read:", secret.read().strip())
        except OSError as error:
            print(name, "refused:", type(error).__name__)
    print("the home lists:", sorted(os.listdir(home)))
    print("the project reads:", open({pyproject!r}).read().startswith("[tool.docexec]"))
    real = Path(pwd.getpwuid(os.geteuid()).pw_dir).resolve()
    needed = [sys.prefix, sys.base_prefix, *sys.path, *os.environ["PATH"].split(os.pathsep)]
    ways = set()
    for place in filter(None, needed):
        if Path(place).resolve().is_relative_to(real) and Path(place).resolve() != real:
            ways.add(Path(place).resolve().relative_to(real).parts[0])
    try:
        seen = set(os.listdir(real))
    except OSError:
        seen = set()
    print("in the real home besides the way to Python:", sorted(seen - ways))
    readable = []
    for name in {credentials!r}:
        try:
            open(real / name).close()
            readable.append(name)
        except OSError:
            pass
    print("its credentials readable:", readable)
"""


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "subprocess"])
def test_the_build_users_home_shows_a_snippet_only_what_it_needs(project, tmp_path, monkeypatch, fork):
    """As on a CI runner, the project lies in the home of the user the build runs as (and on this
    machine Python too may live in a home, as pyenv puts it)."""
    needs(restrictions.SECRETS)
    home = project.root.parent
    for name in CREDENTIALS:
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(SECRET)
    monkeypatch.setenv("HOME", str(home))
    code = READS_THE_HOME.format(
        home=str(home),
        names=CREDENTIALS,
        pyproject=str(project.root / "pyproject.toml"),
        credentials=[name for name in restrictions.HOME_CREDENTIALS if not name.endswith("history")],
    )
    path = project.snippet("reads_the_home.py", code)
    result = project.engine(fork=fork).execute([path], progress=False)[0][path]
    assert result.status == Status.PASSED, result.failure
    assert SECRET not in result.output
    lines = result.output.splitlines()
    assert lines[: len(CREDENTIALS)] == [f"{name} refused: FileNotFoundError" for name in CREDENTIALS]
    assert lines[len(CREDENTIALS) :][:2] == ["the home lists: ['project']", "the project reads: True"]
    assert lines[-2:] == ["in the real home besides the way to Python: []", "its credentials readable: []"]


# Opens the machine's settings and devices for writing (opening alone changes nothing), and writes
# its own name, as CUDA's driver names its threads.
GPU_JOB_WRITES = """
    # docexec: cuda
    import glob
    import os

    places = {
        "PCI config space": sorted(glob.glob("/proc/bus/pci/*/*"))[:1],
        "IRQ affinity": sorted(glob.glob("/proc/irq/*/smp_affinity"))[:1],
        "pressure trigger": ["/proc/pressure/cpu"],
        "kernel setting": ["/proc/sys/vm/drop_caches"],
        "sysrq": ["/proc/sysrq-trigger"],
    }
    for name, paths in places.items():
        for path in paths:
            if not os.path.exists(path):
                print(name, "absent")
                continue
            try:
                os.close(os.open(path, os.O_WRONLY))
                written = path != "/proc/sysrq-trigger" or os.path.getsize(path)
                print(name, "opened for writing" if written else "null")
            except OSError as error:
                print(name, "refused:", type(error).__name__)
    with open(f"/proc/self/task/{os.getpid()}/comm", "w") as comm:
        comm.write("its-own-name")
    print("its own entry written:", open("/proc/self/comm").read().strip())
"""


def test_a_gpu_job_writes_only_its_own_entries_below_proc(project):
    """Simulated: on a CPU, a snippet declared cuda runs with a GPU job's rules when the engine is
    told the device is CUDA."""
    needs(restrictions.WRITES)
    path = project.snippet("gpu_job_writes.py", GPU_JOB_WRITES)
    result = project.engine(device="cuda").execute([path], progress=False)[0][path]
    assert result.status == Status.PASSED, result.failure
    for line in result.output.splitlines()[:-1]:
        assert line.endswith((" absent", " refused: OSError", " refused: PermissionError", " null")), line
    assert result.output.splitlines()[-1] == "its own entry written: its-own-name"


def test_a_gpu_jobs_rules_name_the_gpus_device_nodes_and_nothing_else(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("making device nodes (mknod) takes root")
    nodes = ["nvidiactl", "nvidia0", "nvidia1", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"]
    (tmp_path / "nvidia-caps").mkdir()
    for name in [*nodes, "nvidia-caps/nvidia-cap1", "kmsg", "nvidiax"]:
        os.mknod(tmp_path / name, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    (tmp_path / "nvidia-log").write_text("")  # a file, not a device
    expected = sorted([*(tmp_path / name for name in nodes), tmp_path / "nvidia-caps" / "nvidia-cap1"])
    assert restrictions.gpu_device_nodes(str(tmp_path)) == expected


def test_a_gpu_job_may_write_the_gpu_and_proc_besides_what_any_job_may(monkeypatch):
    monkeypatch.setattr(restrictions, "gpu_device_nodes", lambda: [Path("/dev/nvidia0")])
    own = ("/job/work", "/job/home", "/job/tmp")
    cpu = restrictions.writable_places("/job", own, ("/job/events.jsonl",))
    gpu = restrictions.writable_places("/job", own, ("/job/events.jsonl",), gpu=True)
    assert gpu == [*cpu, Path("/dev/nvidia0"), Path("/proc")]
    assert Path("/job") not in cpu and Path("/dev") not in cpu


def test_of_proc_only_the_processes_own_entries_stay_writable_for_a_gpu_job():
    read_only = {path.name for path in restrictions.read_only_proc_entries()}
    for entry in ("sys", "irq", "bus", "pressure", "sysrq-trigger"):
        assert entry in read_only or not Path("/proc", entry).exists(), entry
    assert not {name for name in read_only if name.isdigit()} and "self" not in read_only
    left = set(os.listdir("/proc")) - read_only
    assert all(name.isdigit() or Path("/proc", name).is_symlink() for name in left), left
