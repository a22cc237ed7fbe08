"""A content page as a Jupyter notebook: its prose as Markdown cells, its snippets in order as code
cells with the outputs the build recorded, and a first cell that installs what they import.

The prose is written in Material's Markdown (admonitions, ``///`` blocks, attribute lists) that
Jupyter does not read, and no library converts it, so the few constructs the pages use are turned
into plain Markdown here: an admonition becomes a quote under its bold title, blocks and attribute
lists are dropped, links to other pages point at the published site.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import nbformat

from docexec import declarations, provenance, requirements
from docexec.figure_files import served_bytes
from docexec.markdown_ext import directive_lines
from docexec.result import SKIPPED, Figure, Result

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)\s+([\w-]+)(?:\s+"(.*)")?\s*$')
_TAB = re.compile(r'^===\+?\s+"(.*)"\s*$')
_BLOCK_FENCE = re.compile(r"^///")  # pymdownx.blocks: `/// html | div.answer` ... `///`
_HEADING_ATTRIBUTES = re.compile(r"^(#{1,6}\s.*?)\s*\{[^}]*\}\s*$")
GPU_NOTE = "*The next cell needs a CUDA GPU; this copy of the site was built without one: no output.*"
_PAGE_LINK = re.compile(r"\]\((?!\w+:|/|#)([^)\s#]+\.md)(#[^)\s]*)?\)")


def file_name(src_uri: str) -> str:
    """``week-1/autograd.md`` gives ``autograd.ipynb``; an index page is named after its folder."""
    path = Path(src_uri)
    stem = path.parent.name if path.stem == "index" and path.parent.name else path.stem
    return f"{stem}.ipynb"


def _body(lines: list[str], start: int) -> tuple[list[str], int]:
    """The lines indented under a block header at ``start - 1``, dedented, and where they end."""
    end = start
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith("    ")):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return [line[4:] for line in lines[start:end]], end


def plain_markdown(lines: list[str], url_of: Callable[[str], str | None]) -> list[str]:
    """Material's Markdown constructs in Jupyter's plain Markdown (see the module's docstring)."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        admonition, tab = _ADMONITION.match(line), _TAB.match(line)
        if admonition or tab:
            body, index = _body(lines, index + 1)
            if admonition:
                title = admonition.group(2) or admonition.group(1).replace("-", " ").capitalize()
                inner = plain_markdown(body, url_of)
                out += [f"> **{title}**", ">", *[f"> {text}".rstrip() for text in inner]]
            else:
                out += [f"**{tab.group(1)}**", "", *plain_markdown(body, url_of)]  # type: ignore[union-attr]
            continue
        index += 1
        if _BLOCK_FENCE.match(line):
            continue
        line = _HEADING_ATTRIBUTES.sub(r"\1", line)
        out.append(_PAGE_LINK.sub(lambda m: _link(m, url_of), line))
    return out


def _link(match: re.Match, url_of: Callable[[str], str | None]) -> str:
    url = url_of(match.group(1))
    return f"]({url}{match.group(2) or ''})" if url else match.group(0)


def _markdown_cell(lines: list[str], url_of: Callable[[str], str | None]) -> nbformat.NotebookNode | None:
    text = "\n".join(plain_markdown(lines, url_of)).strip()
    return nbformat.v4.new_markdown_cell(text) if text else None


def figure_output(figure: Figure) -> nbformat.NotebookNode:
    data = served_bytes(figure).decode("utf-8") if figure.format == "svg" else figure.data
    metadata = {figure.media_type: {"width": figure.width, "height": figure.height}}
    return nbformat.v4.new_output("display_data", data={figure.media_type: data}, metadata=metadata)


def outputs(result: Result) -> list[nbformat.NotebookNode]:
    """A snippet's recorded output in notebook form: streams, figures, then the expected error."""
    found = []
    for cell in result.cells:
        for name, text in cell.streams:
            found.append(nbformat.v4.new_output("stream", name=name, text=text))
        found += [figure_output(figure) for figure in cell.figures]
    if result.expected_exception and result.exception:
        exception = result.exception
        found.append(
            nbformat.v4.new_output(
                "error",
                ename=exception.type,
                evalue=exception.message,
                traceback=exception.traceback.splitlines(),
            )
        )
    return found


def install_cell(sources: list[str], environment: dict, repository: str | None) -> nbformat.NotebookNode:
    modules = set().union(*(requirements.imported_modules(source) for source in sources))
    wanted = requirements.requirements(modules, environment.get("torch", ""), repository)
    lines = [
        "# What this notebook imports; its outputs were recorded"
        f" {provenance.environment_words(environment)}.",
    ]
    if requirements.LIBRARY_MODULE in modules:
        lines.append(f"# {requirements.LIBRARY_DISTRIBUTION} is this site's project: it ships torchguide.")
    lines.append("%" + requirements.pip_command(wanted))
    return nbformat.v4.new_code_cell("\n".join(lines))


def notebook_for_page(
    root: Path,
    markdown: str,
    results: Callable[[str], Result],
    environment: dict,
    repository: str | None = None,
    url_of: Callable[[str], str | None] = lambda uri: None,
) -> nbformat.NotebookNode:
    """``url_of`` maps a link's target (``../autograd.md``) to the published page's URL, or None."""
    front = _FRONT_MATTER.match(markdown)
    lines = markdown[front.end() if front else 0 :].splitlines()
    cells: list[nbformat.NotebookNode] = []
    sources: list[str] = []
    start, count = 0, 0
    for index, _, path in directive_lines(lines):
        cells.append(_markdown_cell(lines[start:index], url_of))
        start = index + 1
        decl = declarations.parse_file(root / path, root)  # refuses a link out of snippets/, non-UTF-8
        source = (root / path).read_text(encoding="utf-8")
        code = declarations.displayed_source(source, dataclasses.replace(decl, show=None))
        sources.append(source)
        result = results(path)
        cell = nbformat.v4.new_code_cell(code.rstrip("\n"))
        cell.metadata["docexec"] = {"snippet": path}
        if result.status == SKIPPED:
            cells.append(nbformat.v4.new_markdown_cell(GPU_NOTE))
        else:
            count += 1
            cell.execution_count = count
            cell.outputs = outputs(result)
            if result.expected_exception:
                cell.metadata["tags"] = ["raises-exception"]  # Jupyter runs on past it
        cells.append(cell)
    cells.append(_markdown_cell(lines[start:], url_of))
    notebook = nbformat.v4.new_notebook(
        cells=[install_cell(sources, environment, repository), *filter(None, cells)],
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python", "version": environment.get("python", "")},
        },
    )
    for number, cell in enumerate(notebook.cells):
        cell.id = f"cell-{number}"  # stable ids: the same page gives the same file
    return notebook


__all__ = ["figure_output", "file_name", "notebook_for_page", "outputs", "plain_markdown"]
