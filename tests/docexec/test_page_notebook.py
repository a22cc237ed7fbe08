"""A page as a notebook: prose, snippets in order with their recorded outputs, an install cell."""

from __future__ import annotations

import dataclasses
import re

import nbformat
import pytest

from docexec import config, recordings, site
from docexec.execution.result import Status
from docexec.render import notebooks, requirements


def notebook_for_page(root, markdown, results, environment, repository=None, url_of=lambda target: None):
    """The page's notebook, planned by the site build with ``results`` (one snippet's result)."""
    settings = config.load(root).replace(
        library_module="torchguide", library_distribution="pytorch-foundations"
    )
    plan = site.SiteBuild(root, settings, site.one_by_one(results), environment).plan_page(
        "page.md", markdown
    )
    return notebooks.notebook_for_page(plan, markdown, environment, settings, repository, url_of)


def lab_notebook(root, path, result, environment, repository):
    """The lab at ``path`` with ``result``, as the site build plans it."""
    settings = config.load(root).replace(labs="snippets/labs")
    build = site.SiteBuild(root, settings, site.one_by_one(lambda _: result), environment or {})
    lab = build.plan({}, [path]).labs[site.lab_page(path, settings)]
    return notebooks.lab_notebook(root, lab, settings, environment, repository)


PAGE = """\
---
tags: [memory]
---
# Views { #views }

Intro with a [link](other.md#part) and [one outside](https://pytorch.org).

## A question { #a-question }

/// html | div.answer

!!! short-answer "Short answer"
    A view shares storage.

%run snippets/page/prints.py

!!! correction
    **Claimed:** wrong.

%run snippets/page/raises.py

///

Closing words.

%run snippets/page/gpu.py
"""


@pytest.fixture(scope="module")
def notebook(module_project):
    project = module_project
    project.snippet("page/prints.py", "# docexec: timeout=20\nimport torchguide\n\nprint('shared')\n")
    project.snippet("page/raises.py", '# docexec: raises=ZeroDivisionError\nprint("before")\n1 / 0\n')
    project.snippet("page/gpu.py", "# docexec: cuda\nimport torch\n\nprint(torch.cuda.device_count())\n")
    engine = project.engine()
    results, _ = engine.execute(
        ["snippets/page/prints.py", "snippets/page/raises.py", "snippets/page/gpu.py"], progress=False
    )
    built = notebook_for_page(
        project.root,
        PAGE,
        results.__getitem__,
        engine.environment,
        "https://example.org/repo",
        url_of=lambda target: "https://site.example/other/" if target == "other.md" else None,
    )
    return nbformat.reads(nbformat.writes(built), as_version=4), engine.environment


@pytest.mark.this_site
def test_the_notebook_is_valid_and_its_code_cells_are_the_snippets_in_order(notebook):
    built, _ = notebook
    nbformat.validate(built)
    code = [cell for cell in built.cells if cell.cell_type == "code"][1:]
    assert [cell.metadata["docexec"]["snippet"] for cell in code] == [
        "snippets/page/prints.py",
        "snippets/page/raises.py",
        "snippets/page/gpu.py",
    ]
    assert code[0].source == "import torchguide\n\nprint('shared')"  # no declaration lines
    assert [output.text for output in code[0].outputs] == ["shared\n"]


def test_an_expected_error_is_an_error_output_tagged_so_that_jupyter_runs_on(notebook):
    built, _ = notebook
    cell = next(c for c in built.cells if "1 / 0" in c.source)
    assert cell.metadata["tags"] == ["raises-exception"]
    assert [o.output_type for o in cell.outputs] == ["stream", "error"]
    assert cell.outputs[1].ename == "ZeroDivisionError"


def test_a_gpu_snippet_without_a_gpu_has_no_output_and_a_note(notebook):
    built, _ = notebook
    index = next(i for i, c in enumerate(built.cells) if "device_count" in c.source)
    assert built.cells[index].outputs == [] and built.cells[index].execution_count is None
    assert "needs a CUDA GPU" in built.cells[index - 1].source


def test_a_gpu_snippet_with_a_recording_shows_the_recorded_output_under_its_label(module_project):
    """What the page shows for a recorded CUDA snippet, the notebook holds: the GPU's output."""
    project = module_project
    project.snippet("page/gpu.py", "# docexec: cuda\nimport torch\n\nprint(torch.cuda.device_count())\n")
    project.snippet("page/on_gpu.py", "print('8 GPUs')\n")  # stands in for the GPU's run
    engine = project.engine()
    results, _ = engine.execute(["snippets/page/gpu.py", "snippets/page/on_gpu.py"], progress=False)
    gpu_run = dataclasses.replace(
        results["snippets/page/on_gpu.py"],
        path="snippets/page/gpu.py",
        environment={**engine.environment, "gpu": "NVIDIA Fake 80GB"},
    )
    settings = config.load(project.root)
    markdown = "# GPU\n\n%run snippets/page/gpu.py\n"
    plan = site.SiteBuild(
        project.root, settings, site.one_by_one(results.__getitem__), engine.environment
    ).plan_page(
        "page.md", markdown
    )
    assert plan.uses[0].result.status == Status.SKIPPED
    for stale in (True, False):
        recording = recordings.Recording(plan.uses[0].path, gpu_run, "2026-05-28", "digest", stale=stale)
        plan.uses[0] = dataclasses.replace(plan.uses[0], recording=recording)
        built = notebooks.notebook_for_page(plan, markdown, engine.environment, settings)
        nbformat.validate(built)
        index = next(i for i, c in enumerate(built.cells) if "device_count" in c.source)
        if stale:  # the code changed since: its old output is not shown
            assert built.cells[index].outputs == []
            assert "no output" in built.cells[index - 1].source
        else:
            assert [output.text for output in built.cells[index].outputs] == ["8 GPUs\n"]
            assert "Recorded on NVIDIA Fake 80GB" in built.cells[index - 1].source


@pytest.mark.torch
def test_the_first_cell_installs_torch_pinned_and_the_project_for_torchguide(notebook):
    built, environment = notebook
    first = built.cells[0]
    assert first.cell_type == "code"
    release = environment["torch"].split("+")[0]
    command = f"%pip install torch=={release} 'pytorch-foundations @ git+https://example.org/repo'"
    assert command in first.source


def test_prose_is_plain_markdown_that_jupyter_reads(notebook):
    built, _ = notebook
    prose = "\n".join(c.source for c in built.cells if c.cell_type == "markdown")
    assert prose.startswith("# Views\n") and "tags:" not in prose  # no front matter, no attributes
    assert "## A question\n" in prose and "{ #" not in prose and "///" not in prose
    assert "> **Short answer**\n>\n> A view shares storage." in prose
    assert "> **Correction**" in prose
    assert "[link](https://site.example/other/#part)" in prose and "(https://pytorch.org)" in prose
    assert "Closing words." in prose


def test_requirements_map_modules_to_what_pip_installs():
    found = requirements.requirements(
        {"torch", "os", "numpy", "mylib"}, "2.13.0+cpu", None, "mylib", "my-project"
    )
    assert found == ["torch==2.13.0", "my-project", "numpy"]
    assert requirements.imported_modules("import a.b\nfrom c.d import e\nfrom . import f\n") == {"a", "c"}


@pytest.mark.parametrize(
    ("src_uri", "name"),
    [
        ("week-1/autograd.md", "autograd.ipynb"),
        ("week-1/day-1/index.md", "day-1.ipynb"),
        ("index.md", "index.ipynb"),
    ],
)
def test_a_notebook_is_named_after_its_page(src_uri, name):
    assert notebooks.file_name(src_uri) == name


@pytest.mark.torch
def test_a_lab_notebook_installs_what_it_imports_before_its_first_code_cell(module_project):
    path = module_project.snippet(
        "labs/tiny_lab.py",
        "# %% [markdown]\n# # A lab\n\n# %%\nimport torch\n\nprint(torch.ones(2).sum().item())\n",
    )
    engine = module_project.engine()
    result = engine.execute([path], progress=False)[0][path]
    notebook = lab_notebook(module_project.root, path, result, engine.environment, None)
    nbformat.validate(notebook)
    kinds = [(cell.cell_type, cell.source.splitlines()[-1]) for cell in notebook.cells]
    release = engine.environment["torch"].split("+")[0]
    assert kinds == [
        ("markdown", "# A lab"),
        ("code", f"%pip install torch=={release}"),
        ("code", "print(torch.ones(2).sum().item())"),
    ]
    assert notebook.cells[2].outputs[0].text == "2.0\n"


GISTED = "import math\n\n# --8<-- [start:gist]\nroot = math.sqrt(4)\n# --8<-- [end:gist]\nprint(root)\n"


def test_a_lab_keeps_its_whole_code_without_gist_markers(module_project):
    path = module_project.snippet("labs/gisted_lab.py", "# %%\n" + GISTED)
    engine = module_project.engine()
    result = engine.execute([path], progress=False)[0][path]
    notebook = lab_notebook(module_project.root, path, result, None, None)
    code = notebook.cells[0].source
    assert (
        code == "import math\n\nroot = math.sqrt(4)\nprint(root)"
        and notebook.cells[0].outputs[0].text == "2.0\n"
    )


def test_a_page_notebook_keeps_a_gisted_snippets_whole_code_without_markers(module_project):
    path = module_project.snippet("page/gisted.py", GISTED)
    engine = module_project.engine()
    results, _ = engine.execute([path], progress=False)
    built = notebook_for_page(
        module_project.root,
        "# Page\n\n%run snippets/page/gisted.py\n",
        results.__getitem__,
        engine.environment,
    )
    code = [cell.source for cell in built.cells if cell.cell_type == "code"]
    assert code[-1] == "import math\n\nroot = math.sqrt(4)\nprint(root)"


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
def drill_notebook(module_project):
    """A page with a drill section, its stub and solution run by the engine as the build runs them."""
    paths = [
        module_project.snippet("strides/drills/contiguous_from_strides_stub.py", DRILL_STUB),
        module_project.snippet("strides/drills/contiguous_from_strides_solution.py", DRILL_SOLUTION),
    ]
    engine = module_project.engine()
    results, _ = engine.execute(paths, progress=False)
    assert all(result.status == Status.PASSED for result in results.values()), results
    built = notebook_for_page(
        module_project.root, DRILL_PAGE, results.__getitem__, engine.environment, "https://example.org/repo"
    )
    nbformat.validate(built)
    return nbformat.reads(nbformat.writes(built), as_version=4)


def _role(cell) -> str | None:
    return cell.metadata.get("docexec", {}).get("role")


@pytest.mark.this_site
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


@pytest.mark.this_site
def test_a_drills_hints_stay_folded_one_by_one(drill_notebook):
    hints = drill_notebook.cells[4].source
    assert hints == (
        "<details><summary><b>Hint 1</b></summary>\n\nWalk the dimensions from the last.\n\n</details>\n\n"
        "<details><summary><b>Hint 2</b></summary>\n\n"
        "A size-1 dimension's `stride` does not matter.\n\n</details>"
    )
    assert "???" not in hints and "A reference solution" not in hints  # its header moved into the fold


@pytest.mark.this_site
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


@pytest.mark.this_site
def test_the_install_cell_installs_the_project_for_the_check_cell(drill_notebook):
    assert "'pytorch-foundations @ git+https://example.org/repo'" in drill_notebook.cells[0].source


def test_a_folded_admonition_title_keeps_its_code_and_escapes_html():
    lines = notebooks.plain_markdown(['???+ note "Why `a < b` fails"', "    Because."], lambda uri: None)
    assert lines == [
        "<details open><summary><b>Why <code>a &lt; b</code> fails</b></summary>",
        "",
        "Because.",
        "",
        "</details>",
    ]


def test_a_solution_splits_into_what_the_reader_writes_and_the_check():
    written, check = notebooks.split_solution(
        "import torch\nfrom torchguide.drills import check_here\n\n\ndef f(x):\n    return x\n\n\n"
        'check_here(\n    "demo",\n    f,\n)\n'
    )
    assert written == "import torch\n\n\ndef f(x):\n    return x"
    assert check == 'from torchguide.drills import check_here\n\ncheck_here(\n    "demo",\n    f,\n)'


def test_a_folded_block_that_runs_a_snippet_opens_into_a_title_prose_and_the_code_cell(module_project):
    from docexec.execution.result import Result

    module_project.snippet("page/inside.py", "print('inside')\n")
    page = (
        '??? note "Why `x`"\n    Before the snippet.\n\n    %run snippets/page/inside.py\n\n'
        "    After it, a paragraph\n    on two lines.\n\nOutside.\n"
    )
    built = notebook_for_page(
        module_project.root, page, lambda path: Result(path=path, status=Status.PASSED), {}
    )
    cells = [(cell.cell_type, cell.source) for cell in built.cells[1:]]
    assert cells == [
        ("markdown", "**Why `x`**\n\nBefore the snippet."),
        ("code", "print('inside')"),
        ("markdown", "After it, a paragraph\non two lines.\n\nOutside."),  # not an indented code block
    ]
