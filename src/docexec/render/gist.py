"""The gist of a snippet: the few lines a page shows first, marked in the file itself.

A snippet marks them with the section markers of pymdownx.snippets, once or several times:

    # --8<-- [start:gist]
    y = x.t()
    # --8<-- [end:gist]

The page shows the regions joined (a ``...`` line where code between them is left out), dedented,
then the output, then the whole file folded. Marker lines are comments: the file runs as written,
so an error still names its real line; readers never see them (`declarations.displayed_source`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from docexec.config import Config
from docexec.execution import declarations
from docexec.execution.declarations import Declarations, is_hidden_line

MAX_GIST_LINES = 12  # a gist longer than this is no longer the point in view
GIST_NEEDED_OVER = 25  # a snippet longer than this (as shown) marks its gist
ELISION = "..."


def gist_line_count(declarations: Declarations) -> int:
    """The lines between the gist markers, all regions together."""
    return sum(last - first + 1 for first, last in declarations.gist)


def gist_source(source: str, declarations: Declarations) -> str | None:
    """The gist as a reader sees it, or None where the snippet marks none."""
    if not declarations.gist:
        return None
    lines = source.splitlines()
    regions: list[list[str]] = []
    previous_last = 0
    for first, last in declarations.gist:
        shown = [line for line in lines[first - 1 : last] if not is_hidden_line(line)]
        while shown and not shown[0].strip():
            shown.pop(0)
        while shown and not shown[-1].strip():
            shown.pop()
        if not shown:
            continue
        skipped = lines[previous_last : first - 1]  # between the last region and this one
        left_out = any(line.strip() and not is_hidden_line(line) for line in skipped)
        if regions and not left_out:
            regions[-1] += shown  # only markers and blank lines between: one region
        else:
            regions.append(shown)
        previous_last = last
    joined: list[str] = []
    for index, region in enumerate(regions):
        if index:
            indent = region[0][: len(region[0]) - len(region[0].lstrip())]
            joined.append(indent + ELISION)
        joined += region
    indents = [len(line) - len(line.lstrip()) for line in joined if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in joined) + "\n"


def gist_problems(root: Path, path: str, snippets: str = Config.snippets) -> list[str]:
    """Why the snippet at ``path`` (relative to ``root``, in its ``snippets`` folder) breaks the
    gist rule, each as ``file:line: problem``: a long snippet marks the lines to read first, and
    they stay short."""
    try:
        # Unbalanced markers are refused with their line.
        decl = declarations.parse_file(root / path, root, snippets)
    except declarations.DeclarationError as error:
        return [str(error).split(". Accepted declarations:")[0]]
    if decl.show and decl.gist:  # the page shows the gist; show= would mislead the next reader
        return [
            f"{path}:{decl.show_line}: show={decl.show} and a gist: the page shows the gist, remove show="
        ]
    source = (root / path).read_text(encoding="utf-8")
    shown = declarations.displayed_source(source, replace(decl, show=None)).count("\n")
    if decl.show:  # a part on show (``show=NAME``) serves as the gist
        first, last = decl.sections[decl.show]
        regions, where = [(first, last)], first - 1
    else:
        regions, where = list(decl.gist), decl.gist[0][0] - 1 if decl.gist else 1
    length = sum(last - first + 1 for first, last in regions)
    if not regions and shown > GIST_NEEDED_OVER:
        return [
            f"{path}:1: {shown} lines and no gist: mark the lines a reader should see first "
            f"(at most {MAX_GIST_LINES}) between '# --8<-- [start:gist]' and '# --8<-- [end:gist]'"
        ]
    if length > MAX_GIST_LINES:
        return [
            f"{path}:{where}: the gist is {length} lines; at most {MAX_GIST_LINES} stay the point in view"
        ]
    return []
