"""The ``%run`` line, the one piece of syntax a page adds to Markdown: what makes a line one, the
path it may name, and which lines of a page count (none inside fenced code). The site build, the
renderer, the notebooks and the preview's page reuse all read a page's ``%run`` lines here, and a
site's own plugins find what a page says outside its code examples with `outside_fences`."""

from __future__ import annotations

import dataclasses
import posixpath
import re

from docexec.config import Config

# Every line that starts with %run is meant as one: what follows is checked, never ignored.
DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)%run(?:[ \t]+(?P<rest>.*))?$")
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
MAX_NAME_BYTES = 255  # of one file or folder name (NAME_MAX on Linux and macOS)


@dataclasses.dataclass(frozen=True)
class Directive:
    """One ``%run`` line: its index in the page, its indent, and the snippet's path, or the problem
    that makes the line unusable (then ``path`` is what was written after ``%run``)."""

    index: int
    indent: str
    path: str
    problem: str | None = None


def path_problem(path: str, snippets: str) -> str | None:
    """Why ``path`` cannot name a snippet of the folder ``snippets`` (before any file is touched)."""
    prefix = snippets + "/"
    if not path.isprintable():
        return "the path holds control characters"
    if path.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", path):
        return f"absolute paths are not allowed; write a path that starts with {prefix}"
    if "\\" in path or ".." in path.split("/") or posixpath.normpath(path) != path:
        return f"the path must lead straight to a file in {prefix} (no '..', '.', '//' or '\\')"
    if not path.startswith(prefix):
        return f"paths are relative to the project root and start with {prefix}"
    if not path.endswith(".py"):
        return "a snippet is a Python file: its name ends with .py"
    if any(len(part.encode()) > MAX_NAME_BYTES for part in path.split("/")):
        return f"a name in the path is longer than {MAX_NAME_BYTES} bytes, more than a file system allows"
    return None


def parse_directive(index: int, line: str, snippets: str) -> Directive | None:
    """The ``%run`` line at ``index``, checked; None when the line is no ``%run`` line."""
    match = DIRECTIVE.match(line)
    if not match:
        return None
    words = (match.group("rest") or "").split()
    indent = match.group("indent")
    if not words:
        return Directive(index, indent, "", f"%run needs a snippet path ({snippets}/<page>/<name>.py)")
    if len(words) > 1:
        extra = " ".join(words[1:])
        return Directive(
            index, indent, words[0], f"%run takes one path; unexpected words after it: {extra!r}"
        )
    return Directive(index, indent, words[0], path_problem(words[0], snippets))


def outside_fences(lines: list[str]) -> list[str]:
    """``lines`` with every fenced code block, its fences included, blanked: the lines a page says
    in its own Markdown, not in an example of it. A fence closes with a bare line of its character,
    at least as long (CommonMark); one left open runs to the end of the page."""
    kept = []
    open_fence: str | None = None
    for line in lines:
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group("fence")
            if open_fence is None:
                open_fence = marker
            elif (
                marker[0] == open_fence[0]
                and len(marker) >= len(open_fence)
                and not line.strip()[len(marker) :]
            ):
                open_fence = None
            kept.append("")
        else:
            kept.append("" if open_fence else line)
    return kept


def directives(lines: list[str], snippets: str) -> list[Directive]:
    """Every ``%run`` line outside fenced code blocks, well formed or not."""
    found = []
    for index, line in enumerate(outside_fences(lines)):
        directive = parse_directive(index, line, snippets)
        if directive:
            found.append(directive)
    return found


def directive_lines(lines: list[str], snippets: str = Config.snippets) -> list[tuple[int, str, str]]:
    """(index, indent, path) of every well-formed ``%run`` line: the snippets a page runs. The
    others are reported where the page renders."""
    return [(d.index, d.indent, d.path) for d in directives(lines, snippets) if d.problem is None]


__all__ = [
    "DIRECTIVE",
    "Directive",
    "directive_lines",
    "directives",
    "outside_fences",
    "parse_directive",
    "path_problem",
]
