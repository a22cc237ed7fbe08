"""Each drill's section stands on its page right after its question; the Practice page lists them all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studysite.drill_pages import drill_section, practice_table
from torchguide.drills import all_drills

ROOT = Path(__file__).resolve().parents[2]
DRILLS = [drill for drill in all_drills().values() if drill.lab is None]  # a lab task lives in its lab


@pytest.mark.parametrize("drill", DRILLS, ids=[d.id for d in DRILLS])
def test_the_drill_section_follows_the_question_it_practises(drill):
    page = (ROOT / "docs" / f"{drill.page}.md").read_text()
    section = drill_section(drill)
    assert page.count(section) == 1, f"docs/{drill.page}.md lacks drill_section({drill.id!r}) as it is now"
    question = re.search(rf"^## .* \{{ #{drill.question} \}}$", page, re.M)
    between = page[question.end() : page.index(section)]
    assert "\n## " not in between, f"{drill.id} is not in the section of #{drill.question}"


def test_the_practice_page_lists_every_drill():
    nav = (ROOT / "mkdocs.yml").read_text()
    found = re.findall(r'- (?:"([^"\n]+)"|([^:\n]+)): (week-[\w/-]+\.md)', nav)  # quoted: a colon
    titles = {m[2].removesuffix(".md"): m[0] or m[1] for m in found}
    assert practice_table(DRILLS, titles) in (ROOT / "docs" / "practice.md").read_text()
    assert "Practice: practice.md" in nav
