"""Files of the project that a snippet created, changed or removed while it ran: where the
kernel cannot make the project read-only to snippets (`docexec.sandbox.read_only_project`).

A snippet runs in a folder of its own and must leave the project as it found it; a write by
absolute path (``open("/repo/pyproject.toml", "a")``) would change what the site is built from.
Compared by size and modification time before and after the snippet; the engine's own output
(the result cache, the built site) and version control are not looked at. A file that someone
edits while the snippet runs is reported too: the comparison cannot tell who wrote it.
"""

from __future__ import annotations

import os
from pathlib import Path

from docexec.sandbox import read_only_project

NOT_LOOKED_AT = {
    ".git",
    ".venv",
    ".cache",
    "site",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    "node_modules",
}

Snapshot = dict[str, tuple[int, int]]


def snapshot(root: Path) -> Snapshot:
    """relative path -> (size, modification time in ns) of every file under ``root``."""
    found: Snapshot = {}
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in NOT_LOOKED_AT]
        for name in files:
            path = os.path.join(folder, name)
            try:
                stat = os.stat(path, follow_symlinks=False)
            except OSError:
                continue
            found[os.path.relpath(path, root)] = (stat.st_size, stat.st_mtime_ns)
    return found


def snapshot_unless_read_only(root: Path) -> Snapshot | None:
    """None where snippets cannot write into the project at all: nothing to compare."""
    return None if read_only_project.available() else snapshot(root)


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths created, changed or removed between two snapshots, sorted."""
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))
