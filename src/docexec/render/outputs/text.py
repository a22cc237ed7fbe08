"""What a snippet printed: a block of output text, folded when long; a stream output in a notebook."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import nbformat

from docexec.execution.outputs import Text
from docexec.render import output_layout
from docexec.render.markdown_blocks import fenced

if TYPE_CHECKING:
    from docexec.render.outputs import NotebookContext, PageContext

FOLD_AFTER_LINES = 25  # a longer output is shown folded, with a "show all" toggle
_TOGGLE = (
    '<details class="docexec-fold"><summary>'
    '<span class="docexec-fold__more">Show all {count} lines</span>'
    '<span class="docexec-fold__less">Show fewer lines</span>'
    "</summary></details>"
)


def page(run: Sequence[Text], context: PageContext) -> list[str]:
    """One block for text printed one piece after another, by either stream."""
    text = "".join(output.text for output in run)
    if not text.strip():
        return []
    # A table keeps its columns and scrolls; any other output wraps, marked (docexec.css).
    classes = ".text .docexec-output" + (" .docexec-table" if output_layout.is_tabular(text) else "")
    count = text.rstrip("\n").count("\n") + 1
    if count <= FOLD_AFTER_LINES:
        return ["", *fenced(text, f' {{ {classes} title="Output" }}')]
    # Folded, with a toggle that unfolds it (no script).
    block = fenced(text, f' {{ {classes} .docexec-long title="Output" }}')
    return ["", *block, "", context.stash(_TOGGLE.format(count=count))]


def notebook(output: Text, context: NotebookContext) -> list[nbformat.NotebookNode]:
    return [nbformat.v4.new_output("stream", name=output.stream, text=output.text)]
