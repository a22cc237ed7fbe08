"""The outcome of one snippet: its output by cell, its exception, its figures, and a verdict."""

from __future__ import annotations

import base64
import enum
import json
import signal
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from docexec.execution import published
from docexec.execution.declarations import Declarations
from docexec.execution.jobs import Report
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
class Figure:
    """One figure as drawn: the image, its displayed size, and what the tests check it by."""

    format: str  # "svg" or "png"
    data: str  # base64
    width: int  # displayed size, CSS px
    height: int
    title: str = ""  # "" when untitled
    marks: int = 0  # lines, patches, collections and images drawn: 0 is an empty figure
    smallest_font_px: float | None = None  # at the displayed size
    colormapped: bool = False  # colours carry data (images, colour maps)

    @property
    def bytes(self) -> bytes:
        return base64.b64decode(self.data)

    @property
    def media_type(self) -> str:
        return "image/svg+xml" if self.format == "svg" else "image/png"


@dataclass
class SnippetException:
    """The exception a snippet raised, as a reader sees it."""

    type: str  # the class's name
    qualified_types: list[str]  # module.name of the class and its bases: raises= matches any
    message: str
    line: int | None  # in the snippet, where it was raised
    traceback: str  # the snippet's own frames only


@dataclass
class Cell:
    """What one cell printed (in order, as (stream, text) pairs) and the figures it left open."""

    line: int = 1
    streams: list[tuple[str, str]] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)

    def text(self) -> str:
        return "".join(text for _, text in self.streams)


@dataclass
class Result:
    """Everything the build, the tests and the command line need to know about one run."""

    path: str
    status: Status
    reason: Reason | None = None  # set when status is not PASSED
    cells: list[Cell] = field(default_factory=list)
    exception: SnippetException | None = None
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
        return [figure for cell in self.cells for figure in cell.figures]

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("cached")
        return data

    @classmethod
    def from_json(cls, data: dict) -> Result:
        """Also a result read back from the cache, which anyone who can write there may have forged:
        its texts are cleaned again, and a figure that could run script is refused (ValueError)."""
        cells = [
            Cell(
                line=c["line"],
                streams=[(name, published.clean(text)) for name, text in c["streams"]],
                figures=[_inert(Figure(**f)) for f in c["figures"]],
            )
            for c in data["cells"]
        ]
        exception = _cleaned(SnippetException(**data["exception"])) if data["exception"] else None
        failure = published.clean(data["failure"]) if data.get("failure") else data.get("failure")
        verdict = {"reason": data.get("reason")}  # absent from a recording made before reasons
        return cls(**{**data, **verdict, "cells": cells, "exception": exception, "failure": failure})


def _inert(figure: Figure) -> Figure:
    if figure.format not in ("svg", "png"):
        raise ValueError(f"a figure of format {figure.format!r}")
    refused = published.svg_refusal(figure.bytes) if figure.format == "svg" else None
    if refused:
        raise ValueError(f"an SVG figure that could run script or fetch from elsewhere: {refused}")
    figure.title = published.clean(figure.title)
    return figure


def _cleaned(exception: SnippetException) -> SnippetException:
    exception.message = published.clean(exception.message)
    exception.traceback = published.clean(exception.traceback)
    return exception


def skipped(path: str, reason: Reason, why: str, environment: dict) -> Result:
    """A snippet that did not run here, ``why`` in words for the reader."""
    return Result(path=path, status=Status.SKIPPED, reason=reason, failure=why, environment=environment)


def assemble(
    path: str, job_dir: Path, report: Report, declarations: Declarations, environment: dict
) -> Result:
    """Read what the child recorded, and judge it against what the snippet declared."""
    cells: list[Cell] = []
    pieces: list[_Piece] = []
    exception = None
    refusals: list[str] = []
    ended = False
    dropped = 0
    figures_kept, figure_bytes, figures_dropped = 0, 0, 0
    matched = False  # the declared match=, as searched in the snippet's process
    exec_seconds = 0.0
    events_file = job_dir / EVENTS_FILE
    malformed = 0
    for line in _event_lines(events_file, refusals):
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        try:  # the events file is in the snippet's folder: the snippet could have written it
            kind = event["event"]
            if kind == "cell":
                cells.append(Cell(line=int(event["line"])))
            elif kind == "stream":
                if not cells:  # written by a child process before the first cell began
                    cells.append(Cell())
                cell = event["cell"] if isinstance(event["cell"], int) and event["cell"] < len(cells) else -1
                if event["name"] not in ("stdout", "stderr") or not isinstance(event["text"], str):
                    raise ValueError(event["name"])
                # "tail": when the recording process kept it (monotonic ns), else absent: the head
                pieces.append(_Piece(cells[cell], event["name"], event["text"], int(event.get("tail") or 0)))
            elif kind == "figure":
                drawn = {k: v for k, v in event.items() if k not in ("event", "cell")}
                try:
                    figure = _inert(Figure(**drawn))
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
                cells[-1].figures.append(figure)
            elif kind == "figures_dropped":
                figures_dropped += int(event["count"])
            elif kind == "exception":
                exception = _cleaned(
                    SnippetException(**{f.name: event[f.name] for f in fields(SnippetException)})
                )
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
    pieces, dropped = _head_and_tail(pieces, dropped)
    for piece in pieces:
        _append_stream(piece.cell, piece.name, piece.text)
    for cell in cells:
        cell.streams = [(name, published.clean(text)) for name, text in cell.streams]
    result = Result(
        path=path,
        status=Status.PASSED,
        cells=cells,
        exception=exception,
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
class _Piece:
    cell: Cell
    name: str
    text: str
    tail: int  # kept from the end, at this monotonic time in ns; 0: recorded in the head, as it came


def _head_and_tail(pieces: list[_Piece], dropped: int) -> tuple[list[_Piece], int]:
    """At most `MAX_OUTPUT_CHARS`: the head and the tail, and a note on its own line between them
    when anything was left out. Each process records its head as it comes and its tail at its end."""
    head = [p for p in pieces if not p.tail]
    tail = sorted((p for p in pieces if p.tail), key=lambda p: p.tail)  # one sequence over all processes
    total = sum(len(p.text) for p in pieces)
    if total > MAX_OUTPUT_CHARS:
        dropped += total - HEAD_CHARS - TAIL_CHARS
        ordered = head + tail
        head, tail = _first(ordered, HEAD_CHARS), _first(ordered[::-1], TAIL_CHARS, from_end=True)[::-1]
    if not dropped:  # everything fits: the head, then the tails, which hold the rest
        return head + tail, 0
    glued = head and not head[-1].text.endswith("\n")
    note = ("\n" if glued else "") + f"[output truncated: {dropped:,} characters not shown]\n"
    where = tail[0].cell if tail else head[-1].cell if head else Cell()
    return [*head, _Piece(where, "stdout", note, tail=0), *tail], dropped


def _first(pieces: list[_Piece], chars: int, from_end: bool = False) -> list[_Piece]:
    kept = []
    for piece in pieces:
        if chars <= 0:
            break
        text = piece.text[-chars:] if from_end else piece.text[:chars]
        kept.append(_Piece(piece.cell, piece.name, text, piece.tail))
        chars -= len(text)
    return kept


def _append_stream(cell: Cell, name: str, text: str) -> None:
    if cell.streams and cell.streams[-1][0] == name:
        cell.streams[-1] = (name, cell.streams[-1][1] + text)
    else:
        cell.streams.append((name, text))


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
