"""The same page in fewer bytes: the markup Pygments (through pymdownx.highlight) writes around code.

Code is most of a page's HTML, and most of that is markup: a 50-line proof weighed 14 KB. Two kinds
of it change nothing a reader sees, so they are removed from each page's HTML:

- A span around a plain name or around whitespace. Material colours a name (``.n``) with
  ``--md-code-hl-name-color``, which is the code's own colour, and gives whitespace (``.w``) none;
  the text without the span looks the same and copies the same.
- The id of each line's span (``line_spans`` in mkdocs.yml), such as ``__span-tiny_cnn-12``. The
  spans themselves stay (docexec.css marks a wrapped printed line by them); nothing links to a
  line of code, and the ids were a fifth of a page's code markup.

Pygments offers no option to leave these out of its HTML, hence the rewrite here.
"""

from __future__ import annotations

import re

# Pygments escapes < in the text it wraps, so the span's content never holds a tag.
_UNSTYLED_TOKEN = re.compile(r'<span class="[nw]">([^<]*)</span>')
_LINE_SPAN_ID = re.compile(r'<span id="__span-[^"]*">')


def slim_code_markup(page_html: str) -> str:
    return _LINE_SPAN_ID.sub("<span>", _UNSTYLED_TOKEN.sub(r"\1", page_html))
