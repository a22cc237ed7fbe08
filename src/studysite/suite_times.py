"""``pytest -p studysite.suite_times``: the test suite's time by group (engine, library, snippets,
site, browser), printed after pytest's own summary. `make test` and CI load it; it asserts nothing.

A group's time is the setup, call and teardown of its tests, added up over pytest-xdist's workers
(worker seconds, so the groups add up to more than the wall time on two workers). The snippets also
count the time their execution held the run up as collection ended (the docexec plugin runs them
all then, before the first test): the longest of the workers', as one executes them while the
other waits for its results.
"""

from __future__ import annotations

import time
from collections import defaultdict

import pytest

GROUPS = {
    "engine": ("tests/docexec/",),
    "library": ("tests/torchguide/", "src/torchguide/", "README.md"),
    "snippets": ("snippets/",),
    "site": ("tests/site/", "tests/studysite/", "tests/"),
    "browser": ("tests/browser/",),
}
_ORDER = ("engine", "browser", "library", "snippets", "site")  # the most specific prefix first
_times = pytest.StashKey[dict[str, float]]()
_started = pytest.StashKey[float]()
_executing = pytest.StashKey[float]()
_workers = pytest.StashKey[int]()


def group_of(nodeid: str) -> str:
    for group in _ORDER:
        if nodeid.startswith(GROUPS[group]):
            return group
    return "other"


_config: pytest.Config | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _config
    _config = config
    config.stash[_times] = defaultdict(float)
    config.stash[_started] = time.monotonic()
    config.stash[_executing] = 0.0
    config.stash[_workers] = 0


@pytest.hookimpl(wrapper=True)
def pytest_collection_finish(session: pytest.Session):  # type: ignore[no-untyped-def]
    started = time.monotonic()
    try:
        return (yield)
    finally:
        session.config.stash[_executing] = time.monotonic() - started


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: its controller prints
        workeroutput["suite_times_executing"] = session.config.stash[_executing]


def pytest_testnodedown(node, error) -> None:  # type: ignore[no-untyped-def]
    config = node.config
    executing = getattr(node, "workeroutput", {}).get("suite_times_executing", 0.0)
    config.stash[_executing] = max(config.stash[_executing], executing)
    config.stash[_workers] += 1


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Each report once, in the process that prints (under xdist the controller, which hears every
    worker's reports); a worker's own are left to it."""
    if _config is not None and getattr(_config, "workeroutput", None) is None:
        _config.stash[_times][group_of(report.nodeid)] += report.duration


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    if getattr(config, "workeroutput", None) is not None:
        return
    times = dict(config.stash[_times])
    executing = config.stash[_executing]
    if "snippets" in times:
        times["snippets"] += executing
    if not times:
        return
    wall = time.monotonic() - config.stash[_started]
    workers = config.stash[_workers]
    write = terminalreporter.write_line
    terminalreporter.section("time by group")
    for group in (*GROUPS, "other"):
        if group in times:
            note = (
                f"  (of which {executing:.0f} s executing them)" if group == "snippets" and executing else ""
            )
            write(f"{group:<9} {times[group]:8.1f} s{note}")
    on = f"{workers} workers" if workers else "one process"
    write(f"{'wall':<9} {wall:8.1f} s  on {on}; groups in worker seconds")
