"""Folded code arrives when the reader unfolds it, not with the page.

Two kinds of box hold code that a page shows folded, one click away: a snippet's whole proof (under
the part on show, docexec) and the source of a documented function (mkdocstrings). Highlighted,
they were half of a page's HTML on the heaviest pages (200 KB of sources on one reference page),
downloaded by every reader and read by few. Each box's code is written to a file of its own under
``assets/folds/`` (named by its content, so a page rebuilt unchanged keeps its URLs and the browser
its copies), and the box holds a link to it: assets/folds.js fetches it when the box is opened.
Without JavaScript the link opens the code itself. The search index never held this code.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

FOLDS_DIR = "assets/folds"
# A box, its title (which the search index may skip: <summary data-search-exclude>), its code.
# Neither kind nests another box.
_FOLDED = re.compile(
    r'(?s)<details class="(docexec-proof|mkdocstrings-source)">'
    r"(\s*<summary[^>]*>.*?</summary>)(.*?)(</details>)"
)
# What a fold file is: a fragment of the page, readable on its own as well.
_FRAGMENT = '<!doctype html>\n<meta charset="utf-8">\n<meta name="robots" content="noindex">\n{}\n'


def fold(page_html: str, page_url: str, site_dir: Path) -> str:
    """The page with each folded box's code moved to a file of ``site_dir`` and linked instead.

    ``page_url`` is the page's URL in the site (``week-1/autograd/``), which links are relative to.
    """
    html, files = folded(page_html, page_url)
    write(files, site_dir)
    return html


def folded(page_html: str, page_url: str) -> tuple[str, dict[str, bytes]]:
    """`fold`'s page, and the files it links (path in the site -> content), not yet written."""
    page_dir = page_url.rstrip("/") if page_url.endswith("/") else posixpath.dirname(page_url)
    files: dict[str, bytes] = {}

    def moved(match: re.Match[str]) -> str:
        kind, summary, code, end = match.groups()
        body = _FRAGMENT.format(code.strip()).encode("utf-8")
        name = f"{FOLDS_DIR}/{hashlib.sha256(body).hexdigest()[:20]}.html"
        files[name] = body
        link = posixpath.relpath(name, page_dir or ".")
        return (
            f'<details class="{kind}" data-fold>{summary}\n'
            f'<p class="fold-link"><a href="{link}">Open the code</a></p>\n{end}'
        )

    return _FOLDED.sub(moved, page_html), files


def write(files: dict[str, bytes], site_dir: Path) -> None:
    """Each file under ``site_dir`` that is not there yet (its name is its content's hash)."""
    for name, body in files.items():
        target = site_dir / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body)
