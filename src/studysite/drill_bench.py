"""``python -m studysite.drill_bench``: how long the whole ``python -m torchguide.drills check
ID FILE`` takes for each drill on its reference solution (a lab's task: on the lab's own way, written
to a temporary file), as a reader waits for it (a fresh
interpreter, its imports, the runner, every case), with the load average it ran under.

The aim is about 3 s per drill on a quiet 2-core machine. It prints; it asserts nothing, since a
shared machine's timings say little: run it quiet. ``--repeat N`` keeps the fastest of N runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from torchguide.drills import all_drills


def time_check(drill_id: str, path: Path) -> tuple[float, float, int]:
    """Seconds of the whole command, the CPU seconds of it and all its processes, its exit status.

    The CPU time says what the wall time would be on a quiet machine better than the wall time
    on a busy one does (where one core is the bound: the check runs one process at a time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "torchguide.drills", "check", drill_id, str(path)],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def _solution_file(drill, root: Path, folder: str) -> Path:
    if drill.lab is None:
        return root / drill.solution_path
    from torchguide.drills.labs import walkthrough_solution

    path = Path(folder) / f"{drill.id}_solution.py"
    path.write_text(walkthrough_solution(drill, root), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studysite.drill_bench", description=__doc__)
    parser.add_argument("--repeat", type=int, default=1, help="runs per drill; the fastest is shown")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the project, where snippets/ is")
    parser.add_argument("drills", nargs="*", help="drill ids (default: all)")
    arguments = parser.parse_args(argv)
    drills = all_drills()
    chosen = arguments.drills or list(drills)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    slowest = 0.0
    with tempfile.TemporaryDirectory() as folder:  # where a lab task's solution is written for the command
        for drill_id in chosen:
            path = _solution_file(drills[drill_id], arguments.root, folder)
            runs = [time_check(drill_id, path) for _ in range(arguments.repeat)]
            seconds, cpu, _ = min(runs)
            status = "/".join(sorted({str(code) for _, _, code in runs}))
            slowest = max(slowest, seconds)
            print(f"{drill_id:<30} {seconds:5.2f} s wall  {cpu:5.2f} s CPU  exit {status}", flush=True)
    print(f"slowest {slowest:.2f} s; load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
