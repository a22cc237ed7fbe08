"""The search index stays small and holds what finds a question, not the code and outputs that
prove it (sizes, not timings: the figures themselves are printed by `make bench`)."""

from __future__ import annotations

import json

from studysite.bench import SEARCH_INDEX, SEARCH_INDEX_BUDGET


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
