"""A folded box's code is moved to a file of its own and linked from the box."""

from __future__ import annotations

from studysite.folded_code import FOLDS_DIR, fold
from studysite.search_index import exclude_code_and_outputs

PROOF = (
    '<details class="docexec-proof">\n<summary>The whole proof (2 lines)</summary>\n'
    '<div class="highlight"><pre><span></span><code>import torch\nx = 1\n</code></pre></div>\n</details>'
)
SOURCE = (
    '<details class="mkdocstrings-source">\n'
    "  <summary>Source code in <code>src/torchguide/a.py</code></summary>\n"
    '  <div class="highlight"><table class="highlighttable"><tr><td><pre><code>def f(): pass\n'
    "</code></pre></td></tr></table></div>\n</details>"
)
NOTE = '<details class="note"><summary>A note</summary><p>Kept.</p></details>'
PAGE = f"<h1>Page</h1>\n<p>Prose.</p>\n{PROOF}\n{NOTE}\n{SOURCE}"


def test_each_folded_box_links_its_code_in_a_file_and_other_boxes_stay(tmp_path):
    page = fold(PAGE, "week-1/autograd/", tmp_path)
    assert "import torch" not in page and "def f()" not in page
    assert "<p>Prose.</p>" in page and "<p>Kept.</p>" in page  # not a code box: as it was
    assert page.count("data-fold") == 2 and "The whole proof (2 lines)" in page and "Source code in" in page
    files = sorted((tmp_path / FOLDS_DIR).iterdir())
    assert len(files) == 2
    texts = [path.read_text() for path in files]
    assert any("import torch\nx = 1" in text for text in texts) and any(
        "def f(): pass" in text for text in texts
    )
    for path in files:  # linked relative to the page
        assert f'href="../../{FOLDS_DIR}/{path.name}"' in page


def test_the_same_code_on_two_pages_is_one_file_and_a_rebuild_keeps_its_name(tmp_path):
    first = fold(PROOF, "a/", tmp_path)
    second = fold(PROOF, "", tmp_path)
    (name,) = [path.name for path in (tmp_path / FOLDS_DIR).iterdir()]
    assert f'href="../{FOLDS_DIR}/{name}"' in first and f'href="{FOLDS_DIR}/{name}"' in second
    assert fold(PROOF, "a/", tmp_path) == first


def test_a_box_whose_title_the_search_index_skips_is_folded_too(tmp_path):
    page = fold(exclude_code_and_outputs(PROOF), "a/", tmp_path)
    assert "import torch" not in page and "data-fold" in page
    assert "<summary data-search-exclude>The whole proof (2 lines)</summary>" in page
