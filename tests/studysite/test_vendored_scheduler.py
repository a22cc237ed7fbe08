"""The vendored FSRS scheduler is the version .ci/assets pins, with its licence beside it."""

from __future__ import annotations

import json
import re


def test_the_vendored_scheduler_matches_the_pinned_version_and_carries_its_licence(root):
    vendored = root / "docs" / "assets" / "vendor" / "ts-fsrs"
    banner = (vendored / "ts-fsrs.min.js").read_text(encoding="utf-8").split("\n", 1)[0]
    lock = json.loads((root / ".ci" / "assets" / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/ts-fsrs"]["version"]
    assert re.search(rf"ts-fsrs {re.escape(pinned)} \| MIT License", banner), (banner, pinned)
    assert "Permission is hereby granted" in (vendored / "LICENSE").read_text(encoding="utf-8")
