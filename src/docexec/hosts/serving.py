"""A live server's side of the preview (`docexec.hosts.preview`): one engine and its warm servers
for every rebuild, and how its background run asks the server to build the pages again: it
touches a file in a folder the server watches (the server's public API for plugins), and again
while no build has started, as when the server was not watching yet. Each rebuild converts again
only the pages whose inputs changed (`docexec.hosts.page_reuse`) and makes again only their
notebooks."""

from __future__ import annotations

import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

import jinja2

from docexec import site
from docexec.config import Config
from docexec.execution.engine import Engine
from docexec.hosts.page_reuse import PageReuse
from docexec.hosts.preview import Preview
from docexec.render.site_files import NotebookMemo


class Serving:
    """Lives as long as the server; a host says when each build starts and ends."""

    def __init__(self) -> None:
        self.preview: Preview | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="docexec-preview-"))  # watched by the server
        self._watching = threading.Event()
        self._builds, self._building = 0, False
        self.page_reuse: PageReuse | None = None  # with the engine
        self.notebooks = NotebookMemo()
        # MkDocs makes the theme's template environment anew for each build, and compiling its
        # templates again was a fifth of a rebuild: the compiled code is kept for the server's
        # life, keyed by each template's name and source, so an edited override compiles anew.
        self.compiled_templates = jinja2.MemcachedBytecodeCache(_InMemory(), prefix="")

    @classmethod
    def start(cls) -> Serving:
        """The preview of a server that starts now."""
        if threading.current_thread() is threading.main_thread():
            # SIGTERM would end the preview without MkDocs' clean-up: stop it as Ctrl-C does.
            signal.signal(signal.SIGTERM, _interrupt)
        return cls()

    def engine(self, root: Path, settings: Config, workers: int | None) -> Engine:
        """The preview's engine, started (torch imported) on the first build."""
        if self.preview is None:
            engine = Engine(root, settings, workers=workers, keep_warm=True)
            engine.warm_up()
            self.preview = Preview(engine, self.ask_for_rebuild)
            self.page_reuse = PageReuse(root, skip=[root / settings.snippets])
            self._snippets = settings.snippets
        return self.preview.engine

    def build_started(self, site_dir: str) -> None:
        """``site_dir``: where the build writes, which is no input of its pages."""
        self._builds, self._building = self._builds + 1, True
        if self.page_reuse is not None:
            self.page_reuse.start_build(site_dir)

    def build_ended(self) -> None:
        self._building = False

    def reuse_conversion(self, page, plan: site.PagePlan | None, config, files) -> None:  # type: ignore[no-untyped-def]
        """MkDocs' ``page``, before it is converted: its conversion of the build before is used
        again where its Markdown and ``plan`` are unchanged (`PageReuse.reuse_conversion`)."""
        if self.page_reuse is not None:
            self.page_reuse.reuse_conversion(page, plan, self._snippets, config, files)

    def progress(self) -> str:
        return self.preview.progress() if self.preview else ""

    def watch(self, server):  # type: ignore[no-untyped-def]
        """``server``: MkDocs' live-reload server, which watches the folder from now on."""
        server.watch(str(self.folder))
        self._watching.set()
        return server

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


class _InMemory(dict):
    """The client a `jinja2.MemcachedBytecodeCache` stores through, as a dict of this process."""

    def set(self, key: str, value: bytes, timeout: int | None = None) -> None:
        self[key] = value


def engine_for(
    serving: Serving | None, root: Path, settings: Config, workers: int | None, execute: bool
) -> tuple[Engine, site.ResultsProvider]:
    """A build's engine and where its results come from: a new engine per build; in the preview,
    one for all its builds, started at once, whose snippets run in the background."""
    if serving is not None and execute:
        engine = serving.engine(root, settings, workers)
        return engine, serving.preview.results  # type: ignore[union-attr]
    engine = Engine(root, settings, workers=workers)
    return engine, site.engine_results(engine, execute)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
