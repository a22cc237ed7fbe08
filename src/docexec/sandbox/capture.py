"""A snippet's stdout and stderr, recorded in the order written, as under ``python snippet.py``.

Python-level writes (``print``, ``sys.stdout.buffer.write``) go through `OutputRecorder` at once.
File descriptors 1 and 2 are pipes: what the snippet's child processes, C code and ``os.system``
write there is drained into the record before each Python-level write (so it keeps its place),
by the supervising process while the snippet waits, and once more when it has ended. Every
process that records takes a lock on the events file around "drain the pipes, then append", so
no text is recorded out of its order.

Only the first `HEAD_CHARS` of everything the snippet's processes wrote are recorded as they come
(a count shared by the recording processes in `HEAD_COUNT_FILE`); after that each process keeps the
last `TAIL_CHARS` it recorded, each piece stamped with the system-wide monotonic clock under the
lock, and records them when it ends. The result merges the tails by their stamps, so that head and
tail are cut over one sequence and the true end is always shown, whichever process recorded it.

A Python-level write drains the pipes only when ``poll`` says they hold something. Once the head
is full, ``sys.stdout`` is written in blocks, as under ``python snippet.py > file``: a snippet that
prints a million short lines then costs about what plain ``python`` does, not a lock and system
calls per line. What keeps the order around those blocks: pending text is recorded before any
other event, before a write to ``sys.stderr``, before the snippet starts a process (`os.fork`
hooks, and the audit events of ``subprocess``, ``os.system``, ``os.posix_spawn`` and ``os.exec*``)
and when the snippet ends. Once the pipes have carried output (a worker's print, ``os.write(1, ...)``,
C code), stdout goes back to lines for good: only what was written on the descriptors within the
block being filled then may land before that one block.
Blocks lose nothing on a crash or a kill: past the head, a process's tail is recorded only when it
finishes, so a process that never finishes loses it with or without them.
"""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import io
import json
import os
import select
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

MAX_OUTPUT_CHARS = 100_000
HEAD_CHARS = 60_000
TAIL_CHARS = MAX_OUTPUT_CHARS - HEAD_CHARS
# Figures are bounded as text is: a page shows a few; a loop that leaves thousands open would
# fill the build's disk and the site (100,000 figures made an 8.9 GB build).
MAX_FIGURES = 20
MAX_FIGURE_BYTES = 10 << 20  # the images together, as drawn
EVENTS_FILE = "events.jsonl"
HEAD_COUNT_FILE = "head.count"  # 20 bytes of count, then one: "1" once the pipes carried output
_PIPES_USED_AT = 20
_PIPE_BYTES = 1 << 20  # Linux's default limit for an unprivileged F_SETPIPE_SZ
_F_SETPIPE_SZ = 1031


def readable(fds: Iterable[int], timeout: float) -> list[int]:
    """Those of ``fds`` with something to read (or at end of file), waiting up to ``timeout``
    seconds. ``poll``, not ``select``: a host with a thousand files open gets pipes numbered
    above 1023, which ``select`` cannot watch."""
    watcher = select.poll()
    for fd in fds:
        watcher.register(fd, select.POLLIN)
    return [fd for fd, _ in watcher.poll(max(timeout, 0) * 1000)]


def output_pipes() -> dict[str, tuple[int, int]]:
    """A (read, write) pipe for each of stdout and stderr; read ends non-blocking."""
    pipes = {}
    for name in ("stdout", "stderr"):
        read, write = os.pipe()
        os.set_blocking(read, False)
        # A larger pipe lets workers write more before they wait for it to be drained.
        with contextlib.suppress(OSError):
            fcntl.fcntl(write, _F_SETPIPE_SZ, _PIPE_BYTES)
        pipes[name] = (read, write)
    return pipes


class OutputRecorder:
    """Appends the output events of one snippet to its events file; one per recording process."""

    def __init__(self, events: Path, pipes: dict[str, int]) -> None:
        """``pipes``: stream name -> the non-blocking read end of the pipe on its descriptor."""
        self._events = events
        self._pipes = dict(pipes)  # drained ones are left out here, not in the caller's, which closes them
        self._decoders = {
            key: codecs.getincrementaldecoder("utf-8")("replace")
            for key in [*pipes, *(f"direct-{name}" for name in ("stdout", "stderr"))]
        }
        self.cell: int | None = None
        self.before_event: list = []  # called before an event is recorded: flush pending lines
        self._head_done = False  # once the shared head is full, it stays full
        self._pipes_used = False  # once the pipes carried output, they did
        self._tail: deque[tuple[str, str, int]] = deque()
        self._tail_chars = 0
        self.dropped_chars = 0
        self._owner = -1
        self._open()

    @property
    def files(self) -> tuple[str, ...]:
        """The files it writes: the events and the shared count of the head."""
        return (str(self._events), str(self._events.with_name(HEAD_COUNT_FILE)))

    @property
    def pipes_carried_output(self) -> bool:
        """Whether any recording process has read output from the pipes (a worker's print,
        ``os.write(1, ...)``): stdout must then keep to lines, or that output is recorded before
        the block of prints it came between."""
        if not self._pipes_used:
            self._pipes_used = os.pread(self._head_count, 1, _PIPES_USED_AT) == b"1"
        return self._pipes_used

    @property
    def head_full(self) -> bool:
        """Whether the shared head is full: what is written now goes to the tail only."""
        return self._head_done

    def _open(self) -> None:
        """Open the events file for this process: a forked process must not share the lock."""
        self._file = open(self._events, "a", encoding="utf-8")  # noqa: SIM115 - lives with the process
        self._lock = os.open(self._events, os.O_RDONLY | os.O_CLOEXEC)
        self._head_count = os.open(
            self._events.with_name(HEAD_COUNT_FILE), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
        )
        self._owner = os.getpid()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        if self._owner != os.getpid():
            self._open()
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock, fcntl.LOCK_UN)

    def event(self, event: dict) -> None:
        """Record a non-output event (a cell starts, a figure, an exception), after pending output."""
        for flush in self.before_event:
            flush()
        with self._locked():
            self._drain()
            # Stamped as tails are: the result places each tail piece before or after it.
            self._append({**event, "at": time.monotonic_ns()})

    def write(self, name: str, data: bytes) -> None:
        # The hot path of a snippet that prints: no context manager, pipes read only when ready.
        if self._owner != os.getpid():
            self._open()
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        try:
            if self._pipes and readable(self._pipes.values(), 0):
                self._drain()
            self._keep(name, self._decoders[f"direct-{name}"].decode(data))
        finally:
            fcntl.flock(self._lock, fcntl.LOCK_UN)

    def drain_if_free(self) -> bool:
        """Drain the pipes unless another process holds the lock (it is draining them then);
        never waits, so that a process stuck while holding the lock cannot stall the caller."""
        if self._owner != os.getpid():
            self._open()
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        try:
            self._drain()
        finally:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
        return True

    def close(self) -> None:
        """Close what this process opened (a warm server records a job after each, for hundreds)."""
        if self._owner != os.getpid():
            return
        self._file.close()
        os.close(self._lock)
        os.close(self._head_count)
        self._owner = -1

    def open_pipes(self) -> list[int]:
        """The read ends that may still bring output (not yet at end of file)."""
        return list(self._pipes.values())

    def finish(self) -> None:
        """Record what is left in the pipes, the kept tail and the count of dropped characters."""
        for flush in self.before_event:
            flush()
        with self._locked():
            self._drain()
            for name, decoder in self._decoders.items():
                self._keep(name.removeprefix("direct-"), decoder.decode(b"", final=True))
            self._trim_tail()
            for name, text, stamp in self._tail:
                self._append(
                    {"event": "stream", "cell": self.cell, "name": name, "text": text, "tail": stamp}
                )
            self._tail.clear()
            self._tail_chars = 0
            if self.dropped_chars:
                self._append({"event": "dropped", "chars": self.dropped_chars})
                self.dropped_chars = 0

    def _drain(self) -> None:
        for name, read in list(self._pipes.items()):
            while True:
                try:
                    data = os.read(read, 65536)
                except BlockingIOError:
                    break
                except OSError:
                    data = b""
                if not data:  # every write end is closed: nothing more will come
                    del self._pipes[name]
                    break
                if not self._pipes_used:
                    os.pwrite(self._head_count, b"1", _PIPES_USED_AT)
                    self._pipes_used = True
                self._keep(name, self._decoders[name].decode(data))

    def _keep(self, name: str, text: str) -> None:
        if not text:
            return
        if not self._head_done:
            recorded = int(os.pread(self._head_count, 20, 0).strip(b"\0 ") or b"0")  # unset: NULs
            head = text[: max(HEAD_CHARS - recorded, 0)]
            if head:
                os.pwrite(self._head_count, str(recorded + len(head)).encode().ljust(20), 0)
                self._append({"event": "stream", "cell": self.cell, "name": name, "text": head})
                text = text[len(head) :]
            self._head_done = recorded + len(head) >= HEAD_CHARS
            if not text:
                return
        if len(text) > TAIL_CHARS:
            self.dropped_chars += len(text) - TAIL_CHARS
            text = text[-TAIL_CHARS:]
        self._tail.append((name, text, time.monotonic_ns()))  # under the lock: stamps keep its order
        self._tail_chars += len(text)
        if self._tail_chars < 2 * TAIL_CHARS:  # trimmed now and then, not at every write
            return
        self._trim_tail()

    def _trim_tail(self) -> None:
        while self._tail_chars > TAIL_CHARS:
            first_name, first, stamp = self._tail[0]
            excess = self._tail_chars - TAIL_CHARS
            if len(first) <= excess:
                self._tail.popleft()
                cut = len(first)
            else:
                self._tail[0] = (first_name, first[excess:], stamp)
                cut = excess
            self._tail_chars -= cut
            self.dropped_chars += cut

    def _append(self, event: dict) -> None:
        self._file.write(json.dumps(event) + "\n")
        self._file.flush()


class _StreamSink(io.BufferedIOBase):
    """``sys.stdout.buffer``: each write goes to the recorder at once, none waits in a buffer
    (the text layer above it decides when to write: each line, or blocks once the head is full)."""

    def __init__(self, recorder: OutputRecorder, name: str, fd: int) -> None:
        self._recorder = recorder
        self._name = name
        self._fd = fd
        self.before_write: Callable[[], None] | None = None
        self.after_write: Callable[[], None] | None = None

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if self.before_write is not None:
            self.before_write()
        self._recorder.write(self._name, bytes(data))
        if self.after_write is not None:
            self.after_write()
        return len(data)

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return False


# Audit events (PEP 578) raised as the snippet starts another process whose output may follow
# text that stdout still holds; os.fork and what forks through it are covered by os.register_at_fork.
_STARTS_A_PROCESS = frozenset({"subprocess.Popen", "os.system", "os.posix_spawn", "os.spawn", "os.exec"})
_BLOCK_CHARS = 65_536  # the text layer's block once the head is full; 8 KiB by default


def install(recorder: OutputRecorder) -> None:
    """``sys.stdout`` and ``sys.stderr`` as Python sets them up in a terminal (encoding, ``buffer``,
    ``fileno()``, stderr's ``backslashreplace``): stdout line-buffered, so that ``print`` is one
    write per line and not two, stderr written through; stdin empty. Pending text is flushed before
    any other event and before a fork, so that no child inherits it and prints it twice.

    Once the head is full, stdout is written in blocks (see the module's docstring)."""
    sinks, streams = {}, {}
    for name, fd, errors in (("stdout", 1, "strict"), ("stderr", 2, "backslashreplace")):
        sinks[name] = _StreamSink(recorder, name, fd)
        streams[name] = io.TextIOWrapper(
            sinks[name], encoding="utf-8", errors=errors, line_buffering=True, write_through=name == "stderr"
        )
    import sys

    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - lives with the process
    sys.stdout, sys.stderr = streams["stdout"], streams["stderr"]
    stdout = streams["stdout"]

    def flush_pending() -> None:
        with contextlib.suppress(Exception):  # a stream the snippet closed or replaced
            stdout.flush()

    def flush_blocks() -> None:
        if not stdout.line_buffering:
            flush_pending()

    def write_in_blocks_once_the_head_is_full() -> None:
        if recorder.pipes_carried_output:  # lines, for good: see `OutputRecorder.pipes_carried_output`
            sinks["stdout"].after_write = None
        elif recorder.head_full:
            sinks["stdout"].after_write = back_to_lines_once_the_pipes_carry_output
            stdout._CHUNK_SIZE = _BLOCK_CHARS  # type: ignore[attr-defined]
            stdout.reconfigure(line_buffering=False)

    def back_to_lines_once_the_pipes_carry_output() -> None:
        if recorder.pipes_carried_output:
            sinks["stdout"].after_write = None
            stdout._CHUNK_SIZE = 8192  # type: ignore[attr-defined]
            stdout.reconfigure(line_buffering=True)

    def before_a_process_starts(event: str, _args: tuple) -> None:
        if event in _STARTS_A_PROCESS:
            flush_blocks()

    sinks["stdout"].after_write = write_in_blocks_once_the_head_is_full
    sinks["stderr"].before_write = flush_blocks  # stdout's pending block first, as it was written
    recorder.before_event.append(flush_pending)
    os.register_at_fork(before=flush_pending)
    sys.addaudithook(before_a_process_starts)
    sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
