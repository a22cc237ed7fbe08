"""The search index stays small and holds what finds a question, not the code and outputs that
prove it; every page's first load stays within its budget (sizes, not timings: the figures
themselves are printed by `make bench`)."""

from __future__ import annotations

import html
import json
import re

from studysite.bench import FIRST_LOAD_BUDGET, SEARCH_INDEX, SEARCH_INDEX_BUDGET, PageLinks, by_weight
from torchguide.drills import all_drills


def test_the_search_index_stays_within_its_budget(built_site):
    size = (built_site.path / SEARCH_INDEX).stat().st_size
    assert size <= SEARCH_INDEX_BUDGET, f"the search index is {size} bytes, over {SEARCH_INDEX_BUDGET}"


def test_no_code_or_output_reaches_the_search_index(built_site):
    docs = json.loads((built_site.path / SEARCH_INDEX).read_text(encoding="utf-8"))["docs"]
    indexed = " ".join(doc["title"] + " " + doc["text"] + " " + doc.get("words", "") for doc in docs)
    # A traceback is shown on several pages as an intended output; a snippet's code imports torch.
    assert "Traceback" not in indexed
    assert "import torch" not in indexed
    assert "<pre>" not in indexed


def test_every_pages_first_load_stays_within_its_budget(built_site):
    """HTML, figures, scripts and the search index, as `python -m studysite.bench` prints them."""
    loads = by_weight(built_site.path)
    over = [load for load in loads if load.total > FIRST_LOAD_BUDGET]
    assert not over, "over the first-load budget:\n" + "\n".join(
        f"  {load.page}: {load.total} bytes {load.parts}" for load in over
    )


def test_the_study_scripts_are_fetched_only_where_they_are_used(built_site):
    """The scheduler arrives with a reader's first grade, the Study page's and the mock interview's
    scripts on those pages; every other page loads none of them."""
    for load in by_weight(built_site.path):
        scripts = PageLinks()
        scripts.feed((built_site.path / load.page).read_text(encoding="utf-8"))
        named = " ".join(scripts.scripts)
        assert "ts-fsrs" not in named and "mock.js" not in named and "study-page.js" not in named, load.page
    assert (built_site.path / "assets" / "vendor" / "ts-fsrs" / "ts-fsrs.min.js").is_file()


def test_a_drill_is_indexed_by_its_title_and_task_not_its_hints_or_solution(built_site):
    docs = json.loads((built_site.path / SEARCH_INDEX).read_text(encoding="utf-8"))["docs"]
    entries = {doc["location"]: doc for doc in docs}
    for drill in (drill for drill in all_drills().values() if drill.lab is None):
        entry = entries[f"{drill.page}/#{drill.anchor}"]
        assert drill.title in entry["title"]
        text = html.unescape(re.sub(r"<[^>]+>", "", entry["text"]))
        assert " ".join(drill.statement.split()[:6]).replace("`", "") in " ".join(text.split())
        assert "Hint" not in text and "reference solution" not in text, entry["location"]
        assert all(" ".join(hint.split()[:6]).replace("`", "") not in text for hint in drill.hints)


def test_a_lazy_figure_in_a_folded_box_is_not_part_of_the_first_load():
    """Chromium fetches a lazy image inside a closed <details> only when the box is opened."""
    links = PageLinks()
    links.feed(
        '<img src="shown.svg" loading="lazy"><details class="note"><summary>More</summary>'
        '<p><img src="folded.svg" loading="lazy"></p></details>'
        '<details open><img src="open.svg" loading="lazy"></details>'
        '<details><img src="eager.svg"></details><img src="after.svg" loading="lazy">'
    )
    assert links.images == ["shown.svg", "open.svg", "eager.svg", "after.svg"]
