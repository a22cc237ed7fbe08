"""One engine for any host: a failing snippet fails a plain Python-Markdown host and Zensical, not
only the MkDocs plugin; lab cells are split as jupytext reads them; lab notebooks are the same on
every build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import markdown
import pytest

from docexec import config, site
from docexec.render import markdown_ext, notebooks
from docexec.render.markdown_ext import RunExtension, SnippetError, SnippetRenderer
from docexec.sandbox.child import split_cells

BROKEN = "print('before')\nundefined_name\n"


def test_a_failing_snippet_raises_in_a_strict_plain_markdown_host(project):
    path = project.snippet("page/broken.py", BROKEN)
    engine = project.engine()
    renderer = SnippetRenderer(project.root, lambda p: engine.execute([p], progress=False)[0][p], strict=True)
    renderer.start_page("docs/page.md")
    md = markdown.Markdown(extensions=[RunExtension(renderer)])
    with pytest.raises(SnippetError) as error:
        md.convert(f"# Page\n\n%run {path}\n")
    assert str(error.value).startswith(
        f"docs/page.md:3: snippet failed: {path}:2: NameError: name 'undefined_name' is not defined"
    )


def test_loaded_by_name_it_runs_snippets_and_raises_on_a_failing_one(project):
    good = project.snippet("page/good.py", "print(6 * 7)\n")
    broken = project.snippet("page/broken.py", BROKEN)
    configs = {"docexec.render.markdown_ext": {"root": str(project.root)}}
    try:
        html = markdown.markdown(
            f"%run {good}\n",
            extensions=["docexec.render.markdown_ext", "pymdownx.superfences"],
            extension_configs=configs,
        )
        assert ">42\n<" in html
        with pytest.raises(SnippetError, match=rf"^<page>:1: snippet failed: {broken}:2: NameError"):
            markdown.markdown(
                f"%run {broken}\n", extensions=["docexec.render.markdown_ext"], extension_configs=configs
            )
    finally:
        markdown_ext.close_hosted_engines()


ZENSICAL_YML = """\
site_name: tiny
markdown_extensions:
  - admonition
  - pymdownx.superfences
  - docexec.render.markdown_ext
"""


@pytest.mark.skipif(
    shutil.which("zensical", path=str(Path(sys.executable).parent)) is None,
    reason="zensical is not installed (pip install zensical)",
)
def test_a_broken_snippet_fails_a_zensical_build(project):
    (project.root / "mkdocs.yml").write_text(ZENSICAL_YML)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\nText.\n\n%run snippets/page/broken.py\n")
    project.snippet("page/broken.py", BROKEN)
    zensical = str(Path(sys.executable).parent / "zensical")
    build = subprocess.run(
        [zensical, "build"], cwd=project.root, capture_output=True, text=True, timeout=300, env=os.environ
    )
    assert build.returncode != 0, build.stdout + build.stderr
    output = build.stdout + build.stderr
    assert "index.md:5: snippet failed: snippets/page/broken.py:2: NameError" in output
    project.snippet("page/broken.py", "print('mended')\n")
    mended = subprocess.run(
        [zensical, "build"], cwd=project.root, capture_output=True, text=True, timeout=300, env=os.environ
    )
    assert mended.returncode == 0, mended.stdout + mended.stderr
    assert "mended" in (project.root / "site" / "index.html").read_text()


LAB = """\
# %% [markdown]
# # A lab

#%%
first = 1
print("no space after #")

# %% [raw]
print("a raw cell is never run")

# %%
# %time  -- a magic stays a comment when run as Python
print("third", first)
"""


def test_lab_cells_are_the_code_cells_jupytext_reads():
    cells = split_cells(LAB)
    notebook = jupytext.reads(LAB, fmt="py:percent")
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert len(cells) == len(code) == 2
    assert [text.strip().splitlines()[-1] for _, text in cells] == [c.splitlines()[-1] for c in code]
    assert [line for line, _ in cells] == [5, 12]
    assert split_cells("print(1)\n") == [(1, "print(1)\n")]


WRITES_A_LAB = """
import sys
from pathlib import Path
from docexec import config, site
from docexec.execution.engine import Engine
from docexec.render import notebooks

root, target = Path(sys.argv[1]), Path(sys.argv[2])
settings = config.load(root).replace(labs="snippets/labs")
results, _ = Engine(root, settings).execute(["snippets/labs/tagged.py"], progress=False)
build = site.SiteBuild(root, settings, site.one_by_one(results.__getitem__), {})
lab = build.plan({}, ["snippets/labs/tagged.py"]).labs["labs/tagged.ipynb"]
notebooks.write_lab(root, lab, "labs/tagged.ipynb", target, settings)
"""


def test_a_lab_notebook_is_the_same_whatever_pythons_hash_seed(project, tmp_path):
    """jupytext lists the cells' metadata keys from a set: written in two interpreters whose hash
    seeds order that set differently, the notebook is the same."""
    project.snippet("labs/tagged.py", '# %% tags=["setup"]\nx = 1\n# %% active="ipynb"\ny = 2\n')
    written = []
    for seed in ("3", "1"):  # seeds under which jupytext listed the keys in either order
        target = tmp_path / seed
        env = {**os.environ, "DOCEXEC_CACHE_DIR": str(project.cache_dir), "PYTHONHASHSEED": seed}
        command = [sys.executable, "-c", WRITES_A_LAB, str(project.root), str(target)]
        run = subprocess.run(command, cwd=project.root, env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        written.append((target / "labs" / "tagged.ipynb").read_bytes())
    assert written[0] == written[1]
    assert b'"cell_metadata_filter": "active,tags,-all"' in written[0]


def test_a_lab_runs_cell_by_cell_and_its_notebook_is_the_same_on_every_write(project, tmp_path):
    path = project.snippet("labs/steps.py", LAB)
    results, _ = project.engine().execute([path], progress=False)
    outcome = results[path]
    assert [cell.text() for cell in outcome.cells] == ["no space after #\n", "third 1\n"]
    assert [cell.line for cell in outcome.cells] == [5, 12]
    settings = config.load(project.root).replace(labs="snippets/labs")
    build = site.SiteBuild(project.root, settings, site.one_by_one(results.__getitem__), {})
    lab = build.plan({}, [path]).labs["labs/steps.ipynb"]
    first = notebooks.write_lab(project.root, lab, "labs/steps.ipynb", tmp_path / "a", settings).read_bytes()
    second = notebooks.write_lab(project.root, lab, "labs/steps.ipynb", tmp_path / "b", settings).read_bytes()
    assert first == second
    notebook = jupytext.reads(first.decode(), fmt="ipynb")
    assert [cell.id for cell in notebook.cells] == [
        notebooks.cell_id(path, i) for i in range(len(notebook.cells))
    ]
