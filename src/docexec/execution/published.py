"""What may leave the engine for a page, a search index, a notebook or a terminal.

Two lines of defence that do not depend on the sandbox: values of the caller's environment
variables whose names say they are secrets are replaced by a placeholder, and escape sequences and
control characters are removed (an OSC 52 sequence would write to a reader's clipboard, others
retitle or clear a terminal). An SVG figure is published only when an XML parse finds nothing off
an allow-list in it (`inert_svg`).
"""

from __future__ import annotations

import functools
import os
import re

from docexec.execution import inert_svg

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
# Characters that change how text reads without showing themselves: bidirectional overrides and
# isolates (the same bytes read in another order, "Trojan Source") and zero-width ones. Shown as
# their escapes, so that what a reader sees is what was printed.
INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def made_visible(text: str) -> str:
    return INVISIBLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def plain_text(text: str) -> str:
    """``text`` as a terminal would leave it: escape sequences and control characters removed,
    a line redrawn after a carriage return (a progress bar) kept as last drawn."""
    text = made_visible(_CONTROL.sub("", _ESCAPE.sub("", text.replace("\r\n", "\n"))))
    if "\r" not in text:
        return text
    return "\n".join(_last_drawn(line) for line in text.split("\n"))


def _last_drawn(line: str) -> str:
    drawn = [part for part in line.split("\r") if part]
    return drawn[-1] if drawn else ""


def svg_refusal(data: bytes) -> str | None:
    """Why an SVG figure may not be published (it could run script or fetch from elsewhere once
    opened on its own), or None: `docexec.execution.inert_svg`."""
    return inert_svg.refusal(data)


def svg_is_inert(data: bytes) -> bool:
    return svg_refusal(data) is None
