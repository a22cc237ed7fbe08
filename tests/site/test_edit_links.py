"""Every page links to its source for editing (a lab to its snippet), without the theme's
repository widget, which would ask another host for the repository's stars on each visit."""

from __future__ import annotations

import re
from pathlib import Path

from docexec import config

LABS_DIR = config.load(Path(__file__).resolve().parents[2]).labs

EDIT_LINK = re.compile(r'<a href="([^"]+)"[^>]*\brel="edit"')


def built_page(site: Path, source: str) -> Path:
    """Where MkDocs writes the page of ``source`` (a path under docs/) with directory URLs."""
    stem = source.rsplit(".", 1)[0]
    if stem == "index" or stem.endswith("/index"):
        return site / stem.removesuffix("index") / "index.html"
    return site / stem / "index.html"


def test_every_page_links_to_its_source_for_editing(built_site, root):
    sources = [p.relative_to(root / "docs").as_posix() for p in (root / "docs").rglob("*.md")]
    missing = []
    for source in sources:
        html = built_page(built_site.path, source).read_text(encoding="utf-8")
        links = EDIT_LINK.findall(html)
        if len(links) != 1 or not links[0].endswith(f"/edit/main/docs/{source}"):
            missing.append(f"docs/{source}: {links}")
    assert not missing, "\n".join(missing)


def test_a_labs_edit_link_opens_its_snippet(built_site, root):
    for lab in sorted((root / LABS_DIR).glob("*.py")):
        html = built_page(built_site.path, f"labs/{lab.stem}.ipynb").read_text(encoding="utf-8")
        links = EDIT_LINK.findall(html)
        assert links and links[0].endswith(f"/edit/main/{LABS_DIR}/{lab.name}"), (lab.name, links)


def test_no_page_carries_the_repository_widget(built_site):
    for page in built_site.path.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        # The widget's element: the theme's script asks the repository's host about it.
        assert 'data-md-component="source"' not in html, page.relative_to(built_site.path)
