"""The exception a snippet declared it raises, as its traceback; an unexpected one is shown by the
failure that names it, not here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import nbformat

from docexec.execution.outputs import SnippetException
from docexec.render.markdown_blocks import fenced, title

if TYPE_CHECKING:
    from docexec.render.outputs import NotebookContext, PageContext


def page(run: Sequence[SnippetException], context: PageContext) -> list[str]:
    if not context.result.expected_exception:
        return []
    lines = []
    for exception in run:
        # Never folded: its last line, the message, is what the page's answer quotes.
        heading = title(f"Raises {exception.type}, as intended")
        lines += ["", *fenced(exception.traceback, f' {{ .pytb .docexec-raises title="{heading}" }}')]
    return lines


def notebook(exception: SnippetException, context: NotebookContext) -> list[nbformat.NotebookNode]:
    if not context.result.expected_exception:
        return []
    return [
        nbformat.v4.new_output(
            "error",
            ename=exception.type,
            evalue=exception.message,
            traceback=exception.traceback.splitlines(),
        )
    ]
