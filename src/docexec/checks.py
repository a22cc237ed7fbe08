"""The rules the build and the tests check besides running snippets, each problem with its file
and line: every snippet is used by a page and named for what it shows, and a page holds no code of
its own (its code blocks come from ``%run`` lines), in whatever block it is written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

# Words that say nothing about what a snippet shows (``example1.py``, ``tmp.py``, ``snippet_3.py``).
GENERIC_WORDS = {
    "a", "bar", "baz", "code", "copy", "demo", "draft", "example", "examples", "file", "foo",
    "main", "my", "new", "old", "run", "sample", "scratch", "script", "snippet", "snippets",
    "temp", "test", "tests", "tmp", "try", "untitled", "wip", "x", "y",
}  # fmt: skip
PYTHON_LANGUAGES = {"python", "py", "python3", "py3", "pycon", "ipython", "ipython3", "pytb", "pyodide"}
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Lines whose content continues indented by four more spaces: admonitions, collapsible blocks,
# content tabs, list items (Python-Markdown indents list content by four, whatever the marker).
_CONTAINER = re.compile(r"^(?:!!!|\?\?\?\+?|===\+?|[-*+] |\d+[.)] )")


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _is_lab(path: str, labs: str | None) -> bool:
    """Labs (`Config.labs`) are notebook pages: used by being pages, named like a page."""
    return labs is not None and path.startswith(labs.rstrip("/") + "/")


def snippet_name(path: str, labs: str | None = None) -> Problem | None:
    """A name must say what the snippet shows: two telling words (a lab, a page of its own: one).
    ``labs``: the project's labs folder (`Config.labs`), None where it has none."""
    stem = PurePosixPath(path).stem
    words = [word for word in re.split(r"[^a-z0-9]+", stem.lower()) if word]
    telling = [word for word in words if word.rstrip("0123456789") not in GENERIC_WORDS | {""}]
    if len(telling) >= (1 if _is_lab(path, labs) else 2):
        return None
    return Problem(
        path,
        1,
        f"the name {PurePosixPath(path).name!r} does not say what the snippet shows: name it for "
        "its claim, in words (transpose_swaps_strides.py)",
    )


def unused_snippets(snippets: list[str], used: set[str], labs: str | None = None) -> list[Problem]:
    """Snippets that no page runs (labs, under ``labs``, are pages themselves)."""
    return [
        Problem(path, 1, f"no page runs this snippet: add `%run {path}` to its page, or delete it")
        for path in sorted(snippets)
        if path not in used and not _is_lab(path, labs)
    ]


def _language(info: str) -> str:
    """The language of a fence's info string: ``python title="x"``, ``{ .python #id }``, ``py3``."""
    info = info.strip()
    if info.startswith("{"):
        classes = re.findall(r"(?<![\w-])\.([\w+-]+)", info)
        return classes[0].lower() if classes else ""
    return info.split()[0].lower().lstrip(".") if info else ""


def page_code_blocks(text: str, path: str) -> list[Problem]:
    """Python fences at any depth (admonitions, tabs, details, lists, blocks) and indented code
    blocks: a page's code is a snippet, shown by a ``%run`` line with its real output."""
    lines = text.split("\n")
    problems: list[Problem] = []
    start = _after_front_matter(lines)
    fence: tuple[str, int] | None = None  # the open fence's character and length
    containers: list[int] = []  # the indentation of the content of each open container
    code_indent: int | None = None  # inside an indented code block, its indentation
    blank_before = True
    for number in range(start, len(lines)):
        line = lines[number].expandtabs(4)
        content = line.lstrip(" ")
        indent = len(line) - len(content)
        if fence is not None:
            closing = _FENCE.match(line)
            if closing and closing["fence"][0] == fence[0] and len(closing["fence"]) >= fence[1]:
                fence = None if not closing["info"].strip() else fence
            continue
        if not content.strip():
            blank_before = True
            continue
        if code_indent is not None and indent >= code_indent:
            continue
        code_indent = None
        while containers and indent < containers[-1]:
            containers.pop()
        base = containers[-1] if containers else 0
        opening = _FENCE.match(line)
        if opening:
            language = _language(opening["info"])
            if language in PYTHON_LANGUAGES:
                problems.append(
                    Problem(
                        path,
                        number + 1,
                        f"a {language} code block written on the page: move the code to "
                        "a snippet and show it with a %run line",
                    )
                )
            fence = (opening["fence"][0], len(opening["fence"]))
        elif blank_before and indent >= base + 4:
            problems.append(
                Problem(
                    path,
                    number + 1,
                    "an indented code block (a line indented four spaces past its block, after a "
                    "blank line): code goes in a snippet and a %run line; indent less if it is text",
                )
            )
            code_indent = base + 4
        elif _CONTAINER.match(content):
            containers.append(indent + 4)
        blank_before = False
    return problems


def _after_front_matter(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for number in range(1, len(lines)):
            if lines[number].strip() in {"---", "..."}:
                return number + 1
    return 0


__all__ = ["Problem", "page_code_blocks", "snippet_name", "unused_snippets"]
