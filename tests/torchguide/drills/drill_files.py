"""Shared by the drills' tests: the files of a drill's stub, reference solution and wrong solutions."""

from __future__ import annotations

from pathlib import Path

from torchguide.drills import framework, get
from torchguide.drills.framework import Report

ROOT = Path(__file__).resolve().parents[3]
WRONG = Path(__file__).parent / "wrong"


def check_file(drill_id: str, path: Path, **limits) -> Report:
    """The check ``python -m torchguide.drills check`` makes: the file runs in a runner of its own."""
    return framework.check_file(get(drill_id), path, **limits)


def wrong_solutions(drill_id: str) -> list[Path]:
    return sorted((WRONG / drill_id).glob("*.py"))


def expected_message(path: Path) -> str:
    """The first line of a wrong solution says what the checker must answer: ``# expect: ...``."""
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path}: the first line must be '# expect: <message>'"
    return first.removeprefix("# expect: ")
