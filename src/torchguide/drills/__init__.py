"""Drills: small "implement it" tasks tied to a question, each with a checker that explains what is
wrong. ``python -m torchguide.drills list`` lists them; ``check NAME FILE`` checks a reader's file.
"""

from __future__ import annotations

import contextlib
import os

from torchguide.drills.framework import Drill

IN_RUNNER = False  # set in the process that runs a reader's function (torchguide.drills._containment)


def all_drills() -> dict[str, Drill]:
    """Every drill by id, in the order of the curriculum."""
    from torchguide.drills import (
        data_loading,
        debugging,
        efficiency,
        foundations,
        generation,
        labs,
        layers,
        scaling,
        training,
        transformer_blocks,
        week_1,
    )

    drills = [
        *week_1.DRILLS,
        *layers.DRILLS,
        *foundations.DRILLS,
        *training.DRILLS,
        *data_loading.DRILLS,
        *debugging.DRILLS,
        *transformer_blocks.DRILLS,
        *generation.DRILLS,
        *efficiency.DRILLS,
        *scaling.DRILLS,
        *labs.DRILLS,
    ]
    found: dict[str, Drill] = {}
    for drill in drills:
        if drill.id in found:
            raise ValueError(f"two drills are named {drill.id}")
        found[drill.id] = drill
    return found


def get(name: str) -> Drill:
    """The drill with this id; a KeyError lists the ids there are."""
    drills = all_drills()
    if name not in drills:
        raise KeyError(f"no drill named {name!r}; there are: {', '.join(drills)}")
    return drills[name]


class DrillFailed(AssertionError):  # noqa: N818  read as "raise DrillFailed(...)"
    """A function failed its drill's checker; the message is the checker's report.

    In a notebook it is shown as that report alone: IPython prints what ``_render_traceback_``
    returns in place of a traceback, which would only show the checker's own lines.
    """

    def _render_traceback_(self) -> list[str]:
        return str(self).splitlines()


def check_here(name: str, function, *, call_seconds: float | None = None) -> None:
    """Checks ``function`` against drill ``name`` and prints the result; raises if it fails.

    A solution snippet ends with this line, so the page shows the checker's real output; a page
    notebook's check cell runs it on the function the reader wrote in the cell above.

    The function runs in a process forked from this one (it needs the reader's cells), and the
    cases and the comparison in a fresh ``python -m torchguide.drills attach`` process, so that
    nothing the reader's cells did to this process (a patched ``torch.testing``, a replaced
    ``check``) touches the verdict. See `torchguide.drills._containment` for what that promises.
    """
    import inspect
    import shutil
    import subprocess
    import sys

    from torchguide.drills._containment import fork_runner
    from torchguide.drills.loading import checked_signature

    if IN_RUNNER:  # a solution file that ends with this line, loaded by the checker: it checks the file
        return
    drill = get(name)
    if not callable(function):
        raise DrillFailed(
            f"FAIL {drill.function} is a {type(function).__name__}, not a function: "
            f"write def {drill.function}{inspect.signature(drill.reference)}: ..."
        )
    try:
        source = inspect.getsourcefile(function)
    except (TypeError, OSError):  # a class written in a notebook's cell has no source file
        source = None

    def load():
        return checked_signature(source or "<cell>", drill.function, function, drill.reference), source

    handle, folder = fork_runner(drill.id, load)
    try:
        checker = subprocess.Popen(
            [sys.executable, "-m", "torchguide.drills", "attach", drill.id, handle.text()]
            + ([f"--call-seconds={call_seconds}"] if call_seconds else []),
            pass_fds=(handle.requests, handle.answers, handle.output),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # an interrupted kernel ends it, in order
        )
        for fd in (handle.requests, handle.answers, handle.output):
            os.close(fd)
        try:
            output, _ = checker.communicate()
        except KeyboardInterrupt:
            checker.kill()
            checker.wait()
            raise DrillFailed(f"{drill.id}: interrupted, the check stopped before its verdict") from None
    finally:
        _end_runner(handle.pid)
        shutil.rmtree(folder, ignore_errors=True)
    text = output.rstrip("\n")
    if checker.returncode != 0:
        raise DrillFailed(text)
    print(text)


def _end_runner(pid: int) -> None:
    from docexec.execution import process_tree

    process_tree.kill_tree(pid)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
