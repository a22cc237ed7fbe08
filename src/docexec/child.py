"""The code that runs inside a snippet's own process.

It executes the snippet cell by cell (a plain snippet is one cell; ``# %%`` lines split a lab),
records stdout and stderr in order, the exception and the open matplotlib figures, and writes
everything as JSON lines to ``events.jsonl`` in the job folder as it happens, so that a crash
still leaves the output that came before it.
"""

from __future__ import annotations

import atexit
import base64
import io
import json
import linecache
import os
import random
import re
import struct
import sys
import time
import traceback
import types
from pathlib import Path

MAX_OUTPUT_CHARS = 100_000
EVENTS_FILE = "events.jsonl"
NATIVE_OUTPUT_FILE = "native-output.txt"


class _EventLog:
    """Appends events to the job's events file, flushed at once so a crash loses nothing."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - open for the process' life
        self.output_chars = 0
        self.dropped_chars = 0

    def write(self, event: dict) -> None:
        self._file.write(json.dumps(event) + "\n")
        self._file.flush()

    def stream(self, cell: int, name: str, text: str) -> None:
        room = MAX_OUTPUT_CHARS - self.output_chars
        if room <= 0:
            self.dropped_chars += len(text)
            return
        if len(text) > room:
            self.dropped_chars += len(text) - room
            text = text[:room]
        self.output_chars += len(text)
        self.write({"event": "stream", "cell": cell, "name": name, "text": text})


class _CapturedStream(io.TextIOBase):
    def __init__(self, log: _EventLog, name: str) -> None:
        self._log = log
        self._name = name
        self.cell = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self._log.stream(self.cell, self._name, text)
        return len(text)


def split_cells(source: str) -> list[tuple[int, str]]:
    """Code cells as (first line, text): ``# %%`` lines (jupytext percent format) split them.

    Markdown cells (``# %% [markdown]``) are not executed. A file without ``# %%`` is one cell.
    """
    lines = source.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("# %%")]
    if not starts:
        return [(1, source)]
    cells = []
    if "".join(lines[: starts[0]]).strip():
        cells.append((1, "".join(lines[: starts[0]])))
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        header = lines[start]
        if "[markdown]" in header or "[md]" in header:
            continue
        cells.append((start + 2, "".join(lines[start + 1 : end])))
    return cells


def run_job(job: dict) -> None:
    """Execute one snippet as described by ``job`` and record what happens; never returns normally
    when called in a forked child (the caller exits)."""
    job_dir = Path(job["job_dir"])
    log = _EventLog(job_dir / EVENTS_FILE)
    # Output written below Python (C extensions) must not reach the parent's protocol pipe.
    native = os.open(job_dir / NATIVE_OUTPUT_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(native, 1)
    os.dup2(native, 2)
    stdout, stderr = _CapturedStream(log, "stdout"), _CapturedStream(log, "stderr")
    sys.stdout, sys.stderr = stdout, stderr

    os.chdir(job["work_dir"])
    relpath = job["path"]
    source = Path(job["abs_path"]).read_text(encoding="utf-8")
    # Tracebacks show the snippet's lines although the file is not below the working folder.
    linecache.cache[relpath] = (len(source), None, source.splitlines(keepends=True), relpath)
    sys.argv = [relpath]
    sys.path.insert(0, str(Path(job["abs_path"]).parent))
    _seed(job.get("seed", 0))
    _prepare_matplotlib(log, stdout)

    namespace = _main_module(Path(job["abs_path"])).__dict__
    started = time.perf_counter()
    for index, (first_line, text) in enumerate(split_cells(source)):
        stdout.cell = stderr.cell = index
        log.write({"event": "cell", "cell": index, "line": first_line})
        try:
            code = compile("\n" * (first_line - 1) + text, relpath, "exec")
            exec(code, namespace)  # noqa: S102 - executing the snippet is the point
        except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt are reported too
            _flush_figures(log, index)
            log.write({"event": "exception", "cell": index, **describe_exception(error, relpath)})
            break
        _flush_figures(log, index)
    # What `python snippet.py` does when it ends: multiprocessing joins the worker processes
    # still running (and stops daemonic ones), atexit functions run; os._exit comes after.
    atexit._run_exitfuncs()
    sys.stdout.flush()
    log.write(
        {"event": "end", "dropped_chars": log.dropped_chars, "exec_seconds": time.perf_counter() - started}
    )


def _main_module(path: Path) -> types.ModuleType:
    """A fresh module that stands for the snippet as ``sys.modules["__main__"]``.

    multiprocessing needs it: pickle finds the snippet's functions and classes there by name
    (``__main__.square``), and the spawn and forkserver start methods run the file at
    ``__file__`` again in each new process, as they would under ``python snippet.py``.
    """
    main = types.ModuleType("__main__")
    main.__file__ = str(path)  # absolute, as Python sets it for a script since 3.9
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    return main


def describe_exception(error: BaseException, relpath: str) -> dict:
    """Type, message and a traceback trimmed to the snippet's own frames."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == relpath]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    return {
        "type": type(error).__name__,
        "qualified_types": [f"{c.__module__}.{c.__qualname__}" for c in type(error).__mro__],
        "message": str(error),
        "line": frames[-1].lineno if frames else None,
        "traceback": "".join(lines),
    }


def _seed(seed: int) -> None:
    random.seed(seed)
    try:
        import numpy

        numpy.random.seed(seed)
    except ImportError:
        pass
    try:
        import torch

        torch.manual_seed(seed)
        # One intra-op thread: snippets run side by side, and on a busy machine every parallel
        # region of a multi-threaded op waits for a time slice (10-50x slower measured on 2 cores).
        # It also makes reductions independent of the machine's core count.
        torch.set_num_threads(1)
    except ImportError:
        pass


def _prepare_matplotlib(log: _EventLog, stdout: _CapturedStream) -> None:
    """Use the non-interactive backend and turn ``plt.show()`` into a capture."""
    os.environ["MPLBACKEND"] = "Agg"
    if "matplotlib.pyplot" not in sys.modules:
        try:
            import matplotlib

            matplotlib.use("Agg")
        except ImportError:
            return
    import matplotlib.pyplot as plt

    def show(*args: object, **kwargs: object) -> None:
        _flush_figures(log, stdout.cell)

    plt.show = show


def _title_of(figure: object) -> str:
    """The figure's suptitle, else its axes' titles: the words a reader (or screen reader) needs."""
    suptitle = figure._suptitle.get_text() if figure._suptitle else ""  # type: ignore[attr-defined]
    titles = [ax.get_title() for ax in figure.axes if ax.get_title()]  # type: ignore[attr-defined]
    return " ".join((suptitle or "; ".join(titles)).split())


# Vector figures stay sharp at any zoom and on any screen; a figure so dense that its SVG would
# weigh more than this is drawn as a PNG at twice the displayed resolution instead.
MAX_SVG_BYTES = 400_000
PNG_DPI = 192  # 2x of the 96 px per inch at which a figure is displayed
CSS_PX_PER_PT = 96 / 72
# Fixed: matplotlib's SVG ids are hashes salted at random, and a date is written by default.
_SVG_RC = {"svg.hashsalt": "docexec", "svg.fonttype": "path"}


def _describe(figure: object) -> dict:
    """What a reader and the tests need besides the image: marks drawn, smallest text, colour maps."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.text import Text

    axes = figure.axes  # type: ignore[attr-defined]
    marks = sum(len(ax.lines) + len(ax.patches) + len(ax.collections) + len(ax.images) for ax in axes)
    sizes = [
        text.get_fontsize()
        for text in figure.findobj(Text)  # type: ignore[attr-defined]
        if text.get_visible() and text.get_text().strip()
    ]
    colormapped = any(
        isinstance(artist, ScalarMappable) and artist.get_array() is not None
        for ax in axes
        for artist in [*ax.images, *ax.collections]
    )
    return {
        "title": _title_of(figure),
        "marks": marks,
        "smallest_font_px": round(min(sizes) * CSS_PX_PER_PT, 1) if sizes else None,
        "colormapped": colormapped,  # colours carry data: never inverted for a dark scheme
    }


def _encode(figure: object) -> tuple[str, bytes, float, float]:
    """(format, bytes, displayed width, displayed height in CSS px), the same bytes on every run."""
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context(_SVG_RC):
        # Transparent, so that the page's background (light or dark) shows through.
        figure.savefig(  # type: ignore[attr-defined]
            buffer, format="svg", bbox_inches="tight", transparent=True, metadata={"Date": None}
        )
    svg = buffer.getvalue()
    if len(svg) <= MAX_SVG_BYTES:
        size = re.search(rb'<svg [^>]*width="([\d.]+)pt" height="([\d.]+)pt"', svg)
        width, height = (float(value) * CSS_PX_PER_PT for value in size.groups())  # type: ignore[union-attr]
        return "svg", svg, width, height
    buffer = io.BytesIO()
    figure.savefig(  # type: ignore[attr-defined]
        buffer, format="png", dpi=PNG_DPI, bbox_inches="tight", transparent=True, metadata={"Software": None}
    )
    png = buffer.getvalue()
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    scale = 96 / PNG_DPI
    return "png", png, width * scale, height * scale


def _flush_figures(log: _EventLog, cell: int) -> None:
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for number in plt.get_fignums():
        figure = plt.figure(number)
        kind, data, width, height = _encode(figure)
        log.write(
            {
                "event": "figure",
                "cell": cell,
                "format": kind,
                "data": base64.b64encode(data).decode("ascii"),
                "width": round(width),
                "height": round(height),
                **_describe(figure),  # after saving: tick labels get their text when drawn
            }
        )
    plt.close("all")


def main() -> None:
    """Entry point of the plain-subprocess fallback: ``python -m docexec.child JOB.json``."""
    job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    run_job(job)
    os._exit(0)


if __name__ == "__main__":
    main()
