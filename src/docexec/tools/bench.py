"""``python -m docexec.tools.bench``: measures the engine and prints figures (it asserts nothing).

1. Per-snippet overhead of a fork from the warm server vs ``python snippet.py``, over the
   project's real CPU snippets, one at a time (one worker), in the same run.
2. Snippets executed by an unchanged rebuild (goal 0) and after editing one snippet (goal 1).
3. A warm ``mkdocs build`` (everything cached) vs the same build with execution switched off.
4. The live preview (``mkdocs serve``): from saving a snippet to its page serving the new output,
   on a one-page site and on this one (one page, every page), with MkDocs' own rebuild time and
   the snippet's own time beside it.
5. A snippet that prints a million lines, against plain python.
6. Ctrl-C of each command that runs snippets, quiet and beside two busy loops (`stop_times`).

Everything runs on a copy of the project in a temporary folder, with a cache of its own.
``--preview-page PAGE`` (a page's path under the docs folder, without ``.md``) picks the page whose
first plain snippet the preview benchmark edits; by default the first page, in path order, that runs one.
``--only NAME ...`` measures those parts alone (``overhead rebuilds build preview lines stopping``);
without the rebuilds, the copy's cache starts from the project's own, so that the build and the
preview do not first execute every snippet.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from docexec import config
from docexec.directives import directive_lines
from docexec.execution.declarations import parse_file
from docexec.execution.engine import Engine, find_root
from docexec.execution.result import Status
from docexec.tools import stop_times

MIN_SNIPPETS = 20
SAMPLE = 64  # snippets timed for the overhead
BUILD_REPEATS = 3
PREVIEW_EDITS = 5
ONE_PAGE_SITE = """\
site_name: one page
theme: {name: material, font: false}
watch: [snippets]
plugins: [docexec]
markdown_extensions: [admonition, attr_list, pymdownx.superfences]
"""


def _copy_project(root: Path, target: Path) -> Path:
    ignore = shutil.ignore_patterns(".venv", ".cache", "site", ".git", "__pycache__", "*.egg-info")
    shutil.copytree(root, target, ignore=ignore)
    return target


def _cpu_snippets(engine: Engine) -> list[str]:
    labs = engine.config.labs
    return [
        p
        for p in engine.all_snippets()
        if not engine.declarations(p).cuda
        and not engine.declarations(p).raises
        and not (labs and p.startswith(labs.rstrip("/") + "/"))
    ]


def _python_wall_time(root: Path, path: str) -> float | None:
    """Seconds under plain ``python snippet.py``; None where it fails there."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(root / path)],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "MPLBACKEND": "Agg"},
        )
        return time.perf_counter() - start if done.returncode == 0 else None


def measure_overhead(project: Path, cache: Path) -> None:
    engine = Engine(project, config.load(project).replace(cache_dir=cache, force=True), workers=1)
    every = _cpu_snippets(engine)
    # An even sample: each snippet runs twice, and all of them twice would take a quarter of an hour.
    snippets = every[:: max(1, len(every) // SAMPLE)][:SAMPLE]
    print(f"1. Per-snippet overhead over {len(snippets)} of {len(every)} CPU snippets (one at a time)")
    if len(snippets) < MIN_SNIPPETS:
        print(f"   note: fewer than {MIN_SNIPPETS} snippets in the project")
    results, _ = engine.execute(snippets, progress=False)
    snippets = [p for p in snippets if results[p].status is Status.PASSED]
    forked = {p: results[p].duration for p in snippets}
    own = {p: results[p].exec_seconds for p in snippets}
    timed = {p: _python_wall_time(project, p) for p in snippets}
    failed_alone = sorted(p for p, seconds in timed.items() if seconds is None)
    if failed_alone:  # the engine seeds every snippet; these depend on it
        print(f"   left out, failing under plain python: {', '.join(failed_alone)}")
    snippets = [p for p in snippets if timed[p] is not None]
    python = {p: timed[p] for p in snippets}
    fork_overhead = statistics.median(forked[p] - own[p] for p in snippets)
    python_overhead = statistics.median(python[p] - own[p] for p in snippets)
    ratio = statistics.median(python[p] / forked[p] for p in snippets)
    print(
        f"   median wall time per snippet: python {statistics.median(python.values()):.3f} s, "
        f"forked {statistics.median(forked.values()):.3f} s"
    )
    print(
        f"   median overhead beyond the snippet's own code: python {python_overhead:.3f} s, "
        f"forked {fork_overhead:.3f} s  (goal: forked <= 0.1 s)"
    )
    print(f"   median speed-up, python / forked: {ratio:.1f}x  (goal: >= 8x)")
    print(
        f"   all {len(snippets)} in sequence: python {sum(python.values()):.1f} s, "
        f"forked {sum(forked.values()):.1f} s"
    )


def measure_rebuilds(project: Path, cache: Path) -> None:
    print("2. Snippets executed per rebuild")
    settings = config.load(project).replace(cache_dir=cache)
    engine = Engine(project, settings)
    snippets = engine.all_snippets()
    engine.execute(snippets, progress=False)
    unchanged = Engine(project, settings).execute(snippets, progress=False)[1]
    print(f"   unchanged rebuild: {unchanged.line()}  (goal: 0 executed)")
    edited = _cpu_snippets(engine)[0]
    with (project / edited).open("a", encoding="utf-8") as handle:
        handle.write("\n# edited by the benchmark\n")
    after_edit = Engine(project, settings).execute(snippets, progress=False)[1]
    print(f"   after editing {edited}: {after_edit.line()}  (goal: 1 executed)")


def _timed_build(project: Path, cache: Path, execute: bool) -> float:
    env = {
        **os.environ,
        "DOCEXEC_CACHE_DIR": str(cache),
        "DOCEXEC_EXECUTE": "1" if execute else "0",
        "NO_MKDOCS_2_WARNING": "1",
    }
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(cache / "site")],
        cwd=project,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def measure_build(project: Path, cache: Path) -> None:
    print(f"3. Warm mkdocs build vs execution switched off (median of {BUILD_REPEATS}, alternating)")
    _timed_build(project, cache, execute=True)  # warm every cache first
    on, off = [], []
    for _ in range(BUILD_REPEATS):
        on.append(_timed_build(project, cache, execute=True))
        off.append(_timed_build(project, cache, execute=False))
    ratio = statistics.median(on) / statistics.median(off)
    print(
        f"   execution on (all cached): {statistics.median(on):.2f} s, off: {statistics.median(off):.2f} s, "
        f"ratio {ratio:.2f}  (goal: <= 1.25)"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _page(url: str) -> str:
    try:
        return urllib.request.urlopen(url, timeout=60).read().decode()
    except OSError:
        return ""


def _wait_for(url: str, text: str, seconds: float) -> float:
    """Seconds until the page at ``url`` holds ``text`` (polled every 50 ms)."""
    start = time.perf_counter()
    while text not in _page(url):
        if time.perf_counter() - start > seconds:
            raise TimeoutError(f"{text!r} did not appear at {url}")
        time.sleep(0.05)
    return time.perf_counter() - start


def save_to_page(
    project: Path, snippet: str, page: str, cache: Path, focus: str = ""
) -> tuple[list[float], list[float]]:
    """Under ``mkdocs serve``: seconds from saving ``snippet`` to ``page`` serving its new output,
    and MkDocs' own rebuild times, for `PREVIEW_EDITS` edits after one that warms up. ``focus``:
    the pages of a focused preview (``make serve PAGE=...``)."""
    port = _free_port()
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1", "DOCEXEC_FOCUS": focus}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/{page}"
    source = (project / snippet).read_text(encoding="utf-8")
    latencies = []
    try:
        _wait_for(url, "</html>", 1800)
        for edit in range(PREVIEW_EDITS + 1):
            value = 1000 + edit  # the output says "saved 1000"; the source never does
            (project / snippet).write_text(source + f"\nprint('saved', {value})\n", encoding="utf-8")
            latency = _wait_for(url, f"saved {value}", 600)
            if edit:
                latencies.append(latency)
            time.sleep(1.0)
    finally:
        (project / snippet).write_text(source, encoding="utf-8")
        server.send_signal(signal.SIGINT)
        log = server.communicate(timeout=120)[0]
    builds = [float(s) for s in re.findall(r"Documentation built in ([\d.]+) seconds", log)]
    return latencies, builds[-PREVIEW_EDITS:]


def _preview_snippet(project: Path, page: str | None) -> tuple[str, str]:
    """The page (its path under the docs folder, without ``.md``) and the first snippet on it that
    runs on the CPU without raising: ``page``'s, or the first such page's in path order."""
    settings = config.load(project)
    docs = project / settings.docs
    candidates = [docs / f"{page}.md"] if page else sorted(docs.rglob("*.md"))
    for file in candidates:
        lines = file.read_text(encoding="utf-8").splitlines()
        for _, _, path in directive_lines(lines, settings.snippets):
            declared = parse_file(project / path, project, settings.snippets)
            if not declared.cuda and not declared.raises:
                return file.relative_to(docs).with_suffix("").as_posix(), path
    raise LookupError(
        f"{settings.docs}/{page}.md runs no plain snippet" if page else "no page runs a plain snippet"
    )


def snippet_seconds(project: Path, snippet: str, cache: Path) -> float:
    """The snippet's own time in the preview: forked from a warm server, as an edit runs there
    (median of `PREVIEW_EDITS` runs)."""
    settings = config.load(project).replace(cache_dir=cache, force=True)
    engine = Engine(project, settings, keep_warm=True)
    try:
        engine.warm_up()
        runs = [engine.execute([snippet], progress=False)[0][snippet] for _ in range(PREVIEW_EDITS)]
    finally:
        engine.close()
    return statistics.median(run.duration for run in runs)


def _url_path(page: str) -> str:
    """``a/b`` -> ``a/b/``; an index page is its folder's URL."""
    folder = page.removesuffix("index").rstrip("/")
    return folder + "/" if folder else ""


def measure_preview(project: Path, cache: Path, page: str | None) -> None:
    print(f"4. Live preview: save a snippet -> its page serves the new output (median of {PREVIEW_EDITS})")
    one_page = project.parent / "one-page"
    (one_page / "docs").mkdir(parents=True)
    (one_page / "snippets" / "page").mkdir(parents=True)
    (one_page / "mkdocs.yml").write_text(ONE_PAGE_SITE)
    (one_page / "docs" / "index.md").write_text("# One page\n\n%run snippets/page/prints_a_value.py\n")
    (one_page / "snippets" / "page" / "prints_a_value.py").write_text("print('a value')\n")
    page, snippet = _preview_snippet(project, page)
    own = snippet_seconds(project, snippet, cache)
    print(f"   {snippet} itself, forked from a warm server: {own:.2f} s")
    for name, root, path, url, focus in [
        ("one-page site", one_page, "snippets/page/prints_a_value.py", "", ""),
        (f"this site, make serve PAGE={page}", project, snippet, _url_path(page), page),
        ("this site, every page", project, snippet, _url_path(page), ""),
    ]:
        latencies, builds = save_to_page(root, path, url, cache, focus)
        if focus or root is one_page:
            goal = "  (goal: <= 1.2 s)"
        else:  # only the pages that embed the snippet are converted again
            goal = f"  (goal: <= 1.5 s + the snippet's {own:.2f} s = {1.5 + own:.2f} s)"
        print(
            f"   {name}: save -> page {statistics.median(latencies):.2f} s; the rebuild itself "
            f"(MkDocs, the snippet included) {statistics.median(builds):.2f} s{goal}"
        )


MILLION_LINES = "for i in range(1_000_000):\n    print(i)\nprint('the end')\n"


def measure_million_lines(project: Path, cache: Path) -> None:
    """A snippet that prints 1,000,000 short lines: the engine (forked, output recorded in order,
    head and tail kept) against ``python snippet.py > file`` on the same machine."""
    print("5. A snippet that prints 1,000,000 short lines (goal: within 2x plain python)")
    path = project / config.load(project).snippets / "bench_million_lines.py"
    path.write_text("# docexec: timeout=600\n" + MILLION_LINES, encoding="utf-8")
    relative = path.relative_to(project).as_posix()
    settings = config.load(project).replace(cache_dir=cache, force=True, preload=())
    started = time.perf_counter()
    results, _ = Engine(project, settings, workers=1).execute([relative], progress=False)
    engine_seconds = time.perf_counter() - started
    plain = _python_wall_time(project, relative)
    ended = results[relative].output.endswith("the end\n")
    print(f"   engine: {engine_seconds:.2f} s (true end shown: {ended})")
    if plain:
        print(f"   python snippet.py: {plain:.2f} s   ratio: {engine_seconds / plain:.1f}x")
    path.unlink()


PARTS = ("overhead", "rebuilds", "build", "preview", "lines", "stopping")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m docexec.tools.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--preview-page", help="the page the preview benchmark edits a snippet of")
    parser.add_argument("--only", nargs="+", choices=PARTS, default=PARTS, help="the parts to measure")
    args = parser.parse_args(argv)
    root = find_root(Path.cwd())
    print(
        f"docexec benchmark, {datetime.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )
    with tempfile.TemporaryDirectory(prefix="docexec-bench-") as folder:
        project = _copy_project(root, Path(folder) / "project")
        cache = Path(folder) / "cache"
        own_cache = config.load(root).cache_dir
        if "rebuilds" not in args.only and own_cache.is_dir():
            shutil.copytree(own_cache, cache)  # keys name no folder: the copy's snippets hit them
        parts = {
            "overhead": lambda: measure_overhead(project, cache),
            "rebuilds": lambda: measure_rebuilds(project, cache),
            "build": lambda: measure_build(project, cache),
            "preview": lambda: measure_preview(project, cache, args.preview_page),
            "lines": lambda: measure_million_lines(project, cache),
            "stopping": lambda: stop_times.measure_stopping(project),
        }
        for name in PARTS:
            if name in args.only:
                parts[name]()


if __name__ == "__main__":
    main()
