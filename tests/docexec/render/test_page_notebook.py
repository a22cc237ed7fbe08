"""A page as a notebook: prose, snippets in order with their recorded outputs, an install cell."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import sys

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from docexec import config, recordings, site
from docexec import notebook as cuda_cells
from docexec.execution.outputs import Text
from docexec.execution.result import Cell, Result, Status
from docexec.render import notebooks, requirements


def notebook_for_page(root, markdown, results, environment, repository=None, url_of=lambda target: None):
    """The page's notebook, planned by the site build with ``results`` (one snippet's result)."""
    settings = config.load(root).replace(
        library_module="torchguide",
        library_distribution="pytorch-foundations",
        repository_distributions=(("docexec", "engine"),),  # as this site keeps its engine
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
    command = (
        f"%pip install torch=={release} 'docexec @ git+https://example.org/repo#subdirectory=engine'"
        " 'pytorch-foundations @ git+https://example.org/repo'"
    )
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


def test_what_the_library_needs_from_its_repository_comes_from_the_same_reference():
    """A distribution kept in a folder of the repository (not on PyPI) is installed from there,
    beside the library and at its reference; the engine's notebook extension too."""
    url = "https://example.org/repo@0123abc"
    kept = (("my-engine", "engine"),)
    with_library = requirements.requirements({"mylib"}, "2.13.0", url, "mylib", "my-project", kept)
    assert with_library == [
        "my-engine @ git+https://example.org/repo@0123abc#subdirectory=engine",
        "my-project @ git+https://example.org/repo@0123abc",
    ]
    engine = (("docexec", "engine"),)  # the engine's module, for the CUDA cells' extension
    alone = requirements.requirements({"docexec"}, "2.13.0", url, "mylib", "my-project", engine)
    assert alone == ["docexec @ git+https://example.org/repo@0123abc#subdirectory=engine"]
    assert requirements.requirements({"mylib"}, "2.13.0", None, "mylib", "my-project", kept) == ["my-project"]


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


def test_a_folded_admonition_title_keeps_its_code_and_escapes_html():
    lines = notebooks.plain_markdown(['???+ note "Why `a < b` fails"', "    Because."], lambda uri: None)
    assert lines == [
        "<details open><summary><b>Why <code>a &lt; b</code> fails</b></summary>",
        "",
        "Because.",
        "",
        "</details>",
    ]


# A project's notebook-cell hook (`notebooks.NotebookCells`): it shows ``answer_*.py`` as Markdown in
# the block around it, and adds a cell after each ``task_*.py`` the engine writes.
CELL_HOOK = """\
import nbformat


def shown_as_markdown(path):
    return "/answer_" in path


def cells(snippet):
    if "/answer_" in snippet.use.path:
        text = f"<details><summary>{snippet.block_title}</summary>\\n\\n{snippet.code}\\n</details>"
        return [nbformat.v4.new_markdown_cell(text)]
    if "/task_" in snippet.use.path:
        return [*snippet.default(), nbformat.v4.new_code_cell("import yaml\\ncheck(task)")]
    return None
"""

HOOKED_PAGE = """\
# Page

%run snippets/hooked/task_one.py

??? note "The answer"
    %run snippets/hooked/answer_one.py

%run snippets/hooked/plain.py
"""


def _hooked(module_project, monkeypatch, hook_name):
    code = {"task_one": "task = 1\n", "answer_one": "print('answer')\n", "plain": "print(2)\n"}
    printed = {"task_one": "", "answer_one": "answer\n", "plain": "2\n"}
    for name, source in code.items():
        module_project.snippet(f"hooked/{name}.py", source)
    (module_project.root / "hooks").mkdir(exist_ok=True)
    (module_project.root / "hooks" / "project_cells.py").write_text(CELL_HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(module_project.root / "hooks"))
    settings = config.load(module_project.root).replace(notebook_cells=hook_name)

    def result(path):
        shown = [Text("stdout", printed[path.split("/")[-1][:-3]])]
        return Result(path=path, status=Status.PASSED, cells=[Cell(outputs=shown)])

    build = site.SiteBuild(module_project.root, settings, site.one_by_one(result), {"torch": "2.13.0"})
    plan = build.plan_page("page.md", HOOKED_PAGE)
    return notebooks.notebook_for_page(plan, HOOKED_PAGE, {"torch": "2.13.0"}, settings)


def test_a_projects_cell_hook_writes_its_snippets_cells_and_the_engine_the_rest(module_project, monkeypatch):
    built = _hooked(module_project, monkeypatch, "project_cells")
    install, *cells = built.cells
    assert [(cell.cell_type, cell.source) for cell in cells] == [
        ("markdown", "# Page"),
        ("code", "task = 1"),  # the engine's own cell, which the hook asked for
        ("code", "import yaml\ncheck(task)"),
        ("markdown", "<details><summary>The answer</summary>\n\nprint('answer')\n\n</details>"),
        ("code", "print(2)"),
    ]
    assert "???" not in "".join(cell.source for cell in cells)  # the block's header went to the hook
    assert [cell.execution_count for cell in cells if cell.cell_type == "code"] == [1, None, 2]
    assert cells[-1].outputs[0].text == "2\n"
    assert "pyyaml" in install.source.lower()  # what the hook's own cell imports is installed


def test_a_cell_hook_that_cannot_be_imported_names_the_setting(module_project, monkeypatch):
    setting = r"pyproject.toml \[tool.docexec\] notebook-cells: cannot import 'no_such_cells'"
    with pytest.raises(notebooks.NotebookError, match=setting):
        _hooked(module_project, monkeypatch, "no_such_cells")
    with pytest.raises(notebooks.NotebookError, match="json has no function shown_as_markdown, cells"):
        _hooked(module_project, monkeypatch, "json")


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


RUN_ALL_PAGE = """\
# Run all

%run snippets/run_all/before.py

%run snippets/run_all/gpu_unrecorded.py

%run snippets/run_all/raises.py

%run snippets/run_all/gpu_recorded.py

%run snippets/run_all/gpu_raises.py

%run snippets/run_all/after.py
"""


@pytest.fixture(scope="module")
def run_all_notebook(module_project):
    """A page's notebook as a CPU build makes it: a CPU cell, a CUDA cell with no recording, an
    expected error, a CUDA cell with a GPU's recording, then a last CPU cell."""
    project = module_project
    gpu = "# docexec: cuda\nimport torch\n\n"
    sources = {
        "before.py": "total = sum(range(4))\nprint('before', total)\n",
        "gpu_unrecorded.py": gpu + "torch.ones(1, device='cuda')\n",
        "raises.py": "# docexec: raises=ZeroDivisionError\nprint('raising')\n1 / 0\n",
        "gpu_recorded.py": gpu + "print(torch.cuda.device_count())\n",
        "gpu_raises.py": "# docexec: cuda raises=TypeError\nimport torch\n\ntorch.ones(1).cuda().numpy()\n",
        "after.py": "print('after', [n * n for n in range(3)])\n",
        "on_gpu.py": "print('8 GPUs')\n",  # stands in for the GPU's run
    }
    paths = [project.snippet(f"run_all/{name}", source) for name, source in sources.items()]
    engine = project.engine()
    results, _ = engine.execute(paths, progress=False)
    settings = config.load(project.root).replace(
        library_module="torchguide",
        library_distribution="pytorch-foundations",
        repository_distributions=(("docexec", "engine"),),
    )
    plan = site.SiteBuild(
        project.root, settings, site.one_by_one(results.__getitem__), engine.environment
    ).plan_page("page.md", RUN_ALL_PAGE)
    recorded = next(i for i, use in enumerate(plan.uses) if use.path.endswith("gpu_recorded.py"))
    gpu_run = dataclasses.replace(
        results["snippets/run_all/on_gpu.py"], path=plan.uses[recorded].path, environment=engine.environment
    )
    recording = recordings.Recording(plan.uses[recorded].path, gpu_run, "2026-05-28", "digest", stale=False)
    plan.uses[recorded] = dataclasses.replace(plan.uses[recorded], recording=recording)
    built = notebooks.notebook_for_page(
        plan, RUN_ALL_PAGE, engine.environment, settings, "https://example.org/repo@" + "ab" * 20
    )
    nbformat.validate(built)
    return nbformat.reads(nbformat.writes(built), as_version=4)


def _cells_of(notebook, ending: str):
    """The code cell of the snippet whose path ends with ``ending``."""
    snippet = lambda cell: cell.metadata.get("docexec", {}).get("snippet", "")  # noqa: E731
    return next(cell for cell in notebook.cells if snippet(cell).endswith(ending))


def test_a_cuda_cell_is_marked_to_skip_without_a_gpu_and_keeps_its_recorded_output(run_all_notebook):
    install = run_all_notebook.cells[0].source.splitlines()
    assert install[-1] == "%load_ext docexec.notebook"  # what %%needs_cuda comes from
    pinned = f"git+https://example.org/repo@{'ab' * 20}"
    # The engine ships the extension: from the repository, at the reference the notebook was built from.
    pip, torch, engine = install[-3].split(" ", 3)[1:]
    assert (pip, engine) == ("install", f"'docexec @ {pinned}#subdirectory=engine'")
    assert torch.startswith("torch==")
    for ending in ("gpu_unrecorded.py", "gpu_recorded.py"):
        assert _cells_of(run_all_notebook, ending).source.startswith("%%needs_cuda\nimport torch\n")
    assert [o.text for o in _cells_of(run_all_notebook, "gpu_recorded.py").outputs] == ["8 GPUs\n"]
    assert not _cells_of(run_all_notebook, "before.py").source.startswith("%%")
    # Its intended error, where a GPU runs it, does not stop "Run all" either.
    assert _cells_of(run_all_notebook, "gpu_raises.py").metadata["tags"] == ["raises-exception"]


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """A kernel spec for this interpreter, whatever kernels the machine has installed as python3."""
    folder = tmp_path_factory.mktemp("kernel")
    spec = folder / "kernels" / "this-python"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel_json = {"argv": argv, "display_name": "this Python", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel_json))
    return folder


def _execute(notebook, kernel, allow_errors=False):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(kernel))
        client = NotebookClient(
            notebook,
            kernel_name="this-python",
            timeout=120,
            allow_errors=allow_errors,
            resources={"metadata": {"path": str(kernel)}},
        )
        client.execute()
    return notebook


def _text(cell) -> str:
    return "".join(output.get("text", "") for output in cell.outputs)


def test_run_all_on_a_cpu_runs_every_cpu_cell_and_skips_each_cuda_cell_with_a_line(run_all_notebook, kernel):
    notebook = copy.deepcopy(run_all_notebook)
    install = notebook.cells[0]  # run without its pip line: the project is installed here already
    install.source = "\n".join(line for line in install.source.splitlines() if not line.startswith("%pip"))
    _execute(notebook, kernel)  # raises CellExecutionError at the first cell that stops "Run all"
    skipped = f"{cuda_cells.SKIPPED}.\n"
    assert _text(_cells_of(notebook, "gpu_unrecorded.py")) == skipped
    assert _text(_cells_of(notebook, "gpu_recorded.py")) == skipped  # the recording gives way to the line
    assert _text(_cells_of(notebook, "gpu_raises.py")) == skipped
    assert _text(_cells_of(notebook, "raises.py")).startswith("raising")
    assert _text(_cells_of(notebook, "after.py")) == "after [0, 1, 4]\n"  # it ran to the end


@pytest.mark.torch  # the GPU is torch's to see: it stands in for one here
def test_where_torch_sees_a_gpu_a_marked_cell_runs_and_its_error_stops_run_all(kernel):
    cells = [
        "%load_ext docexec.notebook\nimport torch\ntorch.cuda.is_available = lambda: True  # as on a GPU",
        "%%needs_cuda\nvalue = 6 * 7\nprint('ran', value)\nvalue",
        "%%needs_cuda\n1 / 0",
        "print('not reached')",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    with pytest.raises(CellExecutionError, match="ZeroDivisionError"):
        _execute(notebook, kernel)
    ran, failed, after = notebook.cells[1:]
    assert ran.outputs[0].text == "ran 42\n" and ran.outputs[1].data["text/plain"] == "42"
    (error,) = failed.outputs  # the cell's own error, once
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))  # without its colours
    assert error.ename == "ZeroDivisionError" and "File <cell marked %%needs_cuda>:1\n----> 1 1 / 0" in shown
    assert "docexec/notebook.py" not in shown  # the magic's own frame is hidden
    assert after.outputs == []


def test_a_lab_declared_cuda_has_each_code_cell_marked_and_the_extension_loaded(module_project):
    path = module_project.snippet(
        "labs/cuda_lab.py",
        "# docexec: cuda\n# %%\nimport torch\n\nx = torch.ones(2, device='cuda')\n\n# %%\nprint(x.sum())\n",
    )
    engine = module_project.engine()
    result = engine.execute([path], progress=False)[0][path]
    assert result.status == Status.SKIPPED  # a CPU build
    notebook = lab_notebook(module_project.root, path, result, engine.environment, None)
    install, *code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert install.endswith("%load_ext docexec.notebook")
    assert code == [
        "",  # the declaration's cell, empty once its line is hidden
        "%%needs_cuda\nimport torch\n\nx = torch.ones(2, device='cuda')",
        "%%needs_cuda\nprint(x.sum())",
    ]
