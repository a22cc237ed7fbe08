"""What a site build reads from the repository stays inside it.

A pull request adds a link as easily as a page, and what the build reads it publishes: a page
that links to ``/proc/self/environ`` would put the build's environment on the site. So a file
the build reads from the repository (a page, an asset, a theme override, a file a page includes)
may be a link, or lie in a linked folder, only where its real path is inside the repository and
outside every ``.git`` folder (a repository's configuration, remotes and hooks). Files written
outside the repository (an installed theme's) are the installation's and are not looked at.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

GIT = ".git"


def leaves(root: Path, path: str | os.PathLike[str]) -> str | None:
    """Why the file at ``path`` may not be read (where its links lead), or None where it may.
    ``root``: the repository, its links resolved."""
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(root):
        return f"leads out of the repository (to {real})"
    if GIT in real.relative_to(root).parts:
        return f"leads into {real.relative_to(root).as_posix()}, inside {GIT}"
    return None


def _written_inside(root: Path, path: str | os.PathLike[str]) -> bool:
    return Path(os.path.abspath(path)).is_relative_to(root)


def _named(root: Path, path: str | os.PathLike[str]) -> str:
    return Path(os.path.relpath(os.path.abspath(path), root)).as_posix()


def file_problems(root: Path, paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """One line per file written inside the repository whose real path leaves it."""
    problems = []
    for path in paths:
        if _written_inside(root, path) and (why := leaves(root, path)):
            problems.append(f"{_named(root, path)}: {why}")
    return problems


def folder_problems(root: Path, folder: str | os.PathLike[str]) -> list[str]:
    """One line per file or folder in ``folder`` (followed through its links, each real folder
    once) whose real path leaves the repository; a folder that does is not entered."""
    if not os.path.exists(folder):
        return []
    if why := leaves(root, folder):
        return [f"{_named(root, folder)}: {why}"]
    problems, entered = [], set()
    for here, folders, files in os.walk(folder, followlinks=True):
        entered.add(os.path.realpath(here))
        kept = []
        for name in folders:
            path = os.path.join(here, name)
            if why := leaves(root, path):
                problems.append(f"{_named(root, path)}: {why}")
            elif os.path.realpath(path) not in entered:  # a link back up is a loop
                kept.append(name)
        folders[:] = kept
        problems += file_problems(root, (os.path.join(here, name) for name in files))
    return problems


__all__ = ["GIT", "file_problems", "folder_problems", "leaves"]
