"""A figure as the site serves it: the image a snippet drew, with its SVG made smaller.

matplotlib writes coordinates to six decimals of a point, indented, with RDF metadata and long ids;
a figure of a scatter plot weighed 100 KB. Scour (the SVG optimizer Inkscape ships) rewrites it
with five significant digits, paths in relative form, short ids and no metadata: about half the
bytes and no visible change (a point is 1.33 CSS px, so 0.01 pt is far below a pixel). Scour leaves
the position of a placed marker (``<use x= y=>``, one per point of a scatter plot) at matplotlib's
six decimals: those are rounded to the same five digits here. Done when the
site is written, not when the snippet runs: cached results and GPU recordings keep the image as
drawn, and a better optimizer later needs no snippet to run again. A PNG is served as drawn.

Scour takes about a tenth of a second a figure, which was a fifth of a build with every result
cached: what it made is kept in a folder of its own beside the results (``store``), named by the
figure as drawn and Scour's version and options, and checked as inert again when it is read.
"""

from __future__ import annotations

import functools
import hashlib
import os
import posixpath
import re
import tempfile
from pathlib import Path

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


_OPTIMIZER = f"scour {scour.__version__} {sorted(vars(_SCOUR_OPTIONS).items())} uses rounded".encode()
# A placed marker or glyph, and a position attribute of it.
_USE = re.compile(r"<use\b[^>]*>")
_POSITION = re.compile(r'(?<=\s)(x|y)="(-?\d+\.\d+)"')


def _rounded_uses(svg: str) -> str:
    """The positions of ``<use>`` elements to five significant digits, as Scour writes the rest."""
    rounded = lambda match: f'{match[1]}="{float(match[2]):.5g}"'  # noqa: E731
    return _USE.sub(lambda use: _POSITION.sub(rounded, use[0]), svg)


@functools.lru_cache(maxsize=512)
def smaller_svg(data: bytes, store: Path | None = None) -> bytes:
    """The same drawing in fewer bytes; the figure as drawn if the optimizer leaves anything that
    could run (it never adds any: checked, as for every figure the site shows). ``store``: a
    folder where what Scour made is kept for the next build."""
    key = hashlib.sha256(_OPTIMIZER + b"\0" + data).hexdigest()
    kept = store / key[:2] / f"{key}.svg" if store else None
    try:
        optimized = kept.read_bytes() if kept else None
    except OSError:  # not made yet, or a store that cannot be read: made now
        optimized = None
    if optimized is None:
        optimized = _rounded_uses(scour.scourString(data.decode("utf-8"), _SCOUR_OPTIONS)).encode("utf-8")
        if kept:
            _keep(kept, optimized)
    if len(optimized) >= len(data) or not published.svg_is_inert(optimized):
        return data
    return optimized


def _keep(path: Path, data: bytes) -> None:
    """Written whole or not at all (a build beside this one may read it); a store that cannot be
    written only costs the next build the time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".svg")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)


def served_bytes(figure: Figure, store: Path | None = None) -> bytes:
    return smaller_svg(figure.bytes, store) if figure.format == "svg" else figure.bytes


def figure_name(figure: Figure, store: Path | None = None) -> str:
    """Named by the content served: the same figure keeps its URL, a changed one gets a new one."""
    return hashlib.sha256(served_bytes(figure, store)).hexdigest()[:20] + "." + figure.format


def figure_url(figure: Figure, page_uri: str, store: Path | None = None) -> str:
    """The figure's URL from the page at ``page_uri`` (its path under the docs folder)."""
    name = figure_name(figure, store)
    return posixpath.relpath(f"{FIGURES_DIR}/{name}", posixpath.dirname(page_uri) or ".")
