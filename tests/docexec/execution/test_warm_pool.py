"""An engine that keeps its warm servers (the live preview): later runs reuse them, a server that
a snippet took down is replaced, and closing the engine ends them all."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from processes import gone

from docexec.execution import pool, process_tree
from docexec.execution.pool import fork_is_available
from docexec.sandbox import restrictions

pytestmark = pytest.mark.skipif(not fork_is_available(), reason="warm servers need fork")


def children(pid: int) -> set[int]:
    found = set()
    with contextlib.suppress(OSError):  # a process that ended meanwhile
        for task in Path(f"/proc/{pid}/task").iterdir():
            found.update(int(child) for child in (task / "children").read_text().split())
    return found


def warm_servers(parent: int | None = None) -> set[int]:
    """The children of ``parent`` (this process) that are the engine's warm servers."""
    found = set()
    for child in children(parent or os.getpid()):
        try:
            if b"docexec.execution.warm_server" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            pass
    return found


def wait_for(condition, seconds: float = 20):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)
    return found


def test_runs_of_a_keep_warm_engine_share_its_servers_until_it_closes(project):
    first = project.snippet("pool/first_run_prints.py", "print('first')\n")
    second = project.snippet("pool/second_run_prints.py", "print('second')\n")
    before = warm_servers()
    engine = project.engine(workers=2, keep_warm=True)
    try:
        assert engine.execute([first], progress=False)[0][first].output == "first\n"
        kept = warm_servers() - before
        assert kept
        assert engine.execute([second], progress=False)[0][second].output == "second\n"
        assert warm_servers() - before == kept
    finally:
        engine.close()
    deadline = time.monotonic() + 20
    while warm_servers() & kept and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not warm_servers() & kept


LOSES_ITS_SERVER = "import time\n\ntime.sleep(600)\n"


def test_a_server_that_died_under_a_snippet_fails_that_snippet_and_is_replaced(project):
    """Killed from outside: a snippet cannot signal its server where the kernel scopes signals."""
    lost = project.snippet("pool/loses_its_server.py", LOSES_ITS_SERVER)
    after = project.snippet("pool/runs_after_the_kill.py", "print('still running snippets')\n")
    before = warm_servers()
    engine = project.engine(workers=1, keep_warm=True)
    snippet_processes = []

    def kill_the_server_once_its_snippet_runs() -> None:
        server = wait_for(lambda: [pid for pid in warm_servers() - before if children(pid)])[0]
        snippet_processes.extend(children(server))
        os.kill(server, signal.SIGKILL)

    killer = threading.Thread(target=kill_the_server_once_its_snippet_runs)
    killer.start()
    try:
        results, summary = engine.execute([lost, after], progress=False)
        killer.join()
        assert results[lost].failure.startswith(
            "snippets/pool/loses_its_server.py: the warm server that ran it stopped"
        )
        assert results[after].output == "still running snippets\n", results[after].failure  # the run went on
        assert engine.execute([after], progress=False)[0][after].output == "still running snippets\n"
    finally:
        engine.close()
    (orphan,) = snippet_processes
    deadline = time.monotonic() + 10  # it dies with its server, not at its timeout
    while Path(f"/proc/{orphan}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{orphan}").exists() or "Z" in Path(f"/proc/{orphan}/stat").read_text().split()[2]


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_a_warm_server_holds_no_more_descriptors_after_each_job(project):
    """Each job's output recorder closes what it opened: a server that leaked a few descriptors a
    job died at about its 509th under a limit of 1024, and the snippet it ran was blamed."""
    snippets = [project.snippet(f"pool/job_number_{number}.py", f"print({number})\n") for number in range(9)]
    before = warm_servers()
    engine = project.engine(workers=1, keep_warm=True)
    try:
        engine.execute(snippets[:1], progress=False)
        (server,) = warm_servers() - before
        held = open_descriptors(server)
        results, _ = engine.execute(snippets[1:], progress=False)
        assert [results[s].output for s in snippets[1:]] == [f"{n}\n" for n in range(1, 9)]
        assert open_descriptors(server) == held
    finally:
        engine.close()


def test_without_fork_the_engine_leaks_no_descriptor_and_watches_any_descriptor_number(project):
    """The subprocess fallback supervises in the engine's own process: a host with a thousand files
    open (a preview watching a tree) gets pipes above 1023, which select() cannot watch."""
    snippets = [project.snippet(f"pool/unforked_{number}.py", f"print({number})\n") for number in range(3)]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1100
    if hard != resource.RLIM_INFINITY and hard < wanted + 64:
        pytest.skip(f"a descriptor limit of {hard} leaves no number above 1023 to try")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted + 64), hard))
    filler = []
    try:
        with open(os.devnull) as null:  # the numbers below 1024 taken, as by a busy host
            while (fd := os.dup(null.fileno())) < wanted:
                filler.append(fd)
            os.close(fd)
        held = open_descriptors(os.getpid())
        results, _ = project.engine(workers=2, fork=False).execute(snippets, progress=False)
        assert [results[s].output for s in snippets] == ["0\n", "1\n", "2\n"], [
            results[s].failure for s in snippets
        ]
        assert open_descriptors(os.getpid()) == held
    finally:
        for fd in filler:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_engine_keeps_its_own_deadline_when_a_server_stops_reporting(project, monkeypatch):
    """A server stopped (SIGSTOP) while its snippet runs reports nothing: the engine kills it
    at the snippet's timeout and a grace (shortened here), and names the snippet as timed out."""
    monkeypatch.setattr(pool, "GRACE_SECONDS", 1.0, raising=False)
    sleeps = "# docexec: timeout=1\nimport time\ntime.sleep(60)\n"
    snippet = project.snippet("pool/its_server_is_stopped.py", sleeps)
    before = warm_servers()
    engine = project.engine(workers=1, keep_warm=True)
    results = []
    run = threading.Thread(target=lambda: results.append(engine.execute([snippet], progress=False)[0]))
    try:
        run.start()
        server = wait_for(lambda: [pid for pid in warm_servers() - before if children(pid)])[0]
        os.kill(server, signal.SIGSTOP)
        run.join(timeout=10)
        assert not run.is_alive(), "the engine waits for a stopped server"
        failure = results[0][snippet].failure
        assert failure == "snippets/pool/its_server_is_stopped.py: timed out after 1 s and was killed"
        wait_for(lambda: not Path(f"/proc/{server}").exists())  # killed, and a fresh one serves
        after = project.snippet("pool/runs_after_the_stop.py", "print('served')\n")
        assert engine.execute([after], progress=False)[0][after].output == "served\n"
    finally:
        engine.close()
        run.join()


LEAVES_A_DAEMON = """\
import os
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:  # a daemon, holding every descriptor the snippet had
        time.sleep(60)
        os._exit(0)
    os._exit(0)
os.wait()
time.sleep(60)
"""


def test_docexec_run_ends_when_its_server_dies_and_no_daemon_lives_on(project):
    """The server's report pipe is closed in the snippet's process: a daemon it leaves behind
    cannot keep the engine waiting for a report that will never come. In the snippet's own PID
    namespace, the daemon ends with the server: the kernel ends the namespace."""
    snippet = project.snippet("pool/leaves_a_daemon.py", LEAVES_A_DAEMON)
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(project.cache_dir)}
    command = subprocess.Popen(
        [sys.executable, "-m", "docexec.hosts.cli", "run", snippet],
        cwd=project.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    daemon = None
    try:
        server = wait_for(lambda: warm_servers(command.pid))
        server = next(iter(server))
        # The snippet and its daemon below the server, a subreaper; in a PID namespace, below the
        # process that waits outside it and the namespace's first process, which adopts the daemon.
        own_namespace = restrictions.PROCESSES not in restrictions.unenforced()
        expected = 4 if own_namespace else 2
        running = wait_for(lambda: below if len(below := process_tree.descendants(server)) == expected else 0)
        os.kill(server, signal.SIGKILL)
        daemon = max(running, key=lambda pid: int(Path(f"/proc/{pid}/stat").read_text().split()[21]))
        output, _ = command.communicate(timeout=20)
        if own_namespace:
            wait_for(lambda: all(map(gone, running)))
    finally:
        command.kill()
        if daemon is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(daemon, signal.SIGKILL)
    assert command.returncode == 1, output
    assert "snippets/pool/leaves_a_daemon.py: the warm server that ran it stopped" in output
