"""The drills' cells in a page notebook: the site's notebook-cell hook (``notebook-cells`` in
``[tool.docexec]``, `docexec.render.notebooks.NotebookCells`).

A drill's section (its stub and solution snippets under ``drills/``, named ``<id>_stub.py`` and
``<id>_solution.py``, as `torchguide.drills` keeps them) becomes cells the reader works in: the stub
as a code cell to write in, then a check cell that runs the checker on what they wrote, and the
reference solution folded in Markdown, where running the notebook cannot define it over the
reader's attempt.
"""

from __future__ import annotations

import ast
import re

import nbformat

from docexec.execution.result import Result, Status
from docexec.render.notebooks import SnippetCells, details, displayed_code, fenced
from docexec.site import PagePlan

DRILL_SNIPPET = re.compile(r"(?:^|/)drills/(\w+)_(stub|solution)\.py$")
CHECKER = "check_here"  # what a drill's solution calls last to check itself (`torchguide.drills`)


def shown_as_markdown(path: str) -> bool:
    """A drill's reference solution is folded as Markdown, not run."""
    drill = DRILL_SNIPPET.search(path)
    return drill is not None and drill.group(2) == "solution"


def cells(snippet: SnippetCells) -> list[nbformat.NotebookNode] | None:
    """A drill's stub and then its check cell, or its solution folded; None for any other snippet."""
    drill = DRILL_SNIPPET.search(snippet.use.path)
    if drill is None:
        return None
    name, role = drill.groups()
    if role == "solution":
        return [_solution_fold(name, snippet.use.path, snippet.block_title, snippet.code, snippet.use.result)]
    made = snippet.default()
    made[-1].metadata["docexec"].update(drill=name, role="stub")
    check = _check_cell(snippet.plan, name, snippet.use.path)
    return made if check is None else [*made, check]


def split_solution(code: str) -> tuple[str, str]:
    """A drill's solution as (what the reader writes, the check): its code without the import of
    the checker and the call to it, and those two statements."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return code.strip(), ""
    lines = code.splitlines()
    checking = [
        node
        for node in body
        if (isinstance(node, ast.ImportFrom) and [alias.name for alias in node.names] == [CHECKER])
        or (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == CHECKER
        )
    ]
    taken = {number for node in checking for number in range(node.lineno - 1, node.end_lineno or node.lineno)}
    kept = "\n".join(line for number, line in enumerate(lines) if number not in taken)
    kept = re.sub(r"\n{4,}", "\n\n\n", kept).strip()  # at most two blank lines where a statement was
    check = "\n\n".join("\n".join(lines[n.lineno - 1 : n.end_lineno]) for n in checking)
    return kept, check


def _check_cell(plan: PagePlan, drill: str, stub_path: str) -> nbformat.NotebookNode | None:
    """The cell that runs the checker on the reader's function: the check their solution ends with."""
    solution = stub_path.removesuffix("_stub.py") + "_solution.py"
    found = [use for use in plan.uses if use.path == solution and use.declarations is not None]
    if not found:
        return None  # not on the page: the drill's own tests say so; the notebook keeps the stub
    _, check = split_solution(displayed_code(found[0]))
    calls = [node for node in ast.walk(ast.parse(check)) if isinstance(node, ast.Call)]
    if not calls:
        return None
    arguments = calls[-1].args
    written = arguments[1].id if len(arguments) > 1 and isinstance(arguments[1], ast.Name) else "function"
    comment = f"# Checks the {written} you wrote in the cell above: run that cell, then this one."
    cell = nbformat.v4.new_code_cell(f"{comment}\n{check}")
    cell.metadata["docexec"] = {"drill": drill, "role": "check"}
    cell.metadata["tags"] = ["raises-exception"]  # fails until it is written: "Run all" goes on
    return cell


def _solution_fold(
    drill: str, path: str, title: str | None, code: str, result: Result
) -> nbformat.NotebookNode:
    """The reference solution folded, as Markdown: shown when asked for, never run over the
    reader's own function; then what the checker said of it when the site was built."""
    written, _ = split_solution(code)
    body = fenced(written, "python")
    said = "".join(cell.text("stdout") for cell in result.cells)
    if result.status == Status.PASSED and said.strip():
        body += ["", "The checker said of it:", "", *fenced(said, "text")]
    cell = nbformat.v4.new_markdown_cell("\n".join(details(title or "A reference solution", body)))
    cell.metadata["docexec"] = {"snippet": path, "drill": drill, "role": "solution"}
    return cell
