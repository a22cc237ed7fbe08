"""Markdown blocks that hold text they cannot be broken by: a fence longer than any backtick run
inside, a title that cannot end its attribute early."""

from __future__ import annotations

import re


def fenced(content: str, attributes: str) -> list[str]:
    """A code block whose fence is longer than any backtick run inside, so output cannot end it;
    ``attributes`` follow the opening fence (a language, or ``{ .class title="..." }``)."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{attributes}", *content.rstrip("\n").split("\n"), fence]


def title(text: str) -> str:
    """``text`` as the value of a ``title="..."`` attribute."""
    return text.replace('"', "'")
