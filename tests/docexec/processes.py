"""Shared by the engine's tests: finding a snippet's processes from outside, and waiting for them to end.

A snippet runs in a PID namespace of its own, so the PIDs it sees are not this machine's: a test
finds its processes by a mark they carry (in the command line, or as the name ``prctl`` sets).
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

# Sleeps after starting a process in a session of its own; writes started.txt in its working folder.
SLEEPS = """
    # docexec: timeout=600
    import subprocess
    import sys
    import time
    from pathlib import Path

    session = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    Path("started.txt").write_text(f"{session.pid}")  # in its working folder
    time.sleep(600)
"""


def gone(pid: int) -> bool:
    """No such process, or only its exit status is left (a zombie waiting for its parent)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return True
    return state in {"Z", "X"}


def assert_all_gone(pids: list[int], seconds: float = 10) -> None:
    """SIGKILL was sent: the kernel ends the processes right after."""
    deadline = time.monotonic() + seconds
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in pids if not gone(pid)] == []


def marked(mark: str) -> list[int]:
    """The processes of this machine whose command line holds ``mark``, or that named themselves so."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            named = (entry / "comm").read_text().strip() == mark
            if named or mark.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
    return found
