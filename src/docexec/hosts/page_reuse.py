"""The live preview converts again only the pages whose inputs changed.

MkDocs 1.6 rebuilds every page on any change, and Markdown conversion is most of a rebuild's time.
Under ``mkdocs serve`` a page's converted content (its HTML, table of contents, title and anchors)
is kept from the build before and used again when everything its conversion reads is unchanged:

- the page's Markdown, as the other plugins handed it to the converter;
- the state of each snippet it embeds (``%run``): its source, its result, or that it still runs;
- the rest of the project: ``mkdocs.yml`` and every file outside the snippets folder (pages, the
  library that the reference pages document, recordings, the theme overrides), and the site's
  source files. Any edit there converts every page again, as before.

So saving a snippet converts the pages that embed it, and nothing else. A page's conversion also
registers its headings and documented objects with ``mkdocs-autorefs`` (cross-references) and
mkdocstrings' inventory: those calls are recorded and replayed when the page is reused. A page
that may include any file of the project (pymdownx.snippets' ``--8<--``) is converted every time.
MkDocs' own ``--dirty`` reload was not used: it leaves the unchanged pages out of the build, and
with them their entries in the search index and what the study pages gather.

Of docexec it knows only what `reuse_conversion` reads from the MkDocs plugin: the results and the
renderer state a page's conversion leaves behind, saved and restored with it."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

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
    host_state: object


class DocexecState:
    """What the ``%run`` renderer keeps of the page it converted, which the plugin reads after
    conversion (the snippet blocks' anchors, the outputs shown, the snippets still running)."""

    def __init__(
        self, renderer: Any, pending: Callable[[], set[str]], set_pending: Callable[[set[str]], None]
    ):
        self.renderer, self.pending, self.set_pending = renderer, pending, set_pending

    def save(self) -> object:
        return set(self.renderer.anchors), list(self.renderer.outcomes), set(self.pending())

    def restore(self, saved: object) -> None:
        anchors, outcomes, pending = saved  # type: ignore[misc]
        self.renderer.anchors, self.renderer.outcomes = set(anchors), list(outcomes)
        self.set_pending(set(pending))


class PageReuse:
    """Lives as long as the preview. ``skip``: folders whose files are keyed one by one (the
    snippets), left out of the project's digest; ``converted`` and ``reused`` name the pages of
    the last build."""

    def __init__(self, root: Path, skip: Iterable[Path] = ()) -> None:
        self.root = root
        self.skip = {Path(p).resolve() for p in skip}
        self._pages: dict[str, tuple[str, Converted]] = {}  # src_uri -> (key, what it gave)
        self._remembered: dict[str, tuple[str, Any]] = {}  # slot -> (key, value)
        self._indexed: dict[str, tuple[str, list]] = {}  # src_uri -> (key, its search entries)
        self.project = ""
        self._site_key: str | None = None
        self.converted: list[str] = []
        self.reused: list[str] = []

    def start_build(self, config: MkDocsConfig) -> None:
        """Before a build reads any page: digest the project as it is now."""
        self.project = project_digest(self.root, {*self.skip, Path(config.site_dir).resolve()})
        self._site_key = None
        self.converted, self.reused = [], []
        self._index_once(config)

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

    def remember(self, slot: str, inputs: Iterable[object], compute: Callable[[], Any]) -> Any:
        """``compute()``, or what it gave last time for ``slot`` when ``inputs`` and the project
        are unchanged (for work done per page outside conversion, such as its notebook)."""
        key = _digest([self.project, *inputs])
        kept = self._remembered.get(slot)
        if kept is not None and kept[0] == key:
            return kept[1]
        value = compute()
        self._remembered[slot] = (key, value)
        return value

    def convert_once(
        self,
        page: Page,
        config: MkDocsConfig,
        files: Files,
        inputs: Callable[[str], str],
        state: DocexecState,
    ) -> None:
        """Make ``page.render`` reuse the last conversion of ``page`` when its inputs match.
        ``inputs(markdown)``: the state of what the page embeds, read at conversion time."""
        original = page.render

        def render(config: MkDocsConfig, files: Files) -> None:
            # Notebook pages are mkdocs-jupyter's to convert, from their file
            if (
                page.markdown is None
                or not page.file.src_uri.endswith(".md")
                or INCLUDE_LINE.search(page.markdown)
            ):
                original(config, files)
                self.converted.append(page.file.src_uri)
                return
            key = _digest(
                [self._site(config, files), page.file.src_uri, page.markdown, inputs(page.markdown)]
            )
            kept = self._pages.get(page.file.src_uri)
            if kept is not None and kept[0] == key:
                _restore(page, kept[1], config, state)
                self.reused.append(page.file.src_uri)
                return
            self._pages.pop(page.file.src_uri, None)
            self._pages[page.file.src_uri] = (key, _convert(page, original, config, files, state))
            self.converted.append(page.file.src_uri)

        page.render = render  # type: ignore[method-assign]

    def _site(self, config: MkDocsConfig, files: Files) -> str:
        """The project's digest, the configuration and the site's source files, once per build
        (at the first page: by then every plugin has added its files)."""
        if self._site_key is None:
            config_text = Path(config.config_file_path).read_bytes() if config.config_file_path else b""
            sources = sorted(f.src_uri for f in files if f.generated_by is None)
            self._site_key = _digest([self.project, config_text, *sources])
        return self._site_key


def reuse_conversion(plugin: Any, page: Page, config: MkDocsConfig, files: Files) -> None:
    """The docexec plugin's hook (``on_page_markdown``): ``page`` reuses its last conversion when
    it embeds the same snippets with the same sources and results."""
    state = DocexecState(
        plugin.renderer, lambda: plugin._page_pending, lambda s: setattr(plugin, "_page_pending", s)
    )
    plugin.page_reuse.convert_once(
        page, config, files, lambda markdown: snippet_inputs(plugin, markdown), state
    )


def snippet_inputs(plugin: Any, markdown: str) -> str:
    """The state of each snippet the page embeds: still running, or its source and its result."""
    states = []
    for path in snippets_on_page(markdown):
        try:
            source = plugin.engine.key(path)  # the source, the library and the engine
        except OSError:
            source = "no such file"
        result = plugin.results.get(path)
        shown = "still running" if path in plugin.pending else repr(result.to_json() if result else None)
        states.append(f"{path}\0{source}\0{shown}")
    return "\n".join(states)


def snippets_on_page(markdown: str) -> list[str]:
    """The snippets a page embeds, from its ``%run`` lines (until the site build answers it)."""
    from docexec.render.markdown_ext import directive_lines

    return [path for _, _, path in directive_lines(markdown.splitlines())]


def _convert(
    page: Page, original: Callable, config: MkDocsConfig, files: Files, state: DocexecState
) -> Converted:
    """Convert ``page``, recording what it registers with autorefs and mkdocstrings."""
    registries = _registries(config)
    calls: list[tuple[str, tuple, dict]] = []
    for name, registry in registries.items():
        register, wrapped_before = registry.register, vars(registry.owner).get(registry.method)

        registry.register = _recording(name, register, calls)
        registry.wrapped_before = wrapped_before
    try:
        original(config, files)
    finally:
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
        host_state=state.save(),
    )


def _recording(name: str, register: Callable, calls: list) -> Callable:
    def recording(*args: Any, **kwargs: Any) -> None:
        calls.append((name, args, kwargs))
        register(*args, **kwargs)

    return recording


def _restore(page: Page, converted: Converted, config: MkDocsConfig, state: DocexecState) -> None:
    page.content = converted.content
    page.toc = converted.toc
    page._title_from_render = converted.title
    page.present_anchor_ids = set(converted.anchor_ids or ())
    page.links_to_anchors = converted.links_to_anchors
    registries = _registries(config)
    for name, args, kwargs in converted.registered:  # with this build's page object
        registries[name].register(*((page, *args) if name == "autorefs" else args), **kwargs)
    state.restore(converted.host_state)


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
