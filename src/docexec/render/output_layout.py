"""Whether printed output is a table: its columns line up, so it keeps its lines and scrolls
sideways where the page is narrow. Any other output wraps at the block's width (with a mark on
each continuation, see docexec.css), so its last words are never off-screen."""

from __future__ import annotations

import re

# A printed tensor or array of two or more dimensions: "tensor([[" on one line, "[" rows under it.
_MATRIX_START = re.compile(r"(?:tensor|array|Parameter containing:|^)\s*\(?\[\[")
_MATRIX_ROW = re.compile(r"^\s+\[")
# Where a column starts: a word after two or more spaces (or at the start of the line).
_COLUMN_START = re.compile(r"(?:^|(?<=\s{2}))\S")
MIN_TABLE_ROWS = 3  # fewer aligned lines are a coincidence, not a table
MIN_SHARED_COLUMNS = 2  # besides the first


def is_tabular(text: str) -> bool:
    """A printed matrix, or at least three consecutive lines that start columns at the same places."""
    lines = text.splitlines()
    for index, line in enumerate(lines[:-1]):
        if _MATRIX_START.search(line) and _MATRIX_ROW.match(lines[index + 1]):
            return True
    run: list[set[int]] = []
    for line in lines:
        starts = {m.start() for m in _COLUMN_START.finditer(line)} - {0}
        shared = set.intersection(*run, starts) if run else starts
        if len(starts) >= MIN_SHARED_COLUMNS and len(shared) >= MIN_SHARED_COLUMNS:
            run.append(starts)
            if len(run) >= MIN_TABLE_ROWS:
                return True
        else:
            run = [starts] if len(starts) >= MIN_SHARED_COLUMNS else []
    return False
