"""The ``%run`` Markdown extension, rendered to HTML by Python-Markdown with superfences."""

import html as htmllib
import logging
import re

import markdown
import pytest

from docexec.render.markdown_ext import RunExtension, SnippetRenderer


@pytest.fixture
def render(project):
    engine = project.engine()

    def results(path):
        return engine.execute([path], progress=False)[0][path]

    def to_html(text: str, environment: dict | None = None) -> str:
        renderer = SnippetRenderer(
            project.root,
            results,
            environment=environment or engine.environment,
            library_repository="https://example.org/repo",
            config=engine.config.replace(
                library_module="torchguide",
                library_distribution="pytorch-foundations",
                reference_page="reference/index.md",
            ),
        )
        renderer.start_page("docs/page.md", "week-1/page.md")
        extensions = [
            RunExtension(renderer),
            "pymdownx.superfences",
            "pymdownx.details",
            "admonition",
            "attr_list",
        ]
        return markdown.markdown(text, extensions=extensions)

    return to_html


@pytest.mark.torch
def test_code_then_output_and_no_provenance_line_where_the_page_says_it(project, render):
    project.snippet("page/hello.py", "import torch\nprint(torch.tensor([1, 2]).sum().item())\n")
    html = render("Intro.\n\n%run snippets/page/hello.py\n\nAfter.")
    assert html.index("snippets/page/hello.py") < html.index(">3\n<") < html.index("After.")
    assert "docexec-provenance" not in html and "Ran on" not in html


def test_an_output_produced_elsewhere_than_the_page_says_where(project, render):
    project.snippet("page/hello.py", "print('hi')\n")
    gpu_build = {"device": "cuda", "torch": "2.13.0+cu128", "python": "3.11.7"}
    html = render("%run snippets/page/hello.py", environment=gpu_build)
    assert 'class="docexec-provenance"' in html and "Ran on a CPU with " in html


def test_printed_lines_are_kept_and_a_long_output_folds_behind_a_toggle(project, render):
    project.snippet("page/short.py", "for i in range(25):\n    print(i)\n")
    project.snippet("page/long.py", "for i in range(40):\n    print('row', i)\n")
    short = render("%run snippets/page/short.py")
    long = render("%run snippets/page/long.py")
    assert "docexec-long" not in short and "<details" not in short
    assert "docexec-output docexec-long" in long
    assert '<details class="docexec-fold"><summary>' in long and "Show all 40 lines" in long
    assert "row 39" in long  # folded, not cut: the whole output is on the page


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
    assert "Raises ZeroDivisionError, as intended" in html and "docexec-raises" in html
    assert "raises=ZeroDivisionError" not in html  # the declaration line is not shown


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
    assert "get_device_name" in html and "Needs a GPU" in html
    assert 'class="admonition info docexec-needs-gpu"' in html  # a class a site can style or skip
    assert "its output is not shown here" in html
    assert "Output" not in html and "Ran on" not in html and "runner" not in html
    assert "below" not in html  # never points at an output that is not there


@pytest.mark.this_site
def test_a_snippet_that_uses_the_library_says_how_to_install_it(project, render):
    project.snippet("page/lib.py", "import torchguide.layout\n\nprint('imported')\n")
    project.snippet("page/plain.py", "print(1)\n")
    html = render("%run snippets/page/lib.py")
    assert 'class="docexec-library"' in html and 'href="../reference/index.md"' in html
    assert "pip install &#x27;pytorch-foundations @ git+https://example.org/repo&#x27;" in html or (
        "pip install 'pytorch-foundations @ git+https://example.org/repo'" in html
    )
    assert "docexec-library" not in render("%run snippets/page/plain.py")


@pytest.mark.this_site
def test_the_library_install_line_is_said_once_per_page(project, render):
    project.snippet("page/lib_one.py", "import torchguide.layout\n\nprint('one')\n")
    project.snippet("page/lib_two.py", "import torchguide\n\nprint('two')\n")
    html = render("%run snippets/page/lib_one.py\n\n%run snippets/page/lib_two.py\n")
    assert html.count('class="docexec-library"') == 1 and html.index("docexec-library") < html.index("two")


def test_a_directive_inside_a_code_fence_is_left_alone(project, render):
    html = render("```text\n%run snippets/page/example.py\n```\n")
    assert "%run snippets/page/example.py" in html and "Snippet error" not in html


def test_an_indented_directive_renders_inside_its_block(project, render):
    project.snippet("page/hello.py", "for i in range(30):\n    print('inside', i)\n")
    html = render('!!! note "A note"\n    %run snippets/page/hello.py\n')
    note = html[html.index('class="admonition note"') :]
    assert "inside 29" in note and '<details class="docexec-fold">' in note


def test_a_titled_figure_is_described_by_its_title(project, render):
    code = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.set_title('Loss [log]')\n"
    project.snippet("page/titled.py", code)
    html = render("%run snippets/page/titled.py")
    assert '<img alt="Loss log"' in html and "Figure 1" not in html


def test_a_named_part_is_shown_with_the_whole_program_folded_away(project, render):
    code = "# docexec: show=core\nsetup = 1\n# --8<-- [start:core]\nprint(setup + 1)\n# --8<-- [end:core]\n"
    project.snippet("page/part.py", code)
    html = render("%run snippets/page/part.py")
    shown, folded = html.split("<details", 1)
    folded = folded.split(">", 1)[1].split("</details>")[0]
    assert "print" in shown and "setup" in shown.split("print")[1] and "setup = " not in shown
    assert (
        "The whole proof" in folded
        and "setup" in folded
        and "8&lt;" not in folded
        and "docexec" not in folded
    )


GIST_SNIPPET = """# docexec: timeout=10
import math

values = [math.sqrt(n) for n in range(4)]
with open(__file__) as own_source:
    # --8<-- [start:gist]
    first_line = own_source.readline()
    # --8<-- [end:gist]
    ignored = own_source.read()
# --8<-- [start:gist]
assert values[2] == math.sqrt(2)
# --8<-- [end:gist]
# --8<-- [start:gist]
print("root of two:", round(values[2], 3))
# --8<-- [end:gist]
"""


def _code_text(block_html: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", block_html))


def test_a_gist_is_shown_first_then_the_output_then_the_whole_proof_folded(project, render):
    project.snippet("page/gist.py", GIST_SNIPPET)
    html = render("%run snippets/page/gist.py")
    gist_block = html[html.index('id="gist"') : html.index("</code></pre>")]
    gist_text = _code_text(gist_block.split("<code>", 1)[1])
    assert gist_text.splitlines() == [
        "    first_line = own_source.readline()",
        "...",
        "assert values[2] == math.sqrt(2)",
        'print("root of two:", round(values[2], 3))',
    ]
    output_at = html.index("root of two: 1.414")
    proof_at = html.index("<details")
    assert html.index('id="gist"') < output_at < proof_at
    proof = _code_text(html[proof_at:].split("</details>")[0])
    assert "The whole proof" in proof and "ignored = own_source.read()" in proof
    assert "8<" not in proof and "8<" not in gist_text and "docexec:" not in proof


def test_a_snippet_without_a_gist_shows_its_whole_code_and_no_fold(project, render):
    project.snippet("page/plain.py", "x = 2\nprint(x * 3)\n")
    html = render("%run snippets/page/plain.py")
    assert "The whole proof" not in html and "<details" not in html and "6" in html


def test_a_failing_gisted_snippet_names_its_real_line(project, render):
    code = "# --8<-- [start:gist]\nx = 1\n# --8<-- [end:gist]\n\nraise ValueError('line five')\n"
    project.snippet("page/fails.py", code)
    html = render("%run snippets/page/fails.py")
    assert 'fails.py", line 5' in htmllib.unescape(html)


@pytest.mark.parametrize(
    ("markers", "problem"),
    [
        ("# --8<-- [start:gist]\nx = 1\n", "snippets/page/broken.py:1: section 'gist' is never ended"),
        ("x = 1\n# --8<-- [end:gist]\n", "snippets/page/broken.py:2: section 'gist' ends without a start"),
        (
            "# --8<-- [start:gist]\n# --8<-- [start:gist]\nx = 1\n# --8<-- [end:gist]\n",
            "snippets/page/broken.py:2: section 'gist' starts again before it ends",
        ),
    ],
)
def test_unbalanced_gist_markers_are_refused_with_file_and_line(project, render, markers, problem):
    project.snippet("page/broken.py", markers)
    html = render("%run snippets/page/broken.py")
    assert problem in htmllib.unescape(html)


def test_figures_become_sized_lazy_images_that_open_at_full_size(project, render):
    project.snippet(
        "page/plot.py",
        "import matplotlib.pyplot as plt\nplt.figure(figsize=(6, 3))\nplt.plot([1, 2])\n"
        "plt.figure(figsize=(12, 3))\nplt.imshow([[0, 1], [1, 0]])\n",
    )
    html = render("%run snippets/page/plot.py")
    links = re.findall(
        r'<a class="([^"]+)" href="([^"]+)" title="Open the figure at full size"><img ([^>]+)>', html
    )
    assert [classes for classes, _, _ in links] == [
        "docexec-figure",
        "docexec-figure docexec-figure--colormapped",
    ]
    for _, href, image in links:
        assert href.startswith("data:image/svg+xml;base64,") and f'src="{href}"' in image
        assert 'alt="Figure drawn by snippets/page/plot.py"' in image and 'loading="lazy"' in image
        assert re.search(r'\bwidth="\d+"', image) and re.search(r'\bheight="\d+"', image)
    # The wide figure keeps a width at which its text stays legible; a phone scrolls it.
    assert "min-width" in links[1][2]


@pytest.mark.torch
def test_a_printed_matrix_is_marked_as_a_table_and_a_message_is_not(project, render):
    project.snippet("page/matrix.py", "import torch\n\nprint(torch.arange(6.0).reshape(2, 3))\n")
    project.snippet("page/message.py", "print('x' * 200)\n")
    assert "docexec-table" in render("%run snippets/page/matrix.py")
    assert "docexec-table" not in render("%run snippets/page/message.py")


@pytest.mark.parametrize(
    ("text", "tabular"),
    [
        ("tensor([[0., 1.],\n        [2., 3.]])\n", True),
        ("name    dtype    bytes\nx       float32  4\ny       int64    8\n", True),
        ("tensor([1., 2.])\nstrides: (4, 1) -> (1, 4)\n", False),
        ("RuntimeError: view size is not compatible with input tensor's size and stride\n", False),
        ("a  b\nc  d\n", False),  # two lines that happen to align are no table
    ],
)
def test_tables_are_told_from_prose_by_their_columns(text, tabular):
    from docexec.render.output_layout import is_tabular

    assert is_tabular(text) is tabular


def test_a_long_traceback_is_never_folded_so_its_message_stays_in_view(project, render):
    calls = "".join(f"def step_{n}():\n    step_{n + 1}()\n\n\n" for n in range(20))
    last = "def step_20():\n    raise ValueError('the end')\n\n\nstep_0()\n"
    code = f"# docexec: raises=ValueError\n{calls}{last}"
    project.snippet("page/deep.py", code)
    html = render("%run snippets/page/deep.py")
    traceback = html[html.index("docexec-raises") :]
    assert traceback.count("step_") > 25 and "the end" in traceback and "docexec-fold" not in html


def test_a_gist_is_shown_rather_than_a_part_named_by_show(project, render):
    code = (
        "# docexec: show=core\n# --8<-- [start:core]\nsetup = 1\n# --8<-- [end:core]\n"
        "# --8<-- [start:gist]\nprint(setup + 41)\n# --8<-- [end:gist]\n"
    )
    project.snippet("page/both.py", code)
    html = render("%run snippets/page/both.py")
    shown = _code_text(html[html.index('id="both"') : html.index("</code></pre>")])
    assert "print(setup + 41)" in shown and "setup = 1" not in shown and "42" in html
