"""What a site adds beside its pages, from the plan (`docexec.site`): the figures, each page's
notebook, the labs' notebooks and the build report, as files for any host to add."""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import posixpath
from collections.abc import Callable, Iterable
from pathlib import Path

import nbformat

from docexec.execution.result import Status
from docexec.render import build_report, notebooks, provenance
from docexec.render.figure_files import FIGURES_DIR, figure_name, served_bytes
from docexec.render.focus import in_focus
from docexec.render.publication import Publication
from docexec.site import PagePlan, Site, SiteBuild, Use, lab_page, lab_snippets

log = logging.getLogger("mkdocs.plugins.docexec")


def markdown_pages(files: Iterable[tuple[str, str | None]]) -> dict[str, str]:
    """{page uri: Markdown} of the pages written as files (a generated page runs no snippets)."""
    written = [(uri, path) for uri, path in files if path and uri.endswith(".md")]
    return {uri: Path(path).read_text(encoding="utf-8") for uri, path in written}


def figures(site: Site, store: Path | None = None) -> dict[str, bytes]:
    """Every figure the pages show (recorded GPU outputs included), by its path in the site.
    ``store``: where the figures as served are kept between builds (`Config.figure_store`)."""
    found = {figure_name(f, store): f for result in site.shown_results() for f in result.figures}
    return {f"{FIGURES_DIR}/{name}": served_bytes(figure, store) for name, figure in sorted(found.items())}


def plan_key(plan: PagePlan | None) -> str:
    """Everything ``plan`` gives the page made from it, as text: two plans with the same key make
    the same page and the same notebook (the preview reuses them on that)."""
    uses = []
    for use in plan.uses if plan else ():
        recorded = use.recording
        recording = recorded and [recorded.recorded, recorded.stale, recorded.result.to_json()]
        fields = [use.line, use.indent, use.path, use.source, use.problem, use.named_a_snippet]
        uses.append([*fields, repr(use.declarations), use.result.to_json(), recording])
    return json.dumps(uses, sort_keys=True, default=str)


class NotebookMemo:
    """The notebooks of the builds before (a preview's rebuilds): a page's or lab's notebook is made
    again only when what it is made from (its key), or the URL of a page it links to, changed."""

    def __init__(self) -> None:
        self._made: dict[str, tuple[str, dict[str, str | None], str]] = {}  # uri -> (key, links, text)

    def notebook(
        self, uri: str, key: str, url_of: Callable[[str], str | None], make: Callable[[Callable], str]
    ) -> str:
        """``make(url_of)``'s notebook, or the one it made for ``uri`` with this ``key`` and links."""
        kept = self._made.get(uri)
        if kept and kept[0] == key and all(url_of(target) == url for target, url in kept[1].items()):
            return kept[2]
        asked: dict[str, str | None] = {}

        def asking(target: str) -> str | None:
            asked[target] = url_of(target)
            return asked[target]

        text = make(asking)
        self._made[uri] = (key, asked, text)
        return text


def page_notebooks(
    site: Site,
    build: SiteBuild,
    repository: str | None,
    url_of: Callable[[str, str], str | None] = lambda target, page: None,
    memo: NotebookMemo | None = None,
) -> dict[str, str]:
    """Page uri -> its notebook (text), for each page that runs snippets; a page with a broken
    ``%run`` line has none (the page reports it). ``url_of(target, page)``: a link's published URL;
    ``memo``: the notebooks of the builds before, reused where nothing they read changed."""
    memo = memo or NotebookMemo()
    made = {}
    for uri, plan in sorted(site.pages.items()):
        if not plan.uses:
            continue

        def make(links: Callable[[str], str | None], plan: PagePlan = plan, uri: str = uri) -> str:
            notebook = notebooks.notebook_for_page(
                plan, site.markdown[uri], build.environment, build.config, repository, url_of=links
            )
            return nbformat.writes(notebook)

        inputs = [site.markdown[uri], plan_key(plan), build.environment, build.config, repository]
        try:
            made[uri] = memo.notebook(uri, repr(inputs), lambda target, uri=uri: url_of(target, uri), make)
        except notebooks.NotebookError:
            continue
    return made


def write_labs(
    site: Site, build: SiteBuild, pages_root: Path, repository: str | None, memo: NotebookMemo | None = None
) -> list[str]:
    """Write each lab's filled notebook under ``pages_root``; the page uris of those written. A lab
    that failed or cannot be made is a warning (the strict build fails on it). ``memo``: a
    preview's notebooks of the builds before, made again only where the lab or its result changed."""
    memo = memo or NotebookMemo()
    written = []
    for uri, lab in sorted(site.labs.items()):
        if lab.result.status == Status.FAILED:
            log.warning("lab %s failed: %s", uri, lab.result.failure)
        inputs = [lab.path, lab.source, lab.problem, lab.result.to_json(), build.environment, build.config]

        def make(links: Callable, lab: Use = lab) -> str:
            notebook = notebooks.lab_notebook(build.root, lab, build.config, build.environment, repository)
            return nbformat.writes(notebook)

        try:
            text = memo.notebook(uri, repr([*inputs, repository]), lambda target: None, make)
        except notebooks.NotebookError as error:
            log.warning("%s", error)
            continue
        notebooks.write_notebook(pages_root / uri, text)
        written.append(uri)
    return written


def report(site: Site, environment: dict, built: datetime.date) -> tuple[str, str]:
    """The build report: its page uri and Markdown."""
    return build_report.PAGE, build_report.markdown(
        site.results, site.shown_on(), environment, built, site.recordings()
    )


def pending_note(count: int, progress: str) -> str:
    """Said on a preview's page whose outputs are still running."""
    many = count != 1
    return (
        '<div class="admonition info docexec-pending"><p class="admonition-title">Outputs on '
        f"their way</p><p>{count} snippet{'s' if many else ''} of this page "
        f"{'are' if many else 'is'} still running ({progress}); the page reloads with "
        "their outputs.</p></div>"
    )


def after_title(html: str, line: str) -> str:
    """``line`` right under the page's first heading (at the top where there is none)."""
    end = html.find("</h1>")
    if end < 0:
        return line + html
    end += len("</h1>")
    return html[:end] + "\n" + line + html[end:]


@dataclasses.dataclass
class Made:
    """One build of the site: its plan, the labs written, the files it adds beside its pages (by
    path in the built site) and each page's notebook's file name; where the notebooks are
    published (for Colab links), if known."""

    site: Site
    build: SiteBuild
    built: datetime.date | None  # None: execution is off (no page line, no notebooks, no report)
    lab_pages: list[str]
    files: dict[str, str | bytes]
    notebooks: dict[str, str]
    publication: Publication | None = None

    def notebook_name(self, uri: str) -> str | None:
        """The file name of the notebook of page (or lab) ``uri``, beside its HTML, if it has one
        (mkdocs-jupyter puts a lab's source there)."""
        return posixpath.basename(uri) if uri in self.lab_pages else self.notebooks.get(uri)

    def page_html(self, html: str, uri: str, progress: Callable[[], str], folder: str | None = None) -> str:
        """A rendered page with what the build says of it: that outputs are on their way, where
        they were produced and its notebook; a lab's page without what mkdocs-jupyter inlines.
        ``folder``: the folder of the page's HTML in the built site, where its notebook is; its
        Colab link needs it."""
        plan = self.site.pages.get(uri) or PagePlan(uri, uri, [])
        lab = self.site.labs.get(uri) if uri in self.lab_pages else None
        if plan.still_running:
            html = after_title(html, pending_note(len({use.path for use in plan.still_running}), progress()))
        html = notebooks.lighten(html) if lab else html
        if self.built is not None and (any(use.problem is None for use in plan.uses) or lab):
            needs_gpu = plan.needs_gpu() + ([bool(lab.declarations and lab.declarations.cuda)] if lab else [])
            notebook = self.notebook_name(uri)
            colab = None
            if self.publication and notebook and folder is not None:
                colab = self.publication.colab_url(posixpath.join(folder, notebook))
            line = provenance.page_line_html(self.build.environment, self.built, notebook, needs_gpu, colab)
            html = after_title(html, line)
        return html

    def summary(self) -> str:
        if self.built is None:
            return "execution is switched off (plugin option execute: false)"
        running = {use.path for plan in self.site.pages.values() for use in plan.still_running}
        return self.site.summary.line() + (f"; {len(running)} still running" if running else "")


def make(
    build: SiteBuild,
    pages: dict[str, str],
    focus: frozenset[str],
    labs_root: Path,
    repository: str | None,
    built: datetime.date | None,
    folder_of: Callable[[str], str],
    url_of: Callable[[str, str], str | None] = lambda target, page: None,
    memo: NotebookMemo | None = None,
    publication: Publication | None = None,
) -> Made:
    """Plan the site (only the pages in ``focus``, where it names any) and make what it adds: the
    labs' notebooks written under ``labs_root`` (a host serves them from there), the rest as files.
    ``folder_of(uri)``: the folder of a page's HTML in the built site, where its notebook goes;
    ``url_of(target, page)``: a link's URL; ``memo``: a preview's notebooks of the builds before;
    ``publication``: where the notebooks are published, which they install the project from (else
    from ``repository`` as it is)."""
    if publication is not None:
        repository = publication.install_url()
    labs = [p for p in lab_snippets(build.root, build.config) if in_focus(focus, lab_page(p, build.config))]
    site = build.plan({uri: text for uri, text in pages.items() if in_focus(focus, uri)}, labs)
    lab_pages = write_labs(site, build, labs_root, repository, memo)
    added: dict[str, str | bytes] = dict(figures(site, build.config.figure_store))
    names = {}
    if built is not None:
        for uri, text in page_notebooks(site, build, repository, url_of, memo).items():
            names[uri] = notebooks.file_name(uri)
            added[posixpath.join(folder_of(uri), names[uri])] = text
        page, text = report(site, build.environment, built)
        added[page] = text
    return Made(site, build, built, lab_pages, added, names, publication)


def published_url(
    file_of: Callable[[str], object | None], site_url: str | None
) -> Callable[[str, str], str | None]:
    """A link's target on the published site (``url_of(target, page)``), for a notebook read away
    from it; ``file_of(uri)``: the host's file of a page, with its ``url``."""

    def url_of(target: str, page: str) -> str | None:
        linked = file_of(posixpath.normpath(posixpath.join(posixpath.dirname(page), target)))
        return site_url.rstrip("/") + "/" + linked.url if linked is not None and site_url else None  # type: ignore[attr-defined]

    return url_of


__all__ = [
    "Made",
    "NotebookMemo",
    "after_title",
    "make",
    "figures",
    "page_notebooks",
    "pending_note",
    "plan_key",
    "published_url",
    "write_labs",
]
