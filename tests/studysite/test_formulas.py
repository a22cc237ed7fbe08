"""Formulas are rendered by the site's own KaTeX when the site is built; a bad one fails the build."""

from __future__ import annotations

import shutil

import pytest

from studysite.formulas import RENDERED, FormulaError, render

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

PAGE = (
    '<p>A softmax <span class="arithmatex">\\(e^{x_i} / \\sum_j e^{x_j}\\)</span>, '
    'an order <span class="arithmatex">\\(a &lt; b\\)</span>.</p>\n<div class="arithmatex">\\[x^2\\]</div>'
)


def test_each_formula_is_rendered_in_place_and_marked_rendered(root):
    page = render(PAGE, root / "docs/assets/katex/katex.min.js", "page.md")
    assert page.count(f'class="arithmatex {RENDERED}"') == 3 and "\\(" not in page and "\\[" not in page
    assert page.count('<span class="katex">') == 3 and page.count("katex-display") == 1
    assert "<mo>&lt;</mo>" in page  # the TeX was read unescaped and written escaped again
    assert page.startswith("<p>A softmax ") and page.endswith("</div>")


def test_a_page_without_formulas_is_unchanged(root):
    assert render("<p>$5, \\(</p>", root / "docs/assets/katex/katex.min.js", "page.md") == "<p>$5, \\(</p>"


def test_a_formula_katex_cannot_parse_fails_naming_the_page(root):
    with pytest.raises(
        FormulaError, match=r"^docs/x\.md: KaTeX could not render a formula: KaTeX parse error"
    ):
        render(
            '<span class="arithmatex">\\(\\frac{\\)</span>',
            root / "docs/assets/katex/katex.min.js",
            "docs/x.md",
        )
