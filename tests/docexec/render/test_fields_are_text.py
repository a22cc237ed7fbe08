"""A field read from a file reaches a page only as text: a recording's GPU, torch build and date
(the label, the stale warning, the notebook's note, the build report) and a cache entry's
environment ("Ran on…", the page line, a notebook's first cell). Recordings are also refused on
load when a field is not what it names."""

from __future__ import annotations

import datetime
import html as htmllib
import json

import markdown
import pytest

from docexec import recordings
from docexec.execution.result import Reason, Result, Status
from docexec.render import build_report, notebooks, provenance
from docexec.render.markdown_ext import RunExtension, SnippetRenderer
from docexec.render.plain_text import markdown_text

PAYLOADS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>"]
ON_A_CPU = {"device": "cpu", "python": "3.11.7"}
EXTENSIONS = ["pymdownx.superfences", "pymdownx.details", "admonition", "attr_list", "tables", "md_in_html"]


def assert_only_text(page: str, payload: str) -> None:
    lowered = page.lower()
    for tag in ("<script", "<img", "<svg"):
        assert tag not in lowered, page
    assert payload in htmllib.unescape(page), page  # shown, as the characters it is


def _html(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


def _recording(payload: str, stale: bool) -> recordings.Recording:
    environment = {"device": "cuda", "gpu": payload, "torch": payload}
    result = Result("snippets/page/gpu.py", Status.PASSED, environment=environment)
    return recordings.Recording("snippets/page/gpu.py", result, payload, "0" * 64, stale, "2.13.0")


def _page(project, payload: str, recording: recordings.Recording | None = None) -> str:
    """The page that runs a CUDA snippet on a CPU (its recording shown) and a snippet whose cached
    result says it ran elsewhere: ``payload`` in each field."""
    gpu = project.snippet("page/gpu.py", "# docexec: cuda\nprint('on a GPU')\n")
    elsewhere = project.snippet("page/elsewhere.py", "print('hi')\n")
    forged = {"device": "cuda", "gpu": payload, "cuda": payload, "torch": payload, "python": payload}

    def results(path: str) -> Result:
        if path == gpu:
            return Result(path, Status.SKIPPED, reason=Reason.NEEDS_GPU, environment=ON_A_CPU)
        return Result(path, Status.PASSED, environment=forged)

    renderer = SnippetRenderer(project.root, results, environment=ON_A_CPU)
    renderer.site.recorded.find = lambda path: recording  # as if read, unchecked
    renderer.start_page("docs/page.md", "page.md")
    page = f"%run {gpu}\n\n%run {elsewhere}\n"
    return markdown.markdown(page, extensions=[RunExtension(renderer), *EXTENSIONS])


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_label_of_a_recording_is_text(project, payload):
    page = _page(project, payload, _recording(payload, stale=False))
    assert "Recorded on" in page
    assert_only_text(page, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_warning_over_a_stale_recording_is_text(project, payload):
    page = _page(project, payload, _recording(payload, stale=True))
    assert "recorded output is out of date" in page
    assert_only_text(page, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_where_a_cached_result_ran_is_text(project, payload):
    page = _page(project, payload)
    assert "Ran on a CUDA GPU" in page
    assert_only_text(page, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_page_line_the_notebook_and_the_build_report_show_fields_as_text(project, payload):
    environment = {"device": "cuda", "gpu": payload, "torch": payload, "python": "3.11.7"}
    line = provenance.page_line_html(environment, datetime.date(2026, 11, 27), None, [True])
    assert_only_text(line, payload)
    label = _recording(payload, stale=False).label()
    assert_only_text(_html(notebooks.recorded_note(label)), payload)
    assert "<" not in notebooks.recorded_note(label)  # a notebook's Markdown allows HTML too
    result = Result("snippets/page/gpu.py", Status.SKIPPED, reason=Reason.NEEDS_GPU, environment=environment)
    for recording in (_recording(payload, stale=False), _recording(payload, stale=True)):
        report = build_report.markdown(
            {result.path: result}, {}, environment, datetime.date(2026, 11, 27), {result.path: recording}
        )
        assert_only_text(_html(report.split("---\n", 2)[2]), payload)


def test_a_field_on_a_line_of_its_own_cannot_start_a_block_or_set_attributes():
    tries = ("x\n\n# Heading", "x\n{: onclick=alert(1) }", "[link](javascript:alert(1))", "\x02wzxhzdk:0\x03")
    for value in tries:
        shown = _html("Ran on " + markdown_text(value))
        assert "<h1" not in shown and "onclick" not in shown.split(">", 1)[0] and "<a " not in shown
        assert "\n" not in markdown_text(value) and "\x02" not in markdown_text(value)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("gpu", PAYLOADS[0], "result.environment.gpu: '<script>alert(1)</script>' is not a GPU name"),
        ("torch", PAYLOADS[1], "result.environment.torch: '<img src=x onerror=alert(1)>' is not a release"),
        ("recorded", PAYLOADS[2], "recorded: '<svg onload=alert(1)>' is not an ISO date"),
        ("recorded", "2026-02-30", "recorded: '2026-02-30' is not an ISO date"),
    ],
)
def test_a_recording_whose_field_is_not_what_it_names_is_refused_naming_the_file(project, field, value, said):
    path = project.snippet("page/gpu.py", "# docexec: cuda\nprint('on a GPU')\n")
    stored = {
        "schema": recordings.SCHEMA,
        "snippet": path,
        "recorded": "2026-11-27",
        "source_sha256": recordings.source_digest((project.root / path).read_bytes()),
        "result": {"path": path, "status": "passed", "cells": [],
                   "environment": {"device": "cuda", "gpu": "NVIDIA H200", "torch": "2.13.0+cu128"}},
    }  # fmt: skip
    if field == "recorded":
        stored["recorded"] = value
    else:
        stored["result"]["environment"][field] = value
    file = recordings.recording_file(project.root, path)
    file.parent.mkdir(parents=True)
    file.write_text(json.dumps(stored))
    with pytest.raises(recordings.RecordingError) as refused:
        recordings.load(project.root, path)
    assert str(refused.value).startswith(f"recordings/page/gpu.json: {said}")


def test_a_recording_that_is_a_link_out_of_the_recordings_folder_is_refused(project, tmp_path):
    path = project.snippet("page/gpu.py", "# docexec: cuda\nprint('on a GPU')\n")
    file = recordings.recording_file(project.root, path)
    file.parent.mkdir(parents=True)
    (tmp_path / "elsewhere.json").write_text("{}")
    file.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(recordings.RecordingError, match=r"^recordings/page/gpu.json: the file is not inside"):
        recordings.load(project.root, path)
