"""Snippets for the live preview (``mkdocs serve``), which must never keep a page from showing.

One engine serves the whole preview, so its warm servers (torch imported) live as long as it and
an edited snippet runs at once. A failure stays on its page and is remembered by the snippet's
content, so it runs again only when edited. When many snippets must run (a fresh clone, an edit of
the library), the pages are served at once without those outputs, the snippets run in the
background in page order, and the pages are rebuilt as the outputs arrive.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from docexec.execution.engine import Engine, Read, Summary
from docexec.execution.pool import EngineError
from docexec.execution.result import Reason, Result, Status, skipped

if TYPE_CHECKING:
    from docexec.site import Snippet

log = logging.getLogger("mkdocs.plugins.docexec")

RUN_NOW_BELOW = 4  # fewer snippets to run than this (an edit): the build waits for them
CHUNK = 8  # the background runs this many at a time, then hands their outputs to the pages
REFRESH_EVERY_S = 20.0  # while outputs arrive, the pages are rebuilt at most this often
PENDING = "still running in the background: the page reloads with its output"


class Preview:
    """``rebuild`` asks the server to build the pages again (from another thread)."""

    def __init__(self, engine: Engine, rebuild: Callable[[], None]) -> None:
        self.engine = engine
        self._rebuild = rebuild
        # content key -> the result of this preview's own run: failures are not cached, and with
        # `force` nothing is read from the cache, yet neither runs again before it is edited
        self._ran: dict[str, Result] = {}
        self._queued: dict[str, str] = {}  # path -> content key, for the background, in order
        self._queued_read: dict[str, Read] = {}  # path -> what was keyed, as the plan read it
        self._changed = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        self.done = 0  # snippets the background has finished, of
        self.total = 0  # those it was given
        self._stop_snippets_on_signals()

    def _stop_snippets_on_signals(self) -> None:
        """Ctrl-C and SIGTERM kill the running snippets first, then do what they did before:
        MkDocs waits for a rebuild in progress before it shuts down, and that rebuild would
        otherwise wait for its snippets to end (up to their timeout)."""
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(signum)

            def stop(number: int, frame: object, previous: object = previous) -> None:
                self.engine.stop_now()
                if callable(previous):
                    previous(number, frame)
                else:
                    raise KeyboardInterrupt

            signal.signal(signum, stop)

    def results(
        self, planned: Iterable[str] | Mapping[str, Snippet]
    ) -> tuple[dict[str, Result], Summary, set[str]]:
        """What a build shows: the results, their summary, and the paths still running. ``planned``:
        the snippets a plan read (each keyed and run now as read), or paths to read here."""
        self.engine.refresh()  # an edit of the library gives every snippet a new key
        read = None
        if isinstance(planned, Mapping):
            read = {path: snippet.read for path, snippet in planned.items() if snippet.read is not None}
        known, keys = self.engine.lookup(list(planned), read)
        summary = Summary(
            cached=sum(1 for r in known.values() if r.cached),
            skipped=sum(1 for r in known.values() if r.reason is Reason.NEEDS_GPU),
        )
        missing = list(keys)
        to_run, pending = [], set()
        with self._changed:
            for path in missing:
                if keys[path] in self._ran:
                    known[path] = self._ran[keys[path]]
                    summary.cached += 1  # from this preview's memory
                elif self._queued.get(path) == keys[path]:
                    pending.add(path)
                else:
                    to_run.append(path)
            if len(to_run) >= RUN_NOW_BELOW:
                self._queued.update((path, keys[path]) for path in to_run)
                self._queued_read.update((path, read[path]) for path in to_run if read and path in read)
                self.total += len(to_run)
                pending.update(to_run)
                self._start()
                self._changed.notify_all()
                to_run = []
            for path in to_run:
                if self._queued.pop(path, None):  # an older version, not started yet
                    self._queued_read.pop(path, None)
                    self.total -= 1
        known.update(self._execute_now(to_run, keys, read))
        summary.executed = len(to_run)
        summary.failures = [r for r in known.values() if r.status is Status.FAILED]
        return known, summary, pending

    def progress(self) -> str:
        with self._changed:
            return f"{self.done} of {self.total} done"

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self.engine.close()

    def _execute_now(
        self, paths: list[str], keys: dict[str, str], read: Mapping[str, Read] | None
    ) -> dict[str, Result]:
        if not paths:
            return {}
        try:
            results, _ = self.engine.execute(paths, progress=False, read=read)
        except (EngineError, OSError) as error:  # the preview goes on; the page says what broke
            if self._closed:
                return {}
            return {path: _engine_failure(path, error) for path in paths}
        with self._changed:
            for path, outcome in results.items():
                self._ran[keys[path]] = outcome
        return results

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="docexec-preview", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        last_rebuild = time.monotonic()
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closed or self._queued)
                if self._closed:
                    return
                chunk = dict(list(self._queued.items())[:CHUNK])
                read = {path: self._queued_read[path] for path in chunk if path in self._queued_read}
            self._execute_now(list(chunk), chunk, read)
            with self._changed:
                for path, key in chunk.items():
                    if self._queued.get(path) == key:
                        del self._queued[path]
                        self._queued_read.pop(path, None)
                self.done += len(chunk)
                finished = not self._queued
                if finished:
                    log.info("docexec: %d snippets ran in the background; rebuilding the pages", self.done)
                    self.done = self.total = 0
            if finished or time.monotonic() - last_rebuild >= REFRESH_EVERY_S:
                self._rebuild()
                last_rebuild = time.monotonic()


def _engine_failure(path: str, error: Exception) -> Result:
    failure = f"{path}: the engine could not run it: {error}"
    return Result(path, Status.FAILED, Reason.ENGINE_ERROR, failure=failure)


def pending_result(path: str, environment: dict) -> Result:
    return skipped(path, Reason.STILL_RUNNING, PENDING, environment)
