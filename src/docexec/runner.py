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
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


class EngineError(RuntimeError):
    """The execution machinery itself failed (not a snippet)."""


def fork_is_available() -> bool:
    return hasattr(os, "fork") and hasattr(os, "pidfd_open") and not os.environ.get("DOCEXEC_NO_FORK")


def _child_environment() -> dict[str, str]:
    # Fixed hash seed: set and dict-of-str ordering is the same in every run.
    return {**os.environ, "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg"}


class WarmServer:
    """One ``python -m docexec.server`` process; runs one job at a time."""

    def __init__(self) -> None:
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 - lives with the server
        self._process = subprocess.Popen(
            [sys.executable, "-m", "docexec.server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=_child_environment(),
        )
        self._ready = False

    def run(self, job: dict) -> dict:
        if not self._ready:
            self._read()  # the {"ready": true} line, once torch is imported
            self._ready = True
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(job) + "\n")
        self._process.stdin.flush()
        return self._read()

    def _read(self) -> dict:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            self._stderr.seek(0)
            raise EngineError(f"the warm server stopped: {self._stderr.read()[-2000:]}")
        return json.loads(line)

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._stderr.close()


def run_in_subprocess(job: dict) -> dict:
    """The fallback where fork is unavailable: a fresh interpreter per snippet (slower)."""
    job_file = Path(job["job_dir"]) / "job.json"
    job_file.write_text(json.dumps(job), encoding="utf-8")
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "docexec.child", str(job_file)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_child_environment(),
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=job["timeout"])
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    code = process.wait()
    return {"exit_code": code, "timed_out": timed_out, "duration": time.perf_counter() - start}


def run_jobs(
    jobs: list[dict], workers: int, on_done: Callable[[dict, dict], None], use_fork: bool | None = None
) -> None:
    """Run ``jobs`` on up to ``workers`` processes at once; ``on_done(job, report)`` for each."""
    if not jobs:
        return
    use_fork = fork_is_available() if use_fork is None else use_fork
    workers = max(1, min(workers, len(jobs)))
    servers: queue.Queue[WarmServer] = queue.Queue()
    started: list[WarmServer] = []
    if use_fork:
        for _ in range(workers):  # started together: each imports torch on its own core
            server = WarmServer()
            started.append(server)
            servers.put(server)

    def execute(job: dict) -> None:
        if not use_fork:
            on_done(job, run_in_subprocess(job))
            return
        server = servers.get()
        try:
            report = server.run(job)
        finally:
            servers.put(server)
        on_done(job, report)

    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for future in [pool.submit(execute, job) for job in jobs]:
                future.result()
    finally:
        for server in started:
            server.close()


def new_job(path: str, abs_path: Path, timeout: float, scratch: Path, index: int) -> dict:
    """A job description, with an empty working folder for the snippet."""
    job_dir = scratch / f"job-{index}"
    work_dir = job_dir / "work"
    work_dir.mkdir(parents=True)
    return {
        "path": path,
        "abs_path": str(abs_path),
        "timeout": timeout,
        "seed": 0,
        "job_dir": str(job_dir),
        "work_dir": str(work_dir),
    }
