"""``python -m torchguide.drills``: list the drills, check a reader's file, show a drill's task.
(A drill's files and page section are the site's: ``python -m studysite.drill_scaffold``.)

Exit status: 0 when the check passes, 1 when it fails (its function ended the process it ran in,
ran past the time limit or printed past the output limit too), 2 when the file cannot be checked
(a syntax error, a missing function, a wrong signature) or the command is wrong, 130 when Ctrl-C
stopped it. The reader's file runs in a process of its own (`torchguide.drills._containment`).
"""

from __future__ import annotations

import argparse
import sys

from torchguide.drills import all_drills
from torchguide.drills._containment import CALL_SECONDS


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns its exit status.

    Examples:
      ```python
      from torchguide.drills.cli import main

      assert main(["list"]) == 0
      assert main(["check", "no_such_drill", "mine.py"]) == 2
      ```
    """
    parser = argparse.ArgumentParser(prog="python -m torchguide.drills", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="the drills, by page, with their difficulty")
    show = commands.add_parser("show", help="a drill's task, signature and hints")
    show.add_argument("name")
    checking = commands.add_parser("check", help="check the function in FILE against drill NAME")
    checking.add_argument("name")
    checking.add_argument("file")
    checking.add_argument(
        "--call-seconds", type=float, default=CALL_SECONDS, help="the time limit of one call of the function"
    )
    attach = commands.add_parser(
        "attach", help="(used by check_here) check the function a runner holds, HANDLE: pid,fd,fd,fd"
    )
    attach.add_argument("name")
    attach.add_argument("handle")
    attach.add_argument("--call-seconds", type=float, default=CALL_SECONDS)
    arguments = parser.parse_args(argv)
    drills = all_drills()

    if arguments.command == "list":
        page = None
        for drill in drills.values():
            if drill.page != page:
                page = drill.page
                print(f"{page}")
            print(f"  {drill.id:<28} {drill.difficulty:<7} {drill.title}")
        return 0

    drill = drills.get(arguments.name)
    if drill is None:
        print(
            f"no drill named {arguments.name!r}; `python -m torchguide.drills list` lists them",
            file=sys.stderr,
        )
        return 2
    if arguments.command == "show":
        print(f"{drill.title} ({drill.difficulty})\n\n{drill.statement}\n")
        for number, hint in enumerate(drill.hints, 1):
            print(f"Hint {number}: {hint}")
        return 0

    if arguments.command == "attach":
        return _attach(drill, arguments.handle, arguments.call_seconds)
    return _check_file(drill, arguments.file, arguments.call_seconds)


def _check_file(drill, file: str, call_seconds: float) -> int:
    from torchguide.drills.framework import check_file

    return _answer(check_file(drill, file, call_seconds=call_seconds))


def _attach(drill, handle: str, call_seconds: float) -> int:
    from torchguide.drills._containment import Runner, RunnerHandle
    from torchguide.drills.framework import check_with

    runner = Runner(RunnerHandle.parse(handle), drill.function, own_child=False, call_seconds=call_seconds)
    try:
        report = check_with(drill, runner)
    finally:
        runner.close()
    return _answer(report)


def _answer(report) -> int:
    if report.unreadable:
        print(report.unreadable, file=sys.stderr)
        return 2
    print(report.text())
    return 0 if report.ok else 1
