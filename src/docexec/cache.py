"""A content-addressed store of results: a key names everything that can change an output."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from docexec.result import Result

SCHEMA = 2  # bump when the stored form or the way snippets are run changes


def digest_files(paths: list[Path], root: Path) -> str:
    """One hash over the names and contents of ``paths`` (sorted), e.g. a library's sources."""
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
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

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Result | None:
        """The stored result, or None when absent, unreadable, truncated or of another schema."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            if data.get("schema") != SCHEMA or data.get("key") != key:
                return None
            result = Result.from_json(data["result"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        result.cached = True
        return result

    def put(self, key: str, result: Result) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"schema": SCHEMA, "key": key, "result": result.to_json()})
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
