"""An engine that keeps its warm servers (the live preview): later runs reuse them, a server that
a snippet took down is replaced, and closing the engine ends them all."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from docexec.execution.pool import fork_is_available

pytestmark = pytest.mark.skipif(not fork_is_available(), reason="warm servers need fork")


def warm_servers() -> set[int]:
    """This process's children that are the engine's warm servers."""
    found = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                if b"docexec.execution.warm_server" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.add(int(child))
            except OSError:
                pass
    return found


def test_runs_of_a_keep_warm_engine_share_its_servers_until_it_closes(project):
    first = project.snippet("pool/first_run_prints.py", "print('first')\n")
    second = project.snippet("pool/second_run_prints.py", "print('second')\n")
    before = warm_servers()
    engine = project.engine(workers=2, keep_warm=True)
    try:
        assert engine.execute([first], progress=False)[0][first].output == "first\n"
        kept = warm_servers() - before
        assert kept
        assert engine.execute([second], progress=False)[0][second].output == "second\n"
        assert warm_servers() - before == kept
    finally:
        engine.close()
    deadline = time.monotonic() + 20
    while warm_servers() & kept and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not warm_servers() & kept


KILLS_ITS_SERVER = """
import os
import signal
import time
from pathlib import Path

print("pid", os.getpid())  # recorded at once, before its server goes
os.kill(os.getppid(), signal.SIGKILL)  # the parent is the server
time.sleep(600)
"""


def test_a_server_that_a_snippet_took_down_fails_that_snippet_and_is_replaced(project):
    killer = project.snippet("pool/kills_its_server.py", KILLS_ITS_SERVER)
    after = project.snippet("pool/runs_after_the_kill.py", "print('still running snippets')\n")
    engine = project.engine(workers=1, keep_warm=True)
    try:
        results, summary = engine.execute([killer, after], progress=False)
        assert results[killer].failure.startswith(
            "snippets/pool/kills_its_server.py: the warm server that ran it stopped"
        )
        assert results[after].output == "still running snippets\n"  # the run went on
        assert engine.execute([after], progress=False)[0][after].output == "still running snippets\n"
    finally:
        engine.close()
    orphan = int(results[killer].output.split()[1])
    deadline = time.monotonic() + 10  # it dies with its server, not at its timeout
    while Path(f"/proc/{orphan}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{orphan}").exists() or "Z" in Path(f"/proc/{orphan}/stat").read_text().split()[2]
