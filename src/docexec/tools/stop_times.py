"""``python -m docexec.tools.stop_times``: how long Ctrl-C takes to end each command that runs
snippets, on a quiet machine and beside two busy loops (``yes > /dev/null``, twice), in the same run.
It prints figures and asserts nothing (goal: each within 2 s under that load).

Each command runs on a tiny project whose one snippet sleeps (with a process in a session of its
own), and whose warm servers preload what this project's ``[tool.docexec] preload`` names (torch):
`docexec run`, `mkdocs build`, pytest over the snippets, and the preview (`mkdocs serve`) while
its snippet runs and once its page is served. The command gets SIGINT in its own process group, as
a terminal's Ctrl-C sends it, once the snippet has started; the figure is from the signal until
the command has exited.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from docexec import config
from docexec.execution import process_tree
from docexec.execution.engine import find_root

REPEATS = 3
GOAL_SECONDS = 2.0
BUSY_LOOPS = 2

SLEEPS = """\
# docexec: timeout=600
import os
import subprocess
import sys
import time
from pathlib import Path

session = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
Path("pids.txt").write_text(f"{os.getpid()} {os.getppid()} {session.pid}")
time.sleep(600)
"""
PRINTS = "print('served')\n"
MKDOCS_YML = "site_name: stop times\nplugins: [docexec]\n"
CONFTEST = 'pytest_plugins = ["docexec.hosts.pytest_plugin"]\n'


def _tiny_project(folder: Path, preload: tuple[str, ...], snippet: str) -> Path:
    root = folder / "project"
    (root / "snippets" / "page").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "snippets" / "page" / "snippet.py").write_text(snippet, encoding="utf-8")
    (root / "docs" / "index.md").write_text("# Stop times\n\n%run snippets/page/snippet.py\n")
    (root / "mkdocs.yml").write_text(MKDOCS_YML)
    (root / "conftest.py").write_text(CONFTEST)
    (root / "pyproject.toml").write_text(
        f"[tool.docexec]\npreload = {json.dumps(list(preload))}\n\n"
        '[tool.pytest.ini_options]\ntestpaths = ["snippets"]\naddopts = "-p no:cacheprovider"\n'
    )
    return root


def _snippet_started(temporary: Path) -> Callable[[Path], bool]:
    def started(log: Path) -> bool:
        return any(len(f.read_text().split()) >= 3 for f in temporary.glob("*/job-*/work/pids.txt"))

    return started


def _page_served(log: Path) -> bool:
    return "Serving on" in log.read_text(errors="replace")


ENTRY_POINTS: list[tuple[str, list[str], str, str]] = [
    # name, command after `python -m`, the snippet, when to stop it
    ("docexec run", ["docexec.hosts.cli", "run", "--workers", "1"], SLEEPS, "snippet"),
    ("mkdocs build", ["mkdocs", "build"], SLEEPS, "snippet"),
    ("pytest (snippets)", ["pytest"], SLEEPS, "snippet"),
    ("preview, its snippet running", ["mkdocs", "serve", "--dev-addr", "127.0.0.1:0"], SLEEPS, "snippet"),
    ("preview, page served", ["mkdocs", "serve", "--dev-addr", "127.0.0.1:0"], PRINTS, "served"),
]


def seconds_to_stop(
    command: list[str], snippet: str, when: str, preload: tuple[str, ...]
) -> tuple[float, list[int]]:
    """Seconds from SIGINT to the command's exit, and the pids left behind (none expected)."""
    with tempfile.TemporaryDirectory(prefix="docexec-stop-") as name:
        folder = Path(name)
        root = _tiny_project(folder, preload, snippet)
        temporary = folder / "tmp"
        temporary.mkdir()
        log = folder / "command.log"
        env = {
            **os.environ,
            "TMPDIR": str(temporary),
            "DOCEXEC_CACHE_DIR": str(folder / "cache"),
            "NO_MKDOCS_2_WARNING": "1",
        }
        env.pop("PYTEST_ADDOPTS", None)
        ready = _snippet_started(temporary) if when == "snippet" else _page_served
        with log.open("wb") as output:
            process = subprocess.Popen(
                [sys.executable, "-m", *command],
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a group of its own, as a terminal's foreground job
            )
        try:
            deadline = time.monotonic() + 300
            while not ready(log):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{' '.join(command)} did not get going:\n{log.read_text()[-2000:]}")
                time.sleep(0.02)
            below = process_tree.descendants(process.pid)
            start = time.perf_counter()
            os.killpg(process.pid, signal.SIGINT)
            process.wait(timeout=120)
            seconds = time.perf_counter() - start
        finally:
            if process.poll() is None:
                process_tree.kill_tree(process.pid)
                process.wait()
        time.sleep(0.2)  # a process killed a moment ago may not have been reaped yet
        left = [pid for pid in below if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
        return seconds, left


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in {"Z", "X"}
    except OSError:
        return True


@contextlib.contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """``count`` times ``yes > /dev/null``, ended (by their pids) on leaving."""
    loops = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def measure_stopping(project: Path, repeats: int = REPEATS) -> None:
    preload = config.load(project).preload
    print(
        f"6. Ctrl-C -> exit, a snippet asleep, preload {', '.join(preload) or 'nothing'} "
        f"(median and max of {repeats}; goal: <= {GOAL_SECONDS:.0f} s beside {BUSY_LOOPS} busy loops)"
    )
    print(f"   machine load before: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min)")
    for name, command, snippet, when in ENTRY_POINTS:
        figures = []
        for loops in (0, BUSY_LOOPS):
            with busy_loops(loops):
                runs = [seconds_to_stop(command, snippet, when, preload) for _ in range(repeats)]
            times = [seconds for seconds, _ in runs]
            left = sum(len(pids) for _, pids in runs)
            label = "quiet" if not loops else f"{loops} busy loops"
            figures.append(
                f"{label} {statistics.median(times):.2f} s (max {max(times):.2f})"
                + (f", {left} processes left" if left else "")
            )
        print(f"   {name}: {'; '.join(figures)}")


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else REPEATS
    measure_stopping(find_root(Path.cwd()), repeats)


if __name__ == "__main__":
    main()
