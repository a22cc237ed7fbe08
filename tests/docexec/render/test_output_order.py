"""A snippet's prints, figures and expected error are shown in the order it made them: on the page,
in the page's notebook and in a lab's notebook."""

from __future__ import annotations

import html as htmllib
import re

import markdown
import nbformat
import pytest

from docexec import config, site
from docexec.execution.outputs import Figure, SnippetException, Text
from docexec.render import notebooks
from docexec.render.markdown_ext import RunExtension, SnippetRenderer
from docexec.sandbox.capture import HEAD_CHARS, TAIL_CHARS

INTERLEAVED = """\
import matplotlib.pyplot as plt

print("first")
plt.plot([0, 1])
plt.title("One")
plt.show()
print("second")
plt.plot([1, 0])
plt.title("Two")
plt.show()
print("third")
"""
RAISES_AFTER_A_FIGURE = """\
# docexec: raises=ValueError
import matplotlib.pyplot as plt

print("drawn")
plt.plot([0, 1])
plt.title("Before the error")
raise ValueError("stopped")
"""
# Past the head, each process keeps its text and records it when it ends: stamped, it still lands
# before the figure it was printed before.
PAST_THE_HEAD = """\
import matplotlib.pyplot as plt

print("x" * {chars})
plt.plot([0, 1])
plt.title("After many characters")
plt.show()
print("after")
"""
LAB = """\
# %%
import matplotlib.pyplot as plt

print("one")
plt.plot([0, 1])
plt.show()
print("two")

# %%
print("three")
plt.plot([1, 0])
"""
PAGE = """\
# Order

%run snippets/order/interleaved.py

%run snippets/order/raises_after_a_figure.py
"""


@pytest.fixture(scope="module")
def ran(module_project):
    project = module_project
    paths = [
        project.snippet("order/interleaved.py", INTERLEAVED),
        project.snippet("order/raises_after_a_figure.py", RAISES_AFTER_A_FIGURE),
        project.snippet("order/past_the_head.py", PAST_THE_HEAD.format(chars=70_000)),
        project.snippet("order/truncated.py", PAST_THE_HEAD.format(chars=150_000)),
        project.snippet("labs/order_lab.py", LAB),
    ]
    engine = project.engine()
    results, summary = engine.execute(paths, progress=False)
    assert not summary.failures, summary.line()
    return project, engine, {path.removeprefix("snippets/"): result for path, result in results.items()}


def shown(outputs) -> list[str]:
    """Each output in a word: its text, a figure's title, an error's type."""
    return [
        o.text if isinstance(o, Text) else f"figure {o.title}" if isinstance(o, Figure) else f"error {o.type}"
        for o in outputs
    ]


def test_a_cell_keeps_prints_and_figures_in_the_order_they_were_made(ran):
    _, _, results = ran
    (cell,) = results["order/interleaved.py"].cells
    assert shown(cell.outputs) == ["first\n", "figure One", "second\n", "figure Two", "third\n"]
    (cell,) = results["order/raises_after_a_figure.py"].cells
    assert shown(cell.outputs) == ["drawn\n", "figure Before the error", "error ValueError"]
    assert isinstance(cell.outputs[-1], SnippetException) and cell.outputs[-1].message == "stopped"


def test_text_kept_past_the_head_keeps_its_place_before_a_later_figure(ran):
    _, _, results = ran
    result = results["order/past_the_head.py"]
    assert result.dropped_chars == 0
    assert shown(result.cells[0].outputs) == ["x" * 70_000 + "\n", "figure After many characters", "after\n"]


def test_truncated_text_keeps_its_head_note_and_tail_before_a_later_figure(ran):
    _, _, results = ran
    result = results["order/truncated.py"]
    total = 150_000 + len("\n") + len("after\n")
    assert result.dropped_chars == total - HEAD_CHARS - TAIL_CHARS
    tail = "x" * (TAIL_CHARS - len("\nafter\n")) + "\n"
    note = f"\n[output truncated: {result.dropped_chars:,} characters not shown]\n"
    assert shown(result.cells[0].outputs) == [
        "x" * HEAD_CHARS + note + tail,
        "figure After many characters",
        "after\n",
    ]


def test_the_page_shows_them_in_that_order(ran):
    project, engine, results = ran
    renderer = SnippetRenderer(
        project.root, lambda path: results[path.removeprefix("snippets/")], engine.environment
    )
    renderer.start_page("docs/order.md", "order.md")
    extensions = [RunExtension(renderer), "pymdownx.superfences", "attr_list", "admonition"]
    html = markdown.markdown(PAGE, extensions=extensions)
    # After each snippet's own code block: its output blocks, images and traceback, in page order.
    shown_on_page = re.findall(
        r'<div class="[^"]*docexec-(output|raises)[^"]*">.*?<code>(.*?)</code>|<img alt="([^"]+)"', html, re.S
    )
    seen = [
        f"figure {alt}" if alt else plain(code) if kind == "output" else plain(code).splitlines()[-1]
        for kind, code, alt in shown_on_page
    ]
    assert seen == [
        "first",
        "figure One",
        "second",
        "figure Two",
        "third",
        "drawn",
        "figure Before the error",
        "ValueError: stopped",  # the traceback's last line
    ]


def plain(code: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", code)).strip()


def test_the_page_notebook_and_a_lab_notebook_hold_them_in_that_order(ran):
    project, engine, results = ran
    settings = config.load(project.root).replace(labs="snippets/labs")
    build = site.SiteBuild(
        project.root, settings, site.one_by_one(lambda path: results[path.removeprefix("snippets/")]), {}
    )
    page = notebooks.notebook_for_page(build.plan_page("order.md", PAGE), PAGE, engine.environment, settings)
    nbformat.validate(page)
    interleaved, raises = [cell for cell in page.cells if cell.cell_type == "code"][1:]
    assert [notebook_output(o) for o in interleaved.outputs] == [
        "first\n", "image/svg+xml", "second\n", "image/svg+xml", "third\n"
    ]
    assert [notebook_output(o) for o in raises.outputs] == ["drawn\n", "image/svg+xml", "error ValueError"]

    lab_path = "snippets/labs/order_lab.py"
    lab = build.plan({}, [lab_path]).labs[site.lab_page(lab_path, settings)]
    notebook = notebooks.lab_notebook(project.root, lab, settings)
    nbformat.validate(notebook)
    first, second = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [notebook_output(o) for o in first.outputs] == ["one\n", "image/svg+xml", "two\n"]
    assert [notebook_output(o) for o in second.outputs] == ["three\n", "image/svg+xml"]


def notebook_output(output: nbformat.NotebookNode) -> str:
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return f"error {output.ename}"
    (media_type,) = output.data
    return media_type
