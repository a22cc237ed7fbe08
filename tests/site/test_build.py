"""The real site: it builds strictly, reuses the snippet results, and shows real outputs."""

import json
import re

from docexec.engine import Engine


def test_the_strict_build_reports_its_snippet_summary(built_site):
    assert re.search(r"docexec: \d+ executed, \d+ cached, \d+ skipped \(CUDA\)", built_site.log)
    assert "failed" not in built_site.log.split("docexec:")[1].splitlines()[0]


def test_after_a_build_every_snippet_is_cached(built_site, root):
    engine = Engine(root)
    cpu_snippets = [p for p in engine.all_snippets() if not engine.declarations(p).cuda]
    _, summary = engine.run(cpu_snippets, progress=False)
    assert summary.executed == 0, summary.line()
    assert summary.cached == len(cpu_snippets)


def test_the_proving_ground_shows_each_kind_of_output(built_site):
    page = (built_site.path / "how-this-site-works" / "index.html").read_text()
    assert "strides (1, 3)" in page  # plain output, really printed
    assert "Raises RuntimeError (as intended)" in page and "view size is not compatible" in page
    assert "Runs on the CUDA runner" in page
    assert "&lt;script&gt;document.title" in page and "<script>document.title" not in page
    assert page.count('class="docexec-provenance"') >= 5
    images = re.findall(r'<img alt="Figure 1: Two activations" class="docexec-figure" src="([^"]+)"', page)
    assert images and all(
        (built_site.path / "how-this-site-works" / src).resolve().is_file() for src in images
    )


def test_the_lab_is_a_notebook_page_with_outputs_and_a_download(built_site):
    lab = built_site.path / "labs" / "broadcasting"
    page = (lab / "index.html").read_text()
    assert "strides of the expanded view: (1, 0)" in page
    assert json.loads((lab / "broadcasting.ipynb").read_text())["cells"]


def test_no_page_loads_anything_from_another_host(built_site):
    # Links to other sites are fine; a script, style sheet, image or frame from one is not.
    loads = re.compile(
        r'<(?:script|img|iframe)\b[^>]*\bsrc="(?:https?:)?//'
        r'|<link\b(?=[^>]*\brel="(?:stylesheet|preload|preconnect|modulepreload|icon)")[^>]*\bhref="(?:https?:)?//'
    )
    for page in built_site.path.rglob("*.html"):
        found = loads.findall(page.read_text())
        assert not found, f"{page.relative_to(built_site.path)} loads from another host: {found}"


def test_search_index_holds_every_page(built_site):
    index = json.loads((built_site.path / "search" / "search_index.json").read_text())
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    for page in ["", "how-this-site-works/", "contributing/", "week-1/day-1/memory-and-views/", "review/"]:
        assert page in locations
