"""The preview's snippets: an edit runs at once, many run in the background while the pages are
served, and nothing runs twice before it is edited (a failure neither)."""

from __future__ import annotations

import threading

from docexec.hosts.preview import RUN_NOW_BELOW, Preview


def test_a_few_snippets_run_at_once_and_a_failure_is_not_run_again(project):
    good = project.snippet("p/prints_forty_two.py", "print(6 * 7)\n")
    bad = project.snippet("p/names_nothing_defined.py", "undefined_name\n")
    preview = Preview(project.engine(keep_warm=True), rebuild=lambda: None)
    try:
        results, summary, pending = preview.results([good, bad])
        assert not pending and summary.executed == 2
        assert results[good].output == "42\n" and results[bad].status == "failed"
        again, summary, _ = preview.results([good, bad])
        assert summary.executed == 0 and summary.cached == 2 and again[bad].status == "failed"
        project.snippet("p/names_nothing_defined.py", "print('defined now')\n")
        fixed, summary, _ = preview.results([good, bad])
        assert summary.executed == 1 and fixed[bad].output == "defined now\n"
    finally:
        preview.close()


def test_many_snippets_run_in_the_background_and_ask_for_a_rebuild_when_done(project):
    paths = [project.snippet(f"p/prints_step_{n}.py", f"print('step', {n})\n") for n in range(RUN_NOW_BELOW)]
    rebuilt = threading.Event()
    preview = Preview(project.engine(keep_warm=True), rebuild=rebuilt.set)
    try:
        results, summary, pending = preview.results(paths)
        assert pending == set(paths) and not results and summary.executed == 0
        assert "of 4 done" in preview.progress()
        assert rebuilt.wait(120), "no rebuild was asked for"
        results, summary, pending = preview.results(paths)
        assert not pending and summary.executed == 0
        assert [results[p].output for p in paths] == [f"step {n}\n" for n in range(RUN_NOW_BELOW)]
    finally:
        preview.close()


def test_with_force_each_snippet_runs_once_per_version_not_once_per_build(project):
    path = project.snippet("p/prints_once.py", "print('once')\n")
    preview = Preview(project.engine(force=True), rebuild=lambda: None)
    try:
        assert preview.results([path])[1].executed == 1
        assert preview.results([path])[1].executed == 0
    finally:
        preview.close()


SLEEPS = """
    # docexec: timeout=120
    import time
    from pathlib import Path

    Path("started").write_text("yes")
    time.sleep(100)
"""


def test_ctrl_c_of_the_preview_ends_a_running_snippet_at_once(project, tmp_path, monkeypatch):
    import os
    import signal
    import tempfile
    import textwrap
    import time

    import pytest

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where the engine makes its run's folder
    path = project.snippet("p/sleeps.py", textwrap.dedent(SLEEPS))
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    preview = Preview(project.engine(keep_warm=True), rebuild=lambda: None)
    rebuild = threading.Thread(target=preview.results, args=([path],))  # as MkDocs' rebuild thread
    try:
        rebuild.start()
        deadline = time.monotonic() + 120
        while not list(scratch.glob("*/job-0/work/started")):
            assert time.monotonic() < deadline and rebuild.is_alive(), "the snippet did not start"
            time.sleep(0.05)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler raises here
        rebuild.join(timeout=2)
        assert not rebuild.is_alive(), "the rebuild still waits for its snippet 2 s after Ctrl-C"
    finally:
        preview.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
