"""Splitting the snippets over N machines, and merging their caches into one.

Each shard is chosen by every machine alone, so the split is a pure function of the snippets and
their known durations: machines that start from the same cache agree on it. Durations come from
cached results and GPU recordings; snippets never run yet count as the mean of the known ones
(all as equal when none is known, which splits by count).
"""

from __future__ import annotations

import heapq
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from docexec import recordings
from docexec.execution import cache

if TYPE_CHECKING:
    from docexec.execution.engine import Engine

_SHARD = re.compile(r"^(\d+)/(\d+)$")


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4): the second of four shards, numbered from 1."""
    match = _SHARD.match(text.strip())
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError(f"--shard {text}: expected I/N with 1 <= I <= N, e.g. 1/2")
    return int(match.group(1)), int(match.group(2))


def split(paths: list[str], durations: dict[str, float], count: int) -> list[list[str]]:
    """``count`` shards of ``paths`` with totals as even as greedy longest-first makes them."""
    known = [durations[p] for p in paths if p in durations]
    default = sum(known) / len(known) if known else 1.0
    weighted = sorted((durations.get(p, default), p) for p in set(paths))
    weighted.sort(key=lambda item: -item[0])  # longest first; among equals, by path (a stable sort)
    heap = [(0.0, index) for index in range(count)]  # (total so far, shard): the lightest takes the next
    shards: list[list[str]] = [[] for _ in range(count)]
    for seconds, path in weighted:
        total, index = heapq.heappop(heap)
        shards[index].append(path)
        heapq.heappush(heap, (total + seconds, index))
    return [sorted(shard) for shard in shards]


def known_durations(engine: Engine, paths: list[str]) -> dict[str, float]:
    """Seconds each snippet took when it last ran here (the cache) or on the GPU (its recording)."""
    durations = {}
    for path in paths:
        cached = engine.cache.get(engine.key(path))
        if cached is not None:
            durations[path] = cached.duration
            continue
        try:
            recording = recordings.load(engine.root, path, engine.config.snippets)
        except recordings.RecordingError:
            recording = None
        if recording is not None:
            durations[path] = recording.result.duration
    return durations


def shard(engine: Engine, paths: list[str], index: int, count: int) -> list[str]:
    """The snippets of shard ``index`` (1-based) of ``count``."""
    return split(paths, known_durations(engine, paths), count)[index - 1]


def merge_caches(sources: list[Path], target: Path) -> tuple[int, int]:
    """Copy the valid entries of ``sources`` into the cache at ``target``: (copied, already there).

    Entries are content-addressed, so two caches never disagree on a key; one that does not hold
    a readable entry under its own key (a torn copy) is left out.
    """
    copied = present = 0
    for source in sources:
        if not source.is_dir():
            raise FileNotFoundError(f"{source}: no such cache folder")
        for entry in sorted(source.glob("??/*.json")):
            destination = target / entry.parent.name / entry.name
            if destination.exists():
                present += 1
                continue
            if not _is_entry(entry):
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=destination.parent, prefix=".tmp-", suffix=".json")
            os.close(fd)
            shutil.copyfile(entry, temporary)
            os.replace(temporary, destination)  # atomic, as the cache writes its own entries
            copied += 1
    return copied, present


def _is_entry(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return data.get("schema") == cache.SCHEMA and data.get("key") == path.stem


__all__ = ["known_durations", "merge_caches", "parse_shard", "shard", "split"]
