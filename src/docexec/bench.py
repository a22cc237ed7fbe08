"""``python -m docexec.bench``: measures the engine and prints figures (it asserts nothing).

1. Per-snippet overhead of a fork from the warm server vs ``python snippet.py``, over the
   project's real CPU snippets, one at a time (one worker), in the same run.
2. Snippets executed by an unchanged rebuild (goal 0) and after editing one snippet (goal 1).
3. A warm ``mkdocs build`` (everything cached) vs the same build with execution switched off.

Everything runs on a copy of the project in a temporary folder, with a cache of its own.
"""

from __future__ import annotations

import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from docexec.engine import Engine, find_root
from docexec.labs import LABS_DIR

MIN_SNIPPETS = 20
BUILD_REPEATS = 3


def _copy_project(root: Path, target: Path) -> Path:
    ignore = shutil.ignore_patterns(".venv", ".cache", "site", ".git", "__pycache__", "*.egg-info")
    shutil.copytree(root, target, ignore=ignore)
    return target


def _cpu_snippets(engine: Engine) -> list[str]:
    return [
        p
        for p in engine.all_snippets()
        if not engine.declarations(p).cuda
        and not engine.declarations(p).raises
        and not p.startswith(LABS_DIR)
    ]


def _python_wall_time(root: Path, path: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, str(root / path)],
            cwd=folder,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "MPLBACKEND": "Agg"},
        )
        return time.perf_counter() - start


def measure_overhead(project: Path, cache: Path) -> None:
    engine = Engine(project, cache_dir=cache, force=True, workers=1)
    snippets = _cpu_snippets(engine)
    print(f"1. Per-snippet overhead over {len(snippets)} CPU snippets (one at a time)")
    if len(snippets) < MIN_SNIPPETS:
        print(f"   note: fewer than {MIN_SNIPPETS} snippets in the project")
    results, _ = engine.run(snippets, progress=False)
    snippets = [p for p in snippets if results[p].status == "passed"]
    forked = {p: results[p].duration for p in snippets}
    own = {p: results[p].exec_seconds for p in snippets}
    python = {p: _python_wall_time(project, p) for p in snippets}
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
    engine = Engine(project, cache_dir=cache)
    snippets = engine.all_snippets()
    engine.run(snippets, progress=False)
    unchanged = Engine(project, cache_dir=cache).run(snippets, progress=False)[1]
    print(f"   unchanged rebuild: {unchanged.line()}  (goal: 0 executed)")
    edited = _cpu_snippets(engine)[0]
    with (project / edited).open("a", encoding="utf-8") as handle:
        handle.write("\n# edited by the benchmark\n")
    after_edit = Engine(project, cache_dir=cache).run(snippets, progress=False)[1]
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


def main() -> None:
    root = find_root(Path.cwd())
    print(
        f"docexec benchmark, {datetime.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )
    with tempfile.TemporaryDirectory(prefix="docexec-bench-") as folder:
        project = _copy_project(root, Path(folder) / "project")
        cache = Path(folder) / "cache"
        measure_overhead(project, cache)
        measure_rebuilds(project, cache)
        measure_build(project, cache)


if __name__ == "__main__":
    main()
