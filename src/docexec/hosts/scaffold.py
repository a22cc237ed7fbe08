"""``docexec new``: a new page from the project's templates folder (``[tool.docexec] templates``:
its ``page.md``, a sample page), with its snippets folder, a first snippet from the templates'
``snippet.py``, and its entry in the navigation.

The engine fills in what every page has: the title (the sample's first ``# `` heading), its
snippet (the sample's one ``%run`` line, and the links to that snippet's block). What else the
sample holds that a new page words its own way, the project says in the module that
``new-page`` in its configuration names (`NewPageFields`): the command-line options it adds, and
the text of the sample each replaces.
"""

from __future__ import annotations

import importlib
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import yaml

from docexec import checks
from docexec.config import PYPROJECT, TABLE, Config, ConfigError
from docexec.config import load as load_config

PAGE_TEMPLATE = "page.md"  # in the templates folder
SNIPPET_TEMPLATE = "snippet.py"
# The template's title (its first heading) and its one %run line, whatever example path it names.
TEMPLATE_TITLE = re.compile(r"^# .*$", re.MULTILINE)
TEMPLATE_RUN = re.compile(r"^%run (?P<path>\S+\.py)$", re.MULTILINE)
_NAV_ITEM = re.compile(r"^(?P<indent> *)- (?P<text>.*?)\s*$")
_PAGE = re.compile(r"(?:^|: )(?P<path>[^:]+\.(?:md|ipynb))$")


class ScaffoldError(ValueError):
    pass


@dataclass(frozen=True)
class NewPage:
    """What a `NewPageFields` hook is given: the new page as the command line asked for it."""

    page: str  # its path under the docs folder, without ``.md``
    title: str
    snippet_path: str  # its first snippet, from the project's root
    options: dict[str, str | None] = field(default_factory=dict)  # the hook's own options, by name


class NewPageFields(Protocol):
    """The project's hook over ``docexec new`` (``new-page``): a module, or any object, with these."""

    OPTIONS: dict[str, str]  # the command-line options it adds (``--name``), with their help

    def fields(self, new: NewPage) -> dict[str, str]:
        """Each text of the sample page to replace, with what the new page says there; raises
        ValueError for options that cannot be used."""
        ...


class _NoFields:
    OPTIONS: dict[str, str] = {}

    @staticmethod
    def fields(new: NewPage) -> dict[str, str]:
        return {}


def page_hook(config: Config) -> NewPageFields:
    """The project's ``new-page`` hook, imported; raises `ScaffoldError`."""
    if config.new_page is None:
        return _NoFields()
    where = f"{PYPROJECT} [{TABLE}] new-page"
    try:
        hook = importlib.import_module(config.new_page)
    except ImportError as error:
        raise ScaffoldError(f"{where}: cannot import {config.new_page!r}: {error}") from None
    if not isinstance(getattr(hook, "OPTIONS", None), dict) or not callable(getattr(hook, "fields", None)):
        raise ScaffoldError(f"{where}: {config.new_page} needs an OPTIONS dict and a fields function")
    return hook  # type: ignore[return-value]


def hook_options(root: Path) -> dict[str, str]:
    """The options the project's ``new-page`` hook adds to ``docexec new``; none where the project
    or its hook cannot be read (``docexec new`` then says why)."""
    try:
        return dict(page_hook(load_config(root)).OPTIONS)
    except (ConfigError, ScaffoldError, OSError):
        return {}


@dataclass
class Created:
    page: Path
    snippet: Path
    nav_line: int  # 1-based line of the new entry in mkdocs.yml

    def report(self, root: Path) -> str:
        return (
            f"created {self.page.relative_to(root)}\n"
            f"created {self.snippet.relative_to(root)}\n"
            f"added to nav: mkdocs.yml:{self.nav_line} (move it if another place suits it better)"
        )


def page_path(given: str, docs: str = Config.docs) -> str:
    """``guide/first-steps`` from that, with the docs folder before or ``.md`` after."""
    path = given.strip().removeprefix(docs.rstrip("/") + "/").removesuffix(".md").strip("/")
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)*", path):
        raise ScaffoldError(f"{given}: a page path is lowercase words joined by hyphens, in folders")
    return path


def anchor_of(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def new_page(
    root: Path,
    page: str,
    title: str,
    snippet: str,
    options: dict[str, str | None] | None = None,
    config: Config | None = None,
) -> Created:
    """Create the page ``<docs>/<page>.md``, ``<snippets>/<page>/<snippet>.py`` and the nav entry,
    in the folders ``config`` names (the project's ``[tool.docexec]`` where None). ``options``: the
    values of the ``new-page`` hook's options, by name."""
    config = config or load_config(root)
    page = page_path(page, config.docs)
    snippet = snippet.removesuffix(".py")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", snippet):
        raise ScaffoldError(f"{snippet}: a snippet name is lowercase words joined by underscores")
    snippet_path = f"{config.snippets}/{page}/{snippet}.py"
    problem = checks.snippet_name(snippet_path, config.labs)
    if problem:
        raise ScaffoldError(str(problem))
    hook = page_hook(config)
    unknown = sorted(set(options or {}) - set(hook.OPTIONS))
    if unknown:
        raise ScaffoldError(f"{', '.join(unknown)}: no such option of the project's new-page hook")
    given = {**dict.fromkeys(hook.OPTIONS), **(options or {})}
    try:
        fields = hook.fields(NewPage(page, title, snippet_path, given))
    except ValueError as error:
        raise ScaffoldError(str(error)) from None
    page_file, snippet_file = root / config.docs / f"{page}.md", root / snippet_path
    for existing in (page_file, snippet_file):
        if existing.exists():
            raise ScaffoldError(f"{existing.relative_to(root)} exists already")

    templates = root / config.templates
    template = (templates / PAGE_TEMPLATE).read_text(encoding="utf-8")
    example, heading = TEMPLATE_RUN.search(template), TEMPLATE_TITLE.search(template)
    if example is None:
        raise ScaffoldError(f"{config.templates}/{PAGE_TEMPLATE} holds no '%run <snippet>.py' line")
    if heading is None:
        raise ScaffoldError(f"{config.templates}/{PAGE_TEMPLATE} holds no '# Title' heading")
    text = _filled(
        template,
        config.templates,
        {
            heading.group(0): f"# {title}",
            **fields,
            example.group(0): f"%run {snippet_path}",
            _link_to(Path(example["path"]).stem): _link_to(snippet),
        },
    )
    source_code = (templates / SNIPPET_TEMPLATE).read_text(encoding="utf-8")
    first, rest = source_code.split("\n", 1)
    if not first.startswith("# Copy to "):
        raise ScaffoldError(f"{config.templates}/{SNIPPET_TEMPLATE}:1: expected the '# Copy to ...' line")
    mkdocs_yml = root / "mkdocs.yml"
    config_text, nav_line = with_nav_entry(mkdocs_yml.read_text(encoding="utf-8"), title, f"{page}.md")

    page_file.parent.mkdir(parents=True, exist_ok=True)
    page_file.write_text(text, encoding="utf-8")
    snippet_file.parent.mkdir(parents=True, exist_ok=True)
    snippet_file.write_text("# Replace the example with the proof of the claim its page makes.\n" + rest)
    mkdocs_yml.write_text(config_text, encoding="utf-8")
    return Created(page_file, snippet_file, nav_line)


def _link_to(snippet: str) -> str:
    """A link to a snippet's block: its file name, to the block's anchor."""
    return f"[`{snippet}.py`](#{snippet})"


def _filled(template: str, folder: str, replacements: dict[str, str]) -> str:
    for placeholder in replacements:
        if placeholder not in template:
            raise ScaffoldError(f"{folder}/{PAGE_TEMPLATE} no longer holds {placeholder!r}")
    # At once: a value is never read as another placeholder.
    pattern = "|".join(re.escape(placeholder) for placeholder in sorted(replacements, key=len, reverse=True))
    return re.sub(pattern, lambda match: replacements[match.group(0)], template)


@dataclass
class _Item:
    line: int  # index in the file's lines
    indent: int
    page: str | None  # the page's path, or None for a section


def with_nav_entry(config_text: str, title: str, page: str) -> tuple[str, int]:
    """mkdocs.yml with ``- title: page`` in its nav, beside the pages of the same folder; a page of
    a new folder goes at the end of the section whose pages share most of its folders. The file is
    edited as text, so its comments and MkDocs' own tags stay as they are."""
    lines = config_text.split("\n")
    items = _nav_items(lines)
    if not items:
        raise ScaffoldError("mkdocs.yml has no nav: to add the page to")
    if any(item.page == page for item in items):
        raise ScaffoldError(f"{page} is in the nav already")
    folder = posixpath.dirname(page).split("/") if "/" in page else []
    pages = [item for item in items if item.page]

    def shared(item: _Item) -> int:
        other = posixpath.dirname(item.page or "").split("/")
        count = 0
        for mine, theirs in zip(folder, other, strict=False):
            if mine != theirs or not mine:
                break
            count += 1
        return count

    best = max((shared(item) for item in pages), default=0)
    if best == 0:  # a new top-level folder: last in the nav, for the contributor to place
        at, indent = _section_end(items, None), items[0].indent
    else:
        last = [item for item in pages if shared(item) == best][-1]
        if best == len(folder):  # the same folder: right after its last page
            at, indent = last.line + 1, last.indent
        else:  # the outermost section around it whose pages all share those folders
            section = None
            for ancestor in _ancestors(items, last):
                if all(shared(item) == best for item in _descendants(items, ancestor) if item.page):
                    section = ancestor
                else:
                    break
            if section is None:
                at, indent = last.line + 1, last.indent
            else:
                indent = next(item.indent for item in items if item.line > section.line)
                at = _section_end(items, section)
                for child in _descendants(items, section):  # in folder order among its siblings
                    first = [child, *_descendants(items, child)]
                    path = next((item.page for item in first if item.page), None)
                    if child.indent == indent and path and _natural(path) > _natural(page):
                        at = child.line
                        break
    entry = f"{' ' * indent}- {_yaml_key(title)}: {page}"
    lines.insert(at, entry)
    text = "\n".join(lines)
    if page not in _nav_pages(text):
        raise ScaffoldError("the nav entry could not be added; add it by hand")
    return text, at + 1


def _nav_items(lines: list[str]) -> list[_Item]:
    items, inside = [], False
    for index, line in enumerate(lines):
        if line.startswith("nav:"):
            inside = True
            continue
        if inside and line.strip() and not line.startswith((" ", "-", "#")):
            break
        match = _NAV_ITEM.match(line) if inside else None
        if match:
            page = _PAGE.search(match["text"])
            items.append(_Item(index, len(match["indent"]), page["path"].strip() if page else None))
    return items


def _ancestors(items: list[_Item], item: _Item) -> list[_Item]:
    found, indent = [], item.indent
    for other in reversed([i for i in items if i.line < item.line]):
        if other.indent < indent:
            found.append(other)
            indent = other.indent
    return found


def _descendants(items: list[_Item], section: _Item) -> list[_Item]:
    after = [item for item in items if item.line > section.line]
    found = []
    for item in after:
        if item.indent <= section.indent:
            break
        found.append(item)
    return found


def _section_end(items: list[_Item], section: _Item | None) -> int:
    """The line after the last entry of ``section`` (of the whole nav for None)."""
    inside = items if section is None else _descendants(items, section)
    return (inside[-1] if inside else section).line + 1  # type: ignore[union-attr]


def _natural(path: str) -> list[int | str]:
    """Sorts part-12 after part-6."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]


def _yaml_key(title: str) -> str:
    plain = re.fullmatch(r"[\w][\w ,.&()'’—–-]*", title) and not title.endswith(" ")
    return title if plain else json.dumps(title, ensure_ascii=False)


class _IgnoringTags(yaml.SafeLoader):
    """Reads mkdocs.yml without MkDocs' own tags (``!relative``)."""


_IgnoringTags.add_multi_constructor("!", lambda loader, suffix, node: None)


def _nav_pages(config_text: str) -> list[str]:
    def walk(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [page for item in node for page in walk(item)]
        if isinstance(node, dict):
            return [page for value in node.values() for page in walk(value)]
        return []

    return walk(yaml.load(config_text, Loader=_IgnoringTags).get("nav", []))  # noqa: S506 - SafeLoader


__all__ = [
    "Created",
    "NewPage",
    "NewPageFields",
    "ScaffoldError",
    "anchor_of",
    "hook_options",
    "new_page",
    "page_hook",
    "page_path",
    "with_nav_entry",
]
