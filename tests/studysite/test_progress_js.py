"""The site's own scripts under node's own test runner: the reader's progress logic
(docs/assets/progress.js, tests in js/) and how search reads a query (docs/assets/search-reading.js,
tests in search_js/)."""

from __future__ import annotations

import shutil
import subprocess

import pytest


@pytest.mark.parametrize("folder", ["js", "search_js"])
def test_the_site_scripts_pass_their_node_tests(root, folder):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    run = subprocess.run(
        [node, "--test", str(root / "tests" / "studysite" / folder)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
