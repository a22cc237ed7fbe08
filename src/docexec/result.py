"""The outcome of one snippet: its output by cell, its exception, its figures, and a verdict."""

from __future__ import annotations

import base64
import json
import re
import signal
from dataclasses import asdict, dataclass, field
from pathlib import Path

from docexec.child import EVENTS_FILE, NATIVE_OUTPUT_FILE
from docexec.declarations import Declarations

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


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
    status: str
    cells: list[Cell] = field(default_factory=list)
    exception: dict | None = None  # type, message, line, traceback
    expected_exception: bool = False
    failure: str | None = None  # one paragraph, starting with "snippets/…py:LINE:"
    dropped_chars: int = 0
    duration: float = 0.0  # the whole process: fork, set-up, the snippet, capture
    exec_seconds: float = 0.0  # the snippet's own code
    environment: dict = field(default_factory=dict)  # torch, python, device
    cached: bool = False

    @property
    def output(self) -> str:
        return "".join(cell.text() for cell in self.cells)

    @property
    def truncation_note(self) -> str:
        if not self.dropped_chars:
            return ""
        return f"[output truncated: {self.dropped_chars:,} more characters not shown]\n"

    @property
    def figures(self) -> list[Figure]:
        return [figure for cell in self.cells for figure in cell.figures]

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("cached")
        return data

    @classmethod
    def from_json(cls, data: dict) -> Result:
        cells = [
            Cell(
                line=c["line"],
                streams=[tuple(s) for s in c["streams"]],
                figures=[Figure(**f) for f in c["figures"]],
            )
            for c in data["cells"]
        ]
        return cls(**{**data, "cells": cells})


def skipped(path: str, reason: str, environment: dict) -> Result:
    return Result(path=path, status=SKIPPED, failure=reason, environment=environment)


def assemble(path: str, job_dir: Path, report: dict, declarations: Declarations, environment: dict) -> Result:
    """Read what the child recorded, and judge it against what the snippet declared."""
    cells: list[Cell] = []
    exception = None
    ended = False
    dropped = 0
    exec_seconds = 0.0
    events_file = job_dir / EVENTS_FILE
    lines = events_file.read_text(encoding="utf-8").splitlines() if events_file.exists() else []
    for line in lines:
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        kind = event["event"]
        if kind == "cell":
            cells.append(Cell(line=event["line"]))
        elif kind == "stream":
            _append_stream(cells[-1], event["name"], event["text"])
        elif kind == "figure":
            fields = {k: v for k, v in event.items() if k not in ("event", "cell")}
            cells[-1].figures.append(Figure(**fields))
        elif kind == "exception":
            exception = {k: event[k] for k in ("type", "qualified_types", "message", "line", "traceback")}
        elif kind == "end":
            ended = True
            dropped = event["dropped_chars"]
            exec_seconds = event["exec_seconds"]
    native = job_dir / NATIVE_OUTPUT_FILE
    native_text = native.read_text(encoding="utf-8", errors="replace") if native.exists() else ""
    result = Result(
        path=path,
        status=PASSED,
        cells=cells,
        exception=exception,
        dropped_chars=dropped,
        duration=round(report["duration"], 3),
        exec_seconds=round(exec_seconds, 3),
        environment=environment,
    )
    result.failure = _judge(path, report, ended, exception, declarations, native_text)
    if result.failure:
        result.status = FAILED
    else:
        result.expected_exception = exception is not None
    return result


def _append_stream(cell: Cell, name: str, text: str) -> None:
    if cell.streams and cell.streams[-1][0] == name:
        cell.streams[-1] = (name, cell.streams[-1][1] + text)
    else:
        cell.streams.append((name, text))


def _judge(
    path: str, report: dict, ended: bool, exception: dict | None, declarations: Declarations, native_text: str
) -> str | None:
    """None when the run is what the snippet declared; otherwise why not, naming file:line."""
    if report["timed_out"]:
        return f"{path}: timed out after {declarations.timeout:g} s and was killed"
    code = report["exit_code"]
    if not ended:
        if code < 0:
            name = signal.Signals(-code).name
            return f"{path}: the process was killed by {name} (a crash in native code?)" + _tail(native_text)
        return (
            f"{path}: the process exited with status {code} before the snippet finished "
            "(os._exit or a crash)" + _tail(native_text)
        )
    where = f"{path}:{exception['line']}" if exception and exception["line"] else path
    if declarations.raises is None:
        if exception is None:
            return None
        if exception["type"] == "SystemExit":
            return (
                f"{where}: SystemExit({exception['message']}) — snippets must not exit\n"
                f"{exception['traceback']}"
            )
        return f"{where}: {exception['type']}: {exception['message']}\n{exception['traceback']}"
    expected = declarations.raises
    if exception is None:
        wanted = f" matching {declarations.match!r}" if declarations.match else ""
        declared_at = f"{path}:{declarations.raises_line or 1}"
        return f"{declared_at}: expected {expected}{wanted}, but the snippet finished without raising"
    # A subclass counts: RuntimeError is satisfied by torch.OutOfMemoryError.
    names = {*exception["qualified_types"], *(q.rsplit(".", 1)[-1] for q in exception["qualified_types"])}
    if expected not in names:
        return (
            f"{where}: expected {expected}, but it raised {exception['type']}: "
            f"{exception['message']}\n{exception['traceback']}"
        )
    if declarations.match and not re.search(declarations.match, exception["message"]):
        return (
            f"{where}: {exception['type']} was raised, but its message does not match "
            f"{declarations.match!r}: {exception['message']!r}"
        )
    return None


def _tail(text: str, lines: int = 15) -> str:
    text = text.strip()
    if not text:
        return ""
    return "\nlast native output:\n" + "\n".join(text.splitlines()[-lines:])
