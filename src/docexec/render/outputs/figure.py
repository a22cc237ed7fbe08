"""A figure: an image sized before it loads and linked to its file; display data in a notebook."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import nbformat

from docexec.execution.outputs import Figure
from docexec.render.figure_files import served_bytes

if TYPE_CHECKING:
    from docexec.render.outputs import NotebookContext, PageContext

LEGIBLE_TEXT_PX = 8  # a figure is never shown so small that its smallest text gets below this


def legible_width(figure: Figure) -> int | None:
    """The narrowest width (CSS px) at which the figure's smallest text stays legible, when that is
    less than its full width; a narrower screen scrolls the figure instead of shrinking it more."""
    if not figure.smallest_font_px or figure.smallest_font_px <= LEGIBLE_TEXT_PX:
        return None
    return min(figure.width, math.ceil(figure.width * LEGIBLE_TEXT_PX / figure.smallest_font_px))


def data_url(figure: Figure) -> str:
    return f"data:{figure.media_type};base64,{figure.data}"


def page(run: Sequence[Figure], context: PageContext) -> list[str]:
    lines = []
    for figure in run:
        lines += ["", _linked_image(figure, context.figure_url(figure), context.result.path)]
    return lines


def _linked_image(figure: Figure, url: str, path: str) -> str:
    """A tap opens it full screen in the page (docs/assets/figure-view.js), or, without the
    script, the file itself."""
    alt = re.sub(r"[\[\]\\]", "", figure.title or f"Figure drawn by {path}")  # cannot end the syntax
    size = f'width="{figure.width}" height="{figure.height}" loading="lazy"'
    narrowest = legible_width(figure)
    style = f' style="min-width: {narrowest}px"' if narrowest else ""
    kind = " .docexec-figure--colormapped" if figure.colormapped else ""
    image = f"![{alt}]({url}){{ {size}{style} }}"
    return f'[{image}]({url}){{ .docexec-figure{kind} title="Open the figure at full size" }}'


def notebook(figure: Figure, context: NotebookContext) -> list[nbformat.NotebookNode]:
    """As served: an SVG made smaller (`figure_files.served_bytes`), its displayed size kept."""
    store = context.figure_store
    data = served_bytes(figure, store).decode("utf-8") if figure.format == "svg" else figure.data
    metadata = {figure.media_type: {"width": figure.width, "height": figure.height}}
    return [nbformat.v4.new_output("display_data", data={figure.media_type: data}, metadata=metadata)]
