"""How the preview's background run asks a live server to build the pages again: it touches a
file in a folder the server watches (the server's public API for plugins), and again while no
build has started, as when the server was not watching yet."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path


class RebuildSignal:
    """``builds``: how many builds have started, and whether one is under way."""

    def __init__(self, builds: Callable[[], tuple[int, bool]]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="docexec-preview-"))
        self._builds = builds
        self._watching = threading.Event()

    def watched(self) -> None:
        """The server watches the folder from now on."""
        self._watching.set()

    def ask(self) -> None:
        self._watching.wait()
        started, _ = self._builds()
        for attempt in range(10):
            (self.folder / "outputs-arrived").write_text(f"{started} {attempt}\n", encoding="utf-8")
            time.sleep(2.0)
            now, building = self._builds()
            if now != started or building:
                return

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
