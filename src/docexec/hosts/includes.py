"""What a page may include with pymdownx.snippets (``--8<-- "file"``): files inside the folders
its ``base_path`` names, which lie inside the repository and hold no ``.git``.

The extension does most of it (``restrict_base_path``), with two gaps filled here: it compares
paths as written, so a link inside a base folder reached any file (the host checks those folders
by real path, `repository_bounds`); and an include it refuses (an absolute path, ``../``) ended
the build in a traceback, where this names the page and the include.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.exceptions import PluginError

from docexec.hosts.repository_bounds import GIT

EXTENSION = "pymdownx.snippets"
PREPROCESSOR = "snippet"  # the name and priority pymdownx.snippets registers its preprocessor with
PRIORITY = 32


def folders(config, root: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """The folders a page of this MkDocs ``config`` may include from (none without the extension);
    raises `PluginError` where the configuration lets a page reach further."""
    if EXTENSION not in config.markdown_extensions:
        return []
    options = config.mdx_configs.get(EXTENSION) or {}
    if options.get("restrict_base_path") is False:
        raise PluginError(f"docexec: {EXTENSION}: restrict_base_path is off, so a page may include any file")
    bases = options.get("base_path", ["."])
    found = []
    for base in [bases] if isinstance(bases, str | os.PathLike) else bases:
        folder = Path(os.path.abspath(os.fspath(base)))  # as the extension resolves it
        real = Path(os.path.realpath(folder))
        if not real.is_relative_to(root) or GIT in real.relative_to(root).parts:
            raise PluginError(f"docexec: {EXTENSION}: base_path {folder} is not a folder of the repository")
        if (root / GIT).is_relative_to(real):
            raise PluginError(
                f"docexec: {EXTENSION}: base_path {folder} holds the repository's {GIT}: "
                "name the folders pages include from"
            )
        found.append(folder)
    return found


class IncludeGuard(Extension):
    """Names the page and the include the extension refused. ``page``: the page converting now;
    ``shown``: the folders a page may include from, as the message says them."""

    def __init__(self, page: Callable[[], str], shown: str, **kwargs: object) -> None:
        self.page, self.shown = page, shown
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        if PREPROCESSOR in md.preprocessors:
            included = md.preprocessors[PREPROCESSOR]
            md.preprocessors.register(_Guarded(md, included, self), PREPROCESSOR, PRIORITY)


class _Guarded(Preprocessor):
    """The extension's preprocessor, in its place: the extension looks itself up by name."""

    def __init__(self, md: Markdown, included: Preprocessor, guard: IncludeGuard) -> None:
        super().__init__(md)
        self.included, self.guard = included, guard

    def __getattr__(self, name: str) -> object:
        return getattr(self.included, name)

    def run(self, lines: list[str]) -> list[str]:
        from pymdownx.snippets import SnippetMissingError  # installed: its preprocessor is registered

        try:
            return self.included.run(lines)
        except (SnippetMissingError, OSError, UnicodeDecodeError) as error:
            raise PluginError(
                f"docexec: {self.guard.page()}: {error}; a page includes only files inside {self.guard.shown}"
            ) from None


__all__ = ["EXTENSION", "IncludeGuard", "folders"]
