"""Shared by the drills' tests: the files of a drill's stub, reference solution and wrong solutions."""

from __future__ import annotations

import atexit
import json
import subprocess
import sys
from pathlib import Path

from torchguide.drills.framework import Report

ROOT = Path(__file__).resolve().parents[3]
WRONG = Path(__file__).parent / "wrong"
CHECKER = Path(__file__).with_name("checker_process.py")


class CheckerProcess:
    """`checker_process.py`, started on first use and kept for the test process's life."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def check(self, drill_id: str, path: Path, limits: dict) -> Report:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, str(CHECKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            atexit.register(self.close)
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps({"drill": drill_id, "path": str(path), "limits": limits}) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the checker process ended with status {self.process.wait()}")
        return Report(**json.loads(answer))

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()  # type: ignore[union-attr]
            self.process.wait(timeout=30)


_checker = CheckerProcess()


def check_file(drill_id: str, path: Path, **limits) -> Report:
    """The check ``python -m torchguide.drills check`` makes: the file runs in a runner of its own,
    forked from a checker process that is not pytest's (`checker_process.py`)."""
    return _checker.check(drill_id, path, limits)


def wrong_solutions(drill_id: str) -> list[Path]:
    return sorted((WRONG / drill_id).glob("*.py"))


def expected_message(path: Path) -> str:
    """The first line of a wrong solution says what the checker must answer: ``# expect: ...``."""
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path}: the first line must be '# expect: <message>'"
    return first.removeprefix("# expect: ")
