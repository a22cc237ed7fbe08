"""``python -m studysite.bench [SITE_DIR]``: the weight of the built site for a reader, in bytes.

Prints the search index's size and, for the heaviest pages, what a first visit downloads: the page's
HTML, its figures, its scripts (the theme's, the site's own, the search worker, and KaTeX where the
page has a formula) and the search index, which Material fetches on every first load. Stylesheets
are printed beside it, outside the total as the budget defines it. Without SITE_DIR the site is
built first (``mkdocs build`` into a temporary folder, snippets from the cache). Asserts nothing.
"""

from __future__ import annotations

import gzip
import json
import posixpath
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

SEARCH_INDEX = "search/search_index.json"
# Sized for Phases 1 and 2 (about 140 questions and 60 drills); the index, fetched by every page,
# grows with each question, so a new part of the curriculum revisits these figures on purpose.
SEARCH_INDEX_BUDGET = 340_000
FIRST_LOAD_BUDGET = 800_000
# assets/math.js loads these on a page with a formula (pymdownx.arithmatex marks it .arithmatex) that
# the build did not render (without node, studysite/formulas.py); the stylesheet for any formula.
KATEX_FILES = ("assets/katex/katex.min.js", "assets/katex/contrib/auto-render.min.js")
KATEX_STYLE = "assets/katex/katex.min.css"
# assets/study.js loads a page's own script where the page has its element (class) at load time.
# The scheduler that progress.js fetches when a reader first grades is not part of a first load.
PAGE_SCRIPTS = {"study-app": "assets/study-page.js", "mock-app": "assets/mock.js"}


class PageLinks(HTMLParser):
    """What a page's HTML names: its scripts, images and stylesheets, and the classes it uses."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.images: list[str] = []
        self.styles: list[str] = []
        self.math = False
        self.classes: set[str] = set()
        self._config = False
        self.config = ""
        # For each <details> the parser is inside: whether it is folded. A lazy image in a folded
        # box is fetched when the box is opened, not with the page (Chromium defers it).
        self._boxes: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script" and values.get("src"):
            self.scripts.append(values["src"])
        self._config = tag == "script" and values.get("id") == "__config"
        if tag == "details":
            self._boxes.append("open" not in values)
        folded = values.get("loading") == "lazy" and any(self._boxes)
        if tag == "img" and values.get("src") and not folded:
            self.images.append(values["src"])
        if tag == "link" and values.get("rel") == "stylesheet" and values.get("href"):
            self.styles.append(values["href"])
        classes = values.get("class", "").split()
        self.classes.update(classes)
        if "arithmatex" in classes and "arithmatex--rendered" not in classes:
            self.math = True  # to be rendered in the browser

    def handle_data(self, data: str) -> None:
        if self._config:
            self.config += data

    def handle_endtag(self, tag: str) -> None:
        self._config = False
        if tag == "details" and self._boxes:
            self._boxes.pop()


@dataclass
class FirstLoad:
    page: str  # the page's path in the site, e.g. "week-1/autograd/index.html"
    parts: dict[str, int] = field(default_factory=dict)  # html, figures, scripts, search index
    styles: int = 0

    @property
    def total(self) -> int:
        return sum(self.parts.values())


def _local(site: Path, page: str, reference: str) -> Path | None:
    """The file a page's relative link names, or None for another host or a data: URL."""
    if ":" in reference.split("/")[0] or reference.startswith("//"):
        return None
    address = reference.split("#")[0].split("?")[0]
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), address))
    path = site / target
    return path if path.is_file() else None


def _size(site: Path, page: str, references: list[str]) -> int:
    files = {path for path in (_local(site, page, ref) for ref in references) if path}
    return sum(path.stat().st_size for path in files)


def first_load(site: Path, page: str) -> FirstLoad:
    html = (site / page).read_text(encoding="utf-8")
    links = PageLinks()
    links.feed(html)
    scripts = list(links.scripts)
    worker = json.loads(links.config or "{}").get("search")
    if worker:
        scripts.append(worker)
    root = posixpath.relpath(".", posixpath.dirname(page))
    if links.math:
        scripts += [posixpath.join(root, name) for name in KATEX_FILES]
    if links.math or "arithmatex--rendered" in links.classes:
        links.styles.append(posixpath.join(root, KATEX_STYLE))
    scripts += [posixpath.join(root, name) for owner, name in PAGE_SCRIPTS.items() if owner in links.classes]
    load = FirstLoad(page)
    load.parts = {
        "html": len(html.encode("utf-8")),
        "figures": _size(site, page, links.images),
        "scripts": _size(site, page, scripts),
        "search index": (site / SEARCH_INDEX).stat().st_size,
    }
    load.styles = _size(site, page, links.styles)
    return load


def pages(site: Path) -> list[str]:
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("index.html")
        if not path.relative_to(site).as_posix().startswith(("assets/", "search/"))
    )


def by_weight(site: Path) -> list[FirstLoad]:
    """Every page's first load, the heaviest first."""
    return sorted((first_load(site, page) for page in pages(site)), key=lambda load: -load.total)


def heaviest(site: Path, count: int = 5) -> list[FirstLoad]:
    return by_weight(site)[:count]


def _kb(size: int) -> str:
    return f"{size / 1000:.1f} KB"


def report(site: Path) -> None:
    raw = (site / SEARCH_INDEX).read_bytes()
    docs = json.loads(raw)["docs"]
    print(
        f"search index: {_kb(len(raw))} raw, {_kb(len(gzip.compress(raw)))} gzipped, {len(docs)} entries "
        f"(budget {_kb(SEARCH_INDEX_BUDGET)} raw)"
    )
    loads = by_weight(site)
    over = [load for load in loads if load.total > FIRST_LOAD_BUDGET]
    print(
        f"first load of the heaviest pages (budget {_kb(FIRST_LOAD_BUDGET)}; "
        f"{len(over)} of {len(loads)} pages over it):"
    )
    for load in loads[: max(5, len(over))]:
        parts = ", ".join(f"{name} {_kb(size)}" for name, size in load.parts.items())
        print(f"  {load.page}: {_kb(load.total)} ({parts}); stylesheets {_kb(load.styles)} more")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args:
        report(Path(args[0]))
        return
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", folder], check=True)
        report(Path(folder))


if __name__ == "__main__":
    main()
