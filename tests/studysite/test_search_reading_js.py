"""How the site's search reads a query (docs/assets/search-reading.js), run under node's own test runner."""

from __future__ import annotations

import shutil
import subprocess

import pytest


def test_the_search_reading_passes_its_node_tests(root):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    run = subprocess.run(
        [node, "--test", str(root / "tests" / "studysite" / "search_js")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
