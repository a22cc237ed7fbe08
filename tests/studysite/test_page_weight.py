"""Code keeps its colours and its text with less markup around it."""

from __future__ import annotations

import html
import re

import markdown

from studysite.page_weight import slim_code_markup

CODE = """```python
model = train(images, labels, seed=0)  # 150 steps
with torch.no_grad():
    predicted = model(test).argmax(dim=1)
print(f"accuracy: {predicted.float().mean():.1%} <ok>")
```"""


def highlighted(source: str) -> str:
    """The site's own rendering of a code block (mkdocs.yml: pymdownx.highlight, line spans)."""
    return markdown.markdown(
        source,
        extensions=["pymdownx.highlight", "pymdownx.superfences"],
        extension_configs={"pymdownx.highlight": {"line_spans": "__span"}},
    )


def text_of(page_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page_html))


def test_names_whitespace_and_line_ids_lose_their_markup_and_nothing_else_changes():
    before = highlighted(CODE)
    assert '<span class="n">' in before and 'id="__span-' in before
    after = slim_code_markup(before)
    assert text_of(after) == text_of(before)  # what a reader sees and copies
    assert '<span class="n">' not in after and '<span class="w">' not in after and "__span-" not in after
    for coloured in ("k", "o", "p", "mi", "s2", "c1", "nb"):  # styled by Material: kept
        span = f'<span class="{coloured}">'
        assert after.count(span) == before.count(span) > 0
    lines = re.findall(r"<code>(.*?)</code>", after, re.S)[0]
    assert lines.count("<span>") == 4  # each printed line still its own span (docexec.css)
    assert len(after) < 0.8 * len(before)


def test_prose_that_looks_like_a_name_span_is_left_alone():
    prose = '<p>A <code>span class="n"</code> and &lt;span class="n"&gt;x&lt;/span&gt;</p>'
    assert slim_code_markup(prose) == prose
