"""The real site: it builds strictly, reuses the snippet results, and shows real outputs."""

import dataclasses
import json
import os
import re
from pathlib import Path

import nbformat
import pytest

from docexec import config, recordings
from docexec.directives import directive_lines
from docexec.execution import declarations
from docexec.execution.engine import Engine
from docexec.execution.result import Status
from studysite import drill_cells

FIGURES = Path(__file__).with_name("figures.json")
UPDATE_FIGURES = "UPDATE_FIGURES=1 .venv/bin/pytest tests/site/test_build.py -k figures"


def test_the_strict_build_reports_its_snippet_summary(built_site):
    assert re.search(r"docexec: \d+ executed, \d+ cached, \d+ skipped \(CUDA\)", built_site.log)
    assert "failed" not in built_site.log.split("docexec:")[1].splitlines()[0]


def test_after_a_build_every_snippet_is_cached(built_site, root):
    engine = Engine(root, config.from_environment(root))  # the build's device and cache
    cpu_snippets = [p for p in engine.all_snippets() if not engine.declarations(p).cuda]
    _, summary = engine.execute(cpu_snippets, progress=False)
    assert summary.executed == 0, summary.line()
    assert summary.cached == len(cpu_snippets)


def test_the_proving_ground_shows_each_kind_of_output(built_site, root):
    page = (built_site.path / "how-this-site-works" / "index.html").read_text()
    assert "strides (1, 3)" in page  # plain output, really printed
    assert "Raises RuntimeError, as intended" in page and "view size is not compatible" in page
    on_gpu = Engine(root, config.from_environment(root)).environment["device"] == "cuda"
    assert on_gpu or "Needs a GPU" in page or "Recorded on" in page  # no output made up without a GPU
    assert "&lt;script&gt;document.title" in page and "<script>document.title" not in page
    assert page.count('class="docexec-page-line"') == 1 and 'class="docexec-provenance"' not in page
    images = re.findall(r'<img alt="Two activations" [^>]*src="([^"]+)"', page)
    assert images and all(
        (built_site.path / "how-this-site-works" / src).resolve().is_file() for src in images
    )


def test_the_build_report_lists_every_snippet_the_site_shows(built_site, root):
    report = (built_site.path / "build-report" / "index.html").read_text()
    shown = set()
    for page in (root / "docs").rglob("*.md"):
        shown.update(path for _, _, path in directive_lines(page.read_text().splitlines()))
    shown.update(p.relative_to(root).as_posix() for p in (root / "snippets" / "labs").glob("*.py"))
    for path in shown:
        assert f"<code>{Path(path).stem}</code>" in report, path
    index = json.loads((built_site.path / "search" / "search_index.json").read_text())
    assert not any(doc["location"].startswith("build-report/") for doc in index["docs"])


def _pages_with_snippets(root: Path) -> dict[str, list[str]]:
    pages = {}
    for page in sorted((root / "docs").rglob("*.md")):
        paths = [path for _, _, path in directive_lines(page.read_text().splitlines())]
        if paths:
            pages[page.relative_to(root / "docs").as_posix()] = paths
    return pages


def test_every_page_with_snippets_is_a_valid_notebook_of_its_snippets_and_outputs(built_site, root):
    engine = Engine(root, config.from_environment(root))  # the build's device and cache
    pages = _pages_with_snippets(root)
    assert pages
    for src_uri, paths in pages.items():
        page = Path(src_uri)
        folder = page.parent if page.stem == "index" else page.with_suffix("")
        name = (page.parent.name or "index") if page.stem == "index" else page.stem
        notebook = nbformat.read(built_site.path / folder / f"{name}.ipynb", as_version=4)
        nbformat.validate(notebook)
        first = notebook.cells[0]
        assert first.cell_type == "code"
        assert [line for line in first.source.splitlines() if line.startswith("%pip install torch==")]
        # A drill's reference solution is folded Markdown, not code: every other snippet is a code cell.
        shown = [cell for cell in notebook.cells[1:] if "snippet" in cell.metadata.get("docexec", {})]
        assert [cell.metadata["docexec"]["snippet"] for cell in shown] == paths, src_uri
        results, _ = engine.execute(sorted(set(paths)), progress=False)
        for cell, path in zip(shown, paths, strict=True):
            source = (root / path).read_text()
            whole = dataclasses.replace(declarations.parse(source, path), show=None)
            displayed = declarations.displayed_source(source, whole).strip()
            if cell.cell_type == "markdown":
                assert cell.metadata["docexec"]["role"] == "solution", path
                assert drill_cells.split_solution(displayed)[0] in cell.source, path
                assert results[path].output.strip() in cell.source, path
                continue
            cuda = declarations.parse(source, path).cuda  # marked to skip where there is no GPU
            assert cell.source.strip() == (f"%%needs_cuda\n{displayed}" if cuda else displayed), path
            printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            result = results[path]
            recording = recordings.load(root, path) if result.status == Status.SKIPPED else None
            if recording is not None and not recording.stale:  # a CUDA cell shows its GPU recording
                result = recording.result
            assert printed == result.output, path


def _figure_records(root: Path) -> dict[str, list[dict]]:
    engine = Engine(root, config.from_environment(root))  # the build's device and cache
    paths = [p for p in engine.all_snippets() if not engine.declarations(p).cuda]
    results, _ = engine.execute(paths, progress=False)
    return {
        path: [
            {"title": f.title, "format": f.format, "width": f.width, "height": f.height, "marks": f.marks}
            for f in result.figures
        ]
        for path, result in sorted(results.items())
        if result.figures
    }


def test_figures_are_drawn_and_keep_their_recorded_sizes(root):
    found = _figure_records(root)
    for path, figures in found.items():
        for figure in figures:
            assert figure["marks"] > 0, f"{path}: the figure {figure['title']!r} draws nothing"
    if os.environ.get("UPDATE_FIGURES"):
        FIGURES.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(FIGURES.read_text())
    assert sorted(found) == sorted(recorded), f"figures were added or removed: run {UPDATE_FIGURES}"
    for path, figures in found.items():
        then = recorded[path]
        assert [f["title"] for f in figures] == [f["title"] for f in then], f"{path}: run {UPDATE_FIGURES}"
        for now, before in zip(figures, then, strict=True):
            changed = (
                f"{path}: {now['title']!r} changed from {before} to {now}; if meant, run {UPDATE_FIGURES}"
            )
            assert now["format"] == before["format"] and now["marks"] == before["marks"], changed
            assert now["width"] == pytest.approx(before["width"], rel=0.03), changed
            assert now["height"] == pytest.approx(before["height"], rel=0.03), changed


def test_the_lab_is_a_notebook_page_with_outputs_and_a_download(built_site):
    lab = built_site.path / "labs" / "broadcasting"
    page = (lab / "index.html").read_text()
    assert "strides of the expanded view: (1, 0)" in page
    assert 'href="broadcasting.ipynb" download' in page  # relative: works under any sub-path
    assert json.loads((lab / "broadcasting.ipynb").read_text())["cells"]


def test_no_page_weighs_a_megabyte_with_its_images(built_site):
    for page in built_site.path.rglob("*.html"):
        html = page.read_text()
        figures = {
            (page.parent / src).resolve()
            for src in re.findall(r'<img [^>]*src="([^"]+\.(?:svg|png))"', html)
            if not src.startswith(("data:", "http"))
        }
        weight = len(html.encode()) + sum(f.stat().st_size for f in figures)
        assert weight < 1_000_000, f"{page.relative_to(built_site.path)}: {weight:,} bytes with its figures"
        assert "__codelineno" not in html  # no per-line anchors


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
    for page in ["", "week-1/day-1/memory-and-views/", "week-1/autograd/", "review/"]:
        assert page in locations
    for page in ["how-this-site-works/", "contributing/", "build-report/"]:  # `search: exclude`
        assert page not in locations
