"""A content-addressed store of results: a key names everything that can change an output.

An entry is served only when it has the stored form exactly (`ENTRY_SCHEMA`); anything else is a
miss and the snippet runs again. A run holds a lock per key, so two builds started together
execute each snippet once: the second waits, then reads the first's result.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import jsonschema

from docexec.execution.outputs import STREAMS
from docexec.execution.result import Reason, Result, Status

SCHEMA = 4  # bump when the stored form or the way snippets are run changes

_BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"


def _record(properties: dict) -> dict:
    """An object with exactly these keys, each of its type."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }


_TEXT = _record({"kind": {"const": "text"}, "stream": {"enum": list(STREAMS)}, "text": {"type": "string"}})
_FIGURE = _record(
    {
        "kind": {"const": "figure"},
        "format": {"enum": ["svg", "png"]},
        "data": {"type": "string", "pattern": _BASE64},
        "width": {"type": "integer", "minimum": 0},
        "height": {"type": "integer", "minimum": 0},
        "title": {"type": "string"},
        "marks": {"type": "integer", "minimum": 0},
        "smallest_font_px": {"type": ["number", "null"], "minimum": 0},
        "colormapped": {"type": "boolean"},
    }
)
_ERROR = _record(
    {
        "kind": {"const": "error"},
        "type": {"type": "string"},
        "qualified_types": {"type": "array", "items": {"type": "string"}},
        "message": {"type": "string"},
        "line": {"type": ["integer", "null"]},
        "traceback": {"type": "string"},
    }
)
# One schema per kind of output (`docexec.execution.outputs.KINDS`), told apart by "kind".
OUTPUT_SCHEMAS = {"text": _TEXT, "figure": _FIGURE, "error": _ERROR}
_CELL = _record(
    {
        "line": {"type": "integer", "minimum": 1},
        "outputs": {"type": "array", "items": {"oneOf": list(OUTPUT_SCHEMAS.values())}},
    }
)
_RESULT = _record(
    {
        "path": {"type": "string"},
        "status": {"enum": [status.value for status in Status]},
        "reason": {"enum": [None, *(reason.value for reason in Reason)]},
        "cells": {"type": "array", "items": _CELL},
        "expected_exception": {"type": "boolean"},
        "failure": {"type": ["string", "null"]},
        "dropped_chars": {"type": "integer", "minimum": 0},
        "duration": {"type": "number", "minimum": 0},
        "exec_seconds": {"type": "number", "minimum": 0},
        "environment": {
            "type": "object",
            "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
        },
        "peak_memory": {"type": "integer", "minimum": 0},
    }
)
# What a stored entry must be, field by field: valid JSON with a wrong type, a figure that is not
# base64 or a malformed output is a miss, never served (a page would break on it) nor crashed on.
ENTRY_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    **_record({"schema": {"const": SCHEMA}, "key": {"type": "string"}, "result": _RESULT}),
}
_VALIDATOR = jsonschema.Draft202012Validator(ENTRY_SCHEMA)


def digest_files(paths: list[Path], root: Path) -> str:
    """One hash over the names (relative to ``root``, also from outside it) and contents of
    ``paths`` (sorted), e.g. a library's sources."""
    h = hashlib.sha256()
    for path in sorted(paths):
        name = Path(os.path.relpath(path, root)).as_posix()
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def result_key(source: bytes, library_digest: str, engine_digest: str, environment: dict) -> str:
    h = hashlib.sha256()
    parts = {"schema": SCHEMA, "library": library_digest, "engine": engine_digest, **environment}
    h.update(json.dumps(parts, sort_keys=True).encode() + b"\0" + source)
    return h.hexdigest()


class ResultCache:
    """JSON files under ``root/<2 hex>/<key>.json``, written atomically (temp file + rename),
    so a concurrent build or a kill never leaves a half-written entry behind."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.unwritable: str | None = None  # why results cannot be stored, once that is known
        # key -> (the entry's text, its result): an engine that lives through many builds (the
        # preview) reads every entry on each one; checking an unchanged text again is its cost.
        self._read: dict[str, tuple[str, Result]] = {}

    def _cannot_write(self, error: OSError) -> None:
        """A read-only or full cache: said once, and the build goes on without storing results."""
        if self.unwritable is None:
            self.unwritable = f"{error.strerror or error} ({self.root})"
            print(
                f"docexec: the result cache cannot be written: {self.unwritable}; "
                "snippets run, their results are not cached",
                file=sys.stderr,
            )

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Result | None:
        """The stored result, or None when absent, unreadable, truncated or not exactly of
        `ENTRY_SCHEMA` (then the snippet runs again and its entry is replaced)."""
        try:
            text = self._path(key).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return None
        read_before = self._read.get(key)
        if read_before is not None and read_before[0] == text:  # checked when it was last read
            return dataclasses.replace(read_before[1])
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not _VALIDATOR.is_valid(data) or data["key"] != key:
            return None
        try:
            result = Result.from_json(data["result"])
        except (ValueError, TypeError):  # a figure that could run script: forged, never shown
            return None
        result.cached = True
        self._read[key] = (text, result)
        return dataclasses.replace(result)

    @contextlib.contextmanager
    def claim(self, keys: Iterable[str], reuse: bool = True) -> Iterator[dict[str, Result]]:
        """Hold the lock of each key until the block ends; yields the results that are stored once
        the locks are held (``reuse``), so a build that waited for another runs nothing twice.

        Locks are taken in key order, so two builds never wait on each other; the kernel drops
        them when a build dies (``flock``)."""
        with contextlib.ExitStack() as held:
            for key in sorted(set(keys)):
                lock_path = self._path(key).with_suffix(".lock")
                try:
                    lock_path.parent.mkdir(parents=True, exist_ok=True)
                    handle = held.enter_context(open(lock_path, "a+b"))  # noqa: SIM115 - closed by the stack
                except OSError as error:  # nothing will be stored either: no lock needed
                    self._cannot_write(error)
                    continue
                fcntl.flock(handle, fcntl.LOCK_EX)  # waits while another build runs this snippet
            found = {}
            if reuse:
                found = {key: result for key in keys if (result := self.get(key)) is not None}
            yield found

    def put(self, key: str, result: Result) -> None:
        path = self._path(key)
        payload = json.dumps({"schema": SCHEMA, "key": key, "result": result.to_json()})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        except OSError as error:
            self._cannot_write(error)
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(temporary, path)
        except OSError as error:  # full: the half-written file goes, the build goes on
            Path(temporary).unlink(missing_ok=True)
            self._cannot_write(error)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
