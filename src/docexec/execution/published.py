"""What may leave the engine for a page, a search index, a notebook or a terminal.

Two lines of defence that do not depend on the sandbox: values of the caller's environment
variables whose names say they are secrets are replaced by a placeholder, and escape sequences and
control characters are removed (an OSC 52 sequence would write to a reader's clipboard, others
retitle or clear a terminal). Figures are published only when they cannot run script.
"""

from __future__ import annotations

import functools
import os
import re

REDACTED = "[redacted]"
# Names of variables whose values are credentials by convention (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
# PGPASSWORD, a *_API_KEY); short values ("1", "true") are settings, not secrets, and stay.
_SECRET_NAME = re.compile(r"TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL|AUTH|PRIVATE|COOKIE|SESSION", re.I)
_SHORTEST_SECRET = 8


@functools.cache
def _secrets() -> tuple[str, ...]:
    values = {
        value
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and len(value) >= _SHORTEST_SECRET
    }
    return tuple(sorted(values, key=len, reverse=True))  # a longer secret first, where one holds another


def redact(text: str) -> str:
    for secret in _secrets():
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def clean(text: str) -> str:
    """``text`` as it may be published: secrets redacted, control characters removed."""
    return redact(plain_text(text))


# ECMA-48 escape sequences (colours, cursor moves, titles, links) and the other control
# characters: a page shows text, and raw control bytes in HTML are at best noise.
_ESCAPE = re.compile(
    r"""
      (?:\x1b\[|\x9b) [0-?]* [ -/]* [@-~]          # CSI: colours, cursor and erase
    | (?:\x1b\]|\x9d) [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)?  # OSC: titles, hyperlinks
    | \x1b [PX^_] [^\x1b]* (?:\x1b\\)?            # DCS, SOS, PM, APC strings
    | \x1b [ -/]* [0-~]                           # the other escapes
    """,
    re.VERBOSE,
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def plain_text(text: str) -> str:
    """``text`` as a terminal would leave it: escape sequences and control characters removed,
    a line redrawn after a carriage return (a progress bar) kept as last drawn."""
    text = _CONTROL.sub("", _ESCAPE.sub("", text.replace("\r\n", "\n")))
    if "\r" not in text:
        return text
    return "\n".join(_last_drawn(line) for line in text.split("\n"))


def _last_drawn(line: str) -> str:
    drawn = [part for part in line.split("\r") if part]
    return drawn[-1] if drawn else ""


# What makes an SVG active when it is opened on its own (a figure shown full size): script
# elements, event handler attributes, foreign HTML, links to script, and entities that could
# smuggle any of these. matplotlib writes none of them.
_ACTIVE_SVG = re.compile(
    rb"<\s*(?:[\w-]+:)?(?:script|foreignObject|iframe|embed|object|handler|animate|set)\b"
    rb"|\son[a-z]+\s*="
    rb"|(?:java|vb)script\s*:"
    rb"|<!ENTITY"
    rb"|data\s*:\s*text/html",
    re.I,
)


def svg_is_inert(data: bytes) -> bool:
    return _ACTIVE_SVG.search(data) is None
