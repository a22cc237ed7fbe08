"""How each kind of output (`docexec.execution.outputs`) is shown: on a page, as Markdown lines, and
in a notebook, as nbformat outputs.

One module per kind, each with two functions: ``page(run, context)``, for outputs of its kind that
came one after another (two streams' text is one block), and ``notebook(output, context)``.
`RENDERERS` finds the module by the output's ``kind``: a new kind is its value in
`docexec.execution.outputs`, one module here and one line in `RENDERERS`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import nbformat

from docexec.execution.outputs import Figure, Output, SnippetException, Text
from docexec.execution.result import Cell, Result
from docexec.render.outputs import error, figure, text


@dataclass(frozen=True)
class PageContext:
    """What a page renderer may need besides the outputs."""

    result: Result  # whose outputs these are
    figure_url: Callable[[Figure], str]  # a data URL, or the figure's file as the page links it
    stash: Callable[[str], str] = lambda raw: raw  # raw HTML, kept as it is by Markdown


@dataclass(frozen=True)
class NotebookContext:
    result: Result
    figure_store: Path | None = None  # `Config.figure_store`


class Renderer(Protocol):
    def page(self, run: Sequence[Output], context: PageContext) -> list[str]: ...

    def notebook(self, output: Output, context: NotebookContext) -> list[nbformat.NotebookNode]: ...


RENDERERS: dict[str, Renderer] = {
    Text.kind: text,
    Figure.kind: figure,
    SnippetException.kind: error,
}


def page_lines(context: PageContext) -> list[str]:
    """The result's outputs as Markdown, in the order it made them; outputs of one kind that came
    one after another are rendered together (text across streams and cells is one block)."""
    shown = [output for cell in context.result.cells for output in cell.outputs]
    lines: list[str] = []
    for kind, run in itertools.groupby(shown, key=lambda output: output.kind):
        lines += RENDERERS[kind].page(list(run), context)
    return lines


def notebook_outputs(cell: Cell, context: NotebookContext) -> list[nbformat.NotebookNode]:
    """One executed cell's outputs as a notebook's code cell holds them, in order."""
    return [node for output in cell.outputs for node in RENDERERS[output.kind].notebook(output, context)]
