"""A field read from a file (a recording's GPU, torch build and date; a cache entry's environment)
as a page or a notebook shows it: its characters, never markup.

Recordings are validated as they are read (`docexec.recordings`), and cache entries by type only,
so each field is escaped again wherever it reaches Markdown, HTML or a notebook's code.
"""

from __future__ import annotations

import html
import re
import string

# Whitespace, and control characters (Python-Markdown's stash markers among them), end a line.
_BREAKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")
# ASCII punctuation that starts no Markdown syntax in the middle of a line: a link needs [ ],
# math \( or $, HTML < or &, attributes {, emphasis * or _. Every other one is a character reference.
_PLAIN = frozenset(string.ascii_letters + string.digits + " .,:;/+-()?=")


def one_line(value: object) -> str:
    """``value`` as one line of text: each run of whitespace or control characters is a space."""
    return _BREAKS.sub(" ", str(value)).strip()


def markdown_text(value: object) -> str:
    """``value`` as literal text inside a line of Markdown (Python-Markdown's or a notebook's)."""
    return "".join(c if c in _PLAIN or not c.isascii() else f"&#{ord(c)};" for c in one_line(value))


def html_text(value: object) -> str:
    """``value`` as literal text in HTML, in an element or an attribute."""
    return html.escape(one_line(value), quote=True)


__all__ = ["html_text", "markdown_text", "one_line"]
