"""The reader's function runs in a process of its own; the cases, the reference, the comparison and
the verdict stay in the checker's process, which the reader's code never runs in.

The runner is forked, then confined by the docs engine's own sandbox (`docexec.sandbox.restrictions`:
writes only in a folder of its own, no network, no capabilities, file sizes limited) and
`docexec.execution.process_tree` (it dies with whoever started it, and everything it starts is
ended with it). It loads the reader's file, or holds the function a notebook passed, and answers one
call at a time: the checker sends a case's arguments, the runner calls the function through the
drill's adapter and sends back the value and the arguments as they were left, as data that cannot
run code in the checker (`torchguide.drills._transfer`).

What it promises:

- Nothing the reader's code does (``sys.exit``, ``os._exit``, a crash, a patched ``torch.testing``,
  a replaced ``check`` or report, a look into the caller's frames) changes the cases, the
  expected values, the comparison or the exit status: those are only in the checker's process.
- A call that runs longer than `CALL_SECONDS`, output past `OUTPUT_CHARS`, memory past
  `MEMORY_BYTES` or a runner that ends or stops answering each end the check with a sentence that
  says so, and a failing status. Ctrl-C reaches the checker alone (the runner has a session of its
  own), which ends the runner and says the check was interrupted.
- What the function prints is shown with a ``| `` before each line, so it cannot pass for the
  checker's own lines.

What it does not promise:

- The reference is on the reader's disk: a function that imports it, or computes the answer some
  other way, returns a right answer; the containment guards the verdict, not the learning.
- A "do not use X" rule is watched in the runner, by the drill's adapter; code that sets out to
  hide a call from it can. The checker sees what the adapter reports.
- It is not a boundary against code that attacks the checker's process through the kernel: a
  signal sent to it ends it with a failing status, never a passing one; what more a process of
  the same user may do (ptrace, where the machine allows it) is the engine sandbox's to refuse.
- Restrictions the machine cannot enforce are not in force (``python -m docexec.sandbox`` names
  them); the time, output and memory limits are enforced from the checker's side everywhere.
- In a notebook the reader's kernel is the reader's: `torchguide.drills.check_here` starts a fresh
  checker process, but a kernel that replaced ``check_here`` itself prints whatever it likes.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import select
import shutil
import signal
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

from docexec.execution import process_tree
from docexec.sandbox import capture, restrictions
from torchguide.drills import _transfer as transfer

CALL_SECONDS = 10.0  # one call of the reader's function; the drills' answers take milliseconds
OUTPUT_CHARS = capture.MAX_OUTPUT_CHARS  # what the engine keeps of a snippet's output
SHOWN_CHARS = 10_000  # of which the reader sees the first
MEMORY_BYTES = 2 << 30  # the runner and all it starts, by proportional set size
_MEMORY_POLL_SECONDS = 0.5
_HEADER = struct.Struct("<Q")


class RunnerEnded(Exception):  # noqa: N818  read as "raise RunnerEnded(...)"
    """The runner can answer no more: it ended, hung, printed or used too much. The message is the
    end of a sentence that starts with the case: "... your f took more than 10 s"."""


@dataclass
class Returned:
    got: Any
    arguments: tuple  # the arguments as the call left them
    used: list[str]  # what the drill forbids that the call used, by name


@dataclass
class Raised:
    description: str  # "IndexError at my.py:7: list index out of range"
    not_written: bool = False
    exit_call: bool = False  # SystemExit: the function tried to end the program


def describe_error(error: BaseException, source_file: str | None) -> str:
    """``IndexError at my.py:7: list index out of range``: the deepest line of the reader's file."""
    import traceback

    where = ""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [f for f in frames if source_file and f.filename == source_file] or frames[-1:]
    if mine:
        where = f" at {mine[-1].filename}:{mine[-1].lineno}"
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}{where}" + (f": {message}" if message else "")


# --- the runner's side --------------------------------------------------------------------------


def _send(fd: int, message: tuple) -> None:
    data = transfer.encode(message)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _receive_request(fd: int) -> Any:
    """The next request from the checker (trusted: it is unpickled); None once the checker is gone."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    body = _read_exactly(fd, _HEADER.unpack(header)[0])
    return None if body is None else pickle.loads(body)  # noqa: S301  from the checker's process


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _serve(
    drill_id: str, load: Callable[[], tuple[Callable, str | None]], requests: int, answers: int
) -> None:
    import torchguide.drills
    from torchguide.drills.loading import ReaderFileError

    torchguide.drills.IN_RUNNER = True  # the file's own check_here line: this check is the one
    drill = torchguide.drills.get(drill_id)
    try:
        function, source = load()
    except ReaderFileError as error:
        _send(answers, ("unreadable", str(error)))
        return
    _send(answers, ("ready",))
    call = (drill.adapter or (lambda function: function))(function)
    while (arguments := _receive_request(requests)) is not None:
        used: list[str] = []
        try:
            with _watching(drill.forbidden, used):
                got = call(*arguments)
        except NotImplementedError:
            answer: tuple = ("raised", "NotImplementedError", True, False)
        except SystemExit as error:
            answer = ("raised", describe_error(error, source), False, True)
        except BaseException as error:  # noqa: BLE001  the reader's bug, reported as a sentence
            answer = ("raised", describe_error(error, source), False, False)
        else:
            answer = ("returned", got, arguments, used)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            _send(answers, answer)
        except Exception as error:  # noqa: BLE001  a value transfer cannot carry
            _send(
                answers,
                ("raised", f"an answer the checker cannot read ({describe_error(error, None)})", 0, 0),
            )


def _watch_runner(drill_id: str, load, folder: str, requests: int, answers: int, output: int) -> NoReturn:
    """The runner's top process, as the engine runs a snippet (`docexec.sandbox.child.main`): the
    function runs in a forked child below this subreaper, so that whatever it starts, in sessions
    of its own too, stays below and is ended when it ends. Exits as the child did."""
    os.setsid()  # a terminal's Ctrl-C goes to the checker, which ends this process
    process_tree.die_with_parent()
    process_tree.become_subreaper()
    worker = os.fork()
    if worker == 0:
        code = 70
        try:
            process_tree.die_with_parent()
            _runner_main(drill_id, load, folder, requests, answers, output)
            code = 0
        finally:
            os._exit(code)
    for fd in (requests, answers, output):
        os.close(fd)
    _, status = os.waitpid(worker, 0)
    process_tree.end_own_descendants()
    process_tree.exit_as(status)  # the same code or signal, so that the checker reads the same cause


@contextlib.contextmanager
def _watching(forbidden, used: list[str]):
    """Record in ``used`` each call of what ``forbidden`` names, while the function runs."""
    if forbidden is None:
        yield
        return
    from torch.overrides import TorchFunctionMode

    class Watch(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            name = getattr(func, "__name__", str(func))
            if forbidden.any_torch or name in forbidden.torch_functions:
                used.append(_torch_name(func, name))
            return func(*args, **(kwargs or {}))

    def watch(frame, event, arg):
        if event == "call" and frame.f_code.co_filename in forbidden.files:
            module = frame.f_globals.get("__name__", "")
            used.append(f"{module}.{frame.f_code.co_name}")

    before = sys.getprofile()
    if forbidden.files:
        sys.setprofile(watch)
    try:
        if forbidden.watches_torch:
            with Watch():
                yield
        else:
            yield
    finally:
        sys.setprofile(before)


def _torch_name(func, name: str) -> str:
    """``torch.nn.functional.binary_cross_entropy``, ``Tensor.view``: as the reader would write it."""
    owner = getattr(func, "__objclass__", None) or getattr(func, "__self__", None)
    if owner is not None and getattr(owner, "__name__", "") in ("TensorBase", "Tensor"):
        return f"Tensor.{name}"
    module = getattr(func, "__module__", None) or "torch"
    if module.startswith("torch._C"):
        module = "torch"
    return f"{module}.{name}"


def _runner_main(drill_id: str, load, folder: str, requests: int, answers: int, output: int) -> None:
    """In the forked runner: confine this process, then answer calls until the checker closes."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    for fd in (null, output):
        os.close(fd)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115  lives with the process
    raw_out, raw_err = (open(fd, "wb", closefd=False) for fd in (1, 2))  # noqa: SIM115  as above
    sys.stdout = io.TextIOWrapper(raw_out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(raw_err, encoding="utf-8", errors="backslashreplace", write_through=True)
    restrictions.enter(folder, MEMORY_BYTES, network=False)
    os.environ.update(HOME=folder, TMPDIR=folder)
    tempfile.tempdir = folder
    import torch

    torch.set_num_threads(1)  # one core per check: the machine may be shared
    _serve(drill_id, load, requests, answers)


# --- the checker's side -------------------------------------------------------------------------


@dataclass
class RunnerHandle:
    """The file descriptors and process id through which a checker talks to a runner."""

    pid: int
    requests: int  # write end
    answers: int  # read end
    output: int  # read end: the runner's stdout and stderr

    def text(self) -> str:
        return f"{self.pid},{self.requests},{self.answers},{self.output}"

    @classmethod
    def parse(cls, text: str) -> RunnerHandle:
        pid, requests, answers, output = (int(part) for part in text.split(","))
        return cls(pid, requests, answers, output)


def fork_runner(drill_id: str, load: Callable[[], tuple[Callable, str | None]]) -> tuple[RunnerHandle, str]:
    """Fork a runner that calls ``load()`` for (function, source file) and then answers calls; the
    handle, and its folder (the caller removes it once the runner has ended)."""
    folder = tempfile.mkdtemp(prefix="drill-")
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    output_read, output_write = capture.output_pipes()["stdout"]
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            for fd in (requests_write, answers_read, output_read):
                os.close(fd)
            _watch_runner(drill_id, load, folder, requests_read, answers_write, output_write)
        finally:
            os._exit(code)
    for fd in (requests_read, answers_write, output_write):
        os.close(fd)
    return RunnerHandle(pid, requests_write, answers_read, output_read), folder


class Runner:
    """The checker's side of a runner: send a call, wait for its answer within the limits."""

    def __init__(
        self,
        handle: RunnerHandle,
        function_name: str,
        *,
        own_child: bool,
        call_seconds: float = CALL_SECONDS,
        output_chars: int = OUTPUT_CHARS,
        show: TextIO | None = None,
    ) -> None:
        self.handle = handle
        self.function_name = function_name
        self.own_child = own_child
        self.call_seconds = call_seconds
        self.output_chars_left = output_chars
        self.output_chars = output_chars
        self.show = show or sys.stdout
        self.ended: str | None = None
        self._pidfd = os.pidfd_open(handle.pid)
        self._answer = bytearray()
        self._pending = memoryview(b"")
        self._reaped = False
        self._line_start = True
        self._decoder = io.IncrementalNewlineDecoder(None, translate=False)
        os.set_blocking(handle.answers, False)
        os.set_blocking(handle.output, False)

    def ready(self) -> str | None:
        """Wait for the runner to load the function; None, or why the file cannot be checked.
        Raises RunnerEnded where it ended while loading."""
        answer = self._wait(self.call_seconds + 20, loading=True)  # a cold import of torch, say
        if answer[0] == "unreadable":
            return str(answer[1])
        return None

    def call(self, arguments: tuple) -> Returned | Raised:
        """Call the function on ``arguments`` in the runner; raises RunnerEnded where it cannot answer."""
        if self.ended:
            raise RunnerEnded(self.ended)
        data = pickle.dumps(arguments, protocol=pickle.HIGHEST_PROTOCOL)
        self._pending = memoryview(_HEADER.pack(len(data)) + data)
        answer = self._wait(self.call_seconds)
        if answer[0] == "returned":
            return Returned(answer[1], answer[2], [str(name) for name in answer[3]])
        if answer[0] == "raised":
            return Raised(str(answer[1]), bool(answer[2]), bool(answer[3]))
        raise self._end(f"your {self.function_name} sent an answer the checker does not know ({answer[0]!r})")

    def _wait(self, seconds: float, loading: bool = False) -> tuple:
        """Send what is pending, take in output and the answer, and watch the limits."""
        deadline = time.monotonic() + seconds
        next_memory = time.monotonic() + _MEMORY_POLL_SECONDS
        exited = False
        while True:
            answer = self._complete_answer()
            if answer is not None:
                return answer
            if exited:
                raise self._end(self._exit_text(loading))
            now = time.monotonic()
            if now >= deadline:
                what = "loading your file" if loading else f"your {self.function_name}"
                raise self._end(f"{what} took more than {seconds:g} s; is there a loop that never ends?")
            if now >= next_memory:
                next_memory = now + _MEMORY_POLL_SECONDS
                used = process_tree.tree_memory(self.handle.pid)
                if used > MEMORY_BYTES:
                    raise self._end(
                        f"your {self.function_name} used {used / 2**30:.1f} GiB of memory, "
                        f"more than the {MEMORY_BYTES / 2**30:.0f} GiB a drill allows"
                    )
            writing = [self.handle.requests] if self._pending else []
            readable, writable, _ = select.select(
                [self.handle.answers, self.handle.output, self._pidfd],
                writing,
                [],
                min(deadline - now, _MEMORY_POLL_SECONDS),
            )
            if writable:  # a runner that stopped reading: the answers side says why
                with contextlib.suppress(BrokenPipeError, BlockingIOError):
                    self._pending = self._pending[os.write(self.handle.requests, self._pending) :]
            if self.handle.output in readable:
                self._take_output()
            if self.handle.answers in readable:
                self._take_answer()
            if self._pidfd in readable:
                exited = True  # read what it wrote before it ended, then say how it ended
                self._take_output()
                self._take_answer()

    def _take_answer(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(self.handle.answers, 1 << 20):
                self._answer += chunk
                if len(self._answer) > transfer.MAX_BYTES + _HEADER.size:
                    raise self._end(
                        f"your {self.function_name} returned more than {transfer.MAX_BYTES >> 20} MiB of data"
                    )

    def _complete_answer(self) -> tuple | None:
        if len(self._answer) < _HEADER.size:
            return None
        (size,) = _HEADER.unpack_from(self._answer)
        if len(self._answer) < _HEADER.size + size:
            return None
        data = bytes(self._answer[_HEADER.size : _HEADER.size + size])
        del self._answer[: _HEADER.size + size]
        try:
            answer = transfer.decode(data)
        except transfer.UnreadableAnswer as error:
            raise self._end(
                f"the checker could not read the answer of your {self.function_name}: {error}"
            ) from None
        if not isinstance(answer, tuple) or not answer:
            raise self._end(f"the checker could not read the answer of your {self.function_name}")
        return answer

    def _take_output(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(self.handle.output, 1 << 16):
                text = chunk.decode("utf-8", errors="replace")
                already = self.output_chars - self.output_chars_left
                self._show(text[: max(SHOWN_CHARS - already, 0)])
                if already < SHOWN_CHARS <= already + len(text):
                    self._show(f"\n(the rest of what it prints is not shown past {SHOWN_CHARS} characters)\n")
                self.output_chars_left -= len(text)
                if self.output_chars_left < 0:
                    raise self._end(
                        f"your {self.function_name} printed more than {self.output_chars} characters; "
                        "a drill's function returns its answer and prints little or nothing"
                    )

    def _show(self, text: str) -> None:
        if not text:
            return
        lines = text.splitlines(keepends=True)
        shown = []
        for line in lines:
            shown.append(("| " if self._line_start else "") + line)
            self._line_start = line.endswith(("\n", "\r"))
        self.show.write("".join(shown))
        self.show.flush()

    def _exit_text(self, loading: bool) -> str:
        status = self._reap()
        how = ""
        if status is not None and os.WIFSIGNALED(status):
            how = f" (killed by signal {signal.Signals(os.WTERMSIG(status)).name})"
        elif status is not None:
            how = f" (exit status {os.waitstatus_to_exitcode(status)})"
        what = "your file" if loading else f"your {self.function_name}"
        return (
            f"{what} ended the process it ran in{how} before it answered: a drill's function returns "
            "its answer, it does not end the program (os._exit, a crash)"
        )

    def _reap(self) -> int | None:
        if not self.own_child:
            return None
        with contextlib.suppress(ChildProcessError):
            pid, status = os.waitpid(self.handle.pid, 0)
            if pid:
                self._reaped = True
                return status
        return None

    def _end(self, message: str) -> RunnerEnded:
        self.ended = message
        self.close()
        return RunnerEnded(message)

    def close(self) -> None:
        """End the runner and all it started; close the pipes."""
        if self._line_start is False:
            self.show.write("\n")
        self._line_start = True
        if self._pidfd >= 0:
            if not self._reaped:  # a reaped pid may be another process's now
                process_tree.kill_tree(self.handle.pid)
                if self.own_child:
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(self.handle.pid, 0)
                self._reaped = True
            for fd in (self._pidfd, self.handle.requests, self.handle.answers, self.handle.output):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._pidfd = -1


@contextlib.contextmanager
def contained(
    drill_id: str,
    function_name: str,
    load: Callable[[], tuple[Callable, str | None]],
    **limits: Any,
):
    """A `Runner` forked from this process, ended and cleaned up on leaving."""
    handle, folder = fork_runner(drill_id, load)
    runner = Runner(handle, function_name, own_child=True, **limits)
    try:
        yield runner
    finally:
        runner.close()
        shutil.rmtree(folder, ignore_errors=True)
