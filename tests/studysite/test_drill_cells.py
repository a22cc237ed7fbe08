"""The site's notebook-cell hook (`studysite.drill_cells`): a drill in a page notebook is its
statement, the stub to write in, a check cell, and the reference solution folded in Markdown."""

from __future__ import annotations

import re

import nbformat
import pytest

from docexec import config, site
from docexec.execution.engine import Engine
from docexec.execution.result import Status
from docexec.render import notebooks
from studysite import drill_cells

# As this site configures its pages' notebooks (pyproject.toml).
PYPROJECT = """\
[tool.docexec]
library-module = "torchguide"
library-distribution = "pytorch-foundations"
repository-distributions = {docexec = "engine"}
notebook-cells = "studysite.drill_cells"
"""

DRILL_PAGE = """\
# Strides { #strides }

### Practice: Is it contiguous? { #drill-contiguous-from-strides }

Write `is_contiguous(shape, strides) -> bool`.

%run snippets/strides/drills/contiguous_from_strides_stub.py

??? tip "Hint 1"
    Walk the dimensions from the last.

??? tip "Hint 2"
    A size-1 dimension's `stride` does not matter.

??? success "A reference solution, and what the checker says of it"

    %run snippets/strides/drills/contiguous_from_strides_solution.py

Closing words.
"""

DRILL_STUB = '''\
def is_contiguous(shape, strides):
    """True when a tensor of this shape and these strides is contiguous."""
    raise NotImplementedError
'''

DRILL_SOLUTION = """\
# docexec: timeout=60
from torchguide.drills import check_here


def is_contiguous(shape, strides):
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


check_here("contiguous_from_strides", is_contiguous)
"""


@pytest.fixture(scope="module")
def drill_notebook(tmp_path_factory):
    """A page with a drill section, its stub and solution run by the engine as the build runs them."""
    root = tmp_path_factory.mktemp("drill-page")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    paths = []
    for name, code in (("stub", DRILL_STUB), ("solution", DRILL_SOLUTION)):
        path = root / "snippets" / "strides" / "drills" / f"contiguous_from_strides_{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code, encoding="utf-8")
        paths.append(path.relative_to(root).as_posix())
    settings = config.load(root).replace(cache_dir=root / ".cache", device="cpu")
    engine = Engine(root, settings)
    results, _ = engine.execute(paths, progress=False)
    assert all(result.status == Status.PASSED for result in results.values()), results
    build = site.SiteBuild(root, settings, site.one_by_one(results.__getitem__), engine.environment)
    plan = build.plan_page("page.md", DRILL_PAGE)
    built = notebooks.notebook_for_page(
        plan, DRILL_PAGE, engine.environment, settings, "https://example.org/repo"
    )
    nbformat.validate(built)
    return nbformat.reads(nbformat.writes(built), as_version=4)


def _role(cell) -> str | None:
    return cell.metadata.get("docexec", {}).get("role")


def test_a_drill_is_its_statement_then_the_stub_then_a_check_cell_then_hints_and_solution_folded(
    drill_notebook,
):
    cells = drill_notebook.cells[1:]  # after the install cell
    kinds = [(cell.cell_type, _role(cell)) for cell in cells]
    assert kinds == [
        ("markdown", None),  # heading and statement
        ("code", "stub"),
        ("code", "check"),
        ("markdown", None),  # the hints
        ("markdown", "solution"),
        ("markdown", None),  # the rest of the page
    ]
    statement, stub, check, hints, solution, rest = cells
    assert statement.source.endswith("Write `is_contiguous(shape, strides) -> bool`.")
    assert stub.source == DRILL_STUB.rstrip("\n") and stub.outputs == []
    assert (
        stub.metadata["docexec"]["drill"] == check.metadata["docexec"]["drill"] == "contiguous_from_strides"
    )
    assert check.source == (
        "# Checks the is_contiguous you wrote in the cell above: run that cell, then this one.\n"
        "from torchguide.drills import check_here\n\n"
        'check_here("contiguous_from_strides", is_contiguous)'
    )
    assert check.outputs == [] and check.execution_count is None  # it has not run: nothing to show
    assert check.metadata["tags"] == ["raises-exception"]  # "Run all" goes on past an unwritten drill
    assert rest.source == "Closing words."


def test_a_drills_hints_stay_folded_one_by_one(drill_notebook):
    hints = drill_notebook.cells[4].source
    assert hints == (
        "<details><summary><b>Hint 1</b></summary>\n\nWalk the dimensions from the last.\n\n</details>\n\n"
        "<details><summary><b>Hint 2</b></summary>\n\n"
        "A size-1 dimension's `stride` does not matter.\n\n</details>"
    )
    assert "???" not in hints and "A reference solution" not in hints  # its header moved into the fold


def test_the_reference_solution_is_folded_markdown_with_the_checkers_output_not_a_code_cell(drill_notebook):
    code = "\n".join(cell.source for cell in drill_notebook.cells if cell.cell_type == "code")
    assert "expected *= size" not in code  # running the notebook cannot define it over the reader's
    fold = next(cell for cell in drill_notebook.cells if _role(cell) == "solution")
    assert fold.source.startswith(
        "<details><summary><b>A reference solution, and what the checker says of it</b></summary>\n\n"
        "```python\ndef is_contiguous(shape, strides):\n"
    )
    assert "check_here" not in fold.source and "docexec:" not in fold.source  # the check cell does that
    assert re.search(r"```text\ncontiguous_from_strides: \d+ cases passed\n```\n\n</details>$", fold.source)


def test_the_install_cell_installs_the_project_for_the_check_cell(drill_notebook):
    assert "'pytorch-foundations @ git+https://example.org/repo'" in drill_notebook.cells[0].source


def test_a_solution_splits_into_what_the_reader_writes_and_the_check():
    written, check = drill_cells.split_solution(
        "import torch\nfrom torchguide.drills import check_here\n\n\ndef f(x):\n    return x\n\n\n"
        'check_here(\n    "demo",\n    f,\n)\n'
    )
    assert written == "import torch\n\n\ndef f(x):\n    return x"
    assert check == 'from torchguide.drills import check_here\n\ncheck_here(\n    "demo",\n    f,\n)'


def test_only_a_drills_solution_is_shown_as_markdown():
    assert drill_cells.shown_as_markdown("snippets/strides/drills/contiguous_from_strides_solution.py")
    assert not drill_cells.shown_as_markdown("snippets/strides/drills/contiguous_from_strides_stub.py")
    assert not drill_cells.shown_as_markdown("snippets/strides/solution.py")
