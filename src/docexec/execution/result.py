"""The outcome of one snippet: what each cell showed, in the order it showed it, and a verdict."""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
import signal
from dataclasses import dataclass, field, fields
from pathlib import Path

from docexec.execution import outputs, published
from docexec.execution.declarations import Declarations
from docexec.execution.jobs import MOST_FILES, Report
from docexec.execution.outputs import STREAMS, Figure, Output, SnippetException, Text, publishable
from docexec.execution.published import plain_text  # noqa: F401 - where callers have found it
from docexec.sandbox.capture import (
    EVENTS_FILE,
    HEAD_CHARS,
    MAX_FIGURE_BYTES,
    MAX_FIGURES,
    MAX_OUTPUT_CHARS,
    TAIL_CHARS,
)

# The record of a snippet's output: text is capped at MAX_OUTPUT_CHARS per process and figures
# at MAX_FIGURE_BYTES, so anything near this was written by the snippet itself.
MAX_EVENTS_BYTES = 64 << 20


class Status(enum.StrEnum):
    """The verdict on one snippet. (A str enum: it is written to the cache and JSON as its value.)"""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"


class Reason(enum.StrEnum):
    """Why a snippet has no passing output, for a host to act on without reading the text."""

    NEEDS_GPU = "needs-gpu"  # declared ``cuda`` on a machine without one
    EXECUTION_OFF = "execution-off"  # a build that shows code only
    STILL_RUNNING = "still-running"  # the preview runs it in the background
    BAD_DECLARATION = "bad-declaration"  # a ``# docexec:`` line that cannot be used
    NO_SUCH_SNIPPET = "no-such-snippet"  # the path names no file (or leaves the snippets folder)
    RAISED = "raised"  # an exception it did not declare, or not the one it declared (or none)
    CRASHED = "crashed"  # its process ended before the snippet did: a signal, os._exit
    TIMED_OUT = "timed-out"
    OUT_OF_MEMORY = "out-of-memory"  # its limit, or the machine's (the kernel's OOM killer)
    WROTE_TO_PROJECT = "wrote-to-project"
    UNSAFE_OUTPUT = "unsafe-output"  # it left output that may not be published (a figure with script)
    ENGINE_ERROR = "engine-error"  # the engine's own machinery failed, not the snippet

    @property
    def words(self) -> str:
        """For a reader: "needs a GPU", "timed out"."""
        return _REASON_WORDS.get(self, self.value.replace("-", " "))

    @property
    def before_running(self) -> bool:
        """Decided without running the snippet's code (it did not run, here or for the cache)."""
        return self in _BEFORE_RUNNING


_REASON_WORDS = {
    Reason.NEEDS_GPU: "needs a GPU",
    Reason.EXECUTION_OFF: "execution is switched off",
    Reason.BAD_DECLARATION: "a declaration cannot be used",
    Reason.NO_SUCH_SNIPPET: "no such snippet",
    Reason.RAISED: "raised an exception",
    Reason.WROTE_TO_PROJECT: "wrote to the project",
    Reason.UNSAFE_OUTPUT: "output refused",
}
_BEFORE_RUNNING = {
    Reason.NEEDS_GPU,
    Reason.EXECUTION_OFF,
    Reason.STILL_RUNNING,
    Reason.BAD_DECLARATION,
    Reason.NO_SUCH_SNIPPET,
}


@dataclass
class Cell:
    """What one cell showed, in the order it showed it (`docexec.execution.outputs`)."""

    line: int = 1
    outputs: list[Output] = field(default_factory=list)

    def text(self, stream: str | None = None) -> str:
        """Its text, of one stream or of both."""
        return "".join(
            o.text for o in self.outputs if isinstance(o, Text) and stream in (None, o.stream)
        )

    def to_json(self) -> dict:
        return {"line": self.line, "outputs": [outputs.to_json(output) for output in self.outputs]}


@dataclass
class Result:
    """Everything the build, the tests and the command line need to know about one run."""

    path: str
    status: Status
    reason: Reason | None = None  # set when status is not PASSED
    cells: list[Cell] = field(default_factory=list)
    expected_exception: bool = False
    failure: str | None = None  # one paragraph, starting with "snippets/…py:LINE:"
    dropped_chars: int = 0
    duration: float = 0.0  # the whole process: fork, set-up, the snippet, capture
    exec_seconds: float = 0.0  # the snippet's own code
    environment: dict = field(default_factory=dict)  # torch, python, device
    peak_memory: int = 0  # bytes, the most its processes used together (sampled)
    cached: bool = False

    def __post_init__(self) -> None:
        self.status = Status(self.status)
        self.reason = None if self.reason is None else Reason(self.reason)
        if (self.status is Status.PASSED) != (self.reason is None):
            raise ValueError(
                f"{self.path}: a {self.status} result with reason {self.reason}: only a pass has none"
            )

    @property
    def ran(self) -> bool:
        """Whether the snippet's code ran, in this run or in the cached one (its time is real)."""
        return self.reason is None or not self.reason.before_running

    @property
    def output(self) -> str:
        return "".join(cell.text() for cell in self.cells)

    @property
    def figures(self) -> list[Figure]:
        return [output for cell in self.cells for output in cell.outputs if isinstance(output, Figure)]

    @property
    def exception(self) -> SnippetException | None:
        """The exception that ended it, where one did."""
        raised = [o for cell in self.cells for o in cell.outputs if isinstance(o, SnippetException)]
        return raised[-1] if raised else None

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("cells", "cached")}
        return {**data, "cells": [cell.to_json() for cell in self.cells]}

    @classmethod
    def from_json(cls, data: dict) -> Result:
        """Also a result read back from the cache, which anyone who can write there may have forged:
        its texts are cleaned again, and a figure that could run script is refused (ValueError)."""
        cells = [
            Cell(line=cell["line"], outputs=[outputs.from_json(output) for output in cell["outputs"]])
            for cell in data["cells"]
        ]
        failure = published.clean(data["failure"]) if data.get("failure") else data.get("failure")
        verdict = {"reason": data.get("reason")}  # absent from a recording made before reasons
        return cls(**{**data, **verdict, "cells": cells, "failure": failure})


def skipped(path: str, reason: Reason, why: str, environment: dict) -> Result:
    """A snippet that did not run here, ``why`` in words for the reader."""
    return Result(path=path, status=Status.SKIPPED, reason=reason, failure=why, environment=environment)


def assemble(
    path: str, job_dir: Path, report: Report, declarations: Declarations, environment: dict
) -> Result:
    """Read what the child recorded, and judge it against what the snippet declared."""
    cells: list[Cell] = []
    recorded: list[_Recorded] = []
    exception: SnippetException | None = None
    raised: _Recorded | None = None  # the exception, where it came
    refusals: list[str] = []
    ended = False
    dropped = 0
    figures_kept, figure_bytes, figures_dropped = 0, 0, 0
    matched = False  # the declared match=, as searched in the snippet's process
    exec_seconds = 0.0
    events_file = job_dir / EVENTS_FILE
    malformed = 0
    for index, line in enumerate(_event_lines(events_file, refusals)):
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        try:  # the events file is in the snippet's folder: the snippet could have written it
            kind = event["event"]
            at = int(event.get("at") or 0)  # when it was recorded (monotonic ns); absent: before all tails
            if kind == "cell":
                cells.append(Cell(line=int(event["line"])))
            elif kind == "stream":
                if not cells:  # written by a child process before the first cell began
                    cells.append(Cell())
                cell = event["cell"]
                cell = cell if isinstance(cell, int) and 0 <= cell < len(cells) else -1
                if event["name"] not in STREAMS or not isinstance(event["text"], str):
                    raise ValueError(event["name"])
                # "tail": when the recording process kept it (monotonic ns), else absent: the head
                text = Text(event["name"], event["text"])
                recorded.append(_Recorded(cells[cell], text, index, tail=int(event.get("tail") or 0)))
            elif kind == "figure":
                drawn = {k: v for k, v in event.items() if k not in ("event", "cell", "at")}
                try:
                    figure = publishable(Figure(**drawn))
                except (ValueError, TypeError) as refused:
                    refusals.append(f"a figure was refused: {refused}")
                    continue
                size_ = len(figure.data) * 3 // 4  # of the image, from its base64
                if figures_kept >= MAX_FIGURES or figure_bytes + size_ > MAX_FIGURE_BYTES:
                    figures_dropped += 1
                    continue
                figures_kept, figure_bytes = figures_kept + 1, figure_bytes + size_
                if not cells:
                    cells.append(Cell())
                recorded.append(_Recorded(cells[-1], figure, index, at=at))
            elif kind == "figures_dropped":
                figures_dropped += int(event["count"])
            elif kind == "exception":
                described = {f.name: event[f.name] for f in fields(SnippetException)}
                exception = publishable(SnippetException(**described))
                if not cells:
                    cells.append(Cell())
                raised = _Recorded(cells[-1], exception, index, at=at)
                matched = event.get("matched") is True
            elif kind == "dropped":
                dropped += int(event["chars"])
            elif kind == "end":
                ended = True
                exec_seconds = float(event["exec_seconds"])
        except (KeyError, TypeError, ValueError, AttributeError):
            malformed += 1
    if malformed:
        refusals.append(f"{malformed} malformed line(s) in its record of output (written by the snippet?)")
    if figures_dropped:
        refusals.append(
            f"it left {figures_kept + figures_dropped} figures open, more than a page shows (at most "
            f"{MAX_FIGURES}, {size(MAX_FIGURE_BYTES)} in all): close those it does not show with "
            "plt.close(figure)"
        )
    if raised is not None:  # the last one recorded: an exception ends the snippet
        recorded.append(raised)
    shown, dropped = _head_and_tail(_in_order(recorded), dropped)
    for item in shown:
        item.cell.outputs.append(item.output)
    for cell in cells:
        cell.outputs = _merged(cell.outputs)
    result = Result(
        path=path,
        status=Status.PASSED,
        cells=cells,
        dropped_chars=dropped,
        duration=round(report.duration, 3),
        exec_seconds=round(exec_seconds, 3),
        environment=environment,
        peak_memory=report.peak_memory,
    )
    # Only a process that exited 0 ran to its end: an "end" the snippet wrote itself before it
    # crashed does not make a crash a pass.
    verdict = _judge(path, report, ended and report.exit_code == 0, exception, declarations, matched)
    if refusals and not verdict:
        verdict = Reason.UNSAFE_OUTPUT, f"{path}: " + "; ".join(refusals)
    if verdict:
        result.status, result.reason = Status.FAILED, verdict[0]
        result.failure = published.clean(verdict[1])
    else:
        result.expected_exception = exception is not None
    return result


def _event_lines(events_file: Path, refusals: list[str]) -> list[str]:
    """The lines of the record; none past `MAX_EVENTS_BYTES`, which only a snippet that wrote
    into it itself reaches (what the engine records is bounded far below)."""
    try:
        with events_file.open(encoding="utf-8", errors="replace") as events:
            text = events.read(MAX_EVENTS_BYTES + 1)
    except FileNotFoundError:
        return []
    if len(text) > MAX_EVENTS_BYTES:
        refusals.append(f"its record of output passed {size(MAX_EVENTS_BYTES)} (written by the snippet?)")
        return []
    return text.splitlines()


@dataclass
class _Recorded:
    cell: Cell
    output: Output
    index: int  # its line in the record
    tail: int = 0  # text kept from the end, at this monotonic time in ns; 0: recorded as it came
    at: int = 0  # a figure or the exception: when it was recorded, monotonic ns


def _in_order(recorded: list[_Recorded]) -> list[_Recorded]:
    """Everything in the order the snippet made it. The record holds the head of the text, the
    figures and the exception in that order; each process records the tail of its text when it
    ends, stamped: a tail piece goes after the head and after what was recorded before it."""
    last_head = max((r.index for r in recorded if isinstance(r.output, Text) and not r.tail), default=-1)
    stamped = [(r.at, r.index) for r in recorded if not isinstance(r.output, Text)]

    def position(item: _Recorded) -> tuple[int, int, int]:
        if not item.tail:
            return item.index, 0, 0
        after = max((index for at, index in stamped if at < item.tail), default=-1)
        return max(last_head, after), 1, item.tail

    return sorted(recorded, key=position)


def _head_and_tail(ordered: list[_Recorded], dropped: int) -> tuple[list[_Recorded], int]:
    """At most `MAX_OUTPUT_CHARS` of text: its head and its tail, and a note on its own line between
    them when anything was left out; figures and the exception keep their places."""
    texts = [item.output.text for item in ordered if isinstance(item.output, Text)]
    total = sum(map(len, texts))
    if total > MAX_OUTPUT_CHARS:  # the text from gap_start to gap_end is left out
        dropped += total - HEAD_CHARS - TAIL_CHARS
        gap_start, gap_end = HEAD_CHARS, total - TAIL_CHARS
    else:  # all of it is kept; what a process left out of its own tail was before that tail
        gap_start = gap_end = sum(
            len(item.output.text) for item in ordered if isinstance(item.output, Text) and not item.tail
        )
    if not dropped:
        return ordered, 0
    kept: list[_Recorded] = []
    note: _Recorded | None = None
    offset = 0
    for item in ordered:
        if not isinstance(item.output, Text):
            kept.append(item)
            continue
        text, start = item.output.text, offset
        offset += len(text)
        before = text[: max(gap_start - start, 0)]
        after = text[max(gap_end - start, 0) :] if offset > gap_end else ""
        if before:
            kept.append(dataclasses.replace(item, output=Text(item.output.stream, before)))
        if after and note is None:
            note = _note(item.cell, kept, dropped)
            kept.append(note)
        if after:
            kept.append(dataclasses.replace(item, output=Text(item.output.stream, after)))
    if note is None and kept:
        kept.append(_note(kept[-1].cell, kept, dropped))
    return kept, dropped


def _note(cell: Cell, before: list[_Recorded], dropped: int) -> _Recorded:
    """What stands for the text left out, on a line of its own."""
    texts = [item.output.text for item in before if isinstance(item.output, Text)]
    glued = texts and not texts[-1].endswith("\n")
    note = ("\n" if glued else "") + f"[output truncated: {dropped:,} characters not shown]\n"
    return _Recorded(cell, Text("stdout", note), index=-1)


def _merged(shown: list[Output]) -> list[Output]:
    """Adjacent text of one stream as one output, cleaned once whole (an escape sequence can be
    split over two writes); joined once, not piece by piece (a head can be thousands of prints)."""
    merged: list[Output] = []
    for _, run in itertools.groupby(shown, key=lambda o: o.stream if isinstance(o, Text) else id(o)):
        first, *rest = run
        if isinstance(first, Text):
            text = "".join([first.text, *(o.text for o in rest if isinstance(o, Text))])
            merged.append(publishable(Text(first.stream, text)))
        else:  # a figure or the exception: a group of its own
            merged.append(first)
    return merged


def _judge(
    path: str,
    report: Report,
    ended: bool,
    exception: SnippetException | None,
    declarations: Declarations,
    matched: bool = False,
) -> tuple[Reason, str] | None:
    """None when the run is what the snippet declared; otherwise why not, in words naming file:line."""
    if report.server_lost:
        return Reason.ENGINE_ERROR, (
            f"{path}: the warm server that ran it stopped (did the snippet kill its parent process?); "
            f"the server said: {report.server_lost}"
        )
    if report.timed_out:
        return Reason.TIMED_OUT, f"{path}: timed out after {report.timeout:g} s and was killed"
    if report.memory_exceeded:
        return Reason.OUT_OF_MEMORY, (
            f"{path}: exceeded its memory limit of {size(report.memory_limit)} and was killed "
            f"(its processes, shared memory and files held {size(report.peak_memory)}; "
            "declare more with '# docexec: memory=8G')"
        )
    if report.files_exceeded:
        return Reason.OUT_OF_MEMORY, (
            f"{path}: made more than {MOST_FILES:,} files and folders and was killed "
            "(what a snippet writes counts against its memory, file by file)"
        )
    if report.abandoned:
        return Reason.ENGINE_ERROR, f"{path}: stopped because the engine that ran it went away"
    if report.project_writes:
        files = ", ".join(report.project_writes[:10])
        return Reason.WROTE_TO_PROJECT, (
            f"{path}: created, changed or removed files of the project while it ran: {files}. A snippet "
            "writes only into its working folder (the current directory) or a temporary one"
        )
    code = report.exit_code
    if not ended:
        if report.oom_killed:
            return Reason.OUT_OF_MEMORY, (
                f"{path}: killed by the kernel's out-of-memory killer: the machine ran out of memory "
                f"(its processes used at least {size(report.peak_memory)})"
            )
        if code < 0:
            name = signal.Signals(-code).name
            cause = "killed from outside" if -code == signal.SIGKILL else "a crash in native code?"
            return Reason.CRASHED, f"{path}: the process was killed by {name} ({cause})"
        return Reason.CRASHED, (
            f"{path}: the process exited with status {code} before the snippet finished (os._exit or a crash)"
        )
    where = f"{path}:{exception.line}" if exception and exception.line else path
    if declarations.raises is None:
        if exception is None:
            return None
        if exception.type == "SystemExit":
            return (
                Reason.RAISED,
                f"{where}: SystemExit({exception.message}) — snippets must not exit\n{exception.traceback}",
            )
        hint = ""
        if exception.type == "PermissionError" and report.root in exception.message:
            hint = " (the project's files are read-only to snippets: write into the working folder)"
        elif report.oom_kills:  # a worker killed for memory surfaces as an error in the snippet
            hint = f" (the kernel's out-of-memory killer ended {report.oom_kills} process(es) meanwhile)"
        return Reason.RAISED, f"{where}: {exception.type}: {exception.message}{hint}\n{exception.traceback}"
    expected = declarations.raises
    if exception is None:
        wanted = f" matching {declarations.match!r}" if declarations.match else ""
        declared_at = f"{path}:{declarations.raises_line or 1}"
        return (
            Reason.RAISED,
            f"{declared_at}: expected {expected}{wanted}, but the snippet finished without raising",
        )
    # A subclass counts: RuntimeError is satisfied by torch.OutOfMemoryError.
    names = {*exception.qualified_types, *(q.rsplit(".", 1)[-1] for q in exception.qualified_types)}
    if expected not in names:
        return Reason.RAISED, (
            f"{where}: expected {expected}, but it raised {exception.type}: "
            f"{exception.message}\n{exception.traceback}"
        )
    if declarations.match and not matched:
        return Reason.RAISED, (
            f"{where}: {exception.type} was raised, but its message does not match "
            f"{declarations.match!r}: {exception.message!r}"
        )
    return None


def size(count: int) -> str:
    """Bytes in binary units, as a memory declaration writes them: 4 GiB, 512 MiB."""
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << shift:
            return f"{count / (1 << shift):.3g} {unit}"
    return f"{count} bytes"
