"""Shards: ``docexec run --shard I/N`` in separate processes, their caches merged into one that a
later run takes everything from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from unittest.mock import ANY

import pytest

from docexec.execution import shards

DOCEXEC = [sys.executable, "-m", "docexec.hosts.cli"]  # the `docexec` command of this Python


def test_longest_first_balances_known_durations_and_counts_without_them():
    paths = [f"snippets/s{i}.py" for i in range(6)]
    durations = dict(zip(paths, [8.0, 1.0, 1.0, 3.0, 3.0, 2.0], strict=True))
    first, second = shards.split(paths, durations, 2)
    totals = sorted(sum(durations[p] for p in shard) for shard in (first, second))
    assert totals == [9.0, 9.0] and sorted(first + second) == paths
    by_count = shards.split(paths, {}, 4)
    assert sorted(len(shard) for shard in by_count) == [1, 1, 2, 2]
    assert sorted(p for shard in by_count for p in shard) == paths
    unknown_is_the_mean = shards.split(["a", "b", "c"], {"a": 4.0, "b": 2.0}, 2)
    assert unknown_is_the_mean == [["a"], ["b", "c"]]


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_a_bad_shard_is_refused(text):
    with pytest.raises(ValueError, match=f"--shard {text}: expected I/N"):
        shards.parse_shard(text)


def test_two_shards_in_two_processes_merge_into_a_cache_that_leaves_nothing_to_run(project, tmp_path):
    paths = [project.snippet(f"page/s{i}.py", f"print('snippet {i}')\n") for i in range(5)]
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(tmp_path / "unused")}
    caches = [tmp_path / "shard1", tmp_path / "shard2", tmp_path / "merged"]  # as on two machines
    report = tmp_path / "report.json"
    runs = [
        subprocess.Popen(
            [*DOCEXEC, "run", "--quiet", f"--shard={i}/2", f"--cache-dir={cache}"],
            cwd=project.root,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, cache in ((1, caches[0]), (2, caches[1]))
    ]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    executed = [int(out.split("executed")[0].split()[-1]) for out in outputs]
    assert sorted(executed) == [2, 3] and "shard 1/2: " in outputs[0], outputs

    merge = subprocess.run(
        [*DOCEXEC, "merge-cache", *map(str, caches[:2]), "--into", str(caches[2])],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert merge.returncode == 0 and "5 entries copied" in merge.stdout, merge.stdout + merge.stderr
    build = subprocess.run(
        [*DOCEXEC, "run", "--quiet", f"--cache-dir={caches[2]}"] + [f"--report={report}"],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert build.stdout.rstrip().endswith("0 executed, 5 cached, 0 skipped (CUDA)"), build.stdout
    written = json.loads(report.read_text())  # what the weekly drift run compares
    assert written[paths[4]] == {
        "status": "passed",
        "reason": None,
        "output": "snippet 4\n",
        "failure": None,
        "torch": ANY,
    }


def test_durations_come_from_the_cache_and_a_torn_entry_is_not_merged(project):
    fast = project.snippet("page/fast.py", "print('fast')\n")
    slow = project.snippet("page/slow.py", "import time\ntime.sleep(0.5)\n")
    project.engine().execute([fast, slow], progress=False)
    new = project.snippet("page/new.py", "print('never run')\n")
    durations = shards.known_durations(project.engine(), [fast, slow, new])
    assert set(durations) == {fast, slow} and durations[slow] > durations[fast]

    torn = project.root / "torn" / "ab"
    torn.mkdir(parents=True)
    (torn / ("ab" + "0" * 62 + ".json")).write_text('{"schema": 2, "key": "ab')
    (torn / "abc.json").write_text(json.dumps({"schema": 99, "key": "abc"}))
    copied, present = shards.merge_caches([project.root / "torn", project.cache_dir], project.root / "one")
    assert (copied, present) == (2, 0)
    with pytest.raises(FileNotFoundError, match="no such cache folder"):
        shards.merge_caches([project.root / "absent"], project.root / "one")
