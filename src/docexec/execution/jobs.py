"""What the engine asks a runner to do (a `Job`) and what the runner answers (a `Report`).

Both cross a process boundary as one JSON line each (to a warm server, or a file for the
subprocess fallback): ``to_json`` and ``from_json`` are the protocol, and a field added on one side
is a field the other side reads, checked by the type.
"""

from __future__ import annotations

import signal
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path

from docexec.sandbox import restrictions

# Files and folders in a job's folder past which its snippet is stopped: every one is counted (no
# number of empty files hides the bytes of others), and a count this high is no page's example.
MOST_FILES = 200_000


@dataclass(frozen=True)
class Job:
    """One snippet to run, with the folders of its own that the runner creates."""

    path: str  # relative to the project, as pages and messages name it
    abs_path: str
    root: str  # the project: read-only to the snippet
    timeout: float  # seconds
    memory_limit: int  # bytes, for all its processes together
    seed: int
    scratch: str  # the run's folder: removed by a server whose engine is gone
    job_dir: str  # events.jsonl is written here
    work_dir: str
    home: str
    tmp: str
    network: bool = False  # declared: loopback between its own processes
    gpu: bool = False  # declared ``cuda`` and run on a CUDA device: the GPU's device nodes are writable
    # The declared ``match=`` pattern: searched in the message inside the snippet's process, under
    # its timeout, never in the engine (a pattern can backtrack for minutes).
    match: str | None = None
    # The text that runs: read once by the engine, which took the cache key from the same bytes.
    source: str = ""
    # The homes of the user the engine runs as, hidden from the snippet but for what it needs.
    homes: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Job:
        job = cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
        return replace(job, homes=tuple(job.homes))


@dataclass(frozen=True)
class Report:
    """How a snippet's process ended, as its supervisor saw it. The output is in ``events.jsonl``."""

    exit_code: int  # negative: the signal that ended it
    timeout: float
    memory_limit: int
    root: str
    duration: float  # seconds: fork, set-up, the snippet, capture
    timed_out: bool = False
    abandoned: bool = False  # whoever asked for the job went away while it ran
    memory_exceeded: bool = False
    peak_memory: int = 0  # bytes, sampled
    files_exceeded: bool = False  # made more than MOST_FILES files and folders
    oom_killed: bool = False  # by the kernel's out-of-memory killer
    oom_kills: int = 0  # by the kernel, of any process, while the snippet ran
    project_writes: list[str] = field(default_factory=list)
    server_lost: str | None = None  # what a warm server that ended under the job said

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Report:
        return cls(**{f.name: data[f.name] for f in fields(cls)})


def new_job(
    path: str,
    root: Path,
    timeout: float,
    memory_limit: int,
    seed: int,
    scratch: Path,
    index: int,
    network: bool = False,
    gpu: bool = False,
    match: str | None = None,
    source: str = "",
) -> Job:
    """A job with an empty working folder, home and temporary folder for the snippet."""
    job_dir = scratch / f"job-{index}"
    folders = {name: job_dir / name for name in ("work", "home", "tmp")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    return Job(
        path=path,
        abs_path=str(root / path),
        root=str(root),
        timeout=timeout,
        memory_limit=memory_limit,
        seed=seed,
        scratch=str(scratch),
        job_dir=str(job_dir),
        work_dir=str(folders["work"]),
        home=str(folders["home"]),
        tmp=str(folders["tmp"]),
        network=network,
        gpu=gpu,
        match=match,
        source=source,
        homes=restrictions.build_homes(),  # here, in the engine: the snippet's process has its own HOME
    )


def lost_server_report(job: Job, server_stderr: str, duration: float) -> Report:
    """The report of a job whose warm server ended under it: no exit status, no measurements."""
    return Report(
        exit_code=-signal.SIGKILL,
        timeout=job.timeout,
        memory_limit=job.memory_limit,
        root=job.root,
        duration=duration,
        server_lost=server_stderr or "no message",
    )


def overdue_report(job: Job, duration: float) -> Report:
    """The report of a job whose server sent none by the engine's deadline (stopped or stuck):
    the engine killed the server, so the job ran past its timeout."""
    return Report(
        exit_code=-signal.SIGKILL,
        timeout=job.timeout,
        memory_limit=job.memory_limit,
        root=job.root,
        duration=duration,
        timed_out=True,
    )


__all__ = ["MOST_FILES", "Job", "Report", "lost_server_report", "new_job", "overdue_report"]
