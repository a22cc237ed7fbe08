"""A focused preview (``DOCEXEC_FOCUS=guide/autograd``): those pages render in full, every other
page as a stub that keeps its title, headings and titled boxes, so that links to them land."""

from __future__ import annotations

import re


def focused_pages(value: str) -> frozenset[str]:
    """``guide/autograd, docs/notebooks/x.ipynb`` -> the pages' paths under docs/, with the home page."""
    pages = set()
    for item in value.replace(",", " ").split():
        uri = item.removeprefix("docs/")
        pages.add(uri if uri.endswith((".md", ".ipynb")) else uri + ".md")
    return frozenset(pages | {"index.md"}) if pages else frozenset()


def in_focus(focus: frozenset[str], uri: str) -> bool:
    return not focus or uri in focus


def stub(markdown: str, title: str, focus: frozenset[str]) -> str:
    """A page left out of the preview: its title, a note, and its headings and titled boxes."""
    headings = _outline(markdown)
    first = headings[0] if headings and headings[0].startswith("# ") else f"# {title}"
    note = (
        '!!! info "Not rendered in this preview"\n'
        f"    This preview renders only {', '.join(sorted(focus - {'index.md'}))};"
        " `make serve` without `PAGE=` renders every page."
    )
    return "\n\n".join([first, note, *[h for h in headings if not h.startswith("# ")]]) + "\n"


def _outline(markdown: str) -> list[str]:
    """A page's headings and its admonitions that have a title of their own (each with a one-line
    body), outside fenced blocks: what other pages link to (a project may give such a box an id
    made from its title)."""
    found, fence = [], None
    for line in markdown.splitlines():
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if marker and (fence is None or marker[1][0] == fence[0] and len(marker[1]) >= len(fence)):
            fence = marker[1] if fence is None else None
        elif fence is None and re.match(r"^#{1,6} ", line):
            found.append(line)
        elif fence is None and re.match(r'^\s*!!! [\w-]+ "', line):
            found.append(line.strip() + "\n    Not rendered in this preview.")
    return found


__all__ = ["focused_pages", "in_focus", "stub"]
