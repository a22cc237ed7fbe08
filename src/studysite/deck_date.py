"""When the pages were last changed, the same in every clone: the deck's timestamp.

Anki updates an imported note only from a newer one, so the deck is dated by its pages. A file's
modification time is the time of the checkout in a fresh clone, so two clones of one commit built
different decks. In order: ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention); else the
time of the last commit that changed a page, or, later, the modification time of a page edited or
added since (so an edit still dates a newer deck); without git, the newest page's modification time.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path


def pages_changed(pages: Sequence[Path]) -> float:
    """Seconds since the epoch; 0.0 without any page."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return float(int(epoch))
    if not pages:
        return 0.0
    folder = Path(os.path.commonpath([page.parent for page in pages]))
    names = [os.path.relpath(page, folder) for page in pages]
    status = _git(folder, "status", "--porcelain", "-z", "--untracked-files=all", "--", *names)
    committed = _git(folder, "log", "-1", "--format=%ct", "--", *names)
    if status is None or committed is None:
        return max(page.stat().st_mtime for page in pages)
    # -z: "XY path" entries separated by NUL; a rename adds its old path as an entry of its own.
    top = Path(_git(folder, "rev-parse", "--show-toplevel").strip())  # type: ignore[union-attr]
    edited = [top / entry[3:] for entry in status.split("\0") if len(entry) > 3 and entry[2] == " "]
    times = [float(committed)] if committed.strip() else []
    times += [path.stat().st_mtime for path in edited if path.is_file()]
    return max(times, default=0.0) or max(page.stat().st_mtime for page in pages)


def _git(folder: Path, *args: str) -> str | None:
    try:
        run = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return run.stdout if run.returncode == 0 else None
