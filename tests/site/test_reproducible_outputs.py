"""Two cold builds show the same outputs, apart from the snippets declared `# docexec: measured`.

A snippet is seeded (`docexec.sandbox.seeding`), so what can make its output differ from one cold run to
the next is what it reads from the machine: a clock, the kernel's accounting of CPU time, of
context switches or of memory, a profiler. Running every snippet twice would double CI's longest
job; the snippets that read one of these, directly or through a `torchguide` module that does, are
run once more here, cold, and compared with their results in the project's cache, which the
snippet tests filled moments before (or which this test fills, run alone): two cold runs of each.
Two full cold builds on 2026-11-25 differed only in such snippets' pages, in the build report's
durations (a measurement by nature), and on a page whose distributed snippets timed out under load.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docexec import config
from docexec.execution.engine import Engine
from docexec.execution.result import Result, Status

ROOT = Path(__file__).resolve().parents[2]
READS_THE_MACHINE = re.compile(
    r"perf_counter|\btime\.time\b|monotonic|thread_time|process_time|getrusage|timeit"
    r"|profiler|torch\.utils\.benchmark"  # clocks and the kernel's accounting of CPU time
    r"|/proc/self/s|smaps|Rss[A-Z]|memory_info|maxrss|tracemalloc"  # of memory
)


def _measuring_modules(root: Path) -> list[str]:
    """The library's modules that read the machine, such as ``torchguide.timing``."""
    library = root / "src"
    return [
        ".".join(path.relative_to(library).with_suffix("").parts)
        for path in sorted((library / "torchguide").rglob("*.py"))
        if READS_THE_MACHINE.search(path.read_text(encoding="utf-8"))
    ]


def snippets_that_read_the_machine(engine: Engine, root: Path) -> list[str]:
    """The CPU snippets, not declared ``measured``, that read a clock or the kernel's accounting."""
    through = [
        rf"\b{re.escape(module)}\b|from {re.escape(package)} import [^\n]*\b{name}\b"
        for module in _measuring_modules(root)
        for package, name in [module.rsplit(".", 1)]
    ]
    reads = re.compile("|".join([READS_THE_MACHINE.pattern, *through]))
    return [
        path
        for path in engine.all_snippets()
        if not engine.declarations(path).cuda
        and not engine.declarations(path).measured
        and reads.search((root / path).read_text(encoding="utf-8"))
    ]


def shown(result: Result) -> tuple:
    """What the page shows of a run: its status, output and figures."""
    figures = [(figure.format, figure.data) for figure in result.figures]
    return result.status, result.output, figures


@pytest.mark.site_build  # it runs snippets: minutes, like a build; `make quick` leaves it out
def test_two_cold_runs_print_the_same_unless_declared_measured(tmp_path):
    settings = config.from_environment(ROOT)
    built = Engine(ROOT, settings)
    chosen = snippets_that_read_the_machine(built, ROOT)
    assert chosen, "no snippet reads a clock: the selection above no longer finds them"
    first, _ = built.execute(chosen, progress=False)
    second, _ = Engine(ROOT, settings.replace(cache_dir=tmp_path / "cache", force=True)).execute(
        chosen, progress=False
    )
    failed = [path for path in chosen if {first[path].status, second[path].status} != {Status.PASSED}]
    assert not failed, f"failed in one run or both, so not compared: {failed}"
    differ = {
        path: (first[path].output, second[path].output)
        for path in chosen
        if shown(first[path]) != shown(second[path])
    }
    assert not differ, (
        "two cold runs print different outputs: print the bound a timing is asserted against, or "
        "declare '# docexec: measured' and say on the page that the figures are this build's: "
        f"{differ}"
    )
