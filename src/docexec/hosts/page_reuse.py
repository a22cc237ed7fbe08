"""The live preview converts again only the pages whose inputs changed.

MkDocs 1.6 rebuilds every page on any change, and Markdown conversion is most of a rebuild's time.
Under ``mkdocs serve`` a page's converted content (its HTML, table of contents, title and anchors)
is kept from the build before and used again when everything its conversion reads is unchanged:

- the page's Markdown, as the other plugins handed it to the converter;
- its plan in the site build (`docexec.site.PagePlan`): each snippet it embeds (``%run``), with its
  source, its declarations and its result, or that it still runs;
- the rest of the project: ``mkdocs.yml`` and every file outside the snippets folder (pages, the
  library that the reference pages document, recordings, the theme overrides), and the site's
  source files. Any edit there converts every page again, as before.

So saving a snippet converts the pages whose plans use it, and nothing else. A page's conversion
also registers its headings and documented objects with ``mkdocs-autorefs`` (cross-references) and
mkdocstrings' inventory, and may log warnings (a failed snippet, a broken link): those are recorded
and replayed when the page is reused. A page that may include any file of the project
(pymdownx.snippets' ``--8<--``), or whose ``%run`` lines are not those of its plan, is converted
every time. MkDocs' own ``--dirty`` reload was not used: it leaves the unchanged pages out of the
build, and with them their entries in the search index and what the study pages gather.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import logging
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from docexec.directives import directives
from docexec.render.site_files import plan_key
from docexec.site import PagePlan

# pymdownx.snippets' include line: it may include any file, so such a page is always converted
INCLUDE_LINE = re.compile(r"^[ \t]*-+8<-+", re.MULTILINE)


@dataclasses.dataclass
class Converted:
    """What `Page.render` leaves on a page, and what the conversion left elsewhere."""

    content: str
    toc: Any
    title: str | None
    anchor_ids: set[str] | None
    links_to_anchors: Any
    registered: list[tuple[str, tuple, dict]]  # (registry, arguments) to replay
    logged: list[logging.LogRecord]  # its warnings, said again when it is reused


class PageReuse:
    """Lives as long as the preview. ``skip``: folders whose files are keyed one by one (the
    snippets), left out of the project's digest; ``converted`` and ``reused`` name the pages of
    the last build."""

    def __init__(self, root: Path, skip: Iterable[Path] = ()) -> None:
        self.root = root
        self.skip = {Path(p).resolve() for p in skip}
        self._pages: dict[str, tuple[str, Converted]] = {}  # src_uri -> (key, what it gave)
        self._indexed: dict[str, tuple[str, list]] = {}  # src_uri -> (key, its search entries)
        self.project = ""
        self._site_key: str | None = None
        self.converted: list[str] = []
        self.reused: list[str] = []

    def start_build(self, site_dir: str) -> None:
        """Before a build reads any page: digest the project as it is now, less ``site_dir``."""
        self.project = project_digest(self.root, {*self.skip, Path(site_dir).resolve()})
        self._site_key = None
        self.converted, self.reused = [], []

    def reuse_conversion(
        self, page: Page, plan: PagePlan | None, snippets: str, config: MkDocsConfig, files: Files
    ) -> None:
        """The host's hook, once per page before it is converted (MkDocs: ``on_page_markdown``):
        ``page`` reuses its last conversion when its Markdown and ``plan`` are those of then.
        ``snippets``: the snippets folder, whose ``%run`` lines the plan must match."""
        if self._site_key is None:  # the first page of this build
            self._site_key = self._site(config, files)
            self._index_once(config)
        original = page.render

        def render(config: MkDocsConfig, files: Files) -> None:
            key = self._page_key(page, plan, snippets)
            kept = self._pages.get(page.file.src_uri)
            if key is not None and kept is not None and kept[0] == key:
                _restore(page, kept[1], config)
                self.reused.append(page.file.src_uri)
                return
            self._pages.pop(page.file.src_uri, None)
            converted = _convert(page, original, config, files)
            if key is not None:
                self._pages[page.file.src_uri] = (key, converted)
            self.converted.append(page.file.src_uri)

        page.render = render  # type: ignore[method-assign]

    def _page_key(self, page: Page, plan: PagePlan | None, snippets: str) -> str | None:
        """What the page's conversion reads; None when it cannot be known (always converted):
        a notebook page (mkdocs-jupyter's to convert, from its file), an include line, or ``%run``
        lines the renderer would plan anew."""
        markdown = page.markdown
        if markdown is None or not page.file.src_uri.endswith(".md") or INCLUDE_LINE.search(markdown):
            return None
        found = directives(markdown.splitlines(), snippets)
        if (plan is None and found) or (plan is not None and not plan.matches(found)):
            return None
        return _digest([self._site_key, page.file.src_uri, markdown, plan_key(plan)])

    def _site(self, config: MkDocsConfig, files: Files) -> str:
        """The project's digest, the configuration and the site's source files, once per build
        (at the first page: by then every plugin has added its files)."""
        config_text = Path(config.config_file_path).read_bytes() if config.config_file_path else b""
        sources = sorted(f.src_uri for f in files if f.generated_by is None)
        return _digest([self.project, config_text, *sources])

    def _index_once(self, config: MkDocsConfig) -> None:
        """Material's search plugin parses every page's HTML again each build, which takes as long
        as converting them: a page whose final HTML, outline and metadata are unchanged gives the
        entries it gave before. Its index is new each build, so this wraps the new one."""
        search = next((p for p in config.plugins.values() if hasattr(p, "search_index")), None)
        index = getattr(search, "search_index", None)
        if index is None or not hasattr(index, "add_entry_from_context") or not hasattr(index, "entries"):
            return
        add_entry = index.add_entry_from_context

        def add_entry_once(page: Page) -> None:
            meta = {name: page.meta.get(name) for name in ("search", "tags", "title")}
            key = _digest([self.project, page.url, page.content, _outline(page.toc), page.title, repr(meta)])
            kept = self._indexed.get(page.file.src_uri)
            if kept is not None and kept[0] == key:
                index.entries.extend(copy.deepcopy(kept[1]))
                return
            before = len(index.entries)
            add_entry(page)
            self._indexed[page.file.src_uri] = (key, copy.deepcopy(index.entries[before:]))

        index.add_entry_from_context = add_entry_once


def _convert(page: Page, original: Callable, config: MkDocsConfig, files: Files) -> Converted:
    """Convert ``page``, recording what it registers with autorefs and mkdocstrings and what it
    warns of."""
    logged = _Logged()
    logging.getLogger("mkdocs").addHandler(logged)
    registries = _registries(config)
    calls: list[tuple[str, tuple, dict]] = []
    for name, registry in registries.items():
        register, wrapped_before = registry.register, vars(registry.owner).get(registry.method)

        registry.register = _recording(name, register, calls)
        registry.wrapped_before = wrapped_before
    try:
        original(config, files)
    finally:
        logging.getLogger("mkdocs").removeHandler(logged)
        for registry in registries.values():
            if registry.wrapped_before is None:
                del registry.register  # the class's method again
            else:
                registry.register = registry.wrapped_before
    return Converted(
        content=page.content or "",
        toc=page.toc,
        title=page._title_from_render,
        anchor_ids=set(page.present_anchor_ids or ()),
        links_to_anchors=page.links_to_anchors,
        registered=[(name, args[1:] if name == "autorefs" else args, kwargs) for name, args, kwargs in calls],
        logged=logged.records,
    )


def _recording(name: str, register: Callable, calls: list) -> Callable:
    def recording(*args: Any, **kwargs: Any) -> None:
        calls.append((name, args, kwargs))
        register(*args, **kwargs)

    return recording


class _Logged(logging.Handler):
    """The warnings of one conversion (a failed snippet, a broken link): a strict build counts
    them, the console shows them, on every build."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _restore(page: Page, converted: Converted, config: MkDocsConfig) -> None:
    page.content = converted.content
    page.toc = converted.toc
    page._title_from_render = converted.title
    page.present_anchor_ids = set(converted.anchor_ids or ())
    page.links_to_anchors = converted.links_to_anchors
    registries = _registries(config)
    for name, args, kwargs in converted.registered:  # with this build's page object
        registries[name].register(*((page, *args) if name == "autorefs" else args), **kwargs)
    for record in converted.logged:
        logging.getLogger(record.name).handle(record)


class _Registry:
    """A method through which a page's conversion leaves state in another plugin."""

    def __init__(self, owner: Any, method: str) -> None:
        self.owner, self.method = owner, method
        self.wrapped_before: Any = None

    @property
    def register(self) -> Callable:
        return getattr(self.owner, self.method)

    @register.setter
    def register(self, function: Callable) -> None:
        setattr(self.owner, self.method, function)

    @register.deleter
    def register(self) -> None:
        delattr(self.owner, self.method)


def _registries(config: MkDocsConfig) -> dict[str, Any]:
    """autorefs learns each heading and documented object (for cross-references); mkdocstrings'
    inventory each documented object (objects.inv)."""
    found = {}
    autorefs = config.plugins.get("autorefs")
    if autorefs is not None and hasattr(autorefs, "register_anchor"):
        found["autorefs"] = _Registry(autorefs, "register_anchor")
    try:
        inventory = config.plugins["mkdocstrings"].handlers.inventory  # type: ignore[attr-defined]
    except Exception:  # no mkdocstrings, or no handler yet
        inventory = None
    if inventory is not None and hasattr(inventory, "register"):
        found["mkdocstrings"] = _Registry(inventory, "register")
    return found


def _outline(toc: Any) -> str:
    """A table of contents as text: each heading's level, id, url and title."""
    lines: list[str] = []

    def walk(items: Any) -> None:
        for item in items or ():
            lines.append(f"{item.level} {item.id} {item.url} {item.title}")
            walk(item.children)

    walk(toc)
    return "\n".join(lines)


def project_digest(root: Path, skip: set[Path]) -> str:
    """Every file of the project by name, size and modification time, outside hidden folders,
    caches and ``skip``: any edit there changes it."""
    stats = []
    for folder, folders, names in os.walk(root):
        here = Path(folder)
        folders[:] = sorted(
            name
            for name in folders
            if not name.startswith(".")
            and name not in ("__pycache__", "node_modules")
            and (here / name).resolve() not in skip
        )
        for name in sorted(names):
            try:
                stat = (here / name).stat()
            except OSError:
                continue  # deleted meanwhile: the next build sees it
            stats.append(f"{(here / name).relative_to(root).as_posix()} {stat.st_size} {stat.st_mtime_ns}")
    return _digest(stats)


def _digest(parts: Iterable[object]) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.hexdigest()
