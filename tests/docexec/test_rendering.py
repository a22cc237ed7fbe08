"""The ``%run`` Markdown extension, rendered to HTML by Python-Markdown with superfences."""

import logging

import markdown
import pytest

from docexec.markdown_ext import RunExtension, SnippetRenderer


@pytest.fixture
def render(project):
    engine = project.engine()

    def results(path):
        return engine.run([path], progress=False)[0][path]

    def to_html(text: str) -> str:
        renderer = SnippetRenderer(project.root, results)
        renderer.page = "docs/page.md"
        extensions = [
            RunExtension(renderer),
            "pymdownx.superfences",
            "pymdownx.details",
            "admonition",
            "attr_list",
        ]
        return markdown.markdown(text, extensions=extensions)

    return to_html


def test_code_then_output_then_provenance(project, render):
    project.snippet("page/hello.py", "import torch\nprint(torch.tensor([1, 2]).sum().item())\n")
    html = render("Intro.\n\n%run snippets/page/hello.py\n\nAfter.")
    code, output, provenance = (
        html.index("snippets/page/hello.py"),
        html.index(">3\n<"),
        html.index("Ran on CPU"),
    )
    assert code < output < provenance
    assert 'class="docexec-provenance"' in html and "torch 2." in html


def test_printed_markup_is_escaped(project, render):
    project.snippet("page/markup.py", "print('<script>alert(1)</script>')\n")
    html = render("%run snippets/page/markup.py")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_output_with_backtick_fences_cannot_end_the_block(project, render):
    project.snippet("page/fences.py", "print('```')\nprint('<b>still output</b>')\n")
    html = render("%run snippets/page/fences.py")
    assert "<b>still" not in html and "&lt;b&gt;still output" in html


def test_an_expected_exception_shows_its_traceback(project, render):
    project.snippet("page/raises.py", '# docexec: raises=ZeroDivisionError\nprint("dividing")\n1 / 0\n')
    html = render("%run snippets/page/raises.py")
    assert "Raises ZeroDivisionError (as intended)" in html
    assert "docexec" not in html.split("Raises")[0].split("dividing")[0]  # declaration line not shown


def test_a_failing_snippet_shows_the_error_and_warns_with_page_and_line(project, render, caplog):
    project.snippet("page/broken.py", "x = 1\nundefined_name\n")
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.docexec"):
        html = render("Text.\n\n%run snippets/page/broken.py")
    assert "This snippet failed" in html and "NameError" in html
    assert "docs/page.md:3: snippet failed: snippets/page/broken.py:2: NameError" in caplog.text


def test_a_missing_snippet_is_an_error_naming_the_page_line(project, render, caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.docexec"):
        html = render("%run snippets/page/nope.py")
    assert "Snippet error" in html
    assert "docs/page.md:1: %run snippets/page/nope.py: no such snippet" in caplog.text


def test_a_cuda_snippet_shows_code_and_a_note_never_an_output(project, render):
    project.snippet("page/gpu.py", "# docexec: cuda\nimport torch\nprint(torch.cuda.get_device_name())\n")
    html = render("%run snippets/page/gpu.py")
    assert "get_device_name" in html and "Runs on the CUDA runner" in html
    assert "Output" not in html and "Ran on" not in html


def test_a_directive_inside_a_code_fence_is_left_alone(project, render):
    html = render("```text\n%run snippets/page/example.py\n```\n")
    assert "%run snippets/page/example.py" in html and "Snippet error" not in html


def test_an_indented_directive_renders_inside_its_block(project, render):
    project.snippet("page/hello.py", "print('inside')\n")
    html = render('!!! note "A note"\n    %run snippets/page/hello.py\n')
    note = html[html.index('class="admonition note"') :]
    assert "inside" in note and "Ran on CPU" in note


def test_a_titled_figure_is_described_by_its_title(project, render):
    code = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.set_title('Loss [log]')\n"
    project.snippet("page/titled.py", code)
    html = render("%run snippets/page/titled.py")
    assert '<img alt="Figure 1: Loss log"' in html


def test_a_named_part_is_shown_with_the_whole_program_folded_away(project, render):
    code = "# docexec: show=core\nsetup = 1\n# --8<-- [start:core]\nprint(setup + 1)\n# --8<-- [end:core]\n"
    project.snippet("page/part.py", code)
    html = render("%run snippets/page/part.py")
    shown, folded = html.split("<details", 1)
    folded = folded.split("</details>")[0]
    assert "print" in shown and "setup" in shown.split("print")[1] and "setup = " not in shown
    assert (
        "The whole program" in folded
        and "setup" in folded
        and "8&lt;" not in folded
        and "docexec" not in folded
    )


def test_figures_become_images(project, render):
    project.snippet("page/plot.py", "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n")
    html = render("%run snippets/page/plot.py")
    assert '<img alt="Figure 1 drawn by snippets/page/plot.py"' in html
    assert 'src="data:image/png;base64,' in html
