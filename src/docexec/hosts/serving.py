"""A live server's side of the preview (`docexec.hosts.preview`): one engine and its warm servers
for every rebuild, and how its background run asks the server to build the pages again: it
touches a file in a folder the server watches (the server's public API for plugins), and again
while no build has started, as when the server was not watching yet."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path

from docexec.config import Config
from docexec.execution.engine import Engine
from docexec.hosts.preview import Preview


class Serving:
    """Lives as long as the server; a host says when each build starts and ends."""

    def __init__(self) -> None:
        self.preview: Preview | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="docexec-preview-"))  # watched by the server
        self._watching = threading.Event()
        self._builds, self._building = 0, False

    def engine(self, root: Path, settings: Config, workers: int | None) -> Engine:
        """The preview's engine, started (torch imported) on the first build."""
        if self.preview is None:
            engine = Engine(root, settings, workers=workers, keep_warm=True)
            engine.warm_up()
            self.preview = Preview(engine, self.ask_for_rebuild)
        return self.preview.engine

    def build_started(self) -> None:
        self._builds, self._building = self._builds + 1, True

    def build_ended(self) -> None:
        self._building = False

    def progress(self) -> str:
        return self.preview.progress() if self.preview else ""

    def watch(self, server) -> None:  # type: ignore[no-untyped-def]
        """``server``: MkDocs' live-reload server, which watches the folder from now on."""
        server.watch(str(self.folder))
        self._watching.set()

    def ask_for_rebuild(self) -> None:
        self._watching.wait()
        started = self._builds
        for attempt in range(10):
            (self.folder / "outputs-arrived").write_text(f"{started} {attempt}\n", encoding="utf-8")
            time.sleep(2.0)
            if self._builds != started or self._building:
                return

    def close(self) -> None:
        if self.preview is not None:
            self.preview.close()
        shutil.rmtree(self.folder, ignore_errors=True)
