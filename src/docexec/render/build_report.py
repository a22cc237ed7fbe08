"""The build report: a generated page listing every snippet of the build, slowest first."""

from __future__ import annotations

import datetime
import posixpath
from pathlib import PurePosixPath

from docexec.execution.result import Reason, Result, Status
from docexec.recordings import RECORD_COMMAND, Recording
from docexec.render import provenance
from docexec.render.plain_text import markdown_text
from docexec.sandbox import restrictions

PAGE = "build-report.md"


def _seconds(value: float) -> str:
    return f"{value:,.2f}"


def _status(result: Result) -> str:
    if result.reason is None:
        return str(result.status)
    verdict = "**failed**" if result.status is Status.FAILED else str(result.status)
    return f"{verdict}: {result.reason.words}"


def _page_link(page: str, anchor: str | None = None) -> str:
    """A link from the report (at the docs root) to a page given by its path under docs."""
    name = PurePosixPath(page).with_suffix("").as_posix()
    return f"[{name}]({page}{'#' + anchor if anchor else ''})"


def markdown(
    results: dict[str, Result],
    pages: dict[str, list[str]],
    environment: dict,
    built: datetime.date,
    recorded: dict[str, Recording | None] | None = None,
) -> str:
    """``pages``: snippet path -> the pages (paths under docs) that show it; ``recorded``: each CUDA
    snippet that skipped here -> its GPU recording, None where it has none."""
    recorded = recorded or {}
    ran = [r for r in results.values() if r.ran]
    executed = [r for r in ran if not r.cached]
    cached = [r for r in ran if r.cached]
    needs_gpu = [r for r in results.values() if r.reason is Reason.NEEDS_GPU]
    skipped = [r for r in results.values() if r.status is Status.SKIPPED and r.reason is not Reason.NEEDS_GPU]
    failed = [r for r in results.values() if r.status is Status.FAILED]
    lines = [
        "---",
        "search:",
        "  exclude: true",
        "---",
        "# Build report",
        "",
        f"Every snippet of the build of {built.isoformat()}, run"
        f" {markdown_text(provenance.environment_words(environment))},"
        " slowest first. A snippet from the cache ran in an earlier build with the same source, library,"
        " engine and versions; its time is that run's. Times are whole processes: start, snippet, capture.",
        "",
        "| snippets | how many | seconds |",
        "| --- | ---: | ---: |",
        f"| executed in this build | {len(executed)} | {_seconds(sum(r.duration for r in executed))} |",
        f"| from the cache | {len(cached)} | {_seconds(sum(r.duration for r in cached))} |",
        f"| skipped (need a GPU) | {len(needs_gpu)} | |",
        *_recording_rows([recorded.get(r.path) for r in needs_gpu]),
        *([f"| skipped (not run yet) | {len(skipped)} | |"] if skipped else []),
        f"| failed | {len(failed)} | |",
        f"| **all** | **{len(results)}** | **{_seconds(sum(r.duration for r in ran))}** |",
        "",
        *_unenforced_lines(),
        '<div class="docexec-report" markdown>',  # styled: one row per snippet, no wrapped names
        "",
        "| seconds | snippet | status | from the cache | device | page |",
        "| ---: | --- | --- | --- | --- | --- |",
    ]
    order = sorted(results.values(), key=lambda r: (not r.ran, -r.duration, r.path))
    for result in order:
        shown_on = pages.get(result.path, [])
        anchor = posixpath.splitext(posixpath.basename(result.path))[0]
        name = f"`{anchor}`"
        if shown_on:  # a lab is a notebook page: its cells have no snippet anchor
            lab = shown_on[0].endswith(".ipynb")
            name = f"[{name}]({shown_on[0]}{'' if lab else '#' + anchor})"
        where = ", ".join(_page_link(page) for page in shown_on) or "(no page)"
        ran_here = result.ran
        device = markdown_text(result.environment.get("device", "")) if ran_here else ""
        seconds = _seconds(result.duration) if ran_here else ""
        from_cache = ("yes" if result.cached else "no") if ran_here else ""
        status = _status(result)
        if result.reason is Reason.NEEDS_GPU:
            status += "; " + _recording_words(recorded.get(result.path))
        lines.append(f"| {seconds} | {name} | {status} | {from_cache} | {device} | {where} |")
    lines += ["", "</div>"]
    return "\n".join(lines) + "\n"


def _recording_rows(found: list[Recording | None]) -> list[str]:
    """How many of the skipped CUDA snippets show a GPU recording, how many cannot, and why."""
    if not found:
        return []
    shown = [r for r in found if r is not None and not r.stale]
    other_torch = [r for r in shown if r.other_torch]
    stale = [r for r in found if r is not None and r.stale]
    missing = [r for r in found if r is None]
    return [
        f"| · shown from a GPU recording | {len(shown)} | |",
        *([f"| · · with another torch than the pinned one | {len(other_torch)} | |"] if other_torch else []),
        f"| · **no recording** (`{RECORD_COMMAND}`) | {len(missing)} | |",
        f"| · **recording out of date** | {len(stale)} | |",
    ]


def _recording_words(recording: Recording | None) -> str:
    if recording is None:
        return "**no recording**"
    if recording.stale:
        return f"**recording out of date** ({markdown_text(recording.recorded)})"
    return markdown_text(recording.label().replace("Recorded", "shown as recorded", 1))


def _unenforced_lines() -> list[str]:
    """The restrictions of the snippets' sandbox that this machine did not enforce: said, never hidden."""
    missing = restrictions.unenforced()
    if not missing:
        return ["Every snippet ran in the sandbox: " + "; ".join(restrictions.ALL) + ".", ""]
    return [
        "**Not in force on the machine that built this site** (the kernel refused them): "
        + "; ".join(missing)
        + ".",
        "",
    ]


__all__ = ["PAGE", "markdown"]
