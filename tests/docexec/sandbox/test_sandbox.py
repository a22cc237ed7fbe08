"""The allow-list around a snippet (`docexec.sandbox.restrictions`), tried by real snippets that attempt each
escape: read another process's environment, write outside their folder, open a connection, fill
the disk or the shared memory. Where this machine cannot enforce a restriction, the build names
it (`restrictions.unenforced`) and its test is skipped, saying which."""

from __future__ import annotations

import os
import re
import socket
import tempfile
from pathlib import Path

import pytest

from docexec.execution.result import Status
from docexec.sandbox import restrictions

SECRET = "s3cr3t-of-the-build-7c1f"

READS_ENVIRONMENTS = """
    import os

    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                found.append(open(f"/proc/{entry}/environ", "rb").read())
            except OSError:
                pass
    print("environments read:", sum(bool(text) for text in found))
    print("".join(text.decode(errors="replace") for text in found))
    try:
        print("the engine's command line:", open(f"/proc/{engine}/cmdline", "rb").read())
    except OSError as error:  # not listed in the /proc of its own PID namespace
        print("the engine's command line:", type(error).__name__)
"""

SEES_PROCESSES = """
    import os

    print("processes in sight:", sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit()))
    print("its own entry:", open(f"/proc/{os.getpid()}/stat").read().split()[0] == str(os.getpid()))
"""

WRITES_OUTSIDE = """
    import os
    from pathlib import Path

    for place in ["/var/tmp", "/tmp", "/root", os.environ["TMPDIR"], "/dev/shm"]:
        try:
            Path(place, "docexec-escape.txt").write_text("x")
            print(place, "written")
        except PermissionError:
            print(place, "refused")
"""

CONNECTS = """
    import socket

    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
        print("connected to the machine")
    except OSError as error:
        print("no connection:", type(error).__name__)
    try:
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen()
            socket.create_connection(server.getsockname(), timeout=2).close()
        print("loopback works")
    except OSError as error:
        print("no loopback:", type(error).__name__)
"""

BIG_FILE = """
    # docexec: memory=64M
    with open("big.bin", "wb") as big:
        for _ in range(100):
            big.write(bytes(1 << 20))
"""

FILLS_SHARED_MEMORY = """
    # docexec: memory=64M
    for part in range(3):  # each file below the file-size limit, together above the memory
        with open(f"/dev/shm/docexec-fill-{part}", "wb") as fill:
            fill.write(bytes(30 << 20))
"""


FILLS_ITS_FOLDERS = """
    # docexec: memory=64M
    import os

    folders = {"work": ".", "home": os.environ["HOME"], "tmp": os.environ["TMPDIR"]}
    for name, folder in folders.items():  # each file below the limit, together above it
        with open(os.path.join(folder, "fill.bin"), "wb") as fill:
            fill.write(bytes(25 << 20))
        print("wrote 25 MiB in", name)
"""

SHARED_MEMORY_AND_HEAP = """
    # docexec: memory=96M
    import time

    with open("/dev/shm/docexec-held", "wb") as held:  # kept in RAM, mapped by no process
        held.write(bytes(60 << 20))
    heap = bytearray(60 << 20)  # each half of it below the limit
    time.sleep(3)
    print("both held")
"""

SIGNALS_OUTSIDE = """
    import os
    import signal
    import subprocess
    import sys

    for name, pid in (("the engine", {engine}), ("the engine's parent", {engine_parent})):
        try:
            os.kill(pid, signal.SIGCONT)  # harmless, were it delivered
            print(name, "signalled")
        except (PermissionError, ProcessLookupError) as error:
            # Landlock's scope refuses it; in the snippet's own PID namespace it does not exist.
            print(name, "refused:", type(error).__name__)
    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    own.kill()  # its own processes it may end
    print("its own child ended:", own.wait() == -signal.SIGKILL)
"""

REACHES_SOCKETS = """
    import socket

    for address in ({path!r}, "\\0" + {abstract!r}):
        try:
            with socket.socket(socket.AF_UNIX) as client:
                client.connect(address)
            print("connected")
        except OSError as error:
            print("refused:", type(error).__name__)
"""

READS_SECRETS = """
    import os

    for path in ("/etc/shadow", {git_config!r}):
        try:
            with open(path, "rb") as secret:
                print(path.rsplit("/", 1)[-1], "read:", len(secret.read()), "bytes")
        except OSError as error:
            print(path.rsplit("/", 1)[-1], "refused:", type(error).__name__)
"""


def stopped_for_memory(result, limit: str) -> bool:  # type: ignore[no-untyped-def]
    """Files and shared memory are counted with the snippet's memory: the supervisor may stop it
    before the file system refuses a write."""
    return f"exceeded its memory limit of {limit}" in result.failure


def needs(restriction: str) -> None:
    if restriction in restrictions.unenforced():
        pytest.skip(f"this machine does not enforce: {restriction}")


@pytest.fixture(scope="module")
def listening():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


@pytest.fixture(scope="module")
def machine_sockets(tmp_path_factory):
    """A socket in the file system and an abstract one, listening, as a daemon of the machine's."""
    path = str(tmp_path_factory.mktemp("daemon") / "daemon.sock")
    abstract = f"docexec-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX) as in_files, socket.socket(socket.AF_UNIX) as in_abstract:
        in_files.bind(path)
        in_abstract.bind("\0" + abstract)
        for server in (in_files, in_abstract):
            server.listen()
        yield path, abstract


@pytest.fixture(scope="module", params=[True, False], ids=["forked", "subprocess"])
def batch(request, module_project, listening, machine_sockets):
    git = module_project.root / ".git"
    git.mkdir(exist_ok=True)
    (git / "config").write_text(f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n")
    path, abstract = machine_sockets
    snippets = {
        "reads_environments.py": READS_ENVIRONMENTS.replace("{engine}", str(os.getpid())),
        "sees_processes.py": SEES_PROCESSES,
        "writes_outside.py": WRITES_OUTSIDE,
        "connects.py": CONNECTS.format(port=listening),
        "connects_declared.py": "    # docexec: network" + CONNECTS.format(port=listening),
        "big_file.py": BIG_FILE,
        "fills_shared_memory.py": FILLS_SHARED_MEMORY,
        "fills_its_folders.py": FILLS_ITS_FOLDERS,
        "shared_memory_and_heap.py": SHARED_MEMORY_AND_HEAP,
        "signals_outside.py": SIGNALS_OUTSIDE.format(engine=os.getpid(), engine_parent=os.getppid()),
        "reaches_sockets.py": REACHES_SOCKETS.format(path=path, abstract=abstract),
        "reaches_sockets_declared.py": "    # docexec: network"
        + REACHES_SOCKETS.format(path=path, abstract=abstract),
        "reads_secrets.py": READS_SECRETS.format(git_config=str(git / "config")),
    }
    paths = [module_project.snippet(name, code) for name, code in snippets.items()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BUILD_SECRET", SECRET)  # in mkdocs build's own environment, and its shell's
        engine = module_project.engine(
            workers=2, fork=request.param, cache_dir=module_project.root / f".cache-{request.param}"
        )
        results, _ = engine.execute(paths, progress=False)
    return {path.removeprefix("snippets/"): result for path, result in results.items()}


def test_this_machine_enforces_every_restriction_or_names_it():
    assert set(restrictions.unenforced()) <= set(restrictions.ALL)


def test_no_environment_of_another_process_can_be_read(batch):
    needs(restrictions.ENVIRONMENTS)
    result = batch["reads_environments.py"]
    assert result.status == Status.PASSED, result.failure
    assert SECRET not in result.output
    assert "environments read: 1\n" in result.output  # its own only
    assert re.search(r"^the engine's command line: (b''|FileNotFoundError)$", result.output, re.M)


def test_writes_are_allowed_in_the_snippets_own_folders_only(batch):
    needs(restrictions.WRITES)
    result = batch["writes_outside.py"]
    assert result.status == Status.PASSED, result.failure
    lines = result.output.splitlines()
    assert lines[:3] == ["/var/tmp refused", "/tmp refused", "/root refused"]
    assert lines[3:] == [f"{lines[3].split()[0]} written", "/dev/shm written"]


def test_no_network_unless_declared_and_then_loopback_only(batch):
    needs(restrictions.NETWORK)
    undeclared, declared = batch["connects.py"], batch["connects_declared.py"]
    assert undeclared.status == Status.PASSED, undeclared.failure
    assert undeclared.output == "no connection: OSError\nno loopback: OSError\n"
    assert declared.status == Status.PASSED, declared.failure
    assert declared.output == "no connection: ConnectionRefusedError\nloopback works\n"


def test_a_file_cannot_grow_past_the_declared_memory(batch):
    needs(restrictions.FILE_SIZE)
    result = batch["big_file.py"]
    assert result.status == Status.FAILED
    assert "OSError: [Errno 27] File too large" in result.failure or stopped_for_memory(result, "64 MiB")


def test_shared_memory_counts_against_the_declared_memory(batch):
    needs(restrictions.SHARED_MEMORY)
    result = batch["fills_shared_memory.py"]
    assert result.status == Status.FAILED
    assert "No space left on device" in result.failure or stopped_for_memory(result, "64 MiB")


def test_what_a_snippet_writes_over_several_files_has_one_limit_its_memory(batch):
    needs(restrictions.SHARED_MEMORY)
    result = batch["fills_its_folders.py"]
    assert result.status == Status.FAILED
    assert stopped_for_memory(result, "64 MiB"), result.failure


def test_shared_memory_counts_with_the_heap(batch):
    needs(restrictions.SHARED_MEMORY)
    result = batch["shared_memory_and_heap.py"]
    assert result.status == Status.FAILED
    assert result.failure.startswith(
        "snippets/shared_memory_and_heap.py: exceeded its memory limit of 96 MiB"
    ), result.failure


def test_no_signal_reaches_a_process_outside_the_snippet(batch):
    needs(restrictions.SIGNALS)
    result = batch["signals_outside.py"]
    assert result.status == Status.PASSED, result.failure
    refused = r"refused: (PermissionError|ProcessLookupError)"
    assert re.fullmatch(
        f"the engine {refused}\nthe engine's parent {refused}\nits own child ended: True\n", result.output
    ), result.output


def test_a_snippet_sees_only_its_own_processes_under_the_pids_it_knows(batch):
    needs(restrictions.PROCESSES)
    result = batch["sees_processes.py"]
    assert result.status == Status.PASSED, result.failure
    # The namespace's first process, which waits for the snippet, and the snippet.
    assert result.output == "processes in sight: [1, 2]\nits own entry: True\n"


def test_no_socket_of_the_machine_can_be_reached(batch):
    needs(restrictions.SOCKETS)
    for name in ("reaches_sockets.py", "reaches_sockets_declared.py"):
        result = batch[name]
        assert result.status == Status.PASSED, result.failure
        assert result.output == "refused: ConnectionRefusedError\nrefused: ConnectionRefusedError\n", name


def test_password_files_and_the_projects_git_are_hidden(batch):
    needs(restrictions.SECRETS)
    result = batch["reads_secrets.py"]
    assert result.status == Status.PASSED, result.failure
    assert SECRET not in result.output
    lines = result.output.splitlines()
    if Path("/etc/shadow").exists():
        assert lines[0] in ("shadow read: 0 bytes", "shadow refused: PermissionError")
    assert lines[1] == "config refused: PermissionError"


UNPRIVILEGED_PROBE = (
    "from docexec.sandbox import restrictions as r; r.say_what_is_not_in_force(); print(r.unenforced())"
)


def test_without_root_the_restrictions_hold_or_are_named_on_the_console():
    """As a user without privileges (setpriv to nobody): a user namespace where the kernel allows
    one, else each refused restriction named once on stderr."""
    import os
    import shutil
    import subprocess
    import sys

    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to become an unprivileged user")
    # The checkout may lie in a folder only root can read (a clone in `mktemp -d`): the probe
    # imports the sandbox (standard library only) from a copy that the user can read.
    readable = Path(tempfile.mkdtemp(prefix="docexec-probe-"))
    try:
        shutil.copytree(Path(restrictions.__file__).parent.parent, readable / "docexec")
        for folder, _, files in os.walk(readable):
            os.chmod(folder, 0o755)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o644)
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c"]
        finished = subprocess.run(
            [*command, UNPRIVILEGED_PROBE],
            capture_output=True,
            text=True,
            cwd=readable,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(readable)},
        )
    finally:
        shutil.rmtree(readable)
    assert finished.returncode == 0, finished.stderr
    missing = eval(finished.stdout)  # noqa: S307 - the tuple of names printed by the probe
    assert set(missing) <= set(restrictions.ALL)
    if missing:
        assert finished.stderr.count("docexec: not in force on this machine") == 1
        assert all(name in finished.stderr for name in missing)
    else:
        assert finished.stderr == ""


def test_a_secret_of_the_callers_environment_is_redacted_from_what_is_published(project, monkeypatch):
    """The second line: however a snippet came by a secret's value, it is not published."""
    from docexec.execution import published

    monkeypatch.setenv("DEPLOY_TOKEN", SECRET)
    published._secrets.cache_clear()
    path = project.snippet("leaks.py", f'print("token: {SECRET}")\nraise ValueError("{SECRET}")\n')
    try:
        results, _ = project.engine().execute([path], progress=False)
    finally:
        published._secrets.cache_clear()
    result = results[path]
    assert result.output == "token: [redacted]\n"
    assert SECRET not in result.failure and SECRET not in result.exception.traceback
    assert "ValueError: [redacted]" in result.failure
