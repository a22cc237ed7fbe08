"""The build report page, and the weight a lab page sheds."""

from __future__ import annotations

import datetime

from docexec.execution.result import FAILED, PASSED, SKIPPED, Result
from docexec.render import build_report, notebooks

ENVIRONMENT = {"device": "cpu", "torch": "2.13.0+cpu", "python": "3.11.7"}


def test_the_report_lists_every_snippet_slowest_first_with_totals():
    results = {
        "snippets/a/fast.py": Result("snippets/a/fast.py", PASSED, duration=0.5, environment=ENVIRONMENT),
        "snippets/a/slow.py": Result(
            "snippets/a/slow.py", PASSED, duration=4.25, environment=ENVIRONMENT, cached=True
        ),
        "snippets/a/gpu.py": Result("snippets/a/gpu.py", SKIPPED, failure="needs a CUDA device"),
        "snippets/labs/lab.py": Result("snippets/labs/lab.py", FAILED, duration=1.0, environment=ENVIRONMENT),
    }
    pages = {path: ["a.md"] for path in results} | {"snippets/labs/lab.py": ["labs/lab.ipynb"]}
    text = build_report.markdown(results, pages, ENVIRONMENT, datetime.date(2026, 11, 22))
    assert text.startswith("---\nsearch:\n  exclude: true\n---\n# Build report\n")
    rows = [line for line in text.splitlines() if "| [`" in line]
    assert [row.split("`")[1] for row in rows] == ["slow", "lab", "fast", "gpu"]
    assert rows[0] == "| 4.25 | [`slow`](a.md#slow) | passed | yes | cpu | [a](a.md) |"
    assert "| [`lab`](labs/lab.ipynb) | **failed** |" in rows[1]
    assert "skipped: needs a GPU" in rows[3]
    assert "| executed in this build | 2 | 1.50 |" in text  # the failed run counts: it ran now
    assert "| from the cache | 1 | 4.25 |" in text
    assert "| **all** | **4** | **5.75** |" in text


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
