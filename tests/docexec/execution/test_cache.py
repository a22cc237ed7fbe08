"""The content-addressed cache: what invalidates an entry, and what cannot corrupt one."""

import dataclasses
import json
import subprocess
import sys
import textwrap

from docexec.execution import outputs
from docexec.execution.cache import ENTRY_SCHEMA, OUTPUT_SCHEMAS, SCHEMA
from docexec.execution.result import Cell, Result

SNIPPET = "print(list(range(3)))\n"


def test_an_unchanged_rerun_executes_nothing_and_an_edit_executes_one(project):
    a, b = project.snippet("a.py", SNIPPET), project.snippet("b.py", "print('b')\n")
    assert project.engine().execute([a, b], progress=False)[1].executed == 2
    results, summary = project.engine().execute([a, b], progress=False)
    assert (summary.executed, summary.cached) == (0, 2)
    assert results[a].cached and results[a].output == "[0, 1, 2]\n"
    project.snippet("b.py", "print('b, edited')\n")
    results, summary = project.engine().execute([a, b], progress=False)
    assert (summary.executed, summary.cached) == (1, 1)
    assert results[b].output == "b, edited\n"


def test_a_change_in_the_library_invalidates_every_entry(project):
    a = project.snippet("a.py", SNIPPET)
    project.engine().execute([a], progress=False)
    (project.root / "src" / "torchguide" / "__init__.py").write_text("VERSION = 2\n")
    assert project.engine().execute([a], progress=False)[1].executed == 1


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
    project.engine().execute([a], progress=False)
    assert project.engine(force=True).execute([a], progress=False)[1].executed == 1


def test_failures_are_not_cached(project):
    a = project.snippet("a.py", "raise ValueError('no')\n")
    project.engine().execute([a], progress=False)
    assert project.engine().execute([a], progress=False)[1].executed == 1


def test_a_corrupt_or_truncated_entry_is_run_again(project):
    a = project.snippet("a.py", SNIPPET)
    engine = project.engine()
    engine.execute([a], progress=False)
    entry = next(project.cache_dir.rglob("*.json"))
    text = entry.read_text()
    for damaged in [text[: len(text) // 2], "not json", json.dumps({"schema": SCHEMA, "key": "other"}), ""]:
        entry.write_text(damaged)
        results, summary = project.engine().execute([a], progress=False)
        assert summary.executed == 1 and results[a].output == "[0, 1, 2]\n"
    assert json.loads(entry.read_text())["result"]["status"] == "passed"


def test_an_engine_that_read_an_entry_checks_it_again_once_it_changed(project):
    """The preview's engine lives through many builds and remembers the entries it checked."""
    a = project.snippet("a.py", SNIPPET)
    engine = project.engine()
    engine.execute([a], progress=False)
    assert engine.execute([a], progress=False)[0][a].output == "[0, 1, 2]\n"  # read and checked
    entry = next(project.cache_dir.rglob("*.json"))
    stored = json.loads(entry.read_text())
    changed = {"kind": "text", "stream": "stdout", "text": "changed on disk\n"}
    stored["result"]["cells"][0]["outputs"] = [changed]
    entry.write_text(json.dumps(stored))
    assert engine.execute([a], progress=False)[0][a].output == "changed on disk\n"
    entry.write_text("not json")
    results, summary = engine.execute([a], progress=False)
    assert summary.executed == 1 and results[a].output == "[0, 1, 2]\n"


def test_two_concurrent_runs_leave_only_complete_entries(project):
    paths = [project.snippet(f"s{i}.py", f"print({i})\n") for i in range(6)]
    script = textwrap.dedent(f"""
        from pathlib import Path
        from docexec import config
        from docexec.execution.engine import Engine
        root = Path({str(project.root)!r})
        settings = config.load(root).replace(cache_dir=Path({str(project.cache_dir)!r}), force=True)
        results, summary = Engine(root, settings).execute({paths!r}, progress=False)
        assert not summary.failures, summary.line()
    """)
    runs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(2)]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    entries = list(project.cache_dir.rglob("*.json"))
    assert len(entries) == len(paths)
    assert not list(project.cache_dir.rglob(".tmp-*"))
    for entry in entries:
        assert json.loads(entry.read_text())["result"]["status"] == "passed"
    assert project.engine().execute(paths, progress=False)[1].cached == len(paths)


FIGURE_SNIPPET = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nprint('drawn')\n"


def _damaged_entries(entry: dict) -> dict[str, dict]:
    """Valid JSON, each wrong in one way that would break a page or a build if it were served."""

    def changed(edit) -> dict:
        copy = json.loads(json.dumps(entry))
        edit(copy)
        return copy

    result = "result"

    def figure(e: dict) -> dict:
        return next(o for o in e[result]["cells"][0]["outputs"] if o["kind"] == "figure")

    def outputs(*shown: dict):
        return lambda e: e[result]["cells"][0].update(outputs=list(shown))

    text = {"kind": "text", "stream": "stdout", "text": "a"}
    return {
        "figure not base64": changed(lambda e: figure(e).update(data="%%not*base64")),
        "figure width a string": changed(lambda e: figure(e).update(width="wide")),
        "figure key missing": changed(lambda e: figure(e).pop("height")),
        "text without its stream": changed(outputs({"kind": "text", "text": "a"})),
        "text with a key too many": changed(outputs({**text, "colour": "red"})),
        "text of stream stdin": changed(outputs({**text, "stream": "stdin"})),
        "text a number": changed(outputs({**text, "text": 5})),
        "output of no kind": changed(outputs({"stream": "stdout", "text": "a"})),
        "output of an unknown kind": changed(outputs({**text, "kind": "table"})),
        "outputs of the old form": changed(
            lambda e: e[result]["cells"][0].update(streams=[["stdout", "a"]], figures=[])
        ),
        "cells not a list": changed(lambda e: e[result].update(cells={"0": []})),
        "unknown status": changed(lambda e: e[result].update(status="fine")),
        "unknown reason": changed(lambda e: e[result].update(status="failed", reason="bad luck")),
        "a pass with a reason": changed(lambda e: e[result].update(reason="raised")),
        "a failure without one": changed(lambda e: e[result].update(status="failed", reason=None)),
        "result key missing": changed(lambda e: e[result].pop("status")),
        "result key unknown": changed(lambda e: e[result].update(colour="red")),
        "error of wrong shape": changed(outputs({"kind": "error", "type": 1})),
        "exception beside the cells": changed(lambda e: e[result].update(exception=None)),
        "another schema": changed(lambda e: e.update(schema=SCHEMA + 1)),
        "result a list": changed(lambda e: e.update(result=[])),
    }


def test_an_entry_with_any_bad_content_is_a_miss_and_runs_again(project):
    a = project.snippet("a.py", FIGURE_SNIPPET)
    engine = project.engine()
    first = engine.execute([a], progress=False)[0][a]
    assert first.figures and first.output == "drawn\n"
    key = engine.key(a)
    entry_path = next(project.cache_dir.rglob("*.json"))
    entry = json.loads(entry_path.read_text())
    assert engine.cache.get(key) is not None  # the stored form itself is served
    for problem, damaged in _damaged_entries(entry).items():
        entry_path.write_text(json.dumps(damaged))
        assert engine.cache.get(key) is None, problem
    # Through the engine: run again (never served, never crashed on), and the entry is replaced.
    entry_path.write_text(json.dumps(_damaged_entries(entry)["figure not base64"]))
    results, summary = project.engine().execute([a], progress=False)
    assert summary.executed == 1 and results[a].figures[0].bytes.startswith(b"<?xml")
    assert project.engine().execute([a], progress=False)[1].cached == 1


PID_SNIPPET = """\
import os, time
time.sleep(1.0)  # long enough that a second build, unlocked, would start it too
print("run by process", os.getpid())
"""


def test_two_builds_started_together_execute_a_cold_snippet_once(project):
    path = project.snippet("count.py", PID_SNIPPET)
    script = textwrap.dedent(f"""
        import json
        from pathlib import Path
        from docexec import config
        from docexec.execution.engine import Engine
        root = Path({str(project.root)!r})
        engine = Engine(root, config.load(root).replace(cache_dir=Path({str(project.cache_dir)!r})))
        results, summary = engine.execute([{path!r}], progress=False)
        print(json.dumps([summary.executed, summary.cached, results[{path!r}].output]))
    """)
    runs = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    reports = [json.loads(run.communicate(timeout=120)[0]) for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert sorted(counts for *counts, _ in reports) == [[0, 1], [1, 0]]  # one ran it, one read its result
    outputs = {output for *_, output in reports}
    assert len(outputs) == 1 and outputs.pop().startswith("run by process ")  # one process printed both


def test_every_field_of_a_result_is_typed_in_the_entry_schema():
    """A field added to Result, Cell or an output must be typed in the schema: else no entry is served."""
    result = ENTRY_SCHEMA["properties"]["result"]
    cell = result["properties"]["cells"]["items"]
    assert cell["properties"]["outputs"]["items"]["oneOf"] == list(OUTPUT_SCHEMAS.values())
    assert set(OUTPUT_SCHEMAS) == set(outputs.KINDS)
    kinds = [(kind, OUTPUT_SCHEMAS[name]) for name, kind in outputs.KINDS.items()]
    for kind, schema in [(Result, result), (Cell, cell), *kinds]:
        names = {f.name for f in dataclasses.fields(kind)} - {"cached"}
        if kind in outputs.KINDS.values():
            names.add("kind")
            assert schema["properties"]["kind"] == {"const": kind.kind}
        assert set(schema["required"]) == set(schema["properties"]) == names, kind.__name__


FORGED_SVGS = {
    "script": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
    "handler": b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>',
    "foreign": b'<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe/></foreignObject></svg>',
    "link": b'<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
    "hidden link": b'<svg xmlns="http://www.w3.org/2000/svg"><image href="&#106;avascript&#58;x()"/></svg>',
}


def test_a_forged_figure_or_control_sequence_in_the_cache_is_never_served(project):
    import base64

    a = project.snippet("figure.py", FIGURE_SNIPPET)
    # One engine for every run, its warm server kept with pyplot imported: each run reads the
    # cache again, and the snippet is only forked, not started afresh.
    engine = project.engine(keep_warm=True, preload=("matplotlib.pyplot",))
    try:
        engine.execute([a], progress=False)
        entry_file = next(project.cache_dir.rglob("*.json"))
        entry = json.loads(entry_file.read_text())
        for name, svg in FORGED_SVGS.items():
            forged = json.loads(json.dumps(entry))
            next(o for o in forged["result"]["cells"][0]["outputs"] if o["kind"] == "figure").update({
                "format": "svg",
                "data": base64.b64encode(svg).decode(),
            })
            entry_file.write_text(json.dumps(forged))
            results, summary = engine.execute([a], progress=False)
            assert summary.executed == 1, name  # refused, run again: matplotlib's own figure is shown
            figure = results[a].figures[0].bytes
            assert figure != svg and b"<svg" in figure
        forged = json.loads(json.dumps(entry))
        forged["result"]["cells"][0]["outputs"][0] = {
            "kind": "text", "stream": "stdout", "text": "drawn\x1b]52;c;aGk=\x07\n"
        }
        entry_file.write_text(json.dumps(forged))
        results, summary = engine.execute([a], progress=False)
    finally:
        engine.close()
    assert summary.cached == 1 and results[a].output == "drawn\n"


def test_an_edit_while_a_snippet_starts_never_stores_one_versions_output_under_the_others_key(
    project, monkeypatch
):
    """The engine reads the source once: the key is taken from it and it is what runs, so an edit
    between the two (a save in the preview) cannot file the new output under the old key."""
    from docexec.execution import pool

    path = project.snippet("page/edited_while_it_starts.py", "print('version 1')\n")
    first_key = project.engine().key(path)
    start = pool.execute_jobs

    def edit_then_start(*args, **kwargs):  # type: ignore[no-untyped-def]
        (project.root / path).write_text("print('version 2')\n")
        return start(*args, **kwargs)

    monkeypatch.setattr(pool, "execute_jobs", edit_then_start)
    results, _ = project.engine().execute([path], progress=False)
    assert results[path].output == "version 1\n"
    monkeypatch.setattr(pool, "execute_jobs", start)
    stored = project.engine().cache.get(first_key)
    assert stored is not None and stored.output == "version 1\n"
