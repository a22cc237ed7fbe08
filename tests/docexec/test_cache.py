"""The content-addressed cache: what invalidates an entry, and what cannot corrupt one."""

import json
import subprocess
import sys
import textwrap

from docexec.cache import SCHEMA
from docexec.engine import Engine

SNIPPET = "import torch\nprint(torch.arange(3).tolist())\n"


def test_an_unchanged_rerun_executes_nothing_and_an_edit_executes_one(project):
    a, b = project.snippet("a.py", SNIPPET), project.snippet("b.py", "print('b')\n")
    assert project.engine().run([a, b], progress=False)[1].executed == 2
    results, summary = project.engine().run([a, b], progress=False)
    assert (summary.executed, summary.cached) == (0, 2)
    assert results[a].cached and results[a].output == "[0, 1, 2]\n"
    project.snippet("b.py", "print('b, edited')\n")
    results, summary = project.engine().run([a, b], progress=False)
    assert (summary.executed, summary.cached) == (1, 1)
    assert results[b].output == "b, edited\n"


def test_a_change_in_the_library_invalidates_every_entry(project):
    a = project.snippet("a.py", SNIPPET)
    project.engine().run([a], progress=False)
    (project.root / "src" / "torchguide" / "__init__.py").write_text("VERSION = 2\n")
    assert project.engine().run([a], progress=False)[1].executed == 1


def test_the_key_depends_on_torch_python_device_and_output_libraries(project):
    a = project.snippet("a.py", SNIPPET)
    key = project.engine().key(a)
    for name, value in [("torch", "9.9.9"), ("python", "3.99.0"), ("device", "cuda")]:
        other = project.engine()
        other.environment = {**other.environment, name: value}
        assert other.key(a) != key, name
    for name in ["numpy", "matplotlib"]:
        other = project.engine()
        other._dependencies = {**other._dependencies, name: "0.0.1"}
        assert other.key(a) != key, name


def test_force_executes_again(project):
    a = project.snippet("a.py", SNIPPET)
    project.engine().run([a], progress=False)
    assert project.engine(force=True).run([a], progress=False)[1].executed == 1


def test_failures_are_not_cached(project):
    a = project.snippet("a.py", "raise ValueError('no')\n")
    project.engine().run([a], progress=False)
    assert project.engine().run([a], progress=False)[1].executed == 1


def test_a_corrupt_or_truncated_entry_is_run_again(project):
    a = project.snippet("a.py", SNIPPET)
    engine = project.engine()
    engine.run([a], progress=False)
    entry = next(project.cache_dir.rglob("*.json"))
    text = entry.read_text()
    for damaged in [text[: len(text) // 2], "not json", json.dumps({"schema": SCHEMA, "key": "other"}), ""]:
        entry.write_text(damaged)
        results, summary = project.engine().run([a], progress=False)
        assert summary.executed == 1 and results[a].output == "[0, 1, 2]\n"
    assert json.loads(entry.read_text())["result"]["status"] == "passed"


def test_two_concurrent_runs_leave_only_complete_entries(project):
    paths = [project.snippet(f"s{i}.py", f"print({i})\n") for i in range(6)]
    script = textwrap.dedent(f"""
        from pathlib import Path
        from docexec.engine import Engine
        results, summary = Engine(Path({str(project.root)!r}), cache_dir=Path({str(project.cache_dir)!r}),
                                  force=True).run({paths!r}, progress=False)
        assert not summary.failures, summary.line()
    """)
    runs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(2)]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    entries = list(project.cache_dir.rglob("*.json"))
    assert len(entries) == len(paths)
    assert not list(project.cache_dir.rglob(".tmp-*"))
    for entry in entries:
        assert json.loads(entry.read_text())["result"]["status"] == "passed"
    assert Engine(project.root, cache_dir=project.cache_dir).run(paths, progress=False)[1].cached == len(
        paths
    )
