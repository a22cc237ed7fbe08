"""MkDocs glue for the study features: reads every page's questions before any page renders,
generates the corrections index and the flash-card deck, and expands ``%answer`` lines."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docexec.hosts.mkdocs_plugin import planned_site
from studysite import (
    curriculum,
    deck_date,
    flashcards,
    folded_code,
    formulas,
    page_weight,
    questions,
    reading,
    search_index,
    study_pages,
)
from studysite.markdown_ext import StudyExtension

log = logging.getLogger("mkdocs.plugins.studysite")
T = TypeVar("T")
DECK_FILE = "study/pytorch-foundations.apkg"
KATEX_SCRIPT = "assets/katex/katex.min.js"  # the site's own KaTeX renders formulas at build time
# Search results should be answers: these pattern-named HTML parts of notebook pages are widgets.
NOTEBOOK_WIDGETS = (
    '<div class="jp-InputPrompt',
    '<div class="jp-OutputPrompt',
    '<div class="zeroclipboard-container',
    '<div class="clipboard-copy-txt',  # each code cell's source again, for the copy button
)


class StudySitePlugin(BasePlugin):
    def __init__(self) -> None:
        super().__init__()
        # What the last build made, made again only when its inputs changed: the deck, each
        # page's content and its last step (formulas, folds). Each took a tenth of a second of a
        # preview's rebuild, where most pages are those of the build before.
        self._made: dict[tuple[str, str], tuple[object, Any]] = {}

    def _remembered(self, what: str, name: str, inputs: object, make: Callable[[], T]) -> T:
        """``make()``, or what it gave for ``what`` of ``name`` last time, from the same ``inputs``."""
        kept = self._made.get((what, name))
        if kept is None or kept[0] != inputs:
            kept = self._made[(what, name)] = (inputs, make())
        return kept[1]

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Having this event, the instance lives through every rebuild of ``mkdocs serve``."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.questions: dict[str, questions.Question] = {}
        self._page = ""
        config.markdown_extensions.append(  # type: ignore[arg-type]
            StudyExtension(self.questions.get, lambda: self._page, log.warning)
        )
        config.markdown_extensions.append(  # type: ignore[arg-type]
            reading.ReadingExtension(lambda: list(self.questions.values()), lambda: self._page)
        )
        return config

    @event_priority(-50)  # after docexec's: the pages as its plan read them
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        self.questions.clear()
        pages = planned_site(config).markdown
        found, titles, topics, sources = [], {}, {}, []
        for file in files.documentation_pages():
            if file.src_uri in pages and file.abs_src_path:
                text = pages[file.src_uri]
                found += questions.parse(text, file.src_uri)
                titles[file.src_uri] = questions.page_title(text) or file.src_uri
                topics[file.src_uri] = curriculum.page_topics(text)
                sources.append(Path(file.abs_src_path))
        self.questions.update({q.url: q for q in found})
        for name, content in (
            (study_pages.CORRECTIONS_PAGE, study_pages.corrections_index(found, titles, log.warning)),
            (study_pages.STUDY_PAGE, study_pages.study_page(found, titles)),
            (study_pages.MOCK_PAGE, study_pages.mock_page(found, titles)),
        ):
            files.append(File.generated(config, name, content=content))
        sources_page = reading.sources_page(found, titles)
        files.append(File.generated(config, reading.SOURCES_PAGE, content=sources_page))
        # Stamped with the pages' last change (deck_date.py): the same pages give the same file in
        # every clone, an edited page a newer deck, whose notes Anki then updates on import.
        site_url, changed = config.site_url or "", deck_date.pages_changed(sources)
        places = curriculum.places(config.nav, titles, topics)
        inputs = (repr(found), site_url, changed, places)
        deck = self._remembered(
            "deck", "", inputs, lambda: flashcards.build_deck(found, site_url, changed, places)
        )
        files.append(File.generated(config, DECK_FILE, content=deck))
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        self._page = page.file.src_uri
        return markdown

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self._remembered("content", page.file.src_uri, html, lambda: _content(html, page.file.src_uri))

    @event_priority(-100)  # the page as written, after any other plugin changed it
    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        # Formulas here, not in the page's content: the search index keeps their TeX.
        katex = Path(config.docs_dir) / KATEX_SCRIPT

        def finish() -> tuple[str, dict[str, bytes]]:
            try:
                html = formulas.render(output, katex, f"docs/{page.file.src_uri}")
            except formulas.FormulaError as error:
                raise PluginError(str(error)) from None
            return folded_code.folded(html, page.url)

        inputs = (output, katex.stat().st_mtime_ns if katex.exists() else 0)
        html, folds = self._remembered("output", page.url, inputs, finish)
        folded_code.write(folds, Path(config.site_dir))  # MkDocs empties the site folder each build
        return html

    @event_priority(-100)  # after Material's search plugin has written its index
    def on_post_build(self, config: MkDocsConfig) -> None:
        index_file = Path(config.site_dir) / "search" / "search_index.json"
        if index_file.exists():
            search_index.reshape(index_file, {q.site_path for q in self.questions.values()})


def _content(html: str, src_uri: str) -> str:
    """A page's content without what the search index and the first load need not carry."""
    if src_uri.endswith(".ipynb"):
        for widget in NOTEBOOK_WIDGETS:
            html = html.replace(widget, widget.replace("<div ", "<div data-search-exclude ", 1))
    return page_weight.slim_code_markup(search_index.exclude_code_and_outputs(html))
