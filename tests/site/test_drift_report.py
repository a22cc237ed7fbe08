"""The weekly drift run's summary (.ci/drift_report.py), from two `docexec run --report` files."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("drift_report", ROOT / ".ci" / "drift_report.py")
drift_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(drift_report)  # type: ignore[union-attr]


def entry(status: str, output: str = "", reason: str | None = None, failure: str | None = None) -> dict:
    return {"status": status, "reason": reason, "output": output, "failure": failure, "torch": "2.99.0"}


def test_a_broken_snippet_is_named_with_why_and_its_failure_and_the_others_are_counted():
    pinned = {
        "snippets/a.py": entry("passed", "1\n"),
        "snippets/b.py": entry("passed", "2\n"),
        "snippets/c.py": entry("failed", reason="raised", failure="snippets/c.py:3: ValueError"),
        "snippets/d.py": entry("passed", "4\n"),
    }
    newest = {
        "snippets/a.py": entry(
            "failed", reason="timed-out", failure="snippets/a.py: timed out after 30 s\nmore"
        ),
        "snippets/b.py": entry("passed", "2\n"),
        "snippets/c.py": entry("passed", "3\n"),
        "snippets/d.py": entry("passed", "four\n"),
    }
    summary = drift_report.report(pinned, newest)
    assert summary.startswith("## Snippets on torch 2.99.0 against the pinned torch")
    assert "1 broke, 1 mended, 1 print something else (timings included), 4 run." in summary
    assert "- `snippets/a.py` (timed-out): snippets/a.py: timed out after 30 s\n" in summary
    assert "### Mended\n\n- `snippets/c.py`\n" in summary
    assert "### Output changed\n\n- `snippets/d.py`\n" in summary
    assert "snippets/b.py" not in summary


def test_a_report_written_before_reasons_were_still_reads():
    newest = {
        "snippets/a.py": {"status": "failed", "output": "", "failure": "snippets/a.py:1: boom", "torch": "2"}
    }
    assert "- `snippets/a.py`: snippets/a.py:1: boom" in drift_report.report({}, newest)
