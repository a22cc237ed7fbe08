"""A figure as the site serves it: the image a snippet drew, with its SVG made smaller.

matplotlib writes coordinates to six decimals of a point, indented, with RDF metadata and long ids;
a figure of a scatter plot weighed 100 KB. Scour (the SVG optimizer Inkscape ships) rewrites it
with five significant digits, paths in relative form, short ids and no metadata: about half the
bytes and no visible change (a point is 1.33 CSS px, so 0.01 pt is far below a pixel). Done when the
site is written, not when the snippet runs: cached results and GPU recordings keep the image as
drawn, and a better optimizer later needs no snippet to run again. A PNG is served as drawn.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath

from scour import scour

from docexec.execution import published
from docexec.execution.result import Figure

FIGURES_DIR = "assets/figures"  # in the built site

_SCOUR_OPTIONS = scour.parse_args(
    [
        "--quiet",
        "--set-precision=5",
        "--set-c-precision=5",
        "--remove-metadata",
        "--enable-comment-stripping",
        "--enable-id-stripping",
        "--shorten-ids",
        "--strip-xml-prolog",
        "--no-line-breaks",
    ]
)


@functools.lru_cache(maxsize=512)
def smaller_svg(data: bytes) -> bytes:
    """The same drawing in fewer bytes; the figure as drawn if the optimizer leaves anything that
    could run (it never adds any: checked, as for every figure the site shows)."""
    optimized = scour.scourString(data.decode("utf-8"), _SCOUR_OPTIONS).encode("utf-8")
    if len(optimized) >= len(data) or not published.svg_is_inert(optimized):
        return data
    return optimized


def served_bytes(figure: Figure) -> bytes:
    return smaller_svg(figure.bytes) if figure.format == "svg" else figure.bytes


def figure_name(figure: Figure) -> str:
    """Named by the content served: the same figure keeps its URL, a changed one gets a new one."""
    return hashlib.sha256(served_bytes(figure)).hexdigest()[:20] + "." + figure.format


def figure_url(figure: Figure, page_uri: str) -> str:
    """The figure's URL from the page at ``page_uri`` (its path under the docs folder)."""
    return posixpath.relpath(f"{FIGURES_DIR}/{figure_name(figure)}", posixpath.dirname(page_uri) or ".")
