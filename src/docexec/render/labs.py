"""Labs: notebook pages whose source is a jupytext percent-format snippet under ``snippets/labs/``.

The notebook is built from the snippet and filled with the outputs the engine recorded for each
cell, so mkdocs-jupyter only renders it (``execute: false``): one engine and one cache for all.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import jupytext
import nbformat

from docexec.execution.declarations import is_hidden_line
from docexec.execution.result import Result
from docexec.render.page_notebook import figure_output, install_cell

LABS_DIR = "snippets/labs"


def lab_snippets(root: Path) -> list[str]:
    folder = root / LABS_DIR
    return sorted(p.relative_to(root).as_posix() for p in folder.glob("*.py")) if folder.is_dir() else []


def page_uri(path: str) -> str:
    """``snippets/labs/name.py`` is the page ``labs/name.ipynb``."""
    return "labs/" + Path(path).with_suffix(".ipynb").name


class LabError(ValueError):
    pass


def notebook_from(
    root: Path, path: str, result: Result, environment: dict | None = None, repository: str | None = None
) -> nbformat.NotebookNode:
    """The lab with its recorded outputs; given the ``environment`` the outputs came from, with a
    cell that installs what it imports before its first code cell."""
    file = root / path
    if not file.resolve().is_relative_to((root / LABS_DIR).resolve()):
        raise LabError(
            f"{path}:1: the file is not inside {LABS_DIR}/ (links followed); a lab must be a file there"
        )
    source = file.read_text(encoding="utf-8")
    notebook = jupytext.reads(source, fmt="py:percent")
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell in code_cells:  # gist and section markers speak to the site, not to the lab's reader
        cell.source = "\n".join(line for line in cell.source.split("\n") if not is_hidden_line(line))
    if result.cells and len(result.cells) > len(code_cells):
        raise LabError(
            f"{path}: {len(code_cells)} code cells, but {len(result.cells)} were executed; "
            "start the file with a '# %%' line"
        )
    for index, cell in enumerate(code_cells):
        cell.outputs = []
        cell.execution_count = index + 1 if index < len(result.cells) else None
        if index >= len(result.cells):
            continue
        recorded = result.cells[index]
        for name, text in recorded.streams:
            cell.outputs.append(nbformat.v4.new_output("stream", name=name, text=text))
        cell.outputs += [figure_output(figure) for figure in recorded.figures]
    if result.expected_exception and result.exception:
        exception = result.exception
        code_cells[len(result.cells) - 1].outputs.append(
            nbformat.v4.new_output(
                "error",
                ename=exception.type,
                evalue=exception.message,
                traceback=exception.traceback.splitlines(),
            )
        )
    if environment is not None and code_cells:
        install = install_cell([source], environment, repository)
        notebook.cells.insert(notebook.cells.index(code_cells[0]), install)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, cell in enumerate(notebook.cells):
        cell.id = cell_id(path, index)
    return notebook


def cell_id(path: str, index: int) -> str:
    """The same on every build (nbformat draws them at random), so an unchanged lab page is too."""
    return hashlib.sha256(f"{path}#{index}".encode()).hexdigest()[:16]


# mkdocs-jupyter inlines JupyterLab's whole style sheet (about 600 KB) and MathJax and Mermaid
# loaders into every notebook page, and has no option to leave them out; the site styles the few
# notebook classes it uses itself (assets/docexec.css) and renders math with its own KaTeX.
_INLINE_WEIGHT = re.compile(
    r"<style\b[^>]*>.*?</style>"
    r'|<script type="text/x-mathjax-config">.*?</script>'
    r'|<script src="">\s*</script>'
    r'|<script type="module">(?:(?!</script>).)*?mermaid.*?</script>',
    re.S,
)


def lighten(html: str) -> str:
    """A rendered lab page without the style sheets and loaders that mkdocs-jupyter inlines."""
    return _INLINE_WEIGHT.sub("", html)


def write_notebook(
    root: Path,
    path: str,
    result: Result,
    pages_root: Path,
    environment: dict | None = None,
    repository: str | None = None,
) -> Path:
    """Write the filled notebook to ``pages_root/labs/`` and return its path."""
    target = pages_root / page_uri(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(notebook_from(root, path, result, environment, repository))
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        # Atomic, like the result cache: a build running beside this one never reads half a notebook.
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    return target


__all__ = ["LABS_DIR", "LabError", "lab_snippets", "lighten", "notebook_from", "page_uri", "write_notebook"]
