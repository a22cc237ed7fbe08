"""The build report page, and the weight a lab page sheds."""

from __future__ import annotations

import datetime

from docexec.execution.result import Reason, Result, Status
from docexec.recordings import Recording
from docexec.render import build_report, notebooks

ENVIRONMENT = {"device": "cpu", "torch": "2.13.0+cpu", "python": "3.11.7"}


def test_the_report_lists_every_snippet_slowest_first_with_totals():
    results = {
        "snippets/a/fast.py": Result(
            "snippets/a/fast.py", Status.PASSED, duration=0.5, environment=ENVIRONMENT
        ),
        "snippets/a/slow.py": Result(
            "snippets/a/slow.py", Status.PASSED, duration=4.25, environment=ENVIRONMENT, cached=True
        ),
        # Its failure text names CUDA too: the report goes by the reason, not the words.
        "snippets/a/cuda_error.py": Result(
            "snippets/a/cuda_error.py", Status.SKIPPED, Reason.STILL_RUNNING, failure="CUDA error"
        ),
        "snippets/a/gpu.py": Result(
            "snippets/a/gpu.py", Status.SKIPPED, Reason.NEEDS_GPU, failure="needs a CUDA device"
        ),
        "snippets/labs/lab.py": Result(
            "snippets/labs/lab.py", Status.FAILED, Reason.TIMED_OUT, duration=1.0, environment=ENVIRONMENT
        ),
        "snippets/a/bad.py": Result(
            "snippets/a/bad.py", Status.FAILED, Reason.BAD_DECLARATION, failure="snippets/a/bad.py:1: ..."
        ),
    }
    pages = {path: ["a.md"] for path in results} | {"snippets/labs/lab.py": ["labs/lab.ipynb"]}
    text = build_report.markdown(results, pages, ENVIRONMENT, datetime.date(2026, 11, 22))
    assert text.startswith("---\nsearch:\n  exclude: true\n---\n# Build report\n")
    rows = [line for line in text.splitlines() if "| [`" in line]
    assert [row.split("`")[1] for row in rows] == ["slow", "lab", "fast", "bad", "cuda_error", "gpu"]
    assert rows[0] == "| 4.25 | [`slow`](a.md#slow) | passed | yes | cpu | [a](a.md) |"
    assert "| [`lab`](labs/lab.ipynb) | **failed**: timed out | no | cpu |" in rows[1]
    assert "| [`bad`](a.md#bad) | **failed**: a declaration cannot be used |  |  |" in rows[3]
    assert "| skipped: still running |" in rows[4]
    assert "| skipped: needs a GPU; **no recording** |" in rows[5]
    assert "| executed in this build | 2 | 1.50 |" in text  # the timed-out run counts: it ran now
    assert "| from the cache | 1 | 4.25 |" in text
    assert "| skipped (need a GPU) | 1 | |" in text and "| skipped (not run yet) | 1 | |" in text
    assert "| failed | 2 | |" in text
    assert "| **all** | **6** | **5.75** |" in text


def test_a_lab_page_loses_the_inline_style_sheets_and_loaders_but_keeps_its_cells():
    page = (
        '<style type="text/css">.jp-Cell{}' + "x" * 1000 + "</style>"
        '<script type="text/x-mathjax-config">init_mathjax()</script><script src=""> </script>'
        '<script type="module">import mermaid from "x"; mermaid.run()</script>'
        '<script>copy()</script><div class="jp-Cell">cell</div>'
    )
    assert notebooks.lighten(page) == '<script>copy()</script><div class="jp-Cell">cell</div>'


def test_the_report_names_the_restrictions_this_machine_did_not_enforce(monkeypatch):
    from docexec.sandbox import restrictions

    monkeypatch.setattr(restrictions, "unenforced", lambda: (restrictions.NETWORK,))
    text = build_report.markdown({}, {}, ENVIRONMENT, datetime.date(2026, 11, 22))
    assert "**Not in force on the machine that built this site**" in text
    assert "no network unless declared." in text


def _recording(snippet: str, torch: str, stale: bool = False) -> Recording:
    gpu = {"device": "cuda", "gpu": "NVIDIA H200", "torch": torch, "python": "3.12.3"}
    result = Result(snippet, Status.PASSED, duration=1.0, environment=gpu)
    return Recording(snippet, result, "2026-11-27", "0" * 64, stale=stale, pinned_torch="2.13.0")


def test_the_report_counts_the_gpu_recordings_shown_and_those_missing_or_out_of_date():
    paths = [f"snippets/a/gpu_{n}.py" for n in range(5)]
    results = {p: Result(p, Status.SKIPPED, Reason.NEEDS_GPU, failure="needs a CUDA device") for p in paths}
    recorded = {
        paths[0]: _recording(paths[0], "2.13.0+cu128"),  # the pinned release, a CUDA build
        paths[1]: _recording(paths[1], "2.11.0"),
        paths[2]: _recording(paths[2], "2.11.0+cu130"),
        paths[3]: _recording(paths[3], "2.13.0", stale=True),
        paths[4]: None,
    }
    text = build_report.markdown(results, {}, ENVIRONMENT, datetime.date(2026, 11, 27), recorded)
    assert "| · shown from a GPU recording | 3 | |" in text
    assert "| · · with another torch than the pinned one | 2 | |" in text
    assert "| · **no recording** (`make record-gpu`) | 1 | |" in text
    assert "| · **recording out of date** | 1 | |" in text
    rows = {line.split("`")[1]: line for line in text.splitlines() if line.startswith("|  | `gpu_")}
    assert "shown as recorded on NVIDIA H200 · torch 2.13.0+cu128 · 2026-11-27" in rows["gpu_0"]
    assert "torch 2.11.0+cu130 (the site pins 2.13.0)" in rows["gpu_2"]
    assert "**recording out of date** (2026-11-27)" in rows["gpu_3"]
    assert "**no recording**" in rows["gpu_4"]


def test_a_build_with_every_gpu_recording_current_says_none_is_missing():
    path = "snippets/a/gpu.py"
    results = {path: Result(path, Status.SKIPPED, Reason.NEEDS_GPU, failure="needs a CUDA device")}
    text = build_report.markdown(
        results, {}, ENVIRONMENT, datetime.date(2026, 11, 27), {path: _recording(path, "2.13.0")}
    )
    assert "| · shown from a GPU recording | 1 | |" in text
    assert "another torch" not in text
    assert "| · **no recording** (`make record-gpu`) | 0 | |" in text
