"""GPU outputs recorded on a CUDA machine and committed, so that a build without a GPU shows them.

One JSON file per CUDA snippet, ``recordings/<its path under the snippets folder>.json``, holds the result
(output, exception, figures, duration), the GPU, torch build and date it was recorded on, and the
SHA-256 of the snippet's source it belongs to. When the source changes, the recording is stale:
pages say so instead of showing it, and `stale` lists it (a test fails on any). A recording made
with another torch release than the project pins (a GPU machine's own torch) says so in its label.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema

from docexec.config import Config
from docexec.execution.device import DEVICES
from docexec.execution.result import Result, Status

if TYPE_CHECKING:
    from docexec.execution.engine import Engine

RECORDINGS_DIR = "recordings"
SCHEMA = 2  # 1: a cell's streams and figures apart, the exception beside the cells (still read)
RECORD_COMMAND = "make record-gpu"


class RecordingError(ValueError):
    """A recording file that cannot be read; names the file."""


# What a recording's fields that pages show may hold: a pull request commits recordings, and a
# GPU name, a release or a date is never markup (pages escape them too, `docexec.render.plain_text`).
_VERSION = r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?"
_LOCAL = r"(\+[A-Za-z0-9]+(\.[A-Za-z0-9]+)*)?"  # the build: +cu128
FIELDS = {
    "recorded": (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "an ISO date such as 2026-11-27"),
    "gpu": (r"^[A-Za-z0-9][A-Za-z0-9 ._()+/,:-]{0,79}$", "a GPU name: letters, digits, spaces, ._()+/,:-"),
    "cuda": (r"^([0-9]+(\.[0-9]+)*|unknown)$", "a CUDA release such as 12.8"),
    "release": (rf"^({_VERSION}{_LOCAL}|absent)$", "a release such as 2.13.0 or 2.13.0+cu128"),
}
_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"  # a distribution's


def _field(kind: str) -> dict:
    return {"type": "string", "pattern": FIELDS[kind][0]}


RECORDING_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["schema", "recorded", "source_sha256", "result"],
    "properties": {
        "recorded": _field("recorded"),
        "source_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "result": {
            "type": "object",
            "required": ["environment"],
            "properties": {
                "environment": {
                    "type": "object",
                    "required": ["device"],
                    "propertyNames": {"pattern": _NAME},
                    "properties": {
                        "device": {"enum": list(DEVICES)},
                        "gpu": _field("gpu"),
                        "cuda": _field("cuda"),
                        "python": _field("release"),
                    },
                    # Every other key is a configured distribution, named with its release.
                    "additionalProperties": _field("release"),
                }
            },
        },
    },
}
_VALIDATOR = jsonschema.Draft202012Validator(RECORDING_SCHEMA)


def _schema_problem(data: object) -> str | None:
    """What in ``data`` is not a recording, in a reader's words, or None."""
    error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(data))
    if error is None:
        try:
            datetime.date.fromisoformat(data["recorded"])  # type: ignore[index]
        except ValueError:
            return f"recorded: {data['recorded']!r} is not {FIELDS['recorded'][1]}"  # type: ignore[index]
        return None
    where = ".".join(str(part) for part in error.absolute_path) or "the file"
    key = str(error.absolute_path[-1]) if error.absolute_path else ""
    kind = key if key in FIELDS else "release" if where.startswith("result.environment.") else None
    if kind is None or error.validator != "pattern":
        return f"{where}: {error.message}"
    shown = repr(error.instance)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"{where}: {shown} is not {FIELDS[kind][1]}"


def pinned_release(root: Path, distribution: str = "torch") -> str | None:
    """The release ``pyproject.toml`` pins ``distribution`` to (``torch==2.13.0`` -> ``2.13.0``), or None."""
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return None
    project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    for requirement in project.get("dependencies", []):
        pinned = re.fullmatch(rf"\s*{re.escape(distribution)}\s*==\s*([^\s;,]+)\s*(;.*)?", requirement)
        if pinned:
            return pinned.group(1)
    return None


def release(version: str) -> str:
    """``2.11.0+cu130`` -> ``2.11.0``: the local tag names the build, not the release."""
    return version.split("+", 1)[0]


def source_digest(source: bytes) -> str:
    return hashlib.sha256(source).hexdigest()


def recording_file(root: Path, snippet: str, snippets: str = Config.snippets) -> Path:
    """``<snippets>/a/b.py`` -> ``<root>/recordings/a/b.json`` (``snippets``: `Config.snippets`)."""
    return root / RECORDINGS_DIR / Path(snippet).relative_to(snippets).with_suffix(".json")


@dataclass
class Recording:
    snippet: str
    result: Result
    recorded: str  # ISO date
    source_sha256: str
    stale: bool  # the snippet's source changed since (or the snippet is gone)
    pinned_torch: str | None = None  # the release the project pins, where it pins one

    @property
    def gpu(self) -> str:
        return self.result.environment.get("gpu") or "a CUDA GPU"

    @property
    def torch(self) -> str:
        return str(self.result.environment.get("torch"))

    @property
    def other_torch(self) -> bool:
        """Recorded with another torch release than the project pins (its CUDA build counts as the same)."""
        return self.pinned_torch is not None and release(self.torch) != release(self.pinned_torch)

    def label(self) -> str:
        parts = [f"Recorded on {self.gpu}"]
        if "torch" in self.result.environment:  # what ran the GPU, where the project names it
            parts.append(f"torch {self.torch}")
            if self.other_torch:
                parts[-1] += f" (the site pins {self.pinned_torch})"
        return " · ".join([*parts, self.recorded])


def load(
    root: Path, snippet: str, snippets: str = Config.snippets, pinned_torch: str | None = None
) -> Recording | None:
    """The recording of ``snippet`` (None when there is none); raises `RecordingError`."""
    file = recording_file(root, snippet, snippets)
    if not file.is_file():
        return None
    name = file.relative_to(root).as_posix()
    if not file.resolve().is_relative_to((root / RECORDINGS_DIR).resolve()):
        raise RecordingError(f"{name}: the file is not inside {RECORDINGS_DIR}/ (links followed)")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if data.get("schema") not in (1, SCHEMA):
            raise RecordingError(f"{name}: schema {data.get('schema')!r}, expected {SCHEMA}: record it again")
        if problem := _schema_problem(data):
            raise RecordingError(f"{name}: {problem}: record it again")
        stored = data["result"] if data["schema"] == SCHEMA else _outputs_in_cells(data["result"])
        result = Result.from_json(stored)
        digest, recorded = data["source_sha256"], data["recorded"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        if isinstance(error, RecordingError):
            raise
        raise RecordingError(f"{name}: not a readable recording ({error}): record it again") from None
    source = root / snippet
    current = source_digest(source.read_bytes()) if source.is_file() else None
    return Recording(snippet, result, recorded, digest, stale=current != digest, pinned_torch=pinned_torch)


def _outputs_in_cells(result: dict) -> dict:
    """A result as schema 1 stored it (each cell's streams, then its figures; the exception beside
    the cells) in today's form: one list of outputs per cell, the exception ending the last one.
    A recording is made on a GPU machine: the ones committed are read as they are."""
    cells = [
        {
            "line": cell["line"],
            "outputs": [
                *({"kind": "text", "stream": name, "text": text} for name, text in cell["streams"]),
                *({"kind": "figure", **figure} for figure in cell["figures"]),
            ],
        }
        for cell in result["cells"]
    ]
    exception = result.get("exception")
    if exception:
        if not cells:
            cells.append({"line": 1, "outputs": []})
        cells[-1]["outputs"].append({"kind": "error", **exception})
    rest = {key: value for key, value in result.items() if key not in ("cells", "exception")}
    return {**rest, "cells": cells}


@dataclass
class Store:
    """The recordings of one project, each read once (a build asks for each snippet several times)."""

    root: Path
    snippets: str = Config.snippets
    _loaded: dict[str, Recording | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pinned_torch = pinned_release(self.root)

    def find(self, snippet: str) -> Recording | None:
        if snippet not in self._loaded:
            self._loaded[snippet] = load(self.root, snippet, self.snippets, self.pinned_torch)
        return self._loaded[snippet]


def write(root: Path, result: Result, recorded: datetime.date, snippets: str = Config.snippets) -> Path:
    """Store a passed run of ``result.path`` as its recording."""
    file = recording_file(root, result.path, snippets)
    file.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "schema": SCHEMA,
        "snippet": result.path,
        "source_sha256": source_digest((root / result.path).read_bytes()),
        "recorded": recorded.isoformat(),
        "result": result.to_json(),
    }
    # Sorted keys and indentation: a re-recording reviews as a readable diff.
    text = json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False)
    file.write_text(text + "\n", encoding="utf-8")
    return file


@dataclass
class RecordReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # already recorded for this source and GPU
    removed: list[str] = field(default_factory=list)  # recordings of snippets gone or no longer CUDA
    failures: list[Result] = field(default_factory=list)

    def line(self) -> str:
        text = (
            f"{len(self.written)} recorded, {len(self.unchanged)} unchanged, "
            f"{len(self.removed)} removed, {len(self.failures)} failed"
        )
        if self.failures:
            text += ": " + ", ".join(r.path for r in self.failures)
        return text


def cuda_snippets(engine: Engine) -> tuple[list[str], list[Result]]:
    """The snippets declared ``cuda``, and the failures of those whose declarations cannot be read
    (their recordings stay: they may be CUDA snippets)."""
    declared = {path: engine.declared(path) for path in engine.all_snippets()}
    unreadable = [outcome for outcome in declared.values() if isinstance(outcome, Result)]
    paths = [path for path, decl in declared.items() if not isinstance(decl, Result) and decl.cuda]
    return paths, unreadable


def record(engine: Engine, today: datetime.date, force: bool = False) -> RecordReport:
    """Run every CUDA snippet on ``engine`` (a CUDA device) and write the recordings that changed.

    A recording already made for the same source, GPU and torch build is kept as it is, unless
    ``force``: re-running a timing does not rewrite every file. Raises ValueError off CUDA.
    """
    if engine.environment["device"] != "cuda":
        raise ValueError(
            f"recording GPU outputs needs a CUDA device, and this engine's device is "
            f"{engine.environment['device']}: run `{RECORD_COMMAND}` on a CUDA machine"
        )
    report = RecordReport()
    paths, unreadable = cuda_snippets(engine)
    report.failures += unreadable
    results, _ = engine.execute(paths)
    for path in paths:
        outcome = results[path]
        if outcome.status is not Status.PASSED:
            report.failures.append(outcome)
            continue
        old = load(engine.root, path, engine.config.snippets)
        same_machine = old is not None and all(
            old.result.environment.get(key) == engine.environment.get(key) for key in ("gpu", "torch")
        )
        if old is not None and not old.stale and same_machine and not force:
            report.unchanged.append(path)
            continue
        write(engine.root, outcome, today, engine.config.snippets)
        report.written.append(path)
    kept = {*paths, *(outcome.path for outcome in unreadable)}
    for snippet in _recorded_snippets(engine.root, engine.config.snippets):
        if snippet not in kept:
            recording_file(engine.root, snippet, engine.config.snippets).unlink()
            report.removed.append(snippet)
    return report


def _recorded_snippets(root: Path, snippets: str) -> list[str]:
    folder = root / RECORDINGS_DIR
    files = sorted(folder.rglob("*.json")) if folder.is_dir() else []
    return [(Path(snippets) / file.relative_to(folder).with_suffix(".py")).as_posix() for file in files]


def stale(root: Path, snippets: str = Config.snippets) -> list[str]:
    """One line per recording that no page can show: its snippet changed, is gone, or is unreadable."""
    problems = []
    for snippet in _recorded_snippets(root, snippets):
        name = recording_file(root, snippet, snippets).relative_to(root).as_posix()
        try:
            recording = load(root, snippet, snippets)
        except RecordingError as error:
            problems.append(str(error))
            continue
        if not (root / snippet).is_file():
            problems.append(f"{name}: {snippet} no longer exists: `{RECORD_COMMAND}` removes the recording")
        elif recording is not None and recording.stale:
            problems.append(
                f"{name}: {snippet} changed since it was recorded on {recording.recorded}: "
                f"run `{RECORD_COMMAND}` on a CUDA machine"
            )
    return problems


__all__ = [
    "RECORDINGS_DIR",
    "RecordReport",
    "Recording",
    "RecordingError",
    "Store",
    "cuda_snippets",
    "load",
    "pinned_release",
    "record",
    "recording_file",
    "source_digest",
    "stale",
    "write",
]
