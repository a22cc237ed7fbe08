"""Runs jobs in isolated processes: forked from warm servers, or as plain subprocesses."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from docexec.execution import process_tree, project_writes
from docexec.execution.jobs import Job, Report, lost_server_report, overdue_report
from docexec.execution.supervisor import Watched, supervise
from docexec.sandbox import environment
from docexec.sandbox.capture import output_pipes, readable

# Past a job's timeout, how long the engine waits for its server's report before it kills the
# server: the server's own ending of a snippet (kills, clean-up, a project snapshot) takes less.
GRACE_SECONDS = 15.0
_WAKE_SECONDS = 0.5  # how often a thread that waits for a report checks that the run goes on


class EngineError(RuntimeError):
    """The execution machinery itself failed (not a snippet)."""


class ServerStoppedError(EngineError):
    """A warm server ended while it ran a job (killed by its snippet, or it failed to start)."""


class _OverdueError(Exception):
    """No report by the job's deadline: the server is stopped or stuck."""


def fork_is_available() -> bool:
    return hasattr(os, "fork") and hasattr(os, "pidfd_open")


class WarmServer:
    """One ``python -m docexec.execution.warm_server`` process; runs one job at a time."""

    def __init__(self, preload: tuple[str, ...] = ()) -> None:
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 - lives with the server
        self._process = subprocess.Popen(
            [sys.executable, "-m", "docexec.execution.warm_server", *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            bufsize=0,  # read with poll() and os.read: a report must not wait in a buffer
            # Snippets are forked from it: it must not hold what they must not see.
            env=environment.supervisor_environment(),
            # Out of the terminal's process group: a Ctrl-C reaches the engine, which ends the
            # snippets in order, and not the server while its snippet lives on.
            start_new_session=True,
        )
        self._ready = False
        self._received = b""
        self._given_up = False

    def fork_job(self, job: Job) -> Report:
        """Run ``job``; the engine keeps its own deadline rather than trust the server's: a server
        that a snippet stopped (SIGSTOP) or that hangs is killed, with all below it, and the job
        reported as timed out."""
        if not self._ready:
            try:
                ready = self._read()  # once the preloaded modules are imported
            except ServerStoppedError as failed:
                raise EngineError(f"the warm server did not start: {failed}") from None
            if not ready["ready"]:
                raise EngineError(
                    f"the warm server could not preload what [tool.docexec] preload names: {ready['error']}"
                )
            self._ready = True
        assert self._process.stdin is not None
        started = time.perf_counter()
        try:
            self._process.stdin.write((json.dumps(job.to_json()) + "\n").encode())
        except BrokenPipeError:
            raise self._stopped() from None
        try:
            return Report.from_json(self._read(time.monotonic() + job.timeout + GRACE_SECONDS))
        except _OverdueError:
            self.kill()
            return overdue_report(job, time.perf_counter() - started)

    def give_up(self) -> None:
        """Whoever waits for this server's report stops waiting (the run is being stopped)."""
        self._given_up = True

    def _read(self, deadline: float | None = None) -> dict:
        assert self._process.stdout is not None
        fd = self._process.stdout.fileno()
        while b"\n" not in self._received:
            if self._given_up:
                raise ServerStoppedError("stopped by the engine")
            wait = _WAKE_SECONDS if deadline is None else min(_WAKE_SECONDS, deadline - time.monotonic())
            if wait <= 0:
                raise _OverdueError
            if not readable([fd], wait):
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._stopped()
            self._received += chunk
        line, _, self._received = self._received.partition(b"\n")
        return json.loads(line)

    def _stopped(self) -> ServerStoppedError:
        """Once its pipe is closed, the server is ending: waited for, so that it is not taken for
        a live one (and given the next job) in the moment before it is gone."""
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        self._stderr.seek(0)
        return ServerStoppedError(self._stderr.read()[-2000:].strip())

    def alive(self) -> bool:
        return self._process.poll() is None

    @property
    def pid(self) -> int:
        return self._process.pid

    def kill(self) -> None:
        """End the server now, with the snippet it is running and all that the snippet started."""
        process_tree.kill_tree(self._process.pid)
        self._process.wait()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # a server that died took its pipe with it
            if self._process.stdin:
                self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._stderr.close()


def job_in_subprocess(job: Job) -> Report:
    """The fallback where fork is unavailable: a fresh interpreter per snippet (slower)."""
    start = time.perf_counter()
    before = project_writes.snapshot_unless_read_only(Path(job.root))
    pipes = output_pipes()
    reads = {name: read for name, (read, _) in pipes.items()}
    job_file = Path(job.job_dir) / "job.json"
    job_file.write_text(json.dumps({"job": job.to_json(), "pipes": reads}), encoding="utf-8")
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "docexec.sandbox.child", str(job_file)],
            stdin=subprocess.DEVNULL,
            stdout=pipes["stdout"][1],
            stderr=pipes["stderr"][1],
            pass_fds=tuple(reads.values()),
            env=environment.for_snippet(environment.supervisor_environment(), job.home, job.tmp),
            start_new_session=True,
        )
    finally:
        for _, write in pipes.values():
            os.close(write)
    ended: list[int] = []

    def exit_status() -> int | None:
        if not ended:
            pid, status = os.waitpid(process.pid, os.WNOHANG)
            if pid:
                ended.append(status)
        return ended[0] if ended else None

    def end_all() -> int:
        if not ended:
            process_tree.kill_tree(process.pid)
            ended.append(os.waitpid(process.pid, 0)[1])
        process.returncode = os.waitstatus_to_exitcode(ended[0])  # reaped here, not by Popen
        return ended[0]

    try:
        return supervise(Watched(process.pid, exit_status, end_all), job, reads, start, before)
    finally:
        for read in reads.values():
            os.close(read)


class WarmPool:
    """Warm servers shared by successive runs (a live preview), so that no run after the first
    waits for torch to import. After a run, at most ``keep`` idle servers stay; `close` ends all."""

    def __init__(self, keep: int = 2, preload: tuple[str, ...] = ()) -> None:
        self.keep = keep
        self.preload = preload
        self._idle: queue.Queue[WarmServer] = queue.Queue()
        self._servers: list[WarmServer] = []
        self._closed = False
        self._lock = threading.Lock()

    def grow(self, count: int) -> None:
        """Start servers until there are ``count`` (they import torch in the background)."""
        with self._lock:
            while not self._closed and len(self._servers) < count:
                self._add()

    def _add(self) -> None:
        server = WarmServer(self.preload)
        self._servers.append(server)
        self._idle.put(server)

    @property
    def closed(self) -> bool:
        return self._closed

    def take(self) -> WarmServer:
        while True:
            if self._closed:
                raise EngineError("the warm servers were shut down")
            with contextlib.suppress(queue.Empty):
                return self._idle.get(timeout=0.5)

    def give_back(self, server: WarmServer) -> None:
        with self._lock:
            if self._closed:
                return
            if server.alive():
                self._idle.put(server)
                return
            server.close()  # a snippet took its server down with it: start a fresh one
            self._servers.remove(server)
            self._add()

    def trim(self) -> None:
        with self._lock:
            while len(self._servers) > self.keep:
                try:
                    server = self._idle.get_nowait()
                except queue.Empty:
                    return
                server.close()
                self._servers.remove(server)

    def kill_now(self) -> None:
        """End every server and the snippets they run at once, from a signal handler: takes no
        lock (the interrupted thread may hold it) and waits for nothing; no new server starts."""
        self._closed = True
        for server in list(self._servers):
            server.give_up()
            with contextlib.suppress(OSError):
                process_tree.kill_tree(server.pid, patience=1.0)

    def close(self) -> None:
        """Idle servers end when their input closes; busy ones are killed with their snippet."""
        with self._lock:
            self._closed = True
            idle = []
            with contextlib.suppress(queue.Empty):
                while True:
                    idle.append(self._idle.get_nowait())
            for server in self._servers:
                if server in idle:
                    server.close()
                else:
                    server.kill()
            self._servers.clear()


def execute_jobs(
    jobs: list[Job],
    workers: int,
    on_done: Callable[[Job, Report], None],
    use_fork: bool = True,
    pool: WarmPool | None = None,
    preload: tuple[str, ...] = (),
) -> None:
    """Run ``jobs`` on up to ``workers`` processes at once; ``on_done(job, report)`` for each.

    With ``pool``, the warm servers come from it and stay in it; without, they live for this run
    and import ``preload`` first.
    """
    if not jobs:
        return
    use_fork = use_fork and fork_is_available()
    workers = max(1, min(workers, len(jobs)))
    own_pool = pool is None
    servers = WarmPool(keep=0, preload=preload) if pool is None else pool
    if use_fork:
        servers.grow(workers)  # started together: each imports torch on its own core

    def execute(job: Job) -> None:
        # A GPU job starts in a fresh interpreter: what a warm server preloaded was set up with the
        # server's HOME (Triton's cache folders), and CUDA is best not started in a forked process.
        if not use_fork or job.gpu:
            on_done(job, job_in_subprocess(job))
            return
        server = servers.take()
        start = time.perf_counter()
        try:
            report = server.fork_job(job)
        except ServerStoppedError as stopped:
            if servers.closed:  # stopped by the engine itself (Ctrl-C): no result to report
                raise
            # The run goes on (give_back starts a new server); the snippet fails, named.
            report = lost_server_report(job, str(stopped), time.perf_counter() - start)
        finally:
            servers.give_back(server)
        on_done(job, report)

    executor = ThreadPoolExecutor(max_workers=workers)
    try:
        with _terminated_as_exit():
            for future in [executor.submit(execute, job) for job in jobs]:
                future.result()
    except (KeyboardInterrupt, SystemExit):
        # A stop (Ctrl-C, SIGTERM) ends the running snippets now, also on servers this run shares
        # with later ones (a preview's): their threads would otherwise wait for them to end.
        servers.kill_now()
        raise
    finally:
        # First the servers (with the snippets they run and all these started): that frees the
        # threads waiting for their reports, which the executor then waits for.
        if own_pool:
            servers.close()
        else:
            servers.trim()
        executor.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _terminated_as_exit() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl-C (``finally`` blocks run: snippets killed, folders removed),
    then exits with the status a SIGTERM gives. Only where SIGTERM has its default action: a host
    that set its own (the preview stops as on Ctrl-C) or a caller that ignores it keeps that.
    Only the main thread can take signals."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
