"""A cache that cannot be written (a read-only mount, a full disk) is said once and the build
goes on: the snippets run, nothing is stored. Real mounts, made in a mount namespace of the test's
own (root and util-linux's unshare), so nothing of the machine changes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

PRINTS = 'print("ran {n}")\n'

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare to mount a cache"
)


@pytest.mark.parametrize(
    ("mount", "error"),
    [
        ("mount -t tmpfs -o size=1m,ro tmpfs {cache}", "Read-only file system"),
        # A cache full to its last block: the 1 MiB file system holds the filler and nothing more.
        (
            "mount -t tmpfs -o size=1m tmpfs {cache} && head -c 2M /dev/zero > {cache}/filler",
            "No space left on device",
        ),
    ],
    ids=["read-only", "full"],
)
def test_an_unwritable_cache_is_said_once_and_every_snippet_still_runs(project, mount, error):
    paths = [project.snippet(f"s{n}.py", PRINTS.format(n=n)) for n in range(3)]
    project.cache_dir.mkdir()
    script = (
        mount.format(cache=project.cache_dir) + "; "
        f"exec {sys.executable} -m docexec.hosts.cli run {' '.join(paths)} --workers 1"
    )
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(project.cache_dir), "NO_MKDOCS_2_WARNING": "1"}
    finished = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
        cwd=project.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert "Traceback" not in finished.stderr
    assert finished.stderr.count("the result cache cannot be written") == 1
    assert error in finished.stderr
    for n in range(3):
        assert f"ran {n}" in finished.stdout
    assert "3 executed" in finished.stdout
