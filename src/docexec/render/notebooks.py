"""The site's Jupyter notebooks, made from the site's plan (`docexec.site`): a lab, and each page
that runs snippets.

A lab is a jupytext percent-format snippet in the project's labs folder: the notebook is built from
it and filled with the outputs the engine recorded for each cell, so mkdocs-jupyter only renders it
(``execute: false``): one engine and one cache for all.

A content page as a notebook: its prose as Markdown cells, its snippets in order as code
cells with the outputs the build recorded, and a first cell that installs what they import.
A snippet declared ``cuda`` is a cell marked ``%%needs_cuda`` (`docexec.notebook`, which the first
cell loads): without a GPU it says so in one line and is skipped, so "Run all" on a CPU goes on to
the end; it keeps the output a GPU recorded, as the page shows it.

The prose is written in Material's Markdown (admonitions, ``///`` blocks, attribute lists) that
Jupyter does not read, and no library converts it, so the few constructs the pages use are turned
into plain Markdown here: an admonition becomes a quote under its bold title, a collapsible one
(``???``) stays folded (an HTML ``<details>`` block, which Jupyter, Colab and GitHub fold alike), one
that runs a snippet opens into its bold title and paragraphs around the snippet's cell; blocks and
attribute lists are dropped, links to other pages point at the published site.

A project may write some snippets' cells its own way: the module named by ``notebook-cells`` in
its configuration (`NotebookCells`) is asked, for each snippet, for the cells to write in its place.
A snippet it shows as Markdown (not run) inside an admonition keeps that block around it, and the
block's title is handed to the hook, which writes the block itself.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import importlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import jupytext
import nbformat

from docexec import notebook as cuda_cells
from docexec.config import PYPROJECT, TABLE, Config
from docexec.directives import directives
from docexec.execution import declarations
from docexec.execution.declarations import is_hidden_line
from docexec.execution.result import Result, Status
from docexec.render import outputs as rendered
from docexec.render import provenance, requirements
from docexec.render.markdown_blocks import fenced
from docexec.render.plain_text import markdown_text, one_line
from docexec.site import PagePlan, Use


class NotebookError(ValueError):
    """A notebook that cannot be made; names the file and line."""


_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)\s+([\w-]+)(?:\s+"(.*)")?\s*$')
_TAB = re.compile(r'^===\+?\s+"(.*)"\s*$')
_BLOCK_FENCE = re.compile(r"^///")  # pymdownx.blocks: `/// html | div.note` ... `///`
_HEADING_ATTRIBUTES = re.compile(r"^(#{1,6}\s.*?)\s*\{[^}]*\}\s*$")
GPU_NOTE = "*The next cell needs a CUDA GPU; this copy of the site was built without one: no output.*"


def recorded_note(label: str) -> str:
    """The note over a CUDA cell whose output a GPU recorded (``label``: `Recording.label`)."""
    return f"*The next cell needs a CUDA GPU; the output below is a GPU's. {markdown_text(label)}.*"


_PAGE_LINK = re.compile(r"\]\((?!\w+:|/|#)([^)\s#]+\.md)(#[^)\s]*)?\)")


@dataclasses.dataclass(frozen=True)
class SnippetCells:
    """What a `NotebookCells` hook is given for one snippet of a page."""

    use: Use  # the planned snippet, with its result
    code: str  # its code as a notebook shows it (`displayed_code`)
    plan: PagePlan  # the page's plan: the hook may look at the page's other snippets
    block_title: str | None  # shown as Markdown inside an admonition: its title (the header is left out)
    default: Callable[[], list[nbformat.NotebookNode]]  # the engine's own cells for it: call at most once


class NotebookCells(Protocol):
    """The notebook-cell hook a project names (``notebook-cells``): a module, or any object, with
    these two functions."""

    def shown_as_markdown(self, path: str) -> bool:
        """True for a snippet written as Markdown, not run: an admonition around it stays folded."""
        ...

    def cells(self, snippet: SnippetCells) -> list[nbformat.NotebookNode] | None:
        """The cells to write in the snippet's place, or None for the engine's own."""
        ...


class _EngineCells:
    """No hook: every snippet is a code cell of the engine's."""

    @staticmethod
    def shown_as_markdown(path: str) -> bool:
        return False

    @staticmethod
    def cells(snippet: SnippetCells) -> None:
        return None


def cell_hook(config: Config) -> NotebookCells:
    """The project's notebook-cell hook (``notebook-cells``), imported; raises `NotebookError`."""
    if config.notebook_cells is None:
        return _EngineCells()
    where = f"{PYPROJECT} [{TABLE}] notebook-cells"
    try:
        hook = importlib.import_module(config.notebook_cells)
    except ImportError as error:
        raise NotebookError(f"{where}: cannot import {config.notebook_cells!r}: {error}") from None
    missing = [name for name in ("shown_as_markdown", "cells") if not callable(getattr(hook, name, None))]
    if missing:
        raise NotebookError(f"{where}: {config.notebook_cells} has no function {', '.join(missing)}")
    return hook  # type: ignore[return-value]


def file_name(src_uri: str) -> str:
    """``guide/autograd.md`` gives ``autograd.ipynb``; an index page is named after its folder."""
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


def _walk_blocks(
    lines: list[str],
    block: Callable[[str, str, bool, list[str]], list[str] | None],
    line_as: Callable[[str], list[str]],
) -> list[str]:
    """``lines`` rewritten: each admonition or tab with its indented body by ``block(header, title,
    is_tab, body)``, which gives its lines or None to keep the header line as written; every other
    line by ``line_as``."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        admonition, tab = _ADMONITION.match(line), _TAB.match(line)
        if admonition or tab:
            body, end = _body(lines, index + 1)
            title = tab.group(1) if tab else _title(admonition)  # type: ignore[arg-type]
            made = block(line, title, tab is not None, body)
            if made is not None:
                out += made
                index = end
                continue
        out += line_as(line)
        index += 1
    return out


def plain_markdown(lines: list[str], url_of: Callable[[str], str | None]) -> list[str]:
    """Material's Markdown constructs in Jupyter's plain Markdown (see the module's docstring)."""

    def block(header: str, title: str, is_tab: bool, body: list[str]) -> list[str]:
        inner = plain_markdown(body, url_of)
        if is_tab:
            return [f"**{title}**", "", *inner]
        if header.startswith("???"):  # folded on the page: folded in the notebook
            return details(title, inner, is_open=header.startswith("???+"))
        return [f"> **{title}**", ">", *[f"> {text}".rstrip() for text in inner]]

    def line_as(line: str) -> list[str]:
        if _BLOCK_FENCE.match(line):
            return []
        return [_PAGE_LINK.sub(lambda m: _link(m, url_of), _HEADING_ATTRIBUTES.sub(r"\1", line))]

    return _walk_blocks(lines, block, line_as)


def details(title: str, body: list[str], is_open: bool = False) -> list[str]:
    """A folded block; blank lines around the body so that Jupyter reads it as Markdown."""
    summary = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(title, quote=False))
    opening = f"<details{' open' if is_open else ''}><summary><b>{summary}</b></summary>"
    return [opening, "", *body, "", "</details>"]


def _open_blocks_that_run_snippets(lines: list[str], shown_as_markdown: Callable[[str], bool]) -> list[str]:
    """An admonition or tab whose body runs a snippet, as a bold title and its body dedented: a
    notebook's code cell cannot sit inside Markdown, so a block cannot fold or quote it. A block
    whose snippets are all shown as Markdown (`NotebookCells.shown_as_markdown`) stays."""

    def block(header: str, title: str, is_tab: bool, body: list[str]) -> list[str] | None:
        runs = [text.split()[-1] for text in body if text.lstrip().startswith("%run ")]
        if any(not shown_as_markdown(path) for path in runs):
            return [f"**{title}**", "", *_open_blocks_that_run_snippets(body, shown_as_markdown)]
        return None

    return _walk_blocks(lines, block, lambda line: [line])


def _title(admonition: re.Match) -> str:
    return admonition.group(2) or admonition.group(1).replace("-", " ").capitalize()


def _link(match: re.Match, url_of: Callable[[str], str | None]) -> str:
    url = url_of(match.group(1))
    return f"]({url}{match.group(2) or ''})" if url else match.group(0)


def _markdown_cell(lines: list[str], url_of: Callable[[str], str | None]) -> nbformat.NotebookNode | None:
    text = "\n".join(plain_markdown(lines, url_of)).strip()
    return nbformat.v4.new_markdown_cell(text) if text else None


def outputs(result: Result, store: Path | None = None) -> list[nbformat.NotebookNode]:
    """A snippet's recorded outputs in notebook form, in the order it made them (one code cell for
    all its cells). ``store``: where the figures as served are kept (`Config.figure_store`)."""
    context = rendered.NotebookContext(result, store)
    return [node for cell in result.cells for node in rendered.notebook_outputs(cell, context)]


def install_cell(
    sources: list[str], environment: dict, repository: str | None, config: Config, needs_cuda: bool = False
) -> nbformat.NotebookNode:
    """What the notebook's cells import, installed; with ``needs_cuda``, the extension that lets its
    CUDA cells skip where there is no GPU loaded too. ``repository``: where pip gets the project,
    with ``@ref`` where it is pinned (`Publication.install_url`)."""
    modules = set().union(*(requirements.imported_modules(source) for source in sources))
    if needs_cuda:
        modules.add(cuda_cells.__name__.split(".")[0])
    torch = environment.get("torch", "")
    wanted = requirements.requirements(
        modules,
        torch,
        repository,
        config.library_module,
        config.library_distribution,
        config.repository_distributions,
    )
    lines = [
        "# What this notebook imports; its outputs were recorded"
        f" {one_line(provenance.environment_words(environment))}.",
    ]
    if config.library_module in modules and config.library_distribution:
        lines.append(
            f"# {config.library_distribution} is this site's project: it ships {config.library_module}."
        )
    lines.append("%" + requirements.pip_command(wanted))
    if needs_cuda:
        lines += [
            f"# A cell marked %%{cuda_cells.MAGIC} runs where torch sees a CUDA GPU; elsewhere it says"
            " so and is skipped.",
            f"%load_ext {cuda_cells.__name__}",
        ]
    return nbformat.v4.new_code_cell("\n".join(lines))


def needing_cuda(code: str) -> str:
    """A cell's code that runs only where there is a CUDA GPU (`docexec.notebook`)."""
    return f"%%{cuda_cells.MAGIC}\n{code}"


def displayed_code(use: Use) -> str:
    """A snippet's code as a notebook shows it: no declaration lines, no gist markers."""
    decl = dataclasses.replace(use.declarations, show=None)  # type: ignore[type-var]
    return declarations.displayed_source(use.source, decl)


def _without_fold_header(prose: list[str]) -> tuple[list[str], str | None]:
    """The prose before a snippet shown inside an admonition, less that admonition's header line,
    and its title."""
    end = len(prose)
    while end and not prose[end - 1].strip():
        end -= 1
    header = _ADMONITION.match(prose[end - 1]) if end else None
    if header is None:
        return prose, None
    return prose[: end - 1], _title(header)


def notebook_for_page(
    plan: PagePlan,
    markdown: str,
    environment: dict,
    config: Config,
    repository: str | None = None,
    url_of: Callable[[str], str | None] = lambda uri: None,
) -> nbformat.NotebookNode:
    """The page of ``plan`` (whose Markdown is ``markdown``) as a notebook. ``url_of`` maps a link's
    target (``../autograd.md``) to the published page's URL, or None.

    Raises `NotebookError` for a page with a ``%run`` line that cannot be used (the page says so)."""
    broken = [use for use in plan.uses if use.problem is not None]
    if broken:
        raise NotebookError(f"{plan.name}:{broken[0].line}: {broken[0].problem}")
    hook = cell_hook(config)
    front = _FRONT_MATTER.match(markdown)
    lines = _open_blocks_that_run_snippets(
        markdown[front.end() if front else 0 :].splitlines(), hook.shown_as_markdown
    )
    found = [d for d in directives(lines, config.snippets) if d.problem is None]
    if [d.path for d in found] != [use.path for use in plan.uses]:
        raise NotebookError(f"{plan.name}: its %run lines are not the ones planned")
    cells: list[nbformat.NotebookNode] = []
    sources: list[str] = []
    start, count, needs_cuda = 0, 0, False

    def engine_cells(use: Use, code: str) -> list[nbformat.NotebookNode]:
        """The snippet as a code cell with the outputs the page shows, under a note where a GPU's."""
        nonlocal count, needs_cuda
        result, made = use.result, []
        cuda = bool(use.declarations and use.declarations.cuda)
        cell = nbformat.v4.new_code_cell(needing_cuda(code.rstrip("\n")) if cuda else code.rstrip("\n"))
        cell.metadata["docexec"] = {"snippet": use.path}
        needs_cuda = needs_cuda or cuda
        if use.declarations and use.declarations.raises:  # also a CUDA cell, on a GPU, in a CPU build's copy
            cell.metadata["tags"] = ["raises-exception"]  # Jupyter runs on past its intended error
        recording = use.recording if use.recording is not None and not use.recording.stale else None
        if result.status == Status.SKIPPED and recording is not None:
            # What the page shows: the GPU's output, under a note saying where it was recorded.
            made.append(nbformat.v4.new_markdown_cell(recorded_note(recording.label())))
            cell.outputs = outputs(recording.result, config.figure_store)
        elif result.status == Status.SKIPPED:
            made.append(nbformat.v4.new_markdown_cell(GPU_NOTE))
        else:
            count += 1
            cell.execution_count = count
            cell.outputs = outputs(result, config.figure_store)
        return [*made, cell]

    for directive, use in zip(found, plan.uses, strict=True):
        prose, block_title = lines[start : directive.index], None
        if directive.indent and hook.shown_as_markdown(use.path):
            prose, block_title = _without_fold_header(prose)  # the hook writes the block
        cells.append(_markdown_cell(prose, url_of))
        start = directive.index + 1
        code = displayed_code(use)
        sources.append(use.source)
        own: list[nbformat.NotebookNode] = []

        def default(use: Use = use, code: str = code, own: list = own) -> list[nbformat.NotebookNode]:
            own += engine_cells(use, code)
            return own

        made = hook.cells(SnippetCells(use, code, plan, block_title, default))
        if made is None:
            made = default()
        # What the hook's own code cells import is installed too.
        sources += [c.source for c in made if c.cell_type == "code" and all(c is not o for o in own)]
        cells += made
    cells.append(_markdown_cell(lines[start:], url_of))
    notebook = nbformat.v4.new_notebook(
        cells=[install_cell(sources, environment, repository, config, needs_cuda), *filter(None, cells)],
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python", "version": environment.get("python", "")},
        },
    )
    for number, cell in enumerate(notebook.cells):
        cell.id = f"cell-{number}"  # stable ids: the same page gives the same file
    return notebook


def lab_notebook(
    root: Path, lab: Use, config: Config, environment: dict | None = None, repository: str | None = None
) -> nbformat.NotebookNode:
    """The lab with its recorded outputs; given the ``environment`` the outputs came from, with a
    cell that installs what it imports before its first code cell. Raises `NotebookError`."""
    path, result = lab.path, lab.result
    if lab.problem is not None:
        raise NotebookError(lab.problem)
    if not config.labs or not (root / path).resolve().is_relative_to((root / config.labs).resolve()):
        raise NotebookError(
            f"{path}:1: the file is not inside {config.labs}/ (links followed); a lab must be a file there"
        )
    notebook = _in_stable_order(jupytext.reads(lab.source, fmt="py:percent"))
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    cuda = bool(lab.declarations and lab.declarations.cuda)
    for cell in code_cells:  # gist and section markers speak to the site, not to the lab's reader
        cell.source = "\n".join(line for line in cell.source.split("\n") if not is_hidden_line(line))
        if cuda and cell.source.strip():  # the whole lab is declared `cuda`: each of its cells needs the GPU
            cell.source = needing_cuda(cell.source)
    if result.cells and len(result.cells) > len(code_cells):
        raise NotebookError(
            f"{path}: {len(code_cells)} code cells, but {len(result.cells)} were executed; "
            "start the file with a '# %%' line"
        )
    context = rendered.NotebookContext(result, config.figure_store)
    for index, cell in enumerate(code_cells):
        ran = index < len(result.cells)
        cell.outputs = rendered.notebook_outputs(result.cells[index], context) if ran else []
        cell.execution_count = index + 1 if ran else None
    if environment is not None and code_cells:
        install = install_cell([lab.source], environment, repository, config, cuda)
        notebook.cells.insert(notebook.cells.index(code_cells[0]), install)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, cell in enumerate(notebook.cells):
        cell.id = cell_id(path, index)
    return notebook


def _in_stable_order(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``notebook`` with jupytext's list of the cells' metadata keys sorted: jupytext gathers them
    in a set, so their order, and the notebook's bytes, changed with Python's hash seed."""
    jupytext_metadata = notebook.metadata.get("jupytext", {})
    listed = jupytext_metadata.get("cell_metadata_filter")
    if listed:
        keys = listed.split(",")
        dropped = [key for key in keys if key.startswith("-")]  # "-all": the rest, after the kept ones
        jupytext_metadata["cell_metadata_filter"] = ",".join(sorted(set(keys) - set(dropped)) + dropped)
    return notebook


def cell_id(path: str, index: int) -> str:
    """The same on every build (nbformat draws them at random), so an unchanged lab page is too."""
    return hashlib.sha256(f"{path}#{index}".encode()).hexdigest()[:16]


def write_lab(
    root: Path,
    lab: Use,
    page_uri: str,
    pages_root: Path,
    config: Config,
    environment: dict | None = None,
    repository: str | None = None,
) -> Path:
    """Write the filled lab notebook to ``pages_root/page_uri`` and return its path."""
    text = nbformat.writes(lab_notebook(root, lab, config, environment, repository))
    return write_notebook(pages_root / page_uri, text)


def write_notebook(target: Path, text: str) -> Path:
    """``text`` in ``target``, unless it holds it already; returns ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        # Atomic, like the result cache: a build running beside this one never reads half a notebook.
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    return target


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


__all__ = [
    "NotebookCells",
    "NotebookError",
    "SnippetCells",
    "cell_hook",
    "cell_id",
    "details",
    "displayed_code",
    "fenced",
    "file_name",
    "install_cell",
    "lab_notebook",
    "lighten",
    "needing_cuda",
    "notebook_for_page",
    "outputs",
    "plain_markdown",
    "recorded_note",
    "write_lab",
    "write_notebook",
]
