"""Where a page sits in the curriculum, as the site's navigation names it, and the topics it is
tagged with: what the flash-card deck groups its cards by (a subdeck per topic, tags per topic,
week and day).

The navigation (``nav`` in mkdocs.yml) is the curriculum: "Phase 1 — Foundations" holds "Week 1 —
The Engine", which holds "Day 1 — Tensors" and the topic pages. A page's topics are the ``tags`` of
its front matter, the ones the Topics page lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mkdocs.utils.meta import get_data

# A section of the curriculum that counts: "Week 2 — Data & Workflow" is week 2.
NUMBERED = re.compile(r"^(?P<unit>Phase|Week|Day) (?P<number>\d+)\b")


@dataclass(frozen=True)
class Place:
    sections: tuple[str, ...] = ()  # the navigation's sections above the page, outermost first
    title: str = ""  # the page's title in the navigation; empty for a section's own index page
    topics: tuple[str, ...] = ()  # its front matter's tags

    @property
    def path(self) -> tuple[str, ...]:
        """Sections and title: ("Phase 1 — Foundations", "Week 1 — The Engine", "Autograd")."""
        return (*self.sections, self.title) if self.title else self.sections

    def numbered(self) -> dict[str, int]:
        """The numbered units it belongs to: {"phase": 1, "week": 1, "day": 6}."""
        found = {}
        for section in self.sections:
            match = NUMBERED.match(section)
            if match:
                found[match["unit"].lower()] = int(match["number"])
        return found


def page_topics(text: str) -> tuple[str, ...]:
    """The ``tags`` of a page's front matter."""
    _, meta = get_data(text)
    tags = meta.get("tags") or ()
    if isinstance(tags, str):
        return (tags,)
    return tuple(str(tag) for tag in tags) if isinstance(tags, list) else ()


def places(nav: object, titles: dict[str, str], topics: dict[str, tuple[str, ...]]) -> dict[str, Place]:
    """Every page's place, by its path under docs/. A page the navigation leaves out (or a site
    without one) stands on its own, under its own title (``titles``: each page's ``#`` title)."""
    found: dict[str, Place] = {}

    def walk(items: object, sections: tuple[str, ...]) -> None:
        for item in items if isinstance(items, list) else []:
            if isinstance(item, str):  # a section's index page, listed without a title
                found.setdefault(item, Place(sections, "" if sections else titles.get(item, item)))
            elif isinstance(item, dict):
                for title, value in item.items():
                    if isinstance(value, list):
                        walk(value, (*sections, str(title)))
                    elif isinstance(value, str):
                        found.setdefault(value, Place(sections, str(title)))

    walk(nav, ())
    result = {}
    for page in sorted(set(titles) | set(topics) | set(found)):
        place = found.get(page) or Place((), titles.get(page, page))
        result[page] = Place(place.sections, place.title, topics.get(page, ()))
    return result
