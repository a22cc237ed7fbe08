"""pytest imports each test module by its file name (its folders are no packages), so two modules
of one name anywhere under tests/ break the collection of a bare `pytest`."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_test_modules_and_their_helpers_have_unique_names():
    places: dict[str, list[str]] = defaultdict(list)
    for module in TESTS.rglob("*.py"):
        if module.name != "conftest.py" and "wrong" not in module.relative_to(TESTS).parts:
            places[module.name].append(module.parent.relative_to(TESTS).as_posix())
    shared = {name: folders for name, folders in places.items() if len(folders) > 1}
    assert not shared, f"module names used in more than one folder of tests/: {shared}"
