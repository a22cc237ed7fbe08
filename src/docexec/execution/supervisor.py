"""Watches one running snippet: its time, the memory of all its processes (with its shared memory
and the files it wrote), the output its children write to the file descriptors, and whether it
wrote into the project."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from docexec.execution import process_tree, project_writes
from docexec.execution.jobs import MOST_FILES, Job, Report
from docexec.sandbox.capture import EVENTS_FILE, OutputRecorder, readable

POLL_SECONDS = 0.1  # how often the memory is checked; an allocation may overshoot for this long
PEAK_SECONDS = 0.5  # how often the peak is measured: the proportional sizes take milliseconds


class TooManyFilesError(Exception):
    """The snippet made more than `MOST_FILES` files and folders."""


def written_bytes(folder: Path) -> int:
    """The bytes on disk of the files and folders below ``folder`` (the job's: what the snippet
    wrote, over any number of files, counts against its memory as what it holds in RAM does).
    Raises TooManyFilesError past `MOST_FILES` of them."""
    total = entries = 0
    pending = [folder]
    while pending:
        try:
            with os.scandir(pending.pop()) as listing:
                for entry in listing:
                    entries += 1
                    if entries > MOST_FILES:
                        raise TooManyFilesError
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            pending.append(Path(entry.path))
                        elif not entry.is_file(follow_symlinks=False):
                            continue
                        total += entry.stat(follow_symlinks=False).st_blocks * 512
                    except OSError:
                        continue  # removed meanwhile
        except OSError:
            continue
    return total


@dataclass
class Watched:
    """The snippet's top process and how the caller learns of and forces its end."""

    pid: int
    exit_status: Callable[[], int | None]  # a wait status once the process has ended, else None
    end_all: Callable[[], int]  # kill the process and all below it; its wait status
    wake_fd: int | None = None  # readable when the process ends (a pidfd), where there is one
    parent_gone_fd: int | None = None  # readable when the one who asked for the job is gone


def supervise(
    watched: Watched,
    job: Job,
    pipes: dict[str, int],
    started: float,
    before: project_writes.Snapshot | None,
) -> Report:
    """Wait for the snippet, end everything it started, and report how it ended.

    ``pipes``: the read ends of its stdout and stderr pipes; ``before``: the project's files
    before it started, None where the project is read-only to it."""
    recorder = OutputRecorder(Path(job.job_dir) / EVENTS_FILE, pipes)
    try:
        return _supervise(watched, job, recorder, started, before)
    finally:
        recorder.close()


def _supervise(
    watched: Watched,
    job: Job,
    recorder: OutputRecorder,
    started: float,
    before: project_writes.Snapshot | None,
) -> Report:
    deadline = time.monotonic() + job.timeout
    limit = job.memory_limit
    oom_before = process_tree.oom_kills()
    peak = 0
    next_peak = time.monotonic() + POLL_SECONDS
    ending = "ended"
    while True:
        status = watched.exit_status()
        if status is not None:
            break
        # The proportional sizes only where the resident ones (an upper bound) pass the limit.
        if time.monotonic() >= next_peak or process_tree.tree_resident(watched.pid) > limit:
            measuring = time.monotonic()
            try:
                written = written_bytes(Path(job.job_dir))
            except TooManyFilesError:
                ending = "files"
                break
            memory = process_tree.tree_memory(watched.pid, job.job_dir) + written
            # A count that takes long (many files) takes at most a fifth of the time.
            next_peak = time.monotonic() + max(PEAK_SECONDS, 4 * (time.monotonic() - measuring))
            peak = max(peak, memory)
            if memory > limit:
                ending = "memory"
                break
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            ending = "timeout"
            break
        watched_fds = [fd for fd in (watched.wake_fd, watched.parent_gone_fd) if fd is not None]
        ready = readable([*recorder.open_pipes(), *watched_fds], min(POLL_SECONDS, remaining))
        if watched.parent_gone_fd is not None and watched.parent_gone_fd in ready:
            ending = "abandoned"
            break
        if set(ready) & set(recorder.open_pipes()) and not recorder.drain_if_free():
            time.sleep(0.001)  # the snippet's side is draining them
    ended_status = watched.end_all()
    if status is None:
        status = ended_status
    try:
        written = written_bytes(Path(job.job_dir))  # once more: files written faster than sampled
    except TooManyFilesError:
        written, ending = 0, "files" if ending == "ended" else ending
    if ending == "ended" and written > limit:
        ending, peak = "memory", max(peak, written)
    recorder.finish()
    killed_by = -os.waitstatus_to_exitcode(status) if os.WIFSIGNALED(status) else 0
    oom_kills = max(process_tree.oom_kills() - oom_before, 0) if oom_before >= 0 else 0
    return Report(
        exit_code=os.waitstatus_to_exitcode(status),
        timeout=job.timeout,
        memory_limit=limit,
        root=job.root,
        duration=time.perf_counter() - started,
        timed_out=ending == "timeout",
        abandoned=ending == "abandoned",
        memory_exceeded=ending == "memory",
        files_exceeded=ending == "files",
        peak_memory=peak,
        oom_killed=ending == "ended" and killed_by == signal.SIGKILL and oom_kills > 0,
        oom_kills=oom_kills,
        project_writes=(
            [] if before is None else project_writes.changed(before, project_writes.snapshot(Path(job.root)))
        ),
    )
