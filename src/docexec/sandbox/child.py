"""The code that runs inside a snippet's own process.

It executes the snippet cell by cell (a plain snippet is one cell; ``# %%`` lines split a lab),
records stdout and stderr in order (`docexec.sandbox.capture`), the exception and the open matplotlib
figures, and writes everything as JSON lines to ``events.jsonl`` in the job folder as it happens,
so that a crash still leaves the output that came before it.
"""

from __future__ import annotations

import atexit
import base64
import io
import json
import linecache
import os
import re
import struct
import sys
import tempfile
import time
import traceback
import types
from pathlib import Path

import wrapt

from docexec.execution import process_tree, published
from docexec.execution.jobs import Job
from docexec.sandbox import capture, environment, restrictions
from docexec.sandbox.seeding import seed_everything

MAX_OUTPUT_CHARS = capture.MAX_OUTPUT_CHARS
EVENTS_FILE = capture.EVENTS_FILE


# A line jupytext could read as a cell marker ("# %%", "#%%", "# In[1]:", "# <codecell>"): only
# then is jupytext imported, so a plain snippet does not pay for it.
_MAYBE_CELL_MARKER = re.compile(r"^\s*#\s*(%%|<codecell>|In\[)", re.M)


def split_cells(source: str) -> list[tuple[int, str]]:
    """Code cells as (first line, text), split by jupytext's own percent-format reader, so the
    cells run are the code cells of the lab's notebook (``#%%``, ``# %% [raw]`` and the rest as
    jupytext reads them). A cell's text is its lines as written (a ``# %magic`` stays a comment).
    A file without cell markers is one cell.
    """
    if not _MAYBE_CELL_MARKER.search(source):
        return [(1, source)]
    from jupytext.formats import get_format_implementation
    from jupytext.header import header_to_metadata_and_cell

    # The loop of jupytext.jupytext.TextNotebookConverter.reads, keeping where each cell starts.
    percent = get_format_implementation(".py", "percent")
    lines = source.splitlines()
    fmt = {"extension": ".py", "format_name": "percent"}
    _, _, header_cell, position = header_to_metadata_and_cell(
        lines, percent.header_prefix, percent.header_suffix, percent.extension, True
    )
    cells = []
    while position < len(lines):
        reader = percent.cell_reader_class(fmt, "python")
        rest = lines[position:]
        cell, length = reader.read(rest)
        if cell.cell_type == "code":
            marker = reader.start_code_re.match(rest[0]) or reader.alternative_start_code_re.match(rest[0])
            first = position + (1 if marker else 0)
            text = "".join(line + "\n" for line in reader.org_content)
            cells.append((first + 1, text))
        position += length
    return cells


def execute_snippet(job: Job, pipes: dict[str, int]) -> None:
    """Execute one snippet as described by ``job`` and record what happens; never returns normally
    when called in a forked child (the caller exits). File descriptors 1 and 2 are already the
    write ends of the pipes whose read ends ``pipes`` holds."""
    # The allow-list: writes in the job's folder only, no network unless declared, and more
    # (`docexec.sandbox.restrictions`); what the machine cannot enforce is reported by the engine's probe.
    log = capture.OutputRecorder(Path(job.job_dir) / EVENTS_FILE, pipes)  # its files made first
    # As the engine read it for the cache key, not read again; newlines as a text file reads them.
    source = job.source.replace("\r\n", "\n").replace("\r", "\n")
    keyed_main = _write_keyed_main(job, source)  # in the job's folder, before it is read-only
    restrictions.enter(
        job.job_dir,
        job.memory_limit,
        job.network,
        gpu=job.gpu,
        project=job.root,
        own_folders=(job.work_dir, job.home, job.tmp),
        own_files=log.files,
        homes=job.homes,
    )
    capture.install(log)
    # An empty home and temporary folder of its own, removed with the job's folder.
    os.environ.update(environment.own_folders(job.home, job.tmp))
    tempfile.tempdir = job.tmp

    os.chdir(job.work_dir)
    relpath = job.path
    # Tracebacks show the snippet's lines although the file is not below the working folder.
    linecache.cache[relpath] = (len(source), None, source.splitlines(keepends=True), relpath)
    sys.argv = [relpath]
    sys.path.insert(0, str(Path(job.abs_path).parent))
    seed_everything(job.seed)
    _prepare_matplotlib(log)
    _spawn_runs_keyed_source(job.abs_path, keyed_main)

    namespace = _main_module(Path(job.abs_path)).__dict__
    started = time.perf_counter()
    for index, (first_line, text) in enumerate(split_cells(source)):
        log.cell = index
        log.event({"event": "cell", "cell": index, "line": first_line})
        try:
            code = compile("\n" * (first_line - 1) + text, relpath, "exec")
            exec(code, namespace)  # noqa: S102 - executing the snippet is the point
        except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt are reported too
            _flush_figures(log, index)
            raised = describe_exception(error, relpath)
            if job.match is not None:  # here, under the snippet's timeout
                raised["matched"] = re.search(job.match, published.plain_text(raised["message"])) is not None
            log.event({"event": "exception", "cell": index, **raised})
            break
        _flush_figures(log, index)
    # What `python snippet.py` does when it ends: multiprocessing joins the worker processes
    # still running (and stops daemonic ones), atexit functions run; os._exit comes after.
    atexit._run_exitfuncs()
    sys.stdout.flush()
    log.finish()
    log.event({"event": "end", "exec_seconds": time.perf_counter() - started})


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


def _write_keyed_main(job: Job, source: str) -> str:
    """A file that runs ``source`` as the snippet's file would run: what a process that
    multiprocessing spawns runs as its main module instead of the snippet's file, which may
    have changed on disk since the engine keyed its text."""
    loader = Path(job.job_dir) / "keyed_main.py"
    loader.write_text(
        f"__file__ = {job.abs_path!r}\nexec(compile({source!r}, __file__, 'exec'))\n", encoding="utf-8"
    )
    return str(loader)


def _spawn_runs_keyed_source(abs_path: str, keyed_main: str) -> None:
    """The spawn and forkserver start methods run the main module's file again in each new
    process: they run the keyed text instead (`_write_keyed_main`)."""

    def point_at_keyed_main(spawn: types.ModuleType) -> None:
        prepare = spawn.get_preparation_data

        def get_preparation_data(name: str) -> dict:
            data = prepare(name)
            if data.get("init_main_from_path") == os.path.normpath(abs_path):
                data["init_main_from_path"] = keyed_main
            return data

        spawn.get_preparation_data = get_preparation_data  # type: ignore[attr-defined]

    wrapt.register_post_import_hook(point_at_keyed_main, "multiprocessing.spawn")


def describe_exception(error: BaseException, relpath: str) -> dict:
    """Type, message and a traceback trimmed to the snippet's own frames."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == relpath]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    line = frames[-1].lineno if frames else None
    if isinstance(error, SyntaxError) and error.filename == relpath:
        line = error.lineno  # no frame of the snippet's ran: the line is the error's own
    return {
        "type": type(error).__name__,
        "qualified_types": [f"{c.__module__}.{c.__qualname__}" for c in type(error).__mro__],
        "message": str(error),
        "line": line,
        "traceback": "".join(lines),
    }


def _prepare_matplotlib(log: capture.OutputRecorder) -> None:
    """Use the non-interactive backend and turn ``plt.show()`` into a capture, now if pyplot is
    preloaded, else when the snippet imports it (a snippet without figures does not pay for it)."""
    os.environ["MPLBACKEND"] = "Agg"

    def capture_show(plt: types.ModuleType) -> None:
        def show(*args: object, **kwargs: object) -> None:
            _flush_figures(log, log.cell or 0)

        plt.show = show  # type: ignore[attr-defined]

    wrapt.register_post_import_hook(capture_show, "matplotlib.pyplot")


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


class _FiguresShown:
    """How many figures, and bytes of them, this snippet has recorded: beyond the caps of
    `capture.MAX_FIGURES` and `capture.MAX_FIGURE_BYTES`, a figure is counted, not drawn."""

    count = 0
    bytes = 0


def _flush_figures(log: capture.OutputRecorder, cell: int) -> None:
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    dropped = 0
    for number in plt.get_fignums():
        if _FiguresShown.count >= capture.MAX_FIGURES:
            dropped += 1
            continue
        figure = plt.figure(number)
        kind, data, width, height = _encode(figure)
        if _FiguresShown.bytes + len(data) > capture.MAX_FIGURE_BYTES:
            dropped += 1
            continue
        _FiguresShown.count += 1
        _FiguresShown.bytes += len(data)
        log.event(
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
    if dropped:
        log.event({"event": "figures_dropped", "cell": cell, "count": dropped})
    plt.close("all")


def main() -> None:
    """Entry point of the plain-subprocess fallback: ``python -m docexec.sandbox.child JOB.json``.

    Its stdout and stderr are the pipes whose read ends the job names. The snippet runs in a
    forked child, below this process, a subreaper: whatever the snippet starts in other sessions
    stays below it and is killed when the snippet ends, even by a crash. It then exits as the
    snippet did."""
    process_tree.become_subreaper()
    process_tree.die_with_parent()
    request = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            process_tree.die_with_parent()
            execute_snippet(Job.from_json(request["job"]), request["pipes"])
        except BaseException:  # noqa: BLE001 - report, then leave without running parent code
            traceback.print_exc()
            code = 70
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    process_tree.end_own_descendants()
    process_tree.exit_as(status)


if __name__ == "__main__":
    main()
